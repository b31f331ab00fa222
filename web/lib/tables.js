// tables.js: the JS API's tables and samples: sinusoidal PE (and its shift R(k)), binary codes,
// ALiBi, seeded normals. Each takes the instance's heap first; web/lib/posenc.js binds them.
import * as A from './args.js';
import { MAX_DIM, MAX_POSITION } from './rope.js';

const LAYOUTS = { interleaved: 0, concat: 1, tensor2tensor: 2 };
const SINUSOIDAL_KEYS = A.optionKeys('sinusoidal', ['base', 'layout', 'precision', 'start', 'out']);
const SHIFT_KEYS = A.optionKeys('shiftSinusoidal', ['dim', 'base', 'layout', 'out']);
const OUT_ONLY = ['out'];
/** Bytes of the heap block a large sinusoidal table is made in: 2 MiB (L3-resident) blocks ran at the kernel's own speed. */
const TABLE_BLOCK_BYTES = 2 * 1024 * 1024;
for (const m of ['binary', 'alibiSlopes', 'alibiBias', 'randomNormal']) A.optionKeys(m, OUT_ONLY);

export function sinusoidal(heap, length, dim, opts) {
  const o = A.options('options', opts, SINUSOIDAL_KEYS, 'sinusoidal');
  A.int('length', length, 1);
  A.evenInt('dim', dim, 2, MAX_DIM);
  const base = A.num('base', o.base ?? 10000, 1);
  const layout = LAYOUTS[A.oneOf('layout', o.layout ?? 'interleaved', Object.keys(LAYOUTS))];
  const f64 = A.oneOf('precision', o.precision ?? 'f32', ['f32', 'f64']) === 'f64';
  const n = A.elements('sinusoidal table', length, dim);
  const start = A.num('start', o.start ?? 0, 0, MAX_POSITION - length);
  const Type = f64 ? Float64Array : Float32Array;
  if (layout === LAYOUTS.tensor2tensor && f64) throw new RangeError(`precision 'f64' is not available for layout 'tensor2tensor'`);
  const out = A.outArray('out', o.out, Type, n);
  // Row r of a block starting at row r0 is computed as position (start + r0) + r: the same
  // float64 as start + (r0 + r) when start is an integer, so the table is made in blocks that
  // stay in the cache between kernel and copy out (a multiple of 64 rows, the SIMD kernel's
  // re-anchoring period, so its rows are the same bits); a fractional start takes one block.
  const rows = Number.isInteger(start) ? Math.min(length, 64 * Math.max(1, Math.floor(TABLE_BLOCK_BYTES / (64 * dim * Type.BYTES_PER_ELEMENT)))) : length;
  return heap.scoped((h) => {
    const p = h.alloc(Type, rows * dim), result = out ?? new Type(n), at = p / Type.BYTES_PER_ELEMENT;
    for (let r0 = 0; r0 < length; r0 += rows) {
      const nr = Math.min(rows, length - r0);
      if (layout === LAYOUTS.tensor2tensor) heap.call('posenc_sinusoidal_t2t', p, nr, dim, base, start + r0);
      else heap.call(f64 ? 'posenc_sinusoidal_f64' : 'posenc_sinusoidal', p, nr, dim, base, start + r0, layout);
      result.set(heap.view(Type).subarray(at, at + nr * dim), r0 * dim);
    }
    return result;
  });
}

export function binary(heap, length, bits, opts) {
  const o = A.options('options', opts, OUT_ONLY, 'binary');
  A.int('length', length, 1);
  A.int('bits', bits, 1, 31);
  const n = A.elements('binary table', length, bits);
  const out = A.outArray('out', o.out, Float32Array, n);
  return heap.scoped((h) => h.output(Float32Array, n, out, (p) => heap.call('posenc_binary', p, length, bits)));
}

export function shiftSinusoidal(heap, vectors, k, opts) {
  const o = A.options('options', opts, SHIFT_KEYS, 'shiftSinusoidal');
  const dim = A.evenInt('dim', o.dim, 2, MAX_DIM);
  const base = A.num('base', o.base ?? 10000, 1);
  const layout = LAYOUTS[A.oneOf('layout', o.layout ?? 'interleaved', ['interleaved', 'concat'])];
  A.num('k', k, -MAX_POSITION, MAX_POSITION);
  const xs = A.numbers('vectors', vectors, Float32Array);
  if (xs.length % dim) throw new RangeError(`vectors.length must be a multiple of dim = ${dim}, got ${xs.length}`);
  const out = A.outArray('out', o.out, Float32Array, xs.length);
  return heap.scoped((h) => {
    const p = h.copyIn(xs), q = h.alloc(Float32Array, xs.length);
    heap.call('posenc_sinusoidal_shift', q, p, xs.length / dim, dim, base, k, layout);
    return h.copyOut(Float32Array, q, xs.length, out);
  });
}

export function alibiSlopes(heap, heads, opts) {
  const o = A.options('options', opts, OUT_ONLY, 'alibiSlopes');
  A.int('heads', heads, 1, 1024);
  const out = A.outArray('out', o.out, Float64Array, heads);
  return heap.scoped((h) => h.output(Float64Array, heads, out, (p) => heap.call('posenc_alibi_slopes', p, heads)));
}

export function alibiBias(heap, heads, seq, opts) {
  const o = A.options('options', opts, OUT_ONLY, 'alibiBias');
  A.int('heads', heads, 1, 1024);
  A.int('seq', seq, 1);
  const n = A.elements('alibi bias', heads, seq, seq);
  const out = A.outArray('out', o.out, Float32Array, n);
  return heap.scoped((h) => h.output(Float32Array, n, out, (p) => heap.call('posenc_alibi_bias', p, heads, seq)));
}

export function randomNormal(heap, n, seed, opts) {
  const o = A.options('options', opts, OUT_ONLY, 'randomNormal');
  A.int('n', n, 1);
  A.int('seed', seed, 0, Number.MAX_SAFE_INTEGER);
  const out = A.outArray('out', o.out, Float32Array, n);
  return heap.scoped((h) => h.output(Float32Array, n, out, (p) => heap.call('posenc_random_normal', p, n, seed)));
}
