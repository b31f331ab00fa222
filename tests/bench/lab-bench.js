// lab-bench.js: tokens per second of a training step of the lab's default model (2 layers,
// d_model 32, 4 heads, batch 32 × 16 tokens of k-back; loss and gradient, then AdamW) in the WASM
// SIMD build, the scalar build, and the same C compiled natively (-O3 -march=native), with one
// protocol (tests/lab/bench-wasm.mjs and tests/lab/bench.c): the minimum over repeats of the mean
// of a run of steps.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** { simd, scalar, native } as { ms, tokensPerSecond } (native: or { skipped }). */
export function labBench({ repeats = 7, steps = 20, native = true } = {}) {
  const wasm = (file) => JSON.parse(execFileSync('node', [join(ROOT, 'tests/lab/bench-wasm.mjs'), join(ROOT, 'web/build', file),
    String(repeats), String(steps)], { encoding: 'utf8' }));
  const pick = (r) => ({ ms: r.fixed_ms, tokensPerSecond: r.fixed_tokens_per_s });
  const out = { simd: pick(wasm('posenc.wasm')), scalar: pick(wasm('posenc-scalar.wasm')), native: { skipped: 'not run' } };
  if (!native) return out;
  const cc = ['cc', 'clang'].find((c) => spawnSync(c, ['--version']).status === 0);
  if (!cc) return { ...out, native: { skipped: 'no C compiler' } };
  const dir = mkdtempSync(join(tmpdir(), 'posenc-lab-bench-'));
  try {
    const exe = join(dir, 'bench');
    const lab = readdirSync(join(ROOT, 'c/lab')).filter((f) => f.endsWith('.c')).map((f) => join(ROOT, 'c/lab', f));
    execFileSync(cc, ['-O3', '-march=native', '-std=c11', '-fno-math-errno', '-o', exe, join(ROOT, 'tests/lab/bench.c'), ...lab,
      ...['scaling.c', 'alibi.c', 'relative.c'].map((f) => join(ROOT, 'c', f)), '-lm'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const r = JSON.parse(execFileSync(exe, [String(repeats), String(steps)], { encoding: 'utf8' }));
    return { ...out, native: { ms: r.fixed_ms, tokensPerSecond: r.fixed_tokens_per_s, compiler: cc } };
  } catch (err) {
    return { ...out, native: { skipped: `${cc} could not build or run tests/lab/bench.c: ${String(err.stderr ?? err.message).split('\n')[0]}` } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
