// instance.js: the Posenc class, posenc's C kernels bound to one instance's heap, and its loader.
// The methods live by family in rope.js (mRoPE and the attention temperature in mrope.js) and
// decay.js, imported here; the others come in as objects, so that code which never calls them
// need not load them: the tables and attention (tables-attention.js: tables.js, attention.js,
// relative.js), and the families that read a model's config, a GGUF or its weights, or train the
// lab (families.js, with the former: rope-config.js, vectors.js, llamacpp.js, runtimes.js,
// layer.js, lab.js; a third of the API's code). web/lib/posenc.js, the public API, always passes
// families.js; the light embed passes each only for the charts that call it (TABLE_METHODS,
// FAMILY_METHODS).
// Types and documentation of every method: posenc.d.ts.
import { instantiate, simdSupported } from './heap.js';
import * as A from './args.js';
import * as rope from './rope.js';
import * as decay from './decay.js';
import { attentionTemperature } from './mrope.js';

/** The methods that call tables-attention.js: a caller that uses none of them can load without it. */
export const TABLE_METHODS = Object.freeze(['sinusoidal', 'binary', 'shiftSinusoidal', 'attention', 'dynamicKvCache', 'gram', 'rowDots',
  'rowCosines', 'orderDemo', 'alibiSlopes', 'alibiBias', 'randomNormal', 't5Bucket', 'xposScale']);

/** The methods that call families.js (beyond TABLE_METHODS): a caller that uses none of them can load without it. */
export const FAMILY_METHODS = Object.freeze(['ropeScaling', 'ropeConfig', 'ropeVectors', 'llamaCppRope', 'llamaCppCache', 'compareRuntimes',
  'layerAttention', 'pairEnergy', 'train']);

const BUILDS = {
  simd: new URL('../build/posenc.wasm', import.meta.url),
  scalar: new URL('../build/posenc-scalar.wasm', import.meta.url),
};

const LOAD_KEYS = A.optionKeys('loadPosenc', ['simd', 'source', 'maxCallBytes', 'maxHeapBytes']);

/**
 * Loads the kernels (loadPosenc's options: see posenc.js) into a Posenc with `families`
 * (families.js's exports, or tables-attention.js's), or without them (null) until addFamilies()
 * gives them.
 */
export async function loadInstance(opts, families) {
  const o = A.options('options', opts, LOAD_KEYS, 'loadPosenc');
  const simd = A.oneOf('options.simd', o.simd ?? 'auto', ['auto', true, false]);
  const callBytes = A.int('options.maxCallBytes', o.maxCallBytes ?? A.MAX_CALL_BYTES, 1, A.MAX_CALL_BYTES);
  const heapBytes = A.int('options.maxHeapBytes', o.maxHeapBytes ?? A.MAX_HEAP_BYTES, 1, A.MAX_HEAP_BYTES);
  const useSimd = simd === 'auto' ? simdSupported() : simd;
  if (useSimd && !simdSupported()) throw new Error('posenc: this engine has no WebAssembly SIMD; use { simd: false }');
  const heap = await instantiate(o.source ?? (useSimd ? BUILDS.simd : BUILDS.scalar));
  heap.limits = { callBytes, heapBytes };
  const pe = new Posenc(heap);
  if (families) addFamilies(pe, families);
  return pe;
}

let setFamilies;
/** Gives an instance families.js's or tables-attention.js's exports (the light embed, when a chart needs them). */
export function addFamilies(pe, families) {
  setFamilies(pe, families);
}

class Posenc {
  #heap;
  #families = null;

  static {
    setFamilies = (pe, families) => {
      pe.#families = { ...pe.#families, ...families };
    };
  }

  constructor(heap) {
    this.#heap = heap;
    /** true when the loaded module is the WASM SIMD build */
    this.simd = heap.fn.posenc_simd() === 1;
    /** { callBytes, heapBytes }: the memory limits this instance enforces (see loadPosenc) */
    this.limits = Object.freeze({ ...heap.limits });
    Object.freeze(this);
  }

  /** The function `name` of the families given, or an Error naming `method` when this instance was loaded without it. */
  #family(method, name = method) {
    const fn = this.#families?.[name];
    if (typeof fn !== 'function') throw new Error(`posenc: ${method} is not loaded in this build; load the API with loadPosenc() from 'posenc'`);
    return fn;
  }

  /**
   * Wasm heap use: { inUse: bytes malloc has handed out, total: bytes of wasm memory, cached:
   * the part of inUse kept between calls (the RoPE table memo, at most 1 MiB) }.
   */
  heapBytes() {
    const heap = this.#heap;
    return { inUse: heap.fn.posenc_heap_in_use(), total: heap.memory.buffer.byteLength, cached: heap.kept?.bytes ?? 0 };
  }

  sinusoidal(length, dim, options) {
    return this.#family('sinusoidal')(this.#heap, length, dim, options);
  }

  binary(length, bits, options) {
    return this.#family('binary')(this.#heap, length, bits, options);
  }

  shiftSinusoidal(vectors, k, options) {
    return this.#family('shiftSinusoidal')(this.#heap, vectors, k, options);
  }

  ropeInvFreq(rotaryDim, options) {
    return rope.ropeInvFreq(this.#heap, rotaryDim, options);
  }

  ropeAttentionFactor(rotaryDim, options) {
    return rope.ropeAttentionFactor(this.#heap, rotaryDim, options);
  }

  /** { base, rotaryDim, scaling } of a config's RoPE layers (or a bare scaling block), as options: rope-config.js. */
  ropeScaling(config) {
    return this.#family('ropeScaling')(config);
  }

  /** A model's config.json, per layer type: see README "Your model's positions". */
  ropeConfig(config) {
    return this.#family('ropeConfig', 'readRopeConfig')(config, { attentionFactor: (d, o) => rope.ropeAttentionFactor(this.#heap, d, o) });
  }

  /** Conformance vectors per layer type of a model's config.json: see web/lib/vectors.js. */
  ropeVectors(config, options) {
    return this.#family('ropeVectors')(this, config, options);
  }

  /** What llama.cpp passes to ggml_rope_ext per layer type, for a GGUF (readGguf) and its flags: web/lib/llamacpp.js. */
  llamaCppRope(gguf, options) {
    return this.#family('llamaCppRope')(gguf, options);
  }

  /** The cos/sin ggml computes for one layer type of llamaCppRope, float32 step for step (c/llamacpp.c). */
  llamaCppCache(params, positions, options) {
    return this.#family('llamaCppCache')(this.#heap, params, positions, options);
  }

  /** A model's config.json (transformers) against a GGUF of it in llama.cpp: findings per layer type (web/lib/runtimes.js). */
  compareRuntimes(config, gguf, options) {
    return this.#family('compareRuntimes')(this, config, gguf, options);
  }

  /** Llama 4's query temperature per position, float64: 1 + scale·ln(⌊(p + offset)/floorScale⌋ + 1). */
  attentionTemperature(positions, options) {
    return attentionTemperature(this.#heap, positions, options);
  }

  ropeCache(positions, rotaryDim, options) {
    return rope.ropeCache(this.#heap, positions, rotaryDim, options);
  }

  applyRope(x, options) {
    return rope.applyRope(this.#heap, x, options);
  }

  tensor(lengthOrData) {
    return rope.tensor(this.#heap, lengthOrData);
  }

  applyRopeInPlace(x, options) {
    return rope.applyRopeInPlace(this.#heap, x, options);
  }

  attention(q, k, v, options) {
    return this.#family('attention')(this.#heap, q, k, v, options);
  }

  dynamicKvCache(q, k, options) {
    return this.#family('dynamicKvCache')(this.#heap, q, k, options);
  }

  gram(a, b, dim, options) {
    return this.#family('gram')(this.#heap, a, b, dim, options);
  }

  rowDots(a, b, dim, options) {
    return this.#family('rowDots', 'rowwise')(this.#heap, 'rowDots', 'posenc_row_dots', a, b, dim, options);
  }

  rowCosines(a, b, dim, options) {
    return this.#family('rowCosines', 'rowwise')(this.#heap, 'rowCosines', 'posenc_row_cosines', a, b, dim, options);
  }

  orderDemo(tokens, options) {
    return this.#family('orderDemo')(this.#heap, tokens, options);
  }

  ropeDecay(distances, options) {
    return decay.ropeDecay(this.#heap, distances, options);
  }

  sinusoidalDecay(distances, options) {
    return decay.sinusoidalDecay(this.#heap, distances, options);
  }

  alibiSlopes(heads, options) {
    return this.#family('alibiSlopes')(this.#heap, heads, options);
  }

  alibiBias(heads, seq, options) {
    return this.#family('alibiBias')(this.#heap, heads, seq, options);
  }

  randomNormal(n, seed, options) {
    return this.#family('randomNormal')(this.#heap, n, seed, options);
  }

  t5Bucket(relativePositions, options) {
    return this.#family('t5Bucket')(this.#heap, relativePositions, options);
  }

  xposScale(positions, options) {
    return this.#family('xposScale')(this.#heap, positions, options);
  }

  /** One attention layer of a real model from its weights, as transformers computes it (web/lib/layer.js). */
  layerAttention(options) {
    return this.#family('layerAttention')(this.#heap, options);
  }

  /** Per head and rotation pair, the energy of the q or k projection rows that rotate together (a proxy). */
  pairEnergy(W, options) {
    return this.#family('pairEnergy')(this.#heap, W, options);
  }

  /** The length-generalisation lab: trains a tiny transformer in the heap (web/lib/lab.js). */
  train(options) {
    return this.#family('train')(this.#heap, options);
  }
}
