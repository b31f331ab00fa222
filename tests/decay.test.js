import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, freq, sinusoidal, dot, rope, randomFloats, cosSinExact, pairDims } from './reference.js';

const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${msg}: ${a} vs ${b}`);
const grid = (n, step, d0 = 0) => Array.from({ length: n }, (_, j) => d0 + j * step);
const flAngle = (x, t) => [Math.cos(x * t), Math.sin(x * t)];

// c/decay.c has two paths: distances that form an exact arithmetic progression go through a
// rotation recurrence re-anchored every 64 distances; any other list takes every term from its
// own float64 angle. The formula tests below run on one list of each kind; the uniform list
// spans several runs (200 distances) and stays below 1e4, where the float64 rounding of the
// angle that the references make (Math.cos(x * theta)) is far below their tolerance.
const PATHS = { direct: [0, 1, 2.5, 10, 157, 1000, 14617, 99_999, 1e6], uniform: grid(200, 51) };

/**
 * Float64 references of every decay curve at once, from the definitions: g(x) = 2 sum cos, the
 * RoFormer bound, q . R(x) k (pairs as `style`) and (q + PE(0)) . (k + PE(x)) with interleaved
 * PE, for theta_i = 10000^(-2i/dim) as `theta` holds them; cs(x, theta) gives [cos, sin] of
 * the angle. The tests pass the kernels' own theta_i (pe.ropeInvFreq, C's pow): Math.pow differs
 * from it by an ulp for about one in nine, which at x = 1e6 moves an angle by up to 2e-10.
 */
function curves(dist, theta, q, k, style, cs) {
  const half = theta.length, dim = 2 * half, n = dist.length;
  const out = { ones: new Float64Array(n), bound: new Float64Array(n), vectors: new Float64Array(n), sinusoidal: new Float64Array(n) };
  dist.forEach((x, j) => {
    let ones = 0, re = 0, im = 0, bound = 0, vec = 0, sin = 0;
    for (let i = 0; i < half; i++) {
      const [c, s] = cs(x, theta[i]);
      ones += 2 * c;
      re += c;
      im += s;
      bound += Math.hypot(re, im);
      const [a, b] = pairDims(i, dim, style);
      vec += q[a] * (k[a] * c - k[b] * s) + q[b] * (k[a] * s + k[b] * c);
      sin += q[2 * i] * (k[2 * i] + s) + (q[2 * i + 1] + 1) * (k[2 * i + 1] + c);
    }
    out.ones[j] = ones;
    out.bound[j] = bound / half;
    out.vectors[j] = vec;
    out.sinusoidal[j] = sin;
  });
  return out;
}

/** The four curves from the kernels, in the shape curves() returns. */
function kernels(pe, dist, dim, q, k, style) {
  return {
    ones: pe.ropeDecay(dist, { dim }),
    bound: pe.ropeDecay(dist, { dim, kind: 'bound' }),
    vectors: pe.ropeDecay(dist, { dim, kind: 'vectors', q, k, style }),
    sinusoidal: pe.sinusoidalDecay(dist, { dim, q, k }),
  };
}

/** Largest |got - want| / max(1, |want|). */
function relErr(got, want) {
  let m = 0;
  for (let j = 0; j < want.length; j++) m = Math.max(m, Math.abs(got[j] - want[j]) / Math.max(1, Math.abs(want[j])));
  return m;
}

// Grids of the uniform path: step 1 and 5, a first distance above 0, 10001 distances (157 runs,
// so 156 re-anchors), distances out to 1e6, at d = 4096 (half = 2048 pairs: 8 chunks of 256).
// References are computed once and shared by both builds.
const BIG = [
  { name: 'x = 0, 500, ..., 1e6', dist: grid(2001, 500) },
  { name: 'x = 990000 ... 1e6 step 1', dist: grid(10001, 1, 990_000) },
  { name: 'x = 7, 12, ..., 10002 (step 5)', dist: grid(2000, 5, 7) },
];
const bigQ = randomFloats(4096, 11), bigK = randomFloats(4096, 12);
const bigRef = new Map();
const built = await builds;
const thetaOf = (dim) => built[0][1].ropeInvFreq(dim);
const refFor = (c) => {
  if (!bigRef.has(c.name)) bigRef.set(c.name, curves(c.dist, thetaOf(4096), bigQ, bigK, 'half', cosSinExact));
  return bigRef.get(c.name);
};
for (const [name, pe] of built) {
  describe(`decay curves (${name})`, () => {
    for (const [path, distances] of Object.entries(PATHS)) {
      test(`g(x) = 2 sum cos(x theta_i): g(0) = d, theta = 0 constant, theta = 1 gives d cos x (${path} path)`, () => {
        for (const d of [4, 256, 4096]) {
          const g = pe.ropeDecay(distances, { dim: d });
          close(g[0], d, 1e-12, `g(0) d=${d}`);
          distances.forEach((x, j) => {
            let want = 0;
            for (let i = 0; i < d / 2; i++) want += 2 * Math.cos(x * freq(i, d));
            close(g[j], want, 1e-9, `d=${d} x=${x}`);
          });
        }
        const zeros = pe.ropeDecay(distances, { invFreq: new Float64Array(128) });
        zeros.forEach((v) => assert.equal(v, 256));
        const ones = pe.ropeDecay(distances, { invFreq: new Float64Array(128).fill(1) });
        ones.forEach((v, j) => close(v, 256 * Math.cos(distances[j]), 1e-9, `theta=1 x=${distances[j]}`));
      });

      test(`RoFormer bound (1/(d/2)) sum_j |sum_{k<j} e^{i x theta_k}| (${path} path)`, () => {
        const d = 128, b = pe.ropeDecay(distances, { dim: d, kind: 'bound' });
        distances.forEach((x, j) => {
          let re = 0, im = 0, acc = 0;
          for (let k = 0; k < d / 2; k++) {
            re += Math.cos(x * freq(k, d));
            im += Math.sin(x * freq(k, d));
            acc += Math.hypot(re, im);
          }
          close(b[j], acc / (d / 2), 1e-9, `x=${x}`);
        });
        close(b[0], (d / 2 + 1) / 2, 1e-12, 'bound at 0 = mean of 1..d/2');
      });

      test(`q . R(x) k with given vectors equals rotating k with applyRope (${path} path)`, () => {
        const d = 64, q = randomFloats(d, 5), k = randomFloats(d, 6);
        const xs = path === 'direct' ? [0, 3, 40, 1000] : grid(70, 37);
        for (const style of ['interleaved', 'half']) {
          const curve = pe.ropeDecay(xs, { dim: d, kind: 'vectors', q, k, style });
          xs.forEach((x, j) => {
            const want = dot(q, rope(k, { heads: 1, headDim: d, positions: [x], style }));
            close(curve[j], want, 1e-9, `${style} x=${x}`);
          });
        }
        // the source post's experiment: the same vector at offset 0 and x, q = k: at 0 it is |k|^2
        const v = pe.randomNormal(512, 7);
        const same = pe.ropeDecay(path === 'direct' ? [0] : [0, 1, 2, 3], { dim: 512, kind: 'vectors', q: v, k: v, style: 'interleaved' });
        close(same[0], dot(v, v), 1e-9, '|k|^2');
      });

      test(`sinusoidal: PE(0).PE(x) and (q + PE(0)).(k + PE(x)) (${path} path)`, () => {
        const d = 512, xs = path === 'direct' ? [0, 1, 7, 100, 511] : grid(128, 4);
        const pp = pe.sinusoidalDecay(xs, { dim: d });
        const table = sinusoidal(512, d);
        const row = (p) => table.subarray(p * d, (p + 1) * d);
        xs.forEach((x, j) => close(pp[j], dot(row(0), row(x)), 1e-9, `PE.PE x=${x}`));
        close(pp[0], d / 2, 1e-12, 'PE(0).PE(0) = d/2');
        const q = pe.randomNormal(d, 1), k = pe.randomNormal(d, 2);
        const qk = pe.sinusoidalDecay(xs, { dim: d, q, k });
        xs.forEach((x, j) => {
          const want = dot(Array.from(q, (v, i) => v + row(0)[i]), Array.from(k, (v, i) => v + row(x)[i]));
          close(qk[j], want, 1e-9, `(Q+PE0).(K+PEx) x=${x}`);
        });
      });
    }

    // One pair isolates one term: ones with invFreq [t] is 2 cos(x t); vectors with q = (0, 1),
    // k = (1, 0) is sin(x t) (B = qb ka - qa kb = 1, A = 0). c/decay.c states each term of the
    // recurrence within 5e-14 of cos/sin of the real angle x t, however large; the direct path
    // rounds x t to float64 first (1e-10 off near angle 1e6), which would fail here.
    test('uniform path: every term within 5e-14 of cos/sin of the exact angle', () => {
      const grids = [grid(5000, 1), grid(3000, 5, 12_345), grid(2001, 500), grid(1000, 0.25, 100), grid(10_001, 1, 990_000)];
      let worst = 0;
      for (const t of [1, 0.7853981633974483, 0.1, 0.0123456789, 1e-4, 6.1e-5, 1.4]) {
        for (const dist of grids) {
          if (dist[dist.length - 1] * t >= 1.4e6) continue; // past the reduction's range: direct path
          const g = pe.ropeDecay(dist, { invFreq: [t] });
          const s = pe.ropeDecay(dist, { invFreq: [t], kind: 'vectors', q: [0, 1], k: [1, 0], style: 'interleaved' });
          dist.forEach((x, j) => {
            const [c, sn] = cosSinExact(x, t);
            worst = Math.max(worst, Math.abs(g[j] / 2 - c), Math.abs(s[j] - sn));
            assert.ok(Math.abs(g[j] / 2 - c) <= 5e-14 && Math.abs(s[j] - sn) <= 5e-14,
              `t=${t} x=${x}: cos ${g[j] / 2} vs ${c}, sin ${s[j]} vs ${sn}`);
          });
        }
      }
      assert.ok(worst > 0, 'the comparison saw no rounding at all');
    });

    for (const c of BIG) {
      test(`uniform path, d = 4096, ${c.name}: every curve against the exact-angle reference`, () => {
        const want = refFor(c), got = kernels(pe, c.dist, 4096, bigQ, bigK, 'half');
        for (const kind of Object.keys(want)) {
          const e = relErr(got[kind], want[kind]);
          assert.ok(e <= 1e-9, `${kind}: ${e}`);
          // the recurrence follows the real angle; on grids out to 1e6 the direct path's float64
          // angles put it up to 2e-9 off, so this also shows the recurrence ran
          assert.ok(e <= 1e-11, `${kind}: ${e} (the float64-angle path's error, not the recurrence's)`);
        }
      });
    }

    test('non-uniform grids keep the float64-angle path: log-spaced, one distance moved, inexact steps, past the range', () => {
      const log = Array.from({ length: 500 }, (_, j) => Math.round(10 ** ((6 * j) / 499)));
      const moved = grid(300, 7);
      moved[150] += 1;
      const last = grid(300, 7);
      last[299] += 3;
      for (const [what, dist, dim] of [['log-spaced', log, 4096], ['one moved', moved, 1024], ['last moved', last, 1024]]) {
        const q = randomFloats(dim, 3), k = randomFloats(dim, 4);
        const want = curves(dist, thetaOf(dim), q, k, 'interleaved', flAngle), got = kernels(pe, dist, dim, q, k, 'interleaved');
        for (const kind of Object.keys(want)) assert.ok(relErr(got[kind], want[kind]) <= 1e-9, `${what} ${kind}: ${relErr(got[kind], want[kind])}`);
      }
      // x = j * 499.9999 rounds (the products are not exact): not the progression the recurrence
      // would follow. Each term stays within its own float64 angle's rounding, 2^-53 |x t| (plus
      // the polynomial's 2e-14); the progression's points are up to twice that away.
      const inexact = grid(3000, 499.9999);
      for (const t of [0.5, 0.1, 0.9]) {
        const g = pe.ropeDecay(inexact, { invFreq: [t] });
        inexact.forEach((x, j) => {
          const err = Math.abs(g[j] / 2 - cosSinExact(x, t)[0]);
          assert.ok(err <= 2 ** -53 * x * t + 2e-14, `inexact grid t=${t} x=${x}: ${err}`);
        });
      }
      // a uniform grid whose angles pass PS_REDUCE_MAX (1.5e6): cos of the float64 angle, as before
      const far = grid(64, 40_000, 3), g = pe.ropeDecay(far, { invFreq: [1, 0.9, 0.01] });
      far.forEach((x, j) => close(g[j], 2 * (Math.cos(x) + Math.cos(x * 0.9) + Math.cos(x * 0.01)), 1e-9, `far x=${x}`));
    });
  });
}

// Every shape the uniform path splits work by: grids of 4 (the shortest it takes) to 600
// distances around its runs (64) and the bound's blocks of four runs (256); 1 to 600 pairs
// around its groups of 8 and 2 pairs, an odd pair left over, and chunks of 256 pairs. The SIMD
// and scalar forms run the same operations in the same order: the same bits.
describe('uniform path: SIMD and scalar builds agree bit for bit, and with the reference', () => {
  const [[, simd], [, scalar]] = built;
  for (const n of [4, 5, 7, 63, 64, 65, 255, 256, 257, 600]) {
    test(`${n} distances`, () => {
      const dist = grid(n, 3, 11);
      for (const half of [1, 2, 3, 8, 9, 17, 255, 256, 257, 600]) {
        const dim = 2 * half, q = randomFloats(dim, half), k = randomFloats(dim, n);
        const a = kernels(simd, dist, dim, q, k, 'interleaved'), b = kernels(scalar, dist, dim, q, k, 'interleaved');
        const want = curves(dist, thetaOf(dim), q, k, 'interleaved', cosSinExact);
        for (const kind of Object.keys(a)) {
          a[kind].forEach((v, j) => assert.ok(Object.is(v, b[kind][j]), `${kind} half=${half} x=${dist[j]}: ${v} vs ${b[kind][j]}`));
          assert.ok(relErr(a[kind], want[kind]) <= 1e-11, `${kind} half=${half}: ${relErr(a[kind], want[kind])}`);
        }
      }
    });
  }
});

test('§10: what the prose says of Σ cos(nθ_i) past the chart (d = 512, base 10000) holds in float64', async () => {
  const { readFile } = await import('node:fs/promises');
  const html = await readFile(new URL('../web/index.html', import.meta.url), 'utf8');
  const theta = Array.from({ length: 256 }, (_, i) => 10000 ** (-2 * i / 512));
  const S = (n) => theta.reduce((s, t) => s + Math.cos(n * t), 0);
  const v = Array.from({ length: 60001 }, (_, n) => S(n));
  assert.equal(v.findIndex((x) => x < 0), 3284, 'first below 0');
  const low = v.reduce((m, x, n) => (x < v[m] ? n : m), 0);
  assert.deepEqual([low, v[low].toFixed(1)], [18469, '-37.9'], 'lowest up to 60000');
  assert.ok(v.slice(10000, 20000).filter((x) => x < 0).length / 10000 > 0.9, 'mostly below 0 from 10000 to 20000');
  let far = 0;
  for (let n = 30000; n <= 200000; n++) far = Math.max(far, Math.abs(S(n)));
  assert.equal(far.toFixed(0), '37', 'the largest swing past 30000, up to 200000');
  assert.ok(S(49) < S(50), 'the fall has wobbles');
  for (const s of ['first dips below 0 at n = 3284', '−37.9 at\n    n = 18469', 'past about 30000 swings around 0, by up to about 37 as far as n = 200000', 'with small wobbles']) {
    assert.ok(html.includes(s), `§10 says “${s}”`);
  }
});
