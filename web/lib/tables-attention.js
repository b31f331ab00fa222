// tables-attention.js: the Posenc methods' families of tables and attention (sinusoidal, binary and
// ALiBi tables, random vectors, attention and its score matrices, T5 buckets, xPos scales), as
// one object instance.js takes: a chart of RoPE's curves loads without them. families.js
// re-exports them, since its own families call some of them.
export { sinusoidal, binary, shiftSinusoidal, alibiSlopes, alibiBias, randomNormal } from './tables.js';
export { attention, dynamicKvCache, gram, rowwise, orderDemo } from './attention.js';
export { t5Bucket, xposScale } from './relative.js';
