/* decay.c: attention-score curves over relative distance x.
 *
 * Every curve but the RoFormer bound has the form c0 + sum_i (A_i cos(x theta_i) +
 * B_i sin(x theta_i)), with A, B, c0 fixed by the kind:
 *   all-ones q = k (seed 004):       A_i = 2, B_i = 0
 *   q . R(x) k, pair (a, b) of each: A_i = qa ka + qb kb, B_i = qb ka - qa kb
 *   (q + PE(0)) . (k + PE(x)):       A_i = q_{2i+1} + 1, B_i = q_{2i}, c0 = q.k + sum k_{2i+1}
 * so one accumulation loop serves them. Sums run in float64.
 *
 * Uniform grids (every chart's linear axis): when the distances are an exact arithmetic
 * progression, d_j = d_0 + j dx with no rounding in float64 for any j (uniform_grid; integer
 * grids below 2^53 always are), n >= UNIFORM_MIN, and every angle is below the reduction's
 * range, the terms come from a float64 rotation recurrence along j, as the sinusoidal table's:
 *   (c, s) <- (c cd - s sd, s cd + c sd),   (cd, sd) = (cos, sin)(dx theta_i),
 * re-anchored from the exact angle every RUN = 64 distances. An anchor is ps_sincos of
 * p = fl(d_j theta_i) turned by p's rounding error lo (d_j theta_i = p + lo exactly, Dekker's
 * product without FMA; |lo| < 1.7e-10, the lo^2/2 left out < 1.5e-20); a step is libm's sin/cos
 * of dx theta_i (within 1 ulp: a step's error repeats over a run, an anchor's does not) turned
 * likewise. So the recurrence follows the real angle d_j theta_i, not its float64 rounding.
 * Error bound per term, against cos/sin of the real angle: the anchor's < 2e-14 (ps_sincos),
 * plus per step the rotation's rounding (< 2^-52 in each of c and s, 3.1e-16 together) and the
 * step's own (< 1.6e-16): after the 63 steps of a run < 2e-14 + 63 * 4.7e-16 < 5e-14, however
 * large the angle (tests/decay.test.js measures 1.5e-14 and checks 5e-14). RUN = 64 measured
 * faster than 16 or 32 at equal output. The direct path below instead rounds each angle to
 * float64, an error of up to 2^-53 of the angle (1.1e-10 at 1e6) before any sin/cos: on a grid
 * out to 1e6 at d = 4096 its curve is up to 1e-9 (relative to max(1, |g|)) off the exact one,
 * the recurrence's 8e-13. A reference that also rounds the angle (Math.cos(x * theta)) therefore
 * sees the two paths differ by up to that rounding.
 * Cost per term: the rotation's 4 multiplies and 2 adds plus the term's own, against a
 * polynomial sin/cos (wasm, this machine, 2001 distances: ones d = 4096 11 -> 3.7 ms, bound
 * 18 -> 4.6 ms; scalar build likewise ~3.5x).
 * The linear curves run lanes over pairs: 8 pairs' states stay in registers through a run (four
 * independent rotation chains), each distance's sum taken over even and odd pairs in the two
 * lanes; the scalar form keeps the same two sums in the same order, so both builds give the same
 * bits. Pairs go by chunks of CHUNK with their steps on the stack. The bound sums over i for
 * each distance, so its lanes are distances: a block of 4 RUN distances is four runs side by
 * side (ceil(nb/4) each in the last block), their rotation states for a chunk of pairs in a
 * 16 KB stack block (L1) walked once per step, the steps of all pairs in one heap array (when
 * that allocation fails the direct path serves instead). A grid with an angle past the
 * reduction's range takes the direct path: its anchors would need libm, the first-order turn by
 * lo loses accuracy as lo grows with the angle (lo^2/2 reaches 1e-14 near angle 1.3e9), and
 * toward 2^53 the float64 angle's own rounding reaches radians, where cos(fl(angle)) is all a
 * result can mean. The direct path serves every other grid too (log-spaced axes).
 *
 * Direct path: every term from the float64 angle. When every B_i is 0 (the all-ones curve,
 * PE(0).PE(x)) only cosines are formed, by ps_cos (sincos.h): 1.5x faster; in the SIMD form
 * the pairs whose angles all stay below PS_NEAR also skip ps_cos's reduction, with the same
 * bits (2000 log-spaced distances at d = 4096, a third of the terms: 10.6 -> 8.7 ms). The SIMD form
 * takes four distances a step in two f64x2 vectors, whose independent sincos chains the CPU
 * overlaps.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "sincos.h"

#define RUN 64              /* distances per recurrence run: an exact anchor, then 63 rotations */
#define BOUND_BLOCK (4 * RUN) /* the bound's block: four runs side by side */
#define CHUNK 256           /* pairs at once (stack arrays: steps, the bound's lane states) */
#define UNIFORM_MIN 4       /* shorter grids take the direct path */
#define SPLIT 134217729.0   /* 2^27 + 1: Veltkamp's split */

static int check_dist(const double *out, const double *distances, int32_t n,
                      const double *w, int32_t half) {
  CHECK(out && distances && w, POSENC_E_NULL);
  CHECK(elems3(n, half, 1), POSENC_E_SIZE);
  double dmax, wmax;
  CHECK(nonneg_finite(distances, n, &dmax), POSENC_E_POSITION);
  CHECK(nonneg_finite(w, half, &wmax), POSENC_E_VALUE);
  CHECK(dmax * wmax < 1e300, POSENC_E_VALUE);
  return POSENC_OK;
}

/* ---- Direct path: every term from its float64 angle ---- */

MAYBE_UNUSED static double linear_scalar(double x, const double *w, const double *A,
                                         const double *B, int32_t half, int cos_only) {
  double acc = 0.0;
  if (cos_only) {
    for (int32_t i = 0; i < half; i++) acc += A[i] * ps_cos(x * w[i]);
    return acc;
  }
  for (int32_t i = 0; i < half; i++) {
    double s, c;
    ps_sincos(x * w[i], &s, &c);
    acc += A[i] * c + B[i] * s;
  }
  return acc;
}

MAYBE_UNUSED static double bound_scalar(double x, const double *w, int32_t half) {
  double re = 0.0, im = 0.0, acc = 0.0;
  for (int32_t i = 0; i < half; i++) {
    double s, c;
    ps_sincos(x * w[i], &s, &c);
    re += c;
    im += s;
    acc += sqrt(re * re + im * im);
  }
  return acc / half;
}

#ifdef __wasm_simd128__
/* The first pair from which every angle x w_i (0 <= x <= xmax) stays below PS_NEAR, given
 * wsuf, w's suffix maxima (non-increasing): rounding keeps fl(x w_i) <= fl(xmax wsuf[i]). */
static int32_t near_from(const double *wsuf, int32_t half, double xmax) {
  const double *b = wsuf; /* a search with selects, not branches: groups differ at random */
  for (int32_t len = half; len > 1; len -= len / 2) b += xmax * b[len / 2 - 1] < PS_NEAR ? 0 : len / 2;
  return (int32_t)(b - wsuf) + !(xmax * *b < PS_NEAR);
}

/* Distances x (two lanes) and, when `two`, x2 as well. Called with constant two, cos_only
 * and check, so that each loop compiles without the branches it skips. wsuf (cos_only, may be
 * NULL): w's suffix maxima, to find the pairs whose cosines skip the reduction. */
static inline __attribute__((always_inline)) void linear_simd(v128_t x, v128_t x2, int two, const double *w, const double *A,
                        const double *B, const double *wsuf, int32_t half, int cos_only, int check,
                        v128_t *out, v128_t *out2) {
  const ps_consts_t *K = ps_consts();
  v128_t acc = wasm_f64x2_splat(0.0), acc2 = acc;
  if (cos_only) {
    v128_t xm = two ? wasm_f64x2_pmax(x, x2) : x;
    double xmax = fmax(wasm_f64x2_extract_lane(xm, 0), wasm_f64x2_extract_lane(xm, 1));
    int32_t i = 0, i0 = wsuf ? near_from(wsuf, half, xmax) : half;
#define COS_TERMS(end, cos2)                                                                     \
  for (; i < (end); i++) {                                                                      \
    v128_t wi = wasm_v128_load64_splat(w + i), a = wasm_v128_load64_splat(A + i);               \
    acc = wasm_f64x2_add(acc, wasm_f64x2_mul(a, cos2(wasm_f64x2_mul(x, wi))));                 \
    if (two) acc2 = wasm_f64x2_add(acc2, wasm_f64x2_mul(a, cos2(wasm_f64x2_mul(x2, wi))));     \
  }
#define FAR(v) ps_cos2(K, v, check)
#define NEAR(v) ps_cos2_near(K, v)
    COS_TERMS(i0, FAR)
    COS_TERMS(half, NEAR)
#undef FAR
#undef NEAR
#undef COS_TERMS
    *out = acc;
    *out2 = acc2;
    return;
  }
  for (int32_t i = 0; i < half; i++) {
    v128_t wi = wasm_v128_load64_splat(w + i), a = wasm_v128_load64_splat(A + i);
    v128_t b = wasm_v128_load64_splat(B + i), s, c;
    ps_sincos2(K, wasm_f64x2_mul(x, wi), check, &s, &c);
    acc = wasm_f64x2_add(acc, wasm_f64x2_add(wasm_f64x2_mul(a, c), wasm_f64x2_mul(b, s)));
    if (two) {
      ps_sincos2(K, wasm_f64x2_mul(x2, wi), check, &s, &c);
      acc2 = wasm_f64x2_add(acc2, wasm_f64x2_add(wasm_f64x2_mul(a, c), wasm_f64x2_mul(b, s)));
    }
  }
  *out = acc;
  *out2 = acc2;
}

/* One pair's term of the bound on two lanes: the running sum of e^(i x theta_k) grows by (c, s)
 * and acc by the new sum's modulus (bound_scalar's order, so both builds agree). */
PS_INLINE void bound_add(v128_t c, v128_t s, v128_t *re, v128_t *im, v128_t *acc) {
  *re = wasm_f64x2_add(*re, c);
  *im = wasm_f64x2_add(*im, s);
  *acc = wasm_f64x2_add(*acc, wasm_f64x2_sqrt(wasm_f64x2_add(wasm_f64x2_mul(*re, *re), wasm_f64x2_mul(*im, *im))));
}

/* Two vectors of distances a step (independent chains); check as in linear_simd. */
static inline __attribute__((always_inline)) void bound_simd(v128_t x, v128_t x2, const double *w,
                                                             int32_t half, int check,
                                                             v128_t *out, v128_t *out2) {
  const ps_consts_t *K = ps_consts();
  v128_t re = wasm_f64x2_splat(0.0), im = re, acc = re, re2 = re, im2 = re, acc2 = re;
  for (int32_t i = 0; i < half; i++) {
    v128_t wi = wasm_v128_load64_splat(w + i), s, c, s2, c2;
    ps_sincos2(K, wasm_f64x2_mul(x, wi), check, &s, &c);
    ps_sincos2(K, wasm_f64x2_mul(x2, wi), check, &s2, &c2);
    bound_add(c, s, &re, &im, &acc);
    bound_add(c2, s2, &re2, &im2, &acc2);
  }
  v128_t h = wasm_f64x2_splat((double)half);
  *out = wasm_f64x2_div(acc, h);
  *out2 = wasm_f64x2_div(acc2, h);
}
#endif

/* Every angle d_j w_i below the reduction's range: the SIMD forms skip their range test.
 * caps: also every d_j and w_i at most 2^53 (keeps prod_err exact; a chart never comes near). */
static int in_range(const double *d, int32_t n, const double *w, int32_t half, int caps) {
  double dmax = 0.0, wmax = 0.0;
  for (int32_t i = 0; i < n; i++) dmax = d[i] > dmax ? d[i] : dmax;
  for (int32_t i = 0; i < half; i++) wmax = w[i] > wmax ? w[i] : wmax;
  return dmax * wmax < PS_REDUCE_MAX && (!caps || (dmax <= 0x1p53 && wmax <= 0x1p53));
}

/* ---- Uniform grids: the rotation recurrence ---- */

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
static void linear_uniform(double *out, int32_t n, double x0, double dx, const double *w,
                           const double *A, const double *B, int32_t half, double c0,
                           int cos_only) {
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
static int use_recurrence(const double *d, int32_t n, const double *w, int32_t half, double *x0,
                          double *dx) {
  return n >= UNIFORM_MIN && in_range(d, n, w, half, 1) && uniform_grid(d, n, x0, dx);
}

/* out[j] = c0 + sum_i A_i cos(d_j w_i) + B_i sin(d_j w_i) */
static void linear_curve(double *out, const double *d, int32_t n, const double *w,
                         const double *A, const double *B, int32_t half, double c0) {
  int32_t j = 0, cos_only = 1;
  for (int32_t i = 0; i < half; i++) cos_only &= B[i] == 0.0;
  double x0, dx;
  if (use_recurrence(d, n, w, half, &x0, &dx)) {
    linear_uniform(out, n, x0, dx, w, A, B, half, c0, cos_only);
    return;
  }
#ifdef __wasm_simd128__
  int check = !in_range(d, n, w, half, 0);
  double *wsuf = cos_only ? malloc(sizeof(double) * (size_t)half) : NULL; /* NULL: no skipping */
  double m = 0.0;
  for (int32_t i = half - 1; wsuf && i >= 0; i--) wsuf[i] = m = fmax(m, w[i]);
  v128_t c = wasm_f64x2_splat(c0), s, s2;
#define LINEAR4(cos_only, check)                                                                \
  for (; j + 4 <= n; j += 4) {                                                                  \
    linear_simd(wasm_v128_load(d + j), wasm_v128_load(d + j + 2), 1, w, A, B, wsuf, half,       \
                cos_only, check, &s, &s2);                                                      \
    wasm_v128_store(out + j, wasm_f64x2_add(c, s));                                             \
    wasm_v128_store(out + j + 2, wasm_f64x2_add(c, s2));                                        \
  }
  if (check) LINEAR4(cos_only, 1)
  else if (cos_only) LINEAR4(1, 0)
  else LINEAR4(0, 0)
#undef LINEAR4
  for (; j + 2 <= n; j += 2) {
    linear_simd(wasm_v128_load(d + j), c, 0, w, A, B, wsuf, half, cos_only, check, &s, &s2);
    wasm_v128_store(out + j, wasm_f64x2_add(c, s));
  }
  free(wsuf);
#endif
  for (; j < n; j++) out[j] = c0 + linear_scalar(d[j], w, A, B, half, cos_only);
}

/* The per-pair coefficients live in caller-sized heap buffers: half has no small bound. */
static int with_coeffs(double **A, double **B, int32_t half) {
  *A = malloc(sizeof(double) * (size_t)half);
  *B = malloc(sizeof(double) * (size_t)half);
  if (*A && *B) return POSENC_OK;
  free(*A);
  free(*B);
  return POSENC_E_SIZE;
}

int posenc_rope_decay_ones(double *out, const double *distances, int32_t n,
                           const double *inv_freq, int32_t half) {
  int rc = check_dist(out, distances, n, inv_freq, half);
  if (rc) return rc;
  double *A, *B;
  if ((rc = with_coeffs(&A, &B, half))) return rc;
  for (int32_t i = 0; i < half; i++) A[i] = 2.0, B[i] = 0.0;
  linear_curve(out, distances, n, inv_freq, A, B, half, 0.0);
  free(A);
  free(B);
  return POSENC_OK;
}

int posenc_rope_decay_bound(double *out, const double *distances, int32_t n,
                            const double *inv_freq, int32_t half) {
  int rc = check_dist(out, distances, n, inv_freq, half);
  if (rc) return rc;
  double x0, dx, *steps;
  if (use_recurrence(distances, n, inv_freq, half, &x0, &dx) &&
      (steps = malloc(sizeof(double) * 4 * (size_t)half))) {
    for (int32_t i = 0; i < half; i++) {
      step(dx, inv_freq[i], &steps[4 * i + 2], &steps[4 * i]);
      steps[4 * i + 1] = steps[4 * i];
      steps[4 * i + 3] = steps[4 * i + 2];
    }
    for (int32_t j0 = 0; j0 < n; j0 += BOUND_BLOCK) {
      int32_t nb = n - j0 < BOUND_BLOCK ? n - j0 : BOUND_BLOCK;
#ifdef __wasm_simd128__
      bound_block_simd(out, j0, nb, n, x0, dx, inv_freq, steps, half);
#else
      bound_block_scalar(out, j0, nb, x0, dx, inv_freq, steps, half);
#endif
    }
    free(steps);
    return POSENC_OK;
  }
  int32_t j = 0;
#ifdef __wasm_simd128__
  v128_t a, b;
#define BOUND4(check)                                                                          \
  for (; j + 4 <= n; j += 4) {                                                                 \
    bound_simd(wasm_v128_load(distances + j), wasm_v128_load(distances + j + 2), inv_freq, half, \
               check, &a, &b);                                                                 \
    wasm_v128_store(out + j, a);                                                               \
    wasm_v128_store(out + j + 2, b);                                                           \
  }
  if (in_range(distances, n, inv_freq, half, 0)) BOUND4(0)
  else BOUND4(1)
#undef BOUND4
  if (j + 2 <= n) {
    v128_t x = wasm_v128_load(distances + j);
    bound_simd(x, x, inv_freq, half, 1, &a, &b);
    wasm_v128_store(out + j, a);
    j += 2;
  }
#endif
  for (; j < n; j++) out[j] = bound_scalar(distances[j], inv_freq, half);
  return POSENC_OK;
}

int posenc_rope_decay_vectors(double *out, const double *distances, int32_t n,
                              const double *inv_freq, int32_t half, const float *q, const float *k,
                              int32_t style) {
  int rc = check_dist(out, distances, n, inv_freq, half);
  if (rc) return rc;
  CHECK(q && k, POSENC_E_NULL);
  CHECK(style == POSENC_STYLE_INTERLEAVED || style == POSENC_STYLE_HALF, POSENC_E_STYLE);
  CHECK(all_finite_f32(q, 2 * (size_t)half) && all_finite_f32(k, 2 * (size_t)half), POSENC_E_VALUE);
  double *A, *B;
  if ((rc = with_coeffs(&A, &B, half))) return rc;
  for (int32_t i = 0; i < half; i++) {
    int32_t a = style == POSENC_STYLE_INTERLEAVED ? 2 * i : i;
    int32_t b = style == POSENC_STYLE_INTERLEAVED ? 2 * i + 1 : i + half;
    A[i] = (double)q[a] * k[a] + (double)q[b] * k[b];
    B[i] = (double)q[b] * k[a] - (double)q[a] * k[b];
  }
  linear_curve(out, distances, n, inv_freq, A, B, half, 0.0);
  free(A);
  free(B);
  return POSENC_OK;
}

int posenc_sinusoidal_decay(double *out, const double *distances, int32_t n, int32_t dim,
                            double base, const float *q, const float *k) {
  CHECK(out && distances, POSENC_E_NULL);
  CHECK(elems3(n, dim, 1), POSENC_E_SIZE);
  CHECK(dim % 2 == 0, POSENC_E_ODD);
  CHECK_BASE(base);
  CHECK((q == 0) == (k == 0), POSENC_E_NULL);
  CHECK(!q || (all_finite_f32(q, (size_t)dim) && all_finite_f32(k, (size_t)dim)), POSENC_E_VALUE);
  int32_t half = dim / 2;
  double *A, *B, *w = malloc(sizeof(double) * (size_t)half);
  if (!w) return POSENC_E_SIZE;
  int rc = with_coeffs(&A, &B, half);
  if (rc) {
    free(w);
    return rc;
  }
  double c0 = 0.0;
  for (int32_t i = 0; i < half; i++) {
    w[i] = pow(base, -(2.0 * i) / dim);
    /* PE(0) = (sin 0, cos 0) = (0, 1) in every pair */
    A[i] = q ? (double)q[2 * i + 1] + 1.0 : 1.0;
    B[i] = q ? (double)q[2 * i] : 0.0;
    if (q) c0 += (double)q[2 * i] * k[2 * i] + ((double)q[2 * i + 1] + 1.0) * k[2 * i + 1];
  }
  rc = check_dist(out, distances, n, w, half);
  if (!rc) linear_curve(out, distances, n, w, A, B, half, c0);
  free(w);
  free(A);
  free(B);
  return rc;
}
