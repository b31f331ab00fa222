// The SIMD and scalar builds run different code (explicit wasm_simd128.h forms against the
// scalar reference forms); they must agree element for element.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, ulp32, randomFloats } from './reference.js';

const [[, simd], [, scalar]] = await builds;

/** Largest |a - b| in units of `tol(i)`; must stay <= 1. */
function worst(a, b, tol) {
  assert.equal(a.length, b.length);
  let w = 0;
  for (let i = 0; i < a.length; i++) w = Math.max(w, Math.abs(a[i] - b[i]) / tol(i));
  return w;
}
const twoUlp = (a, b) => (i) => 2 * ulp32(Math.max(Math.abs(a[i]), Math.abs(b[i])));

test('sinusoidal tables agree within 2 ulp (plus the float64 rounding of the angle itself)', () => {
  for (const [L, D, start] of [[2048, 512, 0], [1000, 256, 999_000], [67, 130, 5], [1, 2, 0]]) {
    for (const layout of ['interleaved', 'concat']) {
      const a = simd.sinusoidal(L, D, { start, layout }), b = scalar.sinusoidal(L, D, { start, layout });
      // both round the angle (start + r) * w_i to float64: up to 2^-52 of it apart, which
      // matters only for values near zero at large positions
      const angle = (start + L) * 2 ** -51;
      const u = twoUlp(a, b);
      assert.ok(worst(a, b, (i) => u(i) + angle) <= 1, `L=${L} D=${D} start=${start} ${layout}`);
    }
  }
});

// The SIMD forms skip the angle reduction where every angle is small (below 0.78 rad for
// sin/cos, 1.5 for cosines alone), and the quadrant step runs after rounding to float32: the
// small positions and distances here straddle those bounds.
test('RoPE, caches and decay curves are the same bits in both builds (same float64 sin/cos steps)', () => {
  const large = Array.from({ length: 130 }, (_, i) => i * 7777.7);
  const small = Array.from({ length: 200 }, (_, i) => i * 0.013);
  for (const positions of [large, small]) {
    for (const rot of [256, 126, 64, 6, 2]) {
      const ca = simd.ropeCache(positions, rot), cb = scalar.ropeCache(positions, rot);
      assert.deepEqual(ca, cb, `cache rot=${rot} up to ${positions.at(-1)}`);
    }
    // head sizes around the vector width: 1..9 pairs hit every SIMD tail
    for (const headDim of [2, 4, 6, 8, 10, 14, 18, 130]) {
      const x = randomFloats(positions.length * 3 * headDim, headDim);
      for (const style of ['interleaved', 'half']) {
        const o = { heads: 3, headDim, positions, style };
        assert.deepEqual(simd.applyRope(x, o), scalar.applyRope(x, o), `rope ${style} headDim=${headDim}`);
      }
    }
  }
  for (const d of [Array.from({ length: 301 }, (_, i) => i * 331.7), Array.from({ length: 301 }, (_, i) => ((i * 7919) % 301) * 0.011)]) {
    for (const kind of ['ones', 'bound']) {
      for (const dim of [256, 64]) assert.deepEqual(simd.ropeDecay(d, { dim, kind }), scalar.ropeDecay(d, { dim, kind }), `${kind} d=${dim}`);
    }
  }
  const d = Array.from({ length: 301 }, (_, i) => i * 331.7);
  const q = randomFloats(64, 1), k = randomFloats(64, 2);
  const va = simd.ropeDecay(d, { dim: 64, kind: 'vectors', q, k, style: 'interleaved' }), vb = scalar.ropeDecay(d, { dim: 64, kind: 'vectors', q, k, style: 'interleaved' });
  assert.deepEqual(va, vb, 'vectors');
});

test('the heap scan finds the first bad number in both builds, at every offset of a block', () => {
  for (const pe of [simd, scalar]) {
    for (const bad of [0, 3, 5, 10, 14, 63, 64, 65, 127, 130, 199]) {
      for (const v of [NaN, Infinity, -Infinity]) {
        const x = new Float32Array(200).fill(1);
        x[bad] = v;
        assert.throws(() => pe.gram(x, x, 1), new RegExp(`^RangeError: a\\[${bad}\\] must be finite`));
        const y = new Float64Array(200).fill(1);
        y[bad] = v;
        assert.throws(() => pe.ropeDecay(y, { dim: 4 }), new RegExp(`distances\\[${bad}\\] must be finite`));
      }
    }
  }
});

test('attention, dot products, the word-order experiment, decay on uniform grids and sinusoidal decay are the same bits in both builds', () => {
  for (const headDim of [1, 3, 4, 9, 130]) {
    const heads = 2, seq = 7, n = seq * heads * headDim;
    const q = randomFloats(n, 11), k = randomFloats(n, 12), v = randomFloats(n, 13);
    for (const causal of [false, true]) {
      assert.deepEqual(simd.attention(q, k, v, { heads, headDim, causal }), scalar.attention(q, k, v, { heads, headDim, causal }), `attention hd=${headDim}`);
    }
    assert.deepEqual(simd.gram(q, k, headDim), scalar.gram(q, k, headDim), `gram ${headDim}`);
    assert.deepEqual(simd.rowCosines(q, k, headDim), scalar.rowCosines(q, k, headDim), `rowCosines ${headDim}`);
  }
  for (const encoding of ['none', 'sinusoidal', 'rope']) {
    const o = { encoding, causal: true, seed: 3 };
    assert.deepEqual(simd.orderDemo([1, 2, 3, 0], o), scalar.orderDemo([1, 2, 3, 0], o), encoding);
  }
  const grid = Array.from({ length: 2001 }, (_, i) => i * 5);
  for (const kind of ['ones', 'bound']) assert.deepEqual(simd.ropeDecay(grid, { dim: 130, kind }), scalar.ropeDecay(grid, { dim: 130, kind }), `grid ${kind}`);
  const q = randomFloats(130, 4), k = randomFloats(130, 5);
  assert.deepEqual(simd.sinusoidalDecay(grid, { dim: 130, q, k }), scalar.sinusoidalDecay(grid, { dim: 130, q, k }), 'sinusoidal decay');
});

// Positions in exact arithmetic progression take the float64 rotation recurrence (anchored every
// 64 rows) in the cache and the fused kernel: fewer than 24 positions, 24, around one run and past
// it, angles up to 2^18 (the widest rounding window) and past (1e6, 1e7: the direct path), a
// non-integer step, and every head-dim tail of the SIMD forms.
test('RoPE caches and fused RoPE on progressions are the same bits in both builds', () => {
  const range = (n, start = 0, step = 1) => Array.from({ length: n }, (_, r) => start + r * step);
  const runs = [range(23), range(24), range(63), range(64), range(65), range(130), range(140, 262000), range(200, 1e6), range(70, 1e7),
    range(100, 17, 3), range(129, 1000.125, 0.5), range(64, 5000, -1)];
  const yarn = { scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 } };
  for (const positions of runs) {
    const at = `${positions.length} from ${positions[0]} by ${positions[1] - positions[0]}`;
    for (const rot of [256, 130, 64, 14, 6, 2]) {
      assert.deepEqual(simd.ropeCache(positions, rot), scalar.ropeCache(positions, rot), `cache rot=${rot} ${at}`);
    }
    assert.deepEqual(simd.ropeCache(positions, 64, yarn), scalar.ropeCache(positions, 64, yarn), `cache yarn ${at}`);
    for (const [heads, headDims] of [[1, [2, 4, 6, 8, 10, 12, 14, 16, 18, 130]], [3, [2, 6, 10, 18, 130]], [5, [64]]]) {
      for (const headDim of headDims) {
        const x = randomFloats(positions.length * heads * headDim, headDim + heads);
        for (const style of ['interleaved', 'half']) {
          const o = { heads, headDim, positions, style };
          assert.deepEqual(simd.applyRope(x, o), scalar.applyRope(x, o), `rope ${style} ${heads}x${headDim} ${at}`);
        }
      }
    }
    const x = randomFloats(positions.length * 2 * 64, 3);
    const o = { heads: 2, headDim: 64, rotaryDim: 16, positions, style: 'half' };
    assert.deepEqual(simd.applyRope(x, o), scalar.applyRope(x, o), `rope partial rotary ${at}`);
  }
});
