/* posenc_t5_bucket (out[n] = the T5 bucket of relative[n]) and posenc_xpos_scale
 * (out[n][dim/2] = zeta_i^(positions[r] / scale_base)). */
#include "fuzz.h"

FZ_HARNESS(posenc_t5_bucket) {
  fz_call c = {.fn = "posenc_t5_bucket"};
  int32_t n = fz_size(in), bidirectional = fz_small_int(in, 0, 1), buckets = fz_size(in), max_distance = fz_size(in);
  uint8_t nulls = fz_u8(in);
  int64_t nn = fz_elems(n, 1, 1);
  if (nn > FZ_MAX_ELEMS) return 0;
  int32_t *out = fz_new(&c, "out", (size_t)nn * sizeof(int32_t));
  int32_t *rel = fz_new(&c, "relative", (size_t)nn * sizeof(int32_t));
  int bad = 0;
  for (int64_t i = 0; i < nn; i++) {
    uint8_t s = fz_u8(in);
    int32_t v = s < 240 ? (int32_t)(fz_bytes(in, 2) % 1201) - 600 : fz_size(in);
    /* negated in uint32: INT32_MIN stays INT32_MIN (-INT32_MIN overflows int32) */
    rel[i] = s >= 240 && (s & 1) ? (int32_t)(0u - (uint32_t)v) : v;
    bad |= !(rel[i] > -(1 << 30) && rel[i] < (1 << 30));
  }
  int bi_ok = bidirectional == 0 || bidirectional == 1;
  int exact = bi_ok ? (bidirectional ? buckets / 2 : buckets) / 2 : 0;
  int valid = nn && bi_ok && buckets >= (bidirectional ? 4 : 2) && buckets <= 65536 && max_distance > exact &&
              max_distance <= (1 << 30) && !bad && !fz_any_null(nulls, 2);
  fz_snapshot(&c);
  int rc = posenc_t5_bucket(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), n, bidirectional, buckets, max_distance);
  fz_after(&c, rc, valid, 2u);
  if (rc == POSENC_OK)
    for (int64_t i = 0; i < n; i++) {
      int32_t half = bidirectional ? buckets / 2 : buckets, r = rel[i];
      int32_t lo = bidirectional && r > 0 ? half : 0;
      FZ_CHECK(&c, out[i] >= lo && out[i] < lo + half, "a bucket outside its half");
      int32_t a = bidirectional ? (r < 0 ? -r : r) : (r < 0 ? -r : 0);
      if (a < exact) FZ_CHECK(&c, out[i] == lo + a, "a near distance is not its own bucket");
      else FZ_CHECK(&c, out[i] >= lo + exact, "a far distance in an exact bucket");
    }
  fz_free(&c);
  return 0;
}

FZ_HARNESS(posenc_xpos_scale) {
  fz_call c = {.fn = "posenc_xpos_scale"};
  int32_t n = fz_size(in), dim = fz_size(in);
  double scale_base = fz_double(in);
  uint8_t nulls = fz_u8(in);
  int sizes = fz_elems(n, 1, 1) && dim >= 1 && dim % 2 == 0 && fz_elems(n, dim / 2, 1);
  int64_t no = sizes ? (int64_t)n * (dim / 2) : 0, np = fz_elems(n, 1, 1);
  if (no > FZ_MAX_ELEMS || np > FZ_MAX_ELEMS) return 0;
  double *out = fz_new(&c, "out", (size_t)no * sizeof(double));
  double *pos = fz_new(&c, "positions", (size_t)(sizes ? np : 0) * sizeof(double));
  if (sizes) fz_fill_f64(in, pos, (size_t)np);
  if (sizes && fz_bool(in))
    for (int64_t i = 0; i < np; i++) pos[i] = -pos[i]; /* the caller centres: any sign */
  int finite = 1;
  for (int64_t i = 0; sizes && i < np; i++) finite &= isfinite(pos[i]) != 0;
  int valid = sizes && isfinite(scale_base) && scale_base > 0 && finite && !fz_any_null(nulls, 2);
  fz_snapshot(&c);
  int rc = posenc_xpos_scale(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), n, dim, scale_base);
  fz_after(&c, rc, valid, 2u);
  if (rc == POSENC_OK)
    for (int64_t r = 0; r < n; r++)
      for (int64_t i = 0; i < dim / 2; i++) {
        double v = out[r * (dim / 2) + i];
        FZ_CHECK(&c, v >= 0, "a negative or NaN factor");
        if (pos[r] == 0) FZ_CHECK(&c, v == 1.0, "position 0 is not 1");
      }
  fz_free(&c);
  return 0;
}
