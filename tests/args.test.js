// Bad arguments: the named error, thrown before anything runs; then a correct call still
// gives the right answer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builds } from './reference.js';
import { loadPosenc, MAX_ELEMENTS } from '../web/lib/posenc.js';

const x8 = new Float32Array(8).fill(1);
const rope = (o) => (pe) => pe.applyRope(x8, { heads: 1, headDim: 8, positions: [1], style: 'half', ...o });

// [what, call, error class, text the message must contain]
const CASES = [
  ['odd dim', (pe) => pe.sinusoidal(4, 5), RangeError, 'dim'],
  ['dim as string', (pe) => pe.sinusoidal(4, '8'), TypeError, 'dim'],
  ['length 0', (pe) => pe.sinusoidal(0, 8), RangeError, 'length'],
  ['fractional length', (pe) => pe.sinusoidal(2.5, 8), TypeError, 'length'],
  ['absurd size', (pe) => pe.sinusoidal(1e6, 4096), RangeError, String(MAX_ELEMENTS)],
  ['NaN base', (pe) => pe.sinusoidal(4, 8, { base: NaN }), RangeError, 'base'],
  ['base below 1', (pe) => pe.sinusoidal(4, 8, { base: 0.5 }), RangeError, 'base'],
  ['unknown layout', (pe) => pe.sinusoidal(4, 8, { layout: 'zigzag' }), RangeError, 'layout'],
  ['negative start', (pe) => pe.sinusoidal(4, 8, { start: -1 }), RangeError, 'start'],
  ['unknown precision', (pe) => pe.sinusoidal(4, 8, { precision: 'f16' }), RangeError, 'precision'],
  ['options not an object', (pe) => pe.sinusoidal(4, 8, 'interleaved'), TypeError, 'options'],
  ['bits too many', (pe) => pe.binary(4, 40), RangeError, 'bits'],
  ['odd rotaryDim', (pe) => pe.ropeInvFreq(7), RangeError, 'rotaryDim'],
  ['Infinity base', (pe) => pe.ropeInvFreq(8, { base: Infinity }), RangeError, 'base'],
  ['negative position', (pe) => pe.ropeCache([1, -2], 8), RangeError, 'positions[1]'],
  ['NaN position', (pe) => pe.ropeCache([NaN], 8), RangeError, 'positions[0]'],
  ['Infinity position', rope({ positions: [Infinity] }), RangeError, 'positions[0]'],
  ['positions not an array', (pe) => pe.ropeCache('0,1', 8), TypeError, 'positions'],
  ['empty positions', (pe) => pe.ropeCache([], 8), RangeError, 'positions'],
  ['missing style', rope({ style: undefined }), TypeError, 'style'],
  ['unknown style', rope({ style: 'neox' }), RangeError, 'style'],
  ['rotaryDim > headDim', rope({ rotaryDim: 10 }), RangeError, 'rotaryDim'],
  ['odd rotaryDim in applyRope', rope({ rotaryDim: 3 }), RangeError, 'rotaryDim'],
  ['x length mismatch', rope({ heads: 2 }), RangeError, 'x must have length 16'],
  ['NaN heads', rope({ heads: NaN }), TypeError, 'heads'],
  ['x not numbers', (pe) => pe.applyRope(['a'], { heads: 1, headDim: 1, positions: [0], style: 'half' }), RangeError, 'rotaryDim'],
  ['x holding a string', (pe) => pe.applyRope([1, 'a'], { heads: 1, headDim: 2, positions: [0], style: 'half' }), TypeError, 'x[1]'],
  ['attention q not a multiple', (pe) => pe.attention([1, 2, 3], [1, 2], [1, 2], { heads: 1, headDim: 2 }), RangeError, 'q.length'],
  ['attention v mismatch', (pe) => pe.attention([1, 2], [1, 2], [1], { heads: 1, headDim: 2 }), RangeError, 'v must have length 2'],
  ['attention q longer than k', (pe) => pe.attention([1, 2, 3, 4], [1, 2], [1, 2], { heads: 1, headDim: 2 }), RangeError, 'q has 2 rows'],
  ['attention causal not boolean', (pe) => pe.attention([1, 2], [1, 2], [1, 2], { heads: 1, headDim: 2, causal: 1 }), TypeError, 'causal'],
  ['token out of vocab', (pe) => pe.orderDemo([1, 5]), RangeError, 'tokens[1]'],
  ['fractional token', (pe) => pe.orderDemo([1.5]), TypeError, 'tokens[0]'],
  ['unknown encoding', (pe) => pe.orderDemo([1], { encoding: 'alibi' }), RangeError, 'encoding'],
  ['dim not a multiple of heads', (pe) => pe.orderDemo([1], { dim: 10, heads: 3 }), RangeError, 'heads'],
  ['decay unknown kind', (pe) => pe.ropeDecay([1], { dim: 8, kind: 'random' }), RangeError, 'kind'],
  ['decay missing dim', (pe) => pe.ropeDecay([1], {}), TypeError, 'dim'],
  ['decay negative distance', (pe) => pe.ropeDecay([-1], { dim: 8 }), RangeError, 'distances[0]'],
  ['decay invFreq NaN', (pe) => pe.ropeDecay([1], { invFreq: [NaN] }), RangeError, 'invFreq[0]'],
  ['decay invFreq vs dim', (pe) => pe.ropeDecay([1], { invFreq: [1, 1], dim: 8 }), RangeError, 'invFreq'],
  ['decay vectors without q', (pe) => pe.ropeDecay([1], { dim: 4, kind: 'vectors', k: [1, 1, 1, 1] }), TypeError, 'q'],
  ['decay q wrong length', (pe) => pe.ropeDecay([1], { dim: 4, kind: 'vectors', q: [1], k: [1, 1, 1, 1] }), RangeError, 'q must have length 4'],
  // typed arrays are scanned after their copy into the heap (c/scan.c): the same errors
  ['typed x holding NaN', (pe) => pe.applyRope(Float32Array.of(1, 1, 1, NaN, 1, 1, 1, 1), { heads: 1, headDim: 8, positions: [1], style: 'half' }), RangeError, 'x[3] must be finite'],
  ['typed negative position', (pe) => pe.ropeCache(Float64Array.of(1, -2), 8), RangeError, 'positions[1] must be finite and in [0,'],
  ['typed position past the limit', (pe) => pe.ropeCache(Float64Array.of(0, 1e300), 8), RangeError, 'positions[1]'],
  ['float64 x past float32', (pe) => pe.applyRope(Float64Array.of(1, 1e39), { heads: 1, headDim: 2, positions: [0], style: 'half' }), RangeError, 'x[1] = 1e+39 does not fit in Float32Array'],
  ['typed distance Infinity', (pe) => pe.sinusoidalDecay(Float64Array.of(0, 1, Infinity), { dim: 4 }), RangeError, 'distances[2]'],
  ['BigInt64Array positions', (pe) => pe.ropeCache(BigInt64Array.of(1n), 8), TypeError, 'positions'],
  ['typed longrope factor 0', (pe) => pe.ropeInvFreq(4, { scaling: { type: 'longrope', shortFactor: Float64Array.of(1, 0), longFactor: [1, 1], originalMaxPositionEmbeddings: 8 } }), RangeError, 'scaling.shortFactor[1]'],
  ['tensor from NaN data', (pe) => pe.tensor(Float32Array.of(1, NaN)), RangeError, 'data[1]'],
  ['one array as both arguments', (pe) => { const x = Float32Array.of(1, NaN); return pe.gram(x, x, 2); }, RangeError, 'a[1]'],
  ['sinusoidal decay q alone', (pe) => pe.sinusoidalDecay([1], { dim: 4, q: [1, 1, 1, 1] }), TypeError, 'q and k'],
  ['random seed negative', (pe) => pe.randomNormal(4, -1), RangeError, 'seed'],
  ['random seed fractional', (pe) => pe.randomNormal(4, 1.5), TypeError, 'seed'],
  ['random n zero', (pe) => pe.randomNormal(0, 1), RangeError, 'n'],
  ['gram ragged', (pe) => pe.gram([1, 2, 3], [1, 2], 2), RangeError, 'a.length'],
  ['shift k NaN', (pe) => pe.shiftSinusoidal([0, 1], NaN, { dim: 2 }), RangeError, 'k'],
];

for (const [name, pe] of await builds) {
  describe(`bad arguments (${name})`, () => {
    for (const [what, call, Err, text] of CASES) {
      test(what, () => {
        assert.throws(() => call(pe), (e) => e instanceof Err && e.message.includes(text), `${what}: expected ${Err.name} naming ${text}`);
        // the module is still usable and right
        const t = pe.sinusoidal(2, 4);
        assert.ok(Math.abs(t[4] - 0.84147098) < 1e-7);
      });
    }
  });
}

test('loadPosenc rejects bad options', async () => {
  await assert.rejects(loadPosenc({ simd: 'yes' }), RangeError);
  await assert.rejects(loadPosenc(42), TypeError);
});

test('the wrapper leaks nothing: heap use is flat across many calls, failing ones included', async () => {
  const pe = await loadPosenc();
  const x = new Float32Array(4 * 2 * 64).fill(0.5);
  const work = () => {
    pe.applyRope(x, { heads: 2, headDim: 64, positions: [0, 1, 2, 3], style: 'interleaved' });
    pe.sinusoidal(64, 64);
    pe.ropeDecay([1, 2, 3], { dim: 64, kind: 'bound' });
    assert.throws(() => pe.applyRope(x, { heads: 2, headDim: 64, positions: [0, 1, 2, -3], style: 'half' }));
    assert.throws(() => pe.applyRope(x, { heads: 2, headDim: 64, positions: Float64Array.of(0, 1, NaN, 3), style: 'half' }));
    assert.throws(() => pe.tensor(Float32Array.of(0, NaN)));
  };
  for (let i = 0; i < 200; i++) work();
  const before = pe.heapBytes();
  for (let i = 0; i < 20000; i++) work();
  const after = pe.heapBytes();
  assert.equal(after.inUse, before.inUse, 'malloc reports bytes still in use: something is not freed');
  assert.equal(after.total, before.total, 'wasm memory grew');
});
