/* random.c: seeded standard normal samples, identical in every engine.
 * splitmix64 gives 53-bit uniforms; Box-Muller turns pairs of them into normals, all in
 * float64, so Node and every browser print the same numbers for the same seed. */
#include <math.h>

#include "check.h"

#define TWO_PI 6.28318530717958647692

static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* uniform in (0, 1]: never 0, so log() below stays finite */
static double uniform(uint64_t *state) {
  return (double)((splitmix64(state) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

int posenc_random_normal(float *out, int32_t n, double seed) {
  CHECK(out, POSENC_E_NULL);
  CHECK(elems3(n, 1, 1), POSENC_E_SIZE);
  CHECK(seed >= 0.0 && seed <= 9007199254740991.0 && seed == floor(seed), POSENC_E_VALUE);
  uint64_t state = (uint64_t)seed;
  for (int32_t i = 0; i < n; i += 2) {
    double r = sqrt(-2.0 * log(uniform(&state))), t = TWO_PI * uniform(&state);
    out[i] = (float)(r * cos(t));
    if (i + 1 < n) out[i + 1] = (float)(r * sin(t));
  }
  return POSENC_OK;
}
