// js-baselines.js: what a demo author writes in plain JS (the speed baselines), and the
// float64 references every benchmark output is checked against. Pairs follow posenc.h:
// 'interleaved' rotates (2i, 2i+1), 'half' rotates (i, i + rotaryDim/2).

/** theta_i = base^(-2i/dim) in float64, i < dim/2. */
export function invFreq(dim, base = 10000) {
  const w = new Float64Array(dim / 2);
  for (let i = 0; i < w.length; i++) w[i] = Math.pow(base, (-2 * i) / dim);
  return w;
}

/** cos/sin tables [seq][dim/2] as Float32Array, from float64 angles: the demo author's cache. */
export function ropeTableJS(seq, dim, base = 10000) {
  const w = invFreq(dim, base), half = dim / 2;
  const cos = new Float32Array(seq * half), sin = new Float32Array(seq * half);
  for (let p = 0; p < seq; p++) {
    for (let i = 0; i < half; i++) {
      cos[p * half + i] = Math.cos(p * w[i]);
      sin[p * half + i] = Math.sin(p * w[i]);
    }
  }
  return { cos, sin };
}

/** RoPE with a cos/sin table; out may be x (in place). x is [seq][heads][hd], rotary dim = hd. */
export function ropeWithTableJS(out, x, seq, heads, hd, style, cos, sin) {
  const half = hd / 2;
  const stride = style === 'interleaved' ? 2 : 1, off = style === 'interleaved' ? 1 : half;
  for (let s = 0; s < seq; s++) {
    const t = s * half;
    for (let h = 0; h < heads; h++) {
      const row = (s * heads + h) * hd;
      for (let i = 0; i < half; i++) {
        const a = row + i * stride, b = a + off;
        const x0 = x[a], x1 = x[b], c = cos[t + i], sn = sin[t + i];
        out[a] = x0 * c - x1 * sn;
        out[b] = x0 * sn + x1 * c;
      }
    }
  }
}

/** RoPE calling Math.cos/Math.sin for every pair of every head (inv_freq precomputed). */
export function ropeMathJS(out, x, seq, heads, hd, style, positions, w) {
  const half = hd / 2;
  const stride = style === 'interleaved' ? 2 : 1, off = style === 'interleaved' ? 1 : half;
  for (let s = 0; s < seq; s++) {
    const p = positions[s];
    for (let h = 0; h < heads; h++) {
      const row = (s * heads + h) * hd;
      for (let i = 0; i < half; i++) {
        const a = row + i * stride, b = a + off;
        const c = Math.cos(p * w[i]), sn = Math.sin(p * w[i]);
        const x0 = x[a], x1 = x[b];
        out[a] = x0 * c - x1 * sn;
        out[b] = x0 * sn + x1 * c;
      }
    }
  }
}

/** Interleaved sinusoidal table [length][dim] with Math.sin/Math.cos per element. */
export function sinusoidalJS(out, length, dim, base = 10000) {
  const w = invFreq(dim, base), half = dim / 2;
  for (let p = 0; p < length; p++) {
    const row = p * dim;
    for (let i = 0; i < half; i++) {
      out[row + 2 * i] = Math.sin(p * w[i]);
      out[row + 2 * i + 1] = Math.cos(p * w[i]);
    }
  }
}

/** RoPE decay with q = k = all ones: g(x) = 2 sum_i cos(x theta_i). */
export function decayOnesJS(out, distances, w) {
  for (let j = 0; j < distances.length; j++) {
    const x = distances[j];
    let acc = 0;
    for (let i = 0; i < w.length; i++) acc += 2 * Math.cos(x * w[i]);
    out[j] = acc;
  }
}

// ---- float64 references: the largest absolute error of a result ----

/** max |y - rope_f64(x)| with cos/sin of float64 angles pos * theta_i. */
export function ropeError(y, x, seq, heads, hd, style, positions, base = 10000) {
  const w = invFreq(hd, base), half = hd / 2;
  const stride = style === 'interleaved' ? 2 : 1, off = style === 'interleaved' ? 1 : half;
  const c = new Float64Array(half), sn = new Float64Array(half);
  let err = 0;
  for (let s = 0; s < seq; s++) {
    for (let i = 0; i < half; i++) (c[i] = Math.cos(positions[s] * w[i])), (sn[i] = Math.sin(positions[s] * w[i]));
    for (let h = 0; h < heads; h++) {
      const row = (s * heads + h) * hd;
      for (let i = 0; i < half; i++) {
        const a = row + i * stride, b = a + off;
        const e0 = Math.abs(y[a] - (x[a] * c[i] - x[b] * sn[i]));
        const e1 = Math.abs(y[b] - (x[a] * sn[i] + x[b] * c[i]));
        if (e0 > err) err = e0;
        if (e1 > err) err = e1;
      }
    }
  }
  return err;
}

/** max error of cos/sin tables [n][half] at the given positions. */
export function cacheError(cos, sin, positions, dim, base = 10000) {
  const w = invFreq(dim, base), half = dim / 2;
  let err = 0;
  for (let r = 0; r < positions.length; r++) {
    for (let i = 0; i < half; i++) {
      const a = positions[r] * w[i];
      err = Math.max(err, Math.abs(cos[r * half + i] - Math.cos(a)), Math.abs(sin[r * half + i] - Math.sin(a)));
    }
  }
  return err;
}

/** max error of an interleaved sinusoidal table whose row r is position start + r. */
export function sinusoidalError(pe, length, dim, start = 0, base = 10000) {
  const w = invFreq(dim, base), half = dim / 2;
  let err = 0;
  for (let r = 0; r < length; r++) {
    const p = start + r, row = r * dim;
    for (let i = 0; i < half; i++) {
      const e0 = Math.abs(pe[row + 2 * i] - Math.sin(p * w[i]));
      const e1 = Math.abs(pe[row + 2 * i + 1] - Math.cos(p * w[i]));
      if (e0 > err) err = e0;
      if (e1 > err) err = e1;
    }
  }
  return err;
}

/** max |y - 2 sum cos(x theta_i)|, the sum taken in float64 with Math.cos. */
export function decayError(y, distances, w) {
  const ref = new Float64Array(distances.length);
  decayOnesJS(ref, distances, w);
  let err = 0;
  for (let j = 0; j < y.length; j++) err = Math.max(err, Math.abs(y[j] - ref[j]));
  return err;
}

/**
 * Largest distance between two Float32Arrays in float32 ulps (of the larger magnitude), after
 * allowing `slack` absolute (e.g. the float64 rounding of an angle both builds form).
 */
export function maxUlps(a, b, slack = 0) {
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]) - slack;
    if (d <= 0) continue;
    const mag = Math.max(Math.abs(a[i]), Math.abs(b[i]));
    const ulp = mag < 2 ** -126 ? 2 ** -149 : 2 ** (Math.floor(Math.log2(mag)) - 23);
    if (d / ulp > m) m = d / ulp;
  }
  return Math.ceil(m - 1e-9);
}
