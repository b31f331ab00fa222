// reference.js: float64 references written from the formulas, independent of the C code,
// and the comparisons the tests use. Nothing here calls posenc.
import { loadPosenc } from '../web/lib/posenc.js';

/** Both builds, loaded once: [['simd', pe], ['scalar', pe]]. */
export const builds = Promise.all([loadPosenc({ simd: true }), loadPosenc({ simd: false })]).then(
  ([simd, scalar]) => [['simd', simd], ['scalar', scalar]],
);

export const freq = (i, dim, base = 10000) => Math.pow(base, (-2 * i) / dim);

export function sinusoidal(length, dim, { base = 10000, start = 0, layout = 'interleaved' } = {}) {
  const out = new Float64Array(length * dim);
  for (let r = 0; r < length; r++)
    for (let i = 0; i < dim / 2; i++) {
      const a = (start + r) * freq(i, dim, base);
      const [si, ci] = layout === 'interleaved' ? [2 * i, 2 * i + 1] : [i, dim / 2 + i];
      out[r * dim + si] = Math.sin(a);
      out[r * dim + ci] = Math.cos(a);
    }
  return out;
}

/**
 * [cos, sin] of the real product x·t, not of its float64 rounding: Dekker's exact product
 * x·t = p + lo (Veltkamp's split; exact for |x|, |t| <= 2^53), then (cos p, sin p) turned by lo
 * to first order (|lo| <= 2^-53 |p|; the lo²/2 left out is below 1e-19 for |p| < 1e6). Math.cos
 * and Math.sin of p itself are the references above, which round the angle instead: up to
 * 2^-53 |p| off (1.1e-10 rad at angle 1e6).
 */
export function cosSinExact(x, t) {
  const p = x * t;
  const split = (a) => {
    const u = 134217729 * a, hi = u - (u - a);
    return [hi, a - hi];
  };
  const [xh, xl] = split(x), [th, tl] = split(t);
  const lo = xh * th - p + xh * tl + xl * th + xl * tl;
  const c = Math.cos(p), s = Math.sin(p);
  return [c - lo * s, s + lo * c];
}

/** Dim indices of RoPE pair i. */
export const pairDims = (i, rot, style) => (style === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + rot / 2]);

export function rope(x, { heads, headDim, positions, base = 10000, style, rotaryDim = headDim }) {
  const out = Float64Array.from(x);
  positions.forEach((p, s) => {
    for (let h = 0; h < heads; h++) {
      const row = (s * heads + h) * headDim;
      for (let i = 0; i < rotaryDim / 2; i++) {
        const a = p * freq(i, rotaryDim, base);
        const [d0, d1] = pairDims(i, rotaryDim, style);
        const x0 = x[row + d0], x1 = x[row + d1];
        out[row + d0] = x0 * Math.cos(a) - x1 * Math.sin(a);
        out[row + d1] = x0 * Math.sin(a) + x1 * Math.cos(a);
      }
    }
  });
  return out;
}

export const dot = (a, b) => a.reduce((s, v, i) => s + v * b[i], 0);

/** Largest |got - want| / max(1, |want|). */
export function maxRelErr(got, want) {
  let m = 0;
  for (let i = 0; i < want.length; i++) m = Math.max(m, Math.abs(got[i] - want[i]) / Math.max(1, Math.abs(want[i])));
  return m;
}

export function maxAbsDiff(a, b) {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/** Spacing of float32 values at |x| (the ulp). */
export function ulp32(x) {
  const a = Math.abs(x);
  if (a < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
}

export function randomFloats(n, seed) {
  // a small LCG, independent of posenc's own PRNG
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  });
}

/** c/random.c in float64 JS with BigInt: splitmix64 uniforms in (0, 1], Box-Muller pairs. */
export function normals(n, seed) {
  const M = (1n << 64n) - 1n;
  let state = BigInt(seed);
  const next = () => {
    state = (state + 0x9e3779b97f4a7c15n) & M;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    z ^= z >> 31n;
    return Number((z >> 11n) + 1n) / 2 ** 53;
  };
  const out = new Float64Array(n);
  for (let i = 0; i < n; i += 2) {
    const r = Math.sqrt(-2 * Math.log(next())), t = 2 * Math.PI * next();
    out[i] = r * Math.cos(t);
    if (i + 1 < n) out[i + 1] = r * Math.sin(t);
  }
  return out;
}
