/* random.c: seeded standard normal samples, identical in every engine and in both builds.
 * splitmix64 gives 53-bit uniforms; Box-Muller turns pairs of them into normals, all in
 * float64 (sincos.h's ps_sincos for the angle, whose SIMD form gives the same bits), so Node
 * and every browser print the same numbers for the same seed. */
#include <math.h>

#include "check.h"
#include "sincos.h"

#define TWO_PI 6.28318530717958647692

static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* uniform in (0, 1]: never 0, so log() below stays finite */
static double uniform(uint64_t *state) {
  /* converted as signed (the value is below 2^53): wasm's unsigned i64 -> f64 is a slow sequence */
  return (double)(int64_t)((splitmix64(state) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

int posenc_random_normal(float *out, int32_t n, double seed) {
  CHECK(out, POSENC_E_NULL);
  CHECK(elems3(n, 1, 1), POSENC_E_SIZE);
  CHECK(seed >= 0.0 && seed <= 9007199254740991.0 && seed == floor(seed), POSENC_E_VALUE);
  uint64_t state = (uint64_t)seed;
  int32_t i = 0;
#ifdef __wasm_simd128__
  /* Two pairs a step, their sines and cosines in one ps_sincos2 (bit for bit ps_sincos): the
   * scalar form's quadrant switch mispredicts on random angles and costs more than the rest. */
  const ps_consts_t *K = ps_consts();
  for (; i + 4 <= n; i += 4) {
    double r0 = sqrt(-2.0 * log(uniform(&state))), t0 = TWO_PI * uniform(&state);
    double r1 = sqrt(-2.0 * log(uniform(&state))), t1 = TWO_PI * uniform(&state);
    v128_t s, c, r = wasm_f64x2_make(r0, r1);
    ps_sincos2(K, wasm_f64x2_make(t0, t1), 0, &s, &c);
    v128_t rc = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(r, c));
    v128_t rs = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(r, s));
    wasm_v128_store(out + i, wasm_i32x4_shuffle(rc, rs, 0, 4, 1, 5));
  }
#endif
  for (; i < n; i += 2) {
    double r = sqrt(-2.0 * log(uniform(&state))), t = TWO_PI * uniform(&state), s, c;
    ps_sincos(t, &s, &c);
    out[i] = (float)(r * c);
    if (i + 1 < n) out[i + 1] = (float)(r * s);
  }
  return POSENC_OK;
}
