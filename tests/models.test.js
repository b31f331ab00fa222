// The model gallery (web/lib/models.js) through readRopeConfig: every entry parses with no
// warning, and the derived numbers hold against float64 formulas written here from the
// reference definitions (transformers, DeepSeek-V3 inference/model.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc } from '../web/lib/posenc.js';
import { readRopeConfig } from '../web/lib/rope-config.js';
import { MODELS } from '../web/lib/models.js';
import { configClass } from '../web/lib/config-defaults.js';

const pe = await loadPosenc();
const read = (config) => readRopeConfig(config, { attentionFactor: (d, o) => pe.ropeAttentionFactor(d, o) });
const byId = Object.fromEntries(MODELS.map((m) => [m.id, m]));
const parsed = (id) => read(byId[id].config);
const close = (got, want, msg, tol = 1e-12) => assert.ok(Math.abs(got - want) <= tol * Math.abs(want), `${msg}: ${got} vs ${want}`);
const yarnMscale = (s, m = 1) => 0.1 * m * Math.log(s) + 1;

test('the gallery has at least 25 models, each with a checkpoint, a source and a unique id', () => {
  assert.ok(MODELS.length >= 25, `${MODELS.length} models`);
  assert.equal(new Set(MODELS.map((m) => m.id)).size, MODELS.length);
  for (const m of MODELS) {
    for (const k of ['id', 'name', 'family', 'source', 'checkpoint']) assert.equal(typeof m[k], 'string', `${m.id}.${k}`);
    assert.match(m.checkpoint, /^[\w.-]+\/[\w.-]+$/, `${m.id}.checkpoint is a Hub repository id`);
    assert.ok(Number.isInteger(m.year) && m.year >= 2019, `${m.id}.year`);
    assert.ok(m.source.length > 10, `${m.id} names its source`);
  }
});

test('a Chinese name or source keeps every repository, issue and file the English one names', () => {
  const names = (s) => s.match(/[\w.-]+\/[\w./-]+|#\d+|\b[\w-]+\.(?:py|json|yml|yaml)\b/g) ?? [];
  for (const m of MODELS.filter((e) => e.zh)) {
    if (m.zh.source) for (const n of names(m.source)) assert.ok(m.zh.source.includes(n), `${m.id}: zh source lacks ${n}`);
    if (m.zh.name) {
      assert.ok(m.zh.name.startsWith(m.name.replace(/ \(.*\)$/, '')), `${m.id}: zh name ${m.zh.name}`);
      assert.doesNotMatch(m.zh.name, /\([a-z]/, `${m.id}: zh name has an English tag`);
    }
  }
  // an English tag in a name has a Chinese form
  for (const m of MODELS.filter((e) => / \([a-z0-9 ]+\)$/i.test(e.name) && !/GPT-NeoX/.test(e.name))) assert.ok(m.zh?.name, `${m.id} has a zh name`);
});

// The warnings an entry is expected to raise: keys its checkpoint's file leaves to the class
// defaults, Llama 4 Scout's llama3 step, and scaling that depends on the sequence's length.
const EXPECTED_WARNINGS = {
  'llama-2-7b': ['class-defaults'], 'phi-2': ['class-defaults'], 'gpt-j-6b': ['class-defaults'], 'gemma-3-4b': ['class-defaults'],
  'llama-4-scout': ['llama3-step', 'class-defaults'],
  'phi-3.5-mini': ['scaling-by-length'], 'phi-4-mini': ['scaling-by-length'], 'internlm2.5-7b': ['scaling-by-length'], 'minicpm-2b': ['scaling-by-length'],
};

test('every gallery entry parses with only its expected warnings, as an object and as JSON text', () => {
  for (const m of MODELS) {
    const r = read(m.config);
    assert.deepEqual(r.warnings.map((w) => w.code), EXPECTED_WARNINGS[m.id] ?? [], `${m.id}: ${JSON.stringify(r.warnings)}`);
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
  // transformers applies mscale² under any scaling but the default, not YaRN's alone; none, or factor 1, leaves 1
  const v3 = byId['deepseek-v3'].config;
  const linear = { ...v3, rope_scaling: { type: 'linear', factor: 4, mscale_all_dim: 1 } };
  close(read(linear).layerTypes.full_attention.softmaxScale, yarnMscale(4) ** 2, 'linear ×4 softmax scale');
  assert.equal(read({ ...v3, rope_scaling: null }).layerTypes.full_attention.softmaxScale, 1);
  assert.equal(read({ ...v3, rope_scaling: { ...v3.rope_scaling, factor: 1 } }).layerTypes.full_attention.softmaxScale, 1);
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

test('Llama 4: every 4th layer NoPE with temperature {0.1, 8192}, the others RoPE at 500000 with the llama3 step', () => {
  const r = parsed('llama-4-scout').layerTypes;
  assert.deepEqual(r.chunked_attention.scaling, { type: 'llama3', factor: 16, lowFreqFactor: 1, highFreqFactor: 1, originalMaxPositionEmbeddings: 8192 });
  // the θ_i it gives: Meta's apply_scaling with low = high (wavelength < 8192 kept, else ÷ 16)
  const theta = pe.ropeInvFreq(128, { base: r.chunked_attention.base, scaling: r.chunked_attention.scaling });
  for (let i = 0; i < 64; i++) {
    const t = 500000 ** (-2 * i / 128);
    close(theta[i], 2 * Math.PI / t < 8192 ? t : t / 16, `θ_${i}`, 1e-14);
  }
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
  // no score scaling at all (q and k are RMS-normed): √head_dim times the usual 1/√head_dim, per layer type
  assert.equal(r.sliding_attention.softmaxScale, 16);
  assert.ok(Math.abs(r.full_attention.softmaxScale - 22.627416997969522) < 1e-12);
  // E2B: four sliding layers to one global, 7 of 35
  assert.deepEqual(r.full_attention.layers, [4, 9, 14, 19, 24, 29, 34]);
  assert.equal(r.sliding_attention.layers.length, 28);
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

// Each entry against its source, number by number: the checkpoint named, the widths and layer
// count its config.json gives, and what readRopeConfig makes of them (head and rotary width, base
// per layer type, context, scaling). The numbers are copied from the sources named here, not from
// models.js. base: one number for every RoPE layer type, or { type: number }.
const SOURCES = {
  'llama-2-7b': { ck: 'meta-llama/Llama-2-7b-hf', src: 'litgpt Llama-2-7b-hf; MLC llama2_7b', hidden: 4096, heads: 32, layers: 32, head: 128, rot: 128, base: 10000, max: 4096 },
  'codellama-7b': { ck: 'codellama/CodeLlama-7b-hf', src: 'MLC codellama_7b; litgpt', hidden: 4096, heads: 32, layers: 32, head: 128, rot: 128, base: 1e6, max: 16384 },
  'llama-3-8b': { ck: 'meta-llama/Meta-Llama-3-8B', src: 'MLC llama3_8b; litgpt', hidden: 4096, heads: 32, layers: 32, head: 128, rot: 128, base: 500000, max: 8192 },
  'llama-3.1-8b': { ck: 'meta-llama/Llama-3.1-8B', src: 'MLC llama3_1_8b; maxtext llama31_8b_config', hidden: 4096, heads: 32, layers: 32, head: 128, rot: 128, base: 500000, max: 131072,
    scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 } },
  'llama-3.2-1b': { ck: 'meta-llama/Llama-3.2-1B', src: 'MLC llama3_2_1b; litgpt Llama-3.2-1B', hidden: 2048, heads: 32, layers: 16, head: 64, rot: 64, base: 500000, max: 131072,
    scaling: { type: 'llama3', factor: 32, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 } },
  'llama-4-scout': { ck: 'meta-llama/Llama-4-Scout-17B-16E', src: 'config.json in AMD-AGI/Primus#165; llama-models#322', hidden: 5120, heads: 40, layers: 48, head: 128, rot: 128, base: 500000, max: 262144,
    scaling: { type: 'llama3', factor: 16, lowFreqFactor: 1, highFreqFactor: 1, originalMaxPositionEmbeddings: 8192 }, nope: 12 },
  'tinyllama-1.1b': { ck: 'TinyLlama/TinyLlama-1.1B-Chat-v1.0', src: 'MLC tinyllama_1b_chat_v1.0; litgpt', hidden: 2048, heads: 32, layers: 22, head: 64, rot: 64, base: 10000, max: 2048 },
  'mistral-7b-v0.1': { ck: 'mistralai/Mistral-7B-v0.1', src: 'MLC mistral_7b; litgpt', hidden: 4096, heads: 32, layers: 32, head: 128, rot: 128, base: 10000, max: 32768 },
  'mistral-7b-v0.3': { ck: 'mistralai/Mistral-7B-v0.3', src: 'MLC mistral_7b_v03; litgpt; maxtext mistral-7b.yml', hidden: 4096, heads: 32, layers: 32, head: 128, rot: 128, base: 1e6, max: 32768 },
  'mixtral-8x7b': { ck: 'mistralai/Mixtral-8x7B-v0.1', src: 'MLC Mixtral-8x7B-v0.1; maxtext-HF', hidden: 4096, heads: 32, layers: 32, head: 128, rot: 128, base: 1e6, max: 32768 },
  'ministral-3-3b': { ck: 'mistralai/Ministral-3-3B-Reasoning-2512', src: 'MLC ministral3_3b_reasoning_2512 at af1020e4', hidden: 3072, heads: 32, layers: 26, head: 128, rot: 128, base: 1e6, max: 262144,
    scaling: { type: 'yarn', factor: 16, originalMaxPositionEmbeddings: 16384 } },
  'qwen2-7b': { ck: 'Qwen/Qwen2-7B-Instruct', src: 'MLC qwen2_7b (eos 151645: Instruct); QwenLM/Qwen3#663', hidden: 3584, heads: 28, layers: 28, head: 128, rot: 128, base: 1e6, max: 32768 },
  'qwen2-7b-base': { ck: 'Qwen/Qwen2-7B', src: 'QwenLM/Qwen3#663, #679 (base models: 131072)', hidden: 3584, heads: 28, layers: 28, head: 128, rot: 128, base: 1e6, max: 131072 },
  'qwen2-7b-yarn4': { ck: 'Qwen/Qwen2-7B-Instruct', src: 'model card recipe in exllamav2#642, vllm#4930', hidden: 3584, heads: 28, layers: 28, head: 128, rot: 128, base: 1e6, max: 32768,
    scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 } },
  'qwen2.5-3b': { ck: 'Qwen/Qwen2.5-3B', src: 'MLC qwen2.5_3b; litgpt', hidden: 2048, heads: 16, layers: 36, head: 128, rot: 128, base: 1e6, max: 32768 },
  'qwen3-8b': { ck: 'Qwen/Qwen3-8B', src: 'MLC qwen3_8b at af1020e4; maxtext-HF qwen3_8b_config', hidden: 4096, heads: 32, layers: 36, head: 128, rot: 128, base: 1e6, max: 40960 },
  'qwen2-vl': { ck: 'Qwen/Qwen2-VL-7B-Instruct', src: 'config.json in transformers#33401, ms-swift#2340', hidden: 3584, heads: 28, layers: 28, head: 128, rot: 128, base: 1e6, max: 32768 },
  'deepseek-v3': { ck: 'deepseek-ai/DeepSeek-V3', src: 'maxtext-HF deepseek3_671b_dict; DeepSeek-V3 inference/configs/config_671B.json', hidden: 7168, heads: 128, layers: 61, head: 64, rot: 64, base: 10000, max: 163840,
    scaling: { type: 'yarn', factor: 40, originalMaxPositionEmbeddings: 4096 } },
  'deepseek-v2-lite': { ck: 'deepseek-ai/DeepSeek-V2-Lite', src: 'MLC deepseek_v2_lite; maxtext-HF deepseek2_16b_dict', hidden: 2048, heads: 16, layers: 27, head: 64, rot: 64, base: 10000, max: 163840,
    scaling: { type: 'yarn', factor: 40, originalMaxPositionEmbeddings: 4096 } },
  'gemma-2-9b': { ck: 'google/gemma-2-9b', src: 'MLC gemma2_9b; gemma_pytorch get_config_for_9b', hidden: 3584, heads: 16, layers: 42, head: 256, rot: 256, base: 10000, max: 8192 },
  'gemma-2-27b': { ck: 'google/gemma-2-27b', src: 'MLC gemma2_27b; gemma_pytorch', hidden: 4608, heads: 32, layers: 46, head: 128, rot: 128, base: 10000, max: 8192 },
  'gemma-3-1b': { ck: 'google/gemma-3-1b-it', src: 'MLC gemma3_1b_it; gemma_pytorch (max 32768)', hidden: 1152, heads: 4, layers: 26, head: 256, rot: 256, base: { full_attention: 1e6, sliding_attention: 10000 }, max: 32768 },
  'gemma-3-4b': { ck: 'google/gemma-3-4b-it', src: 'maxtext gemma3-4b.yml; mlx-vlm#1709; Gemma3TextConfig max 131072', hidden: 2560, heads: 8, layers: 34, head: 256, rot: 256,
    base: { full_attention: 1e6, sliding_attention: 10000 }, max: 131072, scaling: { full_attention: { type: 'linear', factor: 8 } } },
  'gemma-4': { ck: 'google/gemma-4-e2b', src: 'maxtext-HF gemma4_e2b_dict', hidden: 1536, heads: 8, layers: 35, head: { full_attention: 512, sliding_attention: 256 }, rot: { full_attention: 512, sliding_attention: 256 },
    base: { full_attention: 1e6, sliding_attention: 10000 }, max: 131072, scaling: { full_attention: { type: 'proportional', partialRotaryFactor: 0.25, factor: 1 } } },
  'phi-2': { ck: 'microsoft/phi-2', src: 'MLC phi-2; litgpt', hidden: 2560, heads: 32, layers: 32, head: 80, rot: 32, base: 10000, max: 2048 },
  'phi-3.5-mini': { ck: 'microsoft/Phi-3.5-mini-instruct', src: 'MLC phi-3_5; ai-edge-torch phi3.py', hidden: 3072, heads: 32, layers: 32, head: 96, rot: 96, base: 10000, max: 131072,
    scaling: { type: 'longrope', originalMaxPositionEmbeddings: 4096 }, long: [1.0800000429153442, 64.83999633789062], short: [1.0, 2.8399994373321533] },
  'phi-4-mini': { ck: 'microsoft/Phi-4-mini-instruct', src: 'MLC phi-4; ai-edge-torch phi4.py; litgpt', hidden: 3072, heads: 24, layers: 32, head: 128, rot: 96, base: 10000, max: 131072,
    scaling: { type: 'longrope', originalMaxPositionEmbeddings: 4096 }, long: [1, 47.77], short: [1.0, 1.0] },
  'gpt-j-6b': { ck: 'EleutherAI/gpt-j-6b', src: 'MLC gpt_j; GPTJConfig defaults', hidden: 4096, heads: 16, layers: 28, head: 256, rot: 64, base: 10000, max: 2048 },
  'redpajama-incite-3b': { ck: 'togethercomputer/RedPajama-INCITE-Chat-3B-v1', src: 'MLC redpajama_3b_v1; litgpt', hidden: 2560, heads: 32, layers: 32, head: 80, rot: 80, base: 10000, max: 2048 },
  'stablelm-3b-4e1t': { ck: 'stabilityai/stablelm-3b-4e1t', src: 'MLC stablelm; StableLmConfig defaults; litgpt', hidden: 2560, heads: 32, layers: 32, head: 80, rot: 20, base: 10000, max: 4096 },
  'stablelm-2-1.6b': { ck: 'stabilityai/stablelm-2-zephyr-1_6b', src: 'MLC stablelm-2-zephyr-1_6b', hidden: 2048, heads: 32, layers: 24, head: 64, rot: 16, base: 10000, max: 4096 },
  'glm-4-9b': { ck: 'THUDM/glm-4-9b-chat', src: 'config.json rope_ratio 500 × 10000 (convert_glm_weights_to_hf.py; llama.cpp#8031)', hidden: 4096, heads: 32, layers: 40, head: 128, rot: 64, base: 5e6, max: 131072 },
  'gpt-oss-20b': { ck: 'openai/gpt-oss-20b', src: 'maxtext-HF gpt_oss_20b_dict; openai/gpt-oss torch/model.py', hidden: 2880, heads: 64, layers: 24, head: 64, rot: 64, base: 150000, max: 131072,
    scaling: { type: 'yarn', factor: 32, originalMaxPositionEmbeddings: 4096 } },
  'smollm2-135m': { ck: 'HuggingFaceTB/SmolLM2-135M', src: 'MLC smollm2_135m; litgpt', hidden: 576, heads: 9, layers: 30, head: 64, rot: 64, base: 100000, max: 8192 },
  'smollm2-360m': { ck: 'HuggingFaceTB/SmolLM2-360M', src: 'MLC smollm2_360m', hidden: 960, heads: 15, layers: 32, head: 64, rot: 64, base: 100000, max: 8192 },
  'smollm3': { ck: 'HuggingFaceTB/SmolLM3-3B', src: 'smollm long_context_32k_to_64.yaml', hidden: 2048, heads: 16, layers: 36, head: 128, rot: 128, base: 5e6, max: 65536, nope: 9 },
  'internlm2.5-7b': { ck: 'internlm/internlm2_5-7b-chat', src: 'MLC internlm2_5_7b', hidden: 4096, heads: 32, layers: 32, head: 128, rot: 128, base: 1e6, max: 32768, scaling: { type: 'dynamic', factor: 2 } },
  'minicpm-2b': { ck: 'openbmb/MiniCPM-2B-sft-bf16', src: 'MLC minicpm_2b', hidden: 2304, heads: 36, layers: 40, head: 64, rot: 64, base: 1e6, max: 65536, scaling: { type: 'dynamic', factor: 4 } },
};

test('every entry holds its source\'s numbers', () => {
  assert.deepEqual(Object.keys(SOURCES).sort(), MODELS.map((m) => m.id).sort(), 'one source row per entry');
  const per = (v, type) => (typeof v === 'object' && v !== null && !('type' in v) ? v[type] : v);
  for (const m of MODELS) {
    const want = SOURCES[m.id], at = `${m.id} (${want.ck}, ${want.src})`;
    assert.equal(m.checkpoint, want.ck, at);
    const c = m.config.text_config ?? m.config;
    assert.equal(c.hidden_size ?? c.n_embd, want.hidden, `${at}: hidden`);
    assert.equal(c.num_attention_heads ?? c.n_head, want.heads, `${at}: heads`);
    const r = read(m.config);
    assert.equal(r.maxPositionEmbeddings, want.max, `${at}: context`);
    const types = Object.entries(r.layerTypes);
    assert.equal(types.reduce((n, [, t]) => n + t.layers.length, 0), want.layers, `${at}: layers`);
    assert.equal(types.filter(([, t]) => t.nope).reduce((n, [, t]) => n + t.layers.length, 0), want.nope ?? 0, `${at}: NoPE layers`);
    for (const [type, t] of types) {
      if (t.nope) continue;
      assert.equal(t.headDim, per(want.head, type), `${at} ${type}: head`);
      assert.equal(t.rotaryDim, per(want.rot, type), `${at} ${type}: rotary width`);
      assert.equal(t.base, per(want.base, type), `${at} ${type}: base`);
      const s = per(want.scaling, type) ?? null;
      if (s === null) assert.equal(t.scaling, null, `${at} ${type}: no scaling`);
      else for (const [k, v] of Object.entries(s)) assert.equal(t.scaling[k], v, `${at} ${type}: scaling.${k}`);
      // LongRoPE: 48 factors per list (rotary width / 2), first and last as the source prints them
      for (const k of ['long', 'short']) {
        if (!want[k]) continue;
        const list = t.scaling[`${k}Factor`];
        assert.deepEqual([list.length, list[0], list[list.length - 1]], [want.rot / 2, ...want[k]], `${at}: ${k}_factor`);
      }
    }
  }
});

test('every family of the gallery has its transformers class defaults, except custom-code models', () => {
  // model types whose config.json points at the repository's own code (no transformers class)
  const custom = new Set(['phi-msft', 'internlm2', 'minicpm']);
  for (const m of MODELS) {
    const type = m.config.text_config?.model_type ?? m.config.model_type;
    if (custom.has(type)) assert.equal(configClass(type), null, type);
    else assert.ok(configClass(type), `${m.id}: no class defaults for model_type ${type}`);
  }
  // the wrappers resolve to their text classes
  assert.equal(configClass('gemma3').name, 'Gemma3TextConfig');
  assert.equal(configClass('llama4').name, 'Llama4TextConfig');
  assert.equal(configClass('qwen2_vl_text').name, 'Qwen2VLTextConfig');
  for (const k of ['__proto__', 'constructor', 'toString', 'x', 7, undefined]) assert.equal(configClass(k), null, String(k));
});
