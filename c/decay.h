/* decay.h: what the decay curves' two paths share (decay.c: every term from its float64
 * angle; decay_grid.c: a rotation recurrence along a uniform grid of distances). Private to
 * those two files. */
#ifndef POSENC_DECAY_H
#define POSENC_DECAY_H

#include "check.h"
#include "sincos.h"

/* Every angle d_j w_i below the reduction's range: the SIMD forms skip their range test.
 * caps: also every d_j and w_i at most 2^53 (keeps prod_err exact; a chart never comes near). */
static inline int decay_in_range(const double *d, int32_t n, const double *w, int32_t half, int caps) {
  double dmax = 0.0, wmax = 0.0;
  for (int32_t i = 0; i < n; i++) dmax = d[i] > dmax ? d[i] : dmax;
  for (int32_t i = 0; i < half; i++) wmax = w[i] > wmax ? w[i] : wmax;
  return dmax * wmax < PS_REDUCE_MAX && (!caps || (dmax <= 0x1p53 && wmax <= 0x1p53));
}

#ifdef __wasm_simd128__
/* One pair's term of the bound on two lanes: the running sum of e^(i x theta_k) grows by (c, s)
 * and acc by the new sum's modulus (bound_scalar's order, so both builds agree). */
PS_INLINE void bound_add(v128_t c, v128_t s, v128_t *re, v128_t *im, v128_t *acc) {
  *re = wasm_f64x2_add(*re, c);
  *im = wasm_f64x2_add(*im, s);
  *acc = wasm_f64x2_add(*acc, wasm_f64x2_sqrt(wasm_f64x2_add(wasm_f64x2_mul(*re, *re), wasm_f64x2_mul(*im, *im))));
}
#endif

/* 1 when d[0..n) is a uniform grid the recurrence serves (x0 + j dx exactly, every angle in the
 * reduction's range), with its start and step; else 0. */
int decay_grid(const double *d, int32_t n, const double *w, int32_t half, double *x0, double *dx);

/* out[j] = c0 + sum_i A_i cos(d_j w_i) + B_i sin(d_j w_i) on the grid d_j = x0 + j dx.
 * cos_only: every B_i is 0. */
void decay_grid_linear(double *out, int32_t n, double x0, double dx, const double *w,
                       const double *A, const double *B, int32_t half, double c0, int cos_only);

/* The RoFormer bound on the grid; 0 (nothing written) when its step table cannot be allocated. */
int decay_grid_bound(double *out, int32_t n, double x0, double dx, const double *w, int32_t half);

#endif
