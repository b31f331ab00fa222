/* The lab's parameter readout, posenc_lab_group (with posenc_lab_n_params, posenc_lab_n_groups,
 * posenc_lab_params and posenc_lab_grads), and its frequencies, posenc_lab_rope_freqs. */
#include "lab_fuzz.h"

/* The groups tile the flat vector in lab.h's order: tok_emb, [pos_emb], [t5_bias], per layer
 * ln1_g .. b2 with its index, lnf_g, lnf_b, wh, bh; matrices and embeddings decayed. */
FZ_HARNESS(posenc_lab_group) {
  fz_call c = {.fn = "posenc_lab_group"};
  posenc_lab_config cfg;
  fzl_plan p;
  posenc_lab_model *m = fzl_small_model(in, &cfg, &p);
  int32_t ng = posenc_lab_n_groups(m);
  FZ_CHECK(&c, posenc_lab_n_params(m) == p.n_params, "n_params is not lab.h's model's count");
  FZ_CHECK(&c, ng == 1 + (p.enc == POSENC_LAB_ENC_LEARNED) + (p.enc == POSENC_LAB_ENC_T5) + 12 * p.L + 4,
           "n_groups is not lab.h's count");
  FZ_CHECK(&c, posenc_lab_params(m) && posenc_lab_grads(m) && posenc_lab_params(m) != posenc_lab_grads(m),
           "params or grads missing");
  static const char *layer_names[12] = {"ln1_g", "ln1_b", "wqkv", "bqkv", "wo", "bo", "ln2_g", "ln2_b", "w1", "b1", "w2", "b2"};
  int32_t next = 0;
  for (int32_t g = 0; g < ng; g++) {
    const char *name = NULL;
    int32_t off = -1, size = -1, dec = -1;
    FZ_CHECK(&c, posenc_lab_group(m, g, &name, &off, &size, &dec) == POSENC_OK, "a group in range refused");
    FZ_CHECK(&c, name && off == next && size >= 1 && (dec == 0 || dec == 1), "groups do not tile the vector");
    int32_t first = 1 + (p.enc == POSENC_LAB_ENC_LEARNED) + (p.enc == POSENC_LAB_ENC_T5);
    char want[16];
    if (g == 0) snprintf(want, sizeof want, "tok_emb");
    else if (g < first) snprintf(want, sizeof want, p.enc == POSENC_LAB_ENC_LEARNED ? "pos_emb" : "t5_bias");
    else if (g < first + 12 * p.L) snprintf(want, sizeof want, "%s.%d", layer_names[(g - first) % 12], (g - first) / 12);
    else snprintf(want, sizeof want, "%s", (const char *[]){"lnf_g", "lnf_b", "wh", "bh"}[g - first - 12 * p.L]);
    FZ_CHECK(&c, !strcmp(name, want), "a group's name is not lab.h's");
    int matrix = !strcmp(want, "tok_emb") || !strcmp(want, "pos_emb") || !strcmp(want, "wh") || !strncmp(want, "wqkv", 4) ||
                 !strncmp(want, "wo", 2) || !strncmp(want, "w1", 2) || !strncmp(want, "w2", 2);
    FZ_CHECK(&c, dec == matrix, "decay is not on the matrices and embeddings alone");
    next += size;
  }
  FZ_CHECK(&c, next == p.n_params, "the groups do not cover the vector");
  /* a group index anywhere */
  for (int k = 0; k < 2; k++) {
    int32_t g = fz_size(in);
    uint8_t nulls = fz_u8(in);
    const char *name = (const char *)&c;
    int32_t off = -7, size = -7, dec = -7;
    int rc = posenc_lab_group(m, g, fz_null(nulls, 0) ? NULL : &name, fz_null(nulls, 1) ? NULL : &off,
                              fz_null(nulls, 2) ? NULL : &size, fz_null(nulls, 3) ? NULL : &dec);
    int valid = g >= 0 && g < ng && !fz_any_null(nulls, 4);
    FZ_CHECK(&c, (rc == POSENC_OK) == valid && rc <= 0, valid ? "a group in range refused" : "a bad group or NULL taken");
    if (rc != POSENC_OK) FZ_CHECK(&c, name == (const char *)&c && off == -7 && size == -7 && dec == -7, "a rejected call wrote");
  }
  posenc_lab_free(m);
  return 0;
}

/* rope_freqs: inv[head_dim / 2], attn; lab.h's rules for each scaling kind. */
FZ_HARNESS(posenc_lab_rope_freqs) {
  fz_call c = {.fn = "posenc_lab_rope_freqs"};
  int32_t hd = fz_u8(in) < 200 ? fz_small_int(in, -1, 70) : fz_size(in), scaling = fzl_scaling(in);
  double base = fz_u8(in) & 1 ? 10000 : fz_double(in), factor = fzl_factor(in), l0 = fz_u8(in) & 1 ? 16 : fz_double(in);
  uint8_t nulls = fz_u8(in);
  int hd_ok = hd >= 2 && hd <= 4096 && hd % 2 == 0;
  int kind_ok = scaling == POSENC_SCALING_NONE || scaling == POSENC_SCALING_LINEAR || scaling == POSENC_SCALING_NTK ||
                scaling == POSENC_SCALING_YARN;
  int valid = hd_ok && isfinite(base) && base > 1 && kind_ok && isfinite(factor) && factor >= 1 && factor <= 1e6 &&
              isfinite(l0) && l0 >= 1 && (scaling != POSENC_SCALING_NTK || hd > 2) && !fz_any_null(nulls, 2);
  int64_t half = hd_ok ? hd / 2 : 0;
  double *inv = fz_new(&c, "inv", (size_t)half * sizeof(double)), *attn = fz_new(&c, "attn", sizeof(double));
  fz_snapshot(&c);
  int rc = posenc_lab_rope_freqs(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), hd, base, scaling, factor, l0);
  fz_after(&c, rc, valid, 0);
  if (rc == POSENC_OK) {
    double b = scaling == POSENC_SCALING_NTK ? base * pow(factor, (double)hd / (hd - 2)) : base;
    for (int64_t i = 0; i < half; i++) {
      double th = pow(b, -(2.0 * i) / hd);
      FZ_CHECK(&c, inv[i] >= 0 && inv[i] <= 1 && !(i && inv[i] > inv[i - 1]), "frequencies not in [0, 1], falling");
      if (scaling == POSENC_SCALING_NONE || scaling == POSENC_SCALING_NTK)
        FZ_CHECK(&c, fabs(inv[i] - th) <= 1e-15 * th, "theta_i is not base'^(-2i/hd)");
      if (scaling == POSENC_SCALING_LINEAR) FZ_CHECK(&c, fabs(inv[i] - th / factor) <= 1e-15 * th, "linear: not theta_i / s");
      if (scaling == POSENC_SCALING_YARN)
        FZ_CHECK(&c, inv[i] <= th * (1 + 1e-15) && inv[i] >= th / factor * (1 - 1e-15), "yarn: outside [theta_i / s, theta_i]");
    }
    FZ_CHECK(&c, *attn == (scaling == POSENC_SCALING_YARN ? 0.1 * log(factor) + 1.0 : 1.0), "attention factor");
  }
  fz_free(&c);
  return 0;
}
