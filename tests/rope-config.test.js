// readRopeConfig (web/lib/rope-config.js): the warnings, each raised by a config built for it
// (and only it); v4 and v5 layouts of one config agree; text and object input agree;
// text_config is found; hostile input is refused cleanly and pollutes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc, ropeScaling } from '../web/lib/posenc.js';
import { readRopeConfig } from '../web/lib/rope-config.js';

const pe = await loadPosenc();
const attentionFactor = (d, o) => pe.ropeAttentionFactor(d, o);
const read = (config) => readRopeConfig(config, { attentionFactor });
const codes = (config) => read(config).warnings.map((w) => w.code);

const llama = { model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 4, max_position_embeddings: 8192 };
const yarn = { rope_type: 'yarn', factor: 4.0, original_max_position_embeddings: 32768 };
const llama3 = { rope_type: 'llama3', factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192 };

test('each warning fires on a config built to raise it, and only that warning', () => {
  const cases = {
    'rope-scaling-conflict': { ...llama, rope_theta: 1e6, rope_scaling: { rope_type: 'linear', factor: 2 }, rope_parameters: { rope_type: 'linear', factor: 4, rope_theta: 1e6 } },
    'rope-theta-conflict': { ...llama, rope_theta: 10000, rope_parameters: { rope_type: 'default', rope_theta: 500000 } },
    'rope-theta-outside': { ...llama, rope_theta: 500000, rope_parameters: { rope_type: 'default' } },
    'rope-theta-missing': { ...llama, rope_parameters: { rope_type: 'default' } },
    'partial-rotary-conflict': { ...llama, partial_rotary_factor: 0.5, rope_parameters: { rope_type: 'default', rope_theta: 1e4, partial_rotary_factor: 0.25 } },
    'longrope-length': { ...llama, max_position_embeddings: 131072, original_max_position_embeddings: 4096, rope_theta: 1e4, rope_scaling: { type: 'longrope', short_factor: Array(48).fill(1), long_factor: Array(64).fill(2) } },
    'layer-type-missing': { ...llama, layer_types: ['sliding_attention', 'full_attention', 'sliding_attention', 'full_attention'], rope_parameters: { full_attention: { rope_type: 'default', rope_theta: 1e6 } } },
    'rotary-width': { ...llama, partial_rotary_factor: 0.3, rope_theta: 1e4 },
    'rope-type-legacy': { ...llama, max_position_embeddings: 131072, original_max_position_embeddings: 4096, rope_theta: 1e4, rope_scaling: { type: 'su', short_factor: Array(64).fill(1), long_factor: Array(64).fill(2) } },
    'rope-type-conflict': { ...llama, rope_theta: 1e4, rope_scaling: { rope_type: 'linear', type: 'dynamic', factor: 2 } },
    'layers-unknown': { head_dim: 128, rope_theta: 1e4 },
    'yarn-factor-mismatch': { ...llama, max_position_embeddings: 131072, rope_theta: 1e6, rope_scaling: { ...yarn, factor: 8 } },
    'mrope-section-sum': { ...llama, rope_theta: 1e6, rope_scaling: { type: 'mrope', mrope_section: [16, 24, 16] } },
    'rope-theta-dropped': { ...llama, rope_theta: 500000, rope_scaling: { ...llama3 }, rope_parameters: { ...llama3, rope_theta: 10000 } },
    'llama3-step': { ...llama, rope_theta: 500000, rope_scaling: { ...llama3, factor: 16, high_freq_factor: 1 } },
    'scaling-by-length': { ...llama, max_position_embeddings: 4096, rope_theta: 1e4, rope_scaling: { rope_type: 'dynamic', factor: 2 } },
    'class-defaults': { model_type: 'llama', num_attention_heads: 32, num_hidden_layers: 4, max_position_embeddings: 8192, rope_theta: 1e4 },
    'unknown-key': { ...llama, max_position_embeddings: 131072, rope_theta: 1e6, rope_scaling: { ...yarn, beta_fsat: 16 } },
  };
  // (LongRoPE's blocks also depend on the sequence's length)
  const also = { 'longrope-length': ['scaling-by-length'], 'rope-type-legacy': ['scaling-by-length'] };
  for (const [code, config] of Object.entries(cases)) {
    assert.deepEqual(codes(config), [code, ...(also[code] ?? [])], code);
    const w = read(config).warnings[0];
    assert.equal(typeof w.message, 'string');
    assert.ok(w.message.length > 20, code);
  }
  // and the same configs with the ambiguity removed raise nothing
  assert.deepEqual(codes({ ...llama, rope_theta: 500000, rope_parameters: { rope_type: 'default', rope_theta: 500000 } }), []);
  assert.deepEqual(codes({ ...llama, rope_parameters: { rope_type: 'default', rope_theta: 500000 } }), []);
  assert.deepEqual(codes({ ...llama, partial_rotary_factor: 0.25, rope_theta: 1e4 }), []);
});

test('the warnings say what was used', () => {
  const r = read({ ...llama, rope_theta: 10000, rope_parameters: { rope_type: 'default', rope_theta: 500000 } });
  assert.equal(r.layerTypes.full_attention.base, 500000);
  assert.match(r.warnings[0].message, /rope_parameters\.rope_theta 500000/);
  const m = read({ model_type: 'llama4_text', head_dim: 128, num_hidden_layers: 4, rope_parameters: { rope_type: 'default' } });
  assert.equal(m.layerTypes.chunked_attention.base, 500000);
  assert.match(m.warnings[0].message, /500000/);
  const w = read({ ...llama, partial_rotary_factor: 0.3, rope_theta: 1e4 });
  assert.equal(w.layerTypes.full_attention.rotaryDim, 38); // 0.3·128 = 38.4 → 38
  const missing = read({ ...llama, layer_types: ['sliding_attention', 'full_attention', 'sliding_attention', 'full_attention'], rope_parameters: { full_attention: { rope_type: 'default', rope_theta: 1e6 } } });
  assert.equal(missing.layerTypes.sliding_attention.base, 10000);
  assert.equal(read({ head_dim: 128, rope_theta: 1e4 }).layerTypes.full_attention.layers, null);
});

test('rope_scaling and rope_parameters with different bases: v5 keeps rope_scaling and the top-level base, and says what is dropped', () => {
  // transformers v5 convert_rope_params_to_dict: rope_parameters = rope_scaling or rope_parameters,
  // then rope_theta is set (if the kept block has none) from the top level
  const r = read({ ...llama, rope_theta: 500000, rope_scaling: { ...llama3 }, rope_parameters: { ...llama3, rope_theta: 10000 } });
  assert.equal(r.layerTypes.full_attention.base, 500000);
  const [w] = r.warnings;
  assert.equal(w.code, 'rope-theta-dropped');
  assert.match(w.message, /keeps rope_scaling with base 500000 \(rope_theta\)/);
  assert.match(w.message, /drops rope_parameters, whose rope_theta is 10000/);
  // a base inside rope_scaling wins over both
  const inner = read({ ...llama, rope_theta: 500000, rope_scaling: { ...llama3, rope_theta: 1e6 }, rope_parameters: { ...llama3, rope_theta: 10000 } });
  assert.equal(inner.layerTypes.full_attention.base, 1e6);
  assert.deepEqual(inner.warnings.map((x) => x.code), ['rope-theta-conflict', 'rope-theta-dropped']);
  assert.match(inner.warnings[1].message, /base 1000000 \(rope_scaling\.rope_theta\)/);
  // no top-level base: the class default is what v5 keeps; a block shared by two layer types warns once
  const g = read({ model_type: 'gemma2', head_dim: 256, num_hidden_layers: 4, max_position_embeddings: 8192, query_pre_attn_scalar: 256,
    rope_scaling: { rope_type: 'linear', factor: 2 }, rope_parameters: { rope_type: 'linear', factor: 2, rope_theta: 40000 } });
  assert.equal(g.layerTypes.full_attention.base, 10000);
  assert.deepEqual(g.warnings.map((x) => x.code), ['rope-theta-dropped', 'class-defaults']);
  // equal bases: nothing to say
  assert.deepEqual(codes({ ...llama, rope_theta: 500000, rope_scaling: { ...llama3 }, rope_parameters: { ...llama3, rope_theta: 500000 } }), []);
});

test('class defaults fill what a hub file leaves out, as transformers does, and are listed', () => {
  // google/gemma-3-4b-it text_config as saved (no head_dim, no num_attention_heads: both are defaults)
  const four = { model_type: 'gemma3', text_config: { model_type: 'gemma3_text', hidden_size: 2560, num_hidden_layers: 34, sliding_window: 1024, rope_scaling: { factor: 8.0, rope_type: 'linear' } } };
  const r4 = read(four);
  for (const t of Object.values(r4.layerTypes)) assert.equal(t.headDim, 256);
  assert.equal(r4.maxPositionEmbeddings, 131072);
  assert.equal(r4.layerTypes.full_attention.base, 1e6);
  assert.equal(r4.layerTypes.sliding_attention.base, 1e4);
  assert.deepEqual(r4.layerTypes.full_attention.layers, [5, 11, 17, 23, 29]);
  assert.deepEqual(r4.warnings.map((w) => w.code), ['class-defaults']);
  const m = r4.warnings[0].message;
  for (const k of ['text_config.head_dim 256', 'text_config.max_position_embeddings 131072', 'text_config.rope_theta 1000000',
    'text_config.rope_local_base_freq 10000', 'text_config.sliding_window_pattern 6', 'text_config.query_pre_attn_scalar 256', 'Gemma3TextConfig']) {
    assert.ok(m.includes(k), `${k} in ${m}`);
  }
  assert.ok(!m.includes('num_attention_heads'), 'heads are not needed once head_dim is known');
  // a 12B-shaped text_config (3840 wide, 16 heads, no head_dim): 256 per head, not 3840 / 16 = 240
  const r12 = read({ model_type: 'gemma3_text', hidden_size: 3840, num_attention_heads: 16, num_hidden_layers: 48, rope_theta: 1e6, rope_scaling: { factor: 8.0, rope_type: 'linear' } });
  assert.equal(r12.layerTypes.full_attention.headDim, 256);
  assert.equal(r12.layerTypes.full_attention.rotaryDim, 256);
  const theta = pe.ropeInvFreq(256, { base: 1e6 });
  assert.ok(Math.abs(theta[1] - 1e6 ** (-2 / 256)) <= 1e-15 * theta[1], 'θ_1 = 1e6^(-2/256)');
  // a Llama config without widths: LlamaConfig's 4096 / 32 heads; an unknown type still refuses
  const l = read({ model_type: 'llama', num_hidden_layers: 2, rope_theta: 1e4 });
  assert.equal(l.layerTypes.full_attention.headDim, 128);
  assert.equal(l.maxPositionEmbeddings, 2048);
  assert.match(l.warnings[0].message, /hidden_size 4096, num_attention_heads 32, max_position_embeddings 2048/);
  // Qwen3 carries its own head_dim 128 (not hidden / heads = 64 here)
  assert.equal(read({ model_type: 'qwen3', hidden_size: 1024, num_attention_heads: 16, num_hidden_layers: 2, max_position_embeddings: 40960, rope_theta: 1e6 }).layerTypes.full_attention.headDim, 128);
  // partial rotary and bases per class
  const w = (c) => read(c).layerTypes.full_attention;
  assert.equal(w({ model_type: 'stablelm', num_hidden_layers: 2 }).rotaryDim, 20);
  assert.equal(w({ model_type: 'glm', num_hidden_layers: 2 }).rotaryDim, 64);
  assert.equal(w({ model_type: 'gpt_neox', num_hidden_layers: 2 }).rotaryDim, 24); // 6144 / 64 = 96, rotary_pct 0.25
  assert.equal(w({ model_type: 'gptj' }).rotaryDim, 64);
  assert.equal(w({ model_type: 'mixtral', num_hidden_layers: 2 }).base, 1e6);
  assert.equal(w({ model_type: 'smollm3' }).base, 2e6);
  assert.equal(w({ model_type: 'deepseek_v3' }).headDim, 64);
  // gpt-oss with no rope block: its class's YaRN ×32 (truncate false) at base 150000, no v5 placement warning
  const o = read({ model_type: 'gpt_oss', num_hidden_layers: 4 });
  assert.deepEqual(o.warnings.map((x) => x.code), ['class-defaults']);
  assert.equal(o.layerTypes.sliding_attention.scaling.factor, 32);
  assert.equal(o.layerTypes.full_attention.scaling.truncate, false);
  assert.equal(o.layerTypes.full_attention.base, 150000);
  // Gemma 4 with no rope block: sliding default at 1e4, full proportional p 0.25 at 1e6 on the 512 head
  const g4 = read({ model_type: 'gemma4_text', num_hidden_layers: 6 }).layerTypes;
  assert.deepEqual([g4.sliding_attention.base, g4.sliding_attention.headDim, g4.sliding_attention.scaling], [1e4, 256, null]);
  assert.deepEqual([g4.full_attention.base, g4.full_attention.headDim, g4.full_attention.scaling.type], [1e6, 512, 'proportional']);
  // Llama 4: every 4th layer NoPE, temperature on, base 500000
  const l4 = read({ model_type: 'llama4_text', num_hidden_layers: 8 }).layerTypes;
  assert.deepEqual(l4.full_attention.layers, [3, 7]);
  assert.deepEqual(l4.full_attention.temperature, { scale: 0.1, floorScale: 8192, offset: 1 });
  // a key a class does not know (custom code) stays missing: no invented default
  assert.deepEqual(codes({ model_type: 'internlm2', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 2, max_position_embeddings: 32768, rope_theta: 1e6 }), []);
});

test('Llama 4 Scout\'s llama3 block with low_freq_factor = high_freq_factor = 1 is read, with a warning', () => {
  const r = read({ ...llama, rope_theta: 500000, rope_scaling: { ...llama3, factor: 16, high_freq_factor: 1 } });
  assert.deepEqual(r.layerTypes.full_attention.scaling, { type: 'llama3', factor: 16, lowFreqFactor: 1, highFreqFactor: 1, originalMaxPositionEmbeddings: 8192 });
  assert.match(r.warnings[0].message, /wavelength below 8192 .* divided by 16/);
});

test('v4 and v5 layouts of the same config give the same result', () => {
  const pairs = [
    [{ ...llama, max_position_embeddings: 131072, rope_theta: 1e6, rope_scaling: { ...yarn } },
      { ...llama, max_position_embeddings: 131072, rope_parameters: { ...yarn, rope_theta: 1e6 } }],
    [{ ...llama, rope_theta: 5e5, partial_rotary_factor: 0.5, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 } },
      { ...llama, rope_parameters: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192, rope_theta: 5e5, partial_rotary_factor: 0.5 } }],
    // Gemma 3: rope_local_base_freq + sliding_window_pattern (v4) vs nested per layer type (v5)
    [{ model_type: 'gemma3_text', head_dim: 256, num_hidden_layers: 12, max_position_embeddings: 32768, query_pre_attn_scalar: 256, rope_theta: 1e6, rope_local_base_freq: 1e4, sliding_window_pattern: 6, rope_scaling: { factor: 8.0, rope_type: 'linear' } },
      { model_type: 'gemma3_text', head_dim: 256, num_hidden_layers: 12, max_position_embeddings: 32768, query_pre_attn_scalar: 256,
        layer_types: Array.from({ length: 12 }, (_, i) => ((i + 1) % 6 ? 'sliding_attention' : 'full_attention')),
        rope_parameters: { full_attention: { rope_type: 'linear', factor: 8.0, rope_theta: 1e6 }, sliding_attention: { rope_type: 'default', rope_theta: 1e4 } } }],
  ];
  for (const [v4, v5] of pairs) {
    const a = read(v4), b = read(v5);
    assert.deepEqual(a.warnings, []);
    assert.deepEqual(b.warnings, []);
    assert.deepEqual(a, b);
  }
  const y = read(pairs[0][0]).layerTypes.full_attention;
  assert.ok(Math.abs(y.attentionFactor - (0.1 * Math.log(4) + 1)) < 1e-12);
});

test('text input and object input agree; text_config is found', () => {
  const cfg = { model_type: 'qwen3_vl', text_config: { ...llama, rope_theta: 5e6, rope_scaling: { rope_type: 'default', mrope_section: [24, 20, 20], mrope_interleaved: true } }, vision_config: { rope_theta: 100 } };
  const a = read(cfg), b = read(JSON.stringify(cfg, null, 2));
  assert.deepEqual(a, b);
  assert.equal(a.layerTypes.full_attention.base, 5e6);
  assert.deepEqual(a.layerTypes.full_attention.mrope, { section: [24, 20, 20], interleaved: true });
  assert.equal(a.maxPositionEmbeddings, 8192);
});

test('the result is frozen plain data with no inherited keys', () => {
  const r = read({ ...llama, rope_theta: 1e6, rope_scaling: { ...yarn } });
  assert.ok(Object.isFrozen(r) && Object.isFrozen(r.layerTypes) && Object.isFrozen(r.layerTypes.full_attention));
  assert.ok(Object.isFrozen(r.layerTypes.full_attention.scaling) && Object.isFrozen(r.warnings));
  assert.equal(Object.getPrototypeOf(r.layerTypes), null);
  assert.deepEqual(Object.keys(r.layerTypes.full_attention).sort(),
    ['attentionFactor', 'base', 'contextLength', 'headDim', 'layers', 'mrope', 'nope', 'rotaryDim', 'scaling', 'softmaxScale', 'style', 'temperature']);
});

test('contextLength: the context a layer type is for, max_position_embeddings or its scaling\'s factor × original length', () => {
  // Qwen2.5-7B-Instruct with the YaRN ×4 block its model card adds: original = max = 32768
  const qwen = { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_key_value_heads: 4, num_hidden_layers: 28, max_position_embeddings: 32768, rope_theta: 1e6 };
  const scaled = read({ ...qwen, rope_scaling: { type: 'yarn', factor: 4.0, original_max_position_embeddings: 32768 } });
  assert.equal(scaled.maxPositionEmbeddings, 32768);
  assert.equal(scaled.layerTypes.full_attention.contextLength, 131072);
  assert.equal(read(qwen).layerTypes.full_attention.contextLength, 32768, 'without scaling: max_position_embeddings');
  assert.equal(read({ head_dim: 128, num_hidden_layers: 2, rope_theta: 1e4 }).layerTypes.full_attention.contextLength, null, 'neither: unknown');
  // llama3's factor is no ratio of lengths: Llama 3.2 (32 with 8192) is for its max_position_embeddings, 131072
  const llama32 = read({ ...llama, max_position_embeddings: 131072, rope_theta: 5e5, rope_scaling: { ...llama3, factor: 32 } });
  assert.equal(llama32.layerTypes.full_attention.contextLength, 131072);
  // per layer type: YaRN on the full layers only, and NoPE layers at max_position_embeddings
  const types = read({ ...qwen, layer_types: ['sliding_attention', 'full_attention', 'full_attention'], num_hidden_layers: 3, no_rope_layers: [1, 1, 0],
    rope_parameters: { full_attention: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768, rope_theta: 1e6 }, sliding_attention: { rope_type: 'default', rope_theta: 1e4 } } });
  assert.deepEqual(Object.fromEntries(Object.entries(types.layerTypes).map(([k, v]) => [k, v.contextLength])),
    { sliding_attention: 32768, full_attention: 131072, full_attention_nope: 32768 });
});

test('errors name the key and the value', () => {
  const bad = (config, Type, re) => assert.throws(() => read(config), (e) => e instanceof Type && re.test(e.message), String(re));
  bad({ ...llama, rope_parameters: { full_attention: { rope_type: 'default', rope_theta: '1e6x' } }, layer_types: Array(4).fill('full_attention') },
    TypeError, /^rope_parameters\.full_attention\.rope_theta must be a number >= 1, got "1e6x"$/);
  bad({ ...llama, rope_theta: '10000' }, TypeError, /^rope_theta must be a number >= 1, got "10000"/);
  bad({ ...llama, rope_theta: NaN }, RangeError, /^rope_theta .*NaN/);
  bad({ ...llama, rope_theta: Infinity }, RangeError, /^rope_theta .*Infinity/);
  bad({ ...llama, rope_theta: 0.5 }, RangeError, /^rope_theta must be a finite number >= 1, got 0.5/);
  bad({ ...llama, rope_scaling: { rope_type: 'yarn', factor: '4' } }, TypeError, /^rope_scaling\.factor must be a number/);
  bad({ ...llama, rope_scaling: { rope_type: 'linear', factor: 0.5 } }, RangeError, /^rope_scaling\.factor must be >= 1 for linear, got 0\.5/);
  bad({ ...llama, rope_scaling: { rope_type: 'warp', factor: 2 } }, RangeError, /^rope_scaling\.rope_type "warp" is unknown/);
  bad({ ...llama, rope_scaling: { rope_type: 'llama3', factor: 8 } }, TypeError, /^rope_scaling of type llama3 needs low_freq_factor/);
  bad({ text_config: { model_type: 'custom', head_dim: 128, num_hidden_layers: 2, rope_parameters: { rope_type: 'yarn', factor: 4, rope_theta: 1e4 } } },
    TypeError, /^text_config\.rope_parameters of type yarn needs original_max_position_embeddings/);
  bad({ ...llama, num_hidden_layers: 3.5 }, RangeError, /^num_hidden_layers must be an integer/);
  bad({ ...llama, rope_scaling: [1, 2] }, TypeError, /^rope_scaling must be an object/);
  bad({ model_type: 'custom', num_hidden_layers: 2 }, TypeError, /head_dim is missing/);
  // a head wider than the kernels compute is refused here, in the config's keys, not later by an option's name
  bad({ ...llama, hidden_size: 409600000, num_attention_heads: 1 }, RangeError, /^hidden_size \/ num_attention_heads gives heads of 409600000 dimensions; posenc computes heads of up to 65536$/);
  bad({ ...llama, head_dim: 131072 }, RangeError, /^head_dim gives heads of 131072 dimensions/);
  assert.equal(read({ ...llama, head_dim: 65536 }).layerTypes.full_attention.headDim, 65536);
  bad({ ...llama, partial_rotary_factor: 2 }, RangeError, /^partial_rotary_factor must be in/);
  bad({ ...llama, rope_scaling: { type: 'mrope', mrope_section: [16, '24', 24] } }, TypeError, /^rope_scaling\.mrope_section\[1\]/);
  bad({ ...llama, rope_scaling: { type: 'longrope', short_factor: [1, 'x'], long_factor: [1, 1] } }, TypeError, /^rope_scaling\.short_factor\[1\]/);
  bad({ ...llama, model_type: 7 }, TypeError, /^model_type must be a string, got 7/);
  bad(42, TypeError, /^config must be a config\.json object/);
  bad('{"rope_theta": 1e4,', TypeError, /^config is not valid JSON/);
  assert.throws(() => readRopeConfig(llama), TypeError);
  assert.throws(() => readRopeConfig(llama, { attentionFactor: 1 }), /options\.attentionFactor must be a function/);
  assert.throws(() => readRopeConfig({ ...llama, rope_theta: 1e6, rope_scaling: { ...yarn } }, { attentionFactor: () => NaN }), /options\.attentionFactor returned NaN/);
});

test('hostile input: size, depth, width and prototype keys are refused, and nothing is polluted', () => {
  const refuse = (config, Type, re) => assert.throws(() => read(config), (e) => e instanceof Type && re.test(e.message), String(re));
  // over 1 MiB of text
  refuse(JSON.stringify({ ...llama, pad: 'x'.repeat(2 ** 20) }), RangeError, /^config text must be at most 1048576 bytes/);
  refuse(JSON.stringify({ ...llama, pad: 'é'.repeat(2 ** 19 + 10) }), RangeError, /bytes/); // under 1 Mi chars, over 1 MiB
  // 10^5 levels, as text and as an object
  const deep = '['.repeat(1e5) + ']'.repeat(1e5);
  refuse(`{"rope_theta": 1, "x": ${deep}}`, RangeError, /nests/);
  let o = {};
  const top = o;
  for (let i = 0; i < 1e5; i++) o = o.x = {};
  refuse({ ...llama, deep: top }, RangeError, /^config nests deeper than 16 levels/);
  // a cycle in object input
  const cyc = { ...llama };
  cyc.self = cyc;
  refuse(cyc, RangeError, /nests deeper/);
  // too many values
  refuse({ ...llama, big: new Array(2 ** 19).fill(0) }, RangeError, /entries; the limit|more than/);
  // prototype keys, anywhere
  for (const text of ['{"__proto__": {"polluted": 1}}', `{"rope_scaling": {"__proto__": {"polluted": 1}, "rope_type": "linear", "factor": 2}, "head_dim": 64}`,
    '{"text_config": {"constructor": {"prototype": {"polluted": 1}}}}', '{"head_dim": 64, "layer_types": ["__proto__"]}']) {
    assert.throws(() => read(text), RangeError, text);
    assert.equal(({}).polluted, undefined);
    assert.equal(Object.prototype.polluted, undefined);
  }
  // an object literal's __proto__ sets the prototype: a non-plain object is refused
  refuse({ ...llama, rope_scaling: { __proto__: { rope_type: 'linear', factor: 2 } } }, TypeError, /must be a plain object/);
  assert.equal(({}).polluted, undefined);
  // inherited keys are never read
  const inherited = Object.create({ rope_theta: 5 });
  Object.assign(inherited, llama);
  assert.throws(() => read(inherited), TypeError);
  // the result carries no such key
  const r = read('{"model_type": "llama", "head_dim": 64, "num_hidden_layers": 2, "rope_theta": 10000}');
  for (const k of ['__proto__', 'constructor', 'prototype', 'polluted']) {
    assert.equal(Object.hasOwn(r, k), false);
    assert.equal(Object.hasOwn(r.layerTypes, k), false);
  }
  assert.equal(r.layerTypes.polluted, undefined);
});

test('ropeScaling gives what ropeConfig says for the RoPE layers, with its checks; a bare block is read alike', () => {
  const deepseek = { model_type: 'deepseek_v3', hidden_size: 7168, num_attention_heads: 128, num_hidden_layers: 61, qk_nope_head_dim: 128,
    qk_rope_head_dim: 64, v_head_dim: 128, max_position_embeddings: 163840, rope_theta: 10000,
    rope_scaling: { type: 'yarn', factor: 40, original_max_position_embeddings: 4096, beta_fast: 32, beta_slow: 1, mscale: 1, mscale_all_dim: 1 } };
  const gemma3 = { model_type: 'gemma3', text_config: { model_type: 'gemma3_text', hidden_size: 2560, num_attention_heads: 8, head_dim: 256,
    num_hidden_layers: 34, max_position_embeddings: 131072, rope_theta: 1e6, rope_local_base_freq: 10000, rope_scaling: { rope_type: 'linear', factor: 8 } } };
  const llama31 = { ...llama, max_position_embeddings: 131072, rope_theta: 500000, rope_scaling: { ...llama3 } };
  const qwen25 = { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_hidden_layers: 28, max_position_embeddings: 32768,
    rope_theta: 1e6, rope_scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } };
  for (const [name, config, rotaryDim] of [['DeepSeek-V3', deepseek, 64], ['Gemma 3', gemma3, 256], ['Llama 3.1', llama31, 128], ['Qwen2.5 YaRN', qwen25, 128]]) {
    const { base, rotaryDim: r, scaling } = read(config).layerTypes.full_attention;
    assert.deepEqual(ropeScaling(config), { base, rotaryDim: r, scaling }, name);
    assert.deepEqual(pe.ropeScaling(JSON.stringify(config)), { base, rotaryDim: r, scaling }, `${name} as text`);
    assert.equal(r, rotaryDim, name);
    assert.notEqual(scaling, null, name);
  }
  // (DeepSeek's rope part, not hidden_size / heads; Gemma 3's global layers, in text_config)
  assert.equal(ropeScaling(gemma3).base, 1e6);
  // one RoPE layer type, whatever its name; several and no full_attention: ropeConfig's to pick from
  const one = { ...llama, rope_theta: 1e4, layer_types: Array(4).fill('sliding_attention') };
  assert.equal(ropeScaling(one).base, 1e4);
  assert.throws(() => ropeScaling({ ...llama, rope_theta: 1e4, layer_types: ['sliding_attention', 'chunked_attention', 'sliding_attention', 'chunked_attention'] }),
    /^RangeError: the config's RoPE layer types are sliding_attention, chunked_attention, with no full_attention/);
  // ropeConfig's refusals, word for word
  const refused = [
    { ...llama31, rope_scaling: { ...llama3, factor: '8' } },
    { ...llama31, rope_scaling: { ...llama3, factor: -8 } },
    { ...llama31, rope_scaling: { ...llama3, factor: 0 } },
    { ...llama31, max_position_embeddings: '131072' },
    { ...llama31, rope_scaling: { factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 } },
    { ...llama31, rope_scaling: { ...llama3, low_freq_factor: 4, high_freq_factor: 1 } },
    { ...llama31, head_dim: 2 ** 40 },
    { ...gemma3, text_config: { ...gemma3.text_config, rope_scaling: { type: 'warp', factor: 2 } } },
  ];
  for (const config of refused) {
    let want;
    assert.throws(() => read(config), (e) => ((want = e), true));
    assert.throws(() => ropeScaling(config), (e) => e.constructor === want.constructor && e.message === want.message, want.message);
  }
  // RoPE keys alone, with no head width (what a page's paste box may hold): { base?, scaling }, the same checks
  assert.deepEqual(ropeScaling({ rope_theta: 1e4, rope_scaling: { type: 'linear', factor: 8 } }), { base: 1e4, scaling: { type: 'linear', factor: 8 } });
  assert.deepEqual(ropeScaling({ max_position_embeddings: 32768, rope_scaling: { type: 'yarn', factor: 4 } }),
    { scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 } });
  assert.throws(() => ropeScaling({ rope_scaling: { factor: 8 } }), /^TypeError: rope_scaling has factor but neither rope_type nor type/);
  assert.throws(() => ropeScaling({ rope_scaling: { type: 'dynamic', factor: 2 } }), /^TypeError: rope_scaling of type dynamic needs max_position_embeddings/);
  assert.throws(() => ropeScaling({ max_position_embeddings: '4096', rope_scaling: { type: 'linear', factor: 2 } }), /^TypeError: max_position_embeddings must be an integer/);
  // a bare block: the same mapping and checks, its rope_theta as the base
  assert.deepEqual(ropeScaling({ rope_type: 'linear', factor: 2 }), { scaling: { type: 'linear', factor: 2 } });
  assert.deepEqual(ropeScaling({ ...yarn, rope_theta: 1e6 }), { base: 1e6, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 } });
  assert.throws(() => ropeScaling({ type: 'linear', factor: -2 }), /^RangeError: rope_scaling\.factor must be a finite number > 0, got -2$/);
  assert.throws(() => ropeScaling({ factor: 8 }), /^TypeError: rope_scaling has factor but neither rope_type nor type/);
  assert.throws(() => ropeScaling({ ...llama3, low_freq_factor: 4, high_freq_factor: 1 }),
    /^RangeError: rope_scaling\.high_freq_factor \(1\) must be at least rope_scaling\.low_freq_factor \(4\)$/);
});

test('a block with a factor and no type, and llama3 with low_freq_factor > high_freq_factor, are refused naming the config\'s keys', () => {
  assert.throws(() => read({ ...llama, rope_theta: 5e5, rope_scaling: { factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 } }),
    /^TypeError: rope_scaling has factor but neither rope_type nor type, so transformers cannot load it/);
  assert.throws(() => read({ ...llama, layer_types: Array(4).fill('full_attention'), rope_parameters: { full_attention: { factor: 2, rope_theta: 1e4 } } }),
    /^TypeError: rope_parameters\.full_attention has factor but neither rope_type nor type/);
  assert.throws(() => read({ ...llama, rope_theta: 5e5, rope_scaling: { ...llama3, low_freq_factor: 4, high_freq_factor: 1 } }),
    /^RangeError: rope_scaling\.high_freq_factor \(1\) must be at least rope_scaling\.low_freq_factor \(4\)$/);
  // the unknown type names the key the file uses
  assert.throws(() => read({ ...llama, rope_scaling: { type: 'foo', factor: 2 } }), /^RangeError: rope_scaling\.type "foo" is unknown/);
  // a block with neither type nor factor is default RoPE, as transformers reads it
  assert.equal(read({ ...llama, rope_theta: 1e4, rope_scaling: { rope_theta: 1e4 } }).layerTypes.full_attention.scaling, null);
});

test('LongRoPE and dynamic NTK depend on the sequence length: ropeConfig says so, and seqLen picks the factors as ropeVectors does', () => {
  const short = Array(48).fill(1), long = Array(48).fill(4);
  const phi3 = { model_type: 'phi3', hidden_size: 3072, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 131072,
    original_max_position_embeddings: 4096, rope_theta: 10000, rope_scaling: { type: 'longrope', short_factor: short, long_factor: long } };
  const w = read(phi3).warnings.find((x) => x.code === 'scaling-by-length');
  assert.match(w.message, /seqLen/);
  const { base, scaling } = ropeScaling(phi3), p = 100000;
  const vec = pe.ropeVectors(phi3, { positions: [p] }).layerTypes.full_attention.positions.find((r) => r.position === p);
  const withLen = pe.ropeCache([p], 96, { base, scaling: { ...scaling, seqLen: p + 1 } });
  assert.ok(Math.abs(withLen.cos[1] - vec.cos[1]) < 1e-6, 'seqLen past L0: long_factor, as ropeVectors');
  // left out, a position at or past L0 would silently take short_factor: refused on every route
  const refused = /^RangeError: scaling\.seqLen is required for longrope scaling at a position ≥ scaling\.originalMaxPositionEmbeddings \(4096\), here 100000: left out, shortFactor would be used/;
  assert.throws(() => pe.ropeCache([0, p], 96, { base, scaling }), refused);
  assert.throws(() => pe.applyRope(new Float32Array(96), { heads: 1, headDim: 96, style: 'half', positions: [p], base, scaling }), refused);
  const t = pe.tensor(96);
  try {
    assert.throws(() => pe.applyRopeInPlace(t, { heads: 1, headDim: 96, style: 'half', positions: [p], base, scaling }), refused);
  } finally { t.free(); }
  assert.equal(pe.ropeCache([4095], 96, { base, scaling }).cos.length, 48, 'below L0 the short factors are right');
  const dyn = { ...llama, max_position_embeddings: 4096, rope_theta: 1e4, rope_scaling: { rope_type: 'dynamic', factor: 2 } };
  assert.match(read(dyn).warnings.find((x) => x.code === 'scaling-by-length').message, /seqLen/);
  const ds = ropeScaling(dyn);
  assert.throws(() => pe.ropeCache([4096], 128, ds), /^RangeError: scaling\.seqLen is required for dynamic scaling at a position ≥ scaling\.maxPositionEmbeddings \(4096\), here 4096/);
  assert.equal(pe.ropeCache([4096], 128, { ...ds, scaling: { ...ds.scaling, seqLen: 4097 } }).cos.length, 64);
  assert.equal(read({ ...llama, rope_theta: 1e4, rope_scaling: { rope_type: 'linear', factor: 2 } }).warnings.length, 0);
});

test('the page\'s config examples (section 21): the v4 and v5 layouts read alike, and the per-layer-type one is Gemma 4\'s own', async () => {
  const { readFileSync } = await import('node:fs');
  const html = readFileSync(new URL('../web/index.html', import.meta.url), 'utf8');
  const at = html.indexOf('<div class="config-example">');
  assert.ok(at > 0, 'the examples are on the page');
  const box = html.slice(at, html.indexOf('</div>', at));
  const blocks = [...box.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) => JSON.parse(`{${m[1]}}`));
  assert.equal(blocks.length, 3);
  // Qwen2 7B's shape, with the YaRN setting its model card gives in either layout
  const qwen2 = { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_hidden_layers: 28, max_position_embeddings: 131072 };
  const [v4, v5] = [read({ ...qwen2, ...blocks[0] }), read({ ...qwen2, ...blocks[1] })];
  assert.deepEqual(v5, v4);
  assert.deepEqual(v4.warnings, []);
  assert.deepEqual(v4.layerTypes.full_attention.scaling, { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 });
  assert.equal(v4.layerTypes.full_attention.base, 1e6);
  // the nested block is what Gemma4TextConfig fills in when a config has none
  const g4 = { model_type: 'gemma4_text', num_hidden_layers: 6 };
  assert.deepEqual(read({ ...g4, ...blocks[2] }).layerTypes, read(g4).layerTypes);
  assert.deepEqual(read({ ...g4, ...blocks[2] }).layerTypes.full_attention.scaling, { type: 'proportional', partialRotaryFactor: 0.25, factor: 1 });
});

test('the softmax scale: Granite\'s attention_multiplier and Gemma 4\'s unscaled scores, on the usual 1/√head_dim', () => {
  // Granite's scores are scaled by attention_multiplier (1/128 in Granite 3 8B, head_dim 128): 1/128 = √128/128 × 1/√128
  const granite = { model_type: 'granite', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 2, max_position_embeddings: 131072, rope_theta: 1e7 };
  assert.ok(Math.abs(read({ ...granite, attention_multiplier: 0.0078125 }).layerTypes.full_attention.softmaxScale - Math.sqrt(128) / 128) < 1e-15);
  assert.equal(read(granite).layerTypes.full_attention.softmaxScale, Math.sqrt(128));
  assert.throws(() => read({ ...granite, attention_multiplier: -1 }), /attention_multiplier/);
  const g4 = read({ model_type: 'gemma4_text', num_hidden_layers: 6 }).layerTypes;
  assert.deepEqual([g4.sliding_attention.softmaxScale, g4.full_attention.softmaxScale], [16, Math.sqrt(512)]);
});

test('misspelt keys: warned about inside a RoPE block (as transformers does) and near the top-level RoPE keys, with the key meant', () => {
  const y = read({ ...llama, max_position_embeddings: 131072, rope_theta: 1e6, rope_scaling: { ...yarn, beta_fsat: 16 } });
  assert.equal(y.warnings[0].message, 'rope_scaling.beta_fsat is not a key of a RoPE block; transformers ignores it too: did you mean beta_fast?');
  assert.equal(y.layerTypes.full_attention.scaling.betaFast, undefined); // ignored, as there
  // a key far from every known one is named without a guess; a nested block's layer types are not keys
  assert.match(read({ ...llama, rope_theta: 1e6, rope_scaling: { ...yarn, colour: 1 } }).warnings[0].message, /rope_scaling\.colour is not a key of a RoPE block; transformers ignores it too$/);
  assert.deepEqual(codes({ ...llama, layer_types: Array(4).fill('full_attention'), rope_parameters: { full_attention: { rope_type: 'default', rope_theta: 1e6 } } }), []);
  // a required key misspelt: the error names the near miss
  assert.throws(() => read({ ...llama, rope_theta: 5e5, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_facor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 } }),
    /^TypeError: rope_scaling of type llama3 needs low_freq_factor; it has low_freq_facor: did you mean low_freq_factor\?$/);
  // top level: only near misses of the keys read here, and only while the key meant is absent
  const t = read({ ...llama, rope_thetta: 5e5 });
  assert.deepEqual(t.warnings.map((w) => w.code), ['unknown-key', 'class-defaults']);
  assert.equal(t.warnings[0].message, 'rope_thetta is not a key transformers reads; did you mean rope_theta?');
  assert.deepEqual(codes({ ...llama, rope_theta: 1e4, vocab_size: 32000, rms_norm_eps: 1e-5, rope_interleaved: false, tie_word_embeddings: true }), []);
  assert.deepEqual(codes({ ...llama, rope_theta: 1e4, rope_thetta: 5e5 }), []);
});

test('the scaling option: an unknown key cut short gets the key it begins', () => {
  assert.throws(() => pe.ropeCache([0], 8, { base: 1e4, scaling: { type: 'yarn', factor: 4, originalMaxPosition: 4096 } }),
    /^TypeError: scaling has no key "originalMaxPosition"; did you mean "originalMaxPositionEmbeddings"\?$/);
});
