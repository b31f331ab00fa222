// Hardening of the JS API, on both builds:
// 1. every parameter of every method, given the wrong type, NaN, ±Infinity, a negative, zero,
//    an odd value where even is required, too large a value or a mismatched length, throws the
//    named error (TypeError / RangeError whose message names the parameter), and a correct
//    call right after still gives exactly the right answer. The cases are generated from a
//    per-method parameter spec (SPEC below) rather than written out one by one;
// 2. the memory limits: MAX_CALL_BYTES per call, MAX_HEAP_BYTES live: a RangeError before any
//    allocation (the bound on what one call can cost rests on these caps);
// 3. no leak: 10^5 mixed calls, failing ones included, leave malloc's in-use bytes and the
//    wasm memory size exactly where they started (malloc's count is exact: one lost byte shows);
// 4. a trap makes the instance refuse further calls instead of running on a suspect heap;
// 5. an engine without WebAssembly SIMD gets the scalar build from loadPosenc().
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { builds } from './reference.js';
import { loadPosenc, readGguf, MAX_ELEMENTS, MAX_CALL_BYTES, MAX_HEAP_BYTES } from '../web/lib/posenc.js';
import { MODELS, gguf } from './fixtures/gguf-writer.js';
import { instantiate } from '../web/lib/heap.js';

const MAX_DIM = 65536;
const MAX_POSITION = 2 ** 53;

// ---- parameter kinds: each gives [what, bad value, error class] cases ----

const int = (o = {}) => ({ kind: 'int', min: 1, max: MAX_ELEMENTS, ...o });
const num = (o = {}) => ({ kind: 'num', min: -Infinity, max: Infinity, ...o });
const arr = (o = {}) => ({ kind: 'arr', min: -Infinity, max: Infinity, ...o });
const oneOf = (values, o = {}) => ({ kind: 'enum', values, ...o });
const bool = (o = {}) => ({ kind: 'bool', ...o });
const opts = (o = {}) => ({ kind: 'opts', name: 'options', optional: true, ...o });

/** `good` with element 0 replaced. */
const with0 = (good, x) => [x, ...Array.from(good).slice(1)];

const KINDS = {
  int: ({ min, max, even, optional }) => [
    ['a string', String(min), TypeError],
    ['a boolean', true, TypeError],
    ['a bigint', BigInt(Math.max(min, 0)), TypeError],
    ['an object', {}, TypeError],
    ...(optional ? [] : [['null', null, TypeError], ['missing', undefined, TypeError]]),
    ['NaN', NaN, TypeError],
    ['Infinity', Infinity, TypeError],
    ['-Infinity', -Infinity, TypeError],
    ['a fraction', min + 0.5, TypeError],
    ...(min >= 0 ? [['negative', even ? -2 : -1, RangeError]] : []),
    ...(min > 0 ? [['zero', 0, RangeError]] : []),
    ...(even ? [['odd', min + 1, RangeError]] : []),
    ['too large', max + (even ? 2 : 1), RangeError],
    ['2^53', 2 ** 53, RangeError],
  ],
  num: ({ min, max, optional }) => [
    ['a string', '1', TypeError],
    ['a boolean', true, TypeError],
    ['a bigint', 1n, TypeError],
    ...(optional ? [] : [['null', null, TypeError], ['missing', undefined, TypeError]]),
    ['NaN', NaN, RangeError],
    ['Infinity', Infinity, RangeError],
    ['-Infinity', -Infinity, RangeError],
    ...(min >= 0 ? [['negative', -1, RangeError]] : []),
    ...(min > 0 ? [['zero', 0, RangeError], ['below the minimum', min / 2, RangeError]] : []),
    ...(max < Infinity ? [['too large', max * 2 + 1, RangeError]] : []),
  ],
  arr: ({ min, max, fixedLength, ints, optional }, good) => [
    ['a string', '0,1', TypeError],
    ['a number', 42, TypeError],
    ['an array-like object', { length: 1, 0: 1 }, TypeError],
    ['a DataView', new DataView(new ArrayBuffer(8)), TypeError],
    ...(optional ? [] : [['null', null, TypeError], ['missing', undefined, TypeError]]),
    ['empty', [], RangeError],
    ['holding NaN', with0(good, NaN), RangeError],
    ['holding Infinity', with0(good, Infinity), RangeError],
    ['holding -Infinity', with0(good, -Infinity), RangeError],
    ['a Float64Array holding NaN', Float64Array.from(with0(good, NaN)), RangeError],
    ['a Float64Array holding Infinity', Float64Array.from(with0(good, Infinity)), RangeError],
    ['holding a string', with0(good, '1'), TypeError],
    ['holding null', with0(good, null), TypeError],
    ...(min >= 0 ? [['holding a negative', with0(good, -1), RangeError]] : []),
    ...(max < Infinity ? [['holding a too large value', with0(good, max * 2 + 1), RangeError]] : []),
    ...(ints ? [['holding a fraction', with0(good, 0.5), TypeError],
      ['a Float64Array holding 2^32 + 1 (wraps to 1 as int32)', Float64Array.from(with0(good, 2 ** 32 + 1)), RangeError]] : []),
    ...(fixedLength ? [['one element too many', [...good, good[0]], RangeError], ['one element short', Array.from(good).slice(1), RangeError]] : []),
    ['longer than MAX_ELEMENTS (a sparse array: refused before any copy)', new Array(MAX_ELEMENTS + 1), RangeError],
  ],
  enum: ({ values, optional }) => [
    ['an unknown name', 'bogus', RangeError],
    ['upper case', values[0].toUpperCase(), RangeError],
    ['a number', 0, TypeError],
    ...(optional ? [] : [['missing', undefined, TypeError], ['null', null, TypeError]]),
  ],
  bool: () => [['a number', 1, TypeError], ['a string', 'true', TypeError]],
  opts: ({ optional }) => [
    ['a string', 'x', TypeError],
    ['a number', 3, TypeError],
    ['an array', [], TypeError],
    ...(optional ? [['null', null, TypeError]] : []),
  ],
};

// ---- the API: for each method, a correct call, its parameters, and cases across parameters ----
// args: the arguments of the good call by name; `call` makes the call from them. Parameters are
// addressed by path ('opts.base'); `name` is what the error message must contain.

const x8 = Float32Array.from({ length: 8 }, (_, i) => (i - 3.5) / 4);
const ropeArgs = { x: x8, opts: { heads: 1, headDim: 8, positions: [3], style: 'half', rotaryDim: 8, base: 10000 } };

const QWEN = await readGguf(gguf('qwen2-7b-yarn'));
const QWEN_CONFIG = MODELS['qwen2-7b-yarn'].config;
const LLAMA_PARAMS = { nDims: 8, mode: 'neox', nCtxOrig: 4096, freqBase: 10000, freqScale: 0.25, extFactor: 1, attnFactor: 1,
  betaFast: 32, betaSlow: 1, freqFactors: [1, 2, 4, 8], sections: null };
const FLAGS = {
  opts: opts(),
  'opts.ctx': int({ min: 0, max: 2 ** 31 - 1, optional: true }),
  'opts.flags': opts({ name: 'flags' }),
  'opts.flags.ropeScaling': oneOf(['none', 'linear', 'yarn'], { optional: true, name: 'ropeScaling' }),
  'opts.flags.ropeScale': num({ min: Number.MIN_VALUE, optional: true, name: 'ropeScale' }),
  'opts.flags.ropeFreqBase': num({ min: Number.MIN_VALUE, optional: true, name: 'ropeFreqBase' }),
  'opts.flags.yarnOrigCtx': int({ min: 1, max: 2 ** 31 - 1, optional: true, name: 'yarnOrigCtx' }),
  'opts.flags.yarnAttnFactor': num({ min: 0, optional: true, name: 'yarnAttnFactor' }),
  'opts.flags.yarnBetaFast': num({ min: Number.MIN_VALUE, optional: true, name: 'yarnBetaFast' }),
};

const SPEC = {
  llamaCppRope: {
    call: (pe, a) => pe.llamaCppRope(a.gguf, a.opts),
    args: { gguf: QWEN, opts: { ctx: 8192, flags: { ropeScaling: 'yarn', ropeScale: 2, ropeFreqBase: 500000, yarnOrigCtx: 4096, yarnAttnFactor: 1, yarnBetaFast: 16 } } },
    params: FLAGS,
    cross: [
      ['gguf a number', { gguf: 3 }, TypeError, 'gguf'],
      ['gguf without metadata', { gguf: {} }, TypeError, 'gguf'],
      ['ropeScale and ropeFreqScale both', { 'opts.flags.ropeFreqScale': 0.5 }, TypeError, 'ropeFreqScale'],
      ['an unknown flag', { 'opts.flags.ropeScal': 2 }, TypeError, '"ropeScal"'],
    ],
  },
  llamaCppCache: {
    call: (pe, a) => pe.llamaCppCache(a.params, a.positions, a.opts),
    args: { params: LLAMA_PARAMS, positions: [0, 7, 30000] },
    params: {
      params: opts({ name: 'params', optional: false }),
      'params.nDims': int({ min: 2, max: 65536, even: true, name: 'nDims' }),
      'params.mode': oneOf(['norm', 'neox', 'mrope', 'imrope'], { name: 'mode' }),
      'params.nCtxOrig': int({ max: 2 ** 31 - 1, name: 'nCtxOrig' }),
      'params.freqBase': num({ min: 1, name: 'freqBase' }),
      'params.freqScale': num({ min: Number.MIN_VALUE, name: 'freqScale' }),
      'params.extFactor': num({ name: 'extFactor' }),
      'params.attnFactor': num({ name: 'attnFactor' }),
      'params.betaFast': num({ min: Number.MIN_VALUE, name: 'betaFast' }),
      'params.betaSlow': num({ min: Number.MIN_VALUE, name: 'betaSlow' }),
      'params.freqFactors': arr({ min: Number.MIN_VALUE, fixedLength: true, optional: true, name: 'freqFactors' }),
      positions: arr({ ints: true, min: 0, max: 2 ** 31 - 1, name: 'positions' }),
    },
    cross: [
      ['mrope without sections', { 'params.mode': 'mrope' }, TypeError, 'sections'],
      ['mrope with zero sections', { 'params.mode': 'imrope', 'params.sections': [0, 0, 0, 0] }, RangeError, 'sections'],
      ['freqBase of exactly 1', { 'params.freqBase': 1 }, RangeError, 'freqBase'],
    ],
  },
  compareRuntimes: {
    call: (pe, a) => pe.compareRuntimes(a.config, a.gguf, a.opts),
    args: { config: QWEN_CONFIG, gguf: QWEN, opts: { positions: [0, 100, 5000], ctx: 8192, flags: { ropeScaling: 'yarn', ropeScale: 2, ropeFreqBase: 500000, yarnOrigCtx: 4096, yarnAttnFactor: 1, yarnBetaFast: 16 } } },
    params: { ...FLAGS, 'opts.positions': arr({ ints: true, min: 0, max: 2 ** 31 - 1, optional: true, name: 'positions' }) },
    cross: [
      ['config a number', { config: 3 }, TypeError, 'config'],
      ['config text that is not JSON', { config: '{"rope_theta": ' }, TypeError, 'config'],
      ['gguf null', { gguf: null }, TypeError, 'gguf'],
    ],
  },
  sinusoidal: {
    call: (pe, a) => pe.sinusoidal(a.length, a.dim, a.opts),
    args: { length: 3, dim: 8, opts: { base: 10000, layout: 'interleaved', precision: 'f32', start: 5 } },
    params: {
      length: int(),
      dim: int({ min: 2, max: MAX_DIM, even: true }),
      opts: opts(),
      'opts.base': num({ min: 1, optional: true }),
      'opts.layout': oneOf(['interleaved', 'concat', 'tensor2tensor'], { optional: true }),
      'opts.precision': oneOf(['f32', 'f64'], { optional: true }),
      'opts.start': num({ min: 0, max: MAX_POSITION - 3, optional: true }),
    },
    cross: [
      ['length × dim past MAX_ELEMENTS', { length: 2 ** 16, dim: 2 ** 11 }, RangeError, 'sinusoidal table'],
      ['sinusoidal(1e9, 4096): refused at once', { length: 1e9, dim: 4096 }, RangeError, 'length'],
      ['start + length past 2^53', { 'opts.start': MAX_POSITION - 2 }, RangeError, 'start'],
      ['tensor2tensor layout in f64', { 'opts.layout': 'tensor2tensor', 'opts.precision': 'f64' }, RangeError, 'precision'],
    ],
  },
  binary: {
    call: (pe, a) => pe.binary(a.length, a.bits),
    args: { length: 5, bits: 3 },
    params: { length: int(), bits: int({ max: 31 }) },
    cross: [['length × bits past MAX_ELEMENTS', { length: 2 ** 22, bits: 31 }, RangeError, 'binary table']],
  },
  ropeInvFreq: {
    call: (pe, a) => pe.ropeInvFreq(a.rot, a.opts),
    args: { rot: 8, opts: { base: 500000 } },
    params: {
      rot: int({ min: 2, max: MAX_DIM, even: true, name: 'rotaryDim' }),
      opts: opts(),
      'opts.base': num({ min: 1, optional: true }),
      'opts.scaling': opts({ name: 'scaling', optional: false }),
    },
    cross: [
      ['a typed longrope factor of 0', { 'opts.scaling': { type: 'longrope', shortFactor: Float64Array.of(1, 0, 1, 1), longFactor: [1, 1, 1, 1], originalMaxPositionEmbeddings: 8 } }, RangeError, 'scaling.shortFactor[1]'],
      ['scaling.type unknown', { 'opts.scaling': { type: 'alibi', factor: 2 } }, RangeError, 'scaling.type'],
      ['scaling.type missing', { 'opts.scaling': { factor: 2 } }, TypeError, 'scaling.type'],
      ['scaling.factor zero', { 'opts.scaling': { type: 'linear', factor: 0 } }, RangeError, 'scaling.factor'],
      ['scaling.factor NaN', { 'opts.scaling': { type: 'linear', factor: NaN } }, RangeError, 'scaling.factor'],
      ['scaling.factor a string', { 'opts.scaling': { type: 'linear', factor: '2' } }, TypeError, 'scaling.factor'],
      ['scaling with an unknown key', { 'opts.scaling': { type: 'linear', factor: 2, fator: 3 } }, TypeError, 'fator'],
      ['llama3 high < low', { 'opts.scaling': { type: 'llama3', factor: 8, lowFreqFactor: 4, highFreqFactor: 1 } }, RangeError, 'highFreqFactor'],
      ['yarn betaFast negative', { 'opts.scaling': { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096, betaFast: -1 } }, RangeError, 'betaFast'],
      ['yarn truncate not boolean', { 'opts.scaling': { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096, truncate: 1 } }, TypeError, 'truncate'],
      ['longrope shortFactor of the wrong length', { 'opts.scaling': { type: 'longrope', shortFactor: [1, 1], longFactor: [1, 1, 1, 1], originalMaxPositionEmbeddings: 4096 } }, RangeError, 'shortFactor'],
      ['longrope longFactor holding NaN', { 'opts.scaling': { type: 'longrope', shortFactor: [1, 1, 1, 1], longFactor: [1, NaN, 1, 1], originalMaxPositionEmbeddings: 4096 } }, RangeError, 'longFactor[1]'],
      // the kernel's own refusals (fuzzing found these: Inf or NaN came out as a frequency)
      ['a factor whose reciprocal overflows', { 'opts.scaling': { type: 'linear', factor: Number.MIN_VALUE } }, RangeError, 'scaling.factor'],
      ['yarn with a denormal betaFast', { 'opts.scaling': { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096, betaFast: 1e-310 } }, RangeError, 'posenc_rope_scaled_freq'],
      ['proportional without partialRotaryFactor', { 'opts.scaling': { type: 'proportional' } }, TypeError, 'partialRotaryFactor'],
      ['proportional partialRotaryFactor past 1', { 'opts.scaling': { type: 'proportional', partialRotaryFactor: 1.5 } }, RangeError, 'partialRotaryFactor'],
      ['proportional partialRotaryFactor NaN', { 'opts.scaling': { type: 'proportional', partialRotaryFactor: NaN } }, RangeError, 'partialRotaryFactor'],
    ],
  },
  ropeAttentionFactor: {
    call: (pe, a) => pe.ropeAttentionFactor(a.rot, a.opts),
    args: { rot: 64, opts: { scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 } } },
    params: { rot: int({ min: 2, max: MAX_DIM, even: true, name: 'rotaryDim' }), opts: opts() },
    cross: [
      // Inf / Inf: refused instead of returning NaN
      ['yarn mscales so large the factor overflows', { 'opts.scaling': { type: 'yarn', factor: 1e6, originalMaxPositionEmbeddings: 4096, mscale: 1.7e308, mscaleAllDim: 1.7e308 } }, RangeError, 'posenc_rope_scaled_freq'],
      ['longrope with L0 = 1 (divides by ln 1)', { rot: 4, 'opts.scaling': { type: 'longrope', shortFactor: [1, 1], longFactor: [1, 1], originalMaxPositionEmbeddings: 1, factor: 4 } }, RangeError, 'posenc_rope_scaled_freq'],
    ],
  },
  ropeCache: {
    call: (pe, a) => pe.ropeCache(a.positions, a.rot, a.opts),
    args: { positions: [0, 1, 7.5, 1e6], rot: 8, opts: { base: 10000 } },
    params: {
      positions: arr({ min: 0, max: MAX_POSITION }),
      rot: int({ min: 2, max: MAX_DIM, even: true, name: 'rotaryDim' }),
      opts: opts(),
      'opts.base': num({ min: 1, optional: true }),
    },
    cross: [
      ['a typed negative position', { positions: Float64Array.of(1, -2) }, RangeError, 'positions[1] must be finite and in [0,'],
      ['a typed position past 2^53', { positions: Float64Array.of(0, 1e300) }, RangeError, 'positions[1]'],
      ['a BigInt64Array of positions', { positions: BigInt64Array.of(1n) }, TypeError, 'positions'],
      ['precision unknown', { 'opts.precision': 'f8' }, RangeError, 'precision'],
      ['precision.angle unknown', { 'opts.precision': { angle: 'f128' } }, RangeError, 'precision.angle'],
      ['precision not a string or object', { 'opts.precision': 16 }, TypeError, 'precision'],
      ['an f16 position past 65504', { positions: [70000], 'opts.precision': 'f16' }, RangeError, 'posenc_rope_cache_emulated'],
      // fuzzing found this: bf16 rounds 65450 up to 65536, past f16, and NaN came out
      ['a bf16 position rounding the f16 angle past its range', { positions: [65450], rot: 2, 'opts.precision': { position: 'bf16', angle: 'f16' } }, RangeError, 'posenc_rope_cache_emulated'],
      ['mrope section summing wrong', { positions: { t: [1], h: [2], w: [3] }, 'opts.mrope': { section: [1, 1, 1] } }, RangeError, 'mrope.section'],
      ['mrope section of two entries', { positions: { t: [1], h: [2], w: [3] }, 'opts.mrope': { section: [2, 2] } }, RangeError, 'mrope.section'],
      ['mrope streams of different lengths', { positions: { t: [1, 2], h: [2], w: [3, 4] }, 'opts.mrope': { section: [2, 1, 1] } }, RangeError, 'positions.h'],
      ['mrope with precision', { positions: { t: [1], h: [2], w: [3] }, 'opts.mrope': { section: [2, 1, 1] }, 'opts.precision': 'f64' }, TypeError, 'precision'],
    ],
  },
  applyRope: {
    call: (pe, a) => pe.applyRope(a.x, a.opts),
    args: ropeArgs,
    params: {
      x: arr({ fixedLength: true }),
      opts: opts({ optional: false }),
      'opts.heads': int(),
      'opts.headDim': int({ max: MAX_DIM }),
      'opts.style': oneOf(['interleaved', 'half']),
      'opts.rotaryDim': int({ min: 2, max: 8, even: true, optional: true, name: 'rotaryDim' }),
      'opts.positions': arr({ min: 0, max: MAX_POSITION, fixedLength: false, name: 'positions' }),
      'opts.base': num({ min: 1, optional: true }),
    },
    cross: [
      // typed arrays are scanned after their copy into the heap (c/scan.c): the same errors
      ['a typed x holding NaN', { x: Float32Array.of(1, 1, 1, NaN, 1, 1, 1, 1) }, RangeError, 'x[3] must be finite'],
      ['a float64 x past float32', { x: Float64Array.of(1, 1e39, 1, 1, 1, 1, 1, 1) }, RangeError, 'x[1] = 1e+39 does not fit in Float32Array'],
      ['x shorter than positions × heads × headDim', { 'opts.positions': [1, 2] }, RangeError, 'x must have length 16'],
      ['rotaryDim past headDim', { 'opts.rotaryDim': 10 }, RangeError, 'rotaryDim'],
      ['positions × heads × headDim past MAX_ELEMENTS', { 'opts.heads': 2 ** 20, 'opts.headDim': 2 ** 7 }, RangeError, 'x would have'],
      ['mrope section not summing to rotaryDim/2', { 'opts.positions': { t: [3], h: [1], w: [2] }, 'opts.mrope': { section: [2, 1, 2] } }, RangeError, 'mrope.section'],
      ['mrope without positions.w', { 'opts.positions': { t: [3], h: [1] }, 'opts.mrope': { section: [2, 1, 1] } }, TypeError, 'positions.w'],
      ['mrope streams of different lengths', { 'opts.positions': { t: [3], h: [1, 2], w: [2] }, 'opts.mrope': { section: [2, 1, 1] } }, RangeError, 'positions.h'],
      ['mrope positions holding NaN', { 'opts.positions': { t: [3], h: [1], w: [NaN] }, 'opts.mrope': { section: [2, 1, 1] } }, RangeError, 'positions.w[0]'],
      ['mrope positions Float64Array holding NaN', { 'opts.positions': { t: [3], h: Float64Array.of(NaN), w: [1] }, 'opts.mrope': { section: [2, 1, 1] } }, RangeError, 'positions.h[0]'],
      ['positions { t, h, w } without mrope', { 'opts.positions': { t: [3], h: [1], w: [2] } }, TypeError, 'mrope'],
      ['mrope with an unknown key', { 'opts.positions': { t: [3], h: [1], w: [2] }, 'opts.mrope': { section: [2, 1, 1], interleave: true } }, TypeError, '"interleave"'],
    ],
  },
  attention: {
    call: (pe, a) => pe.attention(a.q, a.k, a.v, a.opts),
    args: { q: [1, 0.5, -1, 2], k: [0.5, 1, 2, -1, 0, 1], v: [1, 2, 3, 4, 5, 6], opts: { heads: 1, headDim: 2, causal: true } },
    params: {
      q: arr({ name: 'q' }),
      k: arr({ name: 'k' }),
      v: arr({ fixedLength: true, name: 'v' }),
      opts: opts({ optional: false }),
      'opts.heads': int(),
      'opts.headDim': int({ max: MAX_DIM }),
      'opts.causal': bool(),
    },
    cross: [
      ['q not a multiple of heads × headDim', { q: [1, 2, 3] }, RangeError, 'q.length'],
      ['k not a multiple of heads × headDim', { k: [1, 2, 3] }, RangeError, 'k.length'],
      ['q longer than k', { q: [1, 2, 3, 4, 5, 6, 7, 8] }, RangeError, 'q has 4 rows'],
      ['weights past MAX_ELEMENTS', { q: new Float32Array(8193), k: new Float32Array(8193), v: new Float32Array(8193), 'opts.headDim': 1 }, RangeError, 'attention weights'],
    ],
  },
  dynamicKvCache: {
    call: (pe, a) => pe.dynamicKvCache(a.q, a.k, a.opts),
    args: {
      q: [1, 0.5, -1, 2, 0.25, -0.5, 1.5, 1], k: [0.5, 1, 2, -1, 1, -2, 0.5, 0.75],
      opts: { headDim: 4, style: 'half', factor: 2, maxPositionEmbeddings: 1, base: 10000, steps: [2, 1] },
    },
    params: {
      q: arr({ fixedLength: true, name: 'q' }),
      k: arr({ name: 'k' }),
      opts: opts({ optional: false }),
      'opts.headDim': int({ min: 4, max: MAX_DIM, even: true }),
      'opts.style': oneOf(['interleaved', 'half']),
      'opts.factor': num({ min: 1e-6, max: 1e6 }),
      'opts.maxPositionEmbeddings': num({ min: 1 }),
      'opts.base': num({ min: 1, optional: true }),
      'opts.steps': arr({ min: 1, max: 2, optional: true, name: 'steps' }),
    },
    cross: [
      ['k not a multiple of headDim', { k: [1, 2, 3] }, RangeError, 'k.length'],
      ['a step that is not a whole number', { 'opts.steps': [1.5] }, TypeError, 'steps[0]'],
      ['a step past the length', { 'opts.steps': [1, 3] }, RangeError, 'steps[1]'],
      // the kernel's own refusal: the dynamic base overflows at the longest length
      ['a base that overflows past max_position_embeddings', { 'opts.base': 1e300, 'opts.factor': 1e6 }, RangeError, 'posenc_dynamic_kv_cache'],
    ],
  },
  gram: {
    call: (pe, a) => pe.gram(a.a, a.b, a.dim),
    args: { a: [1, 2, 3, 4], b: [0.5, -1, 2, 2, 1, 0], dim: 2 },
    params: { a: arr({ name: 'a' }), b: arr({ name: 'b' }), dim: int({ max: MAX_DIM }) },
    cross: [
      ['one typed array holding NaN as both arguments', { a: Float32Array.of(1, NaN), b: 'same as a' }, RangeError, 'a[1]'],
      ['a not a multiple of dim', { a: [1, 2, 3] }, RangeError, 'a.length'],
      ['b not a multiple of dim', { b: [1, 2, 3] }, RangeError, 'b.length'],
      ['n × m past MAX_ELEMENTS', { a: new Float32Array(8193), b: new Float32Array(8193), dim: 1 }, RangeError, 'gram matrix'],
    ],
  },
  rowCosines: {
    call: (pe, a) => pe.rowCosines(a.a, a.b, a.dim),
    args: { a: [1, 2, 3, 4], b: [0.5, -1, 2, 2], dim: 2 },
    params: { a: arr({ name: 'a' }), b: arr({ fixedLength: true, name: 'b' }), dim: int({ max: MAX_DIM }) },
    cross: [['a not a multiple of dim', { a: [1, 2, 3], b: [1, 2, 3], dim: 2 }, RangeError, 'a.length']],
  },
  rowDots: {
    call: (pe, a) => pe.rowDots(a.a, a.b, a.dim),
    args: { a: [1, 2, 3, 4], b: [0.5, -1, 2, 2], dim: 2 },
    params: { a: arr({ name: 'a' }), b: arr({ fixedLength: true, name: 'b' }), dim: int({ max: MAX_DIM }) },
    cross: [['a not a multiple of dim', { a: [1, 2, 3], b: [1, 2, 3], dim: 2 }, RangeError, 'a.length']],
  },
  shiftSinusoidal: {
    call: (pe, a) => pe.shiftSinusoidal(a.vectors, a.k, a.opts),
    args: { vectors: [0, 1, 0.5, 0.5, 0.8, 0.6, 0, 1], k: 3, opts: { dim: 4, base: 100, layout: 'concat' } },
    params: {
      vectors: arr({ name: 'vectors' }),
      k: num({ min: -MAX_POSITION, max: MAX_POSITION }),
      opts: opts({ optional: false }),
      'opts.dim': int({ min: 2, max: MAX_DIM, even: true }),
      'opts.base': num({ min: 1, optional: true }),
      'opts.layout': oneOf(['interleaved', 'concat', 'tensor2tensor'], { optional: true }),
    },
    cross: [['vectors not a multiple of dim', { vectors: [0, 1, 0.5] }, RangeError, 'vectors.length']],
  },
  orderDemo: {
    call: (pe, a) => pe.orderDemo(a.tokens, a.opts),
    args: { tokens: [1, 2, 3], opts: { vocab: 5, dim: 10, heads: 2, encoding: 'rope', causal: false, seed: 7, base: 10000 } },
    params: {
      tokens: arr({ min: 0, max: 4, ints: true }),
      opts: opts(),
      'opts.vocab': int({ max: 4096, optional: true }),
      'opts.dim': int({ min: 2, max: 4096, optional: true }),
      'opts.heads': int({ max: 10, optional: true }),
      'opts.encoding': oneOf(['none', 'sinusoidal', 'rope'], { optional: true }),
      'opts.causal': bool(),
      'opts.seed': int({ min: 0, max: Number.MAX_SAFE_INTEGER - 3, optional: true }),
      'opts.base': num({ min: 1, optional: true }),
    },
    cross: [
      ['dim not a multiple of heads', { 'opts.heads': 3 }, RangeError, 'heads'],
      ['a token past vocab', { tokens: [1, 5] }, RangeError, 'tokens[1]'],
      ['more than 4096 tokens', { tokens: new Array(4097).fill(0) }, RangeError, 'tokens'],
      ['sinusoidal with odd dim', { 'opts.dim': 9, 'opts.heads': 1, 'opts.encoding': 'sinusoidal' }, RangeError, 'dim'],
      ['rope with one dim per head', { 'opts.heads': 10 }, RangeError, 'dim / heads'],
      ['heads × n × n past MAX_ELEMENTS (was a wrapped i32 malloc)', { tokens: new Array(4096).fill(0), 'opts.dim': 4096, 'opts.heads': 4096, 'opts.encoding': 'none' }, RangeError, 'orderDemo weights'],
      ['kernel scratch past MAX_CALL_BYTES', { tokens: new Array(4096).fill(0), 'opts.vocab': 4096, 'opts.dim': 4096, 'opts.heads': 1 }, RangeError, 'limit per call'],
    ],
  },
  ropeDecay: {
    call: (pe, a) => pe.ropeDecay(a.distances, a.opts),
    args: { distances: [0, 1, 10, 1000], opts: { kind: 'vectors', dim: 4, base: 10000, q: [1, 0, 0.5, 2], k: [0, 1, 1, 1], style: 'half' } },
    params: {
      distances: arr({ min: 0, max: MAX_POSITION }),
      opts: opts(),
      'opts.kind': oneOf(['ones', 'bound', 'vectors'], { optional: true }),
      'opts.dim': int({ min: 2, max: MAX_DIM, even: true }),
      'opts.base': num({ min: 1, optional: true }),
      'opts.q': arr({ fixedLength: true, name: 'q' }),
      'opts.k': arr({ fixedLength: true, name: 'k' }),
      'opts.style': oneOf(['interleaved', 'half']),
    },
    cross: [
      ['invFreq and scaling together', { 'opts.invFreq': [1, 0.1], 'opts.scaling': { type: 'linear', factor: 2 } }, TypeError, 'invFreq or scaling'],
      ['invFreq and base together', { 'opts.invFreq': [1, 0.1] }, TypeError, 'base has no effect with invFreq'],
      ['invFreq not dim/2 long', { 'opts.invFreq': [1, 0.1, 0.01], 'opts.base': undefined }, RangeError, 'invFreq'],
      ['invFreq holding NaN', { 'opts.invFreq': [1, NaN], 'opts.base': undefined }, RangeError, 'invFreq[1]'],
      ['invFreq past its maximum', { 'opts.invFreq': [1, 2e6], 'opts.base': undefined }, RangeError, 'invFreq[1]'],
    ],
  },
  sinusoidalDecay: {
    call: (pe, a) => pe.sinusoidalDecay(a.distances, a.opts),
    args: { distances: [0, 1, 10, 1000], opts: { dim: 4, base: 10000, q: [1, 0, 0.5, 2], k: [0, 1, 1, 1] } },
    params: {
      distances: arr({ min: 0, max: MAX_POSITION }),
      opts: opts({ optional: false }),
      'opts.dim': int({ min: 2, max: MAX_DIM, even: true }),
      'opts.base': num({ min: 1, optional: true }),
      'opts.q': arr({ fixedLength: true, name: 'q', optional: true }),
      'opts.k': arr({ fixedLength: true, name: 'k', optional: true }),
    },
    cross: [
      ['q without k', { 'opts.k': undefined }, TypeError, 'q and k'],
      ['k without q', { 'opts.q': undefined }, TypeError, 'q and k'],
    ],
  },
  ropeScaling: {
    call: (pe, a) => pe.ropeScaling(a.config),
    args: { config: { rope_theta: 500000, head_dim: 128, rope_scaling: { rope_type: 'linear', factor: 2 } } },
    params: { config: opts({ name: 'config', optional: false }) },
    cross: [
      ['rope_type unknown', { 'config.rope_scaling': { rope_type: 'alibi', factor: 2 } }, RangeError, 'rope_type'],
      ['rope_type not a string', { 'config.rope_scaling': { rope_type: 1, factor: 2 } }, TypeError, 'rope_type'],
      ['rope_theta NaN', { 'config.rope_theta': NaN }, RangeError, 'rope_theta'],
      ['head_dim not an integer', { 'config.head_dim': 1.5 }, RangeError, 'head_dim'],
      ['a factor missing', { 'config.rope_scaling': { rope_type: 'linear' } }, TypeError, 'factor'],
    ],
  },
  alibiSlopes: {
    call: (pe, a) => pe.alibiSlopes(a.heads),
    args: { heads: 12 },
    params: { heads: int({ max: 1024 }) },
  },
  alibiBias: {
    call: (pe, a) => pe.alibiBias(a.heads, a.seq),
    args: { heads: 3, seq: 4 },
    params: { heads: int({ max: 1024 }), seq: int() },
    cross: [['heads × seq × seq past MAX_ELEMENTS', { heads: 1024, seq: 300 }, RangeError, 'alibi bias']],
  },
  ropeConfig: {
    call: (pe, a) => pe.ropeConfig(a.config),
    args: { config: { model_type: 'llama', rope_theta: 500000, head_dim: 64, num_hidden_layers: 2 } },
    params: {},
    cross: [
      ['config a number', { config: 3 }, TypeError, 'config'],
      ['config text that is not JSON', { config: '{"rope_theta": ' }, TypeError, 'config'],
      ['rope_theta a string', { config: { rope_theta: '1e6', head_dim: 64 } }, TypeError, 'rope_theta'],
      ['rope_theta below 1', { config: { rope_theta: 0.5, head_dim: 64 } }, RangeError, 'rope_theta'],
      ['head_dim a string', { config: { rope_theta: 1e4, head_dim: '64' } }, TypeError, 'head_dim'],
      ['a __proto__ key', { config: '{"rope_theta": 10000, "__proto__": {"polluted": 1}}' }, RangeError, '__proto__'],
    ],
  },
  attentionTemperature: {
    call: (pe, a) => pe.attentionTemperature(a.positions, a.opts),
    args: { positions: [0, 8191, 1e6], opts: { scale: 0.1, floorScale: 8192, offset: 1 } },
    params: {
      positions: arr({ min: 0, max: MAX_POSITION }),
      opts: opts(),
      'opts.scale': num({ min: 0, max: 1e6, optional: true }),
      'opts.floorScale': num({ min: 1, max: MAX_POSITION, optional: true }),
      'opts.offset': num({ min: 0, max: MAX_POSITION, optional: true }),
    },
    cross: [['an unknown option', { 'opts.floor': 2 }, TypeError, '"floor"']],
  },
  ropeVectors: {
    call: (pe, a) => pe.ropeVectors(a.config, a.opts),
    args: { config: { model_type: 'qwen2_vl', rope_theta: 1e6, head_dim: 8, max_position_embeddings: 64, rope_scaling: { type: 'mrope', mrope_section: [2, 1, 1] } }, opts: { positions: [7] } },
    params: { opts: opts(), 'opts.positions': arr({ min: 0, max: MAX_POSITION, optional: true, name: 'positions' }) },
    cross: [
      ['config a number', { config: 3 }, TypeError, 'config'],
      ['rope_theta a string', { 'config.rope_theta': '1e6' }, TypeError, 'rope_theta'],
      ['an unknown option', { 'opts.position': [1] }, TypeError, '"position"'],
    ],
  },
  randomNormal: {
    call: (pe, a) => pe.randomNormal(a.n, a.seed),
    args: { n: 5, seed: 42 },
    params: { n: int(), seed: int({ min: 0, max: Number.MAX_SAFE_INTEGER }) },
  },
  tensor: {
    call: (pe, a) => {
      const t = pe.tensor(a.data);
      try {
        return t.array.slice();
      } finally {
        t.free();
      }
    },
    args: { data: [1, 2.5, -3] },
    params: { data: arr({ name: 'data', skip: ['a number'] }) }, // a number is a length
    cross: [
      ['a length of 0', { data: 0 }, RangeError, 'length'],
      ['a fractional length', { data: 2.5 }, TypeError, 'length'],
      ['a length past MAX_ELEMENTS', { data: MAX_ELEMENTS + 1 }, RangeError, 'length'],
    ],
  },
  applyRopeInPlace: {
    // x is given as data and made into a fresh tensor, or passed as is when it is not an array
    call: (pe, a) => {
      const t = Array.isArray(a.x) ? pe.tensor(a.x) : a.x;
      try {
        pe.applyRopeInPlace(t, a.opts);
        return t.array.slice();
      } finally {
        if (Array.isArray(a.x)) t.free();
      }
    },
    args: { x: Array.from(x8), opts: { heads: 1, headDim: 8, positions: [3], style: 'half' } },
    params: {
      opts: opts({ optional: false }),
      'opts.heads': int(),
      'opts.headDim': int({ max: MAX_DIM }),
      'opts.style': oneOf(['interleaved', 'half']),
      'opts.positions': arr({ min: 0, max: MAX_POSITION, fixedLength: true, name: 'positions' }),
    },
    cross: [
      ['x a plain array', { x: new Float32Array(8) }, TypeError, 'x must be a tensor'],
      ['x a freed tensor', { x: 'freed' }, TypeError, 'x was freed'],
      ['x not a multiple of heads × headDim', { 'opts.headDim': 3 }, RangeError, 'x.length'],
      ['positions and cos together', { 'opts.cos': 'tensor' }, TypeError, 'either positions or cos'],
    ],
  },
  t5Bucket: {
    call: (pe, a) => pe.t5Bucket(a.rel, a.opts),
    args: { rel: [-5, 0, 7, -300], opts: { bidirectional: true, numBuckets: 32, maxDistance: 128 } },
    params: {
      rel: arr({ name: 'relativePositions', ints: true, min: -(2 ** 30 - 1), max: 2 ** 30 - 1 }),
      opts: opts(),
      'opts.bidirectional': bool(),
      'opts.numBuckets': int({ min: 4, max: 65536, optional: true }),
      'opts.maxDistance': int({ min: 9, max: 2 ** 30, optional: true }),
    },
  },
  xposScale: {
    call: (pe, a) => pe.xposScale(a.positions, a.opts),
    args: { positions: [-3, 0, 2.5], opts: { dim: 8, scaleBase: 512 } },
    params: {
      positions: arr(),
      opts: opts({ optional: false }),
      'opts.dim': int({ min: 2, max: MAX_DIM, even: true }),
      'opts.scaleBase': num({ min: 1e-3, max: 1e9, optional: true }),
    },
  },
  train: {
    call: (pe, a) => {
      const run = pe.train(a.opts);
      try {
        return [run.loss, run.evaluate({ lengths: [2], sequences: 2 })[0].loss];
      } finally {
        run.free();
      }
    },
    args: { opts: { encoding: 'rope', style: 'half', task: 'kback', trainLength: 4, dModel: 8, heads: 2, layers: 1, batch: 2, steps: 2, seed: 3, lr: 0.01, base: 100 } },
    params: {
      opts: opts({ optional: false }),
      'opts.encoding': oneOf(['rope', 'xpos']),
      'opts.style': oneOf(['half', 'interleaved']),
      'opts.task': oneOf(['kback', 'copy', 'reverse', 'recall'], { optional: true }),
      'opts.trainLength': int({ max: 256, optional: true }),
      'opts.dModel': int({ min: 2, max: 256, optional: true }),
      'opts.heads': int({ max: 16, optional: true }),
      'opts.layers': int({ max: 8, optional: true }),
      'opts.batch': int({ max: 256, optional: true }),
      'opts.steps': int({ min: 0, max: 10000, optional: true }),
      'opts.seed': int({ min: 0, max: Number.MAX_SAFE_INTEGER, optional: true }),
      'opts.lr': num({ min: 0, max: 10, optional: true }),
      'opts.base': num({ min: 1, max: 1e12, optional: true }),
    },
    cross: [
      ['dModel not a multiple of heads', { 'opts.dModel': 10, 'opts.heads': 4 }, RangeError, 'dModel'],
      ['a style for alibi', { 'opts.encoding': 'alibi' }, RangeError, 'style'],
    ],
  },
  layerAttention: {
    call: (pe, a) => pe.layerAttention(a.opts),
    args: { opts: {
      config: { model_type: 'qwen2', hidden_size: 4, num_attention_heads: 2, num_key_value_heads: 1, head_dim: 2, rope_theta: 10000 },
      x: [0.5, -1, 2, 0.25, 1, 1, -0.5, 3],
      weights: { inputNorm: [1, 0.5, 2, 1], q: [1, 0, 0.5, -1, 0, 1, 1, 2, -1, 0.5, 0, 1, 2, 1, -1, 0], k: [0.5, 1, -1, 0, 1, 0, 2, 1], qBias: [0.1, -0.2, 0.3, 0], kBias: [0.5, -0.5] },
      positions: [3, 40],
    } },
    params: {
      opts: opts({ optional: false }),
      'opts.x': arr({ name: 'x' }),
      'opts.positions': arr({ min: 0, max: MAX_POSITION, fixedLength: true, optional: true, name: 'positions' }),
      'opts.weights': opts({ name: 'weights' }),
      'opts.weights.inputNorm': arr({ fixedLength: true, name: 'weights.inputNorm' }),
      'opts.weights.q': arr({ fixedLength: true, name: 'weights.q' }),
      'opts.weights.kBias': arr({ fixedLength: true, name: 'weights.kBias' }),
    },
    cross: [
      ['x not a multiple of hidden_size', { 'opts.x': [1, 2, 3] }, RangeError, 'x.length'],
      ['a model type not computed', { 'opts.config.model_type': 'gemma2' }, RangeError, 'model_type'],
      ['a missing bias', { 'opts.weights.qBias': undefined }, TypeError, 'weights.qBias'],
      ['a norm of another layout', { 'opts.weights.qNorm': [1, 1] }, TypeError, 'weights.qNorm'],
      ['heads not a multiple of kv heads', { 'opts.config.num_key_value_heads': 3 }, RangeError, 'num_key_value_heads'],
      ['an unknown weight', { 'opts.weights.v': [1] }, TypeError, '"v"'],
      ['a bad scaling', { 'opts.scaling': { type: 'linear', factor: -2 } }, RangeError, 'factor'],
    ],
  },
  pairEnergy: {
    call: (pe, a) => pe.pairEnergy(a.W, a.opts),
    args: { W: [1, 2, -1, 0.5, 3, 0, 1, 1], opts: { heads: 1, headDim: 4, style: 'half', rotaryDim: 4 } },
    params: {
      W: arr({ name: 'W' }),
      opts: opts({ optional: false }),
      'opts.heads': int(),
      'opts.headDim': int({ min: 2, max: MAX_DIM }),
      'opts.style': oneOf(['half', 'interleaved']),
      'opts.rotaryDim': int({ min: 2, max: 4, even: true, optional: true }),
    },
    cross: [['W not a multiple of heads × headDim', { W: [1, 2, 3] }, RangeError, 'W.length']],
  },
};

// ---- running the spec ----

function setPath(args, path, value) {
  const out = structuredClone(args);
  const keys = path.split('.');
  let o = out;
  for (const k of keys.slice(0, -1)) o = o[k];
  o[keys.at(-1)] = value;
  return out;
}

function valueAt(args, path) {
  return path.split('.').reduce((o, k) => o?.[k], args);
}

/** Every [what, args, error class, text] case of one method. */
function casesOf(method, spec, pe) {
  const cases = [];
  for (const [path, p] of Object.entries(spec.params)) {
    const name = p.name ?? path.split('.').at(-1);
    for (const [what, value, Err] of KINDS[p.kind](p, valueAt(spec.args, path))) {
      if (p.skip?.includes(what)) continue;
      cases.push([`${path}: ${what}`, setPath(spec.args, path, value), Err, name]);
    }
  }
  for (const [what, changes, Err, text] of spec.cross ?? []) {
    let args = spec.args;
    for (const [path, value] of Object.entries(changes)) {
      let v = value; // 'freed' and 'tensor' stand for tensors made here (runCase frees them)
      if (v === 'freed') {
        v = pe.tensor(8);
        v.free();
      } else if (v === 'tensor') {
        v = pe.tensor(4);
      } else if (v === 'same as a') {
        v = args.a;
      }
      args = setPath(args, path, v);
    }
    cases.push([what, args, Err, text]);
  }
  return cases;
}

function runCase(pe, spec, [what, args, Err, text], expected) {
  let err;
  try {
    spec.call(pe, args);
  } catch (e) {
    err = e;
  } finally {
    // tensors a case made for itself
    for (const v of Object.values(args.opts ?? {})) if (v?.free && !v.freed) v.free();
    if (args.x?.free && !args.x.freed) args.x.free();
  }
  assert.ok(err, `${what}: no error thrown`);
  assert.ok(err instanceof Err, `${what}: expected ${Err.name}, got ${err.constructor.name}: ${err.message}`);
  assert.ok(err.message.includes(text), `${what}: the message should name ${text}: ${err.message}`);
  // the instance is still usable and exactly right
  assert.deepEqual(spec.call(pe, spec.args), expected, `${what}: the correct call after it changed`);
}

for (const [name, pe] of await builds) {
  describe(`every parameter, every wrong value (${name})`, () => {
    for (const [method, spec] of Object.entries(SPEC)) {
      test(method, (t) => {
        // (applyRope keeps the table of positions it saw twice: heapBytes().cached, not a leak)
        const live = () => pe.heapBytes().inUse - pe.heapBytes().cached;
        const before = live();
        const expected = spec.call(pe, spec.args);
        const cases = casesOf(method, spec, pe);
        assert.ok(cases.length >= 5, `${method}: too few cases`);
        for (const c of cases) runCase(pe, spec, c, expected);
        t.diagnostic(`${cases.length} cases`);
        assert.equal(live(), before, `${method}: a failing call left bytes in use`);
      });
    }
  });
}

test('the spec covers every method of the API', async () => {
  const pe = await loadPosenc();
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(pe)).filter((m) => m !== 'constructor' && typeof pe[m] === 'function');
  const untested = methods.filter((m) => !(m in SPEC) && m !== 'heapBytes');
  assert.deepEqual(untested, [], `methods without a parameter spec: ${untested.join(', ')}`);
});

// ---- memory limits ----

describe('memory limits', () => {
  test('sizes past the limits throw RangeError before any allocation', async (t) => {
    const pe = await loadPosenc();
    const before = pe.heapBytes();
    // refused before anything is allocated: the CPU time is printed, not asserted (the caps are the guarantee)
    for (const call of [
      () => pe.sinusoidal(1e9, 4096),
      () => pe.sinusoidal(2 ** 26, 2),
      () => pe.binary(2 ** 26, 31),
      () => pe.alibiBias(1024, 4096),
      () => pe.tensor(2 ** 27),
      () => pe.orderDemo(new Array(4096).fill(0), { dim: 4096, heads: 4096 }),
    ]) {
      const t0 = process.cpuUsage();
      assert.throws(call, RangeError);
      const { user, system } = process.cpuUsage(t0);
      t.diagnostic(`${call}: refused in ${((user + system) / 1000).toFixed(2)} ms of CPU`);
    }
    assert.deepEqual(pe.heapBytes(), before, 'a refused call allocated');
    assert.equal(pe.limits.callBytes, MAX_CALL_BYTES);
    assert.equal(pe.limits.heapBytes, MAX_HEAP_BYTES);
    assert.ok(MAX_CALL_BYTES <= MAX_HEAP_BYTES && MAX_HEAP_BYTES < 2 ** 31);
  });

  test('loadPosenc can lower the limits, not raise them', async () => {
    await assert.rejects(loadPosenc({ maxCallBytes: MAX_CALL_BYTES + 1 }), RangeError);
    await assert.rejects(loadPosenc({ maxHeapBytes: 2 ** 31 }), RangeError);
    await assert.rejects(loadPosenc({ maxCallBytes: 0 }), RangeError);
    await assert.rejects(loadPosenc({ maxCallBytes: '1024' }), TypeError);
    await assert.rejects(loadPosenc({ maxHeapBytes: NaN }), TypeError);
    const pe = await loadPosenc({ maxCallBytes: 2 ** 20, maxHeapBytes: 2 ** 22 });
    assert.deepEqual({ ...pe.limits }, { callBytes: 2 ** 20, heapBytes: 2 ** 22 });
    assert.ok(Object.isFrozen(pe.limits));
  });

  for (const simd of [true, false]) {
    test(`the per-call budget counts every allocation of a call, and a refusal frees what it took (${simd ? 'simd' : 'scalar'})`, async () => {
      const pe = await loadPosenc({ simd, maxCallBytes: 2 ** 16 });
      const ref = await loadPosenc({ simd });
      const before = pe.heapBytes();
      assert.throws(() => pe.sinusoidal(65, 256), /limit per call is 65536/); // 66560 B of output
      assert.equal(pe.sinusoidal(64, 256).length, 64 * 256); // exactly 65536 B: allowed
      // out (512 B) is allocated before weights (64 KiB) is refused: out must be freed
      const q = new Float32Array(128).fill(0.25);
      assert.throws(() => pe.attention(q, q, q, { heads: 1, headDim: 1 }), RangeError);
      // inputs copied in, then the output refused
      assert.throws(() => pe.shiftSinusoidal(new Float32Array(9000), 1, { dim: 2 }), RangeError);
      assert.deepEqual(pe.heapBytes(), before, 'a refused call left bytes in use or grew memory');
      assert.deepEqual(pe.sinusoidal(7, 6, { start: 3 }), ref.sinusoidal(7, 6, { start: 3 }));
      assert.deepEqual(pe.attention(q.subarray(0, 8), q.subarray(0, 8), q.subarray(0, 8), { heads: 1, headDim: 1 }),
        ref.attention(q.subarray(0, 8), q.subarray(0, 8), q.subarray(0, 8), { heads: 1, headDim: 1 }));
    });

    test(`live tensors count against the heap limit (${simd ? 'simd' : 'scalar'})`, async () => {
      const heapBytes = 16 * 2 ** 20;
      const pe = await loadPosenc({ simd, maxHeapBytes: heapBytes });
      const before = pe.heapBytes().inUse;
      const live = [];
      let refused = null;
      for (let i = 0; i < 64 && !refused; i++) {
        try {
          live.push(pe.tensor(2 ** 18)); // 1 MiB each
        } catch (e) {
          refused = e;
        }
      }
      assert.ok(refused instanceof RangeError, 'no refusal before 64 MiB of tensors');
      assert.match(refused.message, /free tensors/);
      assert.ok(live.length >= 14 && live.length <= 16, `${live.length} tensors of 1 MiB under a 16 MiB limit`);
      assert.ok(pe.heapBytes().inUse <= heapBytes);
      assert.throws(() => pe.sinusoidal(512, 1024), /wasm heap would hold/); // 2 MiB more: no room
      for (const t of live) t.free();
      assert.equal(pe.heapBytes().inUse, before);
      assert.equal(pe.sinusoidal(512, 1024).length, 512 * 1024); // room again
      // memory itself grows in steps past what is live, but stays near the limit
      assert.ok(pe.heapBytes().total <= 1.5 * heapBytes, `memory grew to ${pe.heapBytes().total}`);
    });
  }
});

// ---- no leak across 10^5 mixed calls ----

test('10^5 mixed calls, failing ones included, leave the heap exactly where it started', async (t) => {
  const t0 = process.cpuUsage();
  for (const simd of [true, false]) {
    // a small per-call limit, so that some calls fail after part of their allocations
    const pe = await loadPosenc({ simd, maxCallBytes: 2 ** 16 });
    const x = new Float32Array(2 * 2 * 8).fill(0.5);
    const q = new Float32Array(128).fill(0.25);
    const ropeOpts = { heads: 2, headDim: 8, positions: [0, 7], style: 'interleaved' };
    const fails = (f) => () => {
      try {
        f();
      } catch {
        return;
      }
      throw new Error(`expected a failure: ${f}`);
    };
    const calls = [
      () => pe.sinusoidal(4, 8),
      () => pe.sinusoidal(2, 4, { layout: 'tensor2tensor', start: 9 }),
      () => pe.binary(5, 3),
      () => pe.ropeInvFreq(16, { scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 } }),
      () => pe.ropeCache([1, 2], 4, { precision: 'bf16' }),
      () => pe.applyRope(x, ropeOpts),
      () => pe.attention(q.subarray(0, 4), q.subarray(0, 8), q.subarray(0, 8), { heads: 1, headDim: 2, causal: true }),
      () => pe.gram([1, 2, 3, 4], [5, 6], 2),
      () => pe.ropeDecay([0, 5, 50], { dim: 8, kind: 'bound' }),
      () => pe.sinusoidalDecay([1, 2], { dim: 4 }),
      () => pe.alibiBias(2, 3),
      () => pe.randomNormal(3, 9),
      () => {
        const t = pe.tensor(x);
        pe.applyRopeInPlace(t, ropeOpts);
        t.free();
      },
      fails(() => pe.sinusoidal(4, 5)), // refused by the argument checks
      fails(() => pe.applyRope(x, { ...ropeOpts, positions: [0, -1] })),
      fails(() => pe.ropeCache([65450], 2, { precision: { position: 'bf16', angle: 'f16' } })), // by the kernel, after allocation
      fails(() => pe.attention(q, q, q, { heads: 1, headDim: 1 })), // by the budget, after one allocation
    ];
    const cycle = () => {
      for (const c of calls) c();
    };
    for (let i = 0; i < 50; i++) cycle(); // warm up: the allocator's first chunks, the JIT
    const before = pe.heapBytes();
    const rounds = Math.ceil(1e5 / calls.length);
    for (let i = 0; i < rounds; i++) cycle();
    const after = pe.heapBytes();
    assert.equal(after.inUse, before.inUse, `${simd ? 'simd' : 'scalar'}: malloc reports bytes still in use`);
    assert.equal(after.total, before.total, `${simd ? 'simd' : 'scalar'}: wasm memory grew`);
  }
  const { user, system } = process.cpuUsage(t0);
  t.diagnostic(`2 × 1e5 calls: ${((user + system) / 1e6).toFixed(1)} s of CPU`);
});

// ---- a trap fails closed ----

test('after a WebAssembly trap the instance refuses every call', async () => {
  const heap = await instantiate(new URL('../web/build/posenc-scalar.wasm', import.meta.url));
  // a pointer past the end of memory: the kernel's first store traps
  const past = heap.memory.buffer.byteLength - 8;
  assert.throws(() => heap.call('posenc_sinusoidal', past, 4, 8, 10000, 0, 0), WebAssembly.RuntimeError);
  assert.throws(() => heap.call('posenc_binary', 16, 1, 1), /stopped after a WebAssembly trap/);
  assert.throws(() => heap.scoped(() => 0), /stopped after a WebAssembly trap/);
});

// ---- an engine without WebAssembly SIMD ----

/** Whether a module's type section uses v128 (0x7b), as a SIMD-less validator would reject. */
function typesUseV128(bytes) {
  const b = new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength);
  let i = 8;
  const leb = () => {
    let v = 0, shift = 0, byte;
    do {
      byte = b[i++];
      v |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return v >>> 0;
  };
  while (i < b.length) {
    const id = b[i++], size = leb(), end = i + size;
    if (id === 1 && b.subarray(i, end).includes(0x7b)) return true;
    i = end;
  }
  return false;
}

test('an engine without SIMD: loadPosenc() picks the scalar build, which works', async () => {
  const simdBytes = readFileSync(new URL('../web/build/posenc.wasm', import.meta.url));
  const isSimd = (bytes) => {
    const b = ArrayBuffer.isView(bytes) ? bytes : new Uint8Array(bytes);
    return typesUseV128(b) || (b.byteLength === simdBytes.byteLength && Buffer.compare(Buffer.from(b.buffer, b.byteOffset, b.byteLength), simdBytes) === 0);
  };
  const { validate, compile } = WebAssembly;
  WebAssembly.validate = (bytes) => !isSimd(bytes) && validate.call(WebAssembly, bytes);
  WebAssembly.compile = async (bytes) => {
    if (isSimd(bytes)) throw new WebAssembly.CompileError('invalid value type 0x7b (SIMD is not supported)');
    return compile.call(WebAssembly, bytes);
  };
  try {
    const pe = await loadPosenc({ simd: 'auto' });
    assert.equal(pe.simd, false, 'auto chose the SIMD build on an engine without SIMD');
    await assert.rejects(loadPosenc({ simd: true }), /no WebAssembly SIMD/);
    const t = pe.sinusoidal(2, 4);
    assert.ok(Math.abs(t[4] - Math.sin(1)) < 1e-7 && Math.abs(t[5] - Math.cos(1)) < 1e-7);
    const r = pe.applyRope([1, 0], { heads: 1, headDim: 2, positions: [1], style: 'half' });
    assert.ok(Math.abs(r[0] - Math.cos(1)) < 1e-7 && Math.abs(r[1] - Math.sin(1)) < 1e-7);
    assert.throws(() => pe.sinusoidal(4, 5), RangeError);
    assert.equal(pe.sinusoidal(3, 4).length, 12);
  } finally {
    WebAssembly.validate = validate;
    WebAssembly.compile = compile;
  }
});
