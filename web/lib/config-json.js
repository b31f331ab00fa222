// config-json.js: a config.json as rope-config.js may read it: text or object, its size, depth
// and value count bounded, keys that could reach a prototype refused, and typed getters that
// name the key and the value in their errors.
import * as A from './args.js';

/** Longest config.json text accepted, in UTF-8 bytes (1 MiB). */
export const MAX_CONFIG_BYTES = 2 ** 20;
/** Deepest nesting accepted (a real config nests 4 or 5 levels: text_config.rope_parameters.full_attention.long_factor). */
export const MAX_CONFIG_DEPTH = 16;
/** Most values (objects, arrays and scalars together) a config may hold. */
export const MAX_CONFIG_VALUES = 2 ** 18;

// Keys that could reach an object's prototype if a consumer copied them naively: refused anywhere.
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);


/** config.json text or object → a checked plain object (depth, size and keys bounded). */
export function load(config) {
  let root = config;
  if (typeof config === 'string') {
    if (config.length > MAX_CONFIG_BYTES || utf8Length(config) > MAX_CONFIG_BYTES) {
      throw new RangeError(`config text must be at most ${MAX_CONFIG_BYTES} bytes, got ${utf8Length(config)}`);
    }
    try {
      root = JSON.parse(config);
    } catch (e) {
      if (e instanceof SyntaxError) throw new TypeError(`config is not valid JSON: ${e.message}`);
      throw new RangeError(`config nests too deeply to parse (${e.message})`);
    }
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    throw new TypeError(`config must be a config.json object or its JSON text, got ${A.show(root)}`);
  }
  check(root);
  return root;
}

/** Walks the whole value without recursion: depth, count and forbidden keys. */
export function check(root) {
  const stack = [[root, 0, 'config']];
  let seen = 0;
  while (stack.length > 0) {
    const [v, depth, where] = stack.pop();
    if (++seen > MAX_CONFIG_VALUES) throw new RangeError(`config holds more than ${MAX_CONFIG_VALUES} values`);
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_CONFIG_DEPTH) throw new RangeError(`config nests deeper than ${MAX_CONFIG_DEPTH} levels (at ${where})`);
    if (Array.isArray(v)) {
      if (v.length > MAX_CONFIG_VALUES) throw new RangeError(`${where} has ${v.length} entries; the limit is ${MAX_CONFIG_VALUES}`);
      for (let i = 0; i < v.length; i++) stack.push([v[i], depth + 1, where]);
      continue;
    }
    for (const k of Object.keys(v)) {
      if (FORBIDDEN.has(k)) throw new RangeError(`config key ${JSON.stringify(k)} is not allowed (in ${where})`);
      stack.push([v[k], depth + 1, k]);
    }
    // a __proto__ key set by an object literal changes the prototype rather than adding a key
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      throw new TypeError(`${where} must be a plain object (as JSON.parse makes), got ${A.show(v)}`);
    }
  }
}

function utf8Length(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u < 0x80) n += 1;
    else if (u < 0x800) n += 2;
    else if (u >= 0xd800 && u < 0xdc00 && i + 1 < s.length) { n += 4; i++; }
    else n += 3;
  }
  return n;
}

/** An own property of a plain object; null (JSON null) counts as absent. */
export function get(o, k) {
  if (o === null || o === undefined || typeof o !== 'object' || Array.isArray(o) || !Object.hasOwn(o, k)) return undefined;
  const v = o[k];
  return v === null ? undefined : v;
}

export function record(name, v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${name} must be an object, got ${A.show(v)}`);
  return v;
}

export function number(name, v, min) {
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number ${A.range(min, Infinity)}, got ${A.show(v)}`);
  if (!Number.isFinite(v) || v < min) throw new RangeError(`${name} must be a finite number ${A.range(min, Infinity)}, got ${v}`);
  return v;
}

export function count(name, v, min) {
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new (typeof v === 'number' ? RangeError : TypeError)(`${name} must be an integer >= ${min}, got ${A.show(v)}`);
  }
  if (v < min || v > 2 ** 31) throw new RangeError(`${name} must be an integer in [${min}, ${2 ** 31}], got ${v}`);
  return v;
}

export function optCount(at, c, keys, min) {
  for (const k of keys) if (get(c, k) !== undefined) return count(`${at}${k}`, get(c, k), min);
  return undefined;
}

export function optString(name, v) {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new TypeError(`${name} must be a string, got ${A.show(v)}`);
  return v;
}

export function numbers(name, v) {
  if (!Array.isArray(v)) throw new TypeError(`${name} must be an array of numbers, got ${A.show(v)}`);
  return v.map((x, i) => number(`${name}[${i}]`, x, Number.MIN_VALUE));
}

export function ints(name, v, min, max = 2 ** 31) {
  if (!Array.isArray(v)) throw new TypeError(`${name} must be an array of integers, got ${A.show(v)}`);
  return v.map((x, i) => {
    const n = count(`${name}[${i}]`, x, min);
    if (n > max) throw new RangeError(`${name}[${i}] must be in [${min}, ${max}], got ${n}`);
    return n;
  });
}

export function names(name, v) {
  if (!Array.isArray(v)) throw new TypeError(`${name} must be an array of strings, got ${A.show(v)}`);
  return v.map((x, i) => {
    if (typeof x !== 'string' || x === '') throw new TypeError(`${name}[${i}] must be a layer type name, got ${A.show(x)}`);
    if (FORBIDDEN.has(x)) throw new RangeError(`${name}[${i}] must not be ${JSON.stringify(x)}`);
    return x;
  });
}
