/* lab_layers.c: row-wise layers, forward and backward: LayerNorm, GELU, the causal softmax of
 * attention scores, and softmax cross-entropy. Reductions (means, variances, sums of
 * exponentials, the loss) accumulate in double. */
#include <math.h>
#include <string.h>

#include "lab_layers.h"

#ifdef LAB_F64
#define LAB_EXP exp
#else
#define LAB_EXP expf
#endif

void lab_layernorm(lab_real *y, lab_real *mu, lab_real *rs, const lab_real *x, const lab_real *g,
                   const lab_real *b, int32_t n, int32_t w) {
  for (int32_t r = 0; r < n; r++) {
    const lab_real *xr = x + (size_t)r * w;
    lab_real *yr = y + (size_t)r * w;
    double s = 0, v = 0;
    for (int32_t j = 0; j < w; j++) s += xr[j];
    double mean = s / w;
    for (int32_t j = 0; j < w; j++) v += (xr[j] - mean) * (xr[j] - mean);
    double inv = 1.0 / sqrt(v / w + LAB_LN_EPS);
    mu[r] = (lab_real)mean;
    rs[r] = (lab_real)inv;
    lab_real fm = (lab_real)mean, fi = (lab_real)inv;
    for (int32_t j = 0; j < w; j++) yr[j] = (xr[j] - fm) * fi * g[j] + b[j];
  }
}

void lab_layernorm_backward(lab_real *dx, lab_real *dg, lab_real *db, const lab_real *dy,
                            const lab_real *x, const lab_real *mu, const lab_real *rs,
                            const lab_real *g, int32_t n, int32_t w, int accumulate) {
  for (int32_t r = 0; r < n; r++) {
    const lab_real *dyr = dy + (size_t)r * w, *xr = x + (size_t)r * w;
    lab_real *dxr = dx + (size_t)r * w;
    lab_real m = mu[r], inv = rs[r];
    double s1 = 0, s2 = 0; /* sum of dxhat, sum of dxhat * xhat */
    for (int32_t j = 0; j < w; j++) {
      lab_real xh = (xr[j] - m) * inv, d = dyr[j] * g[j];
      dg[j] += dyr[j] * xh;
      db[j] += dyr[j];
      s1 += d;
      s2 += (double)d * xh;
    }
    lab_real a = (lab_real)(s1 / w), c = (lab_real)(s2 / w);
    for (int32_t j = 0; j < w; j++) {
      lab_real xh = (xr[j] - m) * inv;
      lab_real v = inv * (dyr[j] * g[j] - a - xh * c);
      dxr[j] = accumulate ? dxr[j] + v : v;
    }
  }
}

void lab_mul(lab_real *dx, const lab_real *d, size_t n) {
  for (size_t i = 0; i < n; i++) dx[i] *= d[i];
}

void lab_softmax_causal(lab_real *p, int32_t T, double scale, const lab_real *bias) {
  for (int32_t i = 0; i < T; i++) {
    lab_real *row = p + (size_t)i * T;
    lab_real mx = -INFINITY;
    for (int32_t j = 0; j <= i; j++) {
      lab_real s = row[j] * (lab_real)scale + (bias ? bias[i - j] : (lab_real)0);
      row[j] = s;
      if (s > mx) mx = s;
    }
    double sum = 0;
    for (int32_t j = 0; j <= i; j++) {
      lab_real e = LAB_EXP(row[j] - mx);
      row[j] = e;
      sum += e;
    }
    lab_real inv = (lab_real)(1.0 / sum);
    for (int32_t j = 0; j <= i; j++) row[j] *= inv;
    for (int32_t j = i + 1; j < T; j++) row[j] = 0;
  }
}

void lab_softmax_causal_backward(lab_real *ds, const lab_real *p, int32_t T) {
  for (int32_t i = 0; i < T; i++) {
    lab_real *d = ds + (size_t)i * T;
    const lab_real *pr = p + (size_t)i * T;
    double dot = 0;
    for (int32_t j = 0; j <= i; j++) dot += (double)pr[j] * d[j];
    lab_real fd = (lab_real)dot;
    for (int32_t j = 0; j <= i; j++) d[j] = pr[j] * (d[j] - fd);
  }
}

double lab_cross_entropy(lab_real *probs, const int32_t *targets, int32_t n, int32_t V,
                         double *row_loss, int32_t *row_ok, int32_t *count, int32_t *correct) {
  double loss = 0;
  int32_t c = 0, ok = 0;
  for (int32_t r = 0; r < n; r++) {
    lab_real *z = probs + (size_t)r * V;
    int32_t best = 0;
    for (int32_t j = 1; j < V; j++)
      if (z[j] > z[best]) best = j;
    double mx = z[best], sum = 0;
    for (int32_t j = 0; j < V; j++) sum += exp((double)z[j] - mx);
    int32_t t = targets[r];
    if (t >= 0) {
      double l = log(sum) - ((double)z[t] - mx);
      loss += l;
      c++;
      ok += best == t;
      if (row_loss) row_loss[r] = l;
      if (row_ok) row_ok[r] = best == t;
    }
    double inv = 1.0 / sum;
    for (int32_t j = 0; j < V; j++) z[j] = (lab_real)(exp((double)z[j] - mx) * inv);
  }
  if (count) *count = c;
  if (correct) *correct = ok;
  return loss;
}

void lab_cross_entropy_backward(lab_real *dz, const lab_real *probs, const int32_t *targets,
                                int32_t n, int32_t V, int32_t count) {
  lab_real inv = count > 0 ? (lab_real)(1.0 / count) : (lab_real)0;
  for (int32_t r = 0; r < n; r++) {
    lab_real *d = dz + (size_t)r * V;
    const lab_real *p = probs + (size_t)r * V;
    int32_t t = targets[r];
    if (t < 0) {
      memset(d, 0, sizeof(lab_real) * (size_t)V);
      continue;
    }
    for (int32_t j = 0; j < V; j++) d[j] = p[j] * inv;
    d[t] -= inv;
  }
}
