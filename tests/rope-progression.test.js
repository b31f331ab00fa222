// Positions in exact arithmetic progression (0..n-1, start..start+n-1, a step of 0.5) take a
// float64 rotation recurrence in the RoPE cache and fused kernels, re-anchored every 64 rows,
// whose values are rounded to float32 only where that rounding is certain to be the direct
// path's (elsewhere the direct path's formula). Here: the accuracy against cos/sin of the exact
// angle; every row the same bits as that position alone; fused == cache + table bit for bit.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, freq, randomFloats } from './reference.js';

const range = (n, start = 0, step = 1) => Array.from({ length: n }, (_, r) => start + r * step);

/**
 * [cos, sin] of the exact product p·t in float64, written here from scratch: where p·t is exact
 * in float64 (t = 1, or a power of two times an integer p below 2^53 / t's spread) Math.cos and
 * Math.sin of it; otherwise the double-double angle p·t = hi + lo (Dekker's product by
 * Veltkamp's split) and cos(hi + lo) = cos hi cos lo - sin hi sin lo with lo's own cos/sin.
 */
function exactCosSin(p, t) {
  const hi = p * t;
  const split = (a) => {
    const u = 134217729 * a, h = u - (u - a);
    return [h, a - h];
  };
  const [ph, pl] = split(p), [th, tl] = split(t);
  const lo = ((ph * th - hi) + ph * tl + pl * th) + pl * tl;
  if (lo === 0) return [Math.cos(hi), Math.sin(hi)];
  const cl = Math.cos(lo), sl = Math.sin(lo), ch = Math.cos(hi), sh = Math.sin(hi);
  return [ch * cl - sh * sl, sh * cl + ch * sl];
}

/** Largest |cache - exact| over every row and pair (attn = 1). */
function cacheErr({ cos, sin }, positions, rot, base) {
  let m = 0;
  const half = rot / 2;
  positions.forEach((p, r) => {
    for (let i = 0; i < half; i++) {
      const [c, s] = exactCosSin(p, freq(i, rot, base));
      m = Math.max(m, Math.abs(cos[r * half + i] - c), Math.abs(sin[r * half + i] - s));
    }
  });
  return m;
}

/** One position at a time: the direct path (a single position is never a progression). */
function rowByRow(pe, positions, rot, opts) {
  const half = rot / 2, cos = new Float32Array(positions.length * half), sin = new Float32Array(cos.length);
  positions.forEach((p, r) => {
    const one = pe.ropeCache([p], rot, opts);
    cos.set(one.cos, r * half);
    sin.set(one.sin, r * half);
  });
  return { cos, sin };
}

const PROGRESSIONS = [
  ['0..2047', range(2048)],
  ['1e6..1e6+199 (past 2^18 rad: the direct path)', range(200, 1e6)],
  ['262000..262139 (angles up to 2^18 rad: the recurrence with its widest window)', range(140, 262000)],
  ['1e7..1e7+129 (angles past the reduction: the direct path)', range(130, 1e7)],
  ['123456 + 3r', range(100, 123456, 3)],
  ['1000.125 + 0.5r (non-integer step)', range(150, 1000.125, 0.5)],
  ['5000..4937 (descending)', range(64, 5000, -1)],
  ['24 positions (the fewest the recurrence takes)', range(24, 77)],
  ['63 positions', range(63, 1)],
  ['64 positions', range(64, 1)],
  ['65 positions', range(65, 1)],
];

for (const [name, pe] of await builds) {
  describe(`RoPE on positions in arithmetic progression (${name})`, () => {
    test('cache within 2e-7 of cos/sin of the exact angle (base 1e4 and 5e5, positions to 1e7)', (t) => {
      for (const [label, positions] of PROGRESSIONS) {
        for (const [rot, base] of [[128, 10000], [64, 500000], [6, 10000]]) {
          const err = cacheErr(pe.ropeCache(positions, rot, { base }), positions, rot, base);
          assert.ok(err <= 2e-7, `${label} rot=${rot} base=${base}: ${err}`);
          if (rot === 128 && /^(1e[67]|262000)/.test(label)) t.diagnostic(`${label}, d=128: max error ${err.toExponential(2)}`);
        }
      }
    });

    test('pair 0 (theta = 1): the product is exact, Math.cos and Math.sin of it', () => {
      for (const start of [0, 999_936, 1e7, 2 ** 29]) {
        const positions = range(130, start);
        const { cos, sin } = pe.ropeCache(positions, 8);
        positions.forEach((p, r) => {
          assert.ok(Math.abs(cos[r * 4] - Math.cos(p)) <= 2e-7, `cos p=${p}`);
          assert.ok(Math.abs(sin[r * 4] - Math.sin(p)) <= 2e-7, `sin p=${p}`);
        });
      }
    });

    test('fused RoPE on a progression == the cache of those positions through the table kernel', () => {
      for (const [heads, headDim, rotaryDim] of [[1, 64, 64], [1, 10, 10], [3, 18, 18], [4, 130, 130], [2, 64, 16], [1, 2, 2]]) {
        for (const positions of [range(200), range(70, 200000, 3), range(30, 0.5, 0.25)]) {
          const x = randomFloats(positions.length * heads * headDim, headDim);
          for (const style of ['interleaved', 'half']) {
            const o = { heads, headDim, rotaryDim, style };
            const fused = pe.applyRope(x, { ...o, positions });
            const { cos, sin } = pe.ropeCache(positions, rotaryDim);
            const [tx, tc, ts] = [pe.tensor(x), pe.tensor(cos), pe.tensor(sin)];
            try {
              pe.applyRopeInPlace(tx, { ...o, cos: tc, sin: ts });
              assert.deepEqual(fused, tx.array.slice(), `${style} ${heads}x${headDim}/${rotaryDim} from ${positions[0]}`);
            } finally {
              [tx, tc, ts].forEach((v) => v.free());
            }
          }
        }
      }
    });

    test('fused RoPE on 0..n-1 and 1e6.. within 1e-6 of float64 rotation by the exact angles', () => {
      for (const positions of [range(300), range(100, 250000), range(100, 1e6)]) {
        const heads = 2, headDim = 64, x = randomFloats(positions.length * heads * headDim, 5).map((v) => 3 * v);
        for (const style of ['interleaved', 'half']) {
          const y = pe.applyRope(x, { heads, headDim, positions, style });
          let m = 0;
          positions.forEach((p, s) => {
            for (let h = 0; h < heads; h++)
              for (let i = 0; i < headDim / 2; i++) {
                const [c, sn] = exactCosSin(p, freq(i, headDim));
                const [d0, d1] = style === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + headDim / 2];
                const row = (s * heads + h) * headDim, a = x[row + d0], b = x[row + d1];
                m = Math.max(m, Math.abs(y[row + d0] - (a * c - b * sn)), Math.abs(y[row + d1] - (a * sn + b * c)));
              }
          });
          assert.ok(m <= 1e-6 * 3, `${style} from ${positions[0]}: ${m}`);
        }
      }
    });

    test('every row is the same bits as its position alone, progression or not', () => {
      const nudged = range(100);
      nudged[50] = 50 + 2 ** -47; // one position one ulp off: not a progression
      const cases = [
        ...PROGRESSIONS.filter(([, p]) => p.length <= 200 && p.at(-1) < 1.5e6),
        ['a permutation', range(100).map((_, i) => (i * 37) % 100)],
        ['one position off by an ulp', nudged],
        ['0.1 r (each product rounded)', range(100, 0, 0.1)],
        ['23 positions (too few to pay for the anchors)', range(23)],
        ['261900..262139 (the rounding test at its widest)', range(240, 261900)],
      ];
      // base 1.0001: every theta just below 1, so every pair's angle reaches 2^18 and rounds
      for (const [label, positions] of cases) {
        for (const [rot, opts] of [[64, {}], [130, { base: 500000 }], [6, {}], [64, { base: 1.0001 }]]) {
          assert.deepEqual(pe.ropeCache(positions, rot, opts), rowByRow(pe, positions, rot, opts), `${label} rot=${rot}`);
        }
      }
    });

    test('an attention factor (YaRN) scales the recurrence as it scales the direct path, bit for bit', () => {
      const scaling = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 };
      for (const positions of [range(100, 10), range(130, 262000)]) {
        const a = pe.ropeCache(positions, 64, { scaling });
        assert.deepEqual(a, rowByRow(pe, positions, 64, { scaling }), `from ${positions[0]}`);
        assert.ok(Math.max(...a.cos) > 1.1, 'the factor applies');
      }
    });

    test('fused RoPE: a progression in one call is bit for bit the same rows rotated one at a time', () => {
      const heads = 2, headDim = 64, positions = range(150, 40);
      const x = randomFloats(positions.length * heads * headDim, 11);
      for (const style of ['interleaved', 'half']) {
        const all = pe.applyRope(x, { heads, headDim, style, positions });
        positions.forEach((p, r) => {
          const row = x.subarray(r * heads * headDim, (r + 1) * heads * headDim);
          const one = pe.applyRope(row, { heads, headDim, style, positions: [p] });
          assert.deepEqual(all.subarray(r * heads * headDim, (r + 1) * heads * headDim), one, `${style} row ${r}`);
        });
      }
    });
  });
}
