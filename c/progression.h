/* progression.h: cos/sin of x * theta for positions in exact arithmetic progression, by a
 * float64 rotation recurrence (rope_table.c's cache, rope.c's fused kernel). Private to the two.
 *
 * Detection (pr_progression): x_r = x0 + r dx bit for bit for every r, with neither the
 * product r dx nor the sum rounded (Dekker's and Knuth's error terms are 0): the same test as
 * decay_grid.c's uniform_grid. Integer positions below 2^53 (0..n-1, start..start+n-1) always
 * pass; a run of 0.1 steps mostly does not, and takes the direct path.
 *
 * The value every path must give: (float)(attn * S(fl(x_r theta))), S = ps_sincos (within 2e-14
 * of sin/cos of its float64 argument), as the direct path forms it. The recurrence:
 * - anchor: row r0 of each run of PR_RUN rows is S(fl(x_r0 theta)) itself;
 * - step: (cd, sd) = cos/sin of the real product dx theta (pr_step: Dekker's product without FMA
 *   gives lo with dx theta = p + lo exactly; S(p) turned by lo to first order);
 * - row r + 1 = row r turned by the step: (c, s) <- (c cd - s sd, s cd + c sd).
 * After k <= 63 turns the state is within 63 * (2.9e-14 + 4.7e-16) + 2e-14 < 2e-12 of cos/sin of
 * fl(x_r0 theta) + k dx theta, which differs from fl(x_r theta) by at most 2^-52 |x theta|: so
 * attn times it lies within pr_window = |attn| (8e-12 + 2^-51 max|x theta|) of attn * S(fl(x_r
 * theta)), with a margin of 2 on each term. Where v - window and v + window round to the same
 * float32, so does the direct path's value; elsewhere the row takes the direct path's own formula
 * (simulated at 2048x64 pairs from 0: 0.16% of values, 1.1% of groups of four pairs; base 5e5:
 * 1%, 5%; from 1e6: 4.4%, 31%, hence PR_MAX_ANGLE). So a row's cos/sin are the same bits
 * whether its position came alone, in a progression, or in any other call, and in both builds.
 */
#ifndef POSENC_PROGRESSION_H
#define POSENC_PROGRESSION_H

#include "check.h"
#include "sincos.h"

#define PR_RUN 64              /* rows per run: an anchor, then 63 turns */
#define PR_MAX_ANGLE 0x1p18    /* largest angle served: past it the window's angle term makes
                                  the fallback too common (at 2048x64 pairs, base 1e4: 2x faster
                                  than the direct path from 0 to 1e5, 1.2x at 3e5, 0.9x at 1e6) */
#define PR_SPLIT 134217729.0   /* 2^27 + 1: Veltkamp's split */

/* lo with a b = p + lo exactly, p = fl(a b) (no FMA): exact for |a|, |b| <= 2^53, no underflow. */
static inline double pr_prod_err(double a, double b, double p) {
  double ta = PR_SPLIT * a, ah = ta - (ta - a), al = a - ah;
  double tb = PR_SPLIT * b, bh = tb - (tb - b), bl = b - bh;
  return (((ah * bh - p) + ah * bl) + al * bh) + al * bl;
}

/* The half-width of the test window around attn * (the recurrence's cos or sin) for rows whose
 * angles stay at or below amax (see the header). */
static inline double pr_window(double attn, double amax) { return fabs(attn) * (8e-12 + 0x1p-51 * amax); }

/* x[r] = x0 + r dx exactly for every r < n (n >= 2, every |x[r]| <= 2^53): 1 and x0, dx. */
static inline int pr_progression(const double *x, int32_t n, double *x0, double *dx) {
  double a = x[0], s = x[1] - x[0];
  for (int32_t r = 1; r < n; r++) {
    double p = (double)r * s, t = a + p, u = t - a;
    if (x[r] != t || pr_prod_err((double)r, s, p) != 0.0 || (a - (t - u)) + (p - u) != 0.0) return 0;
  }
  *x0 = a;
  *dx = s;
  return 1;
}

/* Position r of the progression, bit for bit x[r]. */
static inline double pr_at(double x0, double dx, int32_t r) { return x0 + (double)r * dx; }

/* sin and cos of the real product x w (the step; see the header). */
static inline void pr_step_scalar(double x, double w, double *s, double *c) {
  double p = x * w, lo = pr_prod_err(x, w, p), sp, cp;
  ps_sincos(p, &sp, &cp);
  *c = cp - lo * sp;
  *s = sp + lo * cp;
}

#ifdef __wasm_simd128__
/* pr_step_scalar on two lanes of w, x split once by the caller (xh + xl = x). check: some
 * angle may pass the reduction's range (those lanes take ps_sincos, as the scalar form). */
PS_INLINE void pr_step_simd(const ps_consts_t *K, v128_t x, v128_t xh, v128_t xl, v128_t w,
                              int check, v128_t *s, v128_t *c) {
  v128_t p = wasm_f64x2_mul(x, w), t = wasm_f64x2_mul(wasm_f64x2_splat(PR_SPLIT), w), sp, cp;
  v128_t wh = wasm_f64x2_sub(t, wasm_f64x2_sub(t, w)), wl = wasm_f64x2_sub(w, wh);
  v128_t lo = wasm_f64x2_sub(wasm_f64x2_mul(xh, wh), p);
  lo = wasm_f64x2_add(lo, wasm_f64x2_mul(xh, wl));
  lo = wasm_f64x2_add(lo, wasm_f64x2_mul(xl, wh));
  lo = wasm_f64x2_add(lo, wasm_f64x2_mul(xl, wl));
  ps_sincos2(K, p, check, &sp, &cp);
  *c = wasm_f64x2_sub(cp, wasm_f64x2_mul(lo, sp));
  *s = wasm_f64x2_add(sp, wasm_f64x2_mul(lo, cp));
}
#endif

#endif
