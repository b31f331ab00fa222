/* lab_encodings.c: the lab's position encodings (definitions in lab.h): sinusoidal table, RoPE
 * frequencies with evaluation-time scaling, cos/sin and xPos tables, the rotation and its
 * transpose. Angles and factors are formed in double. T5 buckets and xPos factors are c/relative.c's,
 * ALiBi slopes c/alibi.c's. */
#include <math.h>

#include "../relative.h"
#include "lab_internal.h"

#define LAB_PI 3.14159265358979323846

void lab_sinusoidal_table(lab_real *pe, int32_t T, int32_t D, double base) {
  for (int32_t i = 0; i < D / 2; i++) {
    double w = pow(base, -(2.0 * i) / D);
    for (int32_t p = 0; p < T; p++) {
      double a = p * w;
      pe[(size_t)p * D + 2 * i] = (lab_real)sin(a);
      pe[(size_t)p * D + 2 * i + 1] = (lab_real)cos(a);
    }
  }
}

/* Pair index whose wavelength fits `rotations` turns into L0 positions (HF find_correction_dim). */
static double yarn_dim(double rotations, int32_t d, double base, double l0) {
  return d * log(l0 / (rotations * 2.0 * LAB_PI)) / (2.0 * log(base));
}

int posenc_lab_rope_freqs(double *inv, double *attn, int32_t hd, double base, int32_t scaling,
                          double factor, double l0) {
  LAB_CHECK(inv && attn, POSENC_E_NULL);
  LAB_CHECK(hd >= 2 && hd <= 4096 && hd % 2 == 0, POSENC_E_ROTARY);
  LAB_CHECK(isfinite(base) && base > 1.0, POSENC_E_BASE);
  LAB_CHECK(scaling == POSENC_SCALING_NONE || scaling == POSENC_SCALING_LINEAR ||
                scaling == POSENC_SCALING_NTK || scaling == POSENC_SCALING_YARN,
            POSENC_E_KIND);
  LAB_CHECK(isfinite(factor) && factor >= 1.0 && factor <= 1e6, POSENC_E_VALUE);
  LAB_CHECK(isfinite(l0) && l0 >= 1.0, POSENC_E_VALUE);
  LAB_CHECK(scaling != POSENC_SCALING_NTK || hd > 2, POSENC_E_ROTARY);
  double b = scaling == POSENC_SCALING_NTK ? base * pow(factor, (double)hd / (hd - 2)) : base;
  double low = 0, high = 0;
  if (scaling == POSENC_SCALING_YARN) {
    low = floor(yarn_dim(32.0, hd, base, l0));
    high = ceil(yarn_dim(1.0, hd, base, l0));
    if (low < 0) low = 0;
    if (high > hd - 1) high = hd - 1;
    if (low == high) high += 0.001;
  }
  for (int32_t i = 0; i < hd / 2; i++) {
    double th = pow(b, -(2.0 * i) / hd);
    if (scaling == POSENC_SCALING_LINEAR) th /= factor;
    if (scaling == POSENC_SCALING_YARN) {
      double r = (i - low) / (high - low);
      r = r < 0 ? 0 : r > 1 ? 1 : r;
      th = th / factor * r + th * (1.0 - r); /* r = 0: fast pairs kept; r = 1: slow pairs / s */
    }
    inv[i] = th;
  }
  *attn = scaling == POSENC_SCALING_YARN ? 0.1 * log(factor) + 1.0 : 1.0;
  return POSENC_OK;
}

int lab_rope_tables(lab_real *cs, lab_real *sn, lab_real *xq, lab_real *xk, int32_t T, int32_t hd,
                    double base, int32_t scaling, double factor, double l0, double xpos_base) {
  double inv[2048], attn;
  int rc = posenc_lab_rope_freqs(inv, &attn, hd, base, scaling, factor, l0);
  if (rc) return rc;
  int32_t half = hd / 2;
  double centre = (double)(T / 2);
  for (int32_t p = 0; p < T; p++)
    for (int32_t i = 0; i < half; i++) {
      double a = p * inv[i];
      cs[(size_t)p * half + i] = (lab_real)(cos(a) * attn);
      sn[(size_t)p * half + i] = (lab_real)(sin(a) * attn);
      if (xq) {
        double z = ps_xpos_scale(i, hd, p - centre, xpos_base);
        xq[(size_t)p * half + i] = (lab_real)z;
        xk[(size_t)p * half + i] = (lab_real)(1.0 / z);
      }
    }
  return POSENC_OK;
}

void lab_rope_apply(lab_real *x, int32_t rows, int32_t T, int32_t stride, int32_t H, int32_t hd,
                    int32_t style, const lab_real *cs, const lab_real *sn, const lab_real *scale,
                    int inverse) {
  int32_t half = hd / 2;
  int32_t step = style == POSENC_STYLE_INTERLEAVED ? 2 : 1, off = style == POSENC_STYLE_INTERLEAVED ? 1 : half;
  for (int32_t r = 0; r < rows; r++) {
    int32_t p = r % T;
    const lab_real *c = cs + (size_t)p * half, *s = sn + (size_t)p * half;
    const lab_real *z = scale ? scale + (size_t)p * half : 0;
    for (int32_t h = 0; h < H; h++) {
      lab_real *v = x + (size_t)r * stride + (size_t)h * hd;
      for (int32_t i = 0; i < half; i++) {
        lab_real a = v[i * step], b = v[i * step + off], ci = c[i], si = inverse ? -s[i] : s[i];
        lab_real f = z ? z[i] : (lab_real)1;
        v[i * step] = f * (a * ci - b * si);
        v[i * step + off] = f * (a * si + b * ci);
      }
    }
  }
}
