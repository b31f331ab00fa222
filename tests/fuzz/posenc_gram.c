/* posenc_gram: out[n][m] = a[n][dim] . b[m][dim]^T in float64, summed in c/dot.h's documented
 * order (fz_dot); the kernel must give those bits. */
#include "fuzz.h"

FZ_HARNESS(posenc_gram) {
  fz_call c = {.fn = "posenc_gram"};
  int32_t n = fz_size(in), m = fz_size(in), dim = fz_size(in);
  uint8_t nulls = fz_u8(in);
  int sizes = fz_elems(n, m, 1) && fz_elems(n, dim, 1) && fz_elems(m, dim, 1);
  int64_t nm = sizes ? (int64_t)n * m : 0, na = sizes ? (int64_t)n * dim : 0, nb = sizes ? (int64_t)m * dim : 0;
  if (nm > FZ_MAX_ELEMS || na > FZ_MAX_ELEMS || nb > FZ_MAX_ELEMS || nm * (sizes ? dim : 0) > FZ_MAX_WORK) return 0;
  double *out = fz_new(&c, "out", (size_t)nm * sizeof(double));
  float *a = fz_new(&c, "a", (size_t)na * sizeof(float));
  float *b = fz_new(&c, "b", (size_t)nb * sizeof(float));
  fz_fill_f32(in, a, (size_t)na);
  fz_fill_f32(in, b, (size_t)nb);
  int valid = sizes && !fz_any_null(nulls, 3);
  fz_snapshot(&c);
  int rc = posenc_gram(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), n, fz_ptr(&c, 2, nulls), m, dim);
  fz_after(&c, rc, valid, 2u | 4u);
  if (rc == POSENC_OK)
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < m; j++)
        FZ_CHECK(&c, fz_same_f64(out[i * m + j], fz_dot(a + i * dim, b + j * dim, dim)),
                 "a dot product differs from the float64 sum in c/dot.h's order");
  fz_free(&c);
  return 0;
}
