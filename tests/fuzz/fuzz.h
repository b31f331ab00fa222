/* fuzz.h: what every posenc fuzz harness shares.
 *
 * A harness turns libFuzzer's bytes into the arguments of one entry point of c/posenc.h (the
 * lab's, of c/lab/lab.h, add lab_fuzz.h):
 * sizes (small, special, raw int32, negative), float64 scalars (NaN, ±Inf, -0, 2^53, huge,
 * denormal, raw bits), float arrays and NULLs. It then decides from the documented contract
 * alone (posenc.h) whether the call is valid, allocates every buffer with exactly the bytes the
 * contract says the kernel reads or writes (so AddressSanitizer reports any access past them),
 * calls the kernel and checks:
 *   - a valid call returns POSENC_OK, an invalid one a negative status;
 *   - a rejected call wrote nothing (every buffer byte-identical to before);
 *   - const inputs are never written;
 *   - a few cheap facts about the results (ranges, pass-through dims, identities).
 * When the sizes are invalid every buffer is a zero-byte allocation: the kernel must reject them
 * without reading or writing any element. Valid calls too large for a quick run are skipped.
 * Any failed check prints what was wrong and aborts, which libFuzzer reports as a crash.
 */
#ifndef POSENC_FUZZ_H
#define POSENC_FUZZ_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posenc.h"

/* Largest buffer (elements) and work (inner-loop steps) of a call the harnesses run. */
#define FZ_MAX_ELEMS (1 << 18)
#define FZ_MAX_WORK (1 << 21)
#define FZ_MAX_POS 9007199254740992.0 /* 2^53 */

typedef struct {
  const uint8_t *p;
  size_t n;
} fz;

/* ---- reading the input; past its end every read is 0 ---- */

static inline uint8_t fz_u8(fz *in) {
  if (!in->n) return 0;
  in->n--;
  return *in->p++;
}

static inline uint64_t fz_bytes(fz *in, int k) {
  uint64_t v = 0;
  for (int i = 0; i < k; i++) v |= (uint64_t)fz_u8(in) << (8 * i);
  return v;
}

static inline int fz_bool(fz *in) { return fz_u8(in) & 1; }

/* A count: mostly small, sometimes a boundary of the caps, raw, or negative. */
static inline int32_t fz_size(fz *in) {
  static const int32_t special[] = {
      0,           -1,          INT32_MIN,          INT32_MAX,     1 << 28,       (1 << 28) + 1,
      (1 << 28) - 1, 1 << 27,   1 << 14,            (1 << 14) + 1, 1 << 16,       65537,
      46341,       46340,       4096,               4097,          31,            32,
      2,           1,           3,                  0x7ffffffe,    (1 << 30),     -(1 << 28),
      16385,       8192,        (1 << 15) + 1,      257,           255,           1 << 20,
  };
  uint8_t s = fz_u8(in);
  switch (s & 7) {
    case 0:
    case 1:
    case 2: return s >> 3;                                   /* 0..31 */
    case 3: return (int32_t)(fz_bytes(in, 2) % 600);         /* 0..599 */
    case 4: return special[(s >> 3) % (sizeof special / sizeof *special)];
    case 5: return (int32_t)(uint32_t)fz_bytes(in, 4);       /* anything */
    case 6: return -(int32_t)(s >> 3);                       /* 0..-31 */
    default: return (int32_t)((1u << ((s >> 3) % 31)) + (fz_u8(in) % 3) - 1);
  }
}

/* An enum-like value: mostly in a small range, sometimes anything. */
static inline int32_t fz_small_int(fz *in, int32_t lo, int32_t hi) {
  uint8_t s = fz_u8(in);
  if (s < 224) return lo + (int32_t)(s % (uint32_t)(hi - lo + 1));
  if (s < 240) return fz_size(in);
  return (int32_t)(uint32_t)fz_bytes(in, 4);
}

static const double fz_special_double[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 10000.0, 500000.0, NAN, -NAN, INFINITY, -INFINITY,
    9007199254740992.0, 9007199254740991.0, 9007199254740994.0, -9007199254740992.0,
    9007199254740988.0, 1e300, -1e300, DBL_MAX, -DBL_MAX, DBL_MIN, 4.9e-324, 1.5e6,
    1.5e6 - 1, 1e6, 2147483648.0, 4294967296.0, 9223372036854775808.0,
    18446744073709551616.0, 1e308, 1.7e308, 1.7976931348623157e308, 0.9999999999999999,
    1.0000000000000002, 3.4028234663852886e38, 3.5e38, 1e-300, 65536.0, 1e150,
};

/* A float64 scalar: small numbers, specials, raw bit patterns, negatives. */
static inline double fz_double(fz *in) {
  uint8_t s = fz_u8(in);
  switch (s & 7) {
    case 0:
    case 1: return (double)(s >> 3);
    case 2: return fz_special_double[(s >> 3) % (sizeof fz_special_double / sizeof(double))];
    case 3: {
      uint64_t b = fz_bytes(in, 8);
      double d;
      memcpy(&d, &b, sizeof d);
      return d;
    }
    case 4: return (double)fz_bytes(in, 2) + (double)(s >> 3) / 32.0;
    case 5: return ldexp((double)fz_bytes(in, 2), (int)(s >> 3) - 16);
    case 6: return -(double)(s >> 3) - (double)fz_u8(in) / 256.0;
    default: return 10000.0;
  }
}

/* A float32 element: small values, specials, raw bits. */
static inline float fz_float(fz *in) {
  static const float special[] = {NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, 0.0f, -0.0f,
                                  1e-45f, 1.0f, -1.0f, 1e30f, -1e30f, FLT_MIN, 1e19f, 65504.0f, 0.5f};
  uint8_t s = fz_u8(in);
  switch (s & 3) {
    case 0: return (float)(int8_t)fz_u8(in) / 16.0f;
    case 1: {
      uint32_t b = (uint32_t)fz_bytes(in, 4);
      float f;
      memcpy(&f, &b, sizeof f);
      return f;
    }
    case 2: return special[(s >> 2) % 16];
    default: return (float)(int8_t)(s) / 4.0f;
  }
}

/* Fills a float array. Mode 0: element by element from the input (any value); 1: a clean
 * pattern; 2: clean but for one element from the input. */
static inline void fz_fill_f32(fz *in, float *v, size_t n) {
  uint8_t mode = fz_u8(in) % 3;
  if (mode == 0) {
    for (size_t i = 0; i < n; i++) v[i] = fz_float(in);
    return;
  }
  float scale = (float)(fz_u8(in) + 1) / 64.0f;
  for (size_t i = 0; i < n; i++) v[i] = scale * (float)((int)(i * 7919 % 29) - 14) / 7.0f;
  if (mode == 2 && n) v[fz_bytes(in, 4) % n] = fz_float(in);
}

/* Fills a float64 array meant to hold positions or frequencies (>= 0 when clean). Mode 0:
 * element by element from the input; 1: i * step; 2: i * step but for one element. */
static inline void fz_fill_f64(fz *in, double *v, size_t n) {
  uint8_t mode = fz_u8(in) % 3;
  if (mode == 0) {
    for (size_t i = 0; i < n; i++) v[i] = fz_double(in);
    return;
  }
  double step = fz_double(in);
  if (!(step >= 0 && step < 1e150)) step = 1.0;
  for (size_t i = 0; i < n; i++) v[i] = (double)i * step;
  if (mode == 2 && n) v[fz_bytes(in, 4) % n] = fz_double(in);
}

/* Adds one offset from the input to every element of a positions array (when it is in (0, 1e6]
 * and finite), so that fz_fill_f64's i * step grids also start above 0. Read after everything
 * else a harness reads: inputs written before it existed keep their meaning. */
static inline void fz_shift(fz *in, double *v, size_t n) {
  double off = fz_double(in);
  if (!(off > 0 && off <= 1e6)) return;
  for (size_t i = 0; i < n; i++) v[i] += off;
}

/* Per unit of |coefficient| x |angle|: how far a float64 evaluation of a score may be from the
 * harness's own, which rounds each angle x w to float64 (2^-53 of it). The decay kernels' uniform
 * path follows the real angle instead (c/decay.c), so the two differ by up to that rounding. */
#define FZ_ANGLE_TOL 0x1p-52

/* ---- the contract's arithmetic ---- */

/* The dot product of two float32 rows in c/dot.h's documented order (posenc.h's "Dot
 * products"): eight float64 partial sums over the elements d = j (mod 8), combined as
 * ((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7)), then the tail in order. Each product is
 * exact in float64, so this is the kernels' result bit for bit in both builds; a plain
 * left-to-right sum rounds differently once terms cancel. */
static inline double fz_dot(const float *a, const float *b, int64_t dim) {
  double s[8] = {0}, acc;
  int64_t d = 0;
  for (; d + 8 <= dim; d += 8)
    for (int j = 0; j < 8; j++) s[j] += (double)a[d + j] * b[d + j];
  acc = ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]));
  for (; d < dim; d++) acc += (double)a[d] * b[d];
  return acc;
}

/* Two float64 results are the same number (NaN matches NaN). */
static inline int fz_same_f64(double got, double want) { return got == want || (isnan(got) && isnan(want)); }


/* elems3 of check.h, restated from posenc.h's words: every factor >= 1 and the product no
 * more than POSENC_MAX_ELEMS. Returns the product, or 0 when that fails. */
static inline int64_t fz_elems(int64_t a, int64_t b, int64_t c) {
  if (a < 1 || b < 1 || c < 1) return 0;
  if (a > POSENC_MAX_ELEMS || b > POSENC_MAX_ELEMS || c > POSENC_MAX_ELEMS) return 0;
  int64_t p = a * b;
  if (p > POSENC_MAX_ELEMS) return 0;
  p *= c;
  return p > POSENC_MAX_ELEMS ? 0 : p;
}

static inline int fz_base_ok(double base) { return isfinite(base) && base >= 1.0; }

/* Every value finite and >= 0; *max gets the largest (the kernels' nonneg_finite). */
static inline int fz_nonneg(const double *v, size_t n, double *max) {
  double m = 0;
  for (size_t i = 0; i < n; i++) {
    if (!(v[i] >= 0.0 && isfinite(v[i]))) return 0;
    if (v[i] > m) m = v[i];
  }
  *max = m;
  return 1;
}

static inline int fz_finite_f32(const float *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(v[i])) return 0;
  return 1;
}

/* ---- buffers ---- */

typedef struct {
  void *p;        /* what the kernel gets (NULL when the harness passes NULL) */
  void *block;    /* what was allocated */
  size_t bytes;   /* size of block */
  uint8_t *copy;  /* its bytes before the call */
  const char *name;
} fz_buf;

#define FZ_MAX_BUFS 8
typedef struct {
  fz_buf b[FZ_MAX_BUFS];
  int n;
  const char *fn;
} fz_call;

static inline void fz_fail(const fz_call *c, const char *what) {
  fprintf(stderr, "posenc fuzz: %s: %s\n", c ? c->fn : "?", what);
  abort();
}

#define FZ_CHECK(c, cond, what) \
  do {                          \
    if (!(cond)) fz_fail((c), (what)); \
  } while (0)

/* A block of exactly `bytes` (a zero-byte block is still a distinct non-NULL allocation whose
 * every element access ASan reports), filled with 0xA5 until the harness writes inputs. */
static inline void *fz_new(fz_call *c, const char *name, size_t bytes) {
  if (c->n == FZ_MAX_BUFS) fz_fail(c, "too many buffers");
  void *p = malloc(bytes ? bytes : 1);
  if (!p) fz_fail(c, "malloc failed");
  if (!bytes) {
    free(p);
    p = malloc(0);
  }
  if (bytes) memset(p, 0xA5, bytes);
  c->b[c->n++] = (fz_buf){p, p, bytes, NULL, name};
  return p;
}

/* Records every buffer's bytes before the call. */
static inline void fz_snapshot(fz_call *c) {
  for (int i = 0; i < c->n; i++) {
    fz_buf *b = &c->b[i];
    b->copy = malloc(b->bytes ? b->bytes : 1);
    if (!b->copy) fz_fail(c, "malloc failed");
    memcpy(b->copy, b->block, b->bytes);
  }
}

/* Buffer i has not changed since the snapshot. */
static inline int fz_same(const fz_call *c, int i) {
  return memcmp(c->b[i].copy, c->b[i].block, c->b[i].bytes) == 0;
}

/* After the call: a valid call (valid 1) succeeded, an invalid one (0) was rejected (-1: the
 * harness cannot tell); a rejected call changed nothing; `inputs` (a bit per buffer) never
 * change. */
static inline void fz_after(fz_call *c, int rc, int valid, unsigned inputs) {
  char msg[160];
  if (valid == 1 && rc != POSENC_OK) {
    snprintf(msg, sizeof msg, "rejected valid arguments with status %d", rc);
    fz_fail(c, msg);
  }
  if (valid == 0 && rc == POSENC_OK) fz_fail(c, "accepted invalid arguments");
  if (rc > 0) fz_fail(c, "positive status");
  for (int i = 0; i < c->n; i++) {
    if ((rc != POSENC_OK || (inputs >> i & 1)) && !fz_same(c, i)) {
      snprintf(msg, sizeof msg, "%s changed %s", rc ? "a rejected call" : "the call", c->b[i].name);
      fz_fail(c, msg);
    }
  }
}

static inline void fz_free(fz_call *c) {
  for (int i = 0; i < c->n; i++) {
    free(c->b[i].block);
    free(c->b[i].copy);
  }
  c->n = 0;
}

/* Whether pointer i (i < 5) goes to the kernel as NULL: when `nulls` (one byte of input) has
 * its top three bits and bit i set, so about one call in eight passes some NULLs. */
static inline int fz_null(uint8_t nulls, int i) { return (nulls & 0xE0) == 0xE0 && (nulls >> i & 1); }

/* Buffer i's pointer, or NULL as fz_null says. */
static inline void *fz_ptr(const fz_call *c, int i, uint8_t nulls) { return fz_null(nulls, i) ? NULL : c->b[i].p; }

/* Whether fz_null holds for any of pointers 0..count-1. */
static inline int fz_any_null(uint8_t nulls, int count) {
  return (nulls & 0xE0) == 0xE0 && (nulls & ((1u << count) - 1)) != 0;
}

/* Float32 outputs are at most `lim` in magnitude (NaN fails). */
static inline int fz_bounded_f32(const float *v, size_t n, double lim) {
  for (size_t i = 0; i < n; i++)
    if (!(fabs(v[i]) <= lim)) return 0;
  return 1;
}

static inline int fz_bounded_f64(const double *v, size_t n, double lo, double hi) {
  for (size_t i = 0; i < n; i++)
    if (!(v[i] >= lo && v[i] <= hi)) return 0;
  return 1;
}

/* Each harness: fuzz_<entry point>(input). Declared here, listed in main.c. */
#define FZ_HARNESS(name) int fuzz_##name(fz *in)

#endif
