/* precision.c: cos/sin as an implementation working in narrower types computes them: each
 * step (position, frequency, angle, output) rounded to nearest-even into float64, float32,
 * bfloat16 or float16. Scalar only: it serves the precision lab, not a hot path. */
#define _GNU_SOURCE /* sincos */
#include <math.h>
#include <string.h>

#include "check.h"

/* Round x to nearest (ties to even) into a binary float with `bits` significant bits, the
 * smallest normal exponent emin (x = m 2^e, m in [0.5, 1) normal when e > emin) and the
 * largest finite value maxv; +-Inf past it, as a cast would give. */
static double round_to(double x, int bits, int emin, double maxv) {
  if (x == 0.0 || !isfinite(x)) return x;
  /* frexp's exponent and ldexp's power of two, read and written as bits: both are libm calls
   * in wasm, and this runs four times a pair. A float64 subnormal reads as e = -1022, below
   * every emin here, so the clamp gives it the type's subnormal quantum as frexp's e would. */
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  int e = (int)((u >> 52) & 0x7ff) - 1022;
  if (e < emin + 1) e = emin + 1; /* subnormal: fixed quantum */
  uint64_t qb = (uint64_t)(e - bits + 1023) << 52;
  double q;
  memcpy(&q, &qb, sizeof q);
  double r = nearbyint(x / q) * q;
  return fabs(r) > maxv ? copysign(INFINITY, x) : r;
}

static double to_type(double x, int32_t type) {
  switch (type) {
    case POSENC_F32: return (double)(float)x;
    case POSENC_BF16: return round_to(x, 8, -126, 3.3895313892515355e38);
    case POSENC_F16: return round_to(x, 11, -14, 65504.0);
    default: return x;
  }
}

int posenc_rope_cache_emulated(double *cos_out, double *sin_out, const double *positions, int32_t n,
                               const double *inv_freq, int32_t half, double attn,
                               int32_t position_type, int32_t inv_type, int32_t angle_type,
                               int32_t out_type) {
  CHECK(cos_out && sin_out && positions && inv_freq, POSENC_E_NULL);
  CHECK(elems3(n, half, 1), POSENC_E_SIZE);
  CHECK(isfinite(attn), POSENC_E_VALUE);
  int32_t types[4] = {position_type, inv_type, angle_type, out_type};
  for (int k = 0; k < 4; k++) CHECK(types[k] >= POSENC_F64 && types[k] <= POSENC_F16, POSENC_E_KIND);
  double pmax, wmax;
  CHECK(nonneg_finite(positions, n, &pmax), POSENC_E_POSITION);
  CHECK(nonneg_finite(inv_freq, half, &wmax), POSENC_E_VALUE);
  /* a value that overflows its type would turn into Inf and then NaN: refuse it instead.
   * Rounding is monotonic, so the rounded largest position times the rounded largest
   * frequency bounds every rounded angle, and |attn| bounds every output. */
  double pr = to_type(pmax, position_type), wr = to_type(wmax, inv_type);
  CHECK(isfinite(pr), POSENC_E_POSITION);
  CHECK(isfinite(wr) && isfinite(to_type(pr * wr, angle_type)) && pr * wr < 1e300, POSENC_E_VALUE);
  CHECK(isfinite(to_type(fabs(attn), out_type)), POSENC_E_VALUE);
  for (int32_t r = 0; r < n; r++) {
    double p = to_type(positions[r], position_type);
    for (int32_t i = 0; i < half; i++) {
      double a = to_type(p * to_type(inv_freq[i], inv_type), angle_type);
      /* cos/sin of the rounded angle in float64 (libm's sincos: one range reduction for both,
       * and bit for bit its sin and cos, which are fdlibm's, as JS engines' Math.sin/cos are),
       * then the attention factor, then the cast */
      double sn, cs;
      sincos(a, &sn, &cs);
      cos_out[(size_t)r * half + i] = to_type(cs * attn, out_type);
      sin_out[(size_t)r * half + i] = to_type(sn * attn, out_type);
    }
  }
  return POSENC_OK;
}
