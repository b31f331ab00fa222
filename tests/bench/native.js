// native.js: builds tests/bench/native-bench.c with c/*.c natively (-O3 -march=native) in a
// temp dir and runs it as a child process: the ceiling the WASM builds are compared with.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function findCompiler() {
  for (const cc of [process.env.CC, 'gcc', 'clang', 'cc'].filter(Boolean)) {
    try {
      const v = execFileSync(cc, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      return { cc, version: v.split('\n')[0] };
    } catch {
      // not installed: try the next one
    }
  }
  return null;
}

/**
 * Times `specs` (see native-bench.c) natively. Returns { compiler, ms: Map spec -> ms } or
 * { skipped: reason } when there is no C compiler or the build fails.
 */
export function runNative(specs, { reps, minMs }) {
  const found = findCompiler();
  if (!found) return { skipped: 'no C compiler found (tried $CC, gcc, clang, cc)' };
  const dir = mkdtempSync(join(tmpdir(), 'posenc-native-'));
  try {
    const exe = join(dir, 'native-bench');
    const sources = readdirSync(join(ROOT, 'c')).filter((f) => f.endsWith('.c')).map((f) => join(ROOT, 'c', f));
    try {
      execFileSync(found.cc, ['-O3', '-march=native', '-std=c11', '-fno-math-errno', '-o', exe,
        join(ROOT, 'tests/bench/native-bench.c'), ...sources, '-lm'], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (err) {
      return { skipped: `${found.cc} could not build the native driver: ${String(err.stderr ?? err).split('\n')[0]}` };
    }
    const out = execFileSync(exe, [String(reps), String(minMs), ...specs], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const ms = new Map();
    for (const line of out.trim().split('\n')) {
      const [spec, value] = line.split(' ');
      if (Number.isFinite(Number(value))) ms.set(spec, Number(value));
    }
    return { compiler: found.version, ms };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
