/* binary.c: binary position codes, the source post's first attempt at encoding position:
 * bit j of the position in column j. */
#include "check.h"

int posenc_binary(float *out, int32_t length, int32_t bits) {
  CHECK(out, POSENC_E_NULL);
  CHECK(elems3(length, bits, 1), POSENC_E_SIZE);
  CHECK(bits <= 31, POSENC_E_SIZE);
  for (int32_t p = 0; p < length; p++)
    for (int32_t j = 0; j < bits; j++) out[(size_t)p * bits + j] = (float)((p >> j) & 1);
  return POSENC_OK;
}
