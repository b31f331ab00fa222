/* simd.c: which build this is, so callers can tell the two .wasm files apart. */
#include "posenc.h"

int posenc_simd(void) {
#ifdef __wasm_simd128__
  return 1;
#else
  return 0;
#endif
}
