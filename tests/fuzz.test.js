// The fuzz smoke pass: every libFuzzer harness (one per C entry point, AddressSanitizer +
// UndefinedBehaviorSanitizer; see tests/fuzz/) replays its committed seed corpus and its
// regression inputs, then runs a fixed number of deterministic mutations, in both native
// variants (the scalar forms, and the WASM SIMD forms through tests/fuzz/simd/). A crash, a
// sanitizer report or a broken contract fails the test. `npm run fuzz` fuzzes for real.
// Skipped, saying why, only when clang with its fuzzer and sanitizer runtimes cannot be had.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FUZZ = join(ROOT, 'tests/fuzz');
const RUNS = Number(process.env.POSENC_FUZZ_RUNS ?? 200); // mutations per harness after the replay

const build = spawnSync('bash', [join(FUZZ, 'build.sh')], { cwd: ROOT, encoding: 'utf8' });
const skip = build.status === 77 ? `clang cannot build libFuzzer + sanitizer binaries here: ${build.stderr.trim()}` : false;

const variants = ['scalar', 'simd'].filter((v) => existsSync(join(FUZZ, 'build', v, 'posenc_fuzz')));
const targets = skip || build.status !== 0 ? [] : spawnSync(join(FUZZ, 'build', variants[0], 'posenc_fuzz'), [], {
  env: { ...process.env, POSENC_FUZZ_TARGET: 'list' }, encoding: 'utf8',
}).stdout.trim().split('\n');

test('the fuzz harnesses build', { skip }, () => {
  assert.equal(build.status, 0, `tests/fuzz/build.sh failed:\n${build.stderr}`);
  assert.deepEqual(variants, ['scalar', 'simd']);
});

test('every entry point of c/posenc.h has a harness', { skip }, async () => {
  const { readFileSync } = await import('node:fs');
  const header = readFileSync(join(ROOT, 'c/posenc.h'), 'utf8');
  const entries = [...header.matchAll(/^\w[\w ]*?\b(posenc_\w+)\(/gm)].map((m) => m[1]);
  const covered = new Set(targets);
  covered.add('posenc_simd').add('posenc_heap_in_use'); // both in the posenc_info harness
  assert.ok(targets.includes('posenc_info'));
  assert.deepEqual(entries.filter((e) => !covered.has(e)), [], 'entry points without a fuzz harness');
});

test('every entry point of c/lab/lab.h has a harness', { skip }, async () => {
  const { readFileSync } = await import('node:fs');
  const header = readFileSync(join(ROOT, 'c/lab/lab.h'), 'utf8');
  const entries = [...header.matchAll(/^\w[\w *]*?\b(posenc_lab_\w+)\(/gm)].map((m) => m[1]);
  assert.ok(entries.length >= 20, `only ${entries.length} entry points found in lab.h`);
  // called and checked inside another entry point's harness
  const within = {
    posenc_lab_create: ['posenc_lab_config_default', 'posenc_lab_model_bytes', 'posenc_lab_free'],
    posenc_lab_train_steps: ['posenc_lab_adamw_step', 'posenc_lab_lr_at'],
    posenc_lab_finetune_steps: ['posenc_lab_finetune_batch'],
    posenc_lab_example: ['posenc_lab_sequence_length'],
    posenc_lab_group: ['posenc_lab_n_params', 'posenc_lab_n_groups', 'posenc_lab_params', 'posenc_lab_grads'],
  };
  const covered = new Set(targets);
  for (const [harness, calls] of Object.entries(within)) if (targets.includes(harness)) calls.forEach((c) => covered.add(c));
  assert.deepEqual(entries.filter((e) => !covered.has(e)), [], 'lab entry points without a fuzz harness');
});

for (const variant of variants) {
  for (const target of targets) {
    test(`fuzz smoke: ${target} (${variant})`, { skip }, () => {
      const seeds = ['corpus', 'regressions'].map((d) => join(FUZZ, d, target)).filter(existsSync);
      const work = mkdtempSync(join(tmpdir(), 'posenc-fuzz-'));
      try {
        const r = spawnSync(join(FUZZ, 'build', variant, 'posenc_fuzz'),
          ['-seed=1', `-runs=${RUNS}`, '-max_len=1024', '-timeout=10', '-rss_limit_mb=2048',
            `-artifact_prefix=${join(work, 'crash-')}`, work, ...seeds],
          { env: { ...process.env, POSENC_FUZZ_TARGET: target }, encoding: 'utf8', maxBuffer: 16 << 20 });
        const report = r.stderr.split('\n').filter((l) => /posenc fuzz:|ERROR|runtime error|SUMMARY|#0 |#1 |#2 /.test(l)).slice(0, 20).join('\n');
        assert.equal(r.status, 0, `${target} (${variant}) failed:\n${report || r.stderr.slice(-2000)}`);
        const replayed = seeds.reduce((n, d) => n + readdirSync(d).length, 0);
        assert.match(r.stderr, /Done \d+ runs/, 'libFuzzer did not finish');
        if (replayed) assert.match(r.stderr, /INITED/, 'the seed corpus was not replayed');
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    });
  }
}
