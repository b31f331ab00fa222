import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, sinusoidal, maxRelErr, dot, freq } from './reference.js';

for (const [name, pe] of await builds) {
  describe(`sinusoidal (${name})`, () => {
    test("the source post's table for L = 2, D = 4", () => {
      const want = [0, 1, 0, 1, 0.84147098, 0.54030231, 0.00999983, 0.99995];
      const got = pe.sinusoidal(2, 4);
      want.forEach((w, i) => assert.ok(Math.abs(got[i] - w) <= 1e-7, `element ${i}: ${got[i]} vs ${w}`));
      const exact = pe.sinusoidal(2, 4, { precision: 'f64' });
      want.forEach((w, i) => assert.equal(exact[i].toFixed(8), w.toFixed(8), `f64 element ${i}`));
    });

    test("the source post's three frequencies 1, 1/10, 1/100: PE(2) and PE(8)", () => {
      // d = 6 and base 1000 give w_i = 1000^(-2i/6) = 1, 0.1, 0.01; sines sit at even dims
      const t = pe.sinusoidal(9, 6, { base: 1000 });
      const sines = (p) => [0, 2, 4].map((d) => Number(t[p * 6 + d].toFixed(3)));
      assert.deepEqual(sines(2), [0.909, 0.199, 0.02]);
      assert.deepEqual(sines(8), [0.989, 0.717, 0.08]);
    });

    test('concat layout holds the interleaved values, permuted', () => {
      const [L, D] = [37, 64];
      const a = pe.sinusoidal(L, D), c = pe.sinusoidal(L, D, { layout: 'concat' });
      for (let r = 0; r < L; r++)
        for (let i = 0; i < D / 2; i++) {
          assert.equal(c[r * D + i], a[r * D + 2 * i]);
          assert.equal(c[r * D + D / 2 + i], a[r * D + 2 * i + 1]);
        }
    });

    test('matches float64 to 1e-6 up to position 1e6, every layout, odd sizes (tails)', () => {
      for (const [L, D, start] of [[130, 256, 0], [3, 2, 999_990], [65, 6, 999_000], [17, 258, 123_456.5]]) {
        for (const layout of ['interleaved', 'concat']) {
          const err = maxRelErr(pe.sinusoidal(L, D, { start, layout }), sinusoidal(L, D, { start, layout }));
          assert.ok(err <= 1e-6, `L=${L} D=${D} start=${start} ${layout}: ${err}`);
        }
      }
    });

    test('PE(m) . PE(n) = sum_i cos((m - n) w_i)', () => {
      const D = 128, t = pe.sinusoidal(600, D, { precision: 'f64' });
      for (const [m, n] of [[0, 0], [5, 17], [599, 3], [250, 250]]) {
        const got = dot(t.subarray(m * D, m * D + D), t.subarray(n * D, n * D + D));
        let want = 0;
        for (let i = 0; i < D / 2; i++) want += Math.cos((m - n) * freq(i, D));
        assert.ok(Math.abs(got - want) < 1e-12, `m=${m} n=${n}: ${got} vs ${want}`);
      }
    });

    test('PE(pos + k) = R(k) . PE(pos), R independent of pos', () => {
      const D = 64;
      for (const [pos, k] of [[0, 1], [3, 7], [1000, 25], [999_000, 1000], [50, -20]]) {
        const shifted = pe.shiftSinusoidal(pe.sinusoidal(1, D, { start: pos }), k, { dim: D });
        const err = maxRelErr(shifted, sinusoidal(1, D, { start: pos + k }));
        assert.ok(err < 1e-6, `pos=${pos} k=${k}: ${err}`);
      }
      // one R(k) moves every row of a table by k
      const rows = pe.sinusoidal(40, D, { start: 10, layout: 'concat' });
      const moved = pe.shiftSinusoidal(rows, 5, { dim: D, layout: 'concat' });
      assert.ok(maxRelErr(moved, sinusoidal(40, D, { start: 15, layout: 'concat' })) < 1e-6);
    });

    test('binary codes: column j is bit j of the position', () => {
      const t = pe.binary(8, 3);
      assert.deepEqual(Array.from(t.subarray(4 * 3, 5 * 3)), [0, 0, 1]);
      assert.deepEqual(Array.from(t.subarray(0, 3)), [0, 0, 0]);
      const two = pe.binary(5, 2); // position 4 lands on position 0 with 2 bits
      assert.deepEqual(Array.from(two.subarray(8, 10)), Array.from(two.subarray(0, 2)));
      assert.deepEqual(Array.from(pe.binary(6, 3).subarray(15, 18)), [1, 0, 1]);
    });
  });
}
