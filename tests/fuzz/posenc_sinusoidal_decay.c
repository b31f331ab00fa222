/* posenc_sinusoidal_decay: out[n] = (q + PE(0)) . (k + PE(x)) over distances x, interleaved PE
 * of width dim; q = k = NULL gives PE(0) . PE(x). */
#include "fuzz.h"

FZ_HARNESS(posenc_sinusoidal_decay) {
  fz_call c = {.fn = "posenc_sinusoidal_decay"};
  int32_t n = fz_size(in), dim = fz_size(in);
  double base = fz_double(in);
  uint8_t nulls = fz_u8(in), qk = fz_u8(in) % 4; /* 0, 1: q and k; 2: neither; 3: one of them */
  int64_t nd = fz_elems(n, dim, 1);
  if (nd > FZ_MAX_ELEMS / 4) return 0;
  int64_t nn = nd ? n : 0, nv = nd ? dim : 0;
  double *out = fz_new(&c, "out", (size_t)nn * sizeof(double));
  double *dist = fz_new(&c, "distances", (size_t)nn * sizeof(double));
  float *q = fz_new(&c, "q", (size_t)nv * sizeof(float));
  float *k = fz_new(&c, "k", (size_t)nv * sizeof(float));
  fz_fill_f64(in, dist, (size_t)nn);
  fz_fill_f32(in, q, (size_t)nv);
  fz_fill_f32(in, k, (size_t)nv);
  int one = fz_bool(in);
  fz_shift(in, dist, (size_t)nn);
  float *qp = qk < 2 || (qk == 3 && one) ? q : NULL, *kp = qk < 2 || (qk == 3 && !one) ? k : NULL;
  double dmax = 0;
  /* w_0 = base^0 = 1, so the angle check is dmax < 1e300 */
  int valid = nd && !fz_any_null(nulls, 2) && dim % 2 == 0 && fz_base_ok(base) && (qp == NULL) == (kp == NULL) &&
              (!qp || (fz_finite_f32(q, (size_t)nv) && fz_finite_f32(k, (size_t)nv))) &&
              fz_nonneg(dist, (size_t)nn, &dmax) && dmax < 1e300;
  fz_snapshot(&c);
  int rc = posenc_sinusoidal_decay(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), n, dim, base, qp, kp);
  fz_after(&c, rc, valid, 2u | 4u | 8u);
  if (rc == POSENC_OK) {
    int32_t half = dim / 2;
    for (int64_t j = 0; j < n; j++) {
      /* sum over pairs of (q_s + 0, q_c + 1) . (k_s + sin(x w), k_c + cos(x w)) */
      double want = 0, scale = 0, angle = 0;
      for (int32_t i = 0; i < half; i++) {
        double a = dist[j] * pow(base, -(2.0 * i) / dim);
        double qs = qp ? q[2 * i] : 0, qc = (qp ? q[2 * i + 1] : 0) + 1.0;
        double ks = kp ? k[2 * i] : 0, kc = kp ? k[2 * i + 1] : 0;
        want += qs * (ks + sin(a)) + qc * (kc + cos(a));
        scale += fabs(qs) * (fabs(ks) + 1) + fabs(qc) * (fabs(kc) + 1);
        angle += (fabs(qs) + fabs(qc)) * a;
      }
      FZ_CHECK(&c, fabs(out[j] - want) <= 1e-12 * scale * half + FZ_ANGLE_TOL * angle + 1e-300,
               "a score off the direct sum");
    }
  }
  fz_free(&c);
  return 0;
}
