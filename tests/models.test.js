// The model gallery (web/lib/models.js) through readRopeConfig: every entry parses with no
// warning, and the derived numbers hold against float64 formulas written here from the
// reference definitions (transformers, DeepSeek-V3 inference/model.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc } from '../web/lib/posenc.js';
import { readRopeConfig } from '../web/lib/rope-config.js';
import { MODELS } from '../web/lib/models.js';

const pe = await loadPosenc();
const read = (config) => readRopeConfig(config, { attentionFactor: (d, o) => pe.ropeAttentionFactor(d, o) });
const byId = Object.fromEntries(MODELS.map((m) => [m.id, m]));
const parsed = (id) => read(byId[id].config);
const close = (got, want, msg, tol = 1e-12) => assert.ok(Math.abs(got - want) <= tol * Math.abs(want), `${msg}: ${got} vs ${want}`);
const yarnMscale = (s, m = 1) => 0.1 * m * Math.log(s) + 1;

test('the gallery has at least 25 models, each with a source and a unique id', () => {
  assert.ok(MODELS.length >= 25, `${MODELS.length} models`);
  assert.equal(new Set(MODELS.map((m) => m.id)).size, MODELS.length);
  for (const m of MODELS) {
    for (const k of ['id', 'name', 'family', 'source']) assert.equal(typeof m[k], 'string', `${m.id}.${k}`);
    assert.ok(Number.isInteger(m.year) && m.year >= 2019, `${m.id}.year`);
    assert.ok(m.source.length > 10, `${m.id} names its source`);
  }
});

test('every gallery entry parses with no warning, as an object and as JSON text', () => {
  for (const m of MODELS) {
    const r = read(m.config);
    assert.deepEqual(r.warnings, [], `${m.id}: ${JSON.stringify(r.warnings)}`);
    assert.deepEqual(read(JSON.stringify(m.config)), r, `${m.id} text vs object`);
    const types = Object.values(r.layerTypes);
    assert.ok(types.length >= 1, m.id);
    for (const t of types) {
      assert.ok(t.nope || (t.rotaryDim >= 2 && t.rotaryDim <= t.headDim && t.rotaryDim % 2 === 0), `${m.id} rotaryDim`);
      assert.ok(t.nope || t.base >= 1, `${m.id} base`);
      assert.ok(Array.isArray(t.layers), `${m.id} layers known`);
    }
    // the layer lists of all types partition 0 .. n-1
    const all = types.flatMap((t) => t.layers).sort((a, b) => a - b);
    assert.deepEqual(all, all.map((_, i) => i), `${m.id} layers`);
  }
});

test('YaRN attention factors: Qwen ×4 and gpt-oss ×32 are 0.1·ln s + 1', () => {
  const q = parsed('qwen2-7b-yarn4').layerTypes.full_attention;
  close(q.attentionFactor, 0.1 * Math.log(4) + 1, 'Qwen ×4');
  assert.equal(q.attentionFactor.toFixed(4), '1.1386');
  assert.equal(q.scaling.type, 'yarn');
  const g = parsed('gpt-oss-20b').layerTypes;
  for (const t of ['sliding_attention', 'full_attention']) {
    close(g[t].attentionFactor, 0.1 * Math.log(32) + 1, `gpt-oss ${t}`);
    assert.equal(g[t].scaling.truncate, false);
    assert.equal(g[t].base, 150000);
  }
  assert.equal(g.full_attention.attentionFactor.toFixed(4), '1.3466');
  assert.deepEqual(g.sliding_attention.layers.slice(0, 3), [0, 2, 4]);
});

test('DeepSeek MLA: 64-dim interleaved rope part, attention factor 1, softmax scale mscale²', () => {
  const t = parsed('deepseek-v3').layerTypes.full_attention;
  assert.equal(t.headDim, 64);
  assert.equal(t.rotaryDim, 64);
  assert.equal(t.style, 'interleaved');
  close(t.attentionFactor, yarnMscale(40, 1) / yarnMscale(40, 1), 'attention factor');
  close(t.softmaxScale, yarnMscale(40) ** 2, 'softmax scale');
  assert.equal(t.softmaxScale.toFixed(4), '1.8739');
  const lite = parsed('deepseek-v2-lite').layerTypes.full_attention;
  close(lite.softmaxScale, yarnMscale(40, 0.707) ** 2, 'V2-Lite softmax scale');
});

test('LongRoPE attention factor √(1 + ln(131072/4096) / ln 4096) for Phi-3.5 and Phi-4 mini', () => {
  const want = Math.sqrt(1 + Math.log(131072 / 4096) / Math.log(4096));
  for (const id of ['phi-3.5-mini', 'phi-4-mini']) {
    const t = parsed(id).layerTypes.full_attention;
    close(t.attentionFactor, want, id);
    assert.equal(t.attentionFactor.toFixed(4), '1.1902');
    assert.equal(t.scaling.shortFactor.length, 48);
    assert.equal(t.scaling.longFactor.length, 48);
  }
  assert.equal(parsed('phi-4-mini').layerTypes.full_attention.rotaryDim, 96);
  assert.equal(parsed('phi-3.5-mini').layerTypes.full_attention.scaling.longFactor[47], 64.83999633789062);
});

test('Gemma 3: global layers linear ×8 at base 1e6, sliding layers base 1e4 unscaled, 5:1', () => {
  const r = parsed('gemma-3-4b').layerTypes;
  assert.equal(r.full_attention.base, 1e6);
  assert.deepEqual(r.full_attention.scaling, { type: 'linear', factor: 8 });
  assert.equal(r.sliding_attention.base, 1e4);
  assert.equal(r.sliding_attention.scaling, null);
  assert.deepEqual(r.full_attention.layers, [5, 11, 17, 23, 29]);
  assert.equal(r.sliding_attention.layers.length, 29);
  const one = parsed('gemma-3-1b').layerTypes;
  assert.equal(one.full_attention.scaling, null);
  assert.equal(one.full_attention.base, 1e6);
});

test('Llama 4: every 4th layer NoPE with temperature {0.1, 8192}, the others RoPE at 500000', () => {
  const r = parsed('llama-4-scout').layerTypes;
  assert.equal(r.full_attention.nope, true);
  assert.deepEqual(r.full_attention.layers, Array.from({ length: 12 }, (_, i) => 4 * i + 3));
  assert.equal(r.full_attention.temperature.scale, 0.1);
  assert.equal(r.full_attention.temperature.floorScale, 8192);
  assert.equal(r.chunked_attention.nope, false);
  assert.equal(r.chunked_attention.temperature, null);
  assert.equal(r.chunked_attention.base, 500000);
  assert.equal(r.chunked_attention.layers.length, 36);
});

test('SmolLM3: NoPE every 4th layer, no temperature', () => {
  const r = parsed('smollm3').layerTypes;
  assert.equal(r.full_attention_nope.nope, true);
  assert.equal(r.full_attention_nope.temperature, null);
  assert.deepEqual(r.full_attention_nope.layers, [3, 7, 11, 15, 19, 23, 27, 31, 35]);
});

test('Qwen2-VL: mRoPE section [16, 24, 24] over default RoPE', () => {
  const t = parsed('qwen2-vl').layerTypes.full_attention;
  assert.deepEqual(t.mrope, { section: [16, 24, 24], interleaved: false });
  assert.equal(t.scaling, null);
  assert.equal(t.mrope.section.reduce((a, b) => a + b), t.rotaryDim / 2);
});

test('Gemma 4: proportional on the 512-wide global head (factor 1, p 0.25), default RoPE on sliding layers', () => {
  const r = parsed('gemma-4').layerTypes;
  assert.deepEqual(r.full_attention.scaling, { type: 'proportional', partialRotaryFactor: 0.25, factor: 1 });
  assert.equal(r.full_attention.headDim, 512);
  assert.equal(r.full_attention.rotaryDim, 512);
  assert.equal(r.full_attention.attentionFactor, 1);
  assert.equal(r.full_attention.base, 1e6);
  assert.equal(r.sliding_attention.headDim, 256);
  assert.equal(r.sliding_attention.base, 1e4);
  assert.equal(r.sliding_attention.scaling, null);
  assert.deepEqual(r.full_attention.layers, [5, 11, 17, 23, 29]);
});

test('Ministral 3: YaRN ×16 with attention factor 1 and the llama_4_scaling_beta temperature', () => {
  const t = parsed('ministral-3-3b').layerTypes.full_attention;
  close(t.attentionFactor, 1, 'mscale = mscale_all_dim');
  assert.deepEqual(t.temperature, { beta: 0.1, scale: 0.1, floorScale: 16384, offset: 0 });
  assert.equal(t.base, 1e6);
});

test('partial rotary and pair layouts', () => {
  const w = (id) => parsed(id).layerTypes.full_attention;
  assert.deepEqual([w('gpt-j-6b').rotaryDim, w('gpt-j-6b').style], [64, 'interleaved']);
  assert.deepEqual([w('phi-2').rotaryDim, w('phi-2').headDim, w('phi-2').style], [32, 80, 'half']);
  assert.deepEqual([w('stablelm-3b-4e1t').rotaryDim, w('stablelm-3b-4e1t').headDim], [20, 80]);
  assert.deepEqual([w('glm-4-9b').rotaryDim, w('glm-4-9b').style], [64, 'interleaved']);
  assert.equal(w('llama-3.1-8b').scaling.type, 'llama3');
  assert.equal(w('llama-3.2-1b').scaling.factor, 32);
  assert.equal(w('minicpm-2b').scaling.maxPositionEmbeddings, 65536);
});
