// config-layers.js: which layers of a config.json are of which type: the scaling block (v4 or
// v5, nested per layer type or not), the layer types a config names or its model type implies,
// their layer indices, and the layers with no position encoding.
import { get, record, count, ints, names } from './config-json.js';

// Layer patterns transformers derives when a config has no layer_types: every p-th layer is
// full attention, the others sliding (Gemma 2: configuration_gemma2.py, p = 2; Gemma 3:
// sliding_window_pattern 6; Gemma 4: configuration_gemma4.py, 6; gpt-oss:
// configuration_gpt_oss.py, 2).
const SLIDING_PATTERN = { gemma2: 2, gemma3: 6, gemma3_text: 6, gemma4: 6, gemma4_text: 6, gpt_oss: 2 };
// Models with NoPE layers by default: a NoPE layer every 4th layer unless no_rope_layers says
// otherwise (configuration_llama4.py, configuration_smollm3.py: no_rope_layer_interval 4).
const NOPE_INTERVAL = { llama4: 4, llama4_text: 4, smollm3: 4 };

/**
 * Which block holds the scaling (rope_scaling or rope_parameters), whether it is nested per
 * layer type, the layer kinds the config names, and the block transformers v5 drops (dropped:
 * rope_parameters when rope_scaling is there too).
 */
export function chooseBlock(at, c, modelType, numLayers, warn) {
  const rs = get(c, 'rope_scaling'), rp = get(c, 'rope_parameters');
  if (rs !== undefined) record(`${at}rope_scaling`, rs);
  if (rp !== undefined) record(`${at}rope_parameters`, rp);
  // (with neither block, errors and warnings name rope_scaling, the v4 place)
  let block, blockName = 'rope_scaling', dropped;
  if (rs !== undefined && rp !== undefined) {
    // transformers v5 (convert_rope_params_to_dict): rope_scaling, when present, replaces rope_parameters
    if (!sameRopeBlock(rs, rp)) {
      warn('rope-scaling-conflict', `${at}rope_scaling and ${at}rope_parameters are both present and disagree; rope_scaling used, as transformers v5 does`);
    }
    block = rs; blockName = 'rope_scaling'; dropped = rp;
  } else if (rs !== undefined) {
    block = rs; blockName = 'rope_scaling';
  } else if (rp !== undefined) {
    block = rp; blockName = 'rope_parameters';
  }
  const kinds = layerKinds(at, c, modelType, numLayers);
  // nested per layer type when every key names a layer type (transformers' standardize_rope_params)
  const keys = block === undefined ? [] : Object.keys(block);
  const nested = keys.length > 0 && keys.every((k) => kinds.has(k));
  return { block, blockName, nested, kinds, dropped };
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
export function layerList(at, c, modelType, numLayers, kinds) {
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
export function nopeLayers(at, c, modelType, n) {
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
