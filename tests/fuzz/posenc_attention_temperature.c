/* posenc_attention_temperature: out[n] = 1 + scale * ln(floor((p + offset) / floor_scale) + 1). */
#include "fuzz.h"

FZ_HARNESS(posenc_attention_temperature) {
  fz_call c = {.fn = "posenc_attention_temperature"};
  int32_t n = fz_size(in);
  double scale = fz_bool(in) ? 0.1 : fz_double(in);
  double fs = fz_bool(in) ? 8192.0 : fz_double(in);
  double off = fz_bool(in) ? 1.0 : fz_double(in);
  uint8_t nulls = fz_u8(in);
  int64_t ne = fz_elems(n, 1, 1);
  if (ne > FZ_MAX_ELEMS) return 0;
  double *out = fz_new(&c, "out", (size_t)ne * sizeof(double));
  double *pos = fz_new(&c, "positions", (size_t)ne * sizeof(double));
  fz_fill_f64(in, pos, (size_t)ne);
  double pmax = 0;
  int valid = ne && !fz_any_null(nulls, 2) && isfinite(scale) && scale >= 0 && scale <= 1e300 && isfinite(fs) &&
              fs >= 1 && isfinite(off) && off >= 0 && off <= 1e300 && fz_nonneg(pos, (size_t)ne, &pmax);
  fz_snapshot(&c);
  int rc = posenc_attention_temperature(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), n, scale, fs, off);
  fz_after(&c, rc, valid, 2u);
  if (rc == POSENC_OK) {
    FZ_CHECK(&c, fz_bounded_f64(out, (size_t)ne, 1.0, DBL_MAX), "a temperature below 1 or not finite");
    for (int64_t i = 0; i < n; i++)
      FZ_CHECK(&c, out[i] == 1.0 + scale * log1p(floor((pos[i] + off) / fs)), "a value off the formula");
  }
  fz_free(&c);
  return 0;
}
