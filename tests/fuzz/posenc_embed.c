/* posenc_embed: out[n][dim] = table[tokens[i]][dim], tokens in [0, vocab). */
#include "fuzz.h"

FZ_HARNESS(posenc_embed) {
  fz_call c = {.fn = "posenc_embed"};
  int32_t n = fz_size(in), vocab = fz_size(in), dim = fz_size(in);
  uint8_t nulls = fz_u8(in);
  int sizes = fz_elems(n, dim, 1) && fz_elems(vocab, dim, 1);
  int64_t no = sizes ? (int64_t)n * dim : 0, nt = sizes ? (int64_t)vocab * dim : 0, nn = sizes ? n : 0;
  if (no > FZ_MAX_ELEMS || nt > FZ_MAX_ELEMS) return 0;
  float *out = fz_new(&c, "out", (size_t)no * sizeof(float));
  int32_t *tok = fz_new(&c, "tokens", (size_t)nn * sizeof(int32_t));
  float *table = fz_new(&c, "table", (size_t)nt * sizeof(float));
  int bad = 0;
  for (int64_t i = 0; i < nn; i++) {
    uint8_t s = fz_u8(in);
    tok[i] = s < 240 ? (int32_t)((fz_bytes(in, 2) + s) % (uint32_t)vocab) : s < 248 ? vocab - 1 + (s & 1) : fz_size(in);
    bad |= tok[i] < 0 || tok[i] >= vocab;
  }
  fz_fill_f32(in, table, (size_t)nt);
  int valid = sizes && !fz_any_null(nulls, 3) && !bad;
  fz_snapshot(&c);
  int rc = posenc_embed(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), n, fz_ptr(&c, 2, nulls), vocab, dim);
  fz_after(&c, rc, valid, 2u | 4u);
  if (rc == POSENC_OK)
    for (int64_t i = 0; i < n; i++)
      FZ_CHECK(&c, memcmp(out + i * dim, table + (int64_t)tok[i] * dim, sizeof(float) * (size_t)dim) == 0,
               "a row is not its token's table row");
  fz_free(&c);
  return 0;
}
