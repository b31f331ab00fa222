// relative.js: the JS API's relative-position rules: T5's bucketed relative positions and xPos's
// per-pair scales (c/relative.c, the rules the lab's models use). Each takes the instance's heap
// first; web/lib/posenc.js binds them.
import * as A from './args.js';
import { MAX_DIM } from './rope.js';

const T5_KEYS = A.optionKeys('t5Bucket', ['bidirectional', 'numBuckets', 'maxDistance', 'out']);
const XPOS_KEYS = A.optionKeys('xposScale', ['dim', 'scaleBase', 'out']);
const MAX_REL = 2 ** 30 - 1;

/** Integers in [-MAX_REL, MAX_REL] as an Int32Array, checked value by value. */
function relatives(name, v) {
  const out = A.numbers(name, v, Int32Array, { min: -MAX_REL, max: MAX_REL });
  for (let i = 0; i < v.length; i++) {
    if (!Number.isInteger(v[i])) throw new TypeError(`${name}[${i}] must be an integer, got ${v[i]}`);
  }
  return out;
}

export function t5Bucket(heap, relativePositions, opts) {
  const o = A.options('options', opts, T5_KEYS, 't5Bucket');
  const bidirectional = A.bool('bidirectional', o.bidirectional ?? true);
  const numBuckets = A.int('numBuckets', o.numBuckets ?? 32, bidirectional ? 4 : 2, 65536);
  const exact = Math.floor((bidirectional ? Math.floor(numBuckets / 2) : numBuckets) / 2);
  const maxDistance = A.int('maxDistance', o.maxDistance ?? 128, exact + 1, 2 ** 30);
  const rel = relatives('relativePositions', relativePositions);
  const out = A.outArray('out', o.out, Int32Array, rel.length);
  return heap.scoped((h) => {
    const p = h.copyIn(rel), q = h.alloc(Int32Array, rel.length);
    heap.call('posenc_t5_bucket', q, p, rel.length, bidirectional ? 1 : 0, numBuckets, maxDistance);
    return h.copyOut(Int32Array, q, rel.length, out);
  });
}

export function xposScale(heap, positions, opts) {
  const o = A.options('options', opts, XPOS_KEYS, 'xposScale');
  const dim = A.evenInt('dim', o.dim, 2, MAX_DIM);
  const scaleBase = A.num('scaleBase', o.scaleBase ?? 512, 1e-3, 1e9);
  const pos = A.numbers('positions', positions, Float64Array);
  const n = A.elements('xPos scales', pos.length, dim / 2);
  const out = A.outArray('out', o.out, Float64Array, n);
  return heap.scoped((h) => {
    const p = h.copyIn(pos), q = h.alloc(Float64Array, n);
    heap.call('posenc_xpos_scale', q, p, pos.length, dim, scaleBase);
    return h.copyOut(Float64Array, q, n, out);
  });
}
