// readGguf: the fixture models read back key for key, from every kind of source, reading only
// the front of the file; hostile files give a GgufError naming what is wrong and never read past
// maxBytes; a property test mutates valid files at random.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readGguf, GgufError, GGUF_MAX_BYTES } from '../web/lib/gguf.js';
import { MODELS, gguf, writeGguf, llama3Factors } from './fixtures/gguf-writer.js';

/** A source counting the bytes asked of it: an ArrayBuffer-like read through a Blob. */
function counted(bytes) {
  const blob = new Blob([bytes]);
  const c = { read: 0, blob: null };
  c.blob = Object.assign(Object.create(Blob.prototype), {});
  // a Blob whose slices are counted (slice is the only way readGguf reads a Blob)
  c.blob = new Proxy(blob, {
    get(target, k) {
      if (k === 'slice') return (a, b) => { c.read += Math.min(b, blob.size) - Math.max(0, Math.min(a, blob.size)); return blob.slice(a, b); };
      const v = Reflect.get(target, k, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
    getPrototypeOf: () => Blob.prototype,
  });
  return c;
}

test('every fixture model reads back: keys with their values, tokenizer arrays summarised, RoPE tensors', async () => {
  for (const [name, m] of Object.entries(MODELS)) {
    const g = await readGguf(gguf(name));
    assert.equal(g.version, 3);
    assert.equal(g.littleEndian, true);
    assert.ok(Object.isFrozen(g) && Object.isFrozen(g.metadata) && Object.isFrozen(g.tensors), name);
    for (const [key, type, value] of m.kv) {
      const got = g.metadata[key];
      if (key.startsWith('tokenizer.') && type.startsWith('array:')) {
        assert.deepEqual(got, { itemType: type.slice(6), count: value.length }, `${name} ${key}`);
      } else if (type === 'f32') assert.equal(got, Math.fround(value), `${name} ${key}`);
      else if (type.startsWith('array:')) assert.deepEqual(got, value, `${name} ${key}`);
      else assert.equal(got, value, `${name} ${key}`);
    }
    assert.equal(Object.keys(g.metadata).length, m.kv.length);
    assert.deepEqual(g.tensors.map((t) => t.name), m.tensors.map((t) => t.name));
    assert.equal(g.dataOffset % 32, 0);
    for (const t of m.tensors.filter((x) => x.data)) {
      const key = t.name.replace('.weight', '');
      assert.deepEqual(g.ropeTensors[key], Float32Array.from(t.data), `${name} ${key}`);
    }
  }
  const llama = await readGguf(gguf('llama-3.1-8b'));
  assert.deepEqual(Object.keys(llama.ropeTensors), ['rope_freqs']);
  assert.deepEqual(llama.ropeTensors.rope_freqs, llama3Factors(500000, 128));
  assert.equal(llama.tensors[0].shape[0], 64);
  assert.deepEqual((await readGguf(gguf('llama-3.1-8b', { drop: ['rope_freqs.weight'] }))).ropeTensors, {});
});

test('sources: ArrayBuffer, a Uint8Array view at an offset, a Blob; the same result from each', async () => {
  const bytes = gguf('phi-3.5-mini');
  const want = await readGguf(bytes);
  const shifted = new Uint8Array(bytes.length + 5);
  shifted.set(bytes, 5);
  for (const src of [bytes.buffer.slice(0), shifted.subarray(5), new Blob([bytes]), new File([bytes], 'phi.gguf')]) {
    const g = await readGguf(src);
    assert.deepEqual({ ...g, bytesRead: 0 }, { ...want, bytesRead: 0 });
  }
  await assert.rejects(readGguf(42), TypeError);
  await assert.rejects(readGguf(bytes, { maxBytes: 4 }), RangeError);
  await assert.rejects(readGguf(bytes, { maxbytes: 100 }), /no key "maxbytes"/);
});

test('a multi-GB file is read at its front only: metadata, tensor infos and the RoPE tensors', async () => {
  // the weights: 24 MiB of data after the front (a real file has gigabytes)
  const front = gguf('llama-3.1-8b');
  const whole = new Uint8Array(front.length + 24 * 2 ** 20);
  whole.set(front);
  const c = counted(whole);
  const g = await readGguf(c.blob);
  assert.ok(c.read <= 2 * front.length + 256 * 1024, `read ${c.read} bytes of ${whole.length}`);
  assert.equal(g.bytesRead, c.read);
  assert.equal(g.ropeTensors.rope_freqs.length, 64);
});

test('big-endian v3 and little-endian v2 files read as the v3 little-endian one; v1 is refused by name', async () => {
  const m = MODELS['gemma-3-4b'];
  const le = await readGguf(writeGguf(m.kv, m.tensors));
  const be = await readGguf(writeGguf(m.kv, m.tensors, { littleEndian: false }));
  assert.equal(be.littleEndian, false);
  assert.deepEqual(be.metadata, le.metadata);
  const v2 = await readGguf(writeGguf(m.kv, m.tensors, { version: 2 }));
  assert.equal(v2.version, 2);
  assert.deepEqual(v2.metadata, le.metadata);
  const phi = MODELS['phi-3.5-mini'];
  const pbe = await readGguf(writeGguf(phi.kv, phi.tensors, { littleEndian: false }));
  assert.deepEqual(pbe.ropeTensors, (await readGguf(writeGguf(phi.kv, phi.tensors))).ropeTensors);
  await assert.rejects(readGguf(writeGguf(m.kv, m.tensors, { version: 1 })), (e) => e instanceof GgufError && e.code === 'unsupported' && /version 1/.test(e.message));
  await assert.rejects(readGguf(writeGguf(m.kv, m.tensors, { version: 2, littleEndian: false })), /big-endian GGUF must be version 3/);
  await assert.rejects(readGguf(writeGguf(m.kv, m.tensors, { version: 7 })), /version 7 is not known/);
});

/** Raw bytes of a header with `kv` count and what follows. */
function raw(kvCount, body, tensorCount = 0) {
  const head = new Uint8Array(24);
  const v = new DataView(head.buffer);
  head.set([0x47, 0x47, 0x55, 0x46]);
  v.setUint32(4, 3, true);
  v.setBigUint64(8, BigInt(tensorCount), true);
  v.setBigUint64(16, BigInt(kvCount), true);
  const out = new Uint8Array(24 + body.length);
  out.set(head);
  out.set(body, 24);
  return out;
}
function le(...parts) {
  const chunks = parts.map(([t, x]) => {
    const b = new Uint8Array(t === 'u64' ? 8 : t === 'str' ? 8 + x.length : 4);
    const v = new DataView(b.buffer);
    if (t === 'u64') v.setBigUint64(0, BigInt(x), true);
    else if (t === 'u32') v.setUint32(0, x, true);
    else if (t === 'str') { v.setBigUint64(0, BigInt(x.length), true); b.set(new TextEncoder().encode(x), 8); }
    return b;
  });
  const out = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

test('hostile files: a GgufError naming the fault, and never more than maxBytes read', async () => {
  const maxBytes = 1 << 20;
  const cases = [
    ['not GGUF', new TextEncoder().encode('PK\x03\x04 this is a zip file, not a model'), 'malformed', /not a GGUF file/],
    ['cut inside the header', raw(1, new Uint8Array(0)).subarray(0, 20), 'malformed', /ends/],
    ['a key length past the end', raw(1, le(['u64', 1000], ['u32', 0])), 'malformed', /ends/],
    ['a key of 2^63 bytes', raw(1, le(['u64', 2n ** 63n])), 'malformed', /past any real file/],
    ['a string value of 2 GB', raw(1, le(['str', 'general.name'], ['u32', 8], ['u64', 2 ** 31])), 'malformed', /ends/],
    ['an array count of 2^63', raw(1, le(['str', 'a.b'], ['u32', 9], ['u32', 4], ['u64', 2n ** 63n])), 'malformed', /past any real file/],
    ['an array count past the end', raw(1, le(['str', 'a.b'], ['u32', 9], ['u32', 4], ['u64', 2 ** 40])), 'malformed', /ends/],
    ['a kv count of 2^63', raw(2n ** 63n, new Uint8Array(0)), 'malformed', /metadata count/],
    ['nested arrays', raw(1, le(['str', 'a.b'], ['u32', 9], ['u32', 9], ['u64', 1], ['u32', 4], ['u64', 1], ['u32', 7])), 'unsupported', /array of arrays/],
    ['an unknown value type', raw(1, le(['str', 'a.b'], ['u32', 13], ['u32', 0])), 'malformed', /unknown value type 13/],
    ['an empty key', raw(1, le(['str', ''], ['u32', 4], ['u32', 0])), 'malformed', /empty/],
    ['duplicate keys', raw(2, le(['str', 'a.b'], ['u32', 4], ['u32', 1], ['str', 'a.b'], ['u32', 4], ['u32', 2])), 'malformed', /appears twice/],
    ['a bool of 7', raw(1, le(['str', 'a.b'], ['u32', 7], ['u32', 7])), 'malformed', /bool holding 7/],
    ['invalid UTF-8', raw(1, new Uint8Array([...le(['u64', 2]), 0xc3, 0x28, ...le(['u32', 4], ['u32', 0])])), 'malformed', /UTF-8/],
    ['a tensor of 9 dimensions', raw(0, le(['str', 'x.weight'], ['u32', 9], ...Array(9).fill(['u64', 1]), ['u32', 0], ['u64', 0]), 1), 'malformed', /9 dimensions/],
    ['a tensor count of 2^40', raw(0, new Uint8Array(64), 2 ** 40), 'malformed', /ends|dimensions/],
    ['a misaligned tensor offset', raw(0, le(['str', 'x.weight'], ['u32', 1], ['u64', 4], ['u32', 0], ['u64', 3]), 1), 'malformed', /not a multiple of the alignment/],
    ['rope_freqs stored as F16', raw(0, le(['str', 'rope_freqs.weight'], ['u32', 1], ['u64', 64], ['u32', 1], ['u64', 0]), 1), 'unsupported', /1-D F32/],
    ['rope_freqs data past the end', raw(0, le(['str', 'rope_freqs.weight'], ['u32', 1], ['u64', 64], ['u32', 0], ['u64', 0]), 1), 'malformed', /past the end/],
    ['an alignment of 3', raw(1, le(['str', 'general.alignment'], ['u32', 4], ['u32', 3])), 'malformed', /power of two/],
  ];
  for (const [what, bytes, code, re] of cases) {
    const c = counted(bytes);
    await assert.rejects(readGguf(c.blob, { maxBytes }), (e) => e instanceof GgufError && e.code === code && re.test(e.message), what);
    assert.ok(c.read <= maxBytes, `${what}: read ${c.read}`);
  }
  // a tokenizer larger than maxBytes: refused once the budget is spent, not read on
  const tokens = Array.from({ length: 40000 }, (_, i) => `token-${i}-${'x'.repeat(40)}`);
  const big = writeGguf([['general.architecture', 'string', 'llama'], ['tokenizer.ggml.tokens', 'array:string', tokens]]);
  const c = counted(new Uint8Array([...big, ...new Uint8Array(4 << 20)]));
  await assert.rejects(readGguf(c.blob, { maxBytes: 1 << 20 }), (e) => e.code === 'too-large' && /maxBytes/.test(e.message));
  assert.ok(c.read <= 1 << 20, `read ${c.read}`);
  assert.equal((await readGguf(big)).metadata['tokenizer.ggml.tokens'].count, 40000);
  assert.equal(GGUF_MAX_BYTES, 64 * 2 ** 20);
});

test('a key named __proto__ is an own key; nothing reaches Object.prototype', async () => {
  const g = await readGguf(writeGguf([['__proto__', 'string', 'x'], ['constructor', 'u32', 3], ['general.architecture', 'string', 'llama']]));
  assert.equal(Object.getPrototypeOf(g.metadata), Object.prototype);
  assert.ok(Object.hasOwn(g.metadata, '__proto__'));
  assert.equal(g.metadata.__proto__, 'x');
  assert.equal(({}).constructor, Object);
  assert.equal(g.metadata.constructor, 3);
});

test('64-bit values: exact Numbers up to 2^53, BigInt past it; long non-tokenizer arrays summarised', async () => {
  const g = await readGguf(writeGguf([
    ['a.small', 'u64', 2 ** 40], ['a.big', 'u64', 2n ** 60n], ['a.neg', 'i64', -5], ['a.f64', 'f64', 0.1],
    ['a.long', 'array:u8', new Array(70000).fill(1)], ['a.short', 'array:f32', [0.5, 2]],
  ]));
  assert.equal(g.metadata['a.small'], 2 ** 40);
  assert.equal(g.metadata['a.big'], 2n ** 60n);
  assert.equal(g.metadata['a.neg'], -5);
  assert.equal(g.metadata['a.f64'], 0.1);
  assert.deepEqual(g.metadata['a.long'], { itemType: 'u8', count: 70000 });
  assert.deepEqual(g.metadata['a.short'], [0.5, 2]);
});

/** A local Hub: Range requests on /ok.gguf, 401 on /gated.gguf, 404 elsewhere, no Range on /plain.gguf. */
async function hub(bytes) {
  const ranges = [];
  const server = createServer((req, res) => {
    if (req.url === '/gated.gguf') return res.writeHead(401).end('Access to model is restricted');
    if (req.url === '/plain.gguf') return res.writeHead(200, { 'content-length': bytes.length }).end(bytes);
    if (req.url !== '/ok.gguf') return res.writeHead(404).end('Entry not found');
    const m = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '');
    if (!m) return res.writeHead(200, { 'content-length': bytes.length }).end(bytes);
    const a = Number(m[1]), b = Math.min(Number(m[2]), bytes.length - 1);
    ranges.push([a, b]);
    if (a >= bytes.length) return res.writeHead(416, { 'content-range': `bytes */${bytes.length}` }).end();
    res.writeHead(206, { 'content-range': `bytes ${a}-${b}/${bytes.length}`, 'content-length': b - a + 1 }).end(bytes.subarray(a, b + 1));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, ranges, close: () => new Promise((r) => server.close(r)) };
}

test('a URL is read with Range requests (front and RoPE tensors only); gated, missing and no-Range servers', async () => {
  const front = gguf('phi-3.5-mini');
  const whole = new Uint8Array(front.length + 8 * 2 ** 20);
  whole.set(front);
  const h = await hub(whole);
  try {
    const progress = [];
    const g = await readGguf(`${h.url}/ok.gguf`, { onProgress: (n, total) => progress.push([n, total]) });
    assert.deepEqual(g.metadata, (await readGguf(front)).metadata);
    assert.equal(g.ropeTensors.rope_factors_long.length, 48);
    const fetched = h.ranges.reduce((s, [a, b]) => s + b - a + 1, 0);
    assert.ok(fetched < 2 ** 20, `fetched ${fetched} bytes of ${whole.length}`);
    assert.equal(progress.at(-1)[1], whole.length);
    await assert.rejects(readGguf(`${h.url}/gated.gguf`), (e) => e.code === 'gated' && /gated or private/.test(e.message));
    await assert.rejects(readGguf(`${h.url}/missing.gguf`), (e) => e.code === 'not-found' && /404/.test(e.message));
    const plain = await readGguf(`${h.url}/plain.gguf`);
    assert.deepEqual(plain.metadata, g.metadata);
    await assert.rejects(readGguf('http://127.0.0.1:1/x.gguf'), (e) => e.code === 'network');
  } finally {
    await h.close();
  }
});

/** xorshift32: the property test's deterministic random numbers. */
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 2 ** 32;
  };
}

test('property: any mutation of a valid file reads or fails with a GgufError, within maxBytes', async () => {
  const seeds = Object.keys(MODELS).map((n) => gguf(n));
  const rand = rng(20260101);
  const maxBytes = 64 * 1024;
  let ok = 0, refused = 0;
  for (let iter = 0; iter < 600; iter++) {
    const base = seeds[iter % seeds.length];
    const cut = rand() < 0.3; // a file cut short, or whole
    const b = base.slice(0, cut ? 1 + Math.floor(rand() * base.length) : base.length);
    const flips = Math.floor(rand() * 4);
    for (let k = 0; k < flips; k++) {
      const at = Math.floor(rand() * Math.min(b.length, 4096));
      const r = rand();
      // bytes that matter most: lengths, counts and types get 0x00, 0xff or 0x80 as well as random bytes
      b[at] = r < 0.25 ? 0xff : r < 0.4 ? 0 : r < 0.5 ? 0x80 : Math.floor(rand() * 256);
    }
    const c = counted(b);
    try {
      const g = await readGguf(c.blob, { maxBytes });
      assert.ok(Object.isFrozen(g.metadata));
      ok++;
    } catch (e) {
      assert.ok(e instanceof GgufError, `iteration ${iter}: ${e?.constructor?.name}: ${e?.message}`);
      assert.ok(e.message.length > 10);
      refused++;
    }
    assert.ok(c.read <= maxBytes, `iteration ${iter}: read ${c.read}`);
  }
  assert.ok(ok > 20 && refused > 100, `${ok} read, ${refused} refused`);
});

test('bool arrays read as booleans, as a lone bool does (Gemma 4\'s sliding pattern); a bool holding 2 is malformed', async () => {
  const g = await readGguf(gguf('gemma-4-e2b'));
  const pat = g.metadata['gemma4.attention.sliding_window_pattern'];
  assert.equal(pat.length, 35);
  assert.ok(pat.every((x, i) => x === (i % 5 !== 4)), JSON.stringify(pat));
  // rope_freqs: 64 ones, then 192 times 1e30 as float32
  const ff = g.ropeTensors.rope_freqs;
  assert.equal(ff.length, 256);
  assert.deepEqual([...new Set(ff.subarray(0, 64))], [1]);
  assert.deepEqual([...new Set(ff.subarray(64))], [Math.fround(1e30)]);
  const bad = writeGguf([['a.b', 'array:u8', [1, 0]]]);
  bad[bad.length - 1] = 2; // the second item, retyped as bool below
  const asBool = writeGguf([['a.b', 'array:bool', [true, false]]]);
  asBool[asBool.length - 1] = 2;
  await assert.rejects(readGguf(asBool), (e) => e instanceof GgufError && e.code === 'malformed' && /a\.b\[1\] is a bool holding 2/.test(e.message));
  assert.deepEqual((await readGguf(bad)).metadata['a.b'], [1, 2]);
});

test('a file path is not a URL: a TypeError naming source says to pass the bytes, and nothing is fetched', async () => {
  const calls = [];
  const fetch = async (...a) => calls.push(a);
  for (const path of ['/tmp/x.gguf', 'models/x.gguf', 'C:\\models\\x.gguf', 'file:///tmp/x.gguf', 'hub:owner/name', 'localhost:8080/x.gguf']) {
    await assert.rejects(readGguf(path, { fetch }), (e) => e instanceof TypeError &&
      e.message === `source ${JSON.stringify(path)} is not an http(s) URL; to read a local file, pass its bytes or a Blob over it (in Node: fs.readFileSync(path), or await fs.openAsBlob(path), which reads only the front)`);
  }
  assert.deepEqual(calls, []);
});
