// Every options object of the API refuses a key it does not know: a TypeError naming the key
// and the method, with the key meant when it is a near miss (config.json's snake_case, a typo,
// another method's key). A misspelt key silently ignored would be a silent misread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc, readGguf } from '../web/lib/posenc.js';
import { MODELS, gguf } from './fixtures/gguf-writer.js';
import { suggest } from '../web/lib/args.js';

const pe = await loadPosenc();
const x = new Float32Array(8);
const { cos, sin } = pe.ropeCache([0], 8);
const QWEN = await readGguf(gguf('qwen2-7b-yarn'));
const QWEN_PARAMS = pe.llamaCppRope(QWEN).layerTypes.full_attention;

// method -> a call that succeeds with options o (o holds every required key)
const CALLS = {
  sinusoidal: [{}, (o) => pe.sinusoidal(2, 4, o)],
  binary: [{}, (o) => pe.binary(2, 3, o)],
  shiftSinusoidal: [{ dim: 4 }, (o) => pe.shiftSinusoidal([0, 1, 0, 1], 1, o)],
  ropeInvFreq: [{}, (o) => pe.ropeInvFreq(8, o)],
  ropeAttentionFactor: [{}, (o) => pe.ropeAttentionFactor(8, o)],
  ropeCache: [{}, (o) => pe.ropeCache([0, 1], 8, o)],
  applyRope: [{ heads: 1, headDim: 8, positions: [0], style: 'half' }, (o) => pe.applyRope(x, o)],
  'applyRope (table)': [{ heads: 1, headDim: 8, cos, sin, style: 'half' }, (o) => pe.applyRope(x, o)],
  applyRopeInPlace: [{ heads: 1, headDim: 8, positions: [0], style: 'half' }, (o) => {
    const t = pe.tensor(8);
    try {
      return pe.applyRopeInPlace(t, o);
    } finally {
      t.free();
    }
  }],
  attention: [{ heads: 1, headDim: 8 }, (o) => pe.attention(x, x, x, o)],
  dynamicKvCache: [{ headDim: 4, style: 'half', factor: 2, maxPositionEmbeddings: 1 }, (o) => pe.dynamicKvCache(x, x, o)],
  gram: [{}, (o) => pe.gram(x, x, 8, o)],
  rowDots: [{}, (o) => pe.rowDots(x, x, 8, o)],
  rowCosines: [{}, (o) => pe.rowCosines(x, x, 8, o)],
  orderDemo: [{}, (o) => pe.orderDemo([0, 1], o)],
  ropeDecay: [{ dim: 8 }, (o) => pe.ropeDecay([0, 1], o)],
  sinusoidalDecay: [{ dim: 8 }, (o) => pe.sinusoidalDecay([0, 1], o)],
  alibiSlopes: [{}, (o) => pe.alibiSlopes(4, o)],
  alibiBias: [{}, (o) => pe.alibiBias(2, 3, o)],
  randomNormal: [{}, (o) => pe.randomNormal(3, 1, o)],
  attentionTemperature: [{}, (o) => pe.attentionTemperature([0, 8191], o)],
  ropeVectors: [{}, (o) => pe.ropeVectors({ rope_theta: 10000, head_dim: 8, max_position_embeddings: 16 }, o)],
  'ropeCache (mrope)': [{ mrope: { section: [2, 1, 1] } }, (o) => pe.ropeCache({ t: [0], h: [1], w: [2] }, 8, o)],
  'applyRope (mrope)': [{ heads: 1, headDim: 8, positions: { t: [0], h: [1], w: [2] }, mrope: { section: [2, 1, 1] }, style: 'half' }, (o) => pe.applyRope(x, o)],
  t5Bucket: [{}, (o) => pe.t5Bucket([1, -2], o)],
  xposScale: [{ dim: 4 }, (o) => pe.xposScale([0, 1], o)],
  train: [{ encoding: 'none', steps: 0 }, (o) => pe.train(o).free()],
  layerAttention: [{ config: { model_type: 'llama', hidden_size: 4, num_attention_heads: 1, head_dim: 4 }, x, weights: { inputNorm: [1, 1, 1, 1], q: new Float32Array(16).fill(0.5), k: new Float32Array(16).fill(0.25) } }, (o) => pe.layerAttention(o)],
  'layerAttention (weights)': [{ inputNorm: [1, 1, 1, 1], q: new Float32Array(16), k: new Float32Array(16) }, (o) => pe.layerAttention({ config: { model_type: 'llama', hidden_size: 4, num_attention_heads: 1, head_dim: 4 }, x, weights: o })],
  pairEnergy: [{ heads: 1, headDim: 4, style: 'half' }, (o) => pe.pairEnergy(x, o)],
  llamaCppRope: [{}, (o) => pe.llamaCppRope(QWEN, o)],
  'llamaCppRope (flags)': [{}, (o) => pe.llamaCppRope(QWEN, { flags: o })],
  llamaCppCache: [{}, (o) => pe.llamaCppCache(QWEN_PARAMS, [0, 9], o)],
  compareRuntimes: [{ positions: [0, 9] }, (o) => pe.compareRuntimes(MODELS['qwen2-7b-yarn'].config, QWEN, o)],
  'compareRuntimes (flags)': [{}, (o) => pe.compareRuntimes(MODELS['qwen2-7b-yarn'].config, QWEN, { positions: [0, 9], flags: o })],
};

test('every method of the API is covered here', () => {
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(pe))
    .filter((m) => !['constructor', 'heapBytes', 'tensor', 'ropeScaling', 'ropeConfig'].includes(m));
  for (const m of methods) assert.ok(m in CALLS, `${m} has an options test`);
});

test('every method refuses an unknown key, naming it and the method; known keys pass', async () => {
  for (const [name, [good, call]] of Object.entries(CALLS)) {
    const method = name.split(' ')[0];
    call(good);
    const before = pe.heapBytes().inUse;
    assert.throws(() => call({ ...good, zzzUnknown: 1 }), (e) => e instanceof TypeError && e.message.includes('"zzzUnknown"') &&
      e.message.includes(method), name);
    assert.equal(pe.heapBytes().inUse, before, `${name}: a refused call leaves the heap as it was`);
  }
  await assert.rejects(loadPosenc({ simdd: true }), /loadPosenc's options has no key "simdd"; did you mean "simd"\?/);
});

test('the two reported calls throw with the key meant', () => {
  assert.throws(() => pe.applyRope(x, { heads: 1, headDim: 8, positions: [0], style: 'half', rotary_dim: 4 }),
    /applyRope's options has no key "rotary_dim"; did you mean "rotaryDim"\?/);
  assert.throws(() => pe.sinusoidal(2, 4, { bse: 5 }), /sinusoidal's options has no key "bse"; did you mean "base"\?/);
  // a key of another method
  assert.throws(() => pe.sinusoidal(2, 4, { scaling: { type: 'linear', factor: 2 } }), /it is an option of ropeInvFreq/);
  // nested: the precision steps and the out pairs
  assert.throws(() => pe.ropeCache([0], 8, { precision: { angel: 'f32' } }), /has no key "angel"; did you mean "angle"\?/);
  assert.throws(() => pe.ropeCache([0], 8, { out: { cos: new Float32Array(4), sine: new Float32Array(4) } }), /"sine"; did you mean "sin"\?/);
});

test('suggest: camelCase of snake_case, case, small typos; nothing for a far key', () => {
  const keys = ['base', 'rotaryDim', 'headDim', 'maxPositionEmbeddings'];
  assert.equal(suggest('rotary_dim', keys), 'rotaryDim');
  assert.equal(suggest('max_position_embeddings', keys), 'maxPositionEmbeddings');
  assert.equal(suggest('HeadDim', keys), 'headDim');
  assert.equal(suggest('bse', keys), 'base');
  assert.equal(suggest('headdimm', keys), 'headDim');
  assert.equal(suggest('temperature', keys), null);
});

test('out: the caller\'s array of the right type and length is filled and returned; a wrong one is refused', () => {
  const out = new Float32Array(8);
  assert.equal(pe.sinusoidal(2, 4, { out }), out);
  assert.deepEqual(out, pe.sinusoidal(2, 4));
  assert.throws(() => pe.sinusoidal(2, 4, { out: new Float64Array(8) }), /out must be a Float32Array/);
  assert.throws(() => pe.sinusoidal(2, 4, { out: new Float32Array(9) }), RangeError);
  const r = pe.randomNormal(5, 3, { out: new Float32Array(5) });
  assert.deepEqual(r, pe.randomNormal(5, 3));
  const c = new Float32Array(8), s = new Float32Array(8);
  const got = pe.ropeCache([0, 1], 8, { out: { cos: c, sin: s } });
  assert.equal(got.cos, c);
  assert.deepEqual(got, pe.ropeCache([0, 1], 8));
});

test('a chart setting with a wrong name (URL, embed.html, <posenc-chart>) is noted with the name meant', async () => {
  const { parseParams } = await import('../web/host/params.js');
  const chart = (await import('../web/charts/rope-decay.js')).default;
  const { values, notes } = parseParams(chart.params, [['max_dist', '500'], ['bse', '20'], ['zzz', '1']]);
  assert.deepEqual(values, {});
  assert.match(notes[0], /“max_dist” is not a setting of this chart; did you mean “maxDist”\?/);
  assert.match(notes[1], /“bse” is not a setting of this chart; did you mean “base”\?/);
  assert.match(notes[2], /“zzz” is not a setting of this chart\.$/);
});

test('a scaling object refuses the keys of another variant; ropeScaling passes on only the keys its variant reads', () => {
  assert.throws(() => pe.ropeInvFreq(64, { scaling: { type: 'linear', factor: 2, originalMaxPositionEmbeddings: 4096 } }),
    /^TypeError: scaling.originalMaxPositionEmbeddings does not apply to linear scaling \(it takes factor, attentionFactor\)/);
  assert.throws(() => pe.ropeInvFreq(64, { scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096, lowFreqFactor: 1 } }),
    /^TypeError: scaling.lowFreqFactor does not apply to yarn scaling/);
  // a config block may carry keys its variant does not read (transformers ignores them too)
  const s = pe.ropeScaling({ rope_theta: 10000, head_dim: 64, rope_scaling: { rope_type: 'linear', factor: 2, original_max_position_embeddings: 4096 } });
  assert.deepEqual(s, { base: 10000, rotaryDim: 64, scaling: { type: 'linear', factor: 2 } });
  assert.deepEqual(pe.ropeInvFreq(64, s), pe.ropeInvFreq(64, { base: 10000, scaling: { type: 'linear', factor: 2 } }));
});

test('a config\'s names where options are wanted: the option meant, by name', () => {
  // a rope_scaling block pasted as the scaling option: its snake_case names say which option they are
  assert.throws(() => pe.ropeInvFreq(64, { scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 4096 } }),
    /^TypeError: scaling has "original_max_position_embeddings", a config.json name; the option is "originalMaxPositionEmbeddings" \(pe.ropeScaling\(config\)/);
  assert.throws(() => pe.ropeInvFreq(64, { scaling: { rope_type: 'llama3', factor: 8 } }), /^TypeError: scaling has "rope_type", a config.json name; the option is "type"/);
  assert.throws(() => pe.ropeInvFreq(64, { scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbedings: 4096 } }),
    /^TypeError: scaling has no key "originalMaxPositionEmbedings"; did you mean "originalMaxPositionEmbeddings"\?/);
  // the pair layouts' other names
  const x = new Float32Array(8);
  assert.throws(() => pe.applyRope(x, { heads: 1, headDim: 8, style: 'neox', positions: [0] }), /^RangeError: style must be "interleaved" or "half", got "neox": that layout is "half" here/);
  assert.throws(() => pe.applyRope(x, { heads: 1, headDim: 8, style: 'GPT-J', positions: [0] }), /that layout is "interleaved" here/);
  assert.throws(() => pe.applyRope(x, { heads: 1, headDim: 8, style: 'sideways', positions: [0] }), /^RangeError: style must be one of "interleaved", "half", got "sideways"/);
  // ropeScaling reads the file's text as ropeConfig does, and names the key the file uses
  const config = { rope_theta: 500000, head_dim: 128, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 } };
  assert.deepEqual(pe.ropeScaling(JSON.stringify(config)), pe.ropeScaling(config));
  assert.throws(() => pe.ropeScaling('{"rope_theta": 1e4,'), /^TypeError: config is not valid JSON/);
  for (const wrap of [(b) => b, (b) => ({ head_dim: 64, rope_scaling: b })]) {
    assert.throws(() => pe.ropeScaling(wrap({ type: 'longrope_v2', factor: 2 })), /^RangeError: rope_scaling.type "longrope_v2" is unknown/);
    assert.throws(() => pe.ropeScaling(wrap({ rope_type: 'longrope_v2', factor: 2 })), /^RangeError: rope_scaling.rope_type "longrope_v2" is unknown/);
    assert.throws(() => pe.ropeConfig({ head_dim: 64, rope_scaling: { type: 'longrope_v2', factor: 2 } }), /^RangeError: rope_scaling.type "longrope_v2" is unknown/);
  }
});
