/* posenc_rope_decay_ones, _bound and _vectors: out[n] over distances[n] and inv_freq[half]
 * (q, k [2 * half] and a pair style for _vectors). */
#include "fuzz.h"

enum { ONES, BOUND, VECTORS };

static int decay(fz *in, int kind) {
  static const char *names[] = {"posenc_rope_decay_ones", "posenc_rope_decay_bound", "posenc_rope_decay_vectors"};
  fz_call c = {.fn = names[kind]};
  int32_t n = fz_size(in), half = fz_size(in);
  int32_t style = kind == VECTORS ? fz_small_int(in, 0, 1) : 0;
  uint8_t nulls = fz_u8(in);
  int64_t nh = fz_elems(n, half, 1);
  if (nh > FZ_MAX_ELEMS / 4) return 0;
  int64_t nn = nh ? n : 0, nf = nh ? half : 0, nqk = kind == VECTORS ? 2 * nf : 0;
  double *out = fz_new(&c, "out", (size_t)nn * sizeof(double));
  double *dist = fz_new(&c, "distances", (size_t)nn * sizeof(double));
  double *w = fz_new(&c, "inv_freq", (size_t)nf * sizeof(double));
  float *q = fz_new(&c, "q", (size_t)nqk * sizeof(float));
  float *k = fz_new(&c, "k", (size_t)nqk * sizeof(float));
  fz_fill_f64(in, dist, (size_t)nn);
  fz_fill_f64(in, w, (size_t)nf);
  fz_fill_f32(in, q, (size_t)nqk);
  fz_fill_f32(in, k, (size_t)nqk);
  fz_shift(in, dist, (size_t)nn);
  double dmax = 0, wmax = 0;
  int valid = nh && !fz_any_null(nulls, kind == VECTORS ? 5 : 3) && fz_nonneg(dist, (size_t)nn, &dmax) &&
              fz_nonneg(w, (size_t)nf, &wmax) && dmax * wmax < 1e300;
  if (kind == VECTORS)
    valid = valid && (style == 0 || style == 1) && fz_finite_f32(q, (size_t)nqk) && fz_finite_f32(k, (size_t)nqk);
  fz_snapshot(&c);
  int rc;
  if (kind == ONES) rc = posenc_rope_decay_ones(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), n, fz_ptr(&c, 2, nulls), half);
  else if (kind == BOUND) rc = posenc_rope_decay_bound(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), n, fz_ptr(&c, 2, nulls), half);
  else
    rc = posenc_rope_decay_vectors(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), n, fz_ptr(&c, 2, nulls), half,
                                   fz_ptr(&c, 3, nulls), fz_ptr(&c, 4, nulls), style);
  fz_after(&c, rc, valid, 2u | 4u | 8u | 16u);
  if (rc == POSENC_OK) {
    for (int64_t j = 0; j < n; j++) {
      double want = 0, scale = 0, angle = 0;
      if (kind == BOUND) {
        FZ_CHECK(&c, out[j] >= 0 && out[j] <= (half + 1) / 2.0 * (1 + 1e-12), "a bound outside [0, (half + 1) / 2]");
        continue;
      }
      for (int64_t i = 0; i < half; i++) {
        double a = dist[j] * w[i], A = 2, B = 0;
        if (kind == VECTORS) {
          int64_t ia = style ? i : 2 * i, ib = style ? i + half : 2 * i + 1;
          A = (double)q[ia] * k[ia] + (double)q[ib] * k[ib];
          B = (double)q[ib] * k[ia] - (double)q[ia] * k[ib];
        }
        want += A * cos(a) + B * sin(a);
        scale += fabs(A) + fabs(B);
        angle += (fabs(A) + fabs(B)) * a;
      }
      FZ_CHECK(&c, fabs(out[j] - want) <= 1e-12 * scale * half + FZ_ANGLE_TOL * angle + 1e-300,
               "a score off sum A cos + B sin");
    }
  }
  fz_free(&c);
  return 0;
}

FZ_HARNESS(posenc_rope_decay_ones) { return decay(in, ONES); }
FZ_HARNESS(posenc_rope_decay_bound) { return decay(in, BOUND); }
FZ_HARNESS(posenc_rope_decay_vectors) { return decay(in, VECTORS); }
