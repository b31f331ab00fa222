/* temperature.c: Llama 4's attention temperature for its NoPE layers, in float64:
 * out[i] = 1 + scale * ln(floor((positions[i] + offset) / floor_scale) + 1).
 * transformers models/llama4/modeling_llama4.py (Llama4TextAttention.forward):
 * attn_scales = log1p(floor((cache_position + 1) / floor_scale)) * attn_scale + 1, queries only,
 * attn_scale 0.1 and floor_scale 8192 by default (configuration_llama4.py): offset 1.
 * Ministral 3's llama_4_scaling_beta is the same curve with scale = beta, floor_scale =
 * original_max_position_embeddings and offset 0. */
#include <math.h>

#include "check.h"

int posenc_attention_temperature(double *out, const double *positions, int32_t n, double scale,
                                 double floor_scale, double offset) {
  CHECK(out && positions, POSENC_E_NULL);
  CHECK(elems3(n, 1, 1), POSENC_E_SIZE);
  CHECK(isfinite(scale) && scale >= 0.0 && scale <= 1e300, POSENC_E_VALUE);
  CHECK(isfinite(floor_scale) && floor_scale >= 1.0, POSENC_E_VALUE);
  CHECK(isfinite(offset) && offset >= 0.0 && offset <= 1e300, POSENC_E_VALUE);
  CHECK(nonneg_finite(positions, n, NULL), POSENC_E_POSITION);
  /* (p + offset) / floor_scale <= 2e300, its log1p below 700: 1 + scale * 700 is finite */
  for (int32_t i = 0; i < n; i++) out[i] = 1.0 + scale * log1p(floor((positions[i] + offset) / floor_scale));
  return POSENC_OK;
}
