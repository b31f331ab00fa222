/* heap.c: the allocator's own count of bytes in use, so tests can prove the JS wrapper frees
 * everything it allocates (wasm memory never shrinks, so its size alone cannot show that). */
#include <malloc.h>

#include "posenc.h"

int32_t posenc_heap_in_use(void) {
  struct mallinfo mi = mallinfo();
  return (int32_t)mi.uordblks;
}
