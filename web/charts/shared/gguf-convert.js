// gguf-convert.js: the RoPE part of a GGUF as llama.cpp's convert_hf_to_gguf.py writes it from a
// config.json: the architecture it maps the model type to, the keys llama.cpp's loader reads for
// positions, and the per-pair factor tensors (rope_freqs for llama3 scaling, LongRoPE's long and
// short factors). Built in the page, never written to disk: what readGguf would return for the
// front of such a file. `omit` simulates an older converter: 'rope_freqs' (before llama.cpp#8676,
// July 2024) or 'freq_base_swa' (before llama.cpp#18553, January 2026). Gemma 4 follows its
// converter from llama.cpp#21309 (April 2026: Gemma4Model), which wrote both from the start.
import { ggufArch } from '../../lib/llamacpp.js';

export const OMITS = Object.freeze(['rope_freqs', 'freq_base_swa']);

/** convert_hf_to_gguf.py LlamaModel.generate_extra_tensors: llama3's divisor per pair, float32. */
function llama3Factors(base, dim, s) {
  const out = new Float32Array(dim / 2);
  const { factor, lowFreqFactor: low, highFreqFactor: high, originalMaxPositionEmbeddings: original } = s;
  for (let i = 0; i < dim / 2; i++) {
    const wavelen = 2 * Math.PI * base ** ((2 * i) / dim);
    if (wavelen < original / high) out[i] = 1;
    else if (wavelen > original / low) out[i] = factor;
    else {
      const t = (original / wavelen - low) / (high - low);
      out[i] = 1 / ((1 - t) / factor + t);
    }
  }
  return out;
}

/**
 * convert_hf_to_gguf.py Gemma4Model (llama.cpp#21309): set_gguf_parameters's head sizes, rotary
 * widths and sliding pattern, and generate_extra_tensors's rope_freqs, from the (text) config as
 * the converter reads it; the key_length and dimension_count of the full layers (global_head_dim)
 * are the ones written above. Full layers: p-RoPE over the whole 512-wide head, done by factors,
 * 1 for the first int(global_head_dim × p / 2) pairs and 1e30 for the rest ("ggml neox only
 * supports ccss000000000000"). Sliding layers: head_dim × the top-level partial_rotary_factor
 * (1.0 when absent, as in the nested v5 config). No rope.scaling.* key: the converter knows no
 * rope type "proportional". freq_base_swa only when the config has sliding_attention's rope_theta.
 */
function gemma4Keys(c, sliding) {
  const rp = c.rope_parameters?.full_attention;
  if (rp?.rope_type !== 'proportional' || typeof rp.partial_rotary_factor !== 'number' || typeof c.global_head_dim !== 'number' ||
    typeof c.head_dim !== 'number' || !Array.isArray(c.layer_types)) {
    return { error: 'converter-fails', message: 'convert_hf_to_gguf.py (Gemma4Model) stops on this config: it needs global_head_dim, head_dim, layer_types and rope_parameters.full_attention of rope_type "proportional" with its partial_rotary_factor' };
  }
  const keys = [['attention.value_length', c.global_head_dim], ['attention.key_length_swa', c.head_dim],
    ['attention.value_length_swa', c.head_dim], ['rope.dimension_count_swa', Math.trunc(c.head_dim * (c.partial_rotary_factor ?? 1))],
    ['attention.sliding_window_pattern', c.layer_types.map((t) => t === 'sliding_attention')]];
  const swaTheta = c.rope_parameters?.sliding_attention?.rope_theta;
  if (sliding && swaTheta !== undefined) keys.push(['rope.freq_base_swa', swaTheta]);
  const half = Math.trunc(c.global_head_dim / 2), turning = Math.trunc((c.global_head_dim * rp.partial_rotary_factor) / 2);
  const ropeFreqs = new Float32Array(half).fill(1e30);
  ropeFreqs.fill(1, 0, Math.min(turning, half));
  return { keys, ropeFreqs };
}


/**
 * The GGUF front a conversion of `config` writes. info: pe.ropeConfig(config). Returns
 * { gguf, arch, omitted } (omitted: whether `omit` removed anything from this model's file),
 * { error: 'unsupported', type } when convert_hf_to_gguf.py has no class for the model type, or
 * { error: 'converter-fails', type, message } when its class stops on this config.
 */
export function convertedGguf(config, info, omit = null) {
  const c = config.text_config ?? config;
  const type = c.model_type ?? config.model_type;
  const arch = ggufArch(config);
  if (!arch) return { error: 'unsupported', type: String(type) };
  const types = Object.entries(info.layerTypes).filter(([, t]) => !t.nope);
  const full = (types.find(([n]) => n === 'full_attention') ?? types[0])?.[1];
  if (!full) return { error: 'unsupported', type: String(type) };
  const sliding = types.find(([n]) => n === 'sliding_attention')?.[1];
  const meta = { 'general.architecture': arch, 'general.name': String(config._name_or_path ?? type) };
  const key = (k, v) => (meta[`${arch}.${k}`] = v);
  const ropeTensors = {};
  let omitted = false;
  const layers = c.num_hidden_layers ?? types.reduce((n, [, t]) => n + (t.layers?.length ?? 0), 0);
  key('context_length', info.maxPositionEmbeddings ?? c.max_position_embeddings ?? 4096);
  if (layers) key('block_count', layers);
  if (c.hidden_size) key('embedding_length', c.hidden_size);
  if (c.num_attention_heads) key('attention.head_count', c.num_attention_heads);
  key('attention.head_count_kv', c.num_key_value_heads ?? c.num_attention_heads ?? 1);
  key('attention.key_length', full.headDim);
  key('rope.dimension_count', full.rotaryDim);
  key('rope.freq_base', full.base);
  const s = full.scaling;
  if (s?.type === 'linear') (key('rope.scaling.type', 'linear'), key('rope.scaling.factor', s.factor));
  else if (s?.type === 'yarn') {
    key('rope.scaling.type', 'yarn');
    key('rope.scaling.factor', s.factor);
    key('rope.scaling.original_context_length', s.originalMaxPositionEmbeddings);
    key('rope.scaling.yarn_beta_fast', s.betaFast ?? 32);
    key('rope.scaling.yarn_beta_slow', s.betaSlow ?? 1);
    // DeepSeek's converter stores 0.1 × mscale_all_dim
    if (arch === 'deepseek2' && s.mscaleAllDim) key('rope.scaling.yarn_log_multiplier', 0.1 * s.mscaleAllDim);
  } else if (s?.type === 'llama3') {
    if (omit === 'rope_freqs') omitted = true;
    else ropeTensors.rope_freqs = llama3Factors(full.base, full.rotaryDim, s);
  } else if (s?.type === 'longrope') {
    const rs = c.rope_scaling ?? c.rope_parameters ?? {};
    key('rope.scaling.original_context_length', s.originalMaxPositionEmbeddings);
    key('rope.scaling.attn_factor', full.attentionFactor);
    if (Array.isArray(rs.long_factor)) ropeTensors.rope_factors_long = Float32Array.from(rs.long_factor);
    if (Array.isArray(rs.short_factor)) ropeTensors.rope_factors_short = Float32Array.from(rs.short_factor);
  }
  if (full.mrope) key('rope.dimension_sections', [...full.mrope.section, 0, 0, 0, 0].slice(0, 4));
  if (c.sliding_window && sliding) key('attention.sliding_window', c.sliding_window);
  if (sliding && arch === 'gemma3') {
    if (omit === 'freq_base_swa') omitted = true;
    else key('rope.freq_base_swa', sliding.base);
  }
  if (arch === 'gemma4') {
    const g = gemma4Keys(c, sliding);
    if (g.error) return { error: g.error, type: String(type), message: g.message };
    for (const [k, v] of g.keys) key(k, v);
    ropeTensors.rope_freqs = g.ropeFreqs;
  }
  const tensors = Object.entries(ropeTensors).map(([name, v], n) => Object.freeze({ name: `${name}.weight`, shape: Object.freeze([v.length]), type: 0, offset: 256 * n }));
  const gguf = Object.freeze({
    version: 3, littleEndian: true, metadata: Object.freeze(meta), tensors: Object.freeze(tensors), dataOffset: 0,
    ropeTensors: Object.freeze(ropeTensors), bytesRead: 0,
  });
  return { gguf, arch, omitted };
}
