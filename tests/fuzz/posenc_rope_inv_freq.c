/* posenc_rope_inv_freq: out[rotary_dim / 2] = base^(-2i / rotary_dim). */
#include "fuzz.h"

FZ_HARNESS(posenc_rope_inv_freq) {
  fz_call c = {.fn = "posenc_rope_inv_freq"};
  int32_t rot = fz_size(in);
  double base = fz_double(in);
  uint8_t nulls = fz_u8(in);
  int64_t n = fz_elems(rot, 1, 1);
  if (n / 2 > FZ_MAX_ELEMS) return 0;
  int valid = n && rot % 2 == 0 && fz_base_ok(base) && !fz_any_null(nulls, 1);
  /* an odd rotary_dim writes nothing: give it no room at all */
  size_t half = rot % 2 == 0 ? (size_t)n / 2 : 0;
  double *out = fz_new(&c, "out", half * sizeof(double));
  fz_snapshot(&c);
  int rc = posenc_rope_inv_freq(fz_ptr(&c, 0, nulls), rot, base);
  fz_after(&c, rc, valid, 0);
  if (rc == POSENC_OK) {
    FZ_CHECK(&c, out[0] == 1.0, "theta_0 is not 1");
    FZ_CHECK(&c, fz_bounded_f64(out, half, 0.0, 1.0), "a frequency outside [0, 1]");
    for (size_t i = 1; i < half; i++) FZ_CHECK(&c, out[i] <= out[i - 1], "frequencies not decreasing");
  }
  fz_free(&c);
  return 0;
}
