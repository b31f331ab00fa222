// posenc.js: the JS API over posenc's C kernels, for Node >= 20 and browsers.
//
//   import { loadPosenc } from 'posenc';   // or './web/lib/posenc.js' from the repository
//   const pe = await loadPosenc();
//   const table = pe.sinusoidal(100, 512);            // Float32Array(100 * 512)
//
// Every method validates its arguments (TypeError / RangeError naming the parameter),
// copies inputs into the wasm heap, runs the kernel, copies the result out and frees
// everything, so callers never see wasm memory. Conventions: see README.md. The one
// exception is the zero-copy path for speed: pe.tensor() owns heap memory until free(),
// and pe.applyRopeInPlace() rotates it where it lies (see tensor()).
import { instantiate, simdSupported, HeapArray } from './heap.js';
import * as A from './args.js';
import { scalingStruct, ropeScaling } from './scaling.js';

export { MAX_ELEMENTS, MAX_CALL_BYTES, MAX_HEAP_BYTES } from './args.js';
export { simdSupported, ropeScaling };

const LAYOUTS = { interleaved: 0, concat: 1, tensor2tensor: 2 };
const STYLES = { interleaved: 0, half: 1 };
const STYLE_NAMES = Object.keys(STYLES);
const PRECISIONS = { f64: 0, f32: 1, bf16: 2, f16: 3 };
const ENCODINGS = { none: 0, sinusoidal: 1, rope: 2 };
const DECAY_KINDS = ['ones', 'bound', 'vectors'];
const MAX_POSITION = 2 ** 53;
const MAX_DIM = 65536;
const F32_MAX = 3.4028234663852886e38;

/** The pair layout, which every RoPE call must name: it has no default (the classic silent bug). */
function ropeStyle(o) {
  if (o.style === undefined) throw new TypeError(`style is required: "interleaved" or "half"`);
  return STYLES[A.oneOf('style', o.style, STYLE_NAMES)];
}

/** The layout options every RoPE call shares. */
function ropeShape(o) {
  const heads = A.int('heads', o.heads, 1);
  const headDim = A.int('headDim', o.headDim, 1, MAX_DIM);
  const style = ropeStyle(o);
  const rotaryDim = A.evenInt('rotaryDim', o.rotaryDim ?? headDim - (headDim % 2), 2, headDim);
  return { heads, headDim, style, rotaryDim };
}

const BUILDS = {
  simd: new URL('../build/posenc.wasm', import.meta.url),
  scalar: new URL('../build/posenc-scalar.wasm', import.meta.url),
};

/**
 * Loads the kernels. options.simd: 'auto' (default: SIMD where the engine validates it),
 * true (SIMD or throw) or false (the scalar build). options.source: the .wasm as bytes, a
 * WebAssembly.Module or a URL, for hosts that serve it elsewhere. options.maxCallBytes and
 * options.maxHeapBytes lower the memory limits (MAX_CALL_BYTES per call, MAX_HEAP_BYTES live
 * in the heap); they cannot raise them.
 */
export async function loadPosenc(opts) {
  const o = A.options('options', opts);
  const simd = A.oneOf('options.simd', o.simd ?? 'auto', ['auto', true, false]);
  const callBytes = A.int('options.maxCallBytes', o.maxCallBytes ?? A.MAX_CALL_BYTES, 1, A.MAX_CALL_BYTES);
  const heapBytes = A.int('options.maxHeapBytes', o.maxHeapBytes ?? A.MAX_HEAP_BYTES, 1, A.MAX_HEAP_BYTES);
  const useSimd = simd === 'auto' ? simdSupported() : simd;
  if (useSimd && !simdSupported()) throw new Error('posenc: this engine has no WebAssembly SIMD; use { simd: false }');
  const heap = await instantiate(o.source ?? (useSimd ? BUILDS.simd : BUILDS.scalar));
  heap.limits = { callBytes, heapBytes };
  return new Posenc(heap);
}

class Posenc {
  #heap;

  constructor(heap) {
    this.#heap = heap;
    /** true when the loaded module is the WASM SIMD build */
    this.simd = heap.fn.posenc_simd() === 1;
    /** { callBytes, heapBytes }: the memory limits this instance enforces (see loadPosenc) */
    this.limits = Object.freeze({ ...heap.limits });
    Object.freeze(this);
  }

  /** Wasm heap use: { inUse: bytes malloc has handed out, total: bytes of wasm memory }. */
  heapBytes() {
    return { inUse: this.#heap.fn.posenc_heap_in_use(), total: this.#heap.memory.buffer.byteLength };
  }

  /**
   * Sinusoidal table [length][dim]: layout 'interleaved' (sin at 2i, cos at 2i+1) or 'concat'
   * ([sin_0..sin_{d/2-1}, cos_0..]); row r is position start + r. precision 'f32' (default)
   * gives a Float32Array, 'f64' a Float64Array of the same values before rounding.
   */
  sinusoidal(length, dim, opts) {
    const o = A.options('options', opts);
    A.int('length', length, 1);
    A.evenInt('dim', dim, 2, MAX_DIM);
    const base = A.num('base', o.base ?? 10000, 1);
    const layout = LAYOUTS[A.oneOf('layout', o.layout ?? 'interleaved', Object.keys(LAYOUTS))];
    const f64 = A.oneOf('precision', o.precision ?? 'f32', ['f32', 'f64']) === 'f64';
    const n = A.elements('sinusoidal table', length, dim);
    const start = A.num('start', o.start ?? 0, 0, MAX_POSITION - length);
    const Type = f64 ? Float64Array : Float32Array;
    if (layout === LAYOUTS.tensor2tensor && f64) throw new RangeError(`precision 'f64' is not available for layout 'tensor2tensor'`);
    return this.#heap.scoped((h) => {
      const out = h.alloc(Type, n);
      if (layout === LAYOUTS.tensor2tensor) this.#heap.call('posenc_sinusoidal_t2t', out, length, dim, base, start);
      else this.#heap.call(f64 ? 'posenc_sinusoidal_f64' : 'posenc_sinusoidal', out, length, dim, base, start, layout);
      return h.copyOut(Type, out, n);
    });
  }

  /** Binary codes [length][bits]; column j is bit j of the position, least significant first. */
  binary(length, bits) {
    A.int('length', length, 1);
    A.int('bits', bits, 1, 31);
    const n = A.elements('binary table', length, bits);
    return this.#heap.scoped((h) => {
      const out = h.alloc(Float32Array, n);
      this.#heap.call('posenc_binary', out, length, bits);
      return h.copyOut(Float32Array, out, n);
    });
  }

  /**
   * theta_i for i < rotaryDim/2, in float64: base^(-2i/rotaryDim), or a scaling variant's
   * frequencies with options.scaling (see README: linear, ntk, dynamic, yarn, llama3, longrope).
   */
  ropeInvFreq(rotaryDim, opts) {
    return this.#freq(rotaryDim, A.options('options', opts)).inv;
  }

  /** The factor a scaling variant multiplies cos and sin by (1 without scaling). */
  ropeAttentionFactor(rotaryDim, opts) {
    return this.#freq(rotaryDim, A.options('options', opts)).attn;
  }

  /** Reads a model's config.json (or its rope_scaling block): { base, rotaryDim, scaling }. */
  ropeScaling(config) {
    return ropeScaling(config);
  }

  /** { inv: Float64Array(rotaryDim/2), attn } from options { base, scaling }. */
  #freq(rotaryDim, o) {
    const f = this.#freqArgs(rotaryDim, o);
    return this.#heap.scoped((h) => {
      const { inv, attn } = this.#freqIn(h, f);
      return { inv: h.copyOut(Float64Array, inv, f.half), attn };
    });
  }

  /** Checks rotaryDim and options { base, scaling }: what #freqIn needs. */
  #freqArgs(rotaryDim, o) {
    A.evenInt('rotaryDim', rotaryDim, 2, MAX_DIM);
    const base = A.num('base', o.base ?? 10000, 1);
    return { rotaryDim, half: rotaryDim / 2, base, sc: scalingStruct(o.scaling, rotaryDim / 2) };
  }

  /**
   * theta_i into scope h's heap, for a kernel of the same call: { inv: pointer to
   * Float64Array(half), attn } (no copy out and back in between).
   */
  #freqIn(h, { rotaryDim, half, base, sc }) {
    const inv = h.alloc(Float64Array, half);
    if (!sc) {
      this.#heap.call('posenc_rope_inv_freq', inv, rotaryDim, base);
      return { inv, attn: 1 };
    }
    const attn = h.alloc(Float64Array, 1);
    this.#heap.call('posenc_rope_scaled_freq', inv, attn, rotaryDim, base, h.copyIn(sc.struct),
      sc.shortFactor ? h.copyIn(sc.shortFactor) : 0, sc.longFactor ? h.copyIn(sc.longFactor) : 0);
    return { inv, attn: h.copyOut(Float64Array, attn, 1)[0] };
  }

  /**
   * cos/sin of position × theta_i (times the scaling's attention factor): { cos, sin }, each
   * Float32Array(positions.length * rotaryDim/2), angles in float64. With options.precision
   * ('f64' | 'f32' | 'bf16' | 'f16', or { position, invFreq, angle, output } naming a type per
   * step) the result is a Float64Array holding what an implementation working in those types
   * computes: each step rounded to nearest-even into its type.
   */
  ropeCache(positions, rotaryDim, opts) {
    const o = A.options('options', opts);
    const pos = A.numbers('positions', positions, Float64Array, { min: 0, max: MAX_POSITION });
    const f = this.#freqArgs(rotaryDim, o);
    const n = A.elements('rope cache', pos.length, f.half);
    if (o.precision !== undefined) {
      const names = ['position', 'invFreq', 'angle', 'output'];
      const p = typeof o.precision === 'string' ? Object.fromEntries(names.map((k) => [k, o.precision])) : A.options('precision', o.precision);
      const types = names.map((k) => PRECISIONS[A.oneOf(`precision.${k}`, p[k] ?? 'f64', Object.keys(PRECISIONS))]);
      return this.#heap.scoped((h) => {
        const cos = h.alloc(Float64Array, n), sin = h.alloc(Float64Array, n), { inv, attn } = this.#freqIn(h, f);
        this.#heap.call('posenc_rope_cache_emulated', cos, sin, h.copyIn(pos), pos.length, inv, f.half, attn, ...types);
        return { cos: h.copyOut(Float64Array, cos, n), sin: h.copyOut(Float64Array, sin, n) };
      });
    }
    return this.#heap.scoped((h) => {
      const cos = h.alloc(Float32Array, n), sin = h.alloc(Float32Array, n), { inv, attn } = this.#freqIn(h, f);
      this.#heap.call('posenc_rope_cache', cos, sin, h.copyIn(pos), pos.length, inv, f.half, attn);
      return { cos: h.copyOut(Float32Array, cos, n), sin: h.copyOut(Float32Array, sin, n) };
    });
  }

  /**
   * Rotates x [seq][heads][headDim] (seq = positions.length) and returns a new Float32Array.
   * style is required: 'interleaved' pairs (2i, 2i+1) or 'half' pairs (i, i + rotaryDim/2).
   */
  applyRope(x, opts) {
    const o = A.options('options', opts);
    const { heads, headDim, style, rotaryDim } = ropeShape(o);
    const pos = A.numbers('positions', o.positions, Float64Array, { min: 0, max: MAX_POSITION });
    const n = A.elements('x', pos.length, heads, headDim);
    const xs = A.numbers('x', x, Float32Array, { length: n, min: -Infinity, max: Infinity });
    const f = this.#freqArgs(rotaryDim, o);
    return this.#heap.scoped((h) => {
      const px = h.copyIn(xs), pp = h.copyIn(pos), { inv, attn } = this.#freqIn(h, f);
      this.#heap.call('posenc_rope_apply', px, px, pos.length, heads, headDim, rotaryDim, style, pp, inv, attn);
      return h.copyOut(Float32Array, px, n);
    });
  }

  /**
   * Zero-copy path: a Float32Array that lives in the wasm heap, for callers who run kernels
   * on the same data many times. tensor(length) is zero-filled; tensor(array) starts as a copy.
   * Returns { length, array, freed, free() }: `array` is a view of the heap, so writes to it
   * are what the kernels read. Any posenc call may grow wasm memory, which detaches every
   * view taken before it (it then reads as length 0): read `t.array` again after each call
   * instead of keeping the view. free() when done; a freed tensor throws on use.
   */
  tensor(lengthOrData) {
    let data = null;
    if (typeof lengthOrData === 'number') A.int('length', lengthOrData, 1);
    else data = A.numbers('data', lengthOrData, Float32Array);
    const t = new HeapArray(this.#heap, Float32Array, data ? data.length : lengthOrData);
    if (!data) {
      t.array.fill(0);
      return t;
    }
    const u = data instanceof A.Unscanned ? data : null;
    t.array.set(u ? u.array : data);
    try {
      if (u) this.#heap.scan(u, t.pointer);
    } catch (err) {
      t.free();
      throw err;
    }
    return t;
  }

  /**
   * RoPE in place on a tensor from pe.tensor(): x [seq][heads][headDim] with seq =
   * x.length / (heads × headDim). Either positions (seq of them: cos/sin formed on the fly,
   * as applyRope) or cos and sin tensors [seq][rotaryDim/2] (e.g. pe.tensor(pe.ropeCache(...).cos)),
   * which skips the trigonometry. Nothing is copied; returns x. Tensor contents are not
   * scanned for NaN (that would cost a pass over the data): NaN in gives NaN out.
   */
  applyRopeInPlace(x, opts) {
    const t = this.#tensorArg('x', x);
    const o = A.options('options', opts);
    const { heads, headDim, style, rotaryDim } = ropeShape(o);
    const row = heads * headDim;
    if (t.length % row !== 0) {
      throw new RangeError(`x.length must be a multiple of heads × headDim = ${row}, got ${t.length}`);
    }
    const seq = t.length / row;
    if (o.cos !== undefined || o.sin !== undefined) {
      if (o.positions !== undefined) throw new TypeError('give either positions or cos and sin, not both');
      if (o.base !== undefined) throw new TypeError('base has no effect with cos and sin tables; leave it out');
      const cos = this.#tensorArg('cos', o.cos), sin = this.#tensorArg('sin', o.sin);
      const n = seq * (rotaryDim / 2);
      for (const [name, c] of [['cos', cos], ['sin', sin]]) {
        if (c.length !== n) throw new RangeError(`${name}.length must be seq × rotaryDim/2 = ${n}, got ${c.length}`);
      }
      this.#heap.call('posenc_rope_apply_table', t.pointer, t.pointer, seq, heads, headDim, rotaryDim, style,
        cos.pointer, sin.pointer);
      return x;
    }
    const pos = A.numbers('positions', o.positions, Float64Array, { length: seq, min: 0, max: MAX_POSITION });
    const f = this.#freqArgs(rotaryDim, o);
    this.#heap.scoped((h) => {
      const pp = h.copyIn(pos), { inv, attn } = this.#freqIn(h, f);
      this.#heap.call('posenc_rope_apply', t.pointer, t.pointer, seq, heads, headDim, rotaryDim, style, pp, inv, attn);
    });
    return x;
  }

  /** A live tensor of this instance, or a TypeError naming the parameter. */
  #tensorArg(name, t) {
    if (!(t instanceof HeapArray) || t.Type !== Float32Array) {
      throw new TypeError(`${name} must be a tensor from pe.tensor(), got ${A.show(t)}`);
    }
    if (!t.in(this.#heap)) throw new TypeError(`${name} is a tensor of another posenc instance`);
    if (t.freed) throw new TypeError(`${name} was freed`);
    return t;
  }

  /**
   * Multi-head attention: q [seqQ][heads][headDim] over k, v [seqK][heads][headDim], seqQ <= seqK.
   * Query rows are the last seqQ positions (a KV cache when seqQ < seqK): with causal, query
   * row i sees keys j <= i + seqK - seqQ. Returns { output, weights[heads][seqQ][seqK] }.
   */
  attention(q, k, v, opts) {
    const o = A.options('options', opts);
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
    return this.#heap.scoped((h) => {
      const out = h.alloc(Float32Array, qs.length), w = h.alloc(Float32Array, nw);
      this.#heap.call('posenc_attention', out, w, h.copyIn(qs), h.copyIn(ks), h.copyIn(vs), seqQ, seqK, heads, headDim, causal ? 1 : 0);
      return { output: h.copyOut(Float32Array, out, qs.length), weights: h.copyOut(Float32Array, w, nw) };
    });
  }

  /**
   * Dynamic NTK with a KV cache (transformers#25104): q, k [length][headDim]. Generation caches
   * key j at step j + 1, rotated with scaling { type: 'dynamic', factor, maxPositionEmbeddings,
   * seqLen: j + 1 }; the query of step t is q row t − 1, rotated with seqLen t. For each step t in
   * `steps` (default 1…length): scoreDiff, the largest |q·k_j| difference between the cached keys
   * and every key rotated with step t's base, and weightDiff, the same for pe.attention's
   * weights. cachedScores and freshScores are the two score rows of the last step (t = length).
   * Every number is what applyRope, gram and attention called step by step would give.
   */
  dynamicKvCache(q, k, opts) {
    const o = A.options('options', opts);
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
    return this.#heap.scoped((h) => {
      // the kernel's own buffers: the cache and one step's fresh keys, q rotated, two weight and
      // three float64 rows, the frequencies
      h.reserve(4 * (2 * ks.length + headDim + 2 * length) + 8 * (3 * length + headDim / 2));
      const sd = h.alloc(Float64Array, ns), wd = h.alloc(Float64Array, ns);
      const cs = h.alloc(Float64Array, length), fs = h.alloc(Float64Array, length);
      this.#heap.call('posenc_dynamic_kv_cache', sd, wd, cs, fs, h.copyIn(qs), h.copyIn(ks), length, headDim, style,
        base, factor, maxPos, h.copyIn(steps), ns);
      return {
        scoreDiff: h.copyOut(Float64Array, sd, ns), weightDiff: h.copyOut(Float64Array, wd, ns),
        cachedScores: h.copyOut(Float64Array, cs, length), freshScores: h.copyOut(Float64Array, fs, length),
      };
    });
  }

  /** Dot products of every row of a [n][dim] with every row of b [m][dim]: Float64Array(n*m). */
  gram(a, b, dim) {
    A.int('dim', dim, 1, MAX_DIM);
    const as = A.numbers('a', a, Float32Array), bs = A.numbers('b', b, Float32Array);
    if (as.length % dim) throw new RangeError(`a.length must be a multiple of dim = ${dim}, got ${as.length}`);
    if (bs.length % dim) throw new RangeError(`b.length must be a multiple of dim = ${dim}, got ${bs.length}`);
    const n = as.length / dim, m = bs.length / dim, nm = A.elements('gram matrix', n, m);
    return this.#heap.scoped((h) => {
      const out = h.alloc(Float64Array, nm);
      this.#heap.call('posenc_gram', out, h.copyIn(as), n, h.copyIn(bs), m, dim);
      return h.copyOut(Float64Array, out, nm);
    });
  }

  /** Dot product of row i of a with row i of b (both [n][dim]): Float64Array(n). */
  rowDots(a, b, dim) {
    return this.#rowwise('posenc_row_dots', a, b, dim);
  }

  /** Cosine of the angle between row i of a and row i of b (both [n][dim]): Float64Array(n). */
  rowCosines(a, b, dim) {
    return this.#rowwise('posenc_row_cosines', a, b, dim);
  }

  /** A row-by-row kernel over a, b [n][dim] giving Float64Array(n). */
  #rowwise(kernel, a, b, dim) {
    A.int('dim', dim, 1, MAX_DIM);
    const as = A.numbers('a', a, Float32Array);
    const bs = A.numbers('b', b, Float32Array, { length: as.length });
    if (as.length % dim) throw new RangeError(`a.length must be a multiple of dim = ${dim}, got ${as.length}`);
    const n = as.length / dim;
    return this.#heap.scoped((h) => {
      const out = h.alloc(Float64Array, n);
      this.#heap.call(kernel, out, h.copyIn(as), h.copyIn(bs), n, dim);
      return h.copyOut(Float64Array, out, n);
    });
  }


  /**
   * Seed 002's linear map R(k) on sinusoidal vectors (rows of width dim, given layout):
   * each (sin a, cos a) pair becomes (sin(a + k w_i), cos(a + k w_i)), so R(k) PE(pos) = PE(pos + k).
   */
  shiftSinusoidal(vectors, k, opts) {
    const o = A.options('options', opts);
    const dim = A.evenInt('dim', o.dim, 2, MAX_DIM);
    const base = A.num('base', o.base ?? 10000, 1);
    const layout = LAYOUTS[A.oneOf('layout', o.layout ?? 'interleaved', ['interleaved', 'concat'])];
    A.num('k', k, -MAX_POSITION, MAX_POSITION);
    const xs = A.numbers('vectors', vectors, Float32Array);
    if (xs.length % dim) throw new RangeError(`vectors.length must be a multiple of dim = ${dim}, got ${xs.length}`);
    return this.#heap.scoped((h) => {
      const p = h.copyIn(xs), out = h.alloc(Float32Array, xs.length);
      this.#heap.call('posenc_sinusoidal_shift', out, p, xs.length / dim, dim, base, k, layout);
      return h.copyOut(Float32Array, out, xs.length);
    });
  }

  /**
   * Seed 001's experiment, end to end in C: token ids -> seeded embedding -> optional
   * sinusoidal PE -> seeded Q/K/V projections -> optional RoPE (interleaved) -> attention.
   * Returns { output: Float32Array(n*dim), weights: Float32Array(heads*n*n) }.
   */
  orderDemo(tokens, opts) {
    const o = A.options('options', opts);
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
    return this.#heap.scoped((h) => {
      // the kernel's own buffers (embedding table, projections, activations) count too
      h.reserve(4 * (vocab * dim + 3 * dim * dim + 6 * n * dim) + 8 * (n + (dim / heads) + 1));
      const out = h.alloc(Float32Array, n * dim), w = h.alloc(Float32Array, heads * n * n);
      this.#heap.call('posenc_order_demo', out, w, h.copyIn(toks), n, vocab, dim, heads, seed, encoding, causal ? 1 : 0, base);
      return { output: h.copyOut(Float32Array, out, n * dim), weights: h.copyOut(Float32Array, w, heads * n * n) };
    });
  }

  /**
   * RoPE score against distance x, Float64Array(distances.length):
   * kind 'ones': g(x) = 2 sum_i cos(x theta_i) (q = k = all ones); 'bound': the RoFormer paper's
   * (1/(d/2)) sum_j |sum_{k<j} e^{i x theta_k}|; 'vectors': q . R(x) k with the given q, k and
   * pair style (default 'interleaved'). theta_i = base^(-2i/dim) unless invFreq is given.
   */
  ropeDecay(distances, opts) {
    const o = A.options('options', opts);
    const kind = A.oneOf('kind', o.kind ?? 'ones', DECAY_KINDS);
    const dist = A.numbers('distances', distances, Float64Array, { min: 0, max: MAX_POSITION });
    let inv;
    if (o.invFreq !== undefined) {
      if (o.scaling !== undefined) throw new TypeError('give either invFreq or scaling, not both');
      inv = A.numbers('invFreq', o.invFreq, Float64Array, { min: 0, max: 1e6 });
      if (o.dim !== undefined && A.evenInt('dim', o.dim, 2, MAX_DIM) !== 2 * inv.length) {
        throw new RangeError(`invFreq must have dim/2 = ${o.dim / 2} entries, got ${inv.length}`);
      }
    } else {
      // a scaling variant changes the frequencies; its attention factor (a constant scale of
      // every score by its square) is left out so the curves compare by shape
      inv = this.ropeInvFreq(A.evenInt('dim', o.dim, 2, MAX_DIM), { base: o.base, scaling: o.scaling });
    }
    const half = inv.length;
    A.elements('decay work', dist.length, half);
    let q, k, style;
    if (kind === 'vectors') {
      q = A.numbers('q', o.q, Float32Array, { length: 2 * half });
      k = A.numbers('k', o.k, Float32Array, { length: 2 * half });
      style = STYLES[A.oneOf('style', o.style ?? 'interleaved', STYLE_NAMES)];
    }
    return this.#heap.scoped((h) => {
      const out = h.alloc(Float64Array, dist.length);
      const pd = h.copyIn(dist), pw = h.copyIn(inv);
      if (kind === 'ones') this.#heap.call('posenc_rope_decay_ones', out, pd, dist.length, pw, half);
      else if (kind === 'bound') this.#heap.call('posenc_rope_decay_bound', out, pd, dist.length, pw, half);
      else this.#heap.call('posenc_rope_decay_vectors', out, pd, dist.length, pw, half, h.copyIn(q), h.copyIn(k), style);
      return h.copyOut(Float64Array, out, dist.length);
    });
  }

  /** (q + PE(0)) . (k + PE(x)) over distances x, or PE(0) . PE(x) without q and k. */
  sinusoidalDecay(distances, opts) {
    const o = A.options('options', opts);
    const dim = A.evenInt('dim', o.dim, 2, MAX_DIM);
    const base = A.num('base', o.base ?? 10000, 1);
    const dist = A.numbers('distances', distances, Float64Array, { min: 0, max: MAX_POSITION });
    A.elements('decay work', dist.length, dim / 2);
    if ((o.q === undefined) !== (o.k === undefined)) throw new TypeError('q and k must be given together');
    const q = o.q === undefined ? null : A.numbers('q', o.q, Float32Array, { length: dim });
    const k = o.k === undefined ? null : A.numbers('k', o.k, Float32Array, { length: dim });
    return this.#heap.scoped((h) => {
      const out = h.alloc(Float64Array, dist.length);
      this.#heap.call('posenc_sinusoidal_decay', out, h.copyIn(dist), dist.length, dim, base,
        q ? h.copyIn(q) : 0, k ? h.copyIn(k) : 0);
      return h.copyOut(Float64Array, out, dist.length);
    });
  }

  /** ALiBi slopes m_h for each head: 2^(-8h/n) for n a power of two, interleaved otherwise. */
  alibiSlopes(heads) {
    A.int('heads', heads, 1, 1024);
    return this.#heap.scoped((h) => {
      const out = h.alloc(Float64Array, heads);
      this.#heap.call('posenc_alibi_slopes', out, heads);
      return h.copyOut(Float64Array, out, heads);
    });
  }

  /** ALiBi bias [heads][seq][seq]: -(i - j) m_h for j <= i, 0 above the diagonal (mask separately). */
  alibiBias(heads, seq) {
    A.int('heads', heads, 1, 1024);
    A.int('seq', seq, 1);
    const n = A.elements('alibi bias', heads, seq, seq);
    return this.#heap.scoped((h) => {
      const out = h.alloc(Float32Array, n);
      this.#heap.call('posenc_alibi_bias', out, heads, seq);
      return h.copyOut(Float32Array, out, n);
    });
  }

  /** n samples of N(0, 1) from an integer seed; the same numbers in every engine. */
  randomNormal(n, seed) {
    A.int('n', n, 1);
    A.int('seed', seed, 0, Number.MAX_SAFE_INTEGER);
    return this.#heap.scoped((h) => {
      const out = h.alloc(Float32Array, n);
      this.#heap.call('posenc_random_normal', out, n, seed);
      return h.copyOut(Float32Array, out, n);
    });
  }
}
