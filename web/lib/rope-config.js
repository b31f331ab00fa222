// rope-config.js: readRopeConfig() reads a whole config.json (Hugging Face transformers v4 or
// v5 layout, or a vision-language model's text_config) and says, per kind of layer, how the
// model encodes positions: base, head and rotary widths, pair layout, scaling, attention
// factors, NoPE layers. ropeScaling() gives the options of its RoPE layers from the same
// reading. The scaling block's keys become posenc's option keys in scaling.js blockScaling(); the attention factor of a scaling
// variant comes from the caller's callback (the Posenc class passes its kernel-backed
// ropeAttentionFactor), so its formula exists once too, in C.
//
// Reference files (read for conventions, nothing copied): transformers
// src/transformers/modeling_rope_utils.py (RopeParameters, standardisation of legacy keys,
// proportional), models/gemma3, models/gemma4/configuration_gemma4.py,
// models/llama4/configuration_llama4.py and modeling_llama4.py, models/smollm3,
// models/qwen2_vl/modeling_qwen2_vl.py, models/deepseek_v3, models/phi3/modeling_phi3.py,
// models/gpt_oss/configuration_gpt_oss.py, models/ministral3, models/gptj, models/glm;
// deepseek-ai/DeepSeek-V3 inference/model.py.
import * as A from './args.js';
import { MAX_DIM } from './rope.js';
import { blockScaling, SCALING_TYPES } from './scaling.js';
import { chooseBlock, layerList } from './config-layers.js';
import { configClass, withClassDefaults } from './config-defaults.js';
import { MAX_CONFIG_BYTES, MAX_CONFIG_DEPTH, MAX_CONFIG_VALUES, load, get, record, number, count, optCount, optString, numbers, ints } from './config-json.js';

export { MAX_CONFIG_BYTES, MAX_CONFIG_DEPTH, MAX_CONFIG_VALUES };
// The keys of a scaling block handed to blockScaling (the rest of a block is read here or ignored).
const SCALAR_KEYS = ['factor', 'attention_factor', 'beta_fast', 'beta_slow', 'mscale', 'mscale_all_dim',
  'low_freq_factor', 'high_freq_factor', 'original_max_position_embeddings'];
const LIST_KEYS = ['short_factor', 'long_factor'];
// Every key a rope_scaling / rope_parameters block may hold (transformers' RopeParameters and the
// layer types of a nested block); any other is ignored there too, and warned about, as transformers does.
const BLOCK_KEYS = ['rope_type', 'type', 'rope_theta', 'partial_rotary_factor', 'mrope_section', 'mrope_interleaved', 'truncate',
  'llama_4_scaling_beta', ...SCALAR_KEYS, ...LIST_KEYS];
// The top-level keys about positions read here: a key within two edits of one (and not a real key
// that looks like one) is most likely it misspelt. Configs hold many other keys, so only near misses are named.
const TOP_KEYS = ['rope_theta', 'rope_scaling', 'rope_parameters', 'rope_local_base_freq', 'partial_rotary_factor', 'rotary_pct',
  'rotary_dim', 'rotary_emb_base', 'original_max_position_embeddings', 'max_position_embeddings', 'qk_rope_head_dim',
  'no_rope_layers', 'no_rope_layer_interval', 'sliding_window_pattern', 'layer_types'];
const REAL_KEYS = new Set(['rope_interleaved', 'rope_interleave', 'sliding_window', 'layer_type']);

// The base when neither the config nor its class names one (RotaryEmbeddingConfigMixin.default_theta),
// and Gemma's sliding layers' base (rope_local_base_freq; Gemma 4's sliding block).
const DEFAULT_THETA = 10000;
const DEFAULT_LOCAL_THETA = 10000;

// Pair layout ('half' = rotate_half, pairs (i, i + r/2); 'interleaved' = adjacent pairs), by
// model type. Everything else is 'half', as in transformers' rotate_half models.
// - gptj: modeling_gptj.py rotate_every_two.
// - glm, glm4, chatglm: modeling_glm.py takes even/odd channels and repeat_interleave(2)s cos/sin.
// - llama4, llama4_text: modeling_llama4.py rotates with complex freqs_cis over
//   view_as_complex(reshape(..., -1, 2)), i.e. adjacent pairs (Meta's reference does the same).
// - MLA models (a config with qk_rope_head_dim: deepseek_v2, deepseek_v3, kimi): adjacent pairs
//   (DeepSeek-V3 inference/model.py apply_rotary_emb, complex); transformers' deepseek_v3 keeps
//   that with rope_interleave (default true) and we follow rope_interleave when it is false.
const INTERLEAVED_TYPES = new Set(['gptj', 'glm', 'glm4', 'chatglm', 'llama4', 'llama4_text']);

/**
 * Reads the position encoding of a model from its config.json.
 *
 * config: the whole config.json, as an object or as JSON text. options.attentionFactor:
 * (rotaryDim, { base, scaling }) => number, the factor a YaRN or LongRoPE scaling multiplies
 * cos and sin by (pass pe.ropeAttentionFactor).
 *
 * Returns { layerTypes: { [name]: { base, headDim, rotaryDim, style, scaling, mrope,
 * attentionFactor, softmaxScale, nope, temperature, layers, contextLength } }, maxPositionEmbeddings,
 * warnings: [{ code, message }] }, frozen. Throws a TypeError or RangeError naming the key.
 */
export function readRopeConfig(config, options) {
  const o = A.options('options', options);
  const callback = o.attentionFactor;
  if (typeof callback !== 'function') {
    throw new TypeError(`options.attentionFactor must be a function (rotaryDim, { base, scaling }) => number, got ${A.show(callback)}`);
  }
  const root = load(config);
  const warnings = [];
  // (a block shared by several layer types would raise the same warning once per type)
  const warn = (code, message) => {
    if (!warnings.some((w) => w.code === code && w.message === message)) warnings.push(Object.freeze({ code, message }));
  };

  // Vision-language models (Qwen3-VL, Gemma 3/4, Mistral 3, Llama 4) keep the language model's
  // settings in text_config; the top level then holds only the wrapper's keys.
  let c = root, at = '';
  const text = get(root, 'text_config');
  if (text !== undefined) {
    c = record('text_config', text);
    at = 'text_config.';
  }
  const modelType = optString(`${at}model_type`, get(c, 'model_type')) ?? optString('model_type', get(root, 'model_type'));
  for (const k of Object.keys(c)) {
    const guess = TOP_KEYS.includes(k) || REAL_KEYS.has(k) ? null : A.suggest(k, TOP_KEYS, 2);
    if (guess !== null && get(c, guess) === undefined) warn('unknown-key', `${at}${k} is not a key transformers reads; did you mean ${guess}?`);
  }
  // Keys the file leaves out take their config class's defaults, as in transformers; the
  // warning at the end lists them.
  const completed = withClassDefaults(c, modelType);
  c = completed.config;
  const defaults = completed.used.slice();
  const noteDefault = (key, value) => { if (!defaults.some((d) => d.key === key)) defaults.push({ key, value }); };

  const numLayers = optCount(at, c, ['num_hidden_layers', 'n_layer', 'num_layers'], 1);
  const maxPos = optCount(at, c, ['max_position_embeddings', 'n_positions', 'seq_length'], 1);
  const topL0 = optCount(at, c, ['original_max_position_embeddings'], 1);
  const mla = get(c, 'qk_rope_head_dim') !== undefined;
  const headDim = readHeadDim(at, c, mla);

  const { block, blockName, nested, kinds, dropped } = chooseBlock(at, c, modelType, numLayers, warn);
  const blockIsDefault = completed.used.some((d) => d.key === 'rope_parameters');
  const list = layerList(at, c, modelType, numLayers, kinds);
  if (list.layers === null && numLayers === undefined) {
    warn('layers-unknown', `${at}num_hidden_layers is missing: the layers of each type are unknown (layers: null)`);
  }

  const style = pairStyle(at, c, modelType, mla);
  const layerTypes = Object.create(null);
  for (const name of list.names) {
    const nope = list.nope.has(name);
    const kind = list.kindOf[name];
    const layers = list.layers === null ? null : Object.freeze(list.layers.filter((l) => l.name === name).map((l) => l.index));
    if (nope) {
      layerTypes[name] = Object.freeze({
        base: null, headDim, rotaryDim: 0, style: null, scaling: null, mrope: null, attentionFactor: 1,
        softmaxScale: softmaxScale(c, modelType, headDim, null, null), nope: true,
        temperature: nopeTemperature(at, c, modelType), layers, contextLength: maxPos ?? null,
      });
      continue;
    }
    let b = block, bPath = `${at}${blockName}`;
    if (nested) {
      bPath = `${at}${blockName}.${kind}`;
      b = get(block, kind);
      if (b === undefined) {
        warn('layer-type-missing', `${at}${blockName} has no block for layer type ${JSON.stringify(kind)} that layer_types names; default RoPE used for it`);
      } else b = record(bPath, b);
    }
    const lt = readLayerType({
      // (a layer type with no block of its own is warned about once, not again for its base)
      at, c, modelType, kind, block: b, bPath, fromV5: blockName === 'rope_parameters' && b !== undefined && !blockIsDefault, nested, headDim, mla,
      maxPos, topL0, style, layers, callback, warn, noteDefault, dropped: nested ? undefined : dropped,
    });
    layerTypes[name] = Object.freeze({ ...lt, contextLength: contextLength(lt, maxPos ?? null) });
  }
  if (defaults.length > 0) {
    const named = defaults.map((d) => `${at}${d.key} ${JSON.stringify(d.value)}`).join(', ');
    const from = completed.name === null
      ? 'the default transformers uses for every model type'
      : `transformers' ${completed.name} defaults, as loading the file there would`;
    warn('class-defaults', `not in the config, taken from ${from}: ${named}`);
  }
  return Object.freeze({ layerTypes: Object.freeze(layerTypes), maxPositionEmbeddings: maxPos ?? null, warnings: Object.freeze(warnings) });
}

// Keys that say how wide a head is, or which model it is: a config with none of them is only its
// RoPE keys (a rope_scaling block, maybe rope_theta and max_position_embeddings beside it).
const MODEL_KEYS = ['text_config', 'model_type', 'head_dim', 'hidden_size', 'n_embd', 'num_attention_heads', 'n_head',
  'qk_rope_head_dim', 'kv_channels', 'global_head_dim', 'num_hidden_layers', 'layer_types'];

/** The training length a scaling block names: its original length; dynamic NTK's max_position_embeddings. */
export const scalingL0 = (scaling) => (scaling?.type === 'dynamic' ? scaling.maxPositionEmbeddings : scaling?.originalMaxPositionEmbeddings);

/**
 * The context a layer type of pe.ropeConfig's is for: max_position_embeddings (`max`), or the
 * scaling's factor × its original length when larger (Qwen2.5's YaRN ×4: 4 × 32768, as Qwen's model
 * cards mean it). Dynamic NTK's original is max_position_embeddings, past which its base grows.
 * llama3's factor divides the low frequencies and is no ratio of lengths (Llama 3.2: 32 with 8192,
 * for 131072 tokens), so its config's max stands.
 */
export function contextLength(layerType, max) {
  const s = layerType.scaling;
  const original = s?.type === 'llama3' ? undefined : scalingL0(s) ?? (s?.type === 'dynamic' ? max : undefined);
  const scaled = s?.factor * original;
  if (!(scaled > 0)) return max;
  return max === null || scaled > max ? scaled : max;
}

/**
 * The options { base, rotaryDim, scaling } of a model's RoPE layers, to pass on to the RoPE
 * methods: for a config.json (object or text), exactly what readRopeConfig says for its
 * full_attention layers, or for its one RoPE layer type when it has no full_attention (another
 * layer type's base, the pair style and mRoPE: readRopeConfig). RoPE keys alone (a bare
 * rope_scaling block, or rope_scaling with rope_theta and max_position_embeddings and no head
 * width) give { base?, scaling } through the same checks, the width left to the caller.
 */
export function ropeScaling(config) {
  const c = load(config);
  if (!MODEL_KEYS.some((k) => Object.hasOwn(c, k))) {
    // the block: rope_scaling (v4, kept by v5 when both are there), rope_parameters, or the object itself
    const name = ['rope_scaling', 'rope_parameters'].find((k) => Object.hasOwn(c, k));
    let path = name ?? 'rope_scaling', b = name === undefined ? c : get(c, name) === undefined ? {} : record(path, get(c, name));
    if (get(b, 'full_attention') !== undefined) {
      path += '.full_attention';
      b = record(path, get(b, 'full_attention'));
    }
    const maxPos = optCount('', c, ['max_position_embeddings'], 1);
    const topL0 = optCount('', c, ['original_max_position_embeddings'], 1);
    const out = {};
    if (get(b, 'rope_theta') !== undefined) out.base = number(`${path}.rope_theta`, get(b, 'rope_theta'), 1);
    else if (get(c, 'rope_theta') !== undefined) out.base = number('rope_theta', get(c, 'rope_theta'), 1);
    const type = readType(b, path, () => {});
    if (type === 'default' || (type === 'mrope' && get(b, 'mrope_section') !== undefined)) return { ...out, scaling: null };
    if (type === 'proportional') {
      throw new TypeError(`${path} of type proportional is read with its whole config (its rotated pairs depend on head_dim): pass the config`);
    }
    return { ...out, scaling: readScaling({ maxPos, topL0 }, b, path, type, undefined, () => {}) };
  }
  // (the attention factor is not part of the options: the RoPE methods compute it)
  const r = readRopeConfig(c, { attentionFactor: () => 1 });
  const rope = Object.entries(r.layerTypes).filter(([, v]) => !v.nope);
  const chosen = r.layerTypes.full_attention?.nope === false ? r.layerTypes.full_attention : rope.length === 1 ? rope[0][1] : null;
  if (chosen === null) {
    const names = rope.map(([k]) => k).join(', ');
    throw new RangeError(`the config's RoPE layer types are ${names || 'none'}, with no full_attention among them: pick one from pe.ropeConfig(config).layerTypes`);
  }
  return { base: chosen.base, rotaryDim: chosen.rotaryDim, scaling: chosen.scaling };
}

/** One layer type's settings (not NoPE). */
function readLayerType(x) {
  const { at, c, modelType, kind, block: b, bPath, fromV5, nested, mla, maxPos, topL0, warn } = x;
  // head width: Gemma 4's full-attention layers have their own (global_head_dim)
  let headDim = x.headDim;
  if (kind === 'full_attention' && get(c, 'global_head_dim') !== undefined) {
    headDim = width(`${at}global_head_dim`, get(c, 'global_head_dim'));
  }

  const near = blockTypos(b, bPath, warn);
  let type = readType(b, bPath, warn);
  const sliding = kind === 'sliding_attention';

  // base
  const local = sliding && !nested && (get(c, 'rope_local_base_freq') !== undefined || modelType?.startsWith('gemma3'));
  let base;
  if (local) {
    if (get(c, 'rope_local_base_freq') === undefined) x.noteDefault('rope_local_base_freq', DEFAULT_LOCAL_THETA);
    base = number(`${at}rope_local_base_freq`, get(c, 'rope_local_base_freq') ?? DEFAULT_LOCAL_THETA, 1);
  } else base = readBase(x);

  // Gemma 3's sliding layers use plain RoPE: the scaling block is for the global layers
  // (transformers v5 rewrites it as { full_attention: rope_scaling, sliding_attention: default }).
  if (local) type = 'default';

  // rotary width and scaling
  let mrope = null;
  const section = get(b, 'mrope_section');
  if (section !== undefined) {
    mrope = Object.freeze({
      section: Object.freeze(ints(`${bPath}.mrope_section`, section, 0)),
      interleaved: get(b, 'mrope_interleaved') === undefined ? false : A.bool(`${bPath}.mrope_interleaved`, get(b, 'mrope_interleaved')),
    });
    if (type === 'mrope') type = 'default'; // Qwen2-VL's rope_scaling {type: 'mrope'}: default RoPE in 3 streams
  }

  const partial = readPartial(at, c, b, bPath, warn);
  let rotaryDim, scaling = null;
  if (type === 'proportional') {
    // The whole head rotates; pairs past int(p·D/2) get frequency 0 (modeling_rope_utils.py
    // _compute_proportional_rope_parameters). Attention factor 1.
    const p = partial.factor ?? 1;
    if (!Number.isInteger(p * headDim / 2)) {
      warn('rotary-width', `${partial.name} ${p} × head_dim ${headDim} / 2 = ${p * headDim / 2} rotated pairs is not an integer; transformers rounds it down to ${Math.floor(p * headDim / 2)}`);
    }
    const factor = get(b, 'factor') === undefined ? 1 : number(`${bPath}.factor`, get(b, 'factor'), Number.MIN_VALUE);
    rotaryDim = headDim;
    scaling = Object.freeze({ type: 'proportional', partialRotaryFactor: p, factor });
  } else {
    rotaryDim = rotaryWidth(headDim, partial, warn);
    if (type !== 'default') scaling = readScaling({ ...x, near }, b, bPath, type, rotaryDim, warn);
  }
  if (mrope !== null) {
    const sum = mrope.section.reduce((s, v) => s + v, 0);
    if (sum !== rotaryDim / 2) {
      warn('mrope-section-sum', `${bPath}.mrope_section sums to ${sum} pairs but the rotary width ${rotaryDim} has ${rotaryDim / 2}`);
    }
  }

  // attention factor: from the kernels, for the variants that have one
  let attentionFactor = 1;
  if (scaling !== null && (scaling.type === 'yarn' || scaling.type === 'longrope')) {
    const half = rotaryDim / 2;
    const listsFit = scaling.type !== 'longrope' || (scaling.shortFactor.length === half && scaling.longFactor.length === half);
    if (listsFit) {
      const f = x.callback(rotaryDim, { base, scaling });
      if (typeof f !== 'number' || !Number.isFinite(f) || !(f > 0)) {
        throw new TypeError(`options.attentionFactor returned ${A.show(f)} for ${bPath}; expected a positive number`);
      }
      attentionFactor = f;
    } else attentionFactor = null; // lists of the wrong length (warned): the kernel would refuse them
  }
  if (scaling?.type === 'longrope' || scaling?.type === 'dynamic') {
    const what = scaling.type === 'longrope'
      ? 'long_factor past original_max_position_embeddings, short_factor up to it; left out, short_factor, and a position from original_max_position_embeddings on is refused'
      : 'a larger base past max_position_embeddings; left out, θ_i unscaled, and a position from max_position_embeddings on is refused';
    warn('scaling-by-length', `${bPath} (${scaling.type}) depends on the sequence's length, which transformers takes from the sequence it rotates: scaling.seqLen picks ${what}; pass { ...scaling, seqLen } to ropeCache and applyRope`);
  }
  // YaRN's implicit factor check (transformers _validate_yarn_rope_parameters)
  if (scaling?.type === 'yarn' && maxPos !== undefined) {
    const implicit = maxPos / scaling.originalMaxPositionEmbeddings;
    if (implicit !== scaling.factor && implicit !== 1) {
      warn('yarn-factor-mismatch', `${bPath}.factor ${scaling.factor} differs from max_position_embeddings / original_max_position_embeddings = ${implicit}; the explicit factor is used, as transformers does`);
    }
  }

  return {
    base, headDim, rotaryDim, style: x.style, scaling, mrope, attentionFactor,
    softmaxScale: softmaxScale(c, modelType, headDim, mla ? scaling : null, b),
    nope: false, temperature: scalingTemperature(b, bPath, scaling), layers: x.layers,
  };
}

/**
 * Warns about the keys of a block that no RoPE variant reads (transformers: "Unrecognized keys in
 * rope_scaling"), naming the nearest known key; returns { known key: the misspelt key } for the
 * errors of a key found missing.
 */
function blockTypos(b, bPath, warn) {
  const near = {};
  if (b === undefined || b === null || typeof b !== 'object' || Array.isArray(b)) return near;
  for (const k of Object.keys(b)) {
    // (a nested block's layer types, and a key transformers knows but posenc does not read)
    if (BLOCK_KEYS.includes(k) || (b[k] !== null && typeof b[k] === 'object' && !Array.isArray(b[k]))) continue;
    const guess = A.suggest(k, BLOCK_KEYS, 3);
    if (guess !== null && get(b, guess) === undefined) near[guess] = k;
    warn('unknown-key', `${bPath}.${k} is not a key of a RoPE block; transformers ignores it too${guess !== null ? `: did you mean ${guess}?` : ''}`);
  }
  return near;
}

/**
 * A block's rope type: rope_type, then the legacy `type`, as transformers reads them
 * (standardize_rope_params); 'default' when it has neither. Unknown types, and a block with a
 * factor but no type (transformers cannot load it), are refused naming the key the file uses.
 */
function readType(b, bPath, warn) {
  const rt = optString(`${bPath}.rope_type`, get(b, 'rope_type'));
  const lt = optString(`${bPath}.type`, get(b, 'type'));
  if (rt !== undefined && lt !== undefined && rt !== lt) {
    warn('rope-type-conflict', `${bPath}.rope_type ${JSON.stringify(rt)} and ${bPath}.type ${JSON.stringify(lt)} disagree; rope_type used, as transformers does`);
  }
  if (rt === undefined && lt === undefined) {
    if (get(b, 'factor') !== undefined) {
      throw new TypeError(`${bPath} has factor but neither rope_type nor type, so transformers cannot load it; name the variant (rope_type: ${KNOWN_TYPES.map((t) => JSON.stringify(t)).join(', ')})`);
    }
    return 'default';
  }
  const key = `${bPath}.${rt !== undefined ? 'rope_type' : 'type'}`, raw = rt ?? lt;
  if (raw === 'su') {
    warn('rope-type-legacy', `${bPath} type "su" is the early name of "longrope" (Phi-3); read as longrope`);
    return 'longrope';
  }
  if (raw !== 'default' && raw !== 'mrope' && !KNOWN_TYPES.includes(raw)) {
    throw new RangeError(`${key} ${JSON.stringify(raw)} is unknown; posenc knows default, ${KNOWN_TYPES.join(', ')} (and mrope with mrope_section)`);
  }
  return raw;
}
const KNOWN_TYPES = Object.keys(SCALING_TYPES);

/** The scaling option object for posenc (scaling.js format), through blockScaling(). */
function readScaling(x, b, bPath, type, rotaryDim, warn) {
  // A copy of the block with the keys blockScaling maps, each checked here so that the error
  // names where the value sits.
  const copy = {};
  for (const k of SCALAR_KEYS) {
    const v = get(b, k);
    if (v !== undefined) copy[k] = number(`${bPath}.${k}`, v, k === 'attention_factor' || k === 'mscale' || k === 'mscale_all_dim' ? 0 : Number.MIN_VALUE);
  }
  for (const k of LIST_KEYS) {
    const v = get(b, k);
    if (v !== undefined) copy[k] = numbers(`${bPath}.${k}`, v);
  }
  if (get(b, 'truncate') !== undefined) copy.truncate = A.bool(`${bPath}.truncate`, get(b, 'truncate'));
  if (type === 'mrope') {
    throw new TypeError(`${bPath} of type mrope needs mrope_section`);
  }
  const s = blockScaling(copy, type, bPath, x);
  if (type === 'llama3' && s.lowFreqFactor === s.highFreqFactor) {
    const edge = s.originalMaxPositionEmbeddings / s.lowFreqFactor;
    warn('llama3-step', `${bPath}.low_freq_factor and high_freq_factor are both ${s.lowFreqFactor}: no smooth band, a step instead; pairs with wavelength below ${edge} (original_max_position_embeddings / low_freq_factor) keep θ_i, the others are divided by ${s.factor}, as transformers and Meta's apply_scaling compute it`);
  }
  if (type === 'longrope') {
    const half = rotaryDim / 2;
    for (const k of ['shortFactor', 'longFactor']) {
      if (rotaryDim !== undefined && s[k].length !== half) {
        warn('longrope-length', `${bPath}.${k === 'shortFactor' ? 'short_factor' : 'long_factor'} has ${s[k].length} entries; the rotary width ${rotaryDim} needs ${half}`);
      }
    }
    s.shortFactor = Object.freeze(s.shortFactor);
    s.longFactor = Object.freeze(s.longFactor);
  }
  return Object.freeze(s);
}

/**
 * rope_theta for one layer type, with the v4/v5 placement checks. With both rope_scaling and
 * rope_parameters, transformers v5 (convert_rope_params_to_dict) keeps rope_scaling, fills its
 * rope_theta from the top level or the class default, and drops rope_parameters whole.
 */
function readBase(x) {
  const { at, c, modelType, block: b, bPath, fromV5, kind, warn } = x;
  const inside = get(b, 'rope_theta');
  const topKey = get(c, 'rope_theta') !== undefined ? 'rope_theta' : get(c, 'rotary_emb_base') !== undefined ? 'rotary_emb_base' : null;
  const top = topKey === null ? undefined : number(`${at}${topKey}`, get(c, topKey), 1);
  let base, from;
  if (inside !== undefined) {
    base = number(`${bPath}.rope_theta`, inside, 1);
    from = `${bPath}.rope_theta`;
    if (top !== undefined && top !== base) {
      warn('rope-theta-conflict', `${at}${topKey} ${top} and ${bPath}.rope_theta ${base} disagree; ${base} used (transformers v5 keeps the one in the block)`);
    }
  } else if (top !== undefined) {
    if (fromV5) {
      warn('rope-theta-outside', `${bPath} has no rope_theta; ${at}${topKey} ${top} used (transformers v5 moves it into the block, runtimes that read only the block fall back to 10000)`);
    }
    base = top;
    from = `${at}${topKey}`;
  } else {
    base = configClass(modelType)?.values.rope_theta ?? DEFAULT_THETA;
    if ((modelType === 'gemma4' || modelType === 'gemma4_text') && kind === 'sliding_attention') base = DEFAULT_LOCAL_THETA;
    from = 'the default';
    if (fromV5) {
      warn('rope-theta-missing', `${bPath} has no rope_theta (nor has the config); the default base ${base} for ${modelType ? `model type ${JSON.stringify(modelType)}` : 'an unnamed model type'} used`);
    } else if (!x.nested) x.noteDefault('rope_theta', base); // (nested: layer-type-missing said so)
  }
  const other = get(x.dropped, 'rope_theta');
  if (other !== undefined && number(`${at}rope_parameters.rope_theta`, other, 1) !== base) {
    warn('rope-theta-dropped', `${at}rope_scaling and ${at}rope_parameters are both present and their bases differ: transformers v5 keeps rope_scaling with base ${base} (${from}) and drops rope_parameters, whose rope_theta is ${other}; a runtime that reads rope_parameters uses base ${other}`);
  }
  return base;
}

/** The partial rotary setting: { name, factor } or { name, width } or {} for the whole head. */
function readPartial(at, c, b, bPath, warn) {
  const inside = get(b, 'partial_rotary_factor');
  const top = get(c, 'partial_rotary_factor');
  if (top !== undefined) {
    const v = number(`${at}partial_rotary_factor`, top, Number.MIN_VALUE);
    if (inside !== undefined && number(`${bPath}.partial_rotary_factor`, inside, Number.MIN_VALUE) !== v) {
      warn('partial-rotary-conflict', `${at}partial_rotary_factor ${v} and ${bPath}.partial_rotary_factor ${inside} disagree; ${v} used (transformers' standardize_rope_params copies the top-level one in)`);
    }
    return { name: `${at}partial_rotary_factor`, factor: A.num(`${at}partial_rotary_factor`, v, Number.MIN_VALUE, 1) };
  }
  if (inside !== undefined) {
    return { name: `${bPath}.partial_rotary_factor`, factor: A.num(`${bPath}.partial_rotary_factor`, number(`${bPath}.partial_rotary_factor`, inside, Number.MIN_VALUE), Number.MIN_VALUE, 1) };
  }
  if (get(c, 'rotary_dim') !== undefined) return { name: `${at}rotary_dim`, width: count(`${at}rotary_dim`, get(c, 'rotary_dim'), 1) };
  if (get(c, 'rotary_pct') !== undefined) {
    return { name: `${at}rotary_pct`, factor: A.num(`${at}rotary_pct`, number(`${at}rotary_pct`, get(c, 'rotary_pct'), Number.MIN_VALUE), Number.MIN_VALUE, 1) };
  }
  return { name: null };
}

function rotaryWidth(headDim, partial, warn) {
  const w = partial.width ?? (partial.factor === undefined ? headDim : partial.factor * headDim);
  if (w > headDim) throw new RangeError(`${partial.name} gives a rotary width ${w} wider than the head (${headDim})`);
  // transformers: int(head_dim * partial_rotary_factor); posenc rotates whole pairs
  const even = Math.floor(w / 2) * 2;
  if (even !== w) {
    warn('rotary-width', partial.name === null
      ? `head_dim ${headDim} is odd; the rotary width is ${even} (whole pairs), the last dim passes through`
      : `${partial.name} gives a rotary width of ${w} for head_dim ${headDim}, not an even integer; ${even} used`);
  }
  if (even < 2) throw new RangeError(`${partial.name} gives a rotary width of ${w}: nothing to rotate`);
  return even;
}

/** A head's width read from key(s) `name`: at least 2, and no wider than the kernels compute. */
function width(name, v) {
  const d = count(name, v, 2);
  if (d > MAX_DIM) throw new RangeError(`${name} gives heads of ${d} dimensions; posenc computes heads of up to ${MAX_DIM}`);
  return d;
}

/** The per-head width RoPE works on (for MLA: the rope part, qk_rope_head_dim). */
function readHeadDim(at, c, mla) {
  if (mla) return width(`${at}qk_rope_head_dim`, get(c, 'qk_rope_head_dim'));
  if (get(c, 'head_dim') !== undefined) return width(`${at}head_dim`, get(c, 'head_dim'));
  if (get(c, 'kv_channels') !== undefined) return width(`${at}kv_channels`, get(c, 'kv_channels'));
  const hk = get(c, 'hidden_size') !== undefined ? 'hidden_size' : 'n_embd';
  const nk = get(c, 'num_attention_heads') !== undefined ? 'num_attention_heads' : 'n_head';
  const hidden = get(c, hk), heads = get(c, nk);
  if (hidden === undefined || heads === undefined) {
    throw new TypeError(`${at}head_dim is missing, and so is ${at}${hidden === undefined ? 'hidden_size' : 'num_attention_heads'} to derive it from`);
  }
  count(`${at}${hk}`, hidden, 1);
  count(`${at}${nk}`, heads, 1);
  if (hidden % heads !== 0) throw new RangeError(`${at}${hk} ${hidden} is not a multiple of ${at}${nk} ${heads}`);
  return width(`${at}${hk} / ${nk}`, hidden / heads);
}

function pairStyle(at, c, modelType, mla) {
  if (mla) {
    const v = get(c, 'rope_interleave');
    return v === undefined || A.bool(`${at}rope_interleave`, v) ? 'interleaved' : 'half';
  }
  return INTERLEAVED_TYPES.has(modelType) ? 'interleaved' : 'half';
}

/**
 * The factor on 1/sqrt(d) the model's attention applies: DeepSeek MLA with any scaling but the
 * default (YaRN in its checkpoints) multiplies it by mscale² (mscale = 0.1·mscale_all_dim·ln(factor) + 1, when
 * mscale_all_dim is set and factor > 1; transformers deepseek_v3:
 * `self.scaling = self.scaling * mscale * mscale`, DeepSeek-V3 inference/model.py
 * softmax_scale); Gemma 2 and 3 use query_pre_attn_scalar^-0.5 instead of head_dim^-0.5
 * (transformers gemma2/gemma3 attention: `self.scaling = config.query_pre_attn_scalar**-0.5`),
 * i.e. sqrt(head_dim / query_pre_attn_scalar) times 1/sqrt(head_dim); Gemma 4 does not scale
 * its scores at all, its q and k being RMS-normed (gemma4 attention: `self.scaling = 1.0`), i.e.
 * sqrt(head_dim) times 1/sqrt(head_dim), with each layer type's own head_dim; Granite scales
 * them by attention_multiplier (granite attention: `self.scaling = config.attention_multiplier`,
 * 1.0 when the config leaves it out).
 */
function softmaxScale(c, modelType, headDim, mlaScaling, block) {
  if (mlaScaling !== null && mlaScaling.factor !== undefined) {
    const all = get(block, 'mscale_all_dim');
    if (all && mlaScaling.factor > 1) {
      const m = 0.1 * all * Math.log(mlaScaling.factor) + 1;
      return m * m;
    }
    return 1;
  }
  if (modelType === 'gemma4' || modelType === 'gemma4_text') return Math.sqrt(headDim);
  if (/^granite/.test(modelType ?? '')) return number('attention_multiplier', get(c, 'attention_multiplier') ?? 1, Number.MIN_VALUE) * Math.sqrt(headDim);
  const q = get(c, 'query_pre_attn_scalar');
  if (q !== undefined && (modelType === undefined || /^gemma[23]/.test(modelType))) {
    return Math.sqrt(headDim / number('query_pre_attn_scalar', q, Number.MIN_VALUE));
  }
  return 1;
}

/**
 * Llama 4's NoPE layers: with attn_temperature_tuning (default on), queries are multiplied by
 * 1 + attn_scale·ln(floor((p + 1) / floor_scale) + 1) (modeling_llama4.py; attn_scale 0.1,
 * floor_scale 8192 by default in configuration_llama4.py). offset: the 1 added to p.
 */
function nopeTemperature(at, c, modelType) {
  if (!(modelType === 'llama4' || modelType === 'llama4_text' || get(c, 'attn_temperature_tuning') !== undefined)) return null;
  const on = get(c, 'attn_temperature_tuning');
  if (on === undefined ? !modelType?.startsWith('llama4') : !on) return null;
  return Object.freeze({
    scale: get(c, 'attn_scale') === undefined ? 0.1 : number(`${at}attn_scale`, get(c, 'attn_scale'), 0),
    floorScale: get(c, 'floor_scale') === undefined ? 8192 : number(`${at}floor_scale`, get(c, 'floor_scale'), 1),
    offset: 1,
  });
}

/**
 * Ministral 3's llama_4_scaling_beta (inside its YaRN block): every layer multiplies queries by
 * 1 + beta·ln(1 + floor(p / original_max_position_embeddings)) (transformers ministral3
 * get_llama_4_attn_scale): Llama 4's temperature with scale = beta, floorScale = L0, offset 0.
 */
function scalingTemperature(b, bPath, scaling) {
  const beta = get(b, 'llama_4_scaling_beta');
  if (beta === undefined) return null;
  const scale = number(`${bPath}.llama_4_scaling_beta`, beta, 0);
  const floorScale = scaling?.originalMaxPositionEmbeddings ?? get(b, 'original_max_position_embeddings');
  if (floorScale === undefined) throw new TypeError(`${bPath}.llama_4_scaling_beta needs ${bPath}.original_max_position_embeddings`);
  return Object.freeze({ beta: scale, scale, floorScale: number(`${bPath}.original_max_position_embeddings`, floorScale, 1), offset: 0 });
}

