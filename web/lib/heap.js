// heap.js: instantiates a posenc .wasm and owns every byte of its heap. Callers hand it
// typed arrays and get typed arrays back; nothing else in posenc touches wasm memory.
// Every allocation passes Heap.budget first: one call may use at most limits.callBytes, and
// the bytes live in the heap (tensors included) may not pass limits.heapBytes.
import { MAX_CALL_BYTES, MAX_HEAP_BYTES, Unscanned, rejectValue } from './args.js';

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
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11,
]);

export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

async function readBytes(url) {
  if (url.protocol === 'file:' && typeof process === 'object' && process.versions?.node) {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`posenc: cannot load ${url.href}: HTTP ${res.status}`);
  return res.arrayBuffer();
}

/** Compiles `source` (bytes, a WebAssembly.Module, or a URL) into a Heap. */
export async function instantiate(source) {
  let module = source;
  if (!(source instanceof WebAssembly.Module)) {
    const bytes = source instanceof URL || typeof source === 'string' ? await readBytes(new URL(source)) : source;
    module = await WebAssembly.compile(bytes);
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
    if (this.memory.buffer.byteLength + bytes > heapBytes) {
      const live = this.fn.posenc_heap_in_use();
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
    const ptrs = [];
    let used = 0;
    const scope = {
      alloc: (Type, n) => {
        const bytes = Math.max(1, n) * Type.BYTES_PER_ELEMENT;
        this.budget(bytes, used);
        const ptr = this.fn.malloc(bytes);
        if (!ptr) throw new RangeError(`posenc: out of wasm memory allocating ${n} × ${Type.name}`);
        used += bytes;
        ptrs.push(ptr);
        return ptr;
      },
      reserve: (bytes) => {
        this.budget(bytes, used);
        used += bytes;
      },
      copyIn: (arr) => {
        const u = arr instanceof Unscanned ? arr : null, src = u ? u.array : arr;
        const Type = u ? u.Type : arr.constructor;
        const ptr = scope.alloc(Type, src.length);
        new Type(this.memory.buffer, ptr, src.length).set(src);
        if (u) this.scan(u, ptr);
        return ptr;
      },
      // A view is only valid until the next allocation (memory growth detaches it): copy out,
      // into the caller's `out` array when there is one (checked first by outArray()).
      copyOut: (Type, ptr, n, out) => {
        const view = new Type(this.memory.buffer, ptr, n);
        if (!out) return view.slice();
        out.set(view);
        return out;
      },
    };
    try {
      return body(scope);
    } finally {
      if (!this.trapped) for (const p of ptrs) this.fn.free(p);
    }
  }

  /**
   * Checks the heap copy at `ptr` of an Unscanned argument: every value finite and in bounds
   * after conversion to the kernel's type. Throws the error numbers() would have thrown; the
   * caller's scope frees the copy.
   */
  scan(u, ptr) {
    const n = u.array.length;
    const bad = this.call(u.Type === Float32Array ? 'posenc_first_invalid_f32' : 'posenc_first_invalid_f64', ptr, n, u.min, u.max);
    if (bad !== n) rejectValue(u.name, bad, u.array[bad], u.min, u.max, u.Type);
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
