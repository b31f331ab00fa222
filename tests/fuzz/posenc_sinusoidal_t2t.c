/* posenc_sinusoidal_t2t: tensor2tensor's [sin | cos] table, w_i = base^(-i / (dim/2 - 1)). */
#include "fuzz.h"

FZ_HARNESS(posenc_sinusoidal_t2t) {
  fz_call c = {.fn = "posenc_sinusoidal_t2t"};
  int32_t length = fz_size(in), dim = fz_size(in);
  double base = fz_double(in), start = fz_double(in);
  uint8_t nulls = fz_u8(in);
  int64_t n = fz_elems(length, dim, 1);
  if (n > FZ_MAX_ELEMS) return 0;
  int valid = n && dim % 2 == 0 && fz_base_ok(base) && start >= 0.0 && start <= FZ_MAX_POS - length &&
              !fz_any_null(nulls, 1);
  float *out = fz_new(&c, "out", (size_t)n * sizeof(float));
  fz_snapshot(&c);
  int rc = posenc_sinusoidal_t2t(fz_ptr(&c, 0, nulls), length, dim, base, start);
  fz_after(&c, rc, valid, 0);
  if (rc == POSENC_OK) {
    int32_t half = dim / 2;
    double inc = log(base) / (half > 1 ? half - 1 : 1);
    for (int32_t i = 0; i < half; i++) {
      double w = exp(-i * inc);
      for (int64_t r = 0; r < length; r++) {
        double a = (start + r) * w;
        FZ_CHECK(&c, fabs(out[r * dim + i] - sin(a)) <= 1e-7 && fabs(out[r * dim + half + i] - cos(a)) <= 1e-7,
                 "a value off sin/cos");
      }
    }
  }
  fz_free(&c);
  return 0;
}
