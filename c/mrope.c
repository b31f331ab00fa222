/* mrope.c: the cos/sin table of multimodal RoPE (mRoPE), where each pair takes its angle
 * from one of three position streams: t (time), h (height), w (width).
 *
 * Which stream pair i (of half = rotary_dim/2) reads, for section = (s_t, s_h, s_w) with
 * s_t + s_h + s_w = half:
 * - chunked (Qwen2-VL, Qwen2.5-VL; transformers qwen2_vl apply_multimodal_rotary_pos_emb, whose
 *   mrope_section * 2 repeats the same split over the two halves of rotate_half's cos/sin):
 *   pairs [0, s_t) read t, [s_t, s_t + s_h) read h, the rest read w;
 * - interleaved (Qwen3-VL; transformers qwen3_vl apply_interleaved_mrope): start from t
 *   everywhere, then pairs i = 1, 4, 7, ... below 3 s_h read h and pairs i = 2, 5, 8, ... below
 *   3 s_w read w (s_t only enters through the sum).
 * Each value is (float)(attn * ps_sincos(position * theta_i)) with the angle in float64: the same
 * expression as posenc_rope_cache, so a text token (t = h = w = p) gets the same bits as plain
 * RoPE at position p. Scalar in both builds; posenc_rope_apply_table does the rotation. */
#include <math.h>

#include "check.h"
#include "sincos.h"

/* The stream (0 t, 1 h, 2 w) pair i reads. */
static int stream_of(int32_t i, int32_t s_t, int32_t s_h, int32_t s_w, int32_t interleaved) {
  if (interleaved) {
    /* (int64: 3 * s is at most 3 * 2^28) */
    if (i % 3 == 1 && i < 3 * (int64_t)s_h) return 1;
    if (i % 3 == 2 && i < 3 * (int64_t)s_w) return 2;
    return 0;
  }
  (void)s_w;
  if (i < s_t) return 0;
  if (i < s_t + s_h) return 1;
  return 2;
}

int posenc_mrope_cache(float *cos_out, float *sin_out, const double *positions, int32_t n,
                       const double *inv_freq, int32_t half, double attn, int32_t s_t, int32_t s_h,
                       int32_t s_w, int32_t interleaved) {
  CHECK(cos_out && sin_out && positions && inv_freq, POSENC_E_NULL);
  CHECK(elems3(n, half, 1) && elems3(n, 3, 1), POSENC_E_SIZE);
  CHECK(isfinite(attn), POSENC_E_VALUE);
  CHECK(interleaved == 0 || interleaved == 1, POSENC_E_KIND);
  CHECK(s_t >= 0 && s_h >= 0 && s_w >= 0 && (int64_t)s_t + s_h + s_w == half, POSENC_E_VALUE);
  double pmax, wmax;
  CHECK(nonneg_finite(positions, 3 * n, &pmax), POSENC_E_POSITION);
  CHECK(nonneg_finite(inv_freq, half, &wmax), POSENC_E_VALUE);
  CHECK(pmax * wmax < 1e300, POSENC_E_VALUE);
  for (int32_t r = 0; r < n; r++) {
    float *cs = cos_out + (size_t)r * half, *sn = sin_out + (size_t)r * half;
    for (int32_t i = 0; i < half; i++) {
      double p = positions[(size_t)stream_of(i, s_t, s_h, s_w, interleaved) * n + r], s, c;
      ps_sincos(p * inv_freq[i], &s, &c);
      cs[i] = (float)(c * attn);
      sn[i] = (float)(s * attn);
    }
  }
  return POSENC_OK;
}
