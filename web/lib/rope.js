// rope.js: the RoPE methods of the JS API (frequencies, cos/sin caches, rotation copying or in
// place). Each takes the instance's heap first; web/lib/posenc.js binds them to the class.
import { HeapArray } from './heap.js';
import * as A from './args.js';
import { needsSeqLen, scalingStruct } from './scaling.js';
import * as M from './mrope.js';

export const STYLES = { interleaved: 0, half: 1 };
export const STYLE_NAMES = Object.keys(STYLES);
const ALIASES = { neox: 'half', 'gpt-neox': 'half', rotate_half: 'half', norm: 'interleaved', normal: 'interleaved', gptj: 'interleaved', 'gpt-j': 'interleaved' };
export const MAX_POSITION = 2 ** 53;
export const MAX_DIM = 65536;
const PRECISIONS = { f64: 0, f32: 1, bf16: 2, f16: 3 };
const PRECISION_STEPS = ['position', 'invFreq', 'angle', 'output'];

// rotaryDim may come along (what ropeScaling() returns passes on as options) if it agrees
const INV_FREQ_KEYS = A.optionKeys('ropeInvFreq', ['base', 'scaling', 'rotaryDim', 'out']);
const FREQ_KEYS = A.optionKeys('ropeAttentionFactor', ['base', 'scaling', 'rotaryDim']);
const CACHE_KEYS = A.optionKeys('ropeCache', ['base', 'scaling', 'rotaryDim', 'precision', 'out', 'mrope']);
const SHAPE = ['heads', 'headDim', 'style', 'rotaryDim'];
const APPLY_KEYS = A.optionKeys('applyRope', [...SHAPE, 'positions', 'base', 'scaling', 'cos', 'sin', 'out', 'mrope']);
const IN_PLACE_KEYS = A.optionKeys('applyRopeInPlace', [...SHAPE, 'positions', 'base', 'scaling', 'cos', 'sin', 'mrope']);

/** The pair layout, which every RoPE call must name: it has no default (the classic silent bug). */
export function ropeStyle(o) {
  if (o.style === undefined) throw new TypeError(`style is required: "interleaved" or "half"`);
  // the names the pair layouts go by elsewhere (llama.cpp's modes, the models that made them)
  const known = ALIASES[String(o.style).toLowerCase()];
  if (known) throw new RangeError(`style must be "interleaved" or "half", got ${A.show(o.style)}: that layout is ${JSON.stringify(known)} here`);
  return STYLES[A.oneOf('style', o.style, STYLE_NAMES)];
}

/** The layout options every RoPE call shares. */
export function ropeShape(o) {
  const heads = A.int('heads', o.heads, 1);
  const headDim = A.int('headDim', o.headDim, 1, MAX_DIM);
  const style = ropeStyle(o);
  const rotaryDim = A.evenInt('rotaryDim', o.rotaryDim ?? headDim - (headDim % 2), 2, headDim);
  return { heads, headDim, style, rotaryDim };
}

/** Checks rotaryDim and options { base, scaling }: what freqIn needs. */
export function freqArgs(rotaryDim, o) {
  A.evenInt('rotaryDim', rotaryDim, 2, MAX_DIM);
  if (o.rotaryDim !== undefined && o.rotaryDim !== rotaryDim) {
    throw new RangeError(`options.rotaryDim (${A.show(o.rotaryDim)}) differs from the rotaryDim argument (${rotaryDim})`);
  }
  const base = A.num('base', o.base ?? 10000, 1);
  return { rotaryDim, half: rotaryDim / 2, base, sc: scalingStruct(o.scaling, rotaryDim / 2) };
}

/** theta_i of plain RoPE by heap, base and rotaryDim: a call copies them in rather than recompute them. */
const INV_FREQ = new WeakMap();
const INV_FREQ_KEEP = 64; // bases kept per instance; past it the memo starts over

/**
 * theta_i into scope h's heap, for a kernel of the same call: { inv: pointer to
 * Float64Array(half), attn } (no copy out and back in between). With `values`, also
 * values: theta_i as a Float64Array that nothing writes to (the table memo's key), and inv
 * may be 0 (theta_i known, not copied in: a call that needs them copies values in).
 */
export function freqIn(heap, h, { rotaryDim, half, base, sc }, values = false) {
  if (!sc) {
    let memo = INV_FREQ.get(heap);
    if (!memo) INV_FREQ.set(heap, (memo = new Map()));
    let byDim = memo.get(base);
    const known = byDim?.get(rotaryDim);
    if (known) return { inv: values ? 0 : h.copyIn(known), attn: 1, values: known };
    const inv = h.alloc(Float64Array, half);
    heap.call('posenc_rope_inv_freq', inv, rotaryDim, base);
    if (!byDim) {
      if (memo.size >= INV_FREQ_KEEP) memo.clear();
      memo.set(base, (byDim = new Map()));
    }
    const v = h.copyOut(Float64Array, inv, half);
    byDim.set(rotaryDim, v);
    return { inv, attn: 1, values: v };
  }
  const inv = h.alloc(Float64Array, half);
  const attn = h.alloc(Float64Array, 1);
  heap.call('posenc_rope_scaled_freq', inv, attn, rotaryDim, base, h.copyIn(sc.struct),
    sc.shortFactor ? h.copyIn(sc.shortFactor) : 0, sc.longFactor ? h.copyIn(sc.longFactor) : 0);
  return { inv, attn: h.copyOut(Float64Array, attn, 1)[0], values: values ? h.copyOut(Float64Array, inv, half) : null };
}

/** Most bytes of the cos/sin table a memo keeps (float32 cos and sin: 2048 rows of 64 pairs). */
export const MEMO_BYTES = 2 ** 20;

/** a and b (the same length) hold the same float64 values bit for bit (0 and -0 differ). */
function sameBits(a, b) {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const u = a[i], v = b[i];
    if (u !== v || (u === 0 && 1 / u !== 1 / v)) return false;
  }
  return true;
}

/**
 * The cos/sin table of the positions a RoPE call with positions saw twice in a row, kept in
 * the heap between calls (one a heap, at most MEMO_BYTES): a later call with the same key runs
 * the table kernel on it instead of forming cos/sin again. The key is what posenc_rope_cache
 * reads, bit for bit: the positions, theta_i (base, rotaryDim and scaling made them) and the
 * attention factor. A row's cos/sin depend on its position alone (c/rope.c), so the table
 * kernel gives the fused kernel's bits. A key is remembered only after a call with it
 * succeeded (its positions were checked); its table is built on the next call with that key.
 * The table counts as heap in use and is freed when the key changes or the heap limit needs
 * room (heap.js budget()).
 */
class RopeMemo {
  constructor(heap) {
    this.heap = heap;
    this.pos = null; // Float64Array: the key's positions (checked)
    this.inv = null;
    this.attn = 0;
    this.ptr = 0; // cos then sin, float32 [rows][half] each; 0 while none is built
    this.held = 0; // bytes in use for it, as malloc counts them (its own overhead included)
    this.theta = null; // the theta_i (a Float64Array nothing writes to) kept at thetaPtr
    this.thetaPtr = 0;
    this.thetaHeld = 0; // its bytes as malloc counts them
    this.next = null; // { values, ptr, held }: a copy made by the call under way (thetaIn)
  }

  /**
   * A heap copy of theta_i (`values`, from freqIn), kept from one call to the next while calls
   * use the same values: a decode step then copies in nothing but its row and its position. A
   * call with other values gets a new copy, which replaces the kept one when the call succeeds
   * (settle(true)) and goes when it fails, so that a refused call leaves the heap as it was. A
   * few KiB at most: budget() leaves it alone, so that no later allocation of a call frees what
   * the call reads.
   */
  thetaIn(values) {
    if (this.theta === values) return this.thetaPtr;
    if (this.next?.values === values) return this.next.ptr;
    const fn = this.heap.fn, bytes = 8 * values.length;
    this.heap.budget(bytes);
    const before = fn.posenc_heap_in_use(), ptr = fn.malloc(bytes);
    if (!ptr) throw new RangeError(`posenc: out of wasm memory allocating ${values.length} × Float64Array`);
    this.heap.view(Float64Array).set(values, ptr / 8);
    if (this.next) fn.free(this.next.ptr);
    this.next = { values, ptr, held: fn.posenc_heap_in_use() - before };
    return ptr;
  }

  /** After a call: keeps the theta_i copy it made when it succeeded, frees it when it failed. */
  settle(ok) {
    const next = this.next;
    if (!next || this.heap.trapped) return;
    this.next = null;
    if (!ok) return this.heap.fn.free(next.ptr);
    if (this.thetaPtr) this.heap.fn.free(this.thetaPtr);
    this.theta = next.values;
    this.thetaPtr = next.ptr;
    this.thetaHeld = next.held;
  }

  static of(heap) {
    if (!(heap.kept instanceof RopeMemo)) heap.kept = new RopeMemo(heap);
    return heap.kept;
  }

  /**
   * The key's positions when `v` (a caller's positions argument) holds exactly them, so that it
   * needs no checks and no conversion; else null (numbers() then checks v as always).
   */
  holds(v, length) {
    const p = this.pos;
    return p !== null && (Array.isArray(v) || ArrayBuffer.isView(v)) && v.length === p.length &&
      (length === undefined || length === p.length) && sameBits(p, v) ? p : null;
  }

  matches(pos, inv, attn) {
    return this.pos !== null && Object.is(attn, this.attn) && sameBits(this.pos, pos) && sameBits(this.inv, inv);
  }

  /** After a successful call on another key: that key (pos: a Float64Array nothing else writes). */
  remember(pos, inv, attn) {
    this.drop();
    const fits = 8 * pos.length * inv.length <= MEMO_BYTES;
    this.pos = fits ? pos : null;
    this.inv = fits ? inv : null;
    this.attn = attn;
  }

  /** { cos, sin } pointers to the key's table, built now if need be and if the budget allows; else null. */
  table(h, pp, inv) {
    const half = this.inv.length, bytes = 8 * this.pos.length * half;
    if (!this.ptr) {
      try {
        h.reserve(bytes);
      } catch (err) {
        if (err instanceof RangeError) return null; // no room: the fused kernel needs none
        throw err;
      }
      const fn = this.heap.fn, before = fn.posenc_heap_in_use(), ptr = fn.malloc(bytes);
      if (!ptr) return null;
      const held = fn.posenc_heap_in_use() - before;
      try {
        this.heap.call('posenc_rope_cache', ptr, ptr + bytes / 2, pp(), this.pos.length, inv, half, this.attn);
      } catch (err) {
        this.heap.fn.free(ptr);
        throw err;
      }
      this.ptr = ptr;
      this.held = held;
    }
    return { cos: this.ptr, sin: this.ptr + bytes / 2 };
  }

  /** Heap bytes the table and theta_i hold. */
  get bytes() {
    return (this.ptr ? this.held : 0) + this.thetaHeld;
  }

  drop() {
    if (this.ptr && !this.heap.trapped) this.heap.fn.free(this.ptr);
    this.ptr = 0;
  }
}

/**
 * The rotation of one call with positions (`pos` as numbers() gave it), the row kernel of
 * heap.js stream(): block(px, nr, r0) rotates rows [r0, r0 + nr) at heap pointer px and returns
 * the kernel's status. It reads the memo's table when the key matches; otherwise it runs the
 * fused kernel on the positions, copied in (and checked) whole by start(). start() comes after
 * every other allocation of the call (budget() may free the memo's table to make room). done(ok)
 * after the rows: a call that succeeded remembers its key and keeps its theta_i; one that failed
 * frees the table and theta_i it made, if any. A class, not closures: a decode step allocates as
 * little as it can.
 */
class Rotation {
  constructor(heap, h, pos, f, { heads, headDim, style, rotaryDim }) {
    const { inv, attn, values } = freqIn(heap, h, f, true);
    this.heap = heap;
    this.h = h;
    this.pos = pos;
    this.arr = pos instanceof A.Unscanned ? pos.array : pos;
    this.heads = heads;
    this.headDim = headDim;
    this.style = style;
    this.rotaryDim = rotaryDim;
    this.inv = inv;
    this.attn = attn;
    this.values = values;
    this.memo = RopeMemo.of(heap);
    this.hit = this.memo.matches(this.arr, values, attn);
    this.built = false;
    this.table = null;
    this.pp = 0;
  }

  start() {
    const { memo, h } = this;
    this.built = this.hit && !memo.ptr;
    if (!this.inv && !(this.hit && memo.ptr)) this.inv = memo.thetaIn(this.values); // (the memo's table needs none)
    this.table = this.hit ? memo.table(h, () => h.copyIn(memo.pos), this.inv) : null;
    if (!this.table) this.pp = h.copyIn(this.pos);
  }

  block(px, nr, r0) {
    const { heap, heads, headDim, style, rotaryDim, table } = this;
    if (table) {
      const at = 2 * r0 * rotaryDim; // bytes: r0 rows of rotaryDim/2 floats
      return heap.call('posenc_rope_apply_table', px, px, nr, heads, headDim, rotaryDim, style, table.cos + at, table.sin + at);
    }
    return heap.call('posenc_rope_apply', px, px, nr, heads, headDim, rotaryDim, style, this.pp + 8 * r0, this.inv, this.attn);
  }

  // (positions that came as a Float64Array were the caller's: the key keeps a copy; a table
  // built by a call the kernel's check of x then refused goes, so that the memo is as it was)
  done(ok) {
    this.memo.settle(ok);
    if (!ok) this.built && this.memo.drop();
    else if (!this.hit) this.memo.remember(this.arr === this.pos ? this.pos : Float64Array.from(this.arr), this.values, this.attn);
  }
}

/** The row kernel of heap.js stream() for a call with a cos/sin table (pc, ps: the block's rows of it). */
class TableRotation {
  constructor(heap, { heads, headDim, style, rotaryDim }) {
    this.heap = heap;
    this.heads = heads;
    this.headDim = headDim;
    this.style = style;
    this.rotaryDim = rotaryDim;
  }

  start() {}

  block(px, nr, r0, pc, ps) {
    const { heap, heads, headDim, style, rotaryDim } = this;
    return heap.call('posenc_rope_apply_table', px, px, nr, heads, headDim, rotaryDim, style, pc, ps);
  }
}

/** { inv: Float64Array(rotaryDim/2) (into options.out when given), attn } from options { base, scaling }. */
function freq(heap, rotaryDim, o) {
  const f = freqArgs(rotaryDim, o);
  const out = A.outArray('out', o.out, Float64Array, f.half);
  return heap.scoped((h) => {
    const { inv, attn } = freqIn(heap, h, f);
    return { inv: h.copyOut(Float64Array, inv, f.half, out), attn };
  });
}

export function ropeInvFreq(heap, rotaryDim, opts) {
  return freq(heap, rotaryDim, A.options('options', opts, INV_FREQ_KEYS, 'ropeInvFreq')).inv;
}

export function ropeAttentionFactor(heap, rotaryDim, opts) {
  return freq(heap, rotaryDim, A.options('options', opts, FREQ_KEYS, 'ropeAttentionFactor')).attn;
}

/** The { cos, sin } outputs of ropeCache: the caller's (options.out), or undefined for new arrays. */
export const pairOut = (out, Type, n) => A.outParts(out, 'ropeCache', { cos: [Type, n], sin: [Type, n] });

export function ropeCache(heap, positions, rotaryDim, opts) {
  const o = A.options('options', opts, CACHE_KEYS, 'ropeCache');
  if (M.isMrope(o, positions)) return M.mropeCache(heap, positions, rotaryDim, o);
  const pos = A.numbers('positions', positions, Float64Array, { min: 0, max: MAX_POSITION });
  const f = freqArgs(rotaryDim, o);
  needsSeqLen(o.scaling, pos);
  const n = A.elements('rope cache', pos.length, f.half);
  if (o.precision !== undefined) {
    const p = typeof o.precision === 'string'
      ? Object.fromEntries(PRECISION_STEPS.map((k) => [k, A.oneOf('precision', o.precision, Object.keys(PRECISIONS))]))
      : A.options('precision', o.precision, PRECISION_STEPS, 'ropeCache');
    const types = PRECISION_STEPS.map((k) => PRECISIONS[A.oneOf(`precision.${k}`, p[k] ?? 'f64', Object.keys(PRECISIONS))]);
    const out = pairOut(o.out, Float64Array, n);
    return heap.scoped((h) => {
      const cos = h.alloc(Float64Array, n), sin = h.alloc(Float64Array, n), { inv, attn } = freqIn(heap, h, f);
      heap.call('posenc_rope_cache_emulated', cos, sin, h.copyIn(pos), pos.length, inv, f.half, attn, ...types);
      return { cos: h.copyOut(Float64Array, cos, n, out.cos), sin: h.copyOut(Float64Array, sin, n, out.sin) };
    });
  }
  const out = pairOut(o.out, Float32Array, n);
  return heap.scoped((h) => {
    const cos = h.alloc(Float32Array, n), sin = h.alloc(Float32Array, n), { inv, attn } = freqIn(heap, h, f);
    heap.call('posenc_rope_cache', cos, sin, h.copyIn(pos), pos.length, inv, f.half, attn);
    return { cos: h.copyOut(Float32Array, cos, n, out.cos), sin: h.copyOut(Float32Array, sin, n, out.sin) };
  });
}

/** The length of an array or typed array (else undefined: numbers() gives the error). */
const lengthOf = (v) => (Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView)) || v instanceof HeapArray ? v.length : undefined);

/** x's length against the positions: a mismatch names both sides. */
function checkRows(x, seq, heads, headDim) {
  const len = lengthOf(x), row = heads * headDim;
  if (len === undefined || len === seq * row) return;
  const rows = len % row === 0 ? `${len / row} rows of heads × headDim against ${seq} positions` : `not a multiple of heads × headDim = ${row}`;
  throw new RangeError(`x must have length ${seq * row} (positions.length ${seq} × heads ${heads} × headDim ${headDim}), got ${len}: ${rows}`);
}

/** A cos or sin table's length against x's rows and rotaryDim: a mismatch names both sides. */
function checkTable(name, t, seq, rotaryDim, o) {
  const len = lengthOf(t), half = rotaryDim / 2;
  if (len === undefined || len === seq * half) return;
  const given = len % seq === 0 ? `: ${len / seq} pairs a row, a table for rotaryDim ${2 * len / seq}` : '';
  const dim = o.rotaryDim === undefined ? `rotaryDim/2 = ${half}, rotaryDim defaulting to headDim` : `rotaryDim/2 = ${half}`;
  throw new RangeError(`${name} must have length ${seq * half} (x's ${seq} rows × ${dim}), got ${len}${given}`);
}

/** Options with a cos/sin table instead of positions: the table's own checks. */
function tableArgs(o) {
  if (o.positions !== undefined) throw new TypeError('give either positions or cos and sin, not both');
  if (o.base !== undefined || o.scaling !== undefined) {
    throw new TypeError('base and scaling have no effect with cos and sin tables (they are in the table); leave them out');
  }
}

export function applyRope(heap, x, opts) {
  const o = A.options('options', opts, APPLY_KEYS, 'applyRope');
  if (M.isMrope(o, o.positions)) return M.applyMrope(heap, x, o);
  const shape = ropeShape(o), { heads, headDim, rotaryDim } = shape;
  const row = heads * headDim, half = rotaryDim / 2;
  if (o.cos !== undefined || o.sin !== undefined) {
    tableArgs(o);
    const xs = A.numbers('x', x, Float32Array, { min: -Infinity, max: Infinity });
    if (xs.length % row !== 0) throw new RangeError(`x.length must be a multiple of heads × headDim = ${row}, got ${xs.length}`);
    const seq = xs.length / row, nt = A.elements('cos', seq, half);
    checkTable('cos', o.cos, seq, rotaryDim, o);
    checkTable('sin', o.sin, seq, rotaryDim, o);
    const cos = A.numbers('cos', o.cos, Float32Array, { length: nt, min: -Infinity, max: Infinity });
    const sin = A.numbers('sin', o.sin, Float32Array, { length: nt, min: -Infinity, max: Infinity });
    const out = A.outArray('out', o.out, Float32Array, xs.length);
    // block by block of seq rows: a row's result does not depend on the other rows
    const kernel = new TableRotation(heap, shape);
    return heap.scoped((h) => h.stream(seq, xs, row, out ?? new Float32Array(xs.length), !out, kernel, cos, sin, half));
  }
  const pos = RopeMemo.of(heap).holds(o.positions) ?? A.numbers('positions', o.positions, Float64Array, { min: 0, max: MAX_POSITION });
  const n = A.elements('x', pos.length, heads, headDim);
  checkRows(x, pos.length, heads, headDim);
  const xs = A.numbers('x', x, Float32Array, { length: n, min: -Infinity, max: Infinity });
  const out = A.outArray('out', o.out, Float32Array, n);
  const f = freqArgs(rotaryDim, o);
  needsSeqLen(o.scaling, pos);
  return heap.scoped((h) => {
    const rot = new Rotation(heap, h, pos, f, shape);
    // (posenc.h: a row's cos/sin depend only on its position, so blocks give the same bits)
    let ok = false;
    try {
      const y = h.stream(pos.length, xs, row, out ?? new Float32Array(n), !out, rot);
      ok = true;
      return y;
    } finally {
      rot.done(ok);
    }
  });
}

export function tensor(heap, lengthOrData) {
  let data = null;
  if (typeof lengthOrData === 'number') A.int('length', lengthOrData, 1);
  else data = A.numbers('data', lengthOrData, Float32Array);
  const t = new HeapArray(heap, Float32Array, data ? data.length : lengthOrData);
  if (!data) {
    t.array.fill(0);
    return t;
  }
  const u = data instanceof A.Unscanned ? data : null;
  t.array.set(u ? u.array : data);
  try {
    if (u) heap.scan(u, t.pointer);
  } catch (err) {
    t.free();
    throw err;
  }
  return t;
}

/** A live tensor of this instance, or a TypeError naming the parameter. */
function tensorArg(heap, name, t) {
  if (!(t instanceof HeapArray) || t.Type !== Float32Array) {
    throw new TypeError(`${name} must be a tensor from pe.tensor(), got ${A.show(t)}`);
  }
  if (!t.in(heap)) throw new TypeError(`${name} is a tensor of another posenc instance`);
  if (t.freed) throw new TypeError(`${name} was freed`);
  return t;
}

export function applyRopeInPlace(heap, x, opts) {
  const t = tensorArg(heap, 'x', x);
  const o = A.options('options', opts, IN_PLACE_KEYS, 'applyRopeInPlace');
  if (M.isMrope(o, o.positions)) return M.applyMropeInPlace(heap, t, o), x;
  const shape = ropeShape(o), { heads, headDim, style, rotaryDim } = shape;
  const row = heads * headDim;
  if (t.length % row !== 0) {
    throw new RangeError(`x.length must be a multiple of heads × headDim = ${row}, got ${t.length}`);
  }
  const seq = t.length / row;
  if (o.cos !== undefined || o.sin !== undefined) {
    tableArgs(o);
    const cos = tensorArg(heap, 'cos', o.cos), sin = tensorArg(heap, 'sin', o.sin);
    checkTable('cos', cos, seq, rotaryDim, o);
    checkTable('sin', sin, seq, rotaryDim, o);
    heap.call('posenc_rope_apply_table', t.pointer, t.pointer, seq, heads, headDim, rotaryDim, style,
      cos.pointer, sin.pointer);
    return x;
  }
  const np = lengthOf(o.positions);
  if (np !== undefined && np !== seq) {
    throw new RangeError(`positions must have length ${seq}, one per row of x (x.length ${t.length} / (heads ${heads} × headDim ${headDim})), got ${np}`);
  }
  const pos = RopeMemo.of(heap).holds(o.positions, seq) ??
    A.numbers('positions', o.positions, Float64Array, { length: seq, min: 0, max: MAX_POSITION });
  const f = freqArgs(rotaryDim, o);
  needsSeqLen(o.scaling, pos);
  heap.scoped((h) => {
    const rot = new Rotation(heap, h, pos, f, shape);
    let ok = false;
    try {
      rot.start();
      rot.block(t.pointer, seq, 0);
      ok = true;
    } finally {
      rot.done(ok);
    }
  });
  return x;
}
