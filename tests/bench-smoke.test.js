// The benchmarks are not tests (nothing here is timed); this only runs each bench script on
// one tiny case so that they cannot rot unnoticed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as M from './bench/uarch-model.js';

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
  assert.match(out, /^  pool of \d+ workers [\d.]+ s \([\d.]+× faster\), same bits: yes$/m, 'the lab\'s Train in a pool');
  if (!/^Core models: skipped: llvm-mca not found/m.test(out)) {
    assert.match(out, /^slowest interleaved \/ fastest half( +\d\.\d\d×)+$/m, 'the rotation loops on the core models');
    for (const k of ['posenc_rope_apply_table', 'posenc_rope_apply', 'posenc_rope_cache', 'posenc_sinusoidal']) {
      assert.match(out, new RegExp(`^${k} \\([1-9]\\d*\\)( +\\d\\.\\d\\d×)+$`, 'm'), `${k}'s loops on the core models`);
    }
  }
});

test('core models: the loops are found in a V8 listing and written as llvm-mca reads them', () => {
  const at = (off, text) => `0x2c8c95dd${(0x9b40 + off).toString(16)}   ${off.toString(16).padStart(4)}  c5fa6f   ${text}`;
  const listing = ['--- WebAssembly code ---', 'name: wasm-function[27]', 'index: 27', 'kind: wasm function', 'compiler: TurboFan',
    at(0x10, 'movl r14,[rbp-0x30]'),
    at(0x20, 'vmovdqu xmm4,[rcx+r8*1]'), at(0x26, 'vshufps xmm7,xmm5,xmm6,0xdd'), at(0x2b, 'vmulps xmm8,xmm4,xmm7'),
    at(0x30, 'vmovdqu [r11+rcx*1+0x10],xmm6'), at(0x36, 'addl r8,0x10'), at(0x3a, 'REX.W cmpq rsp,[rdi]'),
    at(0x3e, 'jc 0x2c8c95dd9b60  <+0x20>'), at(0x44, 'ret 0x20'),
    '--- WebAssembly code ---', 'name: wasm-function[28]', 'index: 28', 'kind: wasm function', 'compiler: Liftoff',
    at(0x20, 'vmulps xmm8,xmm4,xmm7'), at(0x30, 'jmp 0x2c8c95dd9b60  <+0x20>')].join('\n');
  const loops = M.turbofanCode(listing).flatMap(M.vectorLoops);
  assert.equal(loops.length, 1, 'the one loop of the optimized function (Liftoff code is left out)');
  assert.deepEqual(loops[0].map((c) => M.toIntel(c.text, '.L')), [
    'vmovdqu xmm4, xmmword ptr [rcx+r8*1]', 'vshufps xmm7, xmm5, xmm6, 0xdd', 'vmulps xmm8, xmm4, xmm7',
    'vmovdqu xmmword ptr [r11+rcx*1+0x10], xmm6', 'add r8, 0x10', 'cmp rsp, qword ptr [rdi]', 'jb .L']);
});

test('browser bench: one chart, two values per control, one page load', () => {
  const out = run('./bench/browser-bench.js', ['--smoke']);
  assert.match(out, /first chart drawn p50 [\d.]+ p95 [\d.]+/, out);
  assert.match(out, /^\S+ +\d+(?: +[\d.]+){5} +\| [\d.]+/m, 'a chart row with p50/p95 columns');
  assert.match(out, /redraws within 16 ms/);
  assert.match(out, /light embed \(module\) +[\d.]+ +\d+/, 'the light embed bench row');
  assert.match(out, /On a phone's slow link .*: first chart drawn [\d.]+ ms, after \d+ KB, which the link alone takes [\d.]+ ms/, 'the page over a slow link');
  assert.match(out, /over a phone's slow link .*: light embed drawn \d+ ms, one file \d+ ms/, 'the embed over a slow link');
});
