import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, rope, freq, pairDims, dot, maxRelErr, randomFloats } from './reference.js';

const STYLES = ['interleaved', 'half'];

for (const [name, pe] of await builds) {
  describe(`RoPE (${name})`, () => {
    test('inverse frequencies base^(-2i/d)', () => {
      const inv = pe.ropeInvFreq(128, { base: 500000 });
      assert.equal(inv.length, 64);
      inv.forEach((v, i) => assert.ok(Math.abs(v - freq(i, 128, 500000)) <= 1e-16 * v * 4, `i=${i}`));
      assert.equal(pe.ropeInvFreq(2)[0], 1);
    });

    test('cos/sin cache matches float64 at positions up to 1e6', () => {
      const positions = [0, 1, 2, 4095, 123_456, 999_999, 1_000_000];
      const { cos, sin } = pe.ropeCache(positions, 256);
      positions.forEach((p, r) => {
        for (let i = 0; i < 128; i++) {
          const a = p * freq(i, 256);
          assert.ok(Math.abs(cos[r * 128 + i] - Math.cos(a)) <= 1e-7, `cos p=${p} i=${i}`);
          assert.ok(Math.abs(sin[r * 128 + i] - Math.sin(a)) <= 1e-7, `sin p=${p} i=${i}`);
        }
      });
    });

    test('rotation sign and pairing on a unit vector', () => {
      // theta_0 = 1: at position pi/2 pair 0 turns a quarter: (1, 0) -> (0, 1)
      for (const style of STYLES) {
        const x = new Float32Array(4);
        x[0] = 1;
        const y = pe.applyRope(x, { heads: 1, headDim: 4, positions: [Math.PI / 2], style });
        const [, d1] = pairDims(0, 4, style);
        assert.ok(Math.abs(y[0]) < 1e-7 && Math.abs(y[d1] - 1) < 1e-7, `${style}: ${Array.from(y)}`);
      }
    });

    test('matches float64 within 1e-6 max(1,|x|): positions to 1e6, rotaryDim to 256, partial, tails', () => {
      const cases = [
        { heads: 3, headDim: 256, seq: 4, positions: [0, 17, 500_000, 1_000_000] },
        { heads: 2, headDim: 64, rotaryDim: 16, seq: 3, positions: [1, 2, 3] }, // GPT-NeoX rotary_pct 0.25
        { heads: 1, headDim: 10, rotaryDim: 6, seq: 2, positions: [999_999, 7] }, // 3 pairs: SIMD tail
        { heads: 4, headDim: 2, seq: 5, positions: [0, 1, 2, 3, 4.5] },
        { heads: 2, headDim: 5, rotaryDim: 4, seq: 2, positions: [8, 9] }, // odd head: last dim passes
      ];
      for (const c of cases) {
        const x = randomFloats(c.seq * c.heads * c.headDim, 42).map((v) => v * 3);
        for (const style of STYLES) {
          const { seq, ...opts } = c;
          const got = pe.applyRope(x, { ...opts, style });
          const want = rope(x, { ...c, style });
          const err = maxRelErr(got, want);
          assert.ok(err <= 1e-6, `${JSON.stringify(c)} ${style}: ${err}`);
          const rot = c.rotaryDim ?? c.headDim;
          for (let r = 0; r < c.seq * c.heads; r++)
            for (let d = rot; d < c.headDim; d++) assert.equal(got[r * c.headDim + d], x[r * c.headDim + d], 'pass-through');
        }
      }
    });

    test('preserves the norm of every pair', () => {
      const x = randomFloats(3 * 2 * 32, 7);
      for (const style of STYLES) {
        const y = pe.applyRope(x, { heads: 2, headDim: 32, positions: [5, 50_000, 1_000_000], style });
        for (let row = 0; row < 6; row++)
          for (let i = 0; i < 16; i++) {
            const [a, b] = pairDims(i, 32, style).map((d) => row * 32 + d);
            const n0 = Math.hypot(x[a], x[b]), n1 = Math.hypot(y[a], y[b]);
            assert.ok(Math.abs(n0 - n1) <= 1e-6 * Math.max(1, n0), `${style} row ${row} pair ${i}`);
          }
      }
    });

    test('(R_m q) . (R_n k) depends only on n - m, even shifted by 1e6', () => {
      const d = 128, q = randomFloats(d, 1), k = randomFloats(d, 2);
      for (const style of STYLES) {
        const score = (m, n) => {
          const opts = { heads: 1, headDim: d, style };
          return dot(pe.applyRope(q, { ...opts, positions: [m] }), pe.applyRope(k, { ...opts, positions: [n] }));
        };
        for (const [m, n] of [[0, 5], [3, 3], [10, 2], [100, 1100]]) {
          const s0 = score(m, n), s1 = score(m + 1e6, n + 1e6), s2 = score(m + 777, n + 777);
          assert.ok(Math.abs(s1 - s0) <= 1e-5 * Math.max(1, Math.abs(s0)), `${style} m=${m} n=${n}: ${s0} vs ${s1}`);
          assert.ok(Math.abs(s2 - s0) <= 1e-5 * Math.max(1, Math.abs(s0)));
        }
      }
    });

    test("'half' and 'interleaved' agree after the matching permutation of dims", () => {
      const d = 16, heads = 2, positions = [0, 3, 1000];
      const x = randomFloats(positions.length * heads * d, 9);
      // interleaved dim 2i <-> half dim i, 2i+1 <-> i + d/2
      const perm = Array.from({ length: d }, (_, j) => (j % 2 === 0 ? j / 2 : d / 2 + (j - 1) / 2));
      const toHalf = (v) => {
        const out = new Float32Array(v.length);
        for (let r = 0; r < v.length / d; r++) for (let j = 0; j < d; j++) out[r * d + perm[j]] = v[r * d + j];
        return out;
      };
      const inter = pe.applyRope(x, { heads, headDim: d, positions, style: 'interleaved' });
      const half = pe.applyRope(toHalf(x), { heads, headDim: d, positions, style: 'half' });
      assert.deepEqual(Array.from(half), Array.from(toHalf(inter)));
    });

    test('x is not modified; a new array comes back', () => {
      const x = randomFloats(8, 3), copy = Float32Array.from(x);
      const y = pe.applyRope(x, { heads: 1, headDim: 8, positions: [5], style: 'half' });
      assert.deepEqual(x, copy);
      assert.notEqual(y, x);
    });

    test('a mismatch of x and positions, or of a table and rotaryDim, names both sides', () => {
      const o = { heads: 2, headDim: 8, style: 'half' };
      assert.throws(() => pe.applyRope(new Float32Array(48), { ...o, positions: [0, 1] }),
        /^RangeError: x must have length 32 \(positions.length 2 × heads 2 × headDim 8\), got 48: 3 rows of heads × headDim against 2 positions$/);
      const c = pe.ropeCache([0, 1, 2], 4);
      assert.throws(() => pe.applyRope(new Float32Array(48), { ...o, cos: c.cos, sin: c.sin }),
        /^RangeError: cos must have length 12 \(x's 3 rows × rotaryDim\/2 = 4, rotaryDim defaulting to headDim\), got 6: 2 pairs a row, a table for rotaryDim 4$/);
      assert.equal(pe.applyRope(new Float32Array(48), { ...o, rotaryDim: 4, cos: c.cos, sin: c.sin }).length, 48);
      const t = pe.tensor(48), tc = pe.tensor(c.cos), ts = pe.tensor(c.sin);
      try {
        assert.throws(() => pe.applyRopeInPlace(t, { ...o, positions: [0, 1] }),
          /^RangeError: positions must have length 3, one per row of x \(x.length 48 \/ \(heads 2 × headDim 8\)\), got 2$/);
        assert.throws(() => pe.applyRopeInPlace(t, { ...o, cos: tc, sin: ts }), /^RangeError: cos must have length 12 .*rotaryDim defaulting to headDim.*a table for rotaryDim 4$/);
      } finally {
        t.free(); tc.free(); ts.free();
      }
      assert.throws(() => pe.ropeCache([1], 8, { precision: 'fp16' }), /^RangeError: precision must be one of "f64", "f32", "bf16", "f16", got "fp16"$/);
    });

    test('a ropeConfig layer, destructured into applyRope, rotates as transformers does (Qwen2.5 with YaRN ×4, float64 reference)', () => {
      const config = { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_hidden_layers: 28, max_position_embeddings: 131072,
        rope_theta: 1e6, rope_scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } };
      const { base, rotaryDim, scaling, style } = pe.ropeConfig(config).layerTypes.full_attention;
      const heads = 2, headDim = 128, positions = [0, 1, 4097, 32767, 100000];
      const x = randomFloats(positions.length * heads * headDim, 7);
      const y = pe.applyRope(x, { heads, headDim, base, rotaryDim, scaling, style, positions });
      // transformers' _compute_yarn_parameters and rotate_half, in float64
      const d = 128, s = 4, l0 = 32768, corr = (r) => (d * Math.log(l0 / (r * 2 * Math.PI))) / (2 * Math.log(1e6));
      const low = Math.max(Math.floor(corr(32)), 0), high = Math.min(Math.ceil(corr(1)), d - 1);
      const inv = Array.from({ length: d / 2 }, (_, i) => {
        const t = 1e6 ** (-2 * i / d), ramp = Math.min(1, Math.max(0, (i - low) / (high - low)));
        return (t / s) * ramp + t * (1 - ramp);
      });
      const attn = 0.1 * Math.log(s) + 1;
      assert.equal(style, 'half');
      positions.forEach((p, r) => {
        for (let h = 0; h < heads; h++) {
          const at = (r * heads + h) * headDim;
          for (let i = 0; i < d / 2; i++) {
            const c = Math.cos(p * inv[i]) * attn, sn = Math.sin(p * inv[i]) * attn, a = x[at + i], b = x[at + i + d / 2];
            assert.ok(Math.abs(y[at + i] - (a * c - b * sn)) < 2e-6 && Math.abs(y[at + i + d / 2] - (a * sn + b * c)) < 2e-6, `p=${p} pair ${i}`);
          }
        }
      });
    });
  });
}
