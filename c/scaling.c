/* scaling.c: RoPE scaling variants for long context, with Hugging Face transformers'
 * semantics (modeling_rope_utils.py), and Gemma 4's proportional RoPE: each turns the default theta_i = base^(-2i/d) into the
 * variant's frequencies and an attention factor that multiplies cos and sin. Every formula
 * is written out in README.md with its source. */
#define _GNU_SOURCE /* sincos */
#include <math.h>
#include <string.h>

#include "check.h"

#define PI 3.14159265358979323846

/* YaRN's and the paper's magnitude correction: 0.1 * m * ln(s) + 1, or 1 when s <= 1. */
static double get_mscale(double s, double m) { return s <= 1.0 ? 1.0 : 0.1 * m * log(s) + 1.0; }

/* The pair index whose wavelength turns num_rotations times over L0 positions. */
static double yarn_corr_dim(double num_rotations, int32_t d, double base, double l0) {
  return d * log(l0 / (num_rotations * 2.0 * PI)) / (2.0 * log(base));
}

static int check_scaling(const posenc_rope_scaling *s, int32_t half, const double *short_f,
                         const double *long_f) {
  /* range first: converting a NaN or out-of-range double to int32_t is undefined behaviour */
  CHECK(s->type >= POSENC_SCALING_NONE && s->type <= POSENC_SCALING_PROPORTIONAL, POSENC_E_KIND);
  int32_t t = (int32_t)s->type;
  CHECK(s->type == t, POSENC_E_KIND);
  if (t == POSENC_SCALING_NONE) return POSENC_OK;
  /* theta_i <= 1 is divided by the factor: 1/factor must be finite too, or Inf comes out */
  if (t != POSENC_SCALING_LONGROPE) CHECK(isfinite(s->factor) && s->factor > 0.0 && isfinite(1.0 / s->factor), POSENC_E_VALUE);
  else CHECK(isfinite(s->factor) && s->factor >= 0.0, POSENC_E_VALUE); /* 0: unset */
  CHECK(isnan(s->attention_factor) || (isfinite(s->attention_factor) && s->attention_factor > 0.0), POSENC_E_VALUE);
  switch (t) {
    case POSENC_SCALING_DYNAMIC:
      CHECK(isfinite(s->max_pos) && s->max_pos >= 1.0, POSENC_E_VALUE);
      CHECK(isfinite(s->seq_len) && s->seq_len >= 0.0, POSENC_E_VALUE);
      break;
    case POSENC_SCALING_YARN:
      CHECK(isfinite(s->original_max_pos) && s->original_max_pos >= 1.0, POSENC_E_VALUE);
      CHECK(isfinite(s->beta_fast) && s->beta_fast > 0.0 && isfinite(s->beta_slow) && s->beta_slow > 0.0, POSENC_E_VALUE);
      /* the ramp's ends take log(L0 / (2 pi beta)): a denormal beta overflows it, and the ramp
       * then computes (i - Inf) / (high - Inf) = NaN */
      for (int k = 0; k < 2; k++) {
        double r = s->original_max_pos / (2.0 * PI * (k ? s->beta_slow : s->beta_fast));
        CHECK(r > 0.0 && isfinite(r), POSENC_E_VALUE);
      }
      CHECK(s->mscale >= 0.0 && isfinite(s->mscale) && s->mscale_all_dim >= 0.0 && isfinite(s->mscale_all_dim), POSENC_E_VALUE);
      CHECK(s->truncate == 0.0 || s->truncate == 1.0, POSENC_E_VALUE);
      break;
    case POSENC_SCALING_LLAMA3:
      CHECK(isfinite(s->original_max_pos) && s->original_max_pos >= 1.0, POSENC_E_VALUE);
      CHECK(isfinite(s->low_freq_factor) && isfinite(s->high_freq_factor), POSENC_E_VALUE);
      /* high = low is a step (Llama 4 Scout ships 1 and 1); high < low is refused: there
       * transformers divides the pairs between L0/low and L0/high and Meta's code keeps them */
      CHECK(s->low_freq_factor > 0.0 && s->high_freq_factor >= s->low_freq_factor, POSENC_E_VALUE);
      break;
    case POSENC_SCALING_LONGROPE:
      CHECK(short_f && long_f, POSENC_E_NULL);
      CHECK(isfinite(s->original_max_pos) && s->original_max_pos >= 1.0, POSENC_E_VALUE);
      CHECK(isfinite(s->max_pos) && s->max_pos >= 1.0, POSENC_E_VALUE);
      CHECK(isfinite(s->seq_len) && s->seq_len >= 0.0, POSENC_E_VALUE);
      for (int32_t i = 0; i < half; i++)
        CHECK(isfinite(short_f[i]) && short_f[i] > 0.0 && isfinite(1.0 / short_f[i]) && isfinite(long_f[i]) &&
              long_f[i] > 0.0 && isfinite(1.0 / long_f[i]), POSENC_E_VALUE);
      break;
    case POSENC_SCALING_PROPORTIONAL:
      CHECK(s->partial_rotary_factor > 0.0 && s->partial_rotary_factor <= 1.0, POSENC_E_VALUE); /* NaN fails */
      break;
    default:
      break;
  }
  return POSENC_OK;
}

/* The variant's attention factor: attention_factor when given, else yarn's mscale ratio or
 * longrope's sqrt(1 + ln(scale) / ln(L0)); 1 for the rest. */
static double scaled_attn(const posenc_rope_scaling *s, int32_t t) {
  double sf = s->factor;
  if (t == POSENC_SCALING_NONE) return 1.0;
  if (!isnan(s->attention_factor)) return s->attention_factor;
  if (t == POSENC_SCALING_YARN) {
    if (s->mscale > 0.0 && s->mscale_all_dim > 0.0) return get_mscale(sf, s->mscale) / get_mscale(sf, s->mscale_all_dim);
    return get_mscale(sf, 1.0);
  }
  if (t == POSENC_SCALING_LONGROPE) {
    /* the scale behind the default attention factor: factor when given, else maxPos / L0 */
    double scale = sf > 0.0 ? sf : s->max_pos / s->original_max_pos;
    return scale <= 1.0 ? 1.0 : sqrt(1.0 + log(scale) / log(s->original_max_pos));
  }
  return 1.0;
}

int posenc_rope_scaled_freq(double *inv_out, double *attn_out, int32_t rotary_dim, double base,
                            const posenc_rope_scaling *s, const double *short_factor,
                            const double *long_factor) {
  CHECK(inv_out && attn_out && s, POSENC_E_NULL);
  CHECK(elems3(rotary_dim, 1, 1), POSENC_E_SIZE);
  CHECK(rotary_dim % 2 == 0, POSENC_E_ROTARY);
  CHECK_BASE(base);
  int32_t d = rotary_dim, half = d / 2;
  int rc = check_scaling(s, half, short_factor, long_factor);
  if (rc) return rc;
  int32_t t = (int32_t)s->type; /* an integer in range: check_scaling saw to it */
  /* NTK-style variants raise the base by x^(d/(d-2)); with d = 2 that exponent is undefined */
  CHECK(!(t == POSENC_SCALING_NTK || t == POSENC_SCALING_DYNAMIC) || d > 2, POSENC_E_ROTARY);
  /* the yarn ramp and llama3 bands divide by log(base) and by wavelengths: base 1 has none */
  CHECK(!(t == POSENC_SCALING_YARN) || base > 1.0, POSENC_E_BASE);

  double b = base, attn = 1.0, sf = s->factor;
  if (t == POSENC_SCALING_NTK) b = base * pow(sf, (double)d / (d - 2));
  if (t == POSENC_SCALING_DYNAMIC && s->seq_len > s->max_pos)
    b = base * pow(sf * s->seq_len / s->max_pos - (sf - 1.0), (double)d / (d - 2));
  CHECK(isfinite(b) && b >= 1.0, POSENC_E_BASE);
  /* before anything is written: huge mscales give Inf / Inf, longrope with L0 = 1 divides by 0 */
  attn = scaled_attn(s, t);
  CHECK(isfinite(attn) && attn > 0.0, POSENC_E_VALUE);
  for (int32_t i = 0; i < half; i++) inv_out[i] = pow(b, -(2.0 * i) / d);

  switch (t) {
    case POSENC_SCALING_LINEAR:
      for (int32_t i = 0; i < half; i++) inv_out[i] /= sf;
      break;
    case POSENC_SCALING_YARN: {
      double l0 = s->original_max_pos;
      double low = yarn_corr_dim(s->beta_fast, d, base, l0), high = yarn_corr_dim(s->beta_slow, d, base, l0);
      if (s->truncate != 0.0) low = floor(low), high = ceil(high);
      if (low < 0.0) low = 0.0;
      if (high > d - 1) high = d - 1;
      if (low == high) high += 0.001; /* the ramp would divide by zero */
      for (int32_t i = 0; i < half; i++) {
        double ramp = (i - low) / (high - low);
        ramp = ramp < 0.0 ? 0.0 : ramp > 1.0 ? 1.0 : ramp;
        /* ramp 0: fast pairs keep theta_i (extrapolate); ramp 1: slow pairs get theta_i / s */
        inv_out[i] = inv_out[i] / sf * ramp + inv_out[i] * (1.0 - ramp);
      }
      break;
    }
    case POSENC_SCALING_LLAMA3: {
      double l0 = s->original_max_pos, lo = s->low_freq_factor, hi = s->high_freq_factor;
      double low_wl = l0 / lo, high_wl = l0 / hi;
      for (int32_t i = 0; i < half; i++) {
        double th = inv_out[i], wl = 2.0 * PI / th;
        if (wl < high_wl) continue; /* high frequency: unchanged */
        /* hi == lo: no band between, so wl == L0/lo is divided too (transformers' smooth factor
         * is 0/0 there and Meta's code asserts; the band's own value at its low end is th / sf) */
        if (wl > low_wl || hi == lo) {
          inv_out[i] = th / sf; /* low frequency: interpolated */
        } else {
          double smooth = (l0 / wl - lo) / (hi - lo);
          inv_out[i] = (1.0 - smooth) * th / sf + smooth * th;
        }
      }
      break;
    }
    case POSENC_SCALING_PROPORTIONAL: {
      /* transformers _compute_proportional_rope_parameters: rope_angles = int(p * D // 2) pairs
       * keep base^(-2i/D) with D the whole head (not the rotated width), the rest get 0, and
       * every theta is divided by factor */
      int32_t turning = (int32_t)floor(s->partial_rotary_factor * d / 2.0);
      for (int32_t i = 0; i < half; i++) inv_out[i] = (i < turning ? inv_out[i] : 0.0) / sf;
      break;
    }
    case POSENC_SCALING_LONGROPE: {
      const double *ext = s->seq_len > s->original_max_pos ? long_factor : short_factor;
      for (int32_t i = 0; i < half; i++) inv_out[i] /= ext[i];
      break;
    }
    default:
      break;
  }
  *attn_out = attn;
  return POSENC_OK;
}
