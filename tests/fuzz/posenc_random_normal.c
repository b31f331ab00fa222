/* posenc_random_normal: out[n] ~ N(0, 1) from an integer seed. */
#include "fuzz.h"

FZ_HARNESS(posenc_random_normal) {
  fz_call c = {.fn = "posenc_random_normal"};
  int32_t n = fz_size(in);
  double seed = fz_double(in);
  uint8_t nulls = fz_u8(in);
  int64_t ne = fz_elems(n, 1, 1);
  if (ne > FZ_MAX_ELEMS) return 0;
  int valid = ne && seed >= 0.0 && seed <= 9007199254740991.0 && seed == floor(seed) && !fz_any_null(nulls, 1);
  float *out = fz_new(&c, "out", (size_t)ne * sizeof(float));
  fz_snapshot(&c);
  int rc = posenc_random_normal(fz_ptr(&c, 0, nulls), n, seed);
  fz_after(&c, rc, valid, 0);
  /* Box-Muller from 53-bit uniforms: |x| <= sqrt(-2 ln 2^-53) < 8.6 */
  if (rc == POSENC_OK) FZ_CHECK(&c, fz_bounded_f32(out, (size_t)ne, 8.6), "a sample that is not finite or too large");
  fz_free(&c);
  return 0;
}
