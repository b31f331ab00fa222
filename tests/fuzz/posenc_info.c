/* posenc_simd and posenc_heap_in_use: no arguments; they answer the same whatever happened. */
#include "fuzz.h"

FZ_HARNESS(posenc_info) {
  fz_call c = {.fn = "posenc_info"};
  int s = posenc_simd();
  FZ_CHECK(&c, s == 0 || s == 1, "posenc_simd is not 0 or 1");
#ifdef __wasm_simd128__
  FZ_CHECK(&c, s == 1, "a SIMD build says it is scalar");
#else
  FZ_CHECK(&c, s == 0, "a scalar build says it is SIMD");
#endif
  /* allocate and free as the input says; in-use bytes stay >= 0 (under ASan mallinfo sees
   * only glibc's arena, so only the sign is checked) */
  void *keep[8] = {0};
  for (int i = 0; i < 8 && in->n; i++) keep[i] = malloc(fz_bytes(in, 2));
  FZ_CHECK(&c, posenc_heap_in_use() >= 0, "negative heap use");
  for (int i = 0; i < 8; i++) free(keep[i]);
  FZ_CHECK(&c, posenc_heap_in_use() >= 0, "negative heap use");
  return 0;
}
