// attention.js: the JS API's attention methods: multi-head attention, the dynamic-NTK KV-cache
// experiment, dot products of rows, and the word-order experiment. Each takes the instance's
// heap first; web/lib/posenc.js binds them.
import * as A from './args.js';
import { MAX_DIM, ropeStyle } from './rope.js';

const ENCODINGS = { none: 0, sinusoidal: 1, rope: 2 };
const F32_MAX = 3.4028234663852886e38;
const ATTENTION_KEYS = A.optionKeys('attention', ['heads', 'headDim', 'causal', 'out']);
const KV_KEYS = A.optionKeys('dynamicKvCache', ['headDim', 'style', 'base', 'factor', 'maxPositionEmbeddings', 'steps', 'out']);
const ORDER_KEYS = A.optionKeys('orderDemo', ['vocab', 'dim', 'heads', 'encoding', 'causal', 'seed', 'base', 'out']);
const OUT_ONLY = ['out'];
for (const m of ['gram', 'rowDots', 'rowCosines']) A.optionKeys(m, OUT_ONLY);

export function attention(heap, q, k, v, opts) {
  const o = A.options('options', opts, ATTENTION_KEYS, 'attention');
  const heads = A.int('heads', o.heads, 1);
  const headDim = A.int('headDim', o.headDim, 1, MAX_DIM);
  const causal = A.bool('causal', o.causal ?? false);
  const row = heads * headDim;
  const rows = (name, t) => {
    if (!(Array.isArray(t) || (ArrayBuffer.isView(t) && !(t instanceof DataView)))) {
      throw new TypeError(`${name} must be an array or typed array of numbers, got ${A.show(t)}`);
    }
    const len = t.length;
    if (!Number.isInteger(len) || len === 0 || len % row !== 0) {
      throw new RangeError(`${name}.length must be a positive multiple of heads × headDim = ${row}, got ${A.show(len)}`);
    }
    return len / row;
  };
  const seqQ = rows('q', q), seqK = rows('k', k);
  if (seqQ > seqK) throw new RangeError(`q has ${seqQ} rows but k only ${seqK}; q may not have more rows than k`);
  A.elements('attention weights', heads, seqQ, seqK);
  const qs = A.numbers('q', q, Float32Array);
  const ks = A.numbers('k', k, Float32Array);
  const vs = A.numbers('v', v, Float32Array, { length: ks.length });
  const nw = heads * seqQ * seqK;
  const out = A.outParts(o.out, 'attention', { output: [Float32Array, qs.length], weights: [Float32Array, nw] });
  return heap.scoped((h) => {
    const po = h.alloc(Float32Array, qs.length), w = h.alloc(Float32Array, nw);
    heap.call('posenc_attention', po, w, h.copyIn(qs), h.copyIn(ks), h.copyIn(vs), seqQ, seqK, heads, headDim, causal ? 1 : 0);
    return { output: h.copyOut(Float32Array, po, qs.length, out.output), weights: h.copyOut(Float32Array, w, nw, out.weights) };
  });
}

export function dynamicKvCache(heap, q, k, opts) {
  const o = A.options('options', opts, KV_KEYS, 'dynamicKvCache');
  const headDim = A.evenInt('headDim', o.headDim, 4, MAX_DIM);
  const style = ropeStyle(o);
  const base = A.num('base', o.base ?? 10000, 1);
  const factor = A.num('factor', o.factor, 1e-6, 1e6);
  const maxPos = A.num('maxPositionEmbeddings', o.maxPositionEmbeddings, 1);
  // up to half float32's largest value, so that no rotated value overflows to Inf
  const bound = { min: -F32_MAX / 2, max: F32_MAX / 2 };
  const ks = A.numbers('k', k, Float32Array, bound);
  if (ks.length % headDim) throw new RangeError(`k.length must be a multiple of headDim = ${headDim}, got ${ks.length}`);
  const length = ks.length / headDim;
  const qs = A.numbers('q', q, Float32Array, { length: ks.length, ...bound });
  const steps = A.numbers('steps', o.steps ?? Array.from({ length }, (_, j) => j + 1), Int32Array, { min: 1, max: length });
  const given = o.steps ?? [];
  for (let i = 0; i < given.length; i++) {
    if (!Number.isInteger(given[i])) throw new TypeError(`steps[${i}] must be an integer, got ${A.show(given[i])}`);
  }
  const ns = steps.length;
  const out = A.outParts(o.out, 'dynamicKvCache', {
    scoreDiff: [Float64Array, ns], weightDiff: [Float64Array, ns], cachedScores: [Float64Array, length], freshScores: [Float64Array, length],
  });
  return heap.scoped((h) => {
    // the kernel's own buffers: the cache and one step's fresh keys, q rotated, two weight and
    // three float64 rows, the frequencies
    h.reserve(4 * (2 * ks.length + headDim + 2 * length) + 8 * (3 * length + headDim / 2));
    const sd = h.alloc(Float64Array, ns), wd = h.alloc(Float64Array, ns);
    const cs = h.alloc(Float64Array, length), fs = h.alloc(Float64Array, length);
    heap.call('posenc_dynamic_kv_cache', sd, wd, cs, fs, h.copyIn(qs), h.copyIn(ks), length, headDim, style,
      base, factor, maxPos, h.copyIn(steps), ns);
    return {
      scoreDiff: h.copyOut(Float64Array, sd, ns, out.scoreDiff), weightDiff: h.copyOut(Float64Array, wd, ns, out.weightDiff),
      cachedScores: h.copyOut(Float64Array, cs, length, out.cachedScores), freshScores: h.copyOut(Float64Array, fs, length, out.freshScores),
    };
  });
}

export function gram(heap, a, b, dim, opts) {
  const o = A.options('options', opts, OUT_ONLY, 'gram');
  A.int('dim', dim, 1, MAX_DIM);
  const as = A.numbers('a', a, Float32Array), bs = A.numbers('b', b, Float32Array);
  if (as.length % dim) throw new RangeError(`a.length must be a multiple of dim = ${dim}, got ${as.length}`);
  if (bs.length % dim) throw new RangeError(`b.length must be a multiple of dim = ${dim}, got ${bs.length}`);
  const n = as.length / dim, m = bs.length / dim, nm = A.elements('gram matrix', n, m);
  const out = A.outArray('out', o.out, Float64Array, nm);
  return heap.scoped((h) => h.output(Float64Array, nm, out, (p) => heap.call('posenc_gram', p, h.copyIn(as), n, h.copyIn(bs), m, dim)));
}

/** A row-by-row kernel over a, b [n][dim] giving Float64Array(n): rowDots, rowCosines. */
export function rowwise(heap, method, kernel, a, b, dim, opts) {
  const o = A.options('options', opts, OUT_ONLY, method);
  A.int('dim', dim, 1, MAX_DIM);
  const as = A.numbers('a', a, Float32Array);
  const bs = A.numbers('b', b, Float32Array, { length: as.length });
  if (as.length % dim) throw new RangeError(`a.length must be a multiple of dim = ${dim}, got ${as.length}`);
  const n = as.length / dim;
  const out = A.outArray('out', o.out, Float64Array, n);
  return heap.scoped((h) => h.output(Float64Array, n, out, (p) => heap.call(kernel, p, h.copyIn(as), h.copyIn(bs), n, dim)));
}

export function orderDemo(heap, tokens, opts) {
  const o = A.options('options', opts, ORDER_KEYS, 'orderDemo');
  const vocab = A.int('vocab', o.vocab ?? 5, 1, 4096);
  const dim = A.int('dim', o.dim ?? 10, 2, 4096);
  const heads = A.int('heads', o.heads ?? 2, 1, dim);
  if (dim % heads !== 0) throw new RangeError(`dim (${dim}) must be a multiple of heads (${heads})`);
  const encoding = ENCODINGS[A.oneOf('encoding', o.encoding ?? 'none', Object.keys(ENCODINGS))];
  if (encoding === ENCODINGS.sinusoidal && dim % 2) throw new RangeError(`dim must be even for sinusoidal encoding, got ${dim}`);
  if (encoding === ENCODINGS.rope && dim / heads < 2) throw new RangeError(`dim / heads must be >= 2 for RoPE, got ${dim / heads}`);
  const causal = A.bool('causal', o.causal ?? false);
  const seed = A.int('seed', o.seed ?? 0, 0, Number.MAX_SAFE_INTEGER - 3);
  const base = A.num('base', o.base ?? 10000, 1);
  const toks = A.numbers('tokens', tokens, Int32Array, { min: 0, max: vocab - 1 });
  if (toks.length > 4096) throw new RangeError(`tokens length must be <= 4096, got ${toks.length}`);
  toks.forEach((t, i) => {
    if (!Number.isInteger(tokens[i])) throw new TypeError(`tokens[${i}] must be an integer, got ${tokens[i]}`);
  });
  const n = toks.length;
  A.elements('orderDemo weights', heads, n, n);
  const out = A.outParts(o.out, 'orderDemo', { output: [Float32Array, n * dim], weights: [Float32Array, heads * n * n] });
  return heap.scoped((h) => {
    // the kernel's own buffers (embedding table, projections, activations) count too
    h.reserve(4 * (vocab * dim + 3 * dim * dim + 6 * n * dim) + 8 * (n + (dim / heads) + 1));
    const po = h.alloc(Float32Array, n * dim), w = h.alloc(Float32Array, heads * n * n);
    heap.call('posenc_order_demo', po, w, h.copyIn(toks), n, vocab, dim, heads, seed, encoding, causal ? 1 : 0, base);
    return { output: h.copyOut(Float32Array, po, n * dim, out.output), weights: h.copyOut(Float32Array, w, heads * n * n, out.weights) };
  });
}
