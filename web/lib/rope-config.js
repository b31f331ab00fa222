// rope-config.js: readRopeConfig() reads a whole config.json (Hugging Face transformers v4 or
// v5 layout, or a vision-language model's text_config) and says, per kind of layer, how the
// model encodes positions: base, head and rotary widths, pair layout, scaling, attention
// factors, NoPE layers. The scaling block itself is read by scaling.js ropeScaling(), so the
// mapping of config keys to posenc's option keys exists once; the attention factor of a scaling
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
import { ropeScaling } from './scaling.js';

/** Longest config.json text accepted, in UTF-8 bytes (1 MiB). */
export const MAX_CONFIG_BYTES = 2 ** 20;
/** Deepest nesting accepted (a real config nests 4 or 5 levels: text_config.rope_parameters.full_attention.long_factor). */
export const MAX_CONFIG_DEPTH = 16;
/** Most values (objects, arrays and scalars together) a config may hold. */
export const MAX_CONFIG_VALUES = 2 ** 18;

// Keys that could reach an object's prototype if a consumer copied them naively: refused anywhere.
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

// The keys of a scaling block handed to ropeScaling (the rest of a block is read here or ignored).
const SCALAR_KEYS = ['factor', 'attention_factor', 'beta_fast', 'beta_slow', 'mscale', 'mscale_all_dim',
  'low_freq_factor', 'high_freq_factor', 'original_max_position_embeddings'];
const LIST_KEYS = ['short_factor', 'long_factor'];

// Bases transformers uses when a config names none (the config classes' default_theta);
// every other model type defaults to 10000 (RotaryEmbeddingConfigMixin.default_theta).
const DEFAULT_THETA = { llama4: 500000, llama4_text: 500000, gpt_oss: 150000, smollm3: 2000000,
  gemma3: 1000000, gemma3_text: 1000000, gemma4: 1000000, gemma4_text: 1000000 };
// Gemma 3's sliding layers: rope_local_base_freq, default 10000 (configuration_gemma3.py).
const DEFAULT_LOCAL_THETA = 10000;

// Layer patterns transformers derives when a config has no layer_types: every p-th layer is
// full attention, the others sliding (Gemma 2: configuration_gemma2.py, p = 2; Gemma 3:
// sliding_window_pattern 6; Gemma 4: configuration_gemma4.py, 6; gpt-oss:
// configuration_gpt_oss.py, 2).
const SLIDING_PATTERN = { gemma2: 2, gemma3: 6, gemma3_text: 6, gemma4: 6, gemma4_text: 6, gpt_oss: 2 };
// Models with NoPE layers by default: a NoPE layer every 4th layer unless no_rope_layers says
// otherwise (configuration_llama4.py, configuration_smollm3.py: no_rope_layer_interval 4).
const NOPE_INTERVAL = { llama4: 4, llama4_text: 4, smollm3: 4 };

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
 * attentionFactor, softmaxScale, nope, temperature, layers } }, maxPositionEmbeddings,
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
  const warn = (code, message) => warnings.push(Object.freeze({ code, message }));

  // Vision-language models (Qwen3-VL, Gemma 3/4, Mistral 3, Llama 4) keep the language model's
  // settings in text_config; the top level then holds only the wrapper's keys.
  let c = root, at = '';
  const text = get(root, 'text_config');
  if (text !== undefined) {
    c = record('text_config', text);
    at = 'text_config.';
  }
  const modelType = optString(`${at}model_type`, get(c, 'model_type')) ?? optString('model_type', get(root, 'model_type'));

  const numLayers = optCount(at, c, ['num_hidden_layers', 'n_layer', 'num_layers'], 1);
  const maxPos = optCount(at, c, ['max_position_embeddings', 'n_positions', 'seq_length'], 1);
  const topL0 = optCount(at, c, ['original_max_position_embeddings'], 1);
  const mla = get(c, 'qk_rope_head_dim') !== undefined;
  const headDim = readHeadDim(at, c, mla);

  const { block, blockName, nested, kinds } = chooseBlock(at, c, modelType, numLayers, warn);
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
        temperature: nopeTemperature(at, c, modelType), layers,
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
    layerTypes[name] = Object.freeze(readLayerType({
      // (a layer type with no block of its own is warned about once, not again for its base)
      at, c, modelType, kind, block: b, bPath, fromV5: blockName === 'rope_parameters' && b !== undefined, nested, headDim, mla,
      maxPos, topL0, style, layers, callback, warn,
    }));
  }
  return Object.freeze({ layerTypes: Object.freeze(layerTypes), maxPositionEmbeddings: maxPos ?? null, warnings: Object.freeze(warnings) });
}

/** One layer type's settings (not NoPE). */
function readLayerType(x) {
  const { at, c, modelType, kind, block: b, bPath, fromV5, nested, mla, maxPos, topL0, warn } = x;
  // head width: Gemma 4's full-attention layers have their own (global_head_dim)
  let headDim = x.headDim;
  if (kind === 'full_attention' && get(c, 'global_head_dim') !== undefined) {
    headDim = count(`${at}global_head_dim`, get(c, 'global_head_dim'), 2);
  }

  // rope type: transformers reads rope_type, then the legacy `type` (standardize_rope_params)
  const rt = optString(`${bPath}.rope_type`, get(b, 'rope_type'));
  const lt = optString(`${bPath}.type`, get(b, 'type'));
  if (rt !== undefined && lt !== undefined && rt !== lt) {
    warn('rope-type-conflict', `${bPath}.rope_type ${JSON.stringify(rt)} and ${bPath}.type ${JSON.stringify(lt)} disagree; rope_type used, as transformers does`);
  }
  let type = rt ?? lt ?? 'default';
  if (type === 'su') {
    warn('rope-type-legacy', `${bPath} type "su" is the early name of "longrope" (Phi-3); read as longrope`);
    type = 'longrope';
  }
  const sliding = kind === 'sliding_attention';

  // base
  const local = sliding && !nested && (get(c, 'rope_local_base_freq') !== undefined || modelType?.startsWith('gemma3'));
  let base;
  if (local) base = number(`${at}rope_local_base_freq`, get(c, 'rope_local_base_freq') ?? DEFAULT_LOCAL_THETA, 1);
  else base = readBase(at, c, modelType, b, bPath, fromV5, kind, warn);

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
    if (type !== 'default') scaling = readScaling(x, b, bPath, type, rotaryDim, warn);
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
  // YaRN's implicit factor check (transformers _validate_yarn_rope_parameters)
  if (scaling?.type === 'yarn' && maxPos !== undefined) {
    const implicit = maxPos / scaling.originalMaxPositionEmbeddings;
    if (implicit !== scaling.factor && implicit !== 1) {
      warn('yarn-factor-mismatch', `${bPath}.factor ${scaling.factor} differs from max_position_embeddings / original_max_position_embeddings = ${implicit}; the explicit factor is used, as transformers does`);
    }
  }

  return {
    base, headDim, rotaryDim, style: x.style, scaling, mrope, attentionFactor,
    softmaxScale: softmaxScale(c, modelType, x.headDim, mla ? scaling : null, b),
    nope: false, temperature: scalingTemperature(b, bPath, scaling), layers: x.layers,
  };
}

/** The scaling option object for posenc (scaling.js format), read by ropeScaling(). */
function readScaling(x, b, bPath, type, rotaryDim, warn) {
  // A copy of the block with the keys ropeScaling maps, each checked here so that the error
  // names where the value sits; ropeScaling's own messages are re-prefixed the same way.
  const copy = { rope_type: type };
  for (const k of SCALAR_KEYS) {
    const v = get(b, k);
    if (v !== undefined) copy[k] = number(`${bPath}.${k}`, v, k === 'attention_factor' || k === 'mscale' || k === 'mscale_all_dim' ? 0 : Number.MIN_VALUE);
  }
  for (const k of LIST_KEYS) {
    const v = get(b, k);
    if (v !== undefined) copy[k] = numbers(`${bPath}.${k}`, v);
  }
  if (get(b, 'truncate') !== undefined) copy.truncate = A.bool(`${bPath}.truncate`, get(b, 'truncate'));
  const whole = { rope_scaling: copy };
  if (x.maxPos !== undefined) whole.max_position_embeddings = x.maxPos;
  if (x.topL0 !== undefined) whole.original_max_position_embeddings = x.topL0;
  let s;
  try {
    s = ropeScaling(whole).scaling;
  } catch (e) {
    if (e instanceof TypeError || e instanceof RangeError) {
      throw new e.constructor(e.message.replace(/^rope_scaling\b/, bPath));
    }
    throw e;
  }
  if (type === 'longrope') {
    const half = rotaryDim / 2;
    for (const k of ['shortFactor', 'longFactor']) {
      if (s[k].length !== half) {
        warn('longrope-length', `${bPath}.${k === 'shortFactor' ? 'short_factor' : 'long_factor'} has ${s[k].length} entries; the rotary width ${rotaryDim} needs ${half}`);
      }
    }
    s.shortFactor = Object.freeze(s.shortFactor);
    s.longFactor = Object.freeze(s.longFactor);
  }
  return Object.freeze(s);
}

/** rope_theta for one layer type, with the v4/v5 placement checks. */
function readBase(at, c, modelType, b, bPath, fromV5, kind, warn) {
  const inside = get(b, 'rope_theta');
  const topKey = get(c, 'rope_theta') !== undefined ? 'rope_theta' : get(c, 'rotary_emb_base') !== undefined ? 'rotary_emb_base' : null;
  const top = topKey === null ? undefined : number(`${at}${topKey}`, get(c, topKey), 1);
  if (inside !== undefined) {
    const v = number(`${bPath}.rope_theta`, inside, 1);
    if (top !== undefined && top !== v) {
      warn('rope-theta-conflict', `${at}${topKey} ${top} and ${bPath}.rope_theta ${v} disagree; ${v} used (transformers v5 keeps the one in the block)`);
    }
    return v;
  }
  if (top !== undefined) {
    if (fromV5) {
      warn('rope-theta-outside', `${bPath} has no rope_theta; ${at}${topKey} ${top} used (transformers v5 moves it into the block, runtimes that read only the block fall back to 10000)`);
    }
    return top;
  }
  let base = DEFAULT_THETA[modelType] ?? 10000;
  if ((modelType === 'gemma4' || modelType === 'gemma4_text') && kind === 'sliding_attention') base = DEFAULT_LOCAL_THETA;
  if (fromV5) {
    warn('rope-theta-missing', `${bPath} has no rope_theta (nor has the config); the default base ${base} for ${modelType ? `model type ${JSON.stringify(modelType)}` : 'an unnamed model type'} used`);
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
    warn('rotary-width', `${partial.name} gives a rotary width of ${w} for head_dim ${headDim}, not an even integer; ${even} used`);
  }
  if (even < 2) throw new RangeError(`${partial.name} gives a rotary width of ${w}: nothing to rotate`);
  return even;
}

/** The per-head width RoPE works on (for MLA: the rope part, qk_rope_head_dim). */
function readHeadDim(at, c, mla) {
  if (mla) return count(`${at}qk_rope_head_dim`, get(c, 'qk_rope_head_dim'), 2);
  if (get(c, 'head_dim') !== undefined) return count(`${at}head_dim`, get(c, 'head_dim'), 2);
  if (get(c, 'kv_channels') !== undefined) return count(`${at}kv_channels`, get(c, 'kv_channels'), 2);
  const hk = get(c, 'hidden_size') !== undefined ? 'hidden_size' : 'n_embd';
  const nk = get(c, 'num_attention_heads') !== undefined ? 'num_attention_heads' : 'n_head';
  const hidden = get(c, hk), heads = get(c, nk);
  if (hidden === undefined || heads === undefined) {
    throw new TypeError(`${at}head_dim is missing, and so is ${at}${hidden === undefined ? 'hidden_size' : 'num_attention_heads'} to derive it from`);
  }
  count(`${at}${hk}`, hidden, 1);
  count(`${at}${nk}`, heads, 1);
  if (hidden % heads !== 0) throw new RangeError(`${at}${hk} ${hidden} is not a multiple of ${at}${nk} ${heads}`);
  return count(`${at}${hk} / ${nk}`, hidden / heads, 2);
}

/**
 * Which block holds the scaling (rope_scaling or rope_parameters), whether it is nested per
 * layer type, and the layer kinds the config names.
 */
function chooseBlock(at, c, modelType, numLayers, warn) {
  const rs = get(c, 'rope_scaling'), rp = get(c, 'rope_parameters');
  if (rs !== undefined) record(`${at}rope_scaling`, rs);
  if (rp !== undefined) record(`${at}rope_parameters`, rp);
  // (with neither block, errors and warnings name rope_scaling, the v4 place)
  let block, blockName = 'rope_scaling';
  if (rs !== undefined && rp !== undefined) {
    // transformers v5 (convert_rope_params_to_dict): rope_scaling, when present, replaces rope_parameters
    if (!sameRopeBlock(rs, rp)) {
      warn('rope-scaling-conflict', `${at}rope_scaling and ${at}rope_parameters are both present and disagree; rope_scaling used, as transformers v5 does`);
    }
    block = rs; blockName = 'rope_scaling';
  } else if (rs !== undefined) {
    block = rs; blockName = 'rope_scaling';
  } else if (rp !== undefined) {
    block = rp; blockName = 'rope_parameters';
  }
  const kinds = layerKinds(at, c, modelType, numLayers);
  // nested per layer type when every key names a layer type (transformers' standardize_rope_params)
  const keys = block === undefined ? [] : Object.keys(block);
  const nested = keys.length > 0 && keys.every((k) => kinds.has(k));
  return { block, blockName, nested, kinds };
}

/** The set of layer type names the config uses (before NoPE layers are split off). */
function layerKinds(at, c, modelType, numLayers) {
  const types = get(c, 'layer_types');
  if (types !== undefined) return new Set(names(`${at}layer_types`, types));
  if (modelType === 'llama4' || modelType === 'llama4_text') return new Set(['chunked_attention', 'full_attention']);
  if (slidingPattern(at, c, modelType) !== undefined) return new Set(['sliding_attention', 'full_attention']);
  return new Set(['full_attention']);
}

function slidingPattern(at, c, modelType) {
  if (get(c, 'sliding_window_pattern') !== undefined) return count(`${at}sliding_window_pattern`, get(c, 'sliding_window_pattern'), 1);
  return SLIDING_PATTERN[modelType];
}

/**
 * The layers: { names: layer type names in first-use order, kindOf: name → config layer type,
 * nope: set of NoPE names, layers: [{ index, name }] or null }.
 *
 * Names: the config's own layer_types names; without them, transformers' derived ones
 * ('full_attention' for a model with one kind of layer; 'sliding_attention' / 'full_attention'
 * for Gemma and gpt-oss patterns; Llama 4's 'chunked_attention' (RoPE) / 'full_attention'
 * (NoPE)). NoPE layers of another model (SmolLM3's no_rope_layers) become `<type>_nope`.
 */
function layerList(at, c, modelType, numLayers, kinds) {
  const explicit = get(c, 'layer_types');
  let perLayer = null;
  if (explicit !== undefined) perLayer = names(`${at}layer_types`, explicit);
  else if (numLayers !== undefined) {
    const p = slidingPattern(at, c, modelType);
    perLayer = Array.from({ length: numLayers }, (_, i) => (p !== undefined && (i + 1) % p !== 0 ? 'sliding_attention' : 'full_attention'));
  }
  if (perLayer !== null && numLayers !== undefined && perLayer.length < numLayers) {
    throw new RangeError(`${at}layer_types has ${perLayer.length} entries for ${numLayers} layers`);
  }
  if (perLayer !== null && numLayers !== undefined) perLayer = perLayer.slice(0, numLayers);

  // NoPE layers: no_rope_layers (1 = RoPE, 0 = NoPE), else every interval-th layer
  const nopeAt = nopeLayers(at, c, modelType, perLayer === null ? numLayers : perLayer.length);
  const llama4 = modelType === 'llama4' || modelType === 'llama4_text';
  const kindOf = Object.create(null), nope = new Set(), order = [];
  const nameOf = (kind, isNope) => {
    let name = kind;
    // Llama 4: transformers' own layer_types already part RoPE ('chunked_attention') from NoPE
    // ('full_attention') layers, and a nested rope_parameters would use those names
    if (llama4) name = kind = explicit === undefined ? (isNope ? 'full_attention' : 'chunked_attention') : kind;
    else if (isNope) name = `${kind}_nope`;
    if (!(name in kindOf)) { kindOf[name] = kind; order.push(name); }
    if (isNope) nope.add(name);
    return name;
  };
  if (perLayer === null) {
    // layers unknown: the type names are still known
    const hasNope = nopeAt === 'unknown' || (nopeAt instanceof Set && nopeAt.size > 0);
    for (const k of kinds) {
      if (llama4) nameOf(k, k === 'full_attention');
      else { nameOf(k, false); if (hasNope) nameOf(k, true); }
    }
    return { names: order, kindOf, nope, layers: null };
  }
  const layers = perLayer.map((kind, index) => ({ index, name: nameOf(kind, nopeAt instanceof Set && nopeAt.has(index)) }));
  return { names: order, kindOf, nope, layers };
}

/** The NoPE layer indices (a Set), 'unknown' (NoPE layers exist, count unknown), or null. */
function nopeLayers(at, c, modelType, n) {
  const list = get(c, 'no_rope_layers');
  if (list !== undefined && (!Array.isArray(list) || list.length > 0)) {
    const flags = ints(`${at}no_rope_layers`, list, 0, 1);
    if (n !== undefined && flags.length < n) throw new RangeError(`${at}no_rope_layers has ${flags.length} entries for ${n} layers`);
    return new Set(flags.flatMap((f, i) => (f === 0 && (n === undefined || i < n) ? [i] : [])));
  }
  const key = get(c, 'no_rope_layer_interval') !== undefined ? 'no_rope_layer_interval' : 'nope_layer_interval';
  const interval = get(c, key) !== undefined ? count(`${at}${key}`, get(c, key), 1) : NOPE_INTERVAL[modelType];
  if (interval === undefined) return null;
  if (n === undefined) return 'unknown';
  return new Set(Array.from({ length: n }, (_, i) => i).filter((i) => (i + 1) % interval === 0));
}

function pairStyle(at, c, modelType, mla) {
  if (mla) {
    const v = get(c, 'rope_interleave');
    return v === undefined || A.bool(`${at}rope_interleave`, v) ? 'interleaved' : 'half';
  }
  return INTERLEAVED_TYPES.has(modelType) ? 'interleaved' : 'half';
}

/**
 * The factor on 1/sqrt(d) the model's attention applies: DeepSeek MLA with YaRN multiplies it
 * by mscale² (mscale = 0.1·mscale_all_dim·ln(factor) + 1; transformers deepseek_v3:
 * `self.scaling = self.scaling * mscale * mscale`, DeepSeek-V3 inference/model.py
 * softmax_scale); Gemma 2 and 3 use query_pre_attn_scalar^-0.5 instead of head_dim^-0.5
 * (transformers gemma2/gemma3 attention: `self.scaling = config.query_pre_attn_scalar**-0.5`),
 * i.e. sqrt(head_dim / query_pre_attn_scalar) times 1/sqrt(head_dim).
 */
function softmaxScale(c, modelType, headDim, mlaScaling, block) {
  if (mlaScaling !== null && mlaScaling.type === 'yarn') {
    const all = get(block, 'mscale_all_dim');
    if (all && mlaScaling.factor > 1) {
      const m = 0.1 * all * Math.log(mlaScaling.factor) + 1;
      return m * m;
    }
    return 1;
  }
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

/** Whether rope_scaling and rope_parameters describe the same scaling (rope_theta and partial aside). */
function sameRopeBlock(a, b) {
  const strip = (o) => {
    const out = {};
    for (const k of Object.keys(o).sort()) if (k !== 'rope_theta' && k !== 'partial_rotary_factor') out[k] = o[k];
    if (out.type !== undefined && out.rope_type === undefined) { out.rope_type = out.type; }
    delete out.type;
    return JSON.stringify(out);
  };
  return strip(a) === strip(b);
}

// ---- input checks --------------------------------------------------------------------------

/** config.json text or object → a checked plain object (depth, size and keys bounded). */
function load(config) {
  let root = config;
  if (typeof config === 'string') {
    if (config.length > MAX_CONFIG_BYTES || utf8Length(config) > MAX_CONFIG_BYTES) {
      throw new RangeError(`config text must be at most ${MAX_CONFIG_BYTES} bytes, got ${utf8Length(config)}`);
    }
    try {
      root = JSON.parse(config);
    } catch (e) {
      if (e instanceof SyntaxError) throw new TypeError(`config is not valid JSON: ${e.message}`);
      throw new RangeError(`config nests too deeply to parse (${e.message})`);
    }
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    throw new TypeError(`config must be a config.json object or its JSON text, got ${A.show(root)}`);
  }
  check(root);
  return root;
}

/** Walks the whole value without recursion: depth, count and forbidden keys. */
function check(root) {
  const stack = [[root, 0, 'config']];
  let seen = 0;
  while (stack.length > 0) {
    const [v, depth, where] = stack.pop();
    if (++seen > MAX_CONFIG_VALUES) throw new RangeError(`config holds more than ${MAX_CONFIG_VALUES} values`);
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_CONFIG_DEPTH) throw new RangeError(`config nests deeper than ${MAX_CONFIG_DEPTH} levels (at ${where})`);
    if (Array.isArray(v)) {
      if (v.length > MAX_CONFIG_VALUES) throw new RangeError(`${where} has ${v.length} entries; the limit is ${MAX_CONFIG_VALUES}`);
      for (let i = 0; i < v.length; i++) stack.push([v[i], depth + 1, where]);
      continue;
    }
    for (const k of Object.keys(v)) {
      if (FORBIDDEN.has(k)) throw new RangeError(`config key ${JSON.stringify(k)} is not allowed (in ${where})`);
      stack.push([v[k], depth + 1, k]);
    }
    // a __proto__ key set by an object literal changes the prototype rather than adding a key
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      throw new TypeError(`${where} must be a plain object (as JSON.parse makes), got ${A.show(v)}`);
    }
  }
}

function utf8Length(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u < 0x80) n += 1;
    else if (u < 0x800) n += 2;
    else if (u >= 0xd800 && u < 0xdc00 && i + 1 < s.length) { n += 4; i++; }
    else n += 3;
  }
  return n;
}

/** An own property of a plain object; null (JSON null) counts as absent. */
function get(o, k) {
  if (o === null || o === undefined || typeof o !== 'object' || Array.isArray(o) || !Object.hasOwn(o, k)) return undefined;
  const v = o[k];
  return v === null ? undefined : v;
}

function record(name, v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${name} must be an object, got ${A.show(v)}`);
  return v;
}

function number(name, v, min) {
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number >= ${min}, got ${A.show(v)}`);
  if (!Number.isFinite(v) || v < min) throw new RangeError(`${name} must be a finite number >= ${min}, got ${v}`);
  return v;
}

function count(name, v, min) {
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new (typeof v === 'number' ? RangeError : TypeError)(`${name} must be an integer >= ${min}, got ${A.show(v)}`);
  }
  if (v < min || v > 2 ** 31) throw new RangeError(`${name} must be an integer in [${min}, ${2 ** 31}], got ${v}`);
  return v;
}

function optCount(at, c, keys, min) {
  for (const k of keys) if (get(c, k) !== undefined) return count(`${at}${k}`, get(c, k), min);
  return undefined;
}

function optString(name, v) {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new TypeError(`${name} must be a string, got ${A.show(v)}`);
  return v;
}

function numbers(name, v) {
  if (!Array.isArray(v)) throw new TypeError(`${name} must be an array of numbers, got ${A.show(v)}`);
  return v.map((x, i) => number(`${name}[${i}]`, x, Number.MIN_VALUE));
}

function ints(name, v, min, max = 2 ** 31) {
  if (!Array.isArray(v)) throw new TypeError(`${name} must be an array of integers, got ${A.show(v)}`);
  return v.map((x, i) => {
    const n = count(`${name}[${i}]`, x, min);
    if (n > max) throw new RangeError(`${name}[${i}] must be in [${min}, ${max}], got ${n}`);
    return n;
  });
}

function names(name, v) {
  if (!Array.isArray(v)) throw new TypeError(`${name} must be an array of strings, got ${A.show(v)}`);
  return v.map((x, i) => {
    if (typeof x !== 'string' || x === '') throw new TypeError(`${name}[${i}] must be a layer type name, got ${A.show(x)}`);
    if (FORBIDDEN.has(x)) throw new RangeError(`${name}[${i}] must not be ${JSON.stringify(x)}`);
    return x;
  });
}
