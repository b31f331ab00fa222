// families.js: the Posenc methods' families that read a model's config, a GGUF or its weights,
// or train the lab, with the tables and attention (tables-attention.js: ropeVectors draws its
// vectors with randomNormal), as the one object instance.js takes; the rest of the API loads
// without them.
export * from './tables-attention.js';
export { readRopeConfig, ropeScaling } from './rope-config.js';
export { ropeVectors } from './vectors.js';
export { llamaCppRope, llamaCppCache } from './llamacpp.js';
export { compareRuntimes } from './runtimes.js';
export { layerAttention, pairEnergy } from './layer.js';
export { train } from './lab.js';
