/* posenc_sinusoidal and posenc_sinusoidal_f64: out[length][dim], one contract. */
#include "fuzz.h"

static int table(fz *in, int f64) {
  fz_call c = {.fn = f64 ? "posenc_sinusoidal_f64" : "posenc_sinusoidal"};
  int32_t length = fz_size(in), dim = fz_size(in);
  double base = fz_double(in), start = fz_double(in);
  int32_t layout = fz_small_int(in, 0, 1);
  uint8_t nulls = fz_u8(in);
  int64_t n = fz_elems(length, dim, 1);
  if (n > FZ_MAX_ELEMS) return 0; /* valid size, too big for a quick run */
  int valid = n && dim % 2 == 0 && fz_base_ok(base) && start >= 0.0 &&
              start <= FZ_MAX_POS - length && (layout == 0 || layout == 1) && !fz_any_null(nulls, 1);
  size_t esize = f64 ? sizeof(double) : sizeof(float);
  fz_new(&c, "out", (size_t)n * esize);
  fz_snapshot(&c);
  void *out = fz_ptr(&c, 0, nulls);
  int rc = f64 ? posenc_sinusoidal_f64(out, length, dim, base, start, layout)
               : posenc_sinusoidal(out, length, dim, base, start, layout);
  fz_after(&c, rc, valid, 0);
  if (rc == POSENC_OK) {
    /* each pair is (sin, cos) of (start + r) * base^(-2i/dim), to float32 or float64 accuracy
     * plus the rounding of the float64 angle itself */
    int32_t half = dim / 2;
    double tol = (f64 ? 1e-12 : 1e-6) + 8e-16 * (start + length);
    for (int32_t i = 0; i < half; i++) {
      double w = pow(base, -(2.0 * i) / dim);
      int32_t a = layout ? i : 2 * i, b = layout ? i + half : 2 * i + 1;
      for (int32_t r = 0; r < length; r++) {
        double angle = (start + r) * w, s, co;
        size_t at = (size_t)r * dim;
        if (f64) s = ((double *)out)[at + a], co = ((double *)out)[at + b];
        else s = ((float *)out)[at + a], co = ((float *)out)[at + b];
        FZ_CHECK(&c, fabs(s) <= 1.0 && fabs(co) <= 1.0, "a value outside [-1, 1]");
        FZ_CHECK(&c, fabs(s - sin(angle)) <= tol && fabs(co - cos(angle)) <= tol, "a value off sin/cos");
      }
    }
  }
  fz_free(&c);
  return 0;
}

FZ_HARNESS(posenc_sinusoidal) { return table(in, 0); }
FZ_HARNESS(posenc_sinusoidal_f64) { return table(in, 1); }
