/* posenc_row_cosines (out[i] = cos angle(a[i], b[i]); 0 for a zero row) and posenc_row_dots
 * (out[i] = a[i] . b[i]): the same row-by-row contract over rows of width dim. Every dot product
 * is the float64 sum in c/dot.h's documented order (fz_dot), and a cosine is
 * ab / sqrt(aa * bb) of three of them: the kernels must give those bits. */
#include "fuzz.h"

typedef int (*rowwise_fn)(double *, const float *, const float *, int32_t, int32_t);

static int rowwise(fz *in, const char *name, rowwise_fn fn, int cosines) {
  fz_call c = {.fn = name};
  int32_t n = fz_size(in), dim = fz_size(in);
  uint8_t nulls = fz_u8(in);
  int64_t nd = fz_elems(n, dim, 1), nn = nd ? n : 0;
  if (nd > FZ_MAX_ELEMS) return 0;
  double *out = fz_new(&c, "out", (size_t)nn * sizeof(double));
  float *a = fz_new(&c, "a", (size_t)nd * sizeof(float));
  float *b = fz_new(&c, "b", (size_t)nd * sizeof(float));
  fz_fill_f32(in, a, (size_t)nd);
  fz_fill_f32(in, b, (size_t)nd);
  int valid = nd && !fz_any_null(nulls, 3);
  fz_snapshot(&c);
  int rc = fn(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), fz_ptr(&c, 2, nulls), n, dim);
  fz_after(&c, rc, valid, 2u | 4u);
  if (rc == POSENC_OK)
    for (int64_t i = 0; i < n; i++) {
      const float *ai = a + i * dim, *bi = b + i * dim;
      double ab = fz_dot(ai, bi, dim), want = ab;
      if (cosines) {
        double aa = fz_dot(ai, ai, dim), bb = fz_dot(bi, bi, dim);
        want = aa > 0.0 && bb > 0.0 ? ab / sqrt(aa * bb) : 0.0;
      }
      FZ_CHECK(&c, fz_same_f64(out[i], want), cosines ? "a cosine differs from ab / sqrt(aa bb) of c/dot.h's sums"
                                                      : "a dot product differs from the float64 sum in c/dot.h's order");
      if (!fz_finite_f32(ai, (size_t)dim) || !fz_finite_f32(bi, (size_t)dim)) continue;
      if (cosines) FZ_CHECK(&c, fabs(out[i]) <= 1.0 + 1e-12, "a cosine outside [-1, 1] (or NaN) for finite rows");
      /* float64 sums of float32 products cannot overflow: |sum| <= dim * FLT_MAX^2 ~ 1e77 dim */
      else FZ_CHECK(&c, isfinite(out[i]), "a non-finite dot product of finite rows");
    }
  fz_free(&c);
  return 0;
}

FZ_HARNESS(posenc_row_cosines) { return rowwise(in, "posenc_row_cosines", posenc_row_cosines, 1); }
FZ_HARNESS(posenc_row_dots) { return rowwise(in, "posenc_row_dots", posenc_row_dots, 0); }
