// layer.js: one attention layer of a real model, from its weights: what transformers computes for
// layer 0 of a Llama, Mistral, Qwen2 or Qwen3 model (and for the lab's exported models), up to
// the attention weights, and the per-pair energy of q/k projection rows. Each takes the
// instance's heap first; web/lib/posenc.js binds them. The projections and dot products run in
// the C kernels (posenc_linear, posenc_gram, posenc_row_dots; float64 sums), the rotation is
// applyRope's, and the O(tokens × width) steps (norms, softmax) are here.
//
// Pair layout: transformers' Llama/Qwen code rotates with rotate_half, so within head h the rows
// h·d + i and h·d + i + r/2 of q_proj.weight (and k_proj.weight) form rotation pair i, turned by
// angle p·θ_i with θ_i = base^(-2i/r) (r: the rotary width, d the head width). ropeConfig()
// names that layout 'half'; a model type that pairs adjacent rows (2i, 2i + 1) is 'interleaved'.
import * as A from './args.js';
import { load, get, count, number, optString } from './config-json.js';
import { readRopeConfig } from './rope-config.js';
import * as rope from './rope.js';

const LAYER_KEYS = A.optionKeys('layerAttention', ['config', 'x', 'weights', 'positions', 'scaling']);
const WEIGHT_KEYS = ['inputNorm', 'inputNormBias', 'q', 'k', 'qBias', 'kBias', 'qNorm', 'kNorm'];
const ENERGY_KEYS = A.optionKeys('pairEnergy', ['heads', 'headDim', 'style', 'rotaryDim', 'out']);
/** Model types whose layer layerAttention computes (posenc_lab: pe.train(...).exportSafetensors()). */
export const LAYER_MODEL_TYPES = Object.freeze(['llama', 'mistral', 'qwen2', 'qwen3', 'posenc_lab']);

/** A checked array of `Type` (finite, within bounds; a copy only when the input is not one). */
function checked(name, v, Type, opts) {
  const a = A.numbers(name, v, Type, opts);
  if (!(a instanceof A.Unscanned)) return a;
  a.check(0, a.length);
  return a.array instanceof Type ? a.array : Type.from(a.array);
}

/** A finite float32 array of exactly `length` values. */
const floats = (name, v, length) => checked(name, v, Float32Array, { length });

/**
 * The layer's shape from config.json: { modelType, hidden, heads, kvHeads, eps, bias, headNorm,
 * layerNorm }. The lab's models (posenc_lab) normalise with LayerNorm (mean removed, a bias
 * added; layer_norm_eps), every other type with RMSNorm (rms_norm_eps).
 */
function layerShape(c, headDim) {
  const modelType = optString('config.model_type', get(c, 'model_type'));
  if (modelType === undefined) throw new TypeError(`config.model_type is missing; layerAttention computes ${LAYER_MODEL_TYPES.join(', ')}`);
  if (!LAYER_MODEL_TYPES.includes(modelType)) {
    throw new RangeError(`config.model_type ${JSON.stringify(modelType)} is not supported; layerAttention computes ${LAYER_MODEL_TYPES.join(', ')}`);
  }
  const need = (k) => {
    if (get(c, k) === undefined) throw new TypeError(`config.${k} is missing`);
    return count(`config.${k}`, get(c, k), 1);
  };
  const hidden = need('hidden_size'), heads = need('num_attention_heads');
  const kvHeads = get(c, 'num_key_value_heads') === undefined ? heads : count('config.num_key_value_heads', get(c, 'num_key_value_heads'), 1);
  if (heads % kvHeads) throw new RangeError(`config.num_attention_heads (${heads}) must be a multiple of config.num_key_value_heads (${kvHeads})`);
  // transformers' defaults: rms_norm_eps 1e-6; q/k biases in Qwen2 always, elsewhere when attention_bias is set
  const layerNorm = modelType === 'posenc_lab';
  const epsKey = layerNorm ? 'layer_norm_eps' : 'rms_norm_eps';
  const eps = get(c, epsKey) === undefined ? (layerNorm ? 1e-5 : 1e-6) : number(`config.${epsKey}`, get(c, epsKey), 0);
  const ab = get(c, 'attention_bias');
  if (ab !== undefined) A.bool('config.attention_bias', ab);
  const bias = modelType === 'qwen2' || ab === true;
  A.elements('q_proj.weight', heads, headDim, hidden);
  return { modelType, hidden, heads, kvHeads, eps, bias, headNorm: modelType === 'qwen3', layerNorm };
}

/**
 * RMSNorm x / sqrt(mean(x²) + eps) · g over each `width` values of `a`, in place (float64 sums,
 * float32 results); with a bias b, LayerNorm (x − mean) / sqrt(var + eps) · g + b instead.
 */
function rmsNorm(a, width, g, eps, b = null) {
  for (let r = 0; r < a.length; r += width) {
    let mean = 0, s = 0;
    if (b) {
      for (let j = 0; j < width; j++) mean += a[r + j];
      mean /= width;
    }
    for (let j = 0; j < width; j++) s += (a[r + j] - mean) ** 2;
    const inv = 1 / Math.sqrt(s / width + eps);
    for (let j = 0; j < width; j++) a[r + j] = Math.fround((a[r + j] - mean) * inv) * g[j] + (b ? b[j] : 0);
  }
  return a;
}

/** [i, j] dims of rotation pair i in a head: 'half' (i, i + r/2) or 'interleaved' (2i, 2i + 1). */
const pairDims = (style, i, r) => (style === 'half' ? [i, i + r / 2] : [2 * i, 2 * i + 1]);

/**
 * Layer attention from token embeddings and one layer's weights. See posenc.d.ts for the
 * parameters and results; the steps are transformers' (modeling_llama.py, modeling_qwen2.py,
 * modeling_qwen3.py): RMSNorm (input_layernorm), q = h W_qᵀ (+ b_q), k likewise, Qwen3's RMSNorm
 * of each head's q and k (q_norm, k_norm) before RoPE, RoPE at `positions`, causal scores
 * q·k·scale and their softmax, each query head reading key head ⌊h / (heads / kvHeads)⌋.
 */
export function layerAttention(heap, opts) {
  const o = A.options('options', opts, LAYER_KEYS, 'layerAttention');
  if (o.config === undefined) throw new TypeError('config is required: the model\'s config.json (object or text)');
  const c = load(o.config);
  const rc = readRopeConfig(c, { attentionFactor: (d, f) => rope.ropeAttentionFactor(heap, d, f) });
  const types = Object.values(rc.layerTypes);
  const lt = types.find((t) => t.layers?.includes(0)) ?? types[0];
  if (lt.nope) throw new RangeError('config: layer 0 of this model uses no positional encoding (NoPE); layerAttention shows RoPE layers');
  if (lt.mrope || lt.temperature) throw new RangeError('config: layer 0 uses multimodal RoPE or a query temperature, which layerAttention does not compute');
  const { headDim: hd, rotaryDim, style } = lt;
  const s = layerShape(c, hd);
  const { hidden, heads, kvHeads } = s;
  const nq = heads * hd, nk = kvHeads * hd;

  if (o.x === undefined) throw new TypeError('x is required: the token embeddings, [tokens][hidden_size]');
  const xs0 = A.numbers('x', o.x, Float32Array);
  if (xs0.length % hidden) throw new RangeError(`x.length must be a multiple of config.hidden_size = ${hidden}, got ${xs0.length}`);
  const T = xs0.length / hidden;
  A.elements('scores', heads, T, T);
  // a sliding window masks keys farther back than it: the full causal mask computed here is the
  // model's only while the sequence fits in the window
  const win = get(c, 'sliding_window');
  if (typeof win === 'number' && get(c, 'use_sliding_window') !== false && T > win) {
    throw new RangeError(`x has ${T} tokens, more than config.sliding_window (${win}); layerAttention computes full causal attention`);
  }
  const x = floats('x', o.x, T * hidden);

  const w = A.options('weights', o.weights ?? (() => {
    throw new TypeError('weights is required: { inputNorm, q, k } and, for the layouts that have them, qBias, kBias, qNorm, kNorm');
  })(), WEIGHT_KEYS, 'layerAttention');
  // (the projection matrices go to the C kernel as numbers() gives them: the heap copy is
  // scanned for NaN there, faster than a JS loop; the small vectors are read here and checked now)
  const req = (k, n, wanted, why, kernel = false) => {
    if (w[k] === undefined) {
      if (wanted) throw new TypeError(`weights.${k} is required for ${why}`);
      return null;
    }
    if (!wanted) throw new TypeError(`weights.${k} does not belong to ${why}`);
    return kernel ? A.numbers(`weights.${k}`, w[k], Float32Array, { length: n }) : floats(`weights.${k}`, w[k], n);
  };
  const arch = `config.model_type ${JSON.stringify(s.modelType)}${s.bias ? ' (q/k biases)' : ''}`;
  const inputNorm = req('inputNorm', hidden, true, 'every layer (input_layernorm.weight)');
  const inputNormBias = req('inputNormBias', hidden, s.layerNorm, `${arch}${s.layerNorm ? ' (LayerNorm: input_layernorm.bias)' : ''}`);
  const Wq = req('q', nq * hidden, true, 'every layer (q_proj.weight)', true);
  const Wk = req('k', nk * hidden, true, 'every layer (k_proj.weight)', true);
  const qBias = req('qBias', nq, s.bias, arch), kBias = req('kBias', nk, s.bias, arch);
  const qNorm = req('qNorm', hd, s.headNorm, arch), kNorm = req('kNorm', hd, s.headNorm, arch);

  const positions = o.positions === undefined ? Float64Array.from({ length: T }, (_, i) => i)
    : checked('positions', o.positions, Float64Array, { length: T, min: 0, max: rope.MAX_POSITION });
  const scaling = o.scaling === undefined ? lt.scaling : o.scaling;

  // input_layernorm, then the projections in the C kernel (float64 sums, float32 results)
  const h = rmsNorm(Float32Array.from(x), hidden, inputNorm, s.eps, inputNormBias);
  const project = (W, n) => heap.scoped((sc) => sc.output(Float32Array, T * n, undefined, (p) => heap.call('posenc_linear', p, sc.copyIn(h), T, hidden, sc.copyIn(W), n)));
  const q = project(Wq, nq), k = project(Wk, nk);
  if (qBias) for (let i = 0; i < q.length; i++) q[i] += qBias[i % nq];
  if (kBias) for (let i = 0; i < k.length; i++) k[i] += kBias[i % nk];
  if (qNorm) rmsNorm(q, hd, qNorm, s.eps), rmsNorm(k, hd, kNorm, s.eps);

  const rot = (a, n) => rope.applyRope(heap, a, { heads: n, headDim: hd, rotaryDim, style, positions, base: lt.base, ...(scaling ? { scaling } : {}) });
  const qr = rot(q, heads), kr = rot(k, kvHeads);

  // scores per head: the C kernel's float64 dot products of the head's q rows with its key head's k rows
  const scale = lt.softmaxScale / Math.sqrt(hd);
  const headRows = (a, n, hIdx) => {
    const out = new Float32Array(T * hd);
    for (let t = 0; t < T; t++) out.set(a.subarray((t * n + hIdx) * hd, (t * n + hIdx + 1) * hd), t * hd);
    return out;
  };
  const kHeads = Array.from({ length: kvHeads }, (_, g) => headRows(kr, kvHeads, g));
  const scores = new Float32Array(heads * T * T), weights = new Float32Array(heads * T * T);
  const group = heads / kvHeads;
  for (let hh = 0; hh < heads; hh++) {
    const dots = heap.scoped((sc) => sc.output(Float64Array, T * T, undefined, (p) => heap.call('posenc_gram', p, sc.copyIn(headRows(qr, heads, hh)), T, sc.copyIn(kHeads[Math.floor(hh / group)]), T, hd)));
    for (let i = 0; i < T; i++) {
      const row = hh * T * T + i * T;
      let mx = -Infinity;
      for (let j = 0; j <= i; j++) {
        const v = dots[i * T + j] * scale;
        scores[row + j] = v;
        if (v > mx) mx = v;
      }
      let sum = 0;
      for (let j = 0; j <= i; j++) sum += Math.exp(dots[i * T + j] * scale - mx);
      for (let j = 0; j <= i; j++) weights[row + j] = Math.exp(dots[i * T + j] * scale - mx) / sum;
      for (let j = i + 1; j < T; j++) scores[row + j] = -Infinity;
    }
  }

  return {
    q: qr, k: kr, scores, weights,
    pairNorms: { q: pairNorms(qr, T, heads, hd, rotaryDim, style), k: pairNorms(kr, T, kvHeads, hd, rotaryDim, style) },
    heads, kvHeads, headDim: hd, rotaryDim, style, base: lt.base, scaling: scaling ?? null, length: T,
  };
}

/** ‖x_t^(h,i)‖ of rotated rows [T][n][hd]: Float32Array [n][rotaryDim/2][T]. */
function pairNorms(a, T, n, hd, r, style) {
  const half = r / 2, out = new Float32Array(n * half * T);
  for (let hh = 0; hh < n; hh++)
    for (let i = 0; i < half; i++) {
      const [u, v] = pairDims(style, i, r);
      for (let t = 0; t < T; t++) {
        const base = (t * n + hh) * hd;
        out[(hh * half + i) * T + t] = Math.hypot(a[base + u], a[base + v]);
      }
    }
  return out;
}

/**
 * Per head h and rotation pair i, ‖W[h·d + u]‖² + ‖W[h·d + v]‖² for the two rows (u, v) of pair
 * i in `style`: how much of the projection feeds each frequency. A proxy read from the weights
 * alone: real tokens' q and k depend on the inputs too (layerAttention gives those).
 * Float64Array [heads][rotaryDim/2] (into options.out when given).
 */
export function pairEnergy(heap, W, opts) {
  const o = A.options('options', opts, ENERGY_KEYS, 'pairEnergy');
  const heads = A.int('heads', o.heads, 1);
  const hd = A.int('headDim', o.headDim, 2, rope.MAX_DIM);
  const style = rope.STYLE_NAMES[rope.ropeStyle(o)];
  const r = A.evenInt('rotaryDim', o.rotaryDim ?? hd - (hd % 2), 2, hd);
  const rows = A.elements('W rows', heads, hd);
  const ws = A.numbers('W', W, Float32Array);
  if (ws.length % rows) throw new RangeError(`W.length must be a multiple of heads × headDim = ${rows} (W is [heads·headDim][in]), got ${ws.length}`);
  const width = ws.length / rows;
  const half = r / 2;
  const out = A.outArray('out', o.out, Float64Array, heads * half) ?? new Float64Array(heads * half);
  const sq = heap.scoped((sc) => {
    const p = sc.copyIn(ws);
    return sc.output(Float64Array, rows, undefined, (out) => heap.call('posenc_row_dots', out, p, p, rows, width));
  });
  for (let h = 0; h < heads; h++)
    for (let i = 0; i < half; i++) {
      const [u, v] = pairDims(style, i, r);
      out[h * half + i] = sq[h * hd + u] + sq[h * hd + v];
    }
  return out;
}

/**
 * Reads what layerAttention needs from an opened safetensors file (readSafetensors) of a model
 * in transformers' names: the embedding rows of `tokens` (x) and layer `layer`'s weights
 * (model.layers.{layer}.input_layernorm.weight / .bias, self_attn.q_proj.weight / .bias,
 * k_proj.weight / .bias, q_norm.weight, k_norm.weight; those the file lacks are left out).
 * Reads only those bytes. Resolves to { x, weights }.
 */
export async function readLayer(file, { tokens, layer = 0, prefix = 'model.' } = {}) {
  if (!file || typeof file.tensor !== 'function' || typeof file.has !== 'function') throw new TypeError(`file must be what readSafetensors() resolves to, got ${A.show(file)}`);
  A.int('layer', layer, 0, 1e6);
  if (typeof prefix !== 'string') throw new TypeError(`prefix must be a string, got ${A.show(prefix)}`);
  const p = `${prefix}layers.${layer}.`;
  const names = { inputNorm: 'input_layernorm.weight', inputNormBias: 'input_layernorm.bias', q: 'self_attn.q_proj.weight', k: 'self_attn.k_proj.weight', qBias: 'self_attn.q_proj.bias', kBias: 'self_attn.k_proj.bias', qNorm: 'self_attn.q_norm.weight', kNorm: 'self_attn.k_norm.weight' };
  const weights = {};
  await Promise.all(Object.entries(names).map(async ([key, n]) => {
    if (file.has(p + n)) weights[key] = await file.tensor(p + n);
    else if (key === 'inputNorm' || key === 'q' || key === 'k') throw new RangeError(`the file has no tensor ${JSON.stringify(p + n)}`);
  }));
  const out = { weights };
  if (tokens !== undefined) out.x = await file.tensor(`${prefix}embed_tokens.weight`, { rows: tokens });
  return out;
}
