import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, freq, sinusoidal, dot, rope, randomFloats } from './reference.js';

const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${msg}: ${a} vs ${b}`);

for (const [name, pe] of await builds) {
  describe(`decay curves (${name})`, () => {
    const distances = [0, 1, 2.5, 10, 157, 1000, 14617, 99_999, 1e6];

    test('g(x) = 2 sum cos(x theta_i): g(0) = d, theta = 0 constant, theta = 1 gives d cos x', () => {
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

    test("RoFormer bound (1/(d/2)) sum_j |sum_{k<j} e^{i x theta_k}|", () => {
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

    test('q . R(x) k with given vectors equals rotating k with applyRope', () => {
      const d = 64, q = randomFloats(d, 5), k = randomFloats(d, 6);
      for (const style of ['interleaved', 'half']) {
        const curve = pe.ropeDecay([0, 3, 40, 1000], { dim: d, kind: 'vectors', q, k, style });
        [0, 3, 40, 1000].forEach((x, j) => {
          const want = dot(q, rope(k, { heads: 1, headDim: d, positions: [x], style }));
          close(curve[j], want, 1e-9, `${style} x=${x}`);
        });
      }
      // seed 000's experiment: the same vector at offset 0 and x, q = k: at 0 it is |k|^2
      const v = pe.randomNormal(512, 7);
      const same = pe.ropeDecay([0], { dim: 512, kind: 'vectors', q: v, k: v });
      close(same[0], dot(v, v), 1e-9, '|k|^2');
    });

    test('sinusoidal: PE(0).PE(x) and (q + PE(0)).(k + PE(x))', () => {
      const d = 512, xs = [0, 1, 7, 100, 511];
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
  });
}
