import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, maxAbsDiff, randomFloats, normals, ulp32 } from './reference.js';

// output rows of token t: [t*dim, (t+1)*dim)
const row = (out, t, dim = 10) => out.subarray(t * dim, (t + 1) * dim);

for (const [name, pe] of await builds) {
  describe(`attention (${name})`, () => {
    test('softmax rows sum to 1, causal weights vanish above the diagonal, output = weights . v', () => {
      const [seq, heads, hd] = [5, 2, 3];
      const q = randomFloats(seq * heads * hd, 1), k = randomFloats(seq * heads * hd, 2), v = randomFloats(seq * heads * hd, 3);
      for (const causal of [false, true]) {
        const { output, weights } = pe.attention(q, k, v, { heads, headDim: hd, causal });
        for (let h = 0; h < heads; h++)
          for (let i = 0; i < seq; i++) {
            const w = weights.subarray((h * seq + i) * seq, (h * seq + i + 1) * seq);
            assert.ok(Math.abs(w.reduce((a, b) => a + b) - 1) < 1e-6);
            if (causal) for (let j = i + 1; j < seq; j++) assert.equal(w[j], 0);
            for (let d = 0; d < hd; d++) {
              let want = 0;
              for (let j = 0; j < seq; j++) want += w[j] * v[(j * heads + h) * hd + d];
              assert.ok(Math.abs(output[(i * heads + h) * hd + d] - want) < 1e-6);
            }
          }
      }
      // a head wider than the kernel's block of output accumulators (128): every block summed
      {
        const [s2, h2, d2] = [3, 2, 300];
        const q2 = randomFloats(s2 * h2 * d2, 4), k2 = randomFloats(s2 * h2 * d2, 5), v2 = randomFloats(s2 * h2 * d2, 6);
        const { output, weights } = pe.attention(q2, k2, v2, { heads: h2, headDim: d2, causal: true });
        for (let h = 0; h < h2; h++)
          for (let i = 0; i < s2; i++)
            for (let d = 0; d < d2; d++) {
              let want = 0;
              for (let j = 0; j < s2; j++) want += weights[(h * s2 + i) * s2 + j] * v2[(j * h2 + h) * d2 + d];
              assert.ok(Math.abs(output[(i * h2 + h) * d2 + d] - want) < 1e-6, `h ${h} i ${i} d ${d}`);
            }
      }
      // large scores do not overflow the softmax
      const big = Float32Array.from(q, (x) => x * 1e4);
      const { weights } = pe.attention(big, big, v, { heads, headDim: hd });
      assert.ok(weights.every(Number.isFinite));
    });

    test('a KV cache step equals the full recomputation', () => {
      const [seq, heads, hd] = [5, 2, 4];
      const q = randomFloats(seq * heads * hd, 4), k = randomFloats(seq * heads * hd, 5), v = randomFloats(seq * heads * hd, 6);
      const full = pe.attention(q, k, v, { heads, headDim: hd, causal: true });
      const step = pe.attention(q.slice(4 * heads * hd), k, v, { heads, headDim: hd, causal: true });
      assert.deepEqual(step.output, full.output.slice(4 * heads * hd));
    });
  });

  describe(`the source post's word-order experiment (${name})`, () => {
    const run = (tokens, opts) => pe.orderDemo(tokens, { dim: 10, heads: 2, vocab: 5, seed: 0, ...opts }).output;

    test('without position encoding: token 3 identical, tokens 1 and 2 just swap', () => {
      const a = run([1, 2, 3]), b = run([2, 1, 3]);
      assert.deepEqual(row(a, 2), row(b, 2));
      assert.deepEqual(row(a, 0), row(b, 1));
      assert.deepEqual(row(a, 1), row(b, 0));
      assert.ok(maxAbsDiff(row(a, 0), row(a, 1)) > 1e-3, 'tokens 1 and 2 differ');
    });

    test('a causal mask alone breaks the swap, but not token 3', () => {
      const a = run([1, 2, 3], { causal: true }), b = run([2, 1, 3], { causal: true });
      assert.ok(maxAbsDiff(row(a, 0), row(b, 1)) > 1e-3, 'token 1 depends on where it stands');
      assert.ok(maxAbsDiff(row(a, 2), row(b, 2)) < 1e-6, 'token 3 sees every token: unchanged');
    });

    test('sinusoidal PE or RoPE change token 3', () => {
      for (const encoding of ['sinusoidal', 'rope']) {
        for (const causal of [false, true]) {
          const a = run([1, 2, 3], { encoding, causal }), b = run([2, 1, 3], { encoding, causal });
          assert.ok(maxAbsDiff(row(a, 2), row(b, 2)) > 1e-3, `${encoding} causal=${causal}`);
        }
      }
    });

    test('the seed picks the weights; the same seed gives the same numbers', () => {
      assert.deepEqual(run([1, 2, 3], { seed: 3 }), run([1, 2, 3], { seed: 3 }));
      assert.ok(maxAbsDiff(run([1, 2, 3], { seed: 3 }), run([1, 2, 3], { seed: 4 })) > 1e-3);
    });
  });
}
