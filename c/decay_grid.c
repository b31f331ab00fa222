/* decay_grid.c: decay curves on a uniform grid of distances, by a float64 rotation recurrence.
 *
 * When the distances are an exact arithmetic progression, d_j = d_0 + j dx with no rounding in
 * float64 for any j (uniform_grid; integer grids below 2^53 always are), n >= UNIFORM_MIN, and
 * every angle is below the reduction's range, the terms come from a rotation along j, as the
 * sinusoidal table's:
 *   (c, s) <- (c cd - s sd, s cd + c sd),   (cd, sd) = (cos, sin)(dx theta_i),
 * re-anchored from the exact angle every RUN = 64 distances. An anchor is ps_sincos of
 * p = fl(d_j theta_i) turned by p's rounding error lo (d_j theta_i = p + lo exactly, Dekker's
 * product without FMA; |lo| < 1.7e-10, the lo^2/2 left out < 1.5e-20); a step is libm's sin/cos
 * of dx theta_i (within 1 ulp: a step's error repeats over a run, an anchor's does not) turned
 * likewise. So the recurrence follows the real angle d_j theta_i, not its float64 rounding.
 * Error bound per term, against cos/sin of the real angle: the anchor's < 2e-14 (ps_sincos),
 * plus per step the rotation's rounding (< 2^-52 in each of c and s, 3.1e-16 together) and the
 * step's own (< 1.6e-16): after the 63 steps of a run < 2e-14 + 63 * 4.7e-16 < 5e-14, however
 * large the angle (tests/decay.test.js checks 5e-14). The direct path (decay.c) instead rounds
 * each angle to float64, an error of up to 2^-53 of the angle (1.1e-10 at 1e6) before any
 * sin/cos, so a reference that also rounds the angle (Math.cos(x * theta)) sees the two paths
 * differ by up to that rounding. A step costs the rotation's 4 multiplies and 2 adds, against
 * a polynomial sin/cos per term.
 *
 * The linear curves run lanes over pairs: 8 pairs' states stay in registers through a run (four
 * independent rotation chains), each distance's sum taken over even and odd pairs in the two
 * lanes; the scalar form keeps the same two sums in the same order, so both builds give the same
 * bits. Pairs go by chunks of CHUNK with their steps on the stack. The bound sums over i for
 * each distance, so its lanes are distances: a block of 4 RUN distances is four runs side by
 * side (ceil(nb/4) each in the last block), their rotation states for a chunk of pairs in a
 * 16 KB stack block (L1) walked once per step, the steps of all pairs in one heap array.
 * A grid with an angle past the reduction's range takes the direct path: its anchors would need
 * libm, the first-order turn by lo loses accuracy as lo grows with the angle (lo^2/2 reaches
 * 1e-14 near angle 1.3e9), and toward 2^53 the float64 angle's own rounding reaches radians,
 * where cos(fl(angle)) is all a result can mean.
 */
#include <math.h>
#include <stdlib.h>

#include "decay.h"

#define RUN 64              /* distances per recurrence run: an exact anchor, then 63 rotations */
#define BOUND_BLOCK (4 * RUN) /* the bound's block: four runs side by side */
#define CHUNK 256           /* pairs at once (stack arrays: steps, the bound's lane states) */
#define UNIFORM_MIN 4       /* shorter grids take the direct path */
#define SPLIT 134217729.0   /* 2^27 + 1: Veltkamp's split */

/* Distance j of a uniform grid: bit for bit d_j (uniform_grid checked it). */
static inline double xg(double x0, double dx, int32_t j) { return x0 + (double)j * dx; }

/* lo with a b = p + lo exactly, p = fl(a b): Dekker's product by Veltkamp's split into 26-bit
 * halves (no FMA). Exact for |a|, |b| <= 2^53 and no underflow (an underflowed lo is off by
 * less than 1e-300, far below what it corrects). */
static inline double prod_err(double a, double b, double p) {
  double ta = SPLIT * a, ah = ta - (ta - a), al = a - ah;
  double tb = SPLIT * b, bh = tb - (tb - b), bl = b - bh;
  return (((ah * bh - p) + ah * bl) + al * bh) + al * bl;
}

/* d_j = x0 + j dx for every j, exactly: the float64 expression x0 + j dx equals d_j, and
 * neither its product nor its sum rounded (Dekker's and Knuth's error terms are 0). Then x0,
 * dx and j alone rebuild any d_j (xg), and the real progression the recurrence follows is the
 * distances themselves. Integer grids below 2^53 always pass; j * 331.7 mostly does not.
 * Needs |d_j| <= 2^53 (in_range's caps, checked first). */
static int uniform_grid(const double *d, int32_t n, double *x0, double *dx) {
  if (n < UNIFORM_MIN) return 0;
  double a = d[0], s = d[1] - d[0];
  for (int32_t j = 1; j < n; j++) {
    double p = (double)j * s, t = a + p, u = t - a;
    if (d[j] != t || prod_err((double)j, s, p) != 0.0 || (a - (t - u)) + (p - u) != 0.0) return 0;
  }
  *x0 = a;
  *dx = s;
  return 1;
}

/* sin and cos of the real product x w, not of its float64 rounding p: the rounding error lo
 * (|lo| <= 2^-53 |x w| < 1.7e-10 in range) turns (cos p, sin p) by lo to first order (the
 * second-order rest, lo^2 / 2 < 1.5e-20, is dropped). */
static inline void anchor_scalar(double x, double w, double *s, double *c) {
  double p = x * w, lo = prod_err(x, w, p), sp, cp;
  ps_sincos(p, &sp, &cp);
  *c = cp - lo * sp;
  *s = sp + lo * cp;
}

/* The step of pair i: rotation by dx w_i, from libm (within 1 ulp, where ps_sincos is within
 * 1.4e-14: the step's error adds up over a run, the anchor's does not), corrected as above. */
static void step(double dx, double w, double *s, double *c) {
  double p = dx * w, lo = prod_err(dx, w, p), sp = sin(p), cp = cos(p);
  *c = cp - lo * sp;
  *s = sp + lo * cp;
}

/* Linear curves, scalar form: pairs [p0, p1) of a chunk add A_p cos + B_p sin at the nb
 * distances x, x + dx, ... into acc[2m + (p & 1)] (even pairs and odd pairs in two sums, as
 * the SIMD form's two lanes). */
MAYBE_UNUSED static void linear_run_scalar(double *acc, int32_t nb, double x, const double *w,
                                           const double *A, const double *B, const double *cd,
                                           const double *sd, int32_t p0, int32_t p1,
                                           int cos_only) {
  for (int32_t p = p0; p < p1; p++) {
    double s, c, *a = acc + (p & 1);
    anchor_scalar(x, w[p], &s, &c);
    for (int32_t m = 0; m < nb; m++) {
      a[2 * m] += cos_only ? A[p] * c : A[p] * c + B[p] * s;
      double t = s * cd[p] + c * sd[p];
      c = c * cd[p] - s * sd[p];
      s = t;
    }
  }
}

/* RoFormer bound, scalar form, one block of nb <= BOUND_BLOCK distances from grid index j0:
 * four lanes of len = ceil(nb / 4) consecutive distances, each anchored at its first (the
 * SIMD form runs the four lanes side by side). steps: cd, cd, sd, sd per pair. */
MAYBE_UNUSED static void bound_block_scalar(double *out, int32_t j0, int32_t nb, double x0,
                                            double dx, const double *w, const double *steps,
                                            int32_t half) {
  int32_t len = (nb + 3) / 4;
  double re[RUN], im[RUN], acc[RUN];
  for (int32_t l = 0; l < 4 && l * len < nb; l++) {
    int32_t start = j0 + l * len, cnt = nb - l * len < len ? nb - l * len : len;
    double x = xg(x0, dx, start);
    for (int32_t m = 0; m < cnt; m++) re[m] = im[m] = acc[m] = 0.0;
    for (int32_t i = 0; i < half; i++) {
      double s, c, cd = steps[4 * i], sd = steps[4 * i + 2];
      anchor_scalar(x, w[i], &s, &c);
      for (int32_t m = 0; m < cnt; m++) {
        re[m] += c;
        im[m] += s;
        acc[m] += sqrt(re[m] * re[m] + im[m] * im[m]);
        double t = s * cd + c * sd;
        c = c * cd - s * sd;
        s = t;
      }
    }
    for (int32_t m = 0; m < cnt; m++) out[start + m] = acc[m] / half;
  }
}

#ifdef __wasm_simd128__
/* anchor_scalar on two lanes, bit for bit: x (lanes) times w (lanes), x already split. */
PS_INLINE void anchor_simd(const ps_consts_t *K, v128_t x, v128_t xh, v128_t xl, v128_t w,
                           v128_t *s, v128_t *c) {
  v128_t p = wasm_f64x2_mul(x, w), t = wasm_f64x2_mul(w, wasm_f64x2_splat(SPLIT)), sp, cp;
  v128_t wh = wasm_f64x2_sub(t, wasm_f64x2_sub(t, w)), wl = wasm_f64x2_sub(w, wh);
  v128_t lo = wasm_f64x2_sub(wasm_f64x2_mul(xh, wh), p);
  lo = wasm_f64x2_add(lo, wasm_f64x2_mul(xh, wl));
  lo = wasm_f64x2_add(lo, wasm_f64x2_mul(xl, wh));
  lo = wasm_f64x2_add(lo, wasm_f64x2_mul(xl, wl));
  ps_sincos2(K, p, 0, &sp, &cp);
  *c = wasm_f64x2_sub(cp, wasm_f64x2_mul(lo, sp));
  *s = wasm_f64x2_add(sp, wasm_f64x2_mul(lo, cp));
}

/* Veltkamp's split of two lanes, as prod_err does it. */
PS_INLINE void split_simd(v128_t x, v128_t *h, v128_t *l) {
  v128_t t = wasm_f64x2_mul(x, wasm_f64x2_splat(SPLIT));
  *h = wasm_f64x2_sub(t, wasm_f64x2_sub(t, x));
  *l = wasm_f64x2_sub(x, *h);
}

/* linear_run_scalar for the 2G pairs at w, A, B, cd, sd (G vectors of two, lanes = pairs):
 * their states stay in registers for the whole run, and each distance's two sums take the G
 * vectors in pair order (lane 0 gets the even pairs in turn: the scalar form's order). G and
 * cos_only are constants at every call. */
PS_INLINE void linear_run_simd(const ps_consts_t *K, double *acc, int32_t nb, double x,
                               const double *w, const double *A, const double *B,
                               const double *cd, const double *sd, int G, int cos_only) {
  v128_t c[4], s[4], a[4], b[4], vc[4], vs[4], xv = wasm_f64x2_splat(x), xh, xl;
  split_simd(xv, &xh, &xl);
  for (int g = 0; g < G; g++) {
    anchor_simd(K, xv, xh, xl, wasm_v128_load(w + 2 * g), &s[g], &c[g]);
    a[g] = wasm_v128_load(A + 2 * g);
    b[g] = cos_only ? a[g] : wasm_v128_load(B + 2 * g);
    vc[g] = wasm_v128_load(cd + 2 * g);
    vs[g] = wasm_v128_load(sd + 2 * g);
  }
  for (int32_t m = 0; m < nb; m++) {
    v128_t t = wasm_v128_load(acc + 2 * m);
    for (int g = 0; g < G; g++) {
      v128_t term = wasm_f64x2_mul(a[g], c[g]);
      if (!cos_only) term = wasm_f64x2_add(term, wasm_f64x2_mul(b[g], s[g]));
      t = wasm_f64x2_add(t, term);
    }
    wasm_v128_store(acc + 2 * m, t);
    for (int g = 0; g < G; g++) {
      v128_t n = wasm_f64x2_add(wasm_f64x2_mul(s[g], vc[g]), wasm_f64x2_mul(c[g], vs[g]));
      c[g] = wasm_f64x2_sub(wasm_f64x2_mul(c[g], vc[g]), wasm_f64x2_mul(s[g], vs[g]));
      s[g] = n;
    }
  }
}

/* The pairs of one chunk through linear_run_simd: 8 at a time (four independent rotation
 * chains hide the multiply-add latency), then 2, then the odd one in the scalar form. */
PS_INLINE void linear_chunk_simd(const ps_consts_t *K, double *acc, int32_t nb, double x,
                                 const double *w, const double *A, const double *B,
                                 const double *cd, const double *sd, int32_t np, int cos_only) {
  int32_t p = 0;
  for (; p + 8 <= np; p += 8)
    linear_run_simd(K, acc, nb, x, w + p, A + p, B + p, cd + p, sd + p, 4, cos_only);
  for (; p + 2 <= np; p += 2)
    linear_run_simd(K, acc, nb, x, w + p, A + p, B + p, cd + p, sd + p, 1, cos_only);
  linear_run_scalar(acc, nb, x, w, A, B, cd, sd, p, np, cos_only);
}

/* bound_block_scalar with its four lanes in two vectors. The lanes' rotation state for a chunk
 * of pairs lives in st (c0 c1 c2 c3 s0 s1 s2 s3 per pair, 16 KB: L1), the running sums per
 * distance in re, im, acc ([m][lane]); each step of the run goes once through the chunk. */
static void bound_block_simd(double *out, int32_t j0, int32_t nb, int32_t n, double x0,
                             double dx, const double *w, const double *steps, int32_t half) {
  const ps_consts_t *K = ps_consts();
  int32_t len = (nb + 3) / 4;
  double st[8 * CHUNK], re[4 * RUN], im[4 * RUN], acc[4 * RUN], xs[4];
  for (int32_t m = 0; m < 4 * len; m++) re[m] = im[m] = acc[m] = 0.0;
  /* a lane past the grid's end runs on a copy of the last distance: computed, never stored */
  for (int32_t l = 0; l < 4; l++) xs[l] = xg(x0, dx, j0 + l * len < n ? j0 + l * len : n - 1);
  v128_t x01 = wasm_v128_load(xs), x23 = wasm_v128_load(xs + 2), h01, l01, h23, l23;
  split_simd(x01, &h01, &l01);
  split_simd(x23, &h23, &l23);
  for (int32_t i0 = 0; i0 < half; i0 += CHUNK) {
    int32_t np = half - i0 < CHUNK ? half - i0 : CHUNK;
    for (int32_t p = 0; p < np; p++) {
      v128_t wv = wasm_v128_load64_splat(w + i0 + p), s, c;
      anchor_simd(K, x01, h01, l01, wv, &s, &c);
      wasm_v128_store(st + 8 * p, c);
      wasm_v128_store(st + 8 * p + 4, s);
      anchor_simd(K, x23, h23, l23, wv, &s, &c);
      wasm_v128_store(st + 8 * p + 2, c);
      wasm_v128_store(st + 8 * p + 6, s);
    }
    const double *sp = steps + 4 * i0;
    for (int32_t m = 0; m < len; m++) {
      v128_t re0 = wasm_v128_load(re + 4 * m), re1 = wasm_v128_load(re + 4 * m + 2);
      v128_t im0 = wasm_v128_load(im + 4 * m), im1 = wasm_v128_load(im + 4 * m + 2);
      v128_t ac0 = wasm_v128_load(acc + 4 * m), ac1 = wasm_v128_load(acc + 4 * m + 2);
      for (int32_t p = 0; p < np; p++) {
        double *q = st + 8 * p;
        v128_t c0 = wasm_v128_load(q), c1 = wasm_v128_load(q + 2);
        v128_t s0 = wasm_v128_load(q + 4), s1 = wasm_v128_load(q + 6);
        v128_t cd = wasm_v128_load(sp + 4 * p), sd = wasm_v128_load(sp + 4 * p + 2);
        bound_add(c0, s0, &re0, &im0, &ac0);
        bound_add(c1, s1, &re1, &im1, &ac1);
        wasm_v128_store(q + 4, wasm_f64x2_add(wasm_f64x2_mul(s0, cd), wasm_f64x2_mul(c0, sd)));
        wasm_v128_store(q + 6, wasm_f64x2_add(wasm_f64x2_mul(s1, cd), wasm_f64x2_mul(c1, sd)));
        wasm_v128_store(q, wasm_f64x2_sub(wasm_f64x2_mul(c0, cd), wasm_f64x2_mul(s0, sd)));
        wasm_v128_store(q + 2, wasm_f64x2_sub(wasm_f64x2_mul(c1, cd), wasm_f64x2_mul(s1, sd)));
      }
      wasm_v128_store(re + 4 * m, re0), wasm_v128_store(re + 4 * m + 2, re1);
      wasm_v128_store(im + 4 * m, im0), wasm_v128_store(im + 4 * m + 2, im1);
      wasm_v128_store(acc + 4 * m, ac0), wasm_v128_store(acc + 4 * m + 2, ac1);
    }
  }
  for (int32_t l = 0; l < 4 && l * len < nb; l++)
    for (int32_t m = 0; m < len && l * len + m < nb; m++)
      out[j0 + l * len + m] = acc[4 * m + l] / half;
}
#endif

/* out[j] = c0 + sum_i A_i cos(d_j w_i) + B_i sin(d_j w_i) on a uniform grid: chunk by chunk
 * of pairs (their steps on the stack), run by run of RUN distances; out[j] = c0, then each
 * chunk adds its two sums. */
void decay_grid_linear(double *out, int32_t n, double x0, double dx, const double *w,
                       const double *A, const double *B, int32_t half, double c0, int cos_only) {
  double cd[CHUNK], sd[CHUNK], acc[2 * RUN];
#ifdef __wasm_simd128__
  const ps_consts_t *K = ps_consts();
#endif
  for (int32_t j = 0; j < n; j++) out[j] = c0;
  for (int32_t i0 = 0; i0 < half; i0 += CHUNK) {
    int32_t np = half - i0 < CHUNK ? half - i0 : CHUNK;
    for (int32_t p = 0; p < np; p++) step(dx, w[i0 + p], &sd[p], &cd[p]);
    for (int32_t j0 = 0; j0 < n; j0 += RUN) {
      int32_t nb = n - j0 < RUN ? n - j0 : RUN;
      double x = xg(x0, dx, j0);
      for (int32_t m = 0; m < 2 * nb; m++) acc[m] = 0.0;
#ifdef __wasm_simd128__
      if (cos_only) linear_chunk_simd(K, acc, nb, x, w + i0, A + i0, B + i0, cd, sd, np, 1);
      else linear_chunk_simd(K, acc, nb, x, w + i0, A + i0, B + i0, cd, sd, np, 0);
#else
      linear_run_scalar(acc, nb, x, w + i0, A + i0, B + i0, cd, sd, 0, np, cos_only);
#endif
      for (int32_t m = 0; m < nb; m++) out[j0 + m] += acc[2 * m] + acc[2 * m + 1];
    }
  }
}

/* The recurrence serves a uniform grid whose angles all lie in the reduction's range. */
int decay_grid(const double *d, int32_t n, const double *w, int32_t half, double *x0, double *dx) {
  return n >= UNIFORM_MIN && decay_in_range(d, n, w, half, 1) && uniform_grid(d, n, x0, dx);
}

int decay_grid_bound(double *out, int32_t n, double x0, double dx, const double *w, int32_t half) {
  double *steps = malloc(sizeof(double) * 4 * (size_t)half);
  if (!steps) return 0;
  for (int32_t i = 0; i < half; i++) {
    step(dx, w[i], &steps[4 * i + 2], &steps[4 * i]);
    steps[4 * i + 1] = steps[4 * i];
    steps[4 * i + 3] = steps[4 * i + 2];
  }
  for (int32_t j0 = 0; j0 < n; j0 += BOUND_BLOCK) {
    int32_t nb = n - j0 < BOUND_BLOCK ? n - j0 : BOUND_BLOCK;
#ifdef __wasm_simd128__
    bound_block_simd(out, j0, nb, n, x0, dx, w, steps, half);
#else
    bound_block_scalar(out, j0, nb, x0, dx, w, steps, half);
#endif
  }
  free(steps);
  return 1;
}
