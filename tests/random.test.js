// random.test.js: randomNormal, all of it: seeded and reproducible, standard normal, against the
// BigInt splitmix64 + float64 Box-Muller reference over the whole range of the radius's log
// (c/random.c's log_unit): long runs of several seeds, and seeds built to draw the uniforms a
// random run never reaches (2^-53, 1 - 2^-53, 1, the reduction's switch at sqrt(1/2)); and the
// same bits in both builds.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, normals, ulp32 } from './reference.js';

const [[, simdBuild], [, scalarBuild]] = await builds;
const builds2 = { simd: simdBuild, scalar: scalarBuild };

const M = (1n << 64n) - 1n;
const GAMMA = 0x9e3779b97f4a7c15n;

// splitmix64's output function, undone: each xorshift and each odd multiplier is invertible
const unxorshift = (y, s) => {
  let x = y;
  for (let k = BigInt(s); k < 64n; k += BigInt(s)) x ^= y >> k;
  return x;
};
const inverse = (a) => {
  let x = a; // Newton's iteration for 1/a mod 2^64: each step doubles the correct low bits
  for (let i = 0; i < 6; i++) x = (x * (2n - a * x)) & M;
  return x;
};
const unmix = (z) => {
  let x = unxorshift(z, 31);
  x = unxorshift((x * inverse(0x94d049bb133111ebn)) & M, 27);
  return unxorshift((x * inverse(0xbf58476d1ce4e5b9n)) & M, 30);
};

/**
 * A seed whose pair at out[i], out[i + 1] has the radius sqrt(-2 log u), u = j 2^-53: draw i
 * (even: a pair's first draw) is the state seed + (i + 1) GAMMA mixed, so take the state that
 * mixes to (j - 1) << 11 and step back until the seed fits in 53 bits (one step in 2048).
 */
function seedFor(j) {
  const x = unmix((BigInt(j) - 1n) << 11n);
  for (let i = 0; ; i += 2) {
    const seed = (x - BigInt(i + 1) * GAMMA) & M;
    if (seed < 1n << 53n) return { seed: Number(seed), i };
  }
}

const close = (got, want, what) => {
  for (let k = 0; k < want.length; k++) {
    if (!(Math.abs(got[k] - want[k]) <= ulp32(want[k]))) assert.fail(`${what} [${k}]: ${got[k]} vs ${want[k]}`);
  }
};

// j of the u where the reduction switches from m = 2u to m = u (bits 0x3fe6a09e00000000, just
// below sqrt(1/2)): below it |s| is largest, the polynomial's far end
const SWITCH = 0x16a09e * 2 ** 32;
const EDGES = [
  1, 2, 3, 1000, 2 ** 26 + 1, // tiny u: log u down to -36.7, the largest radius (8.57)
  SWITCH - 1, SWITCH, SWITCH + 1, SWITCH / 2 ** 30 - 1, SWITCH / 2 ** 30,
  2 ** 52 - 1, 2 ** 52, 2 ** 52 + 1, // u = 1/2, where the exponent steps
  2 ** 53 - 2, 2 ** 53 - 1, 2 ** 53, // u up to 1: tiny radii, then 0
];

for (const [name, pe] of await builds) {
  describe(`random normal, the radius's log (${name})`, () => {
    test('262,147 numbers of several seeds, to 1 float32 ulp', () => {
      for (const seed of [0, 1, 2 ** 32 + 5, 2 ** 53 - 2]) {
        const n = 262_147;
        close(pe.randomNormal(n, seed), normals(n, seed), `seed=${seed}`);
      }
    });

    test('uniforms at the ends of (0, 1] and at the reduction switch, to 1 float32 ulp', () => {
      for (const j of EDGES) {
        const { seed, i } = seedFor(j);
        const u = j / 2 ** 53;
        // n = i + 16: the pair in the SIMD form's main loop; n = i + 2: in its tail (unless i + 2 is a multiple of 8)
        for (const n of [i + 16, i + 2]) {
          const want = normals(n, seed);
          const r = Math.hypot(want[i], want[i + 1]), rWant = Math.sqrt(-2 * Math.log(u));
          assert.ok(Math.abs(r - rWant) <= 1e-12 * rWant, `the seed draws u = ${j} 2^-53 (r ${r} vs ${rWant})`);
          close(pe.randomNormal(n, seed), want, `u = ${j} 2^-53, seed=${seed} n=${n}`);
        }
      }
    });
  });
}

for (const [name, pe] of await builds) {
  describe(`random normal (${name})`, () => {
    test('seeded, reproducible, standard normal', () => {
      const a = pe.randomNormal(200_001, 7);
      assert.deepEqual(a.subarray(0, 50), pe.randomNormal(50, 7));
      const mean = a.reduce((s, x) => s + x, 0) / a.length;
      const varc = a.reduce((s, x) => s + (x - mean) ** 2, 0) / a.length;
      assert.ok(Math.abs(mean) < 0.01 && Math.abs(varc - 1) < 0.02, `mean ${mean} var ${varc}`);
      assert.ok(a.every(Number.isFinite));
      assert.notDeepEqual(pe.randomNormal(8, 1), pe.randomNormal(8, 2));
    });
    test('the numbers of splitmix64 + Box-Muller in float64, to 1 float32 ulp', () => {
      // odd and small counts reach the SIMD form's tail; 10^5 values reach every quadrant often
      for (const [n, seed] of [[1, 0], [3, 1], [4, 2], [7, 3], [100_001, 2 ** 53 - 1]]) {
        const got = pe.randomNormal(n, seed), want = normals(n, seed);
        for (let i = 0; i < n; i++) {
          assert.ok(Math.abs(got[i] - want[i]) <= ulp32(want[i]), `n=${n} seed=${seed} [${i}]: ${got[i]} vs ${want[i]}`);
        }
      }
    });
  });
}

test('random normals are the same bits in both builds', () => {
  for (const n of [1, 2, 3, 4, 5, 7, 8, 1001, 65536]) {
    assert.deepEqual(builds2.simd.randomNormal(n, n), builds2.scalar.randomNormal(n, n), `n=${n}`);
  }
});

