/* posenc_alibi_slopes (out[heads], heads in [1, 65536]) and posenc_alibi_bias
 * (out[heads][seq][seq] = (j - i) m_h for j <= i, else 0; heads <= 1024). */
#include "fuzz.h"

FZ_HARNESS(posenc_alibi_slopes) {
  fz_call c = {.fn = "posenc_alibi_slopes"};
  int32_t heads = fz_size(in);
  uint8_t nulls = fz_u8(in);
  int size_ok = heads >= 1 && heads <= 65536;
  double *out = fz_new(&c, "out", (size_t)(size_ok ? heads : 0) * sizeof(double));
  fz_snapshot(&c);
  int rc = posenc_alibi_slopes(fz_ptr(&c, 0, nulls), heads);
  fz_after(&c, rc, size_ok && !fz_any_null(nulls, 1), 0);
  if (rc == POSENC_OK) FZ_CHECK(&c, fz_bounded_f64(out, (size_t)heads, 1e-300, 1.0), "a slope outside (0, 1)");
  fz_free(&c);
  return 0;
}

FZ_HARNESS(posenc_alibi_bias) {
  fz_call c = {.fn = "posenc_alibi_bias"};
  int32_t heads = fz_size(in), seq = fz_size(in);
  uint8_t nulls = fz_u8(in);
  int64_t n = fz_elems(heads, seq, seq);
  if (n > FZ_MAX_ELEMS) return 0;
  int valid = n && heads <= 1024 && !fz_any_null(nulls, 1);
  float *out = fz_new(&c, "out", (size_t)(valid || (n && heads <= 1024) ? n : 0) * sizeof(float));
  fz_snapshot(&c);
  int rc = posenc_alibi_bias(fz_ptr(&c, 0, nulls), heads, seq);
  fz_after(&c, rc, valid, 0);
  if (rc == POSENC_OK) {
    double slopes[1024];
    FZ_CHECK(&c, posenc_alibi_slopes(slopes, heads) == POSENC_OK, "posenc_alibi_slopes rejected what bias took");
    for (int64_t h = 0; h < heads; h++)
      for (int64_t i = 0; i < seq; i++)
        for (int64_t j = 0; j < seq; j++) {
          float got = out[(h * seq + i) * seq + j], want = j <= i ? (float)((double)(j - i) * slopes[h]) : 0.0f;
          FZ_CHECK(&c, memcmp(&got, &want, sizeof got) == 0, "a bias differs from (j - i) m_h (or a -0)");
        }
  }
  fz_free(&c);
  return 0;
}
