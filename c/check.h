/* check.h: argument checks shared by the kernels. No assert or printf: either would pull
 * WASI imports into the standalone module, so a failed check returns a status instead. */
#ifndef POSENC_CHECK_H
#define POSENC_CHECK_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "posenc.h"

/* The SIMD build leaves the scalar reference forms unused, and the scalar build the SIMD ones. */
#define MAYBE_UNUSED __attribute__((unused))

#define CHECK(cond, status) \
  do {                      \
    if (!(cond)) return (status); \
  } while (0)

/* a*b*c as an element count, or 0 when any factor is < 1 or the product passes the cap. */
static inline size_t elems3(int64_t a, int64_t b, int64_t c) {
  if (a < 1 || b < 1 || c < 1) return 0;
  if (a > POSENC_MAX_ELEMS || b > POSENC_MAX_ELEMS || c > POSENC_MAX_ELEMS) return 0;
  uint64_t ab = (uint64_t)a * (uint64_t)b;
  if (ab > POSENC_MAX_ELEMS) return 0;
  uint64_t abc = ab * (uint64_t)c;
  return abc > POSENC_MAX_ELEMS ? 0 : (size_t)abc;
}

/* All finite and >= 0; also reports the largest value, for overflow checks of angles. */
static inline int nonneg_finite(const double *v, int32_t n, double *max_out) {
  double m = 0.0;
  for (int32_t i = 0; i < n; i++) {
    double x = v[i];
    if (!(x >= 0.0 && x <= DBL_MAX)) return 0; /* rejects NaN, -x, +Inf; takes every finite x >= 0 */
    if (x > m) m = x;
  }
  if (max_out) *max_out = m;
  return 1;
}

static inline int all_finite_f32(const float *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(v[i])) return 0;
  return 1;
}

/* Every value finite with |v| <= bound (NaN fails the test). */
static inline int within_f32(const float *v, size_t n, float bound) {
  for (size_t i = 0; i < n; i++)
    if (!(fabsf(v[i]) <= bound)) return 0;
  return 1;
}

/* Two buffers of bytes [a, a+na) and [b, b+nb) overlap without being the same start. */
static inline int partial_overlap(const void *a, size_t na, const void *b, size_t nb) {
  uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
  if (pa == pb) return 0;
  return pa < pb + nb && pb < pa + na;
}

/* base must be finite and >= 1 so that every frequency lies in (0, 1] (base 1: all theta_i = 1). */
#define CHECK_BASE(base) CHECK(isfinite(base) && (base) >= 1.0, POSENC_E_BASE)

#endif
