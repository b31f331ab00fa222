// decay.js: the JS API's decay curves: RoPE's score against distance (all-ones, the RoFormer
// bound, given vectors) and absolute PE's. Each takes the instance's heap first.
import * as A from './args.js';
import { MAX_DIM, MAX_POSITION, ropeStyle, ropeInvFreq } from './rope.js';

const DECAY_KINDS = ['ones', 'bound', 'vectors'];
// (rotaryDim: what ropeScaling() returns passes on as options; it is dim here)
const ROPE_DECAY_KEYS = A.optionKeys('ropeDecay', ['kind', 'dim', 'rotaryDim', 'base', 'scaling', 'invFreq', 'q', 'k', 'style', 'out']);
const SIN_DECAY_KEYS = A.optionKeys('sinusoidalDecay', ['dim', 'base', 'q', 'k', 'out']);

export function ropeDecay(heap, distances, opts) {
  const o = A.options('options', opts, ROPE_DECAY_KEYS, 'ropeDecay');
  const kind = A.oneOf('kind', o.kind ?? 'ones', DECAY_KINDS);
  const dist = A.numbers('distances', distances, Float64Array, { min: 0, max: MAX_POSITION });
  if (o.rotaryDim !== undefined && o.dim !== undefined && o.rotaryDim !== o.dim) {
    throw new RangeError(`options.rotaryDim (${A.show(o.rotaryDim)}) differs from options.dim (${A.show(o.dim)})`);
  }
  const dim = o.dim ?? o.rotaryDim;
  let inv;
  if (o.invFreq !== undefined) {
    if (o.scaling !== undefined) throw new TypeError('give either invFreq or scaling, not both');
    if (o.base !== undefined) throw new TypeError('base has no effect with invFreq (it gives θ_i outright); leave it out');
    inv = A.numbers('invFreq', o.invFreq, Float64Array, { min: 0, max: 1e6 });
    if (dim !== undefined && A.evenInt('dim', dim, 2, MAX_DIM) !== 2 * inv.length) {
      throw new RangeError(`invFreq must have dim/2 = ${dim / 2} entries, got ${inv.length}`);
    }
  } else {
    // a scaling variant changes the frequencies; its attention factor (a constant scale of
    // every score by its square) is left out so the curves compare by shape
    inv = ropeInvFreq(heap, A.evenInt('dim', dim, 2, MAX_DIM), { base: o.base, scaling: o.scaling });
  }
  const half = inv.length;
  A.elements('decay work', dist.length, half);
  let q, k, style;
  if (kind !== 'vectors') {
    for (const key of ['q', 'k', 'style']) {
      if (o[key] !== undefined) throw new TypeError(`${key} applies to kind 'vectors' only (kind is ${JSON.stringify(kind)})`);
    }
  } else {
    q = A.numbers('q', o.q, Float32Array, { length: 2 * half });
    k = A.numbers('k', o.k, Float32Array, { length: 2 * half });
    style = ropeStyle(o); // (required, as on every RoPE call: q·R(x)k depends on the pair layout)
  }
  const out = A.outArray('out', o.out, Float64Array, dist.length);
  return heap.scoped((h) => {
    const p = h.alloc(Float64Array, dist.length);
    const pd = h.copyIn(dist), pw = h.copyIn(inv);
    if (kind === 'ones') heap.call('posenc_rope_decay_ones', p, pd, dist.length, pw, half);
    else if (kind === 'bound') heap.call('posenc_rope_decay_bound', p, pd, dist.length, pw, half);
    else heap.call('posenc_rope_decay_vectors', p, pd, dist.length, pw, half, h.copyIn(q), h.copyIn(k), style);
    return h.copyOut(Float64Array, p, dist.length, out);
  });
}

export function sinusoidalDecay(heap, distances, opts) {
  const o = A.options('options', opts, SIN_DECAY_KEYS, 'sinusoidalDecay');
  const dim = A.evenInt('dim', o.dim, 2, MAX_DIM);
  const base = A.num('base', o.base ?? 10000, 1);
  const dist = A.numbers('distances', distances, Float64Array, { min: 0, max: MAX_POSITION });
  A.elements('decay work', dist.length, dim / 2);
  if ((o.q === undefined) !== (o.k === undefined)) throw new TypeError('q and k must be given together');
  const q = o.q === undefined ? null : A.numbers('q', o.q, Float32Array, { length: dim });
  const k = o.k === undefined ? null : A.numbers('k', o.k, Float32Array, { length: dim });
  const out = A.outArray('out', o.out, Float64Array, dist.length);
  return heap.scoped((h) => {
    const p = h.alloc(Float64Array, dist.length);
    heap.call('posenc_sinusoidal_decay', p, h.copyIn(dist), dist.length, dim, base,
      q ? h.copyIn(q) : 0, k ? h.copyIn(k) : 0);
    return h.copyOut(Float64Array, p, dist.length, out);
  });
}
