// lab-model.test.js: the C lab model (c/lab), built natively and run as programs:
// - tests/lab/gradcheck.c in float64 (-O3 -DLAB_F64): gradients against finite differences for
//   every parameter group and encoding, AdamW, determinism, T5 / xPos / ALiBi / scaling, bad
//   arguments, learning; it exits 1 on any failure;
// - tests/lab/run.c in float32 (-O3) against float64: the same seed trains to the same losses
//   within the tolerances below.
// (That the WASM SIMD and scalar builds train to the same bits is lab-api.test.js's, on the builds shipped.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const labDir = join(root, 'c', 'lab');
// c/lab and the two kernels whose rules it uses (T5 buckets and xPos in relative.c, ALiBi slopes)
const sources = [...readdirSync(labDir).filter((f) => f.endsWith('.c')).map((f) => join(labDir, f)),
  join(root, 'c', 'relative.c'), join(root, 'c', 'alibi.c')];
const cc = ['cc', 'clang'].find((c) => spawnSync(c, ['--version']).status === 0);
const dir = mkdtempSync(join(tmpdir(), 'posenc-lab-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

// The float64 builds are -O3, as the float32 one: without -ffast-math no -O level changes a
// floating-point result (no reassociation; gcc contracts no a*b+c to an FMA under -std=c11, clang
// contracts alike at every level), and -O3 runs them in a third of -O2's time. The lab's sources
// are compiled once per set of flags and linked with each driver.
const objects = new Map();
function labObjects(flags) {
  const key = flags.join(' ');
  if (!objects.has(key)) {
    const at = mkdtempSync(join(dir, 'obj-'));
    execFileSync(cc, ['-std=c11', ...flags, '-Wall', '-Wextra', '-Werror', '-c', ...sources], { cwd: at, stdio: 'pipe' });
    objects.set(key, sources.map((f) => join(at, basename(f, '.c') + '.o')));
  }
  return objects.get(key);
}
function build(name, flags, extra = []) {
  const out = join(dir, name);
  execFileSync(cc, ['-std=c11', ...flags, '-Wall', '-Wextra', '-Werror', '-o', out, ...extra, ...labObjects(flags), '-lm'],
    { stdio: 'pipe' });
  return out;
}
const run = (exe, args) => JSON.parse(execFileSync(exe, args, { encoding: 'utf8' }));
const runC = join(root, 'tests', 'lab', 'run.c');
let runners; // built once, for the two tests that use them
const F64 = ['-O3', '-DLAB_F64'];
const runBuilds = () => (runners ??= { f32: build('run32', ['-O3'], [runC]), f64: build('run64', F64, [runC]) });

test('a C compiler is there (cc, else clang)', () => assert.ok(cc, 'neither cc nor clang runs'));

test('gradient check in float64: every group of every encoding, AdamW, determinism, encodings, arguments', () => {
  const exe = build('gradcheck', F64,
    [join(root, 'tests', 'lab', 'gradcheck.c'), join(root, 'c', 'scaling.c')]);
  const r = spawnSync(exe, { encoding: 'utf8' });
  const out = r.stdout;
  assert.equal(r.status, 0, out.split('\n').filter((l) => l.startsWith('FAIL')).join('\n'));
  assert.match(out, /gradcheck: \d+ checks, 0 failed/);
  // 9 encodings (rope and xpos in both pair styles) and 3 scaled passes, each with all of its groups
  const grads = out.split('\n').filter((l) => l.startsWith('ok   grad'));
  assert.ok(grads.length >= 12 * 28, `only ${grads.length} gradient groups checked`);
  for (const group of ['tok_emb', 'pos_emb', 't5_bias', 'ln1_g.0', 'wqkv.1', 'w2.1', 'lnf_b', 'wh', 'bh'])
    assert.ok(grads.some((l) => l.includes(` ${group} `)), `no check of ${group}`);
  for (const label of ['rope-yarn', 'rope-pi', 'xpos-ntk']) assert.ok(grads.some((l) => l.includes(` ${label} `)), `no check of ${label}`);
});

// float32 against float64, same seed, 150 steps (past the 100 warm-up steps): every step's loss
// within 1e-5 relative, the evaluation at 1x within 0.01 token accuracy and 1e-4 relative loss.
// (Measured on x86-64: 1e-7, the float32 rounding of the printed loss itself.)
test('float32 build (-O3) trains like the float64 build', () => {
  const { f32, f64 } = runBuilds();
  for (const [task, enc] of [['kback', 'rope'], ['copy', 't5'], ['kback', 'xpos']]) {
    const args = [task, enc, '150', '3', '1', '128'];
    const a = run(f32, args), b = run(f64, args);
    assert.equal(a.f64, 0);
    assert.equal(b.f64, 1);
    a.losses.forEach((x, i) => {
      const y = b.losses[i];
      assert.ok(Math.abs(x - y) <= 1e-5 * Math.abs(y), `${task} ${enc} step ${i}: ${x} vs ${y}`);
    });
    const [ea, eb] = [a.eval[0], b.eval[0]];
    assert.ok(Math.abs(ea.token_acc - eb.token_acc) <= 0.01, `${task} ${enc}: ${ea.token_acc} vs ${eb.token_acc}`);
    assert.ok(Math.abs(ea.loss - eb.loss) <= 1e-4 * eb.loss, `${task} ${enc}: ${ea.loss} vs ${eb.loss}`);
  }
});

test('float32 build: one seed gives the same bits, another seed others', () => {
  const { f32 } = runBuilds();
  const a = run(f32, ['copy', 'alibi', '20', '5', '1', '16']), b = run(f32, ['copy', 'alibi', '20', '5', '1', '16']);
  const c = run(f32, ['copy', 'alibi', '20', '6', '1', '16']);
  assert.equal(a.hash, b.hash);
  assert.deepEqual(a.losses, b.losses);
  assert.notEqual(a.hash, c.hash);
});

// build.sh compiles c/lab into both posenc builds; c/exports.txt lists the lab's functions in a
// block after the kernels', in lab.h's order (c/posenc.h says so).
test('every posenc_lab_ function of lab.h is exported by both builds, and every lab export is declared', () => {
  const header = readFileSync(join(labDir, 'lab.h'), 'utf8');
  const declared = [...header.matchAll(/^\w[\w ]*?\**\s*\b(posenc_lab_\w+)\(/gm)].map((m) => m[1]);
  const list = readFileSync(join(root, 'c', 'exports.txt'), 'utf8').split('\n').filter(Boolean);
  const listed = list.filter((n) => n.startsWith('posenc_lab_'));
  assert.ok(declared.length >= 15, `only ${declared.length} declarations found in lab.h`);
  assert.deepEqual(listed, declared, 'exports.txt lists lab.h\'s functions, in its order');
  const first = list.indexOf(listed[0]);
  assert.deepEqual(list.slice(first, first + listed.length), listed, 'one block');
  for (const file of ['posenc.wasm', 'posenc-scalar.wasm']) {
    const path = join(root, 'web', 'build', file);
    const names = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(path))).map((e) => e.name);
    const exported = names.filter((n) => n.startsWith('posenc_lab_'));
    assert.deepEqual(exported.toSorted(), declared.toSorted(), `${file} exports exactly lab.h's functions`);
  }
});
