// posenc.js: the JS API over posenc's C kernels, for Node >= 20 and browsers.
//
//   import { loadPosenc } from 'posenc';   // or './web/lib/posenc.js' from the repository
//   const pe = await loadPosenc();
//   const table = pe.sinusoidal(100, 512);            // Float32Array(100 * 512)
//
// Every method validates its arguments (TypeError / RangeError naming the parameter; an options
// key it does not know is a TypeError naming the key), copies inputs into the wasm heap, runs
// the kernel, copies the result out and frees everything, so callers never see wasm memory.
// Methods that return typed arrays take `out` (arrays of the right type and length) to copy
// into instead of allocating. The zero-copy path is pe.tensor(): heap memory the caller owns
// until free(), which pe.applyRopeInPlace() rotates where it lies. Conventions: README.md.
// The methods live by family in rope.js (mRoPE and the attention temperature in mrope.js),
// tables.js, attention.js, decay.js, vectors.js (conformance vectors) and layer.js (a real
// model's layer from its weights); this class binds them to one instance's heap. Types and
// documentation of every method: posenc.d.ts.
import { instantiate, simdSupported } from './heap.js';
import * as A from './args.js';
import { ropeScaling } from './scaling.js';
import { readRopeConfig } from './rope-config.js';
import * as rope from './rope.js';
import * as tables from './tables.js';
import * as att from './attention.js';
import * as decay from './decay.js';
import { attentionTemperature } from './mrope.js';
import { ropeVectors } from './vectors.js';
import * as relative from './relative.js';
import * as lab from './lab.js';
import * as layer from './layer.js';
import { llamaCppRope, llamaCppCache } from './llamacpp.js';
import { compareRuntimes } from './runtimes.js';

export { MAX_ELEMENTS, MAX_CALL_BYTES, MAX_HEAP_BYTES } from './args.js';
export { simdSupported, ropeScaling };
export { MODELS } from './models.js';
export { readSafetensors } from './safetensors.js';
export { writeSafetensors } from './safetensors-write.js';
export { readLayer, LAYER_MODEL_TYPES } from './layer.js';
export { readGguf, GgufError, GGUF_MAX_BYTES } from './gguf.js';

const BUILDS = {
  simd: new URL('../build/posenc.wasm', import.meta.url),
  scalar: new URL('../build/posenc-scalar.wasm', import.meta.url),
};

const LOAD_KEYS = A.optionKeys('loadPosenc', ['simd', 'source', 'maxCallBytes', 'maxHeapBytes']);

/**
 * Loads the kernels. options.simd: 'auto' (default: SIMD where the engine validates it),
 * true (SIMD or throw) or false (the scalar build). options.source: the .wasm as bytes, a
 * WebAssembly.Module or a URL, for hosts that serve it elsewhere. options.maxCallBytes and
 * options.maxHeapBytes lower the memory limits (MAX_CALL_BYTES per call, MAX_HEAP_BYTES live
 * in the heap); they cannot raise them.
 */
export async function loadPosenc(opts) {
  const o = A.options('options', opts, LOAD_KEYS, 'loadPosenc');
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

  /**
   * Wasm heap use: { inUse: bytes malloc has handed out, total: bytes of wasm memory, cached:
   * the part of inUse kept between calls (the RoPE table memo, at most 1 MiB) }.
   */
  heapBytes() {
    const heap = this.#heap;
    return { inUse: heap.fn.posenc_heap_in_use(), total: heap.memory.buffer.byteLength, cached: heap.kept?.bytes ?? 0 };
  }

  sinusoidal(length, dim, options) {
    return tables.sinusoidal(this.#heap, length, dim, options);
  }

  binary(length, bits, options) {
    return tables.binary(this.#heap, length, bits, options);
  }

  shiftSinusoidal(vectors, k, options) {
    return tables.shiftSinusoidal(this.#heap, vectors, k, options);
  }

  ropeInvFreq(rotaryDim, options) {
    return rope.ropeInvFreq(this.#heap, rotaryDim, options);
  }

  ropeAttentionFactor(rotaryDim, options) {
    return rope.ropeAttentionFactor(this.#heap, rotaryDim, options);
  }

  ropeScaling(config) {
    return ropeScaling(config);
  }

  /** A model's config.json, per layer type: see README "Your model's positions". */
  ropeConfig(config) {
    return readRopeConfig(config, { attentionFactor: (d, o) => rope.ropeAttentionFactor(this.#heap, d, o) });
  }

  /** Conformance vectors per layer type of a model's config.json: see web/lib/vectors.js. */
  ropeVectors(config, options) {
    return ropeVectors(this, config, options);
  }

  /** What llama.cpp passes to ggml_rope_ext per layer type, for a GGUF (readGguf) and its flags: web/lib/llamacpp.js. */
  llamaCppRope(gguf, options) {
    return llamaCppRope(gguf, options);
  }

  /** The cos/sin ggml computes for one layer type of llamaCppRope, float32 step for step (c/llamacpp.c). */
  llamaCppCache(params, positions, options) {
    return llamaCppCache(this.#heap, params, positions, options);
  }

  /** A model's config.json (transformers) against a GGUF of it in llama.cpp: findings per layer type (web/lib/runtimes.js). */
  compareRuntimes(config, gguf, options) {
    return compareRuntimes(this, config, gguf, options);
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
    return att.attention(this.#heap, q, k, v, options);
  }

  dynamicKvCache(q, k, options) {
    return att.dynamicKvCache(this.#heap, q, k, options);
  }

  gram(a, b, dim, options) {
    return att.gram(this.#heap, a, b, dim, options);
  }

  rowDots(a, b, dim, options) {
    return att.rowwise(this.#heap, 'rowDots', 'posenc_row_dots', a, b, dim, options);
  }

  rowCosines(a, b, dim, options) {
    return att.rowwise(this.#heap, 'rowCosines', 'posenc_row_cosines', a, b, dim, options);
  }

  orderDemo(tokens, options) {
    return att.orderDemo(this.#heap, tokens, options);
  }

  ropeDecay(distances, options) {
    return decay.ropeDecay(this.#heap, distances, options);
  }

  sinusoidalDecay(distances, options) {
    return decay.sinusoidalDecay(this.#heap, distances, options);
  }

  alibiSlopes(heads, options) {
    return tables.alibiSlopes(this.#heap, heads, options);
  }

  alibiBias(heads, seq, options) {
    return tables.alibiBias(this.#heap, heads, seq, options);
  }

  randomNormal(n, seed, options) {
    return tables.randomNormal(this.#heap, n, seed, options);
  }

  t5Bucket(relativePositions, options) {
    return relative.t5Bucket(this.#heap, relativePositions, options);
  }

  xposScale(positions, options) {
    return relative.xposScale(this.#heap, positions, options);
  }

  /** One attention layer of a real model from its weights, as transformers computes it (web/lib/layer.js). */
  layerAttention(options) {
    return layer.layerAttention(this.#heap, options);
  }

  /** Per head and rotation pair, the energy of the q or k projection rows that rotate together (a proxy). */
  pairEnergy(W, options) {
    return layer.pairEnergy(this.#heap, W, options);
  }

  /** The length-generalisation lab: trains a tiny transformer in the heap (web/lib/lab.js). */
  train(options) {
    return lab.train(this.#heap, options);
  }
}
