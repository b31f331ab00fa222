/* posenc_first_invalid_f32 / _f64: the index of the first value that is NaN, infinite or
 * outside [lo, hi], or n. Checked against a plain loop over the same values. */
#include "fuzz.h"

static int first_invalid(fz *in, int f32) {
  fz_call c = {.fn = f32 ? "posenc_first_invalid_f32" : "posenc_first_invalid_f64"};
  int32_t n = fz_size(in);
  double lo = fz_double(in), hi = fz_double(in);
  uint8_t nulls = fz_u8(in);
  int64_t ne = fz_elems(n, 1, 1);
  if (ne > FZ_MAX_ELEMS) return 0;
  size_t size = f32 ? sizeof(float) : sizeof(double);
  void *a = fz_new(&c, "a", (size_t)ne * size);
  if (f32) fz_fill_f32(in, a, (size_t)ne);
  else fz_fill_f64(in, a, (size_t)ne);
  int valid = ne && !isnan(lo) && !isnan(hi) && !fz_any_null(nulls, 1);
  fz_snapshot(&c);
  const void *p = fz_ptr(&c, 0, nulls);
  int32_t rc = f32 ? posenc_first_invalid_f32(p, n, lo, hi) : posenc_first_invalid_f64(p, n, lo, hi);
  fz_after(&c, rc < 0 ? rc : POSENC_OK, valid, 1u);
  if (rc >= 0) {
    int32_t want = n;
    for (int32_t i = 0; i < n && want == n; i++) {
      double x = f32 ? ((const float *)a)[i] : ((const double *)a)[i];
      if (!(x >= lo && x <= hi && isfinite(x))) want = i;
    }
    FZ_CHECK(&c, rc == want, "not the index of the first bad value");
  }
  fz_free(&c);
  return 0;
}

FZ_HARNESS(posenc_first_invalid_f32) { return first_invalid(in, 1); }
FZ_HARNESS(posenc_first_invalid_f64) { return first_invalid(in, 0); }
