// heap.js: instantiates a posenc .wasm and owns every byte of its heap. Callers hand it
// typed arrays and get typed arrays back; nothing else in posenc touches wasm memory.
// Every allocation passes Heap.budget first: one call may use at most limits.callBytes, and
// the bytes live in the heap (tensors included) may not pass limits.heapBytes.
import { MAX_CALL_BYTES, MAX_HEAP_BYTES, Unscanned, rejectValue } from './args.js';

/** What the RoPE rotations return, the rotation done, when x held a NaN or an infinity. */
export const NONFINITE = 1;

export const STATUS = {
  [-1]: 'a required pointer is NULL',
  [-2]: 'a size is zero or too large',
  [-3]: 'a dimension must be even',
  [-4]: 'rotaryDim must be even, >= 2 and <= headDim',
  [-5]: 'base must be finite and >= 1',
  [-6]: 'a position or distance is negative or not finite',
  [-7]: 'unknown RoPE style',
  [-8]: 'unknown sinusoidal layout',
  [-9]: 'a value is not finite or out of range',
  [-10]: 'unknown kind',
};

// A module whose only function returns i8x16.splat(0): valid exactly where WASM SIMD is.
export const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11,
]);

export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

// Named through a variable and the bundlers' ignore comments, so that a browser bundle of the API
// builds with no setting: bundlers leave the import alone, and a browser never reaches it.
const NODE_FS = 'node:fs/promises';

async function readBytes(url) {
  if (url.protocol === 'file:' && typeof process === 'object' && process.versions?.node) {
    const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ NODE_FS);
    return readFile(url);
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`posenc: cannot load ${url.href}: HTTP ${res.status}`);
  return res.arrayBuffer();
}

/**
 * The module at `url` (http or https), compiled as it arrives, off the main thread; a server that
 * sends .wasm with another type than application/wasm gets it compiled from its bytes.
 */
export async function compileFrom(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`posenc: cannot load ${url.href}: HTTP ${res.status}`);
  try {
    return await WebAssembly.compileStreaming(res.clone());
  } catch {
    return WebAssembly.compile(await res.arrayBuffer());
  }
}

/** Compiles `source` (bytes, a WebAssembly.Module, or a URL) into a Heap. */
export async function instantiate(source) {
  let module = source;
  if (!(source instanceof WebAssembly.Module)) {
    const url = source instanceof URL || typeof source === 'string' ? new URL(source) : null;
    module = url && url.protocol !== 'file:' && typeof WebAssembly.compileStreaming === 'function' ? await compileFrom(url)
      : await WebAssembly.compile(url ? await readBytes(url) : source);
  }
  let heap;
  const imports = { env: { emscripten_notify_memory_growth: () => heap?.grown() } };
  const instance = await WebAssembly.instantiate(module, imports);
  instance.exports._initialize?.();
  heap = new Heap(instance.exports);
  return heap;
}

export class Heap {
  constructor(exports) {
    this.fn = exports;
    this.memory = exports.memory;
    this.growths = 0;
    this.limits = { callBytes: MAX_CALL_BYTES, heapBytes: MAX_HEAP_BYTES };
    this.trapped = null; // the WebAssembly.RuntimeError that made this instance unusable
    this.views = new Map(); // typed-array type -> a view of all of wasm memory (see view())
    this.f32 = undefined;
    this.f64 = undefined;
    this.u8 = undefined;
    this.kept = null; // what keeps heap memory between calls (rope.js's table memo): kept.drop() frees it
    // (taken at load, so that it is part of the heap in use before any call, as the static data is;
    // malloc aligns to 8 bytes, v128 loads want 16)
    this.scratch = (exports.malloc(SCRATCH_BYTES + 8) + 15) & ~15;
    this.scratchTop = 0; // bytes of it the scopes under way hold
  }

  /**
   * A `Type` view of all of wasm memory, index = byte address / Type.BYTES_PER_ELEMENT. Taken
   * once and again only after memory has grown: growth detaches the old buffer, and a view of a
   * detached buffer has length 0 (wasm memory itself never has).
   */
  view(Type) {
    // (the types every call uses, without a Map lookup)
    let v = Type === Float32Array ? this.f32 : Type === Float64Array ? this.f64 : Type === Uint8Array ? this.u8 : this.views.get(Type);
    if (v === undefined || v.length === 0) {
      v = new Type(this.memory.buffer);
      if (Type === Float32Array) this.f32 = v;
      else if (Type === Float64Array) this.f64 = v;
      else if (Type === Uint8Array) this.u8 = v;
      else this.views.set(Type, v);
    }
    return v;
  }

  /**
   * Throws a RangeError, before anything is allocated, unless `bytes` more (with `used`
   * already taken by this call) fit the per-call limit and the live-heap limit. Wasm memory
   * only grows: while it is below the heap limit there is nothing more to check; past it the
   * allocator's in-use count decides (mallinfo walks the heap, so not on every call).
   */
  budget(bytes, used = 0) {
    const { callBytes, heapBytes } = this.limits;
    if (!(Number.isSafeInteger(bytes) && bytes >= 0) || used + bytes > callBytes) {
      throw new RangeError(`posenc: this call needs ${used + bytes} bytes of wasm memory; the limit per call is ${callBytes}`);
    }
    if (this.view(Uint8Array).length + bytes > heapBytes) {
      let live = this.fn.posenc_heap_in_use();
      if (live + bytes > heapBytes && this.kept) {
        this.kept.drop(); // a table kept between calls gives way before a call is refused
        live = this.fn.posenc_heap_in_use();
      }
      if (live + bytes > heapBytes) {
        throw new RangeError(`posenc: the wasm heap would hold ${live + bytes} bytes; the limit is ${heapBytes} (free tensors no longer needed)`);
      }
    }
  }

  grown() {
    this.growths++;
  }

  /**
   * Runs body(scope) and frees whatever scope allocated, even when body throws. The scope's
   * allocations, and the kernel scratch it declares with reserve(bytes), count against one
   * call's budget.
   */
  scoped(body) {
    this.usable();
    const scope = new Scope(this);
    try {
      return body(scope);
    } finally {
      this.scratchTop = scope.mark;
      if (!this.trapped) for (const p of scope.ptrs) this.fn.free(p);
    }
  }

  /**
   * Checks the heap copy at `ptr` of elements [from, from + n) of an Unscanned argument: every
   * value finite and in bounds after conversion to the kernel's type. Throws the error
   * numbers() would have thrown; the caller's scope frees the copy.
   */
  scan(u, ptr, from = 0, n = u.array.length - from) {
    const bad = this.call(u.Type === Float32Array ? 'posenc_first_invalid_f32' : 'posenc_first_invalid_f64', ptr, n, u.min, u.max);
    if (bad !== n) rejectValue(u.name, from + bad, u.array[from + bad], u.min, u.max, u.Type);
  }

  /** Throws when a trap has left this instance's memory in an unknown state. */
  usable() {
    if (this.trapped) throw new Error(`posenc: this instance stopped after a WebAssembly trap (${this.trapped.message}); load a new one`);
  }

  /**
   * Calls export `name`; a negative status becomes a RangeError naming the call. A trap
   * (which the kernels never raise: their checks return a status first) fails closed: the
   * instance refuses every later call rather than run on a heap it cannot trust.
   */
  call(name, ...args) {
    this.usable();
    let rc;
    try {
      rc = this.fn[name](...args);
    } catch (err) {
      if (err instanceof WebAssembly.RuntimeError) this.trapped = err;
      throw err;
    }
    if (rc < 0) throw new RangeError(`posenc: ${name} rejected its arguments: ${STATUS[rc] ?? `status ${rc}`}`);
    return rc;
  }
}

/**
 * Bytes of one block of a row-wise call (Scope.stream): its inputs' rows, small enough that the
 * copy in, the scan, the kernel and the copy out of a block all find it in the L2 cache
 * (512 KiB a core on the machine measured: 64 KiB to 1 MiB blocks ran within 10 % of each other,
 * and 1.3x faster than the whole tensor at once at 2048×32×128).
 */
export const BLOCK_BYTES = 256 * 1024;

/**
 * Bytes of the scratch region a heap keeps from its load on: a scope takes its allocations from
 * it while they fit and returns them when it ends (scopes nest, so it is a stack), and mallocs
 * the rest. A decode step (one row of 32 heads × 128) then costs no malloc or free at all.
 */
export const SCRATCH_BYTES = 64 * 1024;

const arrayOf = (a) => (a instanceof Unscanned ? a.array : a);

/** The allocations of one heap.scoped() call, freed together when it returns or throws. */
class Scope {
  constructor(heap) {
    this.heap = heap;
    this.ptrs = [];
    this.used = 0;
    this.mark = heap.scratchTop; // where this scope's part of the scratch region starts
  }

  alloc(Type, n) {
    const bytes = Math.max(1, n) * Type.BYTES_PER_ELEMENT, heap = this.heap;
    heap.budget(bytes, this.used);
    const top = heap.scratchTop, end = top + bytes + (-bytes & 15); // (16-byte aligned, for v128 and f64)
    if (end <= SCRATCH_BYTES) {
      heap.scratchTop = end;
      this.used += bytes;
      return heap.scratch + top;
    }
    const ptr = heap.fn.malloc(bytes);
    if (!ptr) throw new RangeError(`posenc: out of wasm memory allocating ${n} × ${Type.name}`);
    this.used += bytes;
    this.ptrs.push(ptr);
    return ptr;
  }

  reserve(bytes) {
    this.heap.budget(bytes, this.used);
    this.used += bytes;
  }

  /** A heap copy of `arr` (a typed array, or an Unscanned one: its copy is scanned). */
  copyIn(arr) {
    const u = arr instanceof Unscanned ? arr : null, src = u ? u.array : arr;
    const ptr = this.alloc(u ? u.Type : arr.constructor, src.length);
    this.put(arr, ptr, 0, src.length, true);
    return ptr;
  }

  /** Copies elements [from, from + n) of `arr` (as copyIn takes it) to `ptr`; scans them when `scan`. */
  put(arr, ptr, from, n, scan) {
    const u = arr instanceof Unscanned ? arr : null, src = u ? u.array : arr;
    const Type = u ? u.Type : arr.constructor;
    const part = from === 0 && n === src.length ? src : src.subarray(from, from + n);
    this.heap.view(Type).set(part, ptr / Type.BYTES_PER_ELEMENT);
    if (u && scan) this.heap.scan(u, ptr, from, n);
  }

  // Views of wasm memory are only valid until the next allocation (growth detaches them):
  // results are copied out, into the caller's `out` array when there is one (checked first
  // by outArray()).
  /** An output of n × Type: fill(pointer) runs the kernel that writes it; then it is copied out. */
  output(Type, n, out, fill) {
    const ptr = this.alloc(Type, n);
    fill(ptr);
    return this.copyOut(Type, ptr, n, out);
  }

  copyOut(Type, ptr, n, out) {
    const at = ptr / Type.BYTES_PER_ELEMENT, view = this.heap.view(Type);
    if (!out) return view.slice(at, at + n);
    out.set(view.subarray(at, at + n));
    return out;
  }

  /**
   * Runs a row kernel over `rows` rows of x (as numbers() gave it: `per` float32 a row) and, when
   * given, of cos and sin (`half` a row), block by block (BLOCK_BYTES of their rows at a time):
   * each block is copied into the heap, kernel.block(px, nr, r0, pc, ps) rotates rows
   * [r0, r0 + nr) in place at px, and px is copied to the same rows of `result`. kernel.start()
   * runs once, after this call's allocations and before the first value is checked (so that
   * what it checks itself, positions, is named first). The kernel checks x, cos and sin (the
   * RoPE rotations: a pair's first output is not finite whenever x, cos or sin is not) and
   * returns NONFINITE when it met a NaN or an infinity (or a rotation overflowed): then the
   * block's cos, sin and x are checked in JS, in that order, which throws the error a scan would
   * have (an overflow passes). Every value is checked before the first row of `result` is
   * written: with more than one block and `fresh` false (result is the caller's), a first pass
   * scans every block. Returns `result`.
   */
  stream(rows, xs, per, result, fresh, kernel, cos = null, sin = null, half = 0) {
    const heap = this.heap, xa = arrayOf(xs), ca = cos && arrayOf(cos), sa = sin && arrayOf(sin);
    let nb = Math.max(1, Math.min(rows, Math.floor(BLOCK_BYTES / (4 * per + (cos ? 8 * half : 0)))));
    // a caller's result that shares memory with an input is written only after every input is in
    if (!fresh && nb < rows && (xa.buffer === result.buffer || ca?.buffer === result.buffer || sa?.buffer === result.buffer)) nb = rows;
    const px = this.alloc(Float32Array, nb * per);
    const pc = cos ? this.alloc(Float32Array, nb * half) : 0, ps = cos ? this.alloc(Float32Array, nb * half) : 0;
    kernel.start();
    const scanFirst = !fresh && nb < rows;
    for (let r0 = 0; scanFirst && r0 < rows; r0 += nb) {
      const nr = Math.min(nb, rows - r0);
      if (cos) this.put(cos, pc, r0 * half, nr * half, true), this.put(sin, ps, r0 * half, nr * half, true);
      this.put(xs, px, r0 * per, nr * per, true);
    }
    const at = px / 4;
    for (let r0 = 0; r0 < rows; r0 += nb) {
      const nr = Math.min(nb, rows - r0), n = nr * per, whole = nr === rows, f32 = heap.view(Float32Array);
      f32.set(whole ? xa : xa.subarray(r0 * per, r0 * per + n), at);
      if (cos) {
        const m = nr * half;
        f32.set(whole ? ca : ca.subarray(r0 * half, r0 * half + m), pc / 4);
        f32.set(whole ? sa : sa.subarray(r0 * half, r0 * half + m), ps / 4);
      }
      if (kernel.block(px, nr, r0, pc, ps) === NONFINITE) {
        if (cos instanceof Unscanned) cos.check(r0 * half, nr * half);
        if (sin instanceof Unscanned) sin.check(r0 * half, nr * half);
        if (xs instanceof Unscanned) xs.check(r0 * per, n);
      }
      result.set(heap.view(Float32Array).subarray(at, at + n), r0 * per);
    }
    return result;
  }
}

/**
 * An allocation in the wasm heap that outlives one call: the zero-copy path. `array` is a
 * typed-array view over it, re-taken whenever wasm memory has grown (growth detaches the old
 * buffer, and a view over it then reads as length 0). free() returns the bytes; after it
 * `array` and `pointer` throw. Freeing twice is harmless.
 */
export class HeapArray {
  #heap;
  #ptr;
  #view = null;

  constructor(heap, Type, length) {
    heap.usable();
    heap.budget(Math.max(1, length) * Type.BYTES_PER_ELEMENT);
    const ptr = heap.fn.malloc(Math.max(1, length) * Type.BYTES_PER_ELEMENT);
    if (!ptr) throw new RangeError(`posenc: out of wasm memory allocating ${length} × ${Type.name}`);
    this.#heap = heap;
    this.#ptr = ptr;
    this.Type = Type;
    this.length = length;
  }

  get freed() {
    return this.#ptr === 0;
  }

  /** Whether this allocation lives in `heap`. */
  in(heap) {
    return this.#heap === heap;
  }

  /** The byte address in the heap, for kernel calls. */
  get pointer() {
    if (!this.#ptr) throw new TypeError('posenc: this tensor was freed');
    return this.#ptr;
  }

  get array() {
    const buffer = this.#heap.memory.buffer;
    if (this.#view?.buffer !== buffer) this.#view = new this.Type(buffer, this.pointer, this.length);
    return this.#view;
  }

  free() {
    if (!this.#ptr) return;
    this.#heap.fn.free(this.#ptr);
    this.#ptr = 0;
    this.#view = null;
  }
}
