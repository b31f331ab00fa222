// lab-bench.js: tokens per second of a training step of the lab's default model (2 layers,
// d_model 32, 4 heads, batch 32 × 16 tokens of k-back; loss and gradient, then AdamW) in the WASM
// SIMD build, the scalar build, and the same C compiled natively (-O3 -march=native), with one
// protocol (tests/lab/bench-wasm.mjs and tests/lab/bench.c): the minimum over repeats of the mean
// of a run of steps. And the page's default Train (every encoding on k-back, 400 steps) in
// web/lab/pool.js's pool, its workers Node's worker_threads running the page's trainer: one
// worker, then one per core.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { trainPool, poolSize } from '../../web/lab/pool.js';
import { ENCODINGS } from '../../web/lab/run.js';

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

/** A worker_threads Worker of lab-pool-worker.js with a web Worker's face, as pool.js spawns them. */
function spawnNode() {
  const w = new Worker(new URL('./lab-pool-worker.js', import.meta.url));
  const face = { onmessage: null, onerror: null, postMessage: (m) => w.postMessage(m), terminate: () => void w.terminate() };
  w.on('message', (data) => face.onmessage?.({ data }));
  w.on('error', (err) => face.onerror?.(err));
  return face;
}

/**
 * The default Train in one worker and in a pool of one worker per core (cores: the machine's),
 * in turns (one, pool, one, pool, …: `repeats` of each; the fastest of each counts): { cores,
 * workers, one: { ms, runs: { encoding: ms } }, pool: { ms }, slowest: { encoding, ms }, rest
 * (the other runs' ms together), target (1.3 slowest + rest / cores), sameBits }.
 */
export async function labPoolBench({ settings = { task: 'kback', steps: 400, seed: 1 }, cores = availableParallelism(), repeats = 2 } = {}) {
  const timed = async (size) => {
    const t0 = performance.now();
    const pool = trainPool(settings, { spawn: spawnNode, size });
    const runs = await pool.done;
    return { ms: performance.now() - t0, runs, times: pool.times, workers: pool.workers };
  };
  let one = null, many = null;
  for (let r = 0; r < repeats; r++) {
    const a = await timed(1), b = await timed(poolSize(ENCODINGS.length, cores));
    if (!one || a.ms < one.ms) one = a;
    if (!many || b.ms < many.ms) many = b;
  }
  const [encoding, slowest] = [...one.times].reduce((a, b) => (b[1] > a[1] ? b : a));
  const rest = [...one.times.values()].reduce((a, b) => a + b, 0) - slowest;
  const bits = (runs) => JSON.stringify(runs.map((r) => [r.encoding, Array.from(new Uint32Array(r.loss.buffer)), r.evaluation, r.scaled]));
  return {
    cores, repeats, workers: many.workers, one: { ms: one.ms, runs: Object.fromEntries(one.times) }, pool: { ms: many.ms },
    slowest: { encoding, ms: slowest }, rest, target: 1.3 * slowest + rest / cores, sameBits: bits(one.runs) === bits(many.runs),
  };
}
