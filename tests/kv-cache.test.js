// pe.dynamicKvCache: dynamic NTK with a KV cache in one kernel call. Checked three ways: bit
// for bit against the same experiment made of applyRope, gram and attention calls (what the
// page did before), against a float64 reference written from the formula, and its errors.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, randomFloats, rope, dot } from './reference.js';

/** The experiment one public call at a time: the cache, then each step's scores and weights. */
function composed(pe, q, k, { headDim: hd, style, base, factor, maxPositionEmbeddings, steps }) {
  const T = k.length / hd;
  const dyn = (seqLen) => ({ type: 'dynamic', factor, maxPositionEmbeddings, seqLen });
  const shape = { heads: 1, headDim: hd, style, base };
  const row = (a, j) => a.subarray(j * hd, (j + 1) * hd);
  const cache = new Float32Array(T * hd);
  for (let j = 0; j < T; j++) cache.set(pe.applyRope(row(k, j), { ...shape, positions: [j], scaling: dyn(j + 1) }), j * hd);
  const step = (t) => {
    const qt = pe.applyRope(row(q, t - 1), { ...shape, positions: [t - 1], scaling: dyn(t) });
    const fresh = pe.applyRope(k.subarray(0, t * hd), { ...shape, positions: Array.from({ length: t }, (_, j) => j), scaling: dyn(t) });
    const cached = cache.subarray(0, t * hd);
    const weights = (keys) => pe.attention(qt, keys, keys, { heads: 1, headDim: hd }).weights;
    return { c: pe.gram(qt, cached, hd), f: pe.gram(qt, fresh, hd), wc: weights(cached), wf: weights(fresh) };
  };
  const most = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
  const per = steps.map(step);
  const last = step(T);
  return {
    scoreDiff: Float64Array.from(per, (s) => most(s.c, s.f)),
    weightDiff: Float64Array.from(per, (s) => most(s.wc, s.wf)),
    cachedScores: last.c, freshScores: last.f,
  };
}

/** Hugging Face's dynamic NTK base at sequence length L, in float64 (mission-anchors formula). */
const dynBase = (base, s, maxPos, L, d) => (L > maxPos ? base * (s * L / maxPos - (s - 1)) ** (d / (d - 2)) : base);

const results = [];
for (const [name, pe] of await builds) {
  describe(`dynamicKvCache (${name})`, () => {
    test('bit for bit the experiment made of applyRope, gram and attention calls', () => {
      for (const [hd, T, maxPos, factor, style, base] of [[32, 70, 32, 2, 'half', 10000], [8, 40, 12.5, 3.7, 'interleaved', 500], [64, 20, 64, 2, 'half', 1e6]]) {
        const q = randomFloats(T * hd, hd), k = randomFloats(T * hd, hd + 1);
        const opts = { headDim: hd, style, base, factor, maxPositionEmbeddings: maxPos, steps: [T, 1, 5, Math.ceil(maxPos), T - 1, 5].filter((t) => t <= T) };
        const got = pe.dynamicKvCache(q, k, opts);
        assert.deepEqual(got, composed(pe, q, k, opts), `hd ${hd}, T ${T}, maxPos ${maxPos}`);
        // the last step asked is the last step: its score rows are reused, not computed again
        const upToT = { ...opts, steps: [2, T] };
        assert.deepEqual(pe.dynamicKvCache(q, k, upToT), composed(pe, q, k, upToT), `hd ${hd}, T ${T}, steps [2, T]`);
        results.push(got);
      }
    });

    test('the cache agrees exactly up to max_position_embeddings, and not after', () => {
      const hd = 16, T = 48, maxPos = 20;
      const q = randomFloats(T * hd, 3), k = randomFloats(T * hd, 4);
      const { scoreDiff, weightDiff } = pe.dynamicKvCache(q, k, { headDim: hd, style: 'half', factor: 2, maxPositionEmbeddings: maxPos });
      assert.equal(scoreDiff.length, T); // default steps: every step 1..T
      for (let t = 1; t <= T; t++) {
        if (t <= maxPos) assert.ok(scoreDiff[t - 1] === 0 && weightDiff[t - 1] === 0, `step ${t}`);
        else assert.ok(scoreDiff[t - 1] > 0 && weightDiff[t - 1] > 0, `step ${t}`);
      }
      // no step passes max_position_embeddings: nothing drifts at all
      const all = pe.dynamicKvCache(q, k, { headDim: hd, style: 'half', factor: 2, maxPositionEmbeddings: T });
      assert.ok(all.scoreDiff.every((x) => x === 0) && all.weightDiff.every((x) => x === 0));
      assert.deepEqual(all.cachedScores, all.freshScores);
    });

    test('the last step\'s scores match a float64 reference of the formula (key j with the base of length j + 1)', () => {
      for (const style of ['half', 'interleaved']) {
        const hd = 32, T = 60, maxPos = 16, s = 4, base = 10000;
        const q = randomFloats(T * hd, 7), k = randomFloats(T * hd, 8);
        const got = pe.dynamicKvCache(q, k, { headDim: hd, style, base, factor: s, maxPositionEmbeddings: maxPos });
        const rot = (v, p, L) => rope(v, { heads: 1, headDim: hd, positions: [p], base: dynBase(base, s, maxPos, L, hd), style });
        const qT = rot(q.subarray((T - 1) * hd), T - 1, T);
        for (let j = 0; j < T; j++) {
          const kj = k.subarray(j * hd, (j + 1) * hd);
          const wantCached = dot(qT, rot(kj, j, j + 1)), wantFresh = dot(qT, rot(kj, j, T));
          // float32 rotated vectors: a few float32 ulps of |q||k| (about 10 here)
          assert.ok(Math.abs(got.cachedScores[j] - wantCached) < 1e-5, `${style} cached j=${j}: ${got.cachedScores[j]} vs ${wantCached}`);
          assert.ok(Math.abs(got.freshScores[j] - wantFresh) < 1e-5, `${style} fresh j=${j}: ${got.freshScores[j]} vs ${wantFresh}`);
        }
        // a wrong rule (every cached key with the base of length maxPos + 1, say) would be far off
        assert.ok(got.cachedScores.some((c, j) => j > maxPos && Math.abs(c - got.freshScores[j]) > 1e-2));
      }
    });

    test('bad input: an error naming the parameter, and the heap as it was', () => {
      const hd = 8, T = 10, q = randomFloats(T * hd, 1), k = randomFloats(T * hd, 2);
      const ok = { headDim: hd, style: 'half', factor: 2, maxPositionEmbeddings: 4 };
      const before = pe.heapBytes().inUse;
      const cases = [
        [{ ...ok, headDim: 7 }, RangeError, /headDim/],
        [{ ...ok, headDim: 2 }, RangeError, /headDim/],
        [{ ...ok, style: undefined }, TypeError, /style/],
        [{ ...ok, factor: undefined }, TypeError, /factor/],
        [{ ...ok, factor: 0 }, RangeError, /factor/],
        [{ ...ok, maxPositionEmbeddings: 0.5 }, RangeError, /maxPositionEmbeddings/],
        [{ ...ok, base: NaN }, RangeError, /base/],
        [{ ...ok, steps: [0] }, RangeError, /steps\[0\]/],
        [{ ...ok, steps: [3, T + 1] }, RangeError, /steps\[1\]/],
        [{ ...ok, steps: [2.5] }, TypeError, /steps\[0\]/],
        [{ ...ok, steps: [] }, RangeError, /steps/],
      ];
      for (const [opts, E, re] of cases) assert.throws(() => pe.dynamicKvCache(q, k, opts), (e) => e instanceof E && re.test(e.message), JSON.stringify(opts));
      assert.throws(() => pe.dynamicKvCache(q.subarray(hd), k, ok), (e) => e instanceof RangeError && /^q /.test(e.message));
      assert.throws(() => pe.dynamicKvCache(q, k.subarray(1), ok), (e) => e instanceof RangeError && /^k\.length/.test(e.message));
      const nan = Float32Array.from(k);
      nan[13] = NaN;
      assert.throws(() => pe.dynamicKvCache(q, nan, ok), (e) => e instanceof RangeError && /k\[13\]/.test(e.message));
      // values a rotation could overflow to Inf (and a NaN score read as no difference)
      const huge = Float32Array.from(q);
      huge[5] = 3e38;
      assert.throws(() => pe.dynamicKvCache(huge, k, ok), (e) => e instanceof RangeError && /q\[5\]/.test(e.message));
      // a base that overflows at the longest length: the kernel refuses it before writing anything
      assert.throws(() => pe.dynamicKvCache(q, k, { ...ok, base: 1e300, factor: 1e6, maxPositionEmbeddings: 1 }), RangeError);
      assert.equal(pe.heapBytes().inUse, before);
    });
  });
}

test('dynamicKvCache: SIMD and scalar builds give the same bits', () => {
  const n = results.length / 2;
  for (let i = 0; i < n; i++) assert.deepEqual(results[i], results[n + i]);
});
