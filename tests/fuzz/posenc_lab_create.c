/* posenc_lab_create (with posenc_lab_config_default, posenc_lab_model_bytes and posenc_lab_free):
 * a hostile configuration (one field, several, or all of them at, past and far past their limits,
 * NaN, ±Inf, -0, fractions, values that wrap int32, sizes whose products overflow 32 bits) is
 * judged by lab.h's rules alone (fzl_plan_of); the model's size is planned, and a model small
 * enough for a quick run created, checked, created again from the same seed and freed. */
#include "lab_fuzz.h"

/* lab.h's defaults ("Defaults: ..."), field by field */
static void check_defaults(void) {
  static int done;
  if (done) return;
  done = 1;
  static const double want[FZL_FIELDS] = {0, POSENC_LAB_TASK_KBACK, 3, POSENC_LAB_ENC_ROPE, POSENC_STYLE_HALF,
                                           10000, 512, 18, 32, 4, 2, 128, 512, 16, 128, 32, 3e-3, 100,
                                           POSENC_LAB_SCHEDULE_CONSTANT, 0, 0.01, 0.9, 0.999, 1e-8, 0, 0};
  posenc_lab_config c;
  fz_call call = {.fn = "posenc_lab_config_default"};
  FZ_CHECK(&call, posenc_lab_config_default(NULL) == POSENC_E_NULL, "accepted NULL");
  FZ_CHECK(&call, posenc_lab_config_default(&c) == POSENC_OK, "failed");
  for (int i = 0; i < FZL_FIELDS; i++) {
    /* max_eval_len 128 (= 8 train_len) written out, or 0 meaning it: either is the default */
    if (i == 14 && *fzl_field_of(&c, i) == 0) continue;
    FZ_CHECK(&call, *fzl_field_of(&c, i) == want[i], fzl_fields[i].name);
  }
  FZ_CHECK(&call, fzl_plan_of(&c).fields_ok, "the defaults break lab.h's rules");
}

FZ_HARNESS(posenc_lab_create) {
  check_defaults();
  fz_call c = {.fn = "posenc_lab_create"};
  posenc_lab_config cfg;
  uint8_t mode = fz_u8(in) % 4, nulls = fz_u8(in);
  if (mode == 2) fzl_small_config(in, &cfg);
  else posenc_lab_config_default(&cfg);
  if (mode == 0 || mode == 2) { /* one field: the rules name it */
    int i = fz_u8(in) % FZL_FIELDS;
    *fzl_field_of(&cfg, i) = fzl_value(in, &fzl_fields[i], *fzl_field_of(&cfg, i));
  } else if (mode == 1) { /* a few fields, each maybe hostile */
    for (int i = 0; i < FZL_FIELDS; i++)
      if (fz_u8(in) < 48) *fzl_field_of(&cfg, i) = fzl_value(in, &fzl_fields[i], *fzl_field_of(&cfg, i));
  } else { /* every field from the input */
    for (int i = 0; i < FZL_FIELDS; i++) *fzl_field_of(&cfg, i) = fzl_value(in, &fzl_fields[i], *fzl_field_of(&cfg, i));
  }
  posenc_lab_config before = cfg;
  fzl_plan p = fzl_plan_of(&cfg);
  int null_cfg = fz_null(nulls, 0), null_out = fz_null(nulls, 1);

  /* the plan: model_bytes checks what create checks */
  double bytes = -7;
  int rb = posenc_lab_model_bytes(null_cfg ? NULL : &cfg, null_out ? NULL : &bytes);
  FZ_CHECK(&c, !memcmp(&before, &cfg, sizeof cfg), "model_bytes changed the configuration");
  if (null_cfg || null_out) FZ_CHECK(&c, rb == POSENC_E_NULL, "model_bytes took a NULL pointer");
  if (rb != POSENC_OK) FZ_CHECK(&c, rb < 0 && bytes == -7, "a rejected model_bytes wrote its answer");
  if (null_cfg || null_out) rb = posenc_lab_model_bytes(&cfg, &bytes);
  if (!p.fields_ok) FZ_CHECK(&c, rb < 0, "model_bytes accepted a configuration lab.h refuses");
  else if (!p.finite) FZ_CHECK(&c, rb == POSENC_E_VALUE, "an xPos scale base whose factors pass e^15 accepted");
  else if (p.reals_lo > (double)(1u << 28)) FZ_CHECK(&c, rb == POSENC_E_SIZE, "buffers past 2^28 lab_reals accepted");
  else if (rb != POSENC_OK)
    /* refused for the total alone: only when the total is near the cap */
    FZ_CHECK(&c, rb == POSENC_E_SIZE && 4 * p.reals_lo > (double)(1u << 28),
             "a valid configuration refused");
  if (rb == POSENC_OK)
    FZ_CHECK(&c, isfinite(bytes) && bytes >= sizeof(lab_real) * p.reals_lo && bytes <= 8.0 * (1u << 28) + 65536.0 * 1024,
             "model_bytes outside [the buffers' lower bound, the cap]");

  /* create: always when it must refuse (cheap), otherwise when the model is small */
  if (rb != POSENC_OK || bytes <= FZL_MAX_BYTES) {
    posenc_lab_model *sentinel = (posenc_lab_model *)&c, *m = sentinel;
    int rc = posenc_lab_create(null_cfg ? NULL : &cfg, null_out ? NULL : &m);
    FZ_CHECK(&c, !memcmp(&before, &cfg, sizeof cfg), "create changed the configuration");
    if (null_cfg || null_out) {
      FZ_CHECK(&c, rc == POSENC_E_NULL && m == sentinel, "create took a NULL pointer");
      rc = posenc_lab_create(&cfg, &m);
    }
    FZ_CHECK(&c, (rc == POSENC_OK) == (rb == POSENC_OK), "create and model_bytes disagree");
    if (rc != POSENC_OK) {
      FZ_CHECK(&c, rc < 0 && m == sentinel, "a rejected create wrote its model");
    } else {
      FZ_CHECK(&c, posenc_lab_n_params(m) == p.n_params, "n_params is not lab.h's model's count");
      FZ_CHECK(&c, fzl_finite(posenc_lab_params(m), p.n_params), "a non-finite initial parameter");
      /* the same seed gives the same bits, beside a live model and in the memory of a freed
       * one: nothing is global, nothing of a freed model carries over */
      if (bytes <= FZL_MAX_BYTES / 4) {
        posenc_lab_model *m2 = NULL;
        size_t size = sizeof(lab_real) * (size_t)p.n_params;
        lab_real *first = malloc(size);
        if (!first) fz_fail(&c, "malloc failed");
        memcpy(first, posenc_lab_params(m), size);
        FZ_CHECK(&c, posenc_lab_create(&cfg, &m2) == POSENC_OK, "a second create failed");
        FZ_CHECK(&c, !memcmp(first, posenc_lab_params(m2), size), "two live models from one configuration differ");
        FZ_CHECK(&c, posenc_lab_train_steps(m2, 1, NULL) == POSENC_OK, "a step refused");
        posenc_lab_free(m2);
        posenc_lab_free(m);
        m = NULL;
        FZ_CHECK(&c, posenc_lab_create(&cfg, &m) == POSENC_OK, "a create after a free failed");
        FZ_CHECK(&c, !memcmp(first, posenc_lab_params(m), size), "a model created after a free differs");
        free(first);
      }
      posenc_lab_free(m);
    }
  }
  fzl_null_model();
  return 0;
}
