// huge-pages.js: the public-API cases again, in a child process whose malloc asks the kernel
// for transparent huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, glibc 2.35 and later). A
// call without `out` returns a new array, and the first touch of each page of it faults: once
// per 4 KiB by default, once per 2 MiB with huge pages. Node takes the setting only at start.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const TUNABLE = 'glibc.malloc.hugetlb=1';

/** Why huge pages cannot be asked for here, or null when they can. */
export function unavailable() {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`;
  const glibc = process.report.getReport().header.glibcVersionRuntime;
  const [major, minor] = (glibc ?? '0.0').split('.').map(Number);
  if (!glibc || major < 2 || (major === 2 && minor < 35)) return `glibc ${glibc ?? 'not found'} (2.35 or later takes ${TUNABLE})`;
  try {
    if (/\[never\]/.test(readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'))) return 'transparent huge pages are off (never)';
  } catch {
    return 'no /sys/kernel/mm/transparent_hugepage';
  }
  return null;
}

/**
 * Runs node-bench.js with `args` and --json in a child with the tunable set: its { apiRows,
 * sinApiRows }, or { skipped: why }.
 */
export function withHugePages(args) {
  const why = unavailable();
  if (why) return { skipped: why };
  const script = fileURLToPath(new URL('./node-bench.js', import.meta.url));
  const env = { ...process.env, GLIBC_TUNABLES: [process.env.GLIBC_TUNABLES, TUNABLE].filter(Boolean).join(':') };
  const out = execFileSync(process.execPath, [script, ...args, '--json'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 22 });
  return JSON.parse(out);
}
