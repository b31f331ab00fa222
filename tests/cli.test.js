// The `posenc` command (web/tools/posenc-cli.js): its outputs and exit codes on files the test
// writes, and on a local stand-in for the Hub (a public model, a gated one, a missing one, a GGUF
// served with Range requests). Nothing here uses the network.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODELS, gguf } from './fixtures/gguf-writer.js';
import { MODELS as GALLERY } from '../web/lib/posenc.js';

const CLI = fileURLToPath(new URL('../web/tools/posenc-cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'posenc-cli-'));
const file = (name, data) => {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
};
const llamaConfig = file('llama-config.json', JSON.stringify(MODELS['llama-3.1-8b'].config));
// a GGUF converted before llama.cpp#8676: no rope_freqs tensor; weights' bytes after the front
const front = gguf('llama-3.1-8b', { drop: ['rope_freqs.weight'] });
const old = new Uint8Array(front.length + 4 * 2 ** 20);
old.set(front);
const oldGguf = file('llama-old.gguf', old);
const goodGguf = file('llama.gguf', gguf('llama-3.1-8b'));

let hub, requests = [];
before(async () => {
  const served = { 'meta/llama/resolve/main/config.json': JSON.stringify(MODELS['llama-3.1-8b'].config), 'meta/llama/resolve/main/old.gguf': old };
  hub = createServer((req, res) => {
    const path = decodeURIComponent(req.url.slice(1));
    requests.push([path, req.headers.range ?? null]);
    if (path === 'api/models/meta/llama') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ siblings: [{ rfilename: 'config.json' }, { rfilename: 'old.gguf' }] }));
    if (path.startsWith('gated/')) return res.writeHead(401).end('Access to model gated/x is restricted.');
    const body = served[path];
    if (body === undefined) return res.writeHead(404).end('Entry not found');
    const m = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '');
    if (!m) return res.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body);
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const a = Number(m[1]), b = Math.min(Number(m[2]), bytes.length - 1);
    res.writeHead(206, { 'content-range': `bytes ${a}-${b}/${bytes.length}`, 'content-length': b - a + 1 }).end(bytes.subarray(a, b + 1));
  });
  await new Promise((r) => hub.listen(0, '127.0.0.1', r));
});
after(async () => {
  await new Promise((r) => hub.close(r));
  rmSync(dir, { recursive: true, force: true });
});

function run(...args) {
  return piped('', ...args);
}

/** The command with `input` on its standard input. */
function piped(input, ...args) {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], { env: { ...process.env, POSENC_HUB: `http://127.0.0.1:${hub.address().port}`, HF_TOKEN: '' } },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
    child.stdin.on('error', () => {}); // (a command that refuses its input early closes the pipe)
    child.stdin.end(input);
  });
}

test('compare: a Llama 3.1 GGUF without rope_freqs shows the finding with its fix and exits 1; a good one exits 0', async () => {
  const bad = await run('compare', llamaConfig, oldGguf);
  assert.equal(bad.code, 1, bad.stderr);
  assert.match(bad.stdout, /rope-freqs-missing: this GGUF has no rope_freqs tensor/);
  assert.match(bad.stdout, /fix: download or convert a GGUF made with convert_hf_to_gguf.py from llama.cpp b3472 or later/);
  assert.match(bad.stdout, /float32 rounding at position 131071 \(not a finding\): the largest \|Δ\| of a cos or sin from its float64 value is [\d.e-]+ in llama.cpp \(ggml's float32 code\), [\d.e-]+ with θ_i, angles and cos\/sin each rounded once to float32, the type transformers computes in \(its own recipe rounds θ_i twice/);
  const good = await run('compare', llamaConfig, goodGguf);
  assert.equal(good.code, 0, good.stdout);
  assert.match(good.stdout, /none: llama.cpp and the config agree/);
  assert.match(good.stdout, /\nagree: llama.cpp computes what the config means \(exit 0\)\n$/);
  assert.match(bad.stdout, /\ndiffer: llama.cpp does not compute what the config means \(exit 1\)\n$/);
  const json = JSON.parse((await run('compare', llamaConfig, oldGguf, '--json')).stdout);
  assert.deepEqual(json.findings.map((f) => f.code), ['rope-freqs-missing']);
  assert.equal(json.layerTypes.full_attention.thetaConfig.length, 64);
});

test('compare takes llama.cpp\'s flags and -c: Phi-3.5\'s short prompt agrees only with -c 4096', async () => {
  const cfg = file('phi.json', JSON.stringify(MODELS['phi-3.5-mini'].config)), g = file('phi.gguf', gguf('phi-3.5-mini'));
  const wide = await run('compare', cfg, g, '--positions', '0,100,2000');
  assert.equal(wide.code, 1);
  assert.match(wide.stdout, /longrope-factors-by-context/);
  assert.match(wide.stdout, /fix: -c 4096/);
  assert.equal((await run('compare', cfg, g, '--positions', '0,100,2000', '-c', '4096')).code, 0);
  const qcfg = file('qwen.json', JSON.stringify(MODELS['qwen2-7b-yarn'].config));
  const q = file('qwen.gguf', gguf('qwen2-7b-yarn', { drop: ['qwen2.rope.scaling.type', 'qwen2.rope.scaling.factor', 'qwen2.rope.scaling.original_context_length'] }));
  const bare = await run('compare', qcfg, q);
  assert.equal(bare.code, 1);
  assert.match(bare.stdout, /fix: --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768/);
  const fixed = await run('compare', qcfg, q, '--rope-scaling', 'yarn', '--rope-scale=4', '--yarn-orig-ctx', '32768');
  assert.equal(fixed.code, 0, fixed.stdout);
});

test('compare: the porter\'s cases: a flag to leave out, a fix that fixes both, the GGUF of another model', async () => {
  // README's example: the file agrees; --rope-scale 4 is what makes it differ, so leaving it out is the fix
  assert.equal((await run('compare', llamaConfig, goodGguf, '-c', '8192')).code, 0);
  for (const flag of [['--rope-scale', '4'], ['--rope-freq-scale', '0.25']]) {
    const r = await run('compare', llamaConfig, goodGguf, '-c', '8192', ...flag);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, new RegExp(`scaling-differs: .*\\n\\s*fix: leave out ${flag.join(' ')}: without it llama.cpp reads this from the file`));
    assert.doesNotMatch(r.stdout, /reconvert/);
    const j = JSON.parse((await run('compare', llamaConfig, goodGguf, '-c', '8192', ...flag, '--json')).stdout);
    assert.deepEqual([j.findings[0].fixKind, j.findings[0].fixFlags], ['drop-flag', flag.join(' ')]);
  }
  // a Qwen2 config without YaRN, a GGUF converted with it: --rope-scaling none fixes both findings, and says so
  const plain = structuredClone(MODELS['qwen2-7b-yarn'].config);
  delete plain.rope_scaling;
  const qcfg = file('qwen2-7b.json', JSON.stringify(plain)), qg = file('qwen2-7b-yarn.gguf', gguf('qwen2-7b-yarn'));
  const q = await run('compare', qcfg, qg);
  assert.equal(q.code, 1);
  assert.match(q.stdout, /fix: --rope-scaling none/);
  assert.match(q.stdout, /attn-factor-differs: .*\n\s*fix: follows from the scaling: --rope-scaling none fixes both/);
  assert.doesNotMatch(q.stdout, /no flag/);
  const qf = await run('compare', qcfg, qg, '--rope-scaling', 'none');
  assert.equal(qf.code, 0, qf.stdout);
  // the GGUF of another model: said first, and no download or reconversion offered for the rest
  const g = await run('compare', llamaConfig, file('gemma.gguf', gguf('gemma-3-4b')));
  assert.equal(g.code, 1);
  assert.match(g.stdout, /architecture-differs: this GGUF is of another model: its general.architecture is gemma3/);
  assert.ok(g.stdout.indexOf('architecture-differs') < g.stdout.indexOf('rope-freqs-missing'), g.stdout);
  assert.match(g.stdout, /sliding_attention layers \(29 of its 34\) have no counterpart/);
  assert.doesNotMatch(g.stdout, /b3472|reconvert/);
});

test('inspect: a config, a GGUF (with flags), --json', async () => {
  const c = await run('inspect', llamaConfig);
  assert.equal(c.code, 0);
  assert.match(c.stdout, /full_attention \(32 layers\): base 500000, head 128, rotary 128, pairs half, scaling type llama3, factor 8/);
  const g = await run('inspect', oldGguf, '--rope-scaling', 'yarn');
  assert.equal(g.code, 0);
  // the pairs in each weight layout: adjacent in the GGUF's, half-split in the checkpoint's
  assert.match(g.stdout, /n_dims 128, mode norm \(pairs adjacent \(2i, 2i \+ 1\) in the GGUF's weights = half-split \(i, i \+ d\/2\) in the HF checkpoint's, whose q\/k convert_hf_to_gguf.py permuted\), freq_base 500000, freq_scale 1, ext_factor 1/);
  assert.match(g.stdout, /flag-no-op: --rope-scaling yarn without --rope-scale/);
  const j = JSON.parse((await run('inspect', goodGguf, '--json')).stdout);
  assert.equal(j.metadata['llama.rope.freq_base'], 500000);
  assert.deepEqual(j.metadata.ropeTensors, ['rope_freqs']);
  assert.equal(j.llamaCpp.layerTypes.full_attention.freqFactors.length, 64);
});

test('inspect and vectors say the context length a config is for: Qwen2.5\'s YaRN ×4 past its max_position_embeddings, else that', async () => {
  const qwen = { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_key_value_heads: 4, num_hidden_layers: 28, max_position_embeddings: 32768, rope_theta: 1e6 };
  const yarn = file('qwen2.5-yarn.json', JSON.stringify({ ...qwen, rope_scaling: { type: 'yarn', factor: 4.0, original_max_position_embeddings: 32768 } }));
  const text = (await run('inspect', yarn)).stdout.split('\n')[0];
  assert.match(text, /: positions as transformers reads them, context length 131072 \(scaling factor 4 × 32768; max_position_embeddings 32768\)$/);
  const json = JSON.parse((await run('inspect', yarn, '--json')).stdout);
  assert.deepEqual([json.config.maxPositionEmbeddings, json.config.layerTypes.full_attention.contextLength], [32768, 131072]);
  const v = JSON.parse((await run('vectors', yarn)).stdout);
  assert.equal(v.layerTypes.full_attention.contextLength, 131072);
  assert.equal(v.layerTypes.full_attention.positions.at(-1).position, 131071);
  // no scaling: max_position_embeddings, said alone; layer types that differ: each its own
  assert.match((await run('inspect', file('qwen2.5.json', JSON.stringify(qwen)))).stdout, /: positions as transformers reads them, context length 32768\n/);
  const mixed = file('mixed.json', JSON.stringify({ ...qwen, num_hidden_layers: 2, layer_types: ['sliding_attention', 'full_attention'],
    rope_parameters: { full_attention: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768, rope_theta: 1e6 }, sliding_attention: { rope_type: 'default', rope_theta: 1e4 } } }));
  assert.match((await run('inspect', mixed)).stdout, /, context length 32768 for sliding_attention, 131072 \(scaling factor 4 × 32768; max_position_embeddings 32768\) for full_attention\n/);
});

test('inspect of a config prints what --json has that a porter needs: layer indices per type, softmaxScale when not 1', async () => {
  const config = (id) => file(`${id}.json`, JSON.stringify(GALLERY.find((m) => m.id === id).config));
  const gemma = (await run('inspect', config('gemma-3-1b'))).stdout;
  assert.match(gemma, /full_attention \(4 layers: 5, 11, 17, 23\)/);
  assert.match(gemma, /sliding_attention \(22 layers: 0–4, 6–10, 12–16, 18–22, 24–25\)/);
  assert.doesNotMatch(gemma, /softmax scale/);
  const scout = (await run('inspect', config('llama-4-scout'))).stdout;
  assert.match(scout, /full_attention \(12 layers: 3, 7, …, 47 \(every 4\)\)/);
  const ds = (await run('inspect', config('deepseek-v3'))).stdout;
  assert.match(ds, /full_attention \(61 layers\): .*, softmax scale 1\.87385 \(× 1\/√d, d the whole q·k width\)/);
});

test('vectors: the conformance vectors as JSON, to stdout or a file', async () => {
  const v = await run('vectors', llamaConfig, '--positions', '7');
  assert.equal(v.code, 0);
  const data = JSON.parse(v.stdout);
  assert.equal(data.format, 'posenc-rope-vectors/1');
  assert.ok(data.layerTypes.full_attention.positions.some((r) => r.position === 7));
  assert.equal(data.seqLen, null);
  assert.equal(v.stderr, '');
  // a position past the context the model is for: its rows, and a warning where a reader sees it
  const far = await run('vectors', llamaConfig, '--positions', '200000');
  assert.ok(JSON.parse(far.stdout).layerTypes.full_attention.positions.some((r) => r.position === 200000));
  assert.match(far.stderr, /^posenc: warning \(position-past-context\): position 200000 lies past the 131072 tokens the model is for/);
  // --seq-len: one sequence of that length; refused in the flag's own name unless past every position
  const one = JSON.parse((await run('vectors', llamaConfig, '--positions', '7', '--seq-len', '100')).stdout);
  assert.equal(one.seqLen, 100);
  assert.deepEqual(one.layerTypes.full_attention.positions.map((r) => r.position), [0, 1, 7]);
  assert.match((await run('vectors', llamaConfig, '--positions', '7', '--seq-len', '7')).stderr,
    /^posenc: --seq-len \(7\) must exceed every position asked for: the 1st value of --positions is 7/);
  assert.match((await run('inspect', llamaConfig, '--seq-len', '7')).stderr, /--seq-len applies to vectors only/);
  const out = join(dir, 'vectors.json');
  const w = await run('vectors', llamaConfig, '--out', out);
  assert.match(w.stdout, /wrote .*vectors.json: the layer type full_attention$/m);
  assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')).format, 'posenc-rope-vectors/1');
});

test('the Hub, offline: a public config and its GGUF files, a GGUF read by Range with progress, gated and missing models', async () => {
  requests = [];
  const c = await run('inspect', 'hub:meta/llama');
  assert.equal(c.code, 0, c.stderr);
  assert.match(c.stdout, /GGUF files in meta\/llama: old.gguf/);
  const cmp = await run('compare', 'hub:meta/llama', 'hub:meta/llama/old.gguf');
  assert.equal(cmp.code, 1, cmp.stderr);
  assert.match(cmp.stdout, /rope-freqs-missing/);
  assert.match(cmp.stderr, /reading meta\/llama\/old.gguf: [\d.]+ MiB of [\d.]+ MiB/);
  const ranged = requests.filter(([p, r]) => p.endsWith('old.gguf') && r);
  assert.ok(ranged.length >= 1 && requests.filter(([p]) => p.endsWith('old.gguf')).every(([, r]) => r), 'every GGUF read is a Range request');
  const gated = await run('inspect', 'hub:gated/x');
  assert.equal(gated.code, 2);
  assert.match(gated.stderr, /gated\/x is gated or private \(HTTP 401\): accept its licence on the Hub and set HF_TOKEN/);
  const gatedGguf = await run('inspect', 'hub:gated/x/model.gguf');
  assert.equal(gatedGguf.code, 2);
  assert.match(gatedGguf.stderr, /gated or private/);
  const missing = await run('inspect', 'hub:meta/nothing');
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /meta\/nothing has no config.json \(HTTP 404\)/);
});

test('errors: usage, unknown options, missing files, a file that is not GGUF: exit 2 with a message', async () => {
  const none = await run();
  assert.equal(none.code, 2);
  assert.match(none.stdout, /usage:/);
  assert.equal((await run('--help')).code, 0);
  const bad = await run('compare', llamaConfig);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /compare takes two files/);
  assert.match((await run('inspect', llamaConfig, '--rope-scal', '2')).stderr, /unknown option --rope-scal/);
  assert.match((await run('inspect', join(dir, 'nope.gguf'))).stderr, /cannot open .*nope.gguf: no such file/);
  assert.match((await run('inspect', dir)).stderr, /^posenc: cannot read .*: it is a directory; give the config.json in it$/m);
  const notGguf = file('fake.gguf', 'PK\u0003\u0004 not a model');
  assert.match((await run('inspect', notGguf)).stderr, /not a GGUF file/);
  assert.match((await run('inspect', oldGguf, '--rope-scale', 'x')).stderr, /--rope-scale needs a number/);
});

test('errors in the command line\'s own words: the flag typed, files swapped or cut short, flags that would do nothing', async () => {
  const fail = async (...args) => {
    const r = await run(...args);
    assert.equal(r.code, 2, args.join(' '));
    return r.stderr;
  };
  // an API option's name becomes the flag that fills it
  assert.match(await fail('compare', llamaConfig, goodGguf, '-c', '-5'), /^posenc: -c must be in \[0, 2147483647\], got -5/);
  assert.match(await fail('compare', llamaConfig, goodGguf, '--rope-freq-base', '-3'), /^posenc: --rope-freq-base must be > 0, got -3/);
  assert.match(await fail('vectors', llamaConfig, '--positions', '3,-1'), /^posenc: the 2nd value of --positions must be finite/);
  // the two files of compare in the wrong order, or of the wrong kind
  assert.match(await fail('compare', goodGguf, llamaConfig), /compare takes the config first, then the GGUF: posenc compare .*llama-config\.json .*llama\.gguf/);
  const jsonNamedGguf = file('config-as.gguf', readFileSync(llamaConfig));
  assert.match(await fail('compare', llamaConfig, jsonNamedGguf), /config-as\.gguf is not a GGUF file: it starts with "\{", as a config.json does/);
  assert.match(await fail('vectors', goodGguf), /llama\.gguf is a GGUF file; a config.json is wanted here/);
  // a file cut short names itself and says what it may be
  const cut = file('cut.gguf', readFileSync(goodGguf).subarray(0, 600));
  assert.match(await fail('inspect', cut), /cut\.gguf: the file ends at byte 600 inside its metadata .*; is the file cut short \(an unfinished download or copy\)\?/);
  // a config transformers cannot load, or whose llama3 band is upside down, is refused naming its keys
  const rs = MODELS['llama-3.1-8b'].config.rope_scaling;
  const noType = file('no-type.json', JSON.stringify({ ...MODELS['llama-3.1-8b'].config, rope_scaling: { ...rs, rope_type: undefined } }));
  assert.match(await fail('inspect', noType), /^posenc: \S*no-type\.json: rope_scaling has factor but neither rope_type nor type, so transformers cannot load it/);
  // compare reads two files: what is wrong with the config names it
  const broken = file('broken.json', '{"rope_theta": 1e4,');
  assert.match(await fail('compare', broken, oldGguf), /^posenc: \S*broken\.json: config is not valid JSON/);
  const upside = file('low-high.json', JSON.stringify({ ...MODELS['llama-3.1-8b'].config, rope_scaling: { ...rs, low_freq_factor: 4, high_freq_factor: 1 } }));
  assert.match(await fail('inspect', upside), /^posenc: \S*low-high\.json: rope_scaling\.high_freq_factor \(1\) must be at least rope_scaling\.low_freq_factor \(4\)/);
  // llama.cpp's flags act on a GGUF only; elsewhere they are refused, not ignored
  assert.match(await fail('inspect', llamaConfig, '--rope-scale', '4'), /--rope-scale: llama.cpp's flags apply to a GGUF; inspect of a config.json takes none/);
  assert.match(await fail('vectors', llamaConfig, '-c', '4096'), /-c: llama.cpp's flags apply to a GGUF; vectors takes none/);
  // a Hub that cannot be reached: the same words for a GGUF as for a config
  const closed = createServer();
  await new Promise((r) => closed.listen(0, '127.0.0.1', r));
  const port = closed.address().port;
  await new Promise((r) => closed.close(r));
  const offline = (ref) => new Promise((resolve) => execFile(process.execPath, [CLI, 'inspect', ref], { env: { ...process.env, POSENC_HUB: `http://127.0.0.1:${port}` } },
    (err, stdout, stderr) => resolve(stderr)));
  assert.match(await offline('hub:meta/llama/old.gguf'), /^posenc: cannot reach the Hub for meta\/llama \(ECONNREFUSED\); offline\? Give a local GGUF file instead/);
  assert.match(await offline('hub:meta/llama'), /^posenc: cannot reach the Hub for meta\/llama \(ECONNREFUSED\); offline\? Give a local config.json instead/);
});

test('compare exits 0 when the only finding is a note for other readers (Gemma 3 without freq_base_swa), 1 for a short prompt under LongRoPE', async () => {
  const gcfg = file('gemma3-config.json', JSON.stringify(MODELS['gemma-3-4b'].config));
  const g = await run('compare', gcfg, file('gemma3.gguf', gguf('gemma-3-4b', { drop: ['gemma3.rope.freq_base_swa'] })));
  assert.match(g.stdout, /swa-base-missing \(a note: llama.cpp still computes what the config means\): .*right for this model/);
  assert.equal(g.code, 0, g.stdout);
  const j = JSON.parse((await run('compare', gcfg, join(dir, 'gemma3.gguf'), '--json')).stdout);
  assert.deepEqual([j.agree, j.findings[0].severity], [true, 'note']);
  // Phi-3.5 in its whole context: the header says which sequence lengths were compared
  const pcfg = file('phi-config.json', JSON.stringify(MODELS['phi-3.5-mini'].config));
  const p = await run('compare', pcfg, file('phi.gguf', gguf('phi-3.5-mini')), '-c', '131072');
  assert.match(p.stdout, /positions up to 131071, as a sequence of 131072 and as a prompt of 4096 tokens/);
  assert.match(p.stdout, /longrope-factors-by-context: a prompt of at most 4096 tokens/);
  assert.equal(p.code, 1);
});

test('inspect and compare name each weight layout\'s pairs, a LongRoPE list of the wrong length, and transformers\' attention_factor', async () => {
  const c = await run('compare', llamaConfig, goodGguf);
  assert.match(c.stdout, /pairs half \(half\) in the HF checkpoint's layout \(adjacent in the GGUF's weights\)/);
  const phi = await run('compare', file('phi-c.json', JSON.stringify(MODELS['phi-3.5-mini'].config)), file('phi-c.gguf', gguf('phi-3.5-mini')));
  assert.match(phi.stdout, /pairs half \(half\) in the HF checkpoint's layout, magnitude/);
  const i = await run('inspect', file('phi-c.gguf', gguf('phi-3.5-mini')));
  assert.match(i.stdout, /mode neox \(pairs half-split \(i, i \+ d\/2\), in the GGUF's weights as in the HF checkpoint's\)/);
  const cfg = structuredClone(MODELS['phi-3.5-mini'].config);
  cfg.rope_scaling.long_factor = cfg.rope_scaling.long_factor.slice(1);
  const bad = await run('inspect', file('phi-short.json', JSON.stringify(cfg)));
  assert.match(bad.stdout, /, 48 short and 47 long factors, magnitude \(attention_factor\) unknown: the factor lists do not fit the rotary width \(see the warning\)/);
  assert.doesNotMatch(bad.stdout, /null/);
  assert.match((await run('inspect', llamaConfig)).stdout, /magnitude \(attention_factor\) 1\b/);
});

test('errors in the user\'s words: a binary file as config, an unknown architecture first, which --positions value, --out\'s directory', async () => {
  const bin = await run('inspect', file('weights.bin', Uint8Array.from({ length: 256 }, (_, k) => (k * 151 + 7) % 256)));
  assert.equal(bin.code, 2);
  assert.match(bin.stderr, /weights\.bin is neither a GGUF file \(no "GGUF" at its start\) nor a JSON text file/);
  assert.doesNotMatch(bin.stderr, /Unexpected token/);
  const unk = await run('inspect', file('foo.gguf', gguf('llama-3.1-8b', { set: [['general.architecture', 'string', 'foobar']] })));
  assert.match(unk.stderr, /^posenc: general.architecture "foobar" is unknown/);
  const pos = await run('vectors', llamaConfig, '--positions', '0,10', '--seq-len', '5');
  assert.match(pos.stderr, /--seq-len \(5\) must exceed every position asked for: the 2nd value of --positions is 10/);
  const out = await run('vectors', llamaConfig, '--out', join(dir, 'missing', 'v.json'));
  assert.equal(out.code, 2);
  assert.match(out.stderr, new RegExp(`^posenc: --out .*v\\.json: no directory .*missing; create it first`));
});

test('- reads a config.json from standard input, in every command that reads one; a GGUF there is refused at its first bytes', async () => {
  const config = readFileSync(llamaConfig);
  const file = await run('inspect', llamaConfig), stdin = await piped(config, 'inspect', '-');
  assert.equal(stdin.code, 0, stdin.stderr);
  assert.equal(stdin.stdout, file.stdout.replace(llamaConfig, 'standard input'));
  assert.match(stdin.stdout, /^standard input: positions as transformers reads them, context length 131072\n/);
  assert.equal(JSON.parse((await piped(config, 'inspect', '-', '--json')).stdout).config.layerTypes.full_attention.base, 500000);
  const v = await piped(config, 'vectors', '-', '--positions', '7');
  assert.equal(v.code, 0, v.stderr);
  assert.deepEqual(JSON.parse(v.stdout), JSON.parse((await run('vectors', llamaConfig, '--positions', '7')).stdout));
  const c = await piped(config, 'compare', '-', oldGguf);
  assert.equal(c.code, 1, c.stderr);
  assert.match(c.stdout, /^\S*llama-old\.gguf in llama.cpp .* against standard input,/);
  // what is wrong with it is said of standard input; a GGUF is read from its file alone
  const broken = await piped('{"rope_theta": 1e4,', 'inspect', '-');
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /^posenc: standard input: config is not valid JSON/);
  const gguf = await piped(readFileSync(goodGguf), 'inspect', '-');
  assert.equal(gguf.code, 2);
  assert.match(gguf.stderr, /^posenc: standard input is a GGUF file; give a GGUF by its path/);
  const both = await piped(config, 'compare', '-', '-');
  assert.equal(both.code, 2);
  assert.match(both.stderr, /^posenc: a GGUF is read from its file, .*; - \(standard input\) is for a config.json/);
});

test('posenc help is --help; --help says what - is and how each command exits', async () => {
  const help = await run('help');
  assert.equal(help.code, 0, help.stderr);
  assert.equal(help.stdout, (await run('--help')).stdout);
  assert.match(help.stdout, /^usage:\n/);
  assert.match(help.stdout, /A config.json given as - is read from standard input/);
  assert.match(help.stdout, /inspect and vectors exit 0, or 2 on an error; compare exits 0 when .*, 1 when it\ndoes not, 2 on an error/);
  const unknown = await run('frob');
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^posenc: unknown command "frob"\nusage:/);
});

test('an option a command does not take is refused naming it, with exit 2, as llama.cpp\'s flags are where they do nothing', async () => {
  const refused = async (args, message) => {
    const r = await run(...args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, message, args.join(' '));
    assert.equal(r.stdout, '', `${args.join(' ')}: nothing done`);
  };
  await refused(['vectors', llamaConfig, '--json'], /^posenc: --json applies to vectors with --out only: the vectors are JSON already\n/);
  await refused(['inspect', llamaConfig, '--positions', '7'], /^posenc: --positions applies to compare and vectors only\n/);
  await refused(['inspect', llamaConfig, '-o', join(dir, 'x.json')], /^posenc: -o applies to vectors only\n/);
  await refused(['compare', llamaConfig, goodGguf, '--seq-len', '9'], /^posenc: --seq-len applies to vectors only\n/);
  await refused(['compare', llamaConfig, goodGguf, '--out', join(dir, 'x.json')], /^posenc: --out applies to vectors only\n/);
  // vectors' --json is the report of the file --out wrote
  const out = join(dir, 'reported.json');
  const report = await run('vectors', llamaConfig, '--out', out, '--json');
  assert.equal(report.code, 0, report.stderr);
  assert.deepEqual(JSON.parse(report.stdout), { wrote: out, layerTypes: ['full_attention'] });
});
