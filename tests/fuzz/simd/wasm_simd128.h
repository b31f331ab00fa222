/* tests/fuzz/simd/wasm_simd128.h: a portable stand-in for clang's wasm_simd128.h, so the
 * kernels' WASM SIMD forms compile natively (built with -D__wasm_simd128__, see build.sh) and
 * run under AddressSanitizer: every wasm_v128_load / store / load64_splat / store64_lane is a
 * memcpy of exactly the bytes the wasm instruction touches, which ASan checks. Lane semantics
 * follow the WebAssembly SIMD spec (shift counts modulo the lane width, saturating truncation,
 * wrapping integer arithmetic, NaN-propagating min/max), written without C undefined behaviour
 * so UBSan reports only the kernels' own. Only what fuzzing needs: not a performance header.
 * Covers the operations the kernels use and the common rest of the f64x2, f32x4, i64x2 and
 * i32x4 families; a kernel using something missing here fails to build the simd variant. */
#ifndef POSENC_FUZZ_WASM_SIMD128_H
#define POSENC_FUZZ_WASM_SIMD128_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef int32_t v128_t __attribute__((__vector_size__(16), __aligned__(16)));

typedef double wsf_f64x2 __attribute__((__vector_size__(16), __aligned__(16)));
typedef float wsf_f32x4 __attribute__((__vector_size__(16), __aligned__(16)));
typedef int64_t wsf_i64x2 __attribute__((__vector_size__(16), __aligned__(16)));
typedef uint64_t wsf_u64x2 __attribute__((__vector_size__(16), __aligned__(16)));
typedef int32_t wsf_i32x4 __attribute__((__vector_size__(16), __aligned__(16)));
typedef uint32_t wsf_u32x4 __attribute__((__vector_size__(16), __aligned__(16)));
typedef int16_t wsf_i16x8 __attribute__((__vector_size__(16), __aligned__(16)));
typedef int8_t wsf_i8x16 __attribute__((__vector_size__(16), __aligned__(16)));

#define WSF static inline __attribute__((__always_inline__, __unused__))

/* ---- memory: exactly the bytes the wasm instruction reads or writes ---- */

WSF v128_t wasm_v128_load(const void *p) {
  v128_t v;
  memcpy(&v, p, 16);
  return v;
}
WSF void wasm_v128_store(void *p, v128_t v) { memcpy(p, &v, 16); }

WSF v128_t wasm_v128_load8_splat(const void *p) {
  int8_t x;
  memcpy(&x, p, 1);
  return (v128_t)(wsf_i8x16){x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x};
}
WSF v128_t wasm_v128_load16_splat(const void *p) {
  int16_t x;
  memcpy(&x, p, 2);
  return (v128_t)(wsf_i16x8){x, x, x, x, x, x, x, x};
}
WSF v128_t wasm_v128_load32_splat(const void *p) {
  int32_t x;
  memcpy(&x, p, 4);
  return (v128_t)(wsf_i32x4){x, x, x, x};
}
WSF v128_t wasm_v128_load64_splat(const void *p) {
  int64_t x;
  memcpy(&x, p, 8);
  return (v128_t)(wsf_i64x2){x, x};
}
WSF v128_t wasm_v128_load32_zero(const void *p) {
  int32_t x;
  memcpy(&x, p, 4);
  return (v128_t)(wsf_i32x4){x, 0, 0, 0};
}
WSF v128_t wasm_v128_load64_zero(const void *p) {
  int64_t x;
  memcpy(&x, p, 8);
  return (v128_t)(wsf_i64x2){x, 0};
}
WSF v128_t wasm_v128_load32_lane(const void *p, v128_t v, int lane) {
  wsf_i32x4 r = (wsf_i32x4)v;
  int32_t x;
  memcpy(&x, p, 4);
  r[lane & 3] = x;
  return (v128_t)r;
}
WSF v128_t wasm_v128_load64_lane(const void *p, v128_t v, int lane) {
  wsf_i64x2 r = (wsf_i64x2)v;
  int64_t x;
  memcpy(&x, p, 8);
  r[lane & 1] = x;
  return (v128_t)r;
}
WSF void wasm_v128_store32_lane(void *p, v128_t v, int lane) {
  int32_t x = ((wsf_i32x4)v)[lane & 3];
  memcpy(p, &x, 4);
}
WSF void wasm_v128_store64_lane(void *p, v128_t v, int lane) {
  int64_t x = ((wsf_i64x2)v)[lane & 1];
  memcpy(p, &x, 8);
}

/* ---- making vectors and taking lanes ---- */

WSF v128_t wasm_i8x16_splat(int8_t x) { return (v128_t)(wsf_i8x16){x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x}; }
WSF v128_t wasm_i16x8_splat(int16_t x) { return (v128_t)(wsf_i16x8){x, x, x, x, x, x, x, x}; }
WSF v128_t wasm_i32x4_splat(int32_t x) { return (v128_t)(wsf_i32x4){x, x, x, x}; }
WSF v128_t wasm_u32x4_splat(uint32_t x) { return (v128_t)(wsf_u32x4){x, x, x, x}; }
WSF v128_t wasm_i64x2_splat(int64_t x) { return (v128_t)(wsf_i64x2){x, x}; }
WSF v128_t wasm_u64x2_splat(uint64_t x) { return (v128_t)(wsf_u64x2){x, x}; }
WSF v128_t wasm_f32x4_splat(float x) { return (v128_t)(wsf_f32x4){x, x, x, x}; }
WSF v128_t wasm_f64x2_splat(double x) { return (v128_t)(wsf_f64x2){x, x}; }

WSF v128_t wasm_i32x4_make(int32_t a, int32_t b, int32_t c, int32_t d) { return (v128_t)(wsf_i32x4){a, b, c, d}; }
WSF v128_t wasm_u32x4_make(uint32_t a, uint32_t b, uint32_t c, uint32_t d) { return (v128_t)(wsf_u32x4){a, b, c, d}; }
WSF v128_t wasm_i64x2_make(int64_t a, int64_t b) { return (v128_t)(wsf_i64x2){a, b}; }
WSF v128_t wasm_u64x2_make(uint64_t a, uint64_t b) { return (v128_t)(wsf_u64x2){a, b}; }
WSF v128_t wasm_f32x4_make(float a, float b, float c, float d) { return (v128_t)(wsf_f32x4){a, b, c, d}; }
WSF v128_t wasm_f64x2_make(double a, double b) { return (v128_t)(wsf_f64x2){a, b}; }
#define wasm_i32x4_const(a, b, c, d) wasm_i32x4_make(a, b, c, d)
#define wasm_u32x4_const(a, b, c, d) wasm_u32x4_make(a, b, c, d)
#define wasm_i64x2_const(a, b) wasm_i64x2_make(a, b)
#define wasm_f32x4_const(a, b, c, d) wasm_f32x4_make(a, b, c, d)
#define wasm_f64x2_const(a, b) wasm_f64x2_make(a, b)
#define wasm_i32x4_const_splat(x) wasm_i32x4_splat(x)
#define wasm_i64x2_const_splat(x) wasm_i64x2_splat(x)
#define wasm_f32x4_const_splat(x) wasm_f32x4_splat(x)
#define wasm_f64x2_const_splat(x) wasm_f64x2_splat(x)

WSF int32_t wasm_i32x4_extract_lane(v128_t v, int i) { return ((wsf_i32x4)v)[i & 3]; }
WSF uint32_t wasm_u32x4_extract_lane(v128_t v, int i) { return ((wsf_u32x4)v)[i & 3]; }
WSF int64_t wasm_i64x2_extract_lane(v128_t v, int i) { return ((wsf_i64x2)v)[i & 1]; }
WSF uint64_t wasm_u64x2_extract_lane(v128_t v, int i) { return ((wsf_u64x2)v)[i & 1]; }
WSF float wasm_f32x4_extract_lane(v128_t v, int i) { return ((wsf_f32x4)v)[i & 3]; }
WSF double wasm_f64x2_extract_lane(v128_t v, int i) { return ((wsf_f64x2)v)[i & 1]; }
WSF v128_t wasm_i32x4_replace_lane(v128_t v, int i, int32_t x) {
  wsf_i32x4 r = (wsf_i32x4)v;
  r[i & 3] = x;
  return (v128_t)r;
}
WSF v128_t wasm_i64x2_replace_lane(v128_t v, int i, int64_t x) {
  wsf_i64x2 r = (wsf_i64x2)v;
  r[i & 1] = x;
  return (v128_t)r;
}
WSF v128_t wasm_f32x4_replace_lane(v128_t v, int i, float x) {
  wsf_f32x4 r = (wsf_f32x4)v;
  r[i & 3] = x;
  return (v128_t)r;
}
WSF v128_t wasm_f64x2_replace_lane(v128_t v, int i, double x) {
  wsf_f64x2 r = (wsf_f64x2)v;
  r[i & 1] = x;
  return (v128_t)r;
}

/* Lane indices are constants, as in wasm: clang checks them. */
#define wasm_i8x16_shuffle(a, b, ...) ((v128_t)__builtin_shufflevector((wsf_i8x16)(a), (wsf_i8x16)(b), __VA_ARGS__))
#define wasm_i16x8_shuffle(a, b, ...) ((v128_t)__builtin_shufflevector((wsf_i16x8)(a), (wsf_i16x8)(b), __VA_ARGS__))
#define wasm_i32x4_shuffle(a, b, c0, c1, c2, c3) \
  ((v128_t)__builtin_shufflevector((wsf_i32x4)(a), (wsf_i32x4)(b), c0, c1, c2, c3))
#define wasm_i64x2_shuffle(a, b, c0, c1) ((v128_t)__builtin_shufflevector((wsf_i64x2)(a), (wsf_i64x2)(b), c0, c1))

WSF v128_t wasm_i8x16_swizzle(v128_t a, v128_t s) {
  wsf_i8x16 x = (wsf_i8x16)a, i = (wsf_i8x16)s, r;
  for (int k = 0; k < 16; k++) r[k] = (uint8_t)i[k] < 16 ? x[(uint8_t)i[k]] : 0;
  return (v128_t)r;
}

/* ---- bitwise ---- */

WSF v128_t wasm_v128_not(v128_t a) { return ~a; }
WSF v128_t wasm_v128_and(v128_t a, v128_t b) { return a & b; }
WSF v128_t wasm_v128_or(v128_t a, v128_t b) { return a | b; }
WSF v128_t wasm_v128_xor(v128_t a, v128_t b) { return a ^ b; }
WSF v128_t wasm_v128_andnot(v128_t a, v128_t b) { return a & ~b; }
WSF v128_t wasm_v128_bitselect(v128_t a, v128_t b, v128_t m) { return (a & m) | (b & ~m); }
WSF bool wasm_v128_any_true(v128_t a) {
  wsf_u64x2 u = (wsf_u64x2)a;
  return (u[0] | u[1]) != 0;
}

/* ---- i32x4 / u32x4 (wrapping, no signed overflow in C) ---- */

WSF v128_t wasm_i32x4_add(v128_t a, v128_t b) { return (v128_t)((wsf_u32x4)a + (wsf_u32x4)b); }
WSF v128_t wasm_i32x4_sub(v128_t a, v128_t b) { return (v128_t)((wsf_u32x4)a - (wsf_u32x4)b); }
WSF v128_t wasm_i32x4_mul(v128_t a, v128_t b) { return (v128_t)((wsf_u32x4)a * (wsf_u32x4)b); }
WSF v128_t wasm_i32x4_neg(v128_t a) { return (v128_t)(-(wsf_u32x4)a); }
WSF v128_t wasm_i32x4_shl(v128_t a, uint32_t n) { return (v128_t)((wsf_u32x4)a << (n & 31)); }
WSF v128_t wasm_i32x4_shr(v128_t a, uint32_t n) { return (v128_t)((wsf_i32x4)a >> (int)(n & 31)); }
WSF v128_t wasm_u32x4_shr(v128_t a, uint32_t n) { return (v128_t)((wsf_u32x4)a >> (n & 31)); }
WSF v128_t wasm_i32x4_eq(v128_t a, v128_t b) { return (v128_t)(a == b); }
WSF v128_t wasm_i32x4_ne(v128_t a, v128_t b) { return (v128_t)(a != b); }
WSF v128_t wasm_i32x4_lt(v128_t a, v128_t b) { return (v128_t)(a < b); }
WSF v128_t wasm_i32x4_gt(v128_t a, v128_t b) { return (v128_t)(a > b); }
WSF v128_t wasm_i32x4_le(v128_t a, v128_t b) { return (v128_t)(a <= b); }
WSF v128_t wasm_i32x4_ge(v128_t a, v128_t b) { return (v128_t)(a >= b); }
WSF v128_t wasm_u32x4_lt(v128_t a, v128_t b) { return (v128_t)((wsf_u32x4)a < (wsf_u32x4)b); }
WSF v128_t wasm_u32x4_gt(v128_t a, v128_t b) { return (v128_t)((wsf_u32x4)a > (wsf_u32x4)b); }
WSF v128_t wasm_u32x4_le(v128_t a, v128_t b) { return (v128_t)((wsf_u32x4)a <= (wsf_u32x4)b); }
WSF v128_t wasm_u32x4_ge(v128_t a, v128_t b) { return (v128_t)((wsf_u32x4)a >= (wsf_u32x4)b); }
WSF v128_t wasm_i32x4_min(v128_t a, v128_t b) { return wasm_v128_bitselect(a, b, wasm_i32x4_lt(a, b)); }
WSF v128_t wasm_i32x4_max(v128_t a, v128_t b) { return wasm_v128_bitselect(a, b, wasm_i32x4_gt(a, b)); }
WSF v128_t wasm_u32x4_min(v128_t a, v128_t b) { return wasm_v128_bitselect(a, b, wasm_u32x4_lt(a, b)); }
WSF v128_t wasm_u32x4_max(v128_t a, v128_t b) { return wasm_v128_bitselect(a, b, wasm_u32x4_gt(a, b)); }
WSF v128_t wasm_i32x4_abs(v128_t a) { return wasm_v128_bitselect(wasm_i32x4_neg(a), a, wasm_i32x4_lt(a, wasm_i32x4_splat(0))); }
WSF bool wasm_i32x4_all_true(v128_t a) { return a[0] && a[1] && a[2] && a[3]; }
WSF uint32_t wasm_i32x4_bitmask(v128_t a) {
  wsf_u32x4 u = (wsf_u32x4)a;
  return (u[0] >> 31) | (u[1] >> 31) << 1 | (u[2] >> 31) << 2 | (u[3] >> 31) << 3;
}

/* ---- i64x2 / u64x2 ---- */

WSF v128_t wasm_i64x2_add(v128_t a, v128_t b) { return (v128_t)((wsf_u64x2)a + (wsf_u64x2)b); }
WSF v128_t wasm_i64x2_sub(v128_t a, v128_t b) { return (v128_t)((wsf_u64x2)a - (wsf_u64x2)b); }
WSF v128_t wasm_i64x2_mul(v128_t a, v128_t b) { return (v128_t)((wsf_u64x2)a * (wsf_u64x2)b); }
WSF v128_t wasm_i64x2_neg(v128_t a) { return (v128_t)(-(wsf_u64x2)a); }
WSF v128_t wasm_i64x2_shl(v128_t a, uint32_t n) { return (v128_t)((wsf_u64x2)a << (uint64_t)(n & 63)); }
WSF v128_t wasm_i64x2_shr(v128_t a, uint32_t n) { return (v128_t)((wsf_i64x2)a >> (int64_t)(n & 63)); }
WSF v128_t wasm_u64x2_shr(v128_t a, uint32_t n) { return (v128_t)((wsf_u64x2)a >> (uint64_t)(n & 63)); }
WSF v128_t wasm_i64x2_eq(v128_t a, v128_t b) { return (v128_t)((wsf_i64x2)a == (wsf_i64x2)b); }
WSF v128_t wasm_i64x2_ne(v128_t a, v128_t b) { return (v128_t)((wsf_i64x2)a != (wsf_i64x2)b); }
WSF v128_t wasm_i64x2_lt(v128_t a, v128_t b) { return (v128_t)((wsf_i64x2)a < (wsf_i64x2)b); }
WSF v128_t wasm_i64x2_gt(v128_t a, v128_t b) { return (v128_t)((wsf_i64x2)a > (wsf_i64x2)b); }
WSF v128_t wasm_i64x2_le(v128_t a, v128_t b) { return (v128_t)((wsf_i64x2)a <= (wsf_i64x2)b); }
WSF v128_t wasm_i64x2_ge(v128_t a, v128_t b) { return (v128_t)((wsf_i64x2)a >= (wsf_i64x2)b); }
WSF v128_t wasm_i64x2_abs(v128_t a) { return wasm_v128_bitselect(wasm_i64x2_neg(a), a, wasm_i64x2_lt(a, wasm_i64x2_splat(0))); }
WSF bool wasm_i64x2_all_true(v128_t a) {
  wsf_i64x2 x = (wsf_i64x2)a;
  return x[0] && x[1];
}
WSF uint32_t wasm_i64x2_bitmask(v128_t a) {
  wsf_u64x2 u = (wsf_u64x2)a;
  return (uint32_t)(u[0] >> 63) | (uint32_t)(u[1] >> 63) << 1;
}
WSF v128_t wasm_i64x2_extend_low_i32x4(v128_t a) { return (v128_t)(wsf_i64x2){a[0], a[1]}; }
WSF v128_t wasm_i64x2_extend_high_i32x4(v128_t a) { return (v128_t)(wsf_i64x2){a[2], a[3]}; }
WSF v128_t wasm_u64x2_extend_low_u32x4(v128_t a) {
  wsf_u32x4 u = (wsf_u32x4)a;
  return (v128_t)(wsf_u64x2){u[0], u[1]};
}
WSF v128_t wasm_u64x2_extend_high_u32x4(v128_t a) {
  wsf_u32x4 u = (wsf_u32x4)a;
  return (v128_t)(wsf_u64x2){u[2], u[3]};
}

/* ---- f32x4 / f64x2: IEEE operations lane by lane (x86-64 has no FMA to contract them) ---- */

#define WSF_FLOAT_FAMILY(P, T, N)                                                                  \
  WSF v128_t wasm_##P##_add(v128_t a, v128_t b) { return (v128_t)((T)a + (T)b); }                \
  WSF v128_t wasm_##P##_sub(v128_t a, v128_t b) { return (v128_t)((T)a - (T)b); }                \
  WSF v128_t wasm_##P##_mul(v128_t a, v128_t b) { return (v128_t)((T)a * (T)b); }                \
  WSF v128_t wasm_##P##_div(v128_t a, v128_t b) { return (v128_t)((T)a / (T)b); }                \
  WSF v128_t wasm_##P##_neg(v128_t a) { return (v128_t)(-(T)a); }                                 \
  WSF v128_t wasm_##P##_eq(v128_t a, v128_t b) { return (v128_t)((T)a == (T)b); }                 \
  WSF v128_t wasm_##P##_ne(v128_t a, v128_t b) { return (v128_t)((T)a != (T)b); }                 \
  WSF v128_t wasm_##P##_lt(v128_t a, v128_t b) { return (v128_t)((T)a < (T)b); }                  \
  WSF v128_t wasm_##P##_gt(v128_t a, v128_t b) { return (v128_t)((T)a > (T)b); }                  \
  WSF v128_t wasm_##P##_le(v128_t a, v128_t b) { return (v128_t)((T)a <= (T)b); }                 \
  WSF v128_t wasm_##P##_ge(v128_t a, v128_t b) { return (v128_t)((T)a >= (T)b); }                 \
  WSF v128_t wasm_##P##_pmin(v128_t a, v128_t b) {                                                \
    T x = (T)a, y = (T)b, r;                                                                      \
    for (int i = 0; i < N; i++) r[i] = y[i] < x[i] ? y[i] : x[i];                                 \
    return (v128_t)r;                                                                             \
  }                                                                                               \
  WSF v128_t wasm_##P##_pmax(v128_t a, v128_t b) {                                                \
    T x = (T)a, y = (T)b, r;                                                                      \
    for (int i = 0; i < N; i++) r[i] = x[i] < y[i] ? y[i] : x[i];                                 \
    return (v128_t)r;                                                                             \
  }                                                                                               \
  WSF v128_t wasm_##P##_min(v128_t a, v128_t b) { /* NaN wins; -0 < +0 */                          \
    T x = (T)a, y = (T)b, r;                                                                      \
    for (int i = 0; i < N; i++)                                                                   \
      r[i] = x[i] != x[i] ? x[i] : y[i] != y[i] ? y[i] : x[i] == y[i] ? (signbit(x[i]) ? x[i] : y[i]) \
                                                      : x[i] < y[i] ? x[i] : y[i];                  \
    return (v128_t)r;                                                                             \
  }                                                                                               \
  WSF v128_t wasm_##P##_max(v128_t a, v128_t b) {                                                 \
    T x = (T)a, y = (T)b, r;                                                                      \
    for (int i = 0; i < N; i++)                                                                   \
      r[i] = x[i] != x[i] ? x[i] : y[i] != y[i] ? y[i] : x[i] == y[i] ? (signbit(x[i]) ? y[i] : x[i]) \
                                                      : x[i] > y[i] ? x[i] : y[i];                  \
    return (v128_t)r;                                                                             \
  }

WSF_FLOAT_FAMILY(f32x4, wsf_f32x4, 4)
WSF_FLOAT_FAMILY(f64x2, wsf_f64x2, 2)

#define WSF_UNARY(P, T, N, NAME, F)  \
  WSF v128_t wasm_##P##_##NAME(v128_t a) { \
    T x = (T)a;                      \
    for (int i = 0; i < N; i++) x[i] = F(x[i]); \
    return (v128_t)x;                \
  }
WSF_UNARY(f32x4, wsf_f32x4, 4, abs, fabsf)
WSF_UNARY(f32x4, wsf_f32x4, 4, sqrt, sqrtf)
WSF_UNARY(f32x4, wsf_f32x4, 4, ceil, ceilf)
WSF_UNARY(f32x4, wsf_f32x4, 4, floor, floorf)
WSF_UNARY(f32x4, wsf_f32x4, 4, trunc, truncf)
WSF_UNARY(f32x4, wsf_f32x4, 4, nearest, rintf)
WSF_UNARY(f64x2, wsf_f64x2, 2, abs, fabs)
WSF_UNARY(f64x2, wsf_f64x2, 2, sqrt, sqrt)
WSF_UNARY(f64x2, wsf_f64x2, 2, ceil, ceil)
WSF_UNARY(f64x2, wsf_f64x2, 2, floor, floor)
WSF_UNARY(f64x2, wsf_f64x2, 2, trunc, trunc)
WSF_UNARY(f64x2, wsf_f64x2, 2, nearest, rint)
#undef WSF_UNARY
#undef WSF_FLOAT_FAMILY

/* ---- conversions (saturating where wasm saturates: never a C out-of-range cast) ---- */

WSF int32_t wsf_sat_i32(double x) { return x != x ? 0 : x <= -2147483648.0 ? INT32_MIN : x >= 2147483647.0 ? INT32_MAX : (int32_t)x; }
WSF uint32_t wsf_sat_u32(double x) { return !(x > 0) ? 0 : x >= 4294967295.0 ? UINT32_MAX : (uint32_t)x; }

WSF v128_t wasm_f32x4_demote_f64x2_zero(v128_t a) {
  wsf_f64x2 d = (wsf_f64x2)a;
  return (v128_t)(wsf_f32x4){(float)d[0], (float)d[1], 0.0f, 0.0f};
}
WSF v128_t wasm_f64x2_promote_low_f32x4(v128_t a) {
  wsf_f32x4 f = (wsf_f32x4)a;
  return (v128_t)(wsf_f64x2){f[0], f[1]};
}
WSF v128_t wasm_f64x2_convert_low_i32x4(v128_t a) { return (v128_t)(wsf_f64x2){a[0], a[1]}; }
WSF v128_t wasm_f64x2_convert_low_u32x4(v128_t a) {
  wsf_u32x4 u = (wsf_u32x4)a;
  return (v128_t)(wsf_f64x2){u[0], u[1]};
}
WSF v128_t wasm_f32x4_convert_i32x4(v128_t a) { return (v128_t)(wsf_f32x4){(float)a[0], (float)a[1], (float)a[2], (float)a[3]}; }
WSF v128_t wasm_f32x4_convert_u32x4(v128_t a) {
  wsf_u32x4 u = (wsf_u32x4)a;
  return (v128_t)(wsf_f32x4){(float)u[0], (float)u[1], (float)u[2], (float)u[3]};
}
WSF v128_t wasm_i32x4_trunc_sat_f64x2_zero(v128_t a) {
  wsf_f64x2 d = (wsf_f64x2)a;
  return (v128_t)(wsf_i32x4){wsf_sat_i32(d[0]), wsf_sat_i32(d[1]), 0, 0};
}
WSF v128_t wasm_u32x4_trunc_sat_f64x2_zero(v128_t a) {
  wsf_f64x2 d = (wsf_f64x2)a;
  return (v128_t)(wsf_u32x4){wsf_sat_u32(d[0]), wsf_sat_u32(d[1]), 0, 0};
}
WSF v128_t wasm_i32x4_trunc_sat_f32x4(v128_t a) {
  wsf_f32x4 f = (wsf_f32x4)a;
  return (v128_t)(wsf_i32x4){wsf_sat_i32(f[0]), wsf_sat_i32(f[1]), wsf_sat_i32(f[2]), wsf_sat_i32(f[3])};
}
WSF v128_t wasm_u32x4_trunc_sat_f32x4(v128_t a) {
  wsf_f32x4 f = (wsf_f32x4)a;
  return (v128_t)(wsf_u32x4){wsf_sat_u32(f[0]), wsf_sat_u32(f[1]), wsf_sat_u32(f[2]), wsf_sat_u32(f[3])};
}

#undef WSF
#endif
