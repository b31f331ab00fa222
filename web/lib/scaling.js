// scaling.js: the `scaling` option of the RoPE methods, and blockScaling(), which turns a
// model's config.json block into one (pe.ropeScaling and pe.ropeConfig read configs with it). Option objects use camelCase; config blocks use snake_case with
// `rope_type` (or the older `type`), as Hugging Face transformers writes them.
import * as A from './args.js';

export const SCALING_TYPES = { linear: 1, ntk: 2, dynamic: 3, yarn: 4, llama3: 5, longrope: 6, proportional: 7 };
// Field order of posenc_rope_scaling in c/posenc.h: the struct is written as one Float64Array.
const FIELDS = ['type', 'factor', 'originalMaxPositionEmbeddings', 'maxPositionEmbeddings', 'seqLen',
  'betaFast', 'betaSlow', 'attentionFactor', 'mscale', 'mscaleAllDim', 'truncate', 'lowFreqFactor', 'highFreqFactor',
  'partialRotaryFactor'];

// The keys each variant reads (any other is a TypeError: a misspelt key, or one of another
// variant's, would be ignored).
const TYPE_KEYS = {
  linear: ['factor', 'attentionFactor'],
  ntk: ['factor', 'attentionFactor'],
  dynamic: ['factor', 'maxPositionEmbeddings', 'seqLen', 'attentionFactor'],
  yarn: ['factor', 'originalMaxPositionEmbeddings', 'betaFast', 'betaSlow', 'attentionFactor', 'mscale', 'mscaleAllDim', 'truncate'],
  llama3: ['factor', 'lowFreqFactor', 'highFreqFactor', 'originalMaxPositionEmbeddings', 'attentionFactor'],
  longrope: ['factor', 'shortFactor', 'longFactor', 'originalMaxPositionEmbeddings', 'maxPositionEmbeddings', 'seqLen', 'attentionFactor'],
  proportional: ['factor', 'partialRotaryFactor'],
};
const KEYS = new Set([...FIELDS, 'shortFactor', 'longFactor']);

const pos = (name, v) => A.num(name, v, Number.MIN_VALUE);
// A factor divides or multiplies frequencies: bounded so that neither can overflow.
const factor = (name, v) => A.num(name, v, 1e-6, 1e6);
const atLeast1 = (name, v) => A.num(name, v, 1);

/**
 * Checks a scaling option object and returns { struct: Float64Array, shortFactor, longFactor }
 * for the C call (null for no scaling).
 */
export function scalingStruct(scaling, half) {
  if (scaling === undefined || scaling === null) return null;
  const s = A.options('scaling', scaling);
  // a config's block passed as options: its snake_case names are not the options'
  for (const k in s) {
    if (!Object.hasOwn(s, k) || k === 'type' || KEYS.has(k)) continue;
    const option = k === 'rope_type' ? 'type' : CONFIG_KEYS[k];
    if (option) {
      throw new TypeError(`scaling has ${JSON.stringify(k)}, a config.json name; the option is ${JSON.stringify(option)} (pe.ropeScaling(config) turns a config's block into options)`);
    }
    throw A.unknownKey(k, ['type', ...KEYS], 'scaling');
  }
  const type = A.oneOf('scaling.type', s.type, Object.keys(SCALING_TYPES));
  const v = { type: SCALING_TYPES[type], attentionFactor: NaN, mscale: 0, mscaleAllDim: 0, truncate: 1 };
  if (s.attentionFactor !== undefined) v.attentionFactor = pos('scaling.attentionFactor', s.attentionFactor);
  if (type !== 'longrope') v.factor = factor('scaling.factor', type === 'llama3' ? s.factor ?? 8 : type === 'proportional' ? s.factor ?? 1 : s.factor);
  else if (s.factor !== undefined) v.factor = factor('scaling.factor', s.factor);
  let shortFactor = null, longFactor = null;
  if (type === 'dynamic') {
    v.maxPositionEmbeddings = atLeast1('scaling.maxPositionEmbeddings', s.maxPositionEmbeddings);
    v.seqLen = A.num('scaling.seqLen', s.seqLen ?? v.maxPositionEmbeddings, 0);
  } else if (type === 'yarn') {
    v.originalMaxPositionEmbeddings = atLeast1('scaling.originalMaxPositionEmbeddings', s.originalMaxPositionEmbeddings);
    v.betaFast = pos('scaling.betaFast', s.betaFast ?? 32);
    v.betaSlow = pos('scaling.betaSlow', s.betaSlow ?? 1);
    if (s.mscale !== undefined) v.mscale = A.num('scaling.mscale', s.mscale, 0);
    if (s.mscaleAllDim !== undefined) v.mscaleAllDim = A.num('scaling.mscaleAllDim', s.mscaleAllDim, 0);
    v.truncate = A.bool('scaling.truncate', s.truncate ?? true) ? 1 : 0;
  } else if (type === 'llama3') {
    v.originalMaxPositionEmbeddings = atLeast1('scaling.originalMaxPositionEmbeddings', s.originalMaxPositionEmbeddings ?? 8192);
    v.lowFreqFactor = pos('scaling.lowFreqFactor', s.lowFreqFactor ?? 1);
    v.highFreqFactor = pos('scaling.highFreqFactor', s.highFreqFactor ?? 4);
    // equal factors (Llama 4 Scout's 1 and 1) make a step at L0/low, as transformers and Meta
    // compute it; below, the two references disagree on the band between, so it is refused
    if (!(v.highFreqFactor >= v.lowFreqFactor)) {
      throw new RangeError(`scaling.highFreqFactor (${v.highFreqFactor}) must be at least scaling.lowFreqFactor (${v.lowFreqFactor})`);
    }
  } else if (type === 'proportional') {
    // Gemma 4's p-RoPE over the whole head (rotaryDim = head dim): the first
    // floor(p·rotaryDim/2) pairs turn with base^(-2i/rotaryDim), the rest not at all
    if (s.partialRotaryFactor === undefined) throw new TypeError('scaling.partialRotaryFactor is required for proportional scaling (0 < p <= 1)');
    v.partialRotaryFactor = A.num('scaling.partialRotaryFactor', s.partialRotaryFactor, Number.MIN_VALUE, 1);
    if (s.attentionFactor !== undefined) throw new TypeError('scaling.attentionFactor does not apply to proportional scaling (its factor is 1)');
  } else if (type === 'longrope') {
    shortFactor = A.numbers('scaling.shortFactor', s.shortFactor, Float64Array, { length: half, min: Number.MIN_VALUE, max: 1e6 });
    longFactor = A.numbers('scaling.longFactor', s.longFactor, Float64Array, { length: half, min: Number.MIN_VALUE, max: 1e6 });
    v.originalMaxPositionEmbeddings = atLeast1('scaling.originalMaxPositionEmbeddings', s.originalMaxPositionEmbeddings);
    v.maxPositionEmbeddings = atLeast1('scaling.maxPositionEmbeddings', s.maxPositionEmbeddings ?? v.originalMaxPositionEmbeddings);
    v.seqLen = A.num('scaling.seqLen', s.seqLen ?? 0, 0);
  }
  for (const k in s) {
    if (!Object.hasOwn(s, k) || k === 'type' || TYPE_KEYS[type].includes(k)) continue;
    throw new TypeError(`scaling.${k} does not apply to ${type} scaling (it takes ${TYPE_KEYS[type].join(', ')})`);
  }
  // (a loop, not Float64Array.from with a map function: V8 runs that through its slow iterator path)
  const struct = new Float64Array(FIELDS.length);
  for (let i = 0; i < FIELDS.length; i++) struct[i] = v[FIELDS[i]] ?? 0;
  return { struct, shortFactor, longFactor };
}

/**
 * Positions against a length-dependent scaling left without seqLen: transformers always knows
 * the length (at position p it is at least p + 1), so a position at or past the length where the
 * variant changes (longrope: originalMaxPositionEmbeddings; dynamic: maxPositionEmbeddings) with
 * seqLen left out would silently take the short length's frequencies: refused. `pos` is the
 * positions as numbers() gave them (NaN is caught later, by the scan).
 */
export function needsSeqLen(scaling, pos) {
  const type = scaling?.type;
  if ((type !== 'longrope' && type !== 'dynamic') || scaling.seqLen !== undefined) return;
  const at = type === 'longrope' ? 'originalMaxPositionEmbeddings' : 'maxPositionEmbeddings';
  const a = pos instanceof A.Unscanned ? pos.array : pos;
  let top = -Infinity;
  for (let i = 0; i < a.length; i++) if (a[i] > top) top = a[i];
  if (top >= scaling[at]) {
    throw new RangeError(`scaling.seqLen is required for ${type} scaling at a position ≥ scaling.${at} (${scaling[at]}), here ${top}: `
      + `left out, ${type === 'longrope' ? 'shortFactor' : 'θ_i unscaled'} would be used, where transformers takes the sequence's length (at least position + 1)`);
  }
}

const CONFIG_KEYS = {
  factor: 'factor', attention_factor: 'attentionFactor', beta_fast: 'betaFast', beta_slow: 'betaSlow',
  mscale: 'mscale', mscale_all_dim: 'mscaleAllDim', truncate: 'truncate', low_freq_factor: 'lowFreqFactor',
  high_freq_factor: 'highFreqFactor', original_max_position_embeddings: 'originalMaxPositionEmbeddings',
  short_factor: 'shortFactor', long_factor: 'longFactor',
};
const REQUIRED = {
  linear: ['factor'], ntk: ['factor'], dynamic: ['factor'], yarn: ['factor'],
  llama3: ['factor', 'low_freq_factor', 'high_freq_factor', 'original_max_position_embeddings'],
  longrope: ['short_factor', 'long_factor'],
};

/**
 * One config block of a known scaling `type` → the scaling option object. `block` holds only
 * config keys rope-config.js has checked (numbers, lists, truncate); `path` names the block in
 * messages; maxPos and topL0 are the config's max_position_embeddings and top-level
 * original_max_position_embeddings (undefined when it has none), near the block's misspelt keys by
 * the key each most likely meant (named when that key is found missing). pe.ropeConfig and
 * pe.ropeScaling (rope-config.js) read every block through here.
 */
export function blockScaling(block, type, path, { maxPos, topL0, near = {} } = {}) {
  for (const k of REQUIRED[type]) {
    if (block[k] === undefined) throw new TypeError(`${path} of type ${type} needs ${k}${near[k] ? `; it has ${near[k]}: did you mean ${k}?` : ''}`);
  }
  // (the keys this variant reads; transformers ignores the others too)
  const scaling = { type };
  for (const [k, v] of Object.entries(block)) if (TYPE_KEYS[type].includes(CONFIG_KEYS[k])) scaling[CONFIG_KEYS[k]] = v;
  if (type === 'yarn' && scaling.originalMaxPositionEmbeddings === undefined) {
    const l0 = topL0 ?? maxPos;
    if (l0 === undefined) throw new TypeError(`${path} of type yarn needs original_max_position_embeddings (or max_position_embeddings)`);
    scaling.originalMaxPositionEmbeddings = l0;
  }
  if (type === 'dynamic') {
    if (maxPos === undefined) throw new TypeError(`${path} of type dynamic needs max_position_embeddings`);
    scaling.maxPositionEmbeddings = maxPos;
  }
  if (type === 'llama3' && !(scaling.highFreqFactor >= scaling.lowFreqFactor)) {
    // equal factors (Llama 4 Scout's) make a step; below, transformers and Meta's code disagree on the band between
    throw new RangeError(`${path}.high_freq_factor (${scaling.highFreqFactor}) must be at least ${path}.low_freq_factor (${scaling.lowFreqFactor})`);
  }
  if (type === 'longrope') {
    scaling.originalMaxPositionEmbeddings ??= topL0;
    if (scaling.originalMaxPositionEmbeddings === undefined) throw new TypeError(`${path} of type longrope needs original_max_position_embeddings`);
    scaling.maxPositionEmbeddings = maxPos ?? scaling.originalMaxPositionEmbeddings;
    // transformers (Phi-3): a top-level original_max_position_embeddings makes the default
    // attention factor use max_position_embeddings / original, not the block's factor
    if (topL0 !== undefined) delete scaling.factor;
  }
  if (type !== 'llama3' && type !== 'longrope' && !(scaling.factor >= 1)) {
    throw new RangeError(`${path}.factor must be >= 1 for ${type}, got ${A.show(scaling.factor)}`);
  }
  return scaling;
}
