// The benchmarks are not tests (nothing here is timed); this only runs each bench script on
// one tiny case so that they cannot rot unnoticed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const run = (script, args) =>
  execFileSync(process.execPath, [fileURLToPath(new URL(script, import.meta.url)), ...args], { encoding: 'utf8', timeout: 120_000 });

test('node bench: one tiny case, one repetition, prints times, ratios, errors and sizes', () => {
  const out = run('./bench/node-bench.js', ['--smoke']);
  const line = out.split('\n').find((l) => l.startsWith('rope 4×2×16 interleaved table out of place'));
  assert.ok(line, out);
  assert.ok((line.match(/\d\.\d\d×/g) ?? []).length >= 3, `ratio columns: ${line}`);
  assert.match(line, /\| \d\.\de[-+]\d/, 'error column');
  assert.match(out, /posenc\.wasm +\d+ B, gzip -9 +\d+ B/);
  assert.match(out, /HOLDS +max error vs float64/);
});

test('browser bench: one chart, two values per control, one page load', () => {
  const out = run('./bench/browser-bench.js', ['--smoke']);
  assert.match(out, /first chart drawn p50 [\d.]+ p95 [\d.]+/, out);
  assert.match(out, /^\S+ +\d+(?: +[\d.]+){5} +\| [\d.]+/m, 'a chart row with p50/p95 columns');
  assert.match(out, /redraws within 16 ms/);
});
