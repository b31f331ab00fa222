// The safetensors reader: files built here byte by byte (Llama-, Qwen2- and Qwen3-layout layer 0,
// BF16 and F32, one sharded with an index), read from memory, from a Blob and over a local HTTP
// server with Range support that counts the bytes it serves; hostile headers; and a property
// test of the header parser on seeded random headers and mutations of them.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readSafetensors, parseHeader, MAX_HEADER_BYTES } from '../web/lib/safetensors.js';
import { writeSafetensors } from '../web/lib/safetensors-write.js';
import { layerModel, buildSafetensors, rawHeader, concat, serveFiles, rng, values } from './weights-fixtures.js';

const enc = (s) => new TextEncoder().encode(s);
/** A file whose header is `json` (text or object) followed by `data` bytes. */
const fileWith = (json, data = 0, length) => {
  const h = enc(typeof json === 'string' ? json : JSON.stringify(json));
  return concat(rawHeader(h, length), new Uint8Array(data));
};

const models = {};
for (const kind of ['llama', 'qwen2', 'qwen3']) for (const dtype of ['F32', 'BF16']) models[`${kind}-${dtype}`] = layerModel(kind, { dtype, seed: kind.length + dtype.length });

// the sharded model: Qwen2 layout, BF16, two shards and an index
const sharded = models['qwen2-BF16'];
const shardA = buildSafetensors(sharded.tensors.slice(0, 3), { metadata: { format: 'pt' } });
const shardB = buildSafetensors(sharded.tensors.slice(3), { metadata: { format: 'pt' }, pad: 5 });
const index = {
  metadata: { total_size: shardA.bytes.length + shardB.bytes.length },
  weight_map: Object.fromEntries(sharded.tensors.map((t, i) => [t.name, i < 3 ? 'model-00001-of-00002.safetensors' : 'model-00002-of-00002.safetensors'])),
};
const files = { '/index/model.safetensors.index.json': enc(JSON.stringify(index)), '/index/model-00001-of-00002.safetensors': shardA.bytes, '/index/model-00002-of-00002.safetensors': shardB.bytes };
for (const [k, m] of Object.entries(models)) files[`/m/${k}.safetensors`] = buildSafetensors(m.tensors, { metadata: { format: 'pt' } }).bytes;
files['/gated/model.safetensors'] = files['/m/llama-F32.safetensors'];
files['/plain/model.safetensors'] = files['/m/llama-BF16.safetensors'];
// a model whose embedding table is larger than the first read (1200 × 48 BF16 = 115 KB)
const wide = layerModel('llama', { dtype: 'BF16', vocab: 1200, seed: 5 });
files['/wide/model.safetensors'] = buildSafetensors(wide.tensors).bytes;
const wideData = wide.tensors.reduce((s, t) => s + 2 * t.data.length, 0);
// a header longer than the first read (64 KiB): a second request fetches the rest
files['/big/model.safetensors'] = buildSafetensors(models['llama-F32'].tensors, { metadata: { note: 'x'.repeat(100000) } }).bytes;
const server = await serveFiles(files, { gated: ['/gated/model.safetensors'], noRange: ['/plain/model.safetensors'] });
after(() => server.close());

const same = (got, want, what) => {
  assert.equal(got.length, want.length, `${what}: length`);
  for (let i = 0; i < want.length; i++) if (!Object.is(got[i], Math.fround(want[i]))) assert.fail(`${what}[${i}]: ${got[i]} != ${want[i]}`);
};

test('every tensor of every layout reads back exactly, from memory, a Blob and over HTTP', async () => {
  for (const [key, m] of Object.entries(models)) {
    const bytes = files[`/m/${key}.safetensors`];
    for (const source of [bytes.buffer, new Blob([bytes]), server.url(`/m/${key}.safetensors`)]) {
      const st = await readSafetensors(source);
      assert.deepEqual([...st.names].sort(), m.tensors.map((t) => t.name).sort());
      assert.equal(st.metadata.format, 'pt');
      for (const t of m.tensors) {
        assert.deepEqual(st.info(t.name), { dtype: t.dtype, shape: t.shape, byteLength: t.data.length * (t.dtype === 'F32' ? 4 : 2), file: null });
        same(await st.tensor(t.name), t.data, `${key} ${t.name}`);
      }
    }
  }
});

test('row reads over HTTP fetch only those rows\' bytes (counted by the server)', async () => {
  const m = wide;
  const emb = m.byName['model.embed_tokens.weight'];
  const H = emb.shape[1], rowBytes = 2 * H;
  const n00 = server.log.length;
  const st = await readSafetensors(server.url('/wide/model.safetensors'));
  assert.deepEqual(server.log.slice(n00).map((r) => [r.status, r.range, r.bytes]), [[206, 'bytes=0-65535', 65536]], 'one request opens the file');
  const header = 65536;
  // rows within the first 64 KiB come from that read: no request
  const first = Math.floor((65536 - 8 - (files['/wide/model.safetensors'].length - wideData)) / rowBytes) - 1;
  same(await st.tensor('model.embed_tokens.weight', { rows: [first] }), emb.data.subarray(first * H, (first + 1) * H), 'a row of the first read');
  assert.equal(server.log.length, n00 + 1);
  const before = server.log.length;
  const rows = [1007, 1003, 1004, 1005, 1007, 1199, 1000];
  const got = await st.tensor('model.embed_tokens.weight', { rows });
  const want = rows.flatMap((r) => Array.from(emb.data.subarray(r * H, (r + 1) * H)));
  same(got, want, 'rows');
  const reqs = server.log.slice(before);
  // distinct rows 1000, 1003-1005, 1007, 1199: four runs, six rows
  assert.equal(reqs.length, 4, 'one request per run of consecutive rows');
  assert.equal(reqs.reduce((s, r) => s + r.bytes, 0), 6 * rowBytes, 'exactly the rows\' bytes');
  assert.ok(reqs.every((r) => r.status === 206));
  assert.equal(st.bytesRead, header + 6 * rowBytes, 'bytesRead counts what arrived');
  // a whole tensor: one request of exactly its bytes
  const n0 = server.log.length;
  await st.tensor('model.layers.0.self_attn.k_proj.weight');
  assert.deepEqual(server.log.slice(n0).map((r) => r.bytes), [st.info('model.layers.0.self_attn.k_proj.weight').byteLength]);
  // rows of a zero-row request: nothing fetched
  const n1 = server.log.length;
  assert.equal((await st.tensor('model.embed_tokens.weight', { rows: [] })).length, 0);
  assert.equal(server.log.length, n1);
});

test('a sharded model: the index, then each shard\'s header, then only the bytes asked for', async () => {
  const n00 = server.log.length;
  const st = await readSafetensors(server.url('/index/model.safetensors.index.json'));
  assert.deepEqual(server.log.slice(n00).map((r) => r.path).sort(), Object.keys(files).filter((f) => f.startsWith('/index/')).sort(), 'the index and one read per shard');
  assert.deepEqual(st.shards, ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors']);
  assert.deepEqual(st.names, Object.keys(index.weight_map));
  assert.equal(st.metadata.format, 'pt');
  for (const t of sharded.tensors) {
    assert.equal(st.info(t.name).file, index.weight_map[t.name]);
    same(await st.tensor(t.name), t.data, t.name);
  }
  const n0 = server.log.length;
  const b = 'model.layers.0.self_attn.k_proj.bias';
  same(await st.tensor(b, { rows: [1, 2] }), sharded.byName[b].data.subarray(1, 3), 'bias rows');
  // (these shards are smaller than the first read: every tensor came with it)
  assert.equal(server.log.length, n0);
});

test('a header longer than the first read, and a server that ignores Range', async () => {
  const st = await readSafetensors(server.url('/big/model.safetensors'));
  assert.equal(st.metadata.note.length, 100000);
  same(await st.tensor('model.layers.0.input_layernorm.weight'), models['llama-F32'].byName['model.layers.0.input_layernorm.weight'].data, 'norm');
  const plain = await readSafetensors(server.url('/plain/model.safetensors'));
  const n0 = server.log.length;
  same(await plain.tensor('model.layers.0.input_layernorm.weight'), models['llama-BF16'].byName['model.layers.0.input_layernorm.weight'].data, 'norm');
  assert.equal(server.log.length, n0, 'the whole file came with the first answer: nothing more is fetched');
});

test('gated, missing and unreachable files reject with the status and the URL', async () => {
  await assert.rejects(readSafetensors(server.url('/gated/model.safetensors')), (e) => e.status === 401 && /gated or private/.test(e.message) && e.url.endsWith('/gated/model.safetensors'));
  await assert.rejects(readSafetensors(server.url('/nope/model.safetensors')), (e) => e.status === 404 && /not found/.test(e.message));
  await assert.rejects(readSafetensors(server.url('/nope/model.safetensors.index.json')), (e) => e.status === 404);
  const offline = async () => {
    throw new TypeError('fetch failed');
  };
  await assert.rejects(readSafetensors('http://127.0.0.1:9/x.safetensors', { fetch: offline }), (e) => /could not reach/.test(e.message) && e.cause instanceof TypeError);
  await assert.rejects(readSafetensors(42), /^TypeError: source must be an ArrayBuffer, a Blob or File, or a URL/);
  await assert.rejects(readSafetensors(new Uint8Array(8).buffer, { fetsh: 1 }), /no key "fetsh"; did you mean "fetch"/);
});

test('tensor() checks its arguments', async () => {
  const st = await readSafetensors(files['/m/qwen3-F32.safetensors']);
  await assert.rejects(st.tensor('nope'), /^RangeError: no tensor named "nope"/);
  await assert.rejects(st.tensor(3), /^TypeError: name must be a tensor name/);
  const e = 'model.embed_tokens.weight';
  await assert.rejects(st.tensor(e, { rows: [40] }), /^RangeError: rows\[0\] must be in \[0, 39\]/);
  await assert.rejects(st.tensor(e, { rows: [1.5] }), /^TypeError: rows\[0\] must be an integer/);
  await assert.rejects(st.tensor(e, { rows: ['1'] }), /^TypeError: rows\[0\] must be an integer/);
  await assert.rejects(st.tensor(e, { rows: 3 }), /^TypeError: rows must be an array/);
  await assert.rejects(st.tensor(e, { row: [1] }), /no key "row"; did you mean "rows"/);
  const i64 = await readSafetensors(fileWith({ ids: { dtype: 'I64', shape: [2], data_offsets: [0, 16] } }, 16));
  assert.deepEqual(i64.info('ids'), { dtype: 'I64', shape: [2], byteLength: 16, file: null });
  await assert.rejects(i64.tensor('ids'), /^TypeError: tensor "ids" is I64; this reader decodes F32, F16, BF16/);
});

test('F16 decodes every class of value exactly', async () => {
  const bits = [0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0xc000, 0x7bff, 0x7c00, 0xfc00, 0x3555];
  const want = [0, -0, 2 ** -24, 1023 * 2 ** -24, 2 ** -14, 1, -2, 65504, Infinity, -Infinity, 0.333251953125];
  const data = new Uint8Array(bits.length * 2);
  bits.forEach((b, i) => new DataView(data.buffer).setUint16(2 * i, b, true));
  const st = await readSafetensors(concat(rawHeader(enc(JSON.stringify({ h: { dtype: 'F16', shape: [bits.length], data_offsets: [0, data.length] } }))), data));
  assert.deepEqual(Array.from(await st.tensor('h')), want);
});

test('hostile headers are refused with the reason', async () => {
  const ok = { a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] } };
  const cases = [
    ['a header length past the limit', fileWith(ok, 8, MAX_HEADER_BYTES + 1), RangeError, /past the limit/],
    ['a header length of 2^64 - 1', (() => {
      const f = fileWith(ok, 8);
      new DataView(f.buffer).setBigUint64(0, 2n ** 64n - 1n, true);
      return f;
    })(), RangeError, /past the limit/],
    ['a header length past the end of the file', fileWith(ok, 8, 5000), RangeError, /runs past the end/],
    ['shorter than 8 bytes', new Uint8Array(5), RangeError, /too short/],
    ['not JSON', fileWith('{"a": ', 0), TypeError, /not valid JSON/],
    ['not an object', fileWith('[1, 2]', 0), TypeError, /must be a JSON object/],
    ['invalid UTF-8', concat(rawHeader(Uint8Array.of(0x7b, 0xff, 0x7d))), TypeError, /not valid UTF-8/],
    ['an unknown dtype', fileWith({ a: { dtype: 'F33', shape: [2], data_offsets: [0, 8] } }, 8), TypeError, /unknown dtype "F33"/],
    ['a dtype that is not a string', fileWith({ a: { dtype: 4, shape: [2], data_offsets: [0, 8] } }, 8), TypeError, /unknown dtype/],
    ['a negative dimension', fileWith({ a: { dtype: 'F32', shape: [-2], data_offsets: [0, 8] } }, 8), TypeError, /non-negative integers/],
    ['a fractional dimension', fileWith({ a: { dtype: 'F32', shape: [1.5], data_offsets: [0, 6] } }, 6), TypeError, /non-negative integers/],
    ['a shape that overflows 2^53', fileWith({ a: { dtype: 'F32', shape: [2 ** 30, 2 ** 30, 2 ** 30], data_offsets: [0, 8] } }, 8), RangeError, /overflows/],
    ['a shape whose bytes overflow 2^53', fileWith({ a: { dtype: 'F64', shape: [2 ** 26, 2 ** 26], data_offsets: [0, 8] } }, 8), RangeError, /overflows/],
    ['a byte span that disagrees with the shape', fileWith({ a: { dtype: 'F32', shape: [3], data_offsets: [0, 8] } }, 8), RangeError, /needs 12/],
    ['offsets past the end of the file', fileWith({ a: { dtype: 'F32', shape: [4], data_offsets: [0, 16] } }, 8), RangeError, /past the end of the file/],
    ['reversed offsets', fileWith({ a: { dtype: 'F32', shape: [0], data_offsets: [8, 0] } }, 8), RangeError, /0 <= begin <= end/],
    ['overlapping tensors', fileWith({ a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] }, b: { dtype: 'F32', shape: [2], data_offsets: [4, 12] } }, 12), RangeError, /overlaps/],
    ['a hole between tensors', fileWith({ a: { dtype: 'F32', shape: [1], data_offsets: [0, 4] }, b: { dtype: 'F32', shape: [1], data_offsets: [8, 12] } }, 12), RangeError, /belong to no tensor/],
    ['trailing bytes after the last tensor', fileWith(ok, 12), RangeError, /bytes after the last tensor/],
    ['an entry with an extra key', fileWith({ a: { ...ok.a, strides: [1] } }, 8), TypeError, /unknown key "strides"/],
    ['an entry that is not an object', fileWith({ a: [1, 2] }, 0), TypeError, /must be an object/],
    ['data_offsets of one number', fileWith({ a: { dtype: 'F32', shape: [2], data_offsets: [8] } }, 8), TypeError, /data_offsets must be/],
    ['__metadata__ holding a number', fileWith({ __metadata__: { format: 1 }, ...ok }, 8), TypeError, /__metadata__.format must be a string/],
    ['__metadata__ holding an object', fileWith({ __metadata__: { x: { y: 'z' } }, ...ok }, 8), TypeError, /must be a string/],
    ['__metadata__ an array', fileWith({ __metadata__: ['a'], ...ok }, 8), TypeError, /__metadata__ must be an object/],
    ['a __proto__ tensor', fileWith('{"__proto__": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}', 8), RangeError, /"__proto__" is not allowed/],
    ['a constructor tensor', fileWith({ constructor: ok.a }, 8), RangeError, /"constructor" is not allowed/],
    ['a __proto__ key in __metadata__', fileWith('{"__metadata__": {"__proto__": "x"}}', 0), RangeError, /"__proto__" is not allowed/],
    ['a header nested too deeply', fileWith('{"a":' + '['.repeat(20000) + ']'.repeat(20000) + '}', 0), null, /./],
  ];
  for (const [what, bytes, Err, re] of cases) {
    await assert.rejects(readSafetensors(bytes), (e) => (Err ? e instanceof Err : e instanceof TypeError || e instanceof RangeError) && re.test(e.message), what);
    await assert.rejects(readSafetensors(new Blob([bytes])), Err ?? Error, what);
  }
  assert.equal(Object.prototype.dtype, undefined, 'nothing reached Object.prototype');
  // the same refusals over HTTP, and a hostile index
  const hostile = await serveFiles({
    '/h/model.safetensors': fileWith(ok, 8, 5000),
    '/i/a.safetensors.index.json': enc(JSON.stringify({ weight_map: { a: '../../etc/passwd.safetensors' } })),
    '/j/a.safetensors.index.json': enc(JSON.stringify({ weight_map: { a: 'model-1.safetensors' } })),
    '/j/model-1.safetensors': fileWith({ b: ok.a }, 8),
    '/k/a.safetensors.index.json': enc('{"weight_map": {"__proto__": "m.safetensors"}}'),
    '/l/a.safetensors.index.json': enc('{"metadata": {}}'),
  });
  try {
    await assert.rejects(readSafetensors(hostile.url('/h/model.safetensors')), /header length 5000 runs past the end of the file \(70 bytes\)/);
    await assert.rejects(readSafetensors(hostile.url('/i/a.safetensors.index.json')), /must be a file name beside the index/);
    await assert.rejects(readSafetensors(hostile.url('/j/a.safetensors.index.json')), /puts "a" in model-1.safetensors, whose header does not hold it/);
    await assert.rejects(readSafetensors(hostile.url('/k/a.safetensors.index.json')), /"__proto__" is not allowed/);
    await assert.rejects(readSafetensors(hostile.url('/l/a.safetensors.index.json')), /no weight_map object/);
    assert.ok(!hostile.log.some((r) => r.path.includes('passwd')));
  } finally {
    await hostile.close();
  }
});

test('writeSafetensors: the layout safetensors writes (name order, 8-byte alignment), read back exactly', async () => {
  const rand = rng(9);
  const t = { 'b.weight': { dtype: 'F32', shape: [3, 5], data: values(rand, 15) }, 'a.bias': { dtype: 'BF16', shape: [7], data: values(rand, 7) }, 'c.h': { dtype: 'F16', shape: [2, 2], data: [1, -0.5, 65504, 2 ** -24] } };
  const bytes = writeSafetensors(t, { format: 'pt' });
  const n = Number(new DataView(bytes.buffer).getBigUint64(0, true));
  assert.equal((8 + n) % 8, 0, 'the data starts 8-aligned');
  const { entries } = parseHeader(bytes.subarray(8, 8 + n), bytes.length - 8 - n);
  assert.deepEqual([...entries.keys()], ['a.bias', 'b.weight', 'c.h']);
  assert.deepEqual([...entries.values()].map((e) => e.begin), [0, 14, 74]);
  const st = await readSafetensors(bytes);
  same(await st.tensor('b.weight'), t['b.weight'].data, 'F32');
  same(await st.tensor('c.h'), t['c.h'].data, 'F16');
  // BF16 rounds to nearest even: within half a unit in the last place (2^-8 relative)
  const got = await st.tensor('a.bias');
  t['a.bias'].data.forEach((x, i) => assert.ok(Math.abs(got[i] - x) <= Math.abs(x) * 2 ** -8, `bf16 ${x} -> ${got[i]}`));
  // ties go to even: 1 + 2^-8 (halfway between 1 and 1 + 2^-7) -> 1; 1 + 3·2^-8 -> 1 + 2^-6
  const ties = await readSafetensors(writeSafetensors({ t: { dtype: 'BF16', shape: [2], data: [1 + 2 ** -8, 1 + 3 * 2 ** -8] } }));
  assert.deepEqual(Array.from(await ties.tensor('t')), [1, 1 + 2 ** -6]);
  assert.throws(() => writeSafetensors({ __proto__x: 1, ['__metadata__']: { dtype: 'F32', shape: [1], data: [1] } }), /not allowed/);
  assert.throws(() => writeSafetensors({ a: { dtype: 'I8', shape: [1], data: [1] } }), /^RangeError: tensors\["a"\].dtype/);
  assert.throws(() => writeSafetensors({ a: { dtype: 'F32', shape: [2], data: [1] } }), /needs 2/);
  assert.throws(() => writeSafetensors({ a: { dtype: 'F32', shape: [-1], data: [] } }), /^TypeError: tensors\["a"\].shape must be/);
  assert.throws(() => writeSafetensors({ a: { dtype: 'F32', shape: [1], data: 'x' } }), /^TypeError: tensors\["a"\].data must be/);
});

// ---- property test: seeded random headers, and mutations of them ----

function randomHeader(rand) {
  const dtypes = ['F32', 'F16', 'BF16', 'I8', 'U8', 'I64', 'F64', 'BOOL'];
  const size = { F32: 4, F16: 2, BF16: 2, I8: 1, U8: 1, I64: 8, F64: 8, BOOL: 1 };
  const n = Math.floor(rand() * 6);
  const names = [...new Set(Array.from({ length: n }, () => `model.layers.${Math.floor(rand() * 4)}.w${Math.floor(rand() * 9)}`))];
  const header = {};
  if (rand() < 0.5) header.__metadata__ = { format: 'pt', n: String(names.length) };
  let at = 0;
  for (const name of names) {
    const dtype = dtypes[Math.floor(rand() * dtypes.length)];
    const shape = Array.from({ length: Math.floor(rand() * 3) }, () => Math.floor(rand() * 4));
    const bytes = shape.reduce((p, d) => p * d, 1) * size[dtype];
    header[name] = { dtype, shape, data_offsets: [at, at + bytes] };
    at += bytes;
  }
  return { header, dataSize: at };
}

test('property: random valid headers parse to exactly their entries; mutations parse consistently or throw TypeError/RangeError', () => {
  const rand = rng(2026);
  let parsed = 0, refused = 0;
  for (let iter = 0; iter < 3000; iter++) {
    const { header, dataSize } = randomHeader(rand);
    const json = enc(JSON.stringify(header) + ' '.repeat(Math.floor(rand() * 8)));
    const { entries, metadata } = parseHeader(json, dataSize);
    const names = Object.keys(header).filter((k) => k !== '__metadata__');
    assert.deepEqual([...entries.keys()], names);
    for (const k of names) {
      const e = entries.get(k);
      assert.deepEqual([e.dtype, [...e.shape], e.begin, e.end], [header[k].dtype, header[k].shape, ...header[k].data_offsets]);
    }
    assert.deepEqual({ ...metadata }, header.__metadata__ ?? {});
    // a mutation: flip, insert, delete or overwrite a few bytes, or truncate
    const m = Uint8Array.from(json);
    let bytes = m;
    const kind = Math.floor(rand() * 4);
    if (kind === 0) for (let j = 0; j < 1 + rand() * 3; j++) m[Math.floor(rand() * m.length)] ^= 1 << Math.floor(rand() * 8);
    else if (kind === 1) bytes = m.subarray(0, Math.floor(rand() * m.length));
    else if (kind === 2) { const at = Math.floor(rand() * m.length); m[at] = '0123456789-.e,[]{}":'.charCodeAt(Math.floor(rand() * 20)); }
    else bytes = concat(m.subarray(0, m.length >> 1), enc(['1', '-', '"', '9'.repeat(20), ','][Math.floor(rand() * 5)]), m.subarray(m.length >> 1));
    try {
      const r = parseHeader(bytes, rand() < 0.5 ? dataSize : null);
      parsed++;
      // whatever parses tiles [0, end) with spans that match shape × dtype
      const spans = [...r.entries.values()].sort((a, b) => a.begin - b.begin);
      let at = 0;
      for (const e of spans) {
        assert.equal(e.begin, at);
        assert.ok(Number.isSafeInteger(e.end) && e.end >= e.begin);
        at = e.end;
      }
    } catch (e) {
      refused++;
      assert.ok(e instanceof TypeError || e instanceof RangeError, `a mutation threw ${e?.constructor?.name}: ${e?.message}`);
    }
  }
  assert.ok(parsed > 100 && refused > 1000, `both outcomes occur (${parsed} parsed, ${refused} refused)`);
  assert.equal(Object.prototype.dtype, undefined);
});

test('a table too large to read whole (Qwen2.5-0.5B\'s embedding: 151936 × 896 BF16, 272 MB) gives its rows, reading only them', async () => {
  // a virtual file behind options.fetch: the header, then bytes that encode each row's index
  const V = 151936, H = 896, rowBytes = 2 * H;
  const json = enc(JSON.stringify({ 'model.embed_tokens.weight': { dtype: 'BF16', shape: [V, H], data_offsets: [0, V * rowBytes] } }));
  const head = rawHeader(json), size = head.length + V * rowBytes;
  const served = [];
  const fetch = async (url, { headers }) => {
    const [, a, b] = /^bytes=(\d+)-(\d+)$/.exec(headers.Range).map(Number);
    const end = Math.min(b, size - 1), body = new Uint8Array(end - a + 1);
    for (let p = a; p <= end; p++) {
      if (p < head.length) body[p - a] = head[p];
      else {
        // element j of row r holds bf16(r + j/1024): high byte first in the number, little-endian in the file
        const off = p - head.length, r = Math.floor(off / rowBytes), j = (off % rowBytes) >> 1;
        const bits = new Uint32Array(Float32Array.of(r + j / 1024).buffer)[0] >>> 16;
        body[p - a] = off % 2 ? bits >> 8 : bits & 255;
      }
    }
    served.push(body.length);
    return new Response(body, { status: 206, headers: { 'content-range': `bytes ${a}-${end}/${size}` } });
  };
  const st = await readSafetensors('http://hub.invalid/model.safetensors', { fetch });
  await assert.rejects(st.tensor('model.embed_tokens.weight'), /^RangeError: tensor "model.embed_tokens.weight" has 136134656 elements; at most 67108864 are read at once \(ask for rows\)/);
  const n0 = served.length;
  const rows = [151935, 9707, 0];
  const got = await st.tensor('model.embed_tokens.weight', { rows });
  // (row 0 came with the first read, the header's 64 KiB)
  assert.deepEqual(served.slice(n0), [rowBytes, rowBytes]);
  rows.forEach((r, i) => {
    const bf = (x) => new Float32Array(new Uint32Array([(new Uint32Array(Float32Array.of(x).buffer)[0] >>> 16) << 16]).buffer)[0];
    for (const j of [0, 1, 895]) assert.equal(got[i * H + j], bf(r + j / 1024), `row ${r}, element ${j}`);
  });
});

test('property: whole files, mutated anywhere (length, header, data) or cut short, open and read or refuse with TypeError/RangeError', async () => {
  const rand = rng(4242);
  const base = Object.values(models).map((m) => buildSafetensors(m.tensors, { metadata: { format: 'pt' } }).bytes);
  let opened = 0, refused = 0;
  for (let iter = 0; iter < 400; iter++) {
    const f = Uint8Array.from(base[iter % base.length]);
    let bytes = f;
    const n = Number(new DataView(f.buffer).getBigUint64(0, true));
    const kind = Math.floor(rand() * 4);
    if (kind === 0) f[Math.floor(rand() * 8)] ^= 1 << Math.floor(rand() * 8); // the length
    else if (kind === 1) f[8 + Math.floor(rand() * n)] ^= 1 << Math.floor(rand() * 8); // the header
    else if (kind === 2) f[8 + n + Math.floor(rand() * (f.length - 8 - n))] ^= 0xff; // the data
    else bytes = f.subarray(0, Math.floor(rand() * f.length)); // cut short
    try {
      const st = await readSafetensors(rand() < 0.5 ? bytes : new Blob([bytes]));
      for (const name of st.names) {
        const { dtype, shape } = st.info(name);
        if (['F32', 'F16', 'BF16'].includes(dtype)) assert.equal((await st.tensor(name)).length, shape.reduce((p, d) => p * d, 1));
      }
      opened++;
    } catch (e) {
      refused++;
      assert.ok(e instanceof TypeError || e instanceof RangeError, `kind ${kind}: ${e?.constructor?.name}: ${e?.message}`);
    }
  }
  assert.ok(opened > 50 && refused > 50, `${opened} opened, ${refused} refused`);
});
