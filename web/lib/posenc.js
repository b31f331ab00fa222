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
// The Posenc class and its loader: instance.js; the methods, by family, in the modules it and
// families.js name. Types and documentation of every method: posenc.d.ts.
import { loadInstance } from './instance.js';
import * as families from './families.js';
import { simdSupported } from './heap.js';
import { ropeScaling } from './rope-config.js';

export { MAX_ELEMENTS, MAX_CALL_BYTES, MAX_HEAP_BYTES } from './args.js';
export { simdSupported, ropeScaling };
export { MODELS } from './models.js';
export { readSafetensors } from './safetensors.js';
export { writeSafetensors } from './safetensors-write.js';
export { readLayer, LAYER_MODEL_TYPES } from './layer.js';
export { readGguf, GgufError, GGUF_MAX_BYTES } from './gguf.js';

/**
 * Loads the kernels. options.simd: 'auto' (default: SIMD where the engine validates it),
 * true (SIMD or throw) or false (the scalar build). options.source: the .wasm as bytes, a
 * WebAssembly.Module or a URL, for hosts that serve it elsewhere. options.maxCallBytes and
 * options.maxHeapBytes lower the memory limits (MAX_CALL_BYTES per call, MAX_HEAP_BYTES live
 * in the heap); they cannot raise them.
 */
export async function loadPosenc(opts) {
  return loadInstance(opts, families);
}
