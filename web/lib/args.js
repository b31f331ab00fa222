// args.js: argument checks for the public API. Each throws a TypeError (wrong kind of
// value) or RangeError (right kind, bad value) naming the parameter and the value it got,
// before anything touches the wasm heap.

/** Largest element count of any one array a call may create or accept (256 MiB of float32). */
export const MAX_ELEMENTS = 2 ** 26;

/**
 * Most bytes of wasm memory one call may use: its inputs, outputs and the kernel's own scratch
 * together (512 MiB). A call that would need more throws a RangeError before it allocates.
 */
export const MAX_CALL_BYTES = 2 ** 29;

/**
 * Most bytes the wasm heap may hold live at once, tensors from pe.tensor() included (1 GiB).
 * A call or tensor that would pass it throws a RangeError before it allocates.
 */
export const MAX_HEAP_BYTES = 2 ** 30;

export function show(v) {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (typeof v === 'bigint') return `${v}n`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length})`;
  if (Array.isArray(v)) return `Array(${v.length})`;
  if (v === null || typeof v !== 'object') return String(v);
  return Object.prototype.toString.call(v);
}

export function int(name, v, min, max = MAX_ELEMENTS) {
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new TypeError(`${name} must be an integer, got ${show(v)}`);
  }
  if (v < min || v > max) throw new RangeError(`${name} must be in [${min}, ${max}], got ${v}`);
  return v;
}

export function evenInt(name, v, min, max) {
  int(name, v, min, max);
  if (v % 2 !== 0) throw new RangeError(`${name} must be even, got ${v}`);
  return v;
}

export function num(name, v, min = -Infinity, max = Infinity) {
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, got ${show(v)}`);
  if (!Number.isFinite(v)) throw new RangeError(`${name} must be finite, got ${v}`);
  if (v < min || v > max) throw new RangeError(`${name} must be ${range(min, max)}, got ${v}`);
  return v;
}

/** Bounds as a reader says them: "in [1, 8]", ">= 1", "> 0" (min Number.MIN_VALUE), "" for none. */
export function range(min, max) {
  const lo = min === Number.MIN_VALUE ? '(0' : `[${min}`;
  if (max === Infinity) return min === -Infinity ? '' : min === Number.MIN_VALUE ? '> 0' : `>= ${min}`;
  if (min === -Infinity) return `<= ${max}`;
  return `in ${lo}, ${max}]`;
}

export function bool(name, v) {
  if (typeof v !== 'boolean') throw new TypeError(`${name} must be true or false, got ${show(v)}`);
  return v;
}

export function oneOf(name, v, allowed) {
  if (!allowed.includes(v)) {
    const list = allowed.map((a) => JSON.stringify(a)).join(', ');
    throw new (typeof v === 'string' ? RangeError : TypeError)(`${name} must be one of ${list}, got ${show(v)}`);
  }
  return v;
}

/**
 * An options object of `method`, whose keys must all be in `known` (an array of names): a
 * misspelt key is a TypeError naming it, the method and, where there is one, the key meant
 * (config.json's snake_case, a small typo, or a key of another method). Without `known` any
 * key passes (nested objects checked by their own code).
 */
export function options(name, v, known, method) {
  if (v === undefined) return {};
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new TypeError(`${name} must be an options object, got ${show(v)}`);
  }
  if (known) {
    const set = known[KEY_SET];
    for (const k in v) {
      if (!(set ? set.has(k) : known.includes(k)) && Object.hasOwn(v, k)) throw unknownKey(k, known, `${method}'s ${name}`);
    }
  }
  return v;
}

/** Which methods take each option key: filled by optionKeys(), read for suggestions. */
const OWNERS = new Map();
/** The Set of an optionKeys() array's keys, for options() (which runs on every call). */
const KEY_SET = Symbol('keys');

/** Declares `method`'s option keys (for options() and for other methods' suggestions). */
export function optionKeys(method, keys) {
  for (const k of keys) OWNERS.set(k, [...(OWNERS.get(k) ?? []), method]);
  if (!Object.isFrozen(keys)) Object.defineProperty(keys, KEY_SET, { value: new Set(keys) });
  return Object.freeze(keys);
}

/** The TypeError for an unknown key, with the nearest known one or the methods that take it. */
export function unknownKey(key, known, where) {
  const guess = suggest(key, known);
  let hint = guess ? `; did you mean ${JSON.stringify(guess)}?` : '';
  const owners = OWNERS.get(key);
  if (!guess && owners) hint = `; it is an option of ${owners.join(', ')}`;
  const expected = known.length <= 12 ? ` (expected one of ${known.map((k) => JSON.stringify(k)).join(', ')})` : '';
  return new TypeError(`${where} has no key ${show(String(key))}${hint || expected}`);
}

/**
 * The name in `known` that `key` most likely meant, or null: its camelCase form (rotary_dim ->
 * rotaryDim), the same letters in another case, the one name it begins (a name cut short, of 6
 * letters or more), or the nearest name within a small edit distance (a third of its length, at
 * least 1; at most maxDistance).
 */
export function suggest(key, known, maxDistance = Infinity) {
  const camel = key.replace(/[_-]+([a-z0-9])/gi, (_, c) => c.toUpperCase());
  const fold = (s) => s.toLowerCase().replace(/[_-]/g, '');
  for (const k of known) if (k === camel || fold(k) === fold(key)) return k;
  const longer = fold(key).length >= 6 ? known.filter((k) => fold(k).startsWith(fold(key))) : [];
  if (longer.length === 1) return longer[0];
  let best = null, bestD = Math.min(maxDistance, Math.max(1, Math.floor(key.length / 3))) + 1;
  for (const k of known) {
    const d = editDistance(fold(key), fold(k), bestD);
    if (d < bestD) (best = k), (bestD = d);
  }
  return best;
}

/** Edit distance of a and b (insert, delete, substitute, swap two neighbours), or `cap` once it reaches it. */
function editDistance(a, b, cap) {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let prev2 = null, prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let low = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (prev2 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], prev2[j - 2] + 1);
      low = Math.min(low, cur[j]);
    }
    if (low >= cap) return cap;
    prev2 = prev;
    prev = cur;
  }
  return Math.min(prev[b.length], cap);
}

/**
 * An array or typed array of numbers for a kernel argument of `Type`. A plain array is checked
 * and copied into a new `Type` now; a typed array comes back wrapped as `Unscanned`, and its
 * values are checked when heap.js copies it into the heap.
 */
export function numbers(name, v, Type, { length, min = -Infinity, max = Infinity, minLength = 1 } = {}) {
  // (the common case first: a float typed array, checked later where it is copied)
  if ((v instanceof Float32Array || v instanceof Float64Array) && (Type === Float32Array || Type === Float64Array) &&
    (length === undefined || v.length === length) && v.length >= minLength && v.length <= MAX_ELEMENTS) {
    return unscanned(v, name, Type, min, max);
  }
  if (!(Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView)))) {
    throw new TypeError(`${name} must be an array or typed array of numbers, got ${show(v)}`);
  }
  if (length !== undefined && v.length !== length) {
    throw new RangeError(`${name} must have length ${length}, got ${v.length}`);
  }
  if (v.length < minLength || v.length > MAX_ELEMENTS) {
    throw new RangeError(`${name} length must be in [${minLength}, ${MAX_ELEMENTS}], got ${v.length}`);
  }
  if (v instanceof BigInt64Array || v instanceof BigUint64Array) {
    throw new TypeError(`${name} must be an array or typed array of numbers, got ${show(v)}`);
  }
  // (Only into float types: converting into an integer type wraps and truncates, so NaN or
  // 2^32 + 1 would arrive as a valid-looking 0 or 1; integer targets take the checked loop.)
  if (ArrayBuffer.isView(v) && (Type === Float32Array || Type === Float64Array)) return unscanned(v, name, Type, min, max);
  const out = new Type(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    check(name, i, x, min, max);
    out[i] = x;
  }
  return out;
}

// Typed input is checked where it is copied into the wasm heap, by a SIMD scan of the copy
// (heap.js copyIn; a JS scan costs 2-3 ns per number, more than the kernels). Memory another
// thread may write is copied now, so that what is scanned is what is used.
function unscanned(v, name, Type, min, max) {
  const shared = typeof SharedArrayBuffer === 'function' && v.buffer instanceof SharedArrayBuffer;
  return new Unscanned(shared ? v.slice() : v, name, Type, min, max);
}

/**
 * A typed array that numbers() accepted without looking at its values, for a kernel argument of
 * `Type`: whatever copies it into the heap (heap.js copyIn) must scan the copy before a kernel
 * reads it. (A wrapper per argument, so one array passed as two arguments keeps both names.)
 */
export class Unscanned {
  constructor(array, name, Type, min, max) {
    this.array = array;
    this.name = name;
    this.Type = Type;
    this.min = min;
    this.max = max;
  }

  get length() {
    return this.array.length;
  }

  /**
   * Throws the error a scan of the heap copy of elements [from, from + n) would throw (each
   * converted to Type first, as the copy converts it). A JS loop, for when a kernel that checks
   * its input itself reported a bad value: 2-3 ns an element, so never on the common path.
   */
  check(from, n) {
    const a = this.array, f32 = this.Type === Float32Array;
    for (let i = from; i < from + n; i++) {
      const v = f32 ? Math.fround(a[i]) : a[i];
      if (!(Number.isFinite(v) && v >= this.min && v <= this.max)) rejectValue(this.name, i, a[i], this.min, this.max, this.Type);
    }
  }
}

/** Throws the error numbers() gives for value x at index i of argument `name`, converted to Type. */
export function rejectValue(name, i, x, min, max, Type) {
  check(name, i, x, min, max);
  throw new RangeError(`${name}[${i}] = ${x} does not fit in ${Type.name}`);
}

function check(name, i, x, min, max) {
  if (typeof x !== 'number') throw new TypeError(`${name}[${i}] must be a number, got ${show(x)}`);
  if (!(Number.isFinite(x) && x >= min && x <= max)) {
    const r = range(min, max);
    throw new RangeError(`${name}[${i}] must be finite${r && ` and ${r}`}, got ${x}`);
  }
}

/** The product of sizes as an element count, capped at MAX_ELEMENTS. */
export function elements(what, ...sizes) {
  const n = sizes.reduce((a, b) => a * b, 1);
  if (n > MAX_ELEMENTS) {
    throw new RangeError(`${what} would have ${n} elements; the limit is ${MAX_ELEMENTS} (${sizes.join(' × ')})`);
  }
  return n;
}

/**
 * A caller-owned output array: undefined (the call allocates one), or a `Type` of exactly `n`
 * elements, which the call fills and returns instead of allocating.
 */
export function outArray(name, out, Type, n) {
  if (out === undefined) return undefined;
  if (!(out instanceof Type)) throw new TypeError(`${name} must be a ${Type.name}, got ${show(out)}`);
  if (out.length !== n) throw new RangeError(`${name} must have ${n} elements, got ${out.length}`);
  return out;
}

/**
 * A caller-owned output of several arrays, `method`'s options.out (`{ cos, sin }`,
 * `{ output, weights }`, ...): `parts` maps each name to [Type, n]. Returns {} when out is
 * undefined, else each part as outArray() checks it (a part left out is allocated by the call).
 */
export function outParts(out, method, parts) {
  if (out === undefined) return {};
  const o = options('out', out, Object.keys(parts), method);
  return Object.fromEntries(Object.entries(parts).map(([k, [Type, n]]) => [k, outArray(`out.${k}`, o[k], Type, n)]));
}
