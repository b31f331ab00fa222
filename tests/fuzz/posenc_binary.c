/* posenc_binary: out[length][bits], column j = bit j of the position. */
#include "fuzz.h"

FZ_HARNESS(posenc_binary) {
  fz_call c = {.fn = "posenc_binary"};
  int32_t length = fz_size(in), bits = fz_size(in);
  uint8_t nulls = fz_u8(in);
  int64_t n = fz_elems(length, bits, 1);
  if (n > FZ_MAX_ELEMS) return 0;
  int valid = n && bits <= 31 && !fz_any_null(nulls, 1);
  float *out = fz_new(&c, "out", (size_t)n * sizeof(float));
  fz_snapshot(&c);
  int rc = posenc_binary(fz_ptr(&c, 0, nulls), length, bits);
  fz_after(&c, rc, valid, 0);
  if (rc == POSENC_OK)
    for (int64_t p = 0; p < length; p++)
      for (int32_t j = 0; j < bits; j++)
        FZ_CHECK(&c, out[p * bits + j] == (float)((p >> j) & 1), "a wrong bit");
  fz_free(&c);
  return 0;
}
