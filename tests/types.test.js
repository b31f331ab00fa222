// web/lib/posenc.d.ts as a TypeScript user meets it, through the real compiler (strict, module
// nodenext, 'posenc' resolved through the package's exports): README's JS API example, exactly as
// README prints it, type-checks and runs under node; calls the run time takes type-check; calls it
// refuses fail to, each with an error about the form the call meant (not mRoPE's), and throw at run
// time too. TypeScript is a devDependency, found from the repository as a fresh clone installs it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from 'posenc';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const example = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).filter((c) => c.includes('pe.sinusoidal(100, 512)'));

// What every case below may use: valid JavaScript and TypeScript alike, so that a case both
// type-checks (or not) and runs. `rope` is a RoPE layer type (narrowed), `layer` one not narrowed.
const SETUP = `
const yarn = { model_type: 'llama', head_dim: 8, hidden_size: 8, num_attention_heads: 1, num_hidden_layers: 2, max_position_embeddings: 64,
  rope_theta: 10000, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 64 }, no_rope_layers: [1, 0] };
const vl = { model_type: 'qwen2_vl', head_dim: 8, hidden_size: 8, num_attention_heads: 1, num_hidden_layers: 1, rope_scaling: { type: 'mrope', mrope_section: [2, 1, 1] } };
const x = new Float32Array(2 * 8); // [2 positions][1 head][headDim 8]
const { cos, sin } = pe.ropeCache([0, 1], 8);
const t = pe.tensor(x), tc = pe.tensor(cos), ts = pe.tensor(sin);
const rope = pe.ropeConfig(yarn).layerTypes.full_attention;
if (rope.nope) throw new Error('a RoPE layer type expected');
const layer = pe.ropeConfig(yarn).layerTypes.full_attention_nope;
`;
const FREE = 't.free(); tc.free(); ts.free();';

// Calls the run time takes (README's "config.json -> applyRope" and "ropeScaling's result as options" among them).
const PASSES = [
  'pe.ropeInvFreq(8, pe.ropeScaling(yarn));',
  'pe.ropeInvFreq(8, ropeScaling(yarn));',
  'pe.ropeAttentionFactor(8, pe.ropeScaling(yarn));',
  'pe.ropeCache([0, 1], 8, pe.ropeScaling(yarn));',
  'pe.ropeDecay([0, 10], pe.ropeScaling(yarn));',
  "pe.applyRope(x, { heads: 1, headDim: 8, positions: [0, 1], style: 'half', ...pe.ropeScaling(yarn) });",
  'const { base, rotaryDim, scaling, style } = rope; pe.applyRope(x, { heads: 1, headDim: 8, positions: [0, 1], base, rotaryDim, scaling, style });',
  "pe.applyRope(x, { heads: 1, headDim: 8, positions: [0, 1], style: 'half', base: null, scaling: null });",
  "pe.applyRope(x, { heads: 1, headDim: 8, cos, sin, style: 'interleaved', out: new Float32Array(16) });",
  "const m = pe.ropeConfig(vl).layerTypes.full_attention; if (m.nope || !m.mrope) throw new Error('mRoPE expected'); pe.applyRope(x, { heads: 1, headDim: 8, positions: { t: [0, 1], h: [0, 1], w: [0, 1] }, mrope: m.mrope, base: m.base, style: m.style });",
  "pe.applyRopeInPlace(t, { heads: 1, headDim: 8, style: 'half', cos: tc, sin: ts });",
  "pe.applyRopeInPlace(t, { heads: 1, headDim: 8, style: 'half', positions: [0, 1], ...pe.ropeScaling(yarn) });",
];

// Types only: what narrowing on `nope` gives, and options built before the call.
const TYPED = `
import type { RopeStyle, RopeOptions, RopeInPlaceOptions } from 'posenc';
const b: number = rope.base, s: RopeStyle = rope.style, n: number | null = rope.contextLength;
if (layer.nope) { const none: null = layer.base, zero: 0 = layer.rotaryDim; } else { const some: number = layer.base; }
const o: RopeOptions = b > 0 ? { heads: 1, headDim: 8, cos, sin, style: 'half' } : { heads: 1, headDim: 8, positions: [0, 1], style: s };
pe.applyRope(x, o);
const io: RopeInPlaceOptions = { heads: 1, headDim: 8, positions: [0, 1], style: 'half', base: null };
pe.applyRopeInPlace(t, io);
const v: number | null = pe.ropeVectors(yarn).layerTypes.full_attention.contextLength;
`;

// Calls the run time refuses, each with what the compiler must say of it (null: any error).
const FAILS = [
  ['style forgotten', 'pe.applyRope(x, { heads: 1, headDim: 8, positions: [0, 1] });', /Property 'style' is missing .* 'RopePositionOptions'/],
  ['a config.json name', "pe.applyRope(x, { heads: 1, headDim: 8, positions: [0, 1], style: 'half', rotary_dim: 8 });", /'rotary_dim' does not exist in type 'RopePositionOptions'. Did you mean to write 'rotaryDim'\?/],
  ['positions with a table', "pe.applyRope(x, { heads: 1, headDim: 8, positions: [0, 1], cos, sin, style: 'half' });", /not assignable to type 'undefined'/],
  ['base with a table', "pe.applyRope(x, { heads: 1, headDim: 8, cos, sin, base: 10000, style: 'half' });", /not assignable to type 'undefined'/],
  ['a Float64Array for a Float32Array', "pe.applyRope(x, { heads: 1, headDim: 8, positions: [0, 1], style: 'half', out: new Float64Array(16) });", /Float64Array.* is not assignable to type 'Float32Array/],
  ['style null', 'pe.applyRope(x, { heads: 1, headDim: 8, positions: [0, 1], style: null });', /'null' is not assignable to type 'RopeStyle'/],
  ['a layer type not narrowed', 'pe.applyRope(x, { heads: 1, headDim: 8, positions: [0, 1], base: layer.base, style: layer.style });', /'RopeStyle \| null' is not assignable to type 'RopeStyle'/],
  ["llama.cpp's name for a style", "pe.applyRope(x, { heads: 1, headDim: 8, positions: [0, 1], style: 'neox' });", /'"neox"' is not assignable to type 'RopeStyle'/],
  ['rotaryDim null', "pe.applyRope(x, { heads: 1, headDim: 8, positions: [0, 1], style: 'half', rotaryDim: null });", /'null' is not assignable to type 'number \| undefined'/],
  ['YaRN without its original length', "pe.applyRope(x, { heads: 1, headDim: 8, positions: [0, 1], style: 'half', scaling: { type: 'yarn', factor: 4 } });", /originalMaxPositionEmbeddings/],
  ['a config.json block as scaling', "pe.ropeInvFreq(8, { scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 64 } });", null],
  ['mRoPE streams without mrope', "pe.applyRope(x, { heads: 1, headDim: 8, positions: { t: [0, 1], h: [0, 1], w: [0, 1] }, style: 'half' });", null],
  ['in place, style forgotten', 'pe.applyRopeInPlace(t, { heads: 1, headDim: 8, positions: [0, 1] });', /Property 'style' is missing .* 'RopeInPlacePositionOptions'/],
  ['in place, positions with a table', "pe.applyRopeInPlace(t, { heads: 1, headDim: 8, style: 'half', positions: [0, 1], cos: tc, sin: ts });", /not assignable to type 'undefined'/],
  ['in place, a table of arrays, not tensors', "pe.applyRopeInPlace(t, { heads: 1, headDim: 8, style: 'half', cos, sin });", null],
  ['a Float32Array for θ_i', 'pe.ropeInvFreq(8, { out: new Float32Array(4) });', /Float32Array.* is not assignable to type 'Float64Array/],
  ['base as text', "pe.ropeInvFreq(8, { base: '10000' });", /'string' is not assignable to type 'number'/],
];

let dir, ts;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'posenc-types-'));
  // a user's project: ESM, with posenc installed (node_modules/posenc is this repository)
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'user', private: true, type: 'module' }));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'posenc'), 'dir');
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The compiler of the repository's node_modules (a devDependency), or a failure saying so. */
function typescript() {
  if (ts) return ts;
  try {
    ts = createRequire(join(ROOT, 'package.json'))('typescript');
  } catch {
    assert.fail('typescript is not installed: it is a devDependency (npm install, or bash build.sh)');
  }
  assert.match(ts.version, /^5\./, 'TypeScript 5');
  return ts;
}

/** Diagnostics of a program of these files ({ name: text }, written to the user's project), by file. */
function check(files) {
  const ts = typescript();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const program = ts.createProgram(Object.keys(files).map((f) => join(dir, f)), {
    strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [], noEmit: true, skipLibCheck: false,
  });
  const byFile = {};
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = d.file ? d.file.fileName : '(options)';
    const line = d.file ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    (byFile[name.startsWith(dir) ? name.slice(dir.length + 1) : name] ??= []).push({ line, text: ts.flattenDiagnosticMessageText(d.messageText, '\n') });
  }
  return byFile;
}

const HEAD = "import { loadPosenc, ropeScaling } from 'posenc';\nconst pe = await loadPosenc();\n";

test('README\'s JS API example type-checks as printed, and runs under node as printed', () => {
  assert.equal(example.length, 1, 'README.md has one js block with pe.sinusoidal(100, 512)');
  const found = check({ 'readme.ts': example[0] });
  assert.deepEqual(found, {}, 'no diagnostics, in the example or in posenc.d.ts');
  writeFileSync(join(dir, 'readme.mjs'), example[0]);
  const r = spawnSync(process.execPath, ['readme.mjs'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('posenc.d.ts takes what the run time takes, and refuses what it refuses with an error about the form meant', async () => {
  const lines = (list) => list.map((c) => `{ ${c} }`).join('\n');
  const failing = FAILS.map(([why, code]) => `// @ts-expect-error ${why}\n{ ${code} }`).join('\n');
  const bare = HEAD + SETUP + lines(FAILS.map(([, code]) => code));
  const found = check({
    'passes.ts': `${HEAD}${SETUP}${lines(PASSES)}\n${TYPED}\n${FREE}\n`,
    'fails.ts': `${HEAD}${SETUP}${failing}\n${FREE}\n`,
    'bare.ts': bare,
  });
  const { 'bare.ts': errors = [], ...rest } = found;
  // (an @ts-expect-error over a line that type-checks is itself an error: a case that stopped failing)
  assert.deepEqual(rest, {}, 'the calls the run time takes type-check, every refused one fails to');
  const first = bare.split('\n').length - FAILS.length + 1;
  FAILS.forEach(([why, code, said], i) => {
    const at = errors.filter((e) => e.line === first + i).map((e) => e.text).join('\n');
    assert.ok(at, `${why}: an error`);
    if (said) assert.match(at, said, why);
    if (!code.includes('{ t:')) assert.doesNotMatch(at, /MropePositions/, `${why}: not about mRoPE`);
  });

  // the same calls at run time: the first list runs, the second throws, as the types say
  const pe = await api.loadPosenc();
  const AsyncFunction = (async () => {}).constructor;
  const run = (code) => new AsyncFunction('pe', 'ropeScaling', `${SETUP}\ntry { ${code} } finally { ${FREE} }`)(pe, api.ropeScaling);
  for (const code of PASSES) await run(code);
  for (const [why, code] of FAILS) await assert.rejects(run(code), (e) => e instanceof TypeError || e instanceof RangeError, why);
});
