// config-defaults.js: the values transformers' config classes fill in when a config.json leaves
// a key out. Hub files are saved with every key equal to its class default dropped, so
// google/gemma-3-4b-it's text_config has no head_dim: transformers then uses Gemma3TextConfig's
// 256, not hidden_size / num_attention_heads (2560 / 8 = 320). Only the keys posenc reads are
// listed, per model_type, from src/transformers/models/<model>/configuration_<model>.py (v5).
// Model types with custom code only (phi-msft, internlm2, minicpm) have no class here.
import { get } from './config-json.js';

// A head width of null: the class derives it (head_dim = hidden_size // num_attention_heads).
const CLASSES = {
  llama: ['LlamaConfig', { hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 2048, rope_theta: 10000 }],
  mistral: ['MistralConfig', { hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 131072, rope_theta: 10000 }],
  mixtral: ['MixtralConfig', { hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 131072, rope_theta: 1000000 }],
  ministral3: ['Ministral3Config', {
    hidden_size: 4096, num_attention_heads: 32, head_dim: 128, num_hidden_layers: 34, max_position_embeddings: 262144,
    rope_parameters: {
      type: 'yarn', rope_theta: 1000000, factor: 16, original_max_position_embeddings: 16384, beta_fast: 32, beta_slow: 1,
      mscale_all_dim: 1, mscale: 1, llama_4_scaling_beta: 0.1,
    },
  }],
  qwen2: ['Qwen2Config', { hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 32768, rope_theta: 10000 }],
  qwen3: ['Qwen3Config', { hidden_size: 4096, num_attention_heads: 32, head_dim: 128, num_hidden_layers: 32, max_position_embeddings: 32768, rope_theta: 10000 }],
  qwen2_vl: ['Qwen2VLTextConfig', { hidden_size: 8192, num_attention_heads: 64, num_hidden_layers: 80, max_position_embeddings: 32768, rope_theta: 1000000 }],
  deepseek_v2: ['DeepseekV2Config', { hidden_size: 4096, num_attention_heads: 32, qk_rope_head_dim: 64, num_hidden_layers: 32, max_position_embeddings: 2048, rope_theta: 10000 }],
  deepseek_v3: ['DeepseekV3Config', { hidden_size: 7168, num_attention_heads: 128, qk_rope_head_dim: 64, num_hidden_layers: 61, max_position_embeddings: 4096, rope_theta: 10000 }],
  gemma2: ['Gemma2Config', { hidden_size: 2304, num_attention_heads: 8, head_dim: 256, num_hidden_layers: 26, max_position_embeddings: 8192, rope_theta: 10000, query_pre_attn_scalar: 256 }],
  gemma3_text: ['Gemma3TextConfig', {
    hidden_size: 2304, num_attention_heads: 8, head_dim: 256, num_hidden_layers: 26, max_position_embeddings: 131072,
    rope_theta: 1000000, rope_local_base_freq: 10000, query_pre_attn_scalar: 256, sliding_window_pattern: 6,
  }],
  gemma4_text: ['Gemma4TextConfig', {
    hidden_size: 2304, num_attention_heads: 8, head_dim: 256, global_head_dim: 512, num_hidden_layers: 30, max_position_embeddings: 131072,
    rope_parameters: {
      sliding_attention: { rope_type: 'default', rope_theta: 10000 },
      full_attention: { rope_type: 'proportional', partial_rotary_factor: 0.25, rope_theta: 1000000 },
    },
  }],
  phi3: ['Phi3Config', { hidden_size: 3072, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 4096, rope_theta: 10000 }],
  gptj: ['GPTJConfig', { n_embd: 4096, n_head: 16, n_layer: 28, n_positions: 2048, rotary_dim: 64, rope_theta: 10000 }],
  gpt_neox: ['GPTNeoXConfig', { hidden_size: 6144, num_attention_heads: 64, num_hidden_layers: 44, max_position_embeddings: 2048, rotary_pct: 0.25, rope_theta: 10000 }],
  stablelm: ['StableLmConfig', { hidden_size: 2560, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 4096, partial_rotary_factor: 0.25, rope_theta: 10000 }],
  glm: ['GlmConfig', { hidden_size: 4096, num_attention_heads: 32, head_dim: 128, num_hidden_layers: 40, max_position_embeddings: 131072, partial_rotary_factor: 0.5, rope_theta: 10000 }],
  gpt_oss: ['GptOssConfig', {
    hidden_size: 2880, num_attention_heads: 64, head_dim: 64, num_hidden_layers: 36, max_position_embeddings: 131072, rope_theta: 150000,
    rope_parameters: { rope_type: 'yarn', factor: 32, beta_fast: 32, beta_slow: 1, truncate: false, original_max_position_embeddings: 4096 },
  }],
  smollm3: ['SmolLM3Config', { hidden_size: 2048, num_attention_heads: 16, num_hidden_layers: 36, max_position_embeddings: 32768, rope_theta: 2000000, no_rope_layer_interval: 4 }],
  llama4_text: ['Llama4TextConfig', {
    hidden_size: 5120, num_attention_heads: 40, head_dim: 128, num_hidden_layers: 48, max_position_embeddings: 131072, rope_theta: 500000,
    no_rope_layer_interval: 4, attn_temperature_tuning: true, floor_scale: 8192, attn_scale: 0.1,
  }],
};
// (frozen: a default block is handed to the reader as if the file had it)
const freeze = (o) => { for (const v of Object.values(o)) if (v && typeof v === 'object') freeze(v); return Object.freeze(o); };
freeze(CLASSES);
// Wrappers whose text_config is built from the text class, and v5's name for Qwen2-VL's text part.
const ALIAS = { gemma3: 'gemma3_text', gemma4: 'gemma4_text', llama4: 'llama4_text', qwen2_vl_text: 'qwen2_vl' };

// Keys that name the same value (transformers' attribute_map): the first one present counts.
const HIDDEN = ['hidden_size', 'n_embd'], HEADS = ['num_attention_heads', 'n_head'];
const LAYERS = ['num_hidden_layers', 'n_layer', 'num_layers'], MAX_POS = ['max_position_embeddings', 'n_positions', 'seq_length'];
const WIDTH = ['head_dim', 'kv_channels', 'qk_rope_head_dim'];
const PARTIAL = ['partial_rotary_factor', 'rotary_dim', 'rotary_pct'];

/** The transformers class behind a model_type: { name, values } or null. */
export function configClass(modelType) {
  if (typeof modelType !== 'string') return null;
  const key = Object.hasOwn(ALIAS, modelType) ? ALIAS[modelType] : modelType;
  if (!Object.hasOwn(CLASSES, key)) return null;
  return { name: CLASSES[key][0], values: CLASSES[key][1] };
}

/**
 * The config as transformers' class would complete it: a copy of c with the class defaults of
 * the keys posenc reads that c leaves out, and the list of those keys ({ key, value }).
 * rope_theta is not filled in here (where a base sits decides which warning a v5 layout gets);
 * readBase takes it from configClass().values.rope_theta.
 */
export function withClassDefaults(c, modelType) {
  const cls = configClass(modelType);
  if (cls === null) return { config: c, used: [], name: null };
  const v = cls.values, out = { ...c }, used = [];
  const has = (keys) => keys.some((k) => get(c, k) !== undefined);
  const fill = (k) => { out[k] = v[k]; used.push({ key: k, value: v[k] }); };
  const fillFirst = (keys) => { const k = keys.find((x) => v[x] !== undefined); if (k !== undefined && !has(keys)) fill(k); };

  // the head width: the class's own, or hidden / heads from whichever of the two is missing
  if (!has(WIDTH)) {
    const own = WIDTH.find((k) => v[k] !== undefined);
    if (own !== undefined) fill(own);
    else { fillFirst(HIDDEN); fillFirst(HEADS); }
  }
  if (v.global_head_dim !== undefined && get(c, 'global_head_dim') === undefined) fill('global_head_dim');
  fillFirst(LAYERS);
  fillFirst(MAX_POS);
  const block = get(c, 'rope_parameters') ?? get(c, 'rope_scaling');
  if (v.rope_parameters !== undefined && block === undefined) fill('rope_parameters');
  if (!has(PARTIAL) && get(block, 'partial_rotary_factor') === undefined) fillFirst(PARTIAL);
  if (v.query_pre_attn_scalar !== undefined && get(c, 'query_pre_attn_scalar') === undefined) fill('query_pre_attn_scalar');
  // Gemma 3's layer pattern and local base: only where no layer_types / nested block replaces them
  if (v.sliding_window_pattern !== undefined && get(c, 'layer_types') === undefined && get(c, 'sliding_window_pattern') === undefined) fill('sliding_window_pattern');
  if (v.rope_local_base_freq !== undefined && get(c, 'rope_local_base_freq') === undefined && get(c, 'rope_parameters') === undefined) fill('rope_local_base_freq');
  // NoPE layers: every 4th unless no_rope_layers lists them (an empty list counts as none)
  const list = get(c, 'no_rope_layers');
  if (v.no_rope_layer_interval !== undefined && get(c, 'no_rope_layer_interval') === undefined && !(Array.isArray(list) && list.length > 0)) {
    fill('no_rope_layer_interval');
  }
  for (const k of ['attn_temperature_tuning', 'floor_scale', 'attn_scale']) if (v[k] !== undefined && get(c, k) === undefined) fill(k);
  return { config: out, used, name: cls.name };
}
