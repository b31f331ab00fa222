// node-bench.js: `npm run bench`. One Node process times every case on the WASM SIMD build,
// the scalar build, plain JS as a demo author writes it, and a memory copy of the same bytes
// (the floor), then runs the same C compiled natively as a child process. Per case it prints
// the median of the repetitions, the ratios, and the largest error against float64.
//
//   node tests/bench/node-bench.js [--reps=N] [--min-ms=MS] [--only=TEXT] [--no-native] [--smoke] [--json]
// --smoke: one tiny case, one repetition, no native build, two core models (for tests/bench-smoke.test.js).
// --json: the public-API cases alone, printed as JSON (huge-pages.js runs them so in a child).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { cpus, loadavg } from 'node:os';
import { instantiate, BLOCK_BYTES } from '../../web/lib/heap.js';
import { loadPosenc } from '../../web/lib/posenc.js';
import * as JS from './js-baselines.js';
import { labBench, labPoolBench } from './lab-bench.js';
import { runNative } from './native.js';
import { wasmCopy } from './wasm-copy.js';
import { withHugePages, TUNABLE } from './huge-pages.js';
import { coreModels, printModels, worstRatio, llvmMca, CPUS, NO_MCA } from './uarch-model.js';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const opt = (name, def) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const SMOKE = flag('smoke');
const REPS = Number(opt('reps', SMOKE ? 1 : 7));
const MIN_MS = Number(opt('min-ms', SMOKE ? 0 : 30)); // each repetition runs calls for at least this long
// the core models: --smoke runs llvm-mca on two of them (the base and an AMD one), the same code for
// 2/5 of its runs (a run per loop and core, ~60 ms each)
const MODEL_CPUS = SMOKE ? [CPUS[0], CPUS.at(-1)] : CPUS;
const ONLY = opt('only', '');
const JSON_OUT = flag('json');
const STYLE = { interleaved: 0, half: 1 };
const BUILD = new URL('../../web/build/', import.meta.url);
const log = (s) => process.stderr.write(s + '\n');

// ---- timing ----

/**
 * Median time per call (ms) of each function in `fns` ({ name: fn }; falsy entries skipped).
 * Repetitions are taken in turn (A B C A B C ...) so that load from other processes on this
 * 2-core machine falls on all of them alike; each repetition lasts >= MIN_MS and starts with
 * one untimed call, so that no implementation pays for the caches the previous one filled
 * (the tensors here fit this machine's L3: a cold first call took 2x the warm ones).
 * The minima of the same repetitions are left in lastMinima.
 */
function timeAll(fns) {
  const names = Object.keys(fns).filter((k) => fns[k]);
  const calls = {}, ts = {};
  for (const k of names) {
    fns[k](); // warm-up: JIT tiers, page faults
    const t0 = performance.now();
    fns[k]();
    const one = performance.now() - t0;
    calls[k] = one >= MIN_MS ? 1 : Math.ceil(MIN_MS / Math.max(one, 1e-3));
    ts[k] = [];
  }
  for (let r = 0; r < REPS; r++) {
    for (const k of names) {
      const fn = fns[k], n = calls[k];
      fn();
      const t0 = performance.now();
      for (let c = 0; c < n; c++) fn();
      ts[k].push((performance.now() - t0) / n);
    }
  }
  const med = {}, min = {};
  for (const k of names) {
    ts[k].sort((x, y) => x - y);
    med[k] = ts[k][Math.floor(REPS / 2)];
    min[k] = ts[k][0];
  }
  lastMinima = min;
  return med;
}
let lastMinima = {}; // the minima of timeAll's last call (the side-by-side ratios below use them)

function ok(rc, what) {
  if (rc !== 0) throw new Error(`${what} returned ${rc}`);
}

// ---- buffers in a wasm heap ----

/** Allocates named typed arrays in `heap`; views are re-taken on each access (growth). */
function arena(heap) {
  const ptrs = [];
  return {
    alloc(Type, n) {
      const p = heap.fn.malloc(n * Type.BYTES_PER_ELEMENT);
      if (!p) throw new RangeError(`bench: out of wasm memory (${n} × ${Type.name})`);
      ptrs.push(p);
      return p;
    },
    view: (Type, p, n) => new Type(heap.memory.buffer, p, n),
    free: () => ptrs.splice(0).forEach((p) => heap.fn.free(p)),
  };
}

function inputX(n) {
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = ((Math.imul(i, 2654435761) >>> 0) % 2001) / 1000 - 1;
  return x;
}

/** A RoPE kernel call set up in `heap`: { run, reset, output, free }. */
function ropeKernel(heap, { seq, heads, hd, style, mode, place, x, positions }) {
  const a = arena(heap), f = heap.fn, n = seq * heads * hd, half = hd / 2;
  const px = a.alloc(Float32Array, n), py = place === 'in' ? px : a.alloc(Float32Array, n);
  const pc = a.alloc(Float32Array, seq * half), ps = a.alloc(Float32Array, seq * half);
  const ppos = a.alloc(Float64Array, seq), pw = a.alloc(Float64Array, half);
  a.view(Float64Array, ppos, seq).set(positions);
  ok(f.posenc_rope_inv_freq(pw, hd, 10000), 'posenc_rope_inv_freq');
  ok(f.posenc_rope_cache(pc, ps, ppos, seq, pw, half, 1), 'posenc_rope_cache');
  const reset = () => a.view(Float32Array, px, n).set(x);
  reset();
  if (place === 'out') a.view(Float32Array, py, n).fill(0);
  const st = STYLE[style];
  const run = mode === 'table'
    ? () => f.posenc_rope_apply_table(py, px, seq, heads, hd, hd, st, pc, ps)
    : () => f.posenc_rope_apply(py, px, seq, heads, hd, hd, st, ppos, pw, 1);
  return { run, reset, output: () => a.view(Float32Array, py, n).slice(), free: a.free, px, py, pc, ps, ppos };
}

// ---- the cases ----

const results = []; // { group, name, simd, scalar, jsTable, jsMath, floorJs, floorWasm, native, err, errScalar, ulps }
const apiRows = [];
const sinApiRows = [];
const precision = [];

function wanted(name) {
  return !ONLY || name.includes(ONLY);
}

function ropeCases(heaps, shapes) {
  for (const [seq, heads, hd] of shapes) {
    const n = seq * heads * hd, x = inputX(n);
    const positions = Float64Array.from({ length: seq }, (_, i) => i);
    const shape = `${seq}×${heads}×${hd}`;
    const variants = [];
    for (const style of ['interleaved', 'half']) for (const mode of ['table', 'fused']) for (const place of ['out', 'in']) {
      const name = `rope ${shape} ${style} ${mode} ${place === 'in' ? 'in place' : 'out of place'}`;
      if (wanted(name)) variants.push({ style, mode, place, name });
    }
    if (!variants.length) continue;
    log(`rope ${shape}`);
    // floors: a copy of the same bytes, in JS and inside the SIMD heap. The wasm copies read the
    // SIMD kernel's own x and write its own output (a spare buffer when in place): a large
    // shared L3 can hold these tensors, so other buffers would compare cache states.
    const src = x.slice(), dst = new Float32Array(n);
    const fa = arena(heaps.simd), spare = fa.alloc(Float32Array, n);
    const mc = wasmCopy(heaps.simd.memory);
    const tab = JS.ropeTableJS(seq, hd), w = JS.invFreq(hd);
    for (const c of variants) {
      const k = { simd: ropeKernel(heaps.simd, { seq, heads, hd, ...c, x, positions }),
        scalar: ropeKernel(heaps.scalar, { seq, heads, hd, ...c, x, positions }) };
      const outs = {};
      for (const build of ['simd', 'scalar']) {
        ok(k[build].run(), c.name);
        outs[build] = k[build].output();
      }
      const xs = x.slice(), out = c.place === 'in' ? xs : new Float32Array(n);
      const js = c.mode === 'table'
        ? () => JS.ropeWithTableJS(out, xs, seq, heads, hd, c.style, tab.cos, tab.sin)
        : () => JS.ropeMathJS(out, xs, seq, heads, hd, c.style, positions, w);
      const p0 = k.simd.px, p1 = c.place === 'out' ? k.simd.py : spare;
      // Three groups: the SIMD kernel beside the wasm copies of its own buffers; the scalar
      // build; JS beside Float32Array.set. At 2048x32x128 each group is timed on its own:
      // interleaving all of them made the memory-bound SIMD kernel 2x slower out of place (the
      // others' 200 MB evict its pages and page tables between calls), which no caller would
      // see. Tensors of up to 256 KiB leave every group's buffers in this machine's L2, so the
      // groups are interleaved: load from other processes then falls on SIMD and JS alike
      // (timed apart, 512x1x64's JS / SIMD ratio swung between 6x and 10x with the load).
      const groups = [
        { simd: k.simd.run, floorWasm: () => mc.copy(p1, p0, 4 * n), floorLoop: n % 4 ? null : () => mc.stream(p1, p0, 4 * n) },
        { scalar: k.scalar.run },
        { js, floorJs: () => dst.set(src) },
      ];
      const t = 4 * n <= 256 * 1024 ? timeAll(Object.assign({}, ...groups)) : Object.assign({}, ...groups.map(timeAll));
      k.simd.free();
      k.scalar.free();
      results.push({ group: 'rope', name: c.name, simd: t.simd, scalar: t.scalar,
        [c.mode === 'table' ? 'jsTable' : 'jsMath']: t.js, floorJs: t.floorJs, floorWasm: t.floorWasm, floorLoop: t.floorLoop,
        native: `rope:${seq}:${heads}:${hd}:${c.style}:${c.mode}:${c.place}`,
        err: JS.ropeError(outs.simd, x, seq, heads, hd, c.style, positions),
        errScalar: JS.ropeError(outs.scalar, x, seq, heads, hd, c.style, positions),
        ulps: JS.maxUlps(outs.simd, outs.scalar) });
    }
    fa.free();
  }
}

function cacheCase(heaps, seq, hd) {
  const name = `rope cache ${seq}×${hd / 2} pairs`;
  if (!wanted(name)) return;
  log(name);
  const half = hd / 2, positions = Float64Array.from({ length: seq }, (_, i) => i);
  const outs = {}, runs = {}, arenas = [];
  for (const build of ['simd', 'scalar']) {
    const a = arena(heaps[build]), f = heaps[build].fn;
    arenas.push(a);
    const pc = a.alloc(Float32Array, seq * half), ps = a.alloc(Float32Array, seq * half);
    const ppos = a.alloc(Float64Array, seq), pw = a.alloc(Float64Array, half);
    a.view(Float64Array, ppos, seq).set(positions);
    ok(f.posenc_rope_inv_freq(pw, hd, 10000), 'inv_freq');
    runs[build] = () => f.posenc_rope_cache(pc, ps, ppos, seq, pw, half, 1);
    ok(runs[build](), name);
    outs[build] = [a.view(Float32Array, pc, seq * half).slice(), a.view(Float32Array, ps, seq * half).slice()];
  }
  const t = timeAll({ ...runs, js: () => JS.ropeTableJS(seq, hd) });
  arenas.forEach((a) => a.free());
  results.push({ group: 'cache', name, simd: t.simd, scalar: t.scalar, jsMath: t.js,
    err: JS.cacheError(...outs.simd, positions, hd), errScalar: JS.cacheError(...outs.scalar, positions, hd),
    ulps: Math.max(JS.maxUlps(outs.simd[0], outs.scalar[0]), JS.maxUlps(outs.simd[1], outs.scalar[1])) });
}

/**
 * What a call without `out` pays beyond one with it: a new array of the result's size written
 * once (V8 hands out fresh pages, and every first touch of one faults), against writing the
 * same bytes into `out`, which the caller allocated once. { fresh, warm }: ms per call.
 */
function freshMemory(out) {
  const { fresh, warm } = timeAll({ fresh: () => new Float32Array(out.length).fill(0.5), warm: () => out.fill(0.5) });
  return { fresh, warm };
}

/** The public sinusoidal(): copying and with `out`, beside the kernel alone (whole table in the heap) and plain JS, in turn. */
function sinusoidalApiCase(pe, heaps, length, dim) {
  const name = `api sinusoidal ${length}×${dim}`;
  if (!wanted(name) && !wanted('api')) return;
  log(name);
  const n = length * dim, a = arena(heaps.simd), p = a.alloc(Float32Array, n), f = heaps.simd.fn;
  const out = new Float32Array(n), js = new Float32Array(n);
  const t = timeAll({
    api: () => pe.sinusoidal(length, dim), apiOut: () => pe.sinusoidal(length, dim, { out }),
    kernel: () => f.posenc_sinusoidal(p, length, dim, 10000, 0, 0), js: () => JS.sinusoidalJS(js, length, dim),
  });
  Object.assign(t, freshMemory(out));
  const same = JS.maxUlps(pe.sinusoidal(length, dim), a.view(Float32Array, p, n)) === 0;
  a.free();
  sinApiRows.push({ shape: `${length}×${dim}`, same, ...t });
}

function sinusoidalCase(heaps, length, dim) {
  const name = `sinusoidal ${length}×${dim}`;
  if (!wanted(name)) return;
  log(name);
  const n = length * dim;
  const outs = {}, runs = {}, arenas = [];
  let fill;
  for (const build of ['simd', 'scalar']) {
    const a = arena(heaps[build]), f = heaps[build].fn, p = a.alloc(Float32Array, n);
    arenas.push(a);
    runs[build] = () => f.posenc_sinusoidal(p, length, dim, 10000, 0, 0);
    ok(runs[build](), name);
    outs[build] = a.view(Float32Array, p, n).slice();
    if (build === 'simd') {
      const q = a.alloc(Float32Array, n), mc = wasmCopy(heaps.simd.memory);
      fill = () => mc.fill(q, 0, 4 * n);
    }
  }
  const out = new Float32Array(n), other = new Float32Array(n);
  const t = timeAll({ ...runs, js: () => JS.sinusoidalJS(out, length, dim), floorJs: () => other.fill(1), floorWasm: fill });
  arenas.forEach((a) => a.free());
  // both builds round the angle (start + r) w_i to float64: up to length * 2^-51 apart, which
  // shows only in values near zero; agreement is counted beyond that (as tests/builds.test.js)
  results.push({ group: 'sinusoidal', name, simd: t.simd, scalar: t.scalar, jsMath: t.js, floorJs: t.floorJs,
    floorWasm: t.floorWasm, floorKind: 'fill', native: `sin:${length}:${dim}`,
    err: JS.sinusoidalError(outs.simd, length, dim), errScalar: JS.sinusoidalError(outs.scalar, length, dim),
    ulps: JS.maxUlps(outs.simd, outs.scalar, length * 2 ** -51) });
}

function decayCase(heaps, n, dim, spacing) {
  const name = `decay ${n} ${spacing === 'log' ? 'log-spaced ' : ''}distances d=${dim}`;
  if (!wanted(name)) return;
  log(name);
  const half = dim / 2, w = JS.invFreq(dim);
  const d = Float64Array.from({ length: n }, (_, i) => (spacing === 'log' ? 10 ** ((6 * i) / (n - 1)) : i));
  const out = new Float64Array(n);
  const outs = {}, runs = {}, arenas = [];
  for (const build of ['simd', 'scalar']) {
    const a = arena(heaps[build]), f = heaps[build].fn;
    arenas.push(a);
    const pd = a.alloc(Float64Array, n), pw = a.alloc(Float64Array, half), po = a.alloc(Float64Array, n);
    a.view(Float64Array, pd, n).set(d);
    ok(f.posenc_rope_inv_freq(pw, dim, 10000), 'inv_freq');
    runs[build] = () => f.posenc_rope_decay_ones(po, pd, n, pw, half);
    ok(runs[build](), name);
    outs[build] = a.view(Float64Array, po, n).slice();
  }
  const t = timeAll({ ...runs, js: () => JS.decayOnesJS(out, d, w) });
  arenas.forEach((a) => a.free());
  results.push({ group: 'decay', name, simd: t.simd, scalar: t.scalar, jsMath: t.js, native: `decay:${n}:${dim}:${spacing}`,
    err: JS.decayError(outs.simd, d, w), errScalar: JS.decayError(outs.scalar, d, w) });
}

const progressionRows = [];
const styleRows = [];

/** n positions: 0..n-1, or the same numbers permuted (not a progression: the direct path). */
function positionsOf(n, order) {
  const p = Float64Array.from({ length: n }, (_, i) => i);
  if (order === 'permuted') for (let i = 0; i < n; i++) p[i] = (i * 7919) % n; // a permutation: 7919 is a prime no n here divides
  return p;
}

/**
 * Positions in arithmetic progression (0..n-1: the cache and fused kernels' rotation recurrence)
 * beside the same positions permuted (the direct path), on the same buffers in one timeAll, SIMD
 * and scalar builds. Minima of the repetitions; err against float64, ulps SIMD vs scalar.
 */
function progressionCases(heaps, cases) {
  for (const c of cases) {
    const label = c.kind === 'cache' ? `rope cache ${c.seq}×${c.hd / 2} pairs` : `rope fused ${c.seq}×${c.heads}×${c.hd} ${c.style} ${c.place === 'in' ? 'in place' : 'out of place'}`;
    if (!wanted(label) && !wanted('progression')) continue;
    log(`${label}: 0..n-1 and permuted`);
    const { seq, hd } = c, half = hd / 2, heads = c.heads ?? 1, n = seq * heads * hd, x = inputX(n);
    const fns = {}, outs = {}, arenas = [], pos = { prog: positionsOf(seq, 'progression'), perm: positionsOf(seq, 'permuted') };
    for (const build of ['simd', 'scalar']) {
      const a = arena(heaps[build]), f = heaps[build].fn;
      arenas.push(a);
      const pw = a.alloc(Float64Array, half);
      ok(f.posenc_rope_inv_freq(pw, hd, 10000), 'inv_freq');
      const pc = a.alloc(Float32Array, seq * half), ps = a.alloc(Float32Array, seq * half);
      const px = c.kind === 'cache' ? 0 : a.alloc(Float32Array, n), py = c.kind === 'cache' || c.place === 'in' ? px : a.alloc(Float32Array, n);
      for (const order of ['prog', 'perm']) {
        const pp = a.alloc(Float64Array, seq);
        a.view(Float64Array, pp, seq).set(pos[order]);
        const run = c.kind === 'cache'
          ? () => f.posenc_rope_cache(pc, ps, pp, seq, pw, half, 1)
          : () => f.posenc_rope_apply(py, px, seq, heads, hd, hd, STYLE[c.style], pp, pw, 1);
        if (px) a.view(Float32Array, px, n).set(x);
        ok(run(), label);
        outs[`${build} ${order}`] = c.kind === 'cache'
          ? [a.view(Float32Array, pc, seq * half).slice(), a.view(Float32Array, ps, seq * half).slice()]
          : [a.view(Float32Array, py, n).slice()];
        fns[`${build} ${order}`] = run; // in place: x turns on every call (the time does not depend on it)
      }
    }
    // as in ropeCases: past 256 KiB each build is timed on its own (the other heap's tensors,
    // timed in between, made 2048x32x128 from 0..n-1 1.6x slower here than timed alone)
    const t = {};
    if (4 * Math.max(n, seq * half) <= 256 * 1024) timeAll(fns), Object.assign(t, lastMinima);
    else for (const build of ['simd', 'scalar']) timeAll({ [`${build} prog`]: fns[`${build} prog`], [`${build} perm`]: fns[`${build} perm`] }), Object.assign(t, lastMinima);
    arenas.forEach((a) => a.free());
    const err = (k) => (c.kind === 'cache' ? JS.cacheError(...outs[k], pos[k.split(' ')[1]], hd)
      : JS.ropeError(outs[k][0], x, seq, heads, hd, c.style, pos[k.split(' ')[1]]));
    const ulps = Math.max(...['prog', 'perm'].flatMap((o) => outs[`simd ${o}`].map((v, i) => JS.maxUlps(v, outs[`scalar ${o}`][i]))));
    progressionRows.push({ name: label, t, ulps, err: Math.max(err('simd prog'), err('simd perm'), err('scalar prog'), err('scalar perm')) });
  }
}

/**
 * Interleaved against half on the same x, tables and output, in place and out of place, the four
 * timed in turn in one timeAll (SIMD build, tables given). Minima of the repetitions.
 */
function styleCases(heaps, shapes) {
  for (const [seq, heads, hd] of shapes) {
    const name = `interleaved / half ${seq}×${heads}×${hd}`;
    if (!wanted(name) && !wanted('interleaved / half')) continue;
    log(name);
    const a = arena(heaps.simd), f = heaps.simd.fn, n = seq * heads * hd, half = hd / 2;
    const px = a.alloc(Float32Array, n), py = a.alloc(Float32Array, n);
    const pc = a.alloc(Float32Array, seq * half), ps = a.alloc(Float32Array, seq * half);
    const pp = a.alloc(Float64Array, seq), pw = a.alloc(Float64Array, half);
    a.view(Float64Array, pp, seq).set(positionsOf(seq, 'progression'));
    ok(f.posenc_rope_inv_freq(pw, hd, 10000), 'inv_freq');
    ok(f.posenc_rope_cache(pc, ps, pp, seq, pw, half, 1), 'cache');
    a.view(Float32Array, px, n).set(inputX(n));
    const fns = {};
    for (const style of ['interleaved', 'half']) for (const place of ['in', 'out'])
      fns[`${style} ${place}`] = () => f.posenc_rope_apply_table(place === 'in' ? px : py, px, seq, heads, hd, hd, STYLE[style], pc, ps);
    timeAll(fns);
    const t = lastMinima;
    a.free();
    styleRows.push({ shape: `${seq}×${heads}×${hd}`, t });
  }
}

/**
 * What a caller of the public API gets, per RoPE shape (pairs 'half'; positions 0..seq-1):
 * applyRope with positions (copying, and with `out`), with a cos/sin table (copying, with
 * `out`), applyRopeInPlace on tensors (positions; table in both styles), beside the kernel the
 * API runs (in place on its heap copy, buffers already in the heap), the copies a copying call
 * cannot avoid (x into the heap and the result out into `out`, block by block) and plain JS
 * with a table computed beforehand. Tensors up to 256 KiB: all in turn. Larger ones: each
 * function alone, so that none pays for refilling the cache after another's buffers (this
 * machine's L3, 480 MiB shared with other jobs, keeps a 33.6 MB buffer used call after call;
 * two in-place kernels taking turns on two such buffers took 1.3x their time alone).
 */
function apiCases(pe, heaps, shapes) {
  for (const [seq, heads, hd] of shapes) {
    const shape = `${seq}×${heads}×${hd}`;
    if (!wanted(`api ${shape}`) && !wanted('api')) continue;
    log(`api ${shape}`);
    const n = seq * heads * hd, x = inputX(n);
    const positions = Array.from({ length: seq }, (_, i) => i);
    const kf = ropeKernel(heaps.simd, { seq, heads, hd, style: 'half', mode: 'fused', place: 'in', x, positions });
    const kt = ropeKernel(heaps.simd, { seq, heads, hd, style: 'half', mode: 'table', place: 'in', x, positions });
    const f = heaps.simd.fn, mem = heaps.simd.memory, out = new Float32Array(n);
    // the copies, done as the API does them: BLOCK_BYTES of rows at a time (x, and for the table
    // path cos and sin), each block copied in and (x) copied out while in cache, the positions
    // whole; nothing is scanned (the rotation checks x, cos and sin; these positions are checked)
    const cache = pe.ropeCache(positions, hd), half = hd / 2, scratch = arena(heaps.simd), pos64 = Float64Array.from(positions);
    const blocked = (withTable) => {
      const rowBytes = 4 * heads * hd + (withTable ? 4 * hd : 0), nb = Math.max(1, Math.min(seq, Math.floor(BLOCK_BYTES / rowBytes)));
      const parts = [[x, heads * hd], ...(withTable ? [[cache.cos, half], [cache.sin, half]] : [])]
        .map(([a, per]) => [a, per, scratch.alloc(a.constructor, nb * per)]);
      const pp = scratch.alloc(Float64Array, seq);
      return () => {
        if (!withTable) new Float64Array(mem.buffer, pp, seq).set(pos64);
        for (let r0 = 0; r0 < seq; r0 += nb) {
          const nr = Math.min(nb, seq - r0);
          for (const [a, per, p] of parts) new a.constructor(mem.buffer, p, nr * per).set(a.subarray(r0 * per, (r0 + nr) * per));
          out.set(new Float32Array(mem.buffer, parts[0][2], nr * heads * hd), r0 * heads * hd);
        }
      };
    };
    const copies = blocked(false), copiesTable = blocked(true);
    // the pass that checks every value before a caller's out is written, when x spans more than
    // one block: each block of x (and cos and sin) copied into the heap again and scanned
    const scanPass = (withTable) => {
      const nb = Math.max(1, Math.min(seq, Math.floor(BLOCK_BYTES / (4 * heads * hd + (withTable ? 4 * hd : 0)))));
      if (nb >= seq) return undefined;
      const parts = [[x, heads * hd], ...(withTable ? [[cache.cos, half], [cache.sin, half]] : [])].map(([a, per]) => [a, per, scratch.alloc(Float32Array, nb * per)]);
      return () => {
        for (let r0 = 0; r0 < seq; r0 += nb) {
          const nr = Math.min(nb, seq - r0);
          for (const [a, per, p] of parts) {
            new Float32Array(mem.buffer, p, nr * per).set(a.subarray(r0 * per, (r0 + nr) * per));
            if (f.posenc_first_invalid_f32(p, nr * per, -Infinity, Infinity) !== nr * per) throw new Error('bench: a value is not finite');
          }
        }
      };
    };
    const scan = scanPass(false), scanTable = scanPass(true);
    const t = pe.tensor(x), cos = pe.tensor(cache.cos), sin = pe.tensor(cache.sin);
    // A decode step (one row) advances its position on every call, as a model generating text
    // does, so no call repeats the last one's positions; longer calls rotate 0..seq-1 each time.
    // Options objects are written at the call, as callers write them.
    let step = 0;
    const at = seq === 1 ? () => [step++ & 4095] : () => positions;
    // ... and its kernel runs at the same positions (larger angles cost the sincos more than 0 does)
    let kstep = 0, kpos = null;
    const kernelFused = seq === 1 ? () => {
      if (!kpos || kpos.length === 0) kpos = new Float64Array(heaps.simd.memory.buffer, kf.ppos, 1);
      kpos[0] = kstep++ & 4095;
      return kf.run();
    } : kf.run;
    const o = { heads, headDim: hd, style: 'half', positions };
    const ot = { heads, headDim: hd, style: 'half', cos: cache.cos, sin: cache.sin }, otOut = { ...ot, out };
    const tt = { heads, headDim: hd, style: 'half', cos, sin }, ti = { ...tt, style: 'interleaved' };
    const xs = x.slice(), jsOut = new Float32Array(n), tab = JS.ropeTableJS(seq, hd);
    const all = {
      kernelFused, kernelTable: kt.run,
      copies, copiesTable, scan, scanTable,
      api: () => pe.applyRope(x, { heads, headDim: hd, style: 'half', positions: at() }),
      apiOut: () => pe.applyRope(x, { heads, headDim: hd, style: 'half', positions: at(), out }),
      table: () => pe.applyRope(x, ot), tableOut: () => pe.applyRope(x, otOut),
      inPlace: () => pe.applyRopeInPlace(t, { heads, headDim: hd, style: 'half', positions: at() }), inPlaceTable: () => pe.applyRopeInPlace(t, tt),
      inPlaceTableIl: () => pe.applyRopeInPlace(t, ti),
      js: () => JS.ropeWithTableJS(jsOut, xs, seq, heads, hd, 'half', tab.cos, tab.sin),
    };
    const r = 4 * n <= 256 * 1024 ? timeAll(all) : Object.assign({}, ...Object.entries(all).map(([k, fn]) => timeAll({ [k]: fn })));
    Object.assign(r, freshMemory(out));
    // the API's results are the kernel's, bit for bit
    new Float64Array(heaps.simd.memory.buffer, kf.ppos, seq).set(positions); // (the decode kernel moved on)
    const same = JS.maxUlps(pe.applyRope(x, o), (kf.reset(), kf.run(), kf.output())) === 0
      && JS.maxUlps(pe.applyRope(x, ot), (kt.reset(), kt.run(), kt.output())) === 0;
    for (const v of [t, cos, sin]) v.free();
    kf.free();
    kt.free();
    scratch.free();
    // The kernel a positions call runs: the fused one for the decode step, whose position changes
    // on every call; for longer calls, whose positions 0..seq-1 recur, the table kernel on the
    // cos/sin table the API keeps between calls (rope.js RopeMemo: these tables fit its 1 MiB).
    apiRows.push({ shape, bytes: 4 * n, same, ...r, kernelPos: seq === 1 ? r.kernelFused : r.kernelTable });
  }
}

/** Accuracy where angles are large: positions 1e6.., every build. */
function precisionCases(heaps) {
  if (ONLY && !wanted('precision')) return;
  log('precision at position 1e6');
  const hd = 128, half = 64, seq = 64;
  const positions = Float64Array.from({ length: seq }, (_, i) => 1e6 + i);
  const x = inputX(seq * hd);
  for (const build of ['simd', 'scalar']) {
    const a = arena(heaps[build]), f = heaps[build].fn;
    const pc = a.alloc(Float32Array, seq * half), ps = a.alloc(Float32Array, seq * half);
    const ppos = a.alloc(Float64Array, seq), pw = a.alloc(Float64Array, half);
    const pt = a.alloc(Float32Array, seq * 512), px = a.alloc(Float32Array, seq * hd);
    a.view(Float64Array, ppos, seq).set(positions);
    ok(f.posenc_rope_inv_freq(pw, hd, 10000), 'inv_freq');
    ok(f.posenc_rope_cache(pc, ps, ppos, seq, pw, half, 1), 'cache');
    ok(f.posenc_sinusoidal(pt, seq, 512, 10000, 1e6, 0), 'sinusoidal');
    a.view(Float32Array, px, seq * hd).set(x);
    ok(f.posenc_rope_apply(px, px, seq, 1, hd, hd, 0, ppos, pw, 1), 'rope');
    precision.push({
      build,
      cache: JS.cacheError(a.view(Float32Array, pc, seq * half), a.view(Float32Array, ps, seq * half), positions, hd),
      sinusoidal: JS.sinusoidalError(a.view(Float32Array, pt, seq * 512), seq, 512, 1e6),
      rope: JS.ropeError(a.view(Float32Array, px, seq * hd), x, seq, 1, hd, 'interleaved', positions),
    });
    a.free();
  }
}

// ---- printing ----

const fmt = (ms) => (ms === undefined ? '–' : ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(2) : ms >= 0.01 ? ms.toFixed(3) : ms.toFixed(4));
const ratio = (a, b) => (a === undefined || b === undefined ? '–' : `${(a / b).toFixed(2)}×`);
const sci = (e) => (e === undefined ? '–' : e.toExponential(1));
const pad = (s, w) => String(s).padStart(w);

/** The calls without out of one run, a row per call: { what, api, out, js, fresh, warm }. */
function withoutOut(apiRows, sinApiRows) {
  return [...apiRows.flatMap((a) => [{ what: `applyRope ${a.shape} positions`, api: a.api, out: a.apiOut },
    { what: `applyRope ${a.shape} table`, api: a.table, out: a.tableOut }].map((v) => ({ ...a, ...v }))),
  ...sinApiRows.map((a) => ({ ...a, what: `sinusoidal ${a.shape}`, out: a.apiOut }))];
}

function printApi(huge) {
  if (apiRows.length) {
    console.log('\nThe public API (pairs "half", positions 0..seq-1; the one-row decode step advances its position on every call), ms per call, median of %d repetitions:', REPS);
    console.log('positions / table = applyRope(x, { positions }) / applyRope(x, { cos, sin }), copying (a new array) or with out;');
    console.log('in place = applyRopeInPlace on pe.tensor() arrays; kernel = the kernel the call runs, on buffers already in the heap;');
    console.log('copies = what a copying call cannot avoid, block by block as the API does it: x into the heap and the result out (the kernel\n'
      + 'checks x, cos and sin as it rotates; copies tab: cos and sin in too); scan = the pass that checks every value before a caller\'s\n'
      + 'out is written, when x spans more than one block (x, and for the table path cos and sin, copied in again and scanned). JS = plain JS, table precomputed.');
    const cols = ['shape', 'positions', '+out', 'table', '+out', 'in place', 'in pl table', 'kernel fused', 'kernel table', 'copies', 'copies tab', 'scan', 'scan tab', 'JS table'];
    const w = [12, 9, 9, 9, 9, 9, 11, 12, 12, 9, 10, 9, 9, 9];
    const ln = (c, widths) => c.map((v, i) => (i === 0 ? String(v).padEnd(widths[0]) : pad(v, widths[i]))).join(' ');
    console.log(ln(cols, w));
    for (const r of apiRows) {
      console.log(ln([r.shape, fmt(r.api), fmt(r.apiOut), fmt(r.table), fmt(r.tableOut), fmt(r.inPlace), fmt(r.inPlaceTable), fmt(r.kernelFused),
        fmt(r.kernelTable), fmt(r.copies), fmt(r.copiesTable), fmt(r.scan), fmt(r.scanTable), fmt(r.js)], w));
    }
    console.log('\nRatios: JS/... > 1: the API is faster than plain JS; .../kern: the call against the kernel it runs (table calls: the table kernel;\n'
      + 'positions calls: the fused kernel for the decode step, and for longer calls, whose positions recur, the table kernel on the cos/sin\n'
      + 'table the API keeps between calls); -copies/kern: what the call costs beyond its kernel and its copies; -scan: and beyond the scan pass.');
    const rc = ['shape', 'JS/pos', 'JS/pos+out', 'JS/table', 'JS/tab+out', '| pos+out/kern', 'tab+out/kern', 'in pl/kern', '| pos+out-copies', 'tab+out-copies', '| pos+out-copies-scan', 'tab+out-copies-scan'];
    const rw = [12, 7, 11, 9, 11, 14, 13, 11, 16, 15, 21, 20];
    const less = (t, c, k, sc) => (sc === undefined ? '–' : ratio(t - c - sc, k));
    console.log(ln(rc, rw));
    for (const r of apiRows) {
      console.log(ln([r.shape, ratio(r.js, r.api), ratio(r.js, r.apiOut), ratio(r.js, r.table), ratio(r.js, r.tableOut),
        `| ${ratio(r.apiOut, r.kernelPos)}`, ratio(r.tableOut, r.kernelTable), ratio(r.inPlaceTable, r.kernelTable),
        `| ${ratio(r.apiOut - r.copies, r.kernelPos)}`, ratio(r.tableOut - r.copiesTable, r.kernelTable),
        `| ${less(r.apiOut, r.copies, r.kernelPos, r.scan)}`, less(r.tableOut, r.copiesTable, r.kernelTable, r.scanTable)], rw));
    }
    for (const r of sinApiRows) {
      console.log(`\nsinusoidal ${r.shape} (ms per call, median): API ${fmt(r.api)}, API with out ${fmt(r.apiOut)}, kernel alone ${fmt(r.kernel)}, plain JS ${fmt(r.js)}`
        + ` | JS/API ${ratio(r.js, r.api)}, JS/API+out ${ratio(r.js, r.apiOut)}, JS/kernel ${ratio(r.js, r.kernel)}, API+out/kernel ${ratio(r.apiOut, r.kernel)}; ${r.same ? 'the same bits' : 'DIFFERENT bits'} as the kernel`);
    }
    console.log('\nCalls without out: new memory = a new Float32Array of the result\'s size written once, less the same writes into an array'
      + ' allocated once (ms per call, median);\nbest JS/API = JS / (API with out + new memory): the most a call that allocates its result can reach.');
    const line = (r) => {
      const extra = r.fresh - r.warm;
      console.log(`  ${r.what.padEnd(34)} new memory ${pad(fmt(extra), 7)}   API ${pad(fmt(r.api), 7)}   API with out + new memory ${pad(fmt(r.out + extra), 7)}`
        + `   | JS/API ${pad(ratio(r.js, r.api), 6)}   best JS/API ${pad(ratio(r.js, r.out + extra), 6)}`);
    };
    withoutOut(apiRows, sinApiRows).forEach(line);
    if (huge?.skipped) console.log(`With huge pages (${TUNABLE}): skipped: ${huge.skipped}.`);
    else if (huge) {
      console.log(`The same in a child process run with GLIBC_TUNABLES=${TUNABLE}: malloc asks for transparent huge pages, so a new`
        + ' array faults once per 2 MiB instead of once per 4 KiB (its own medians; compare its ratios, not its times, with the rows above):');
      withoutOut(huge.apiRows, huge.sinApiRows).forEach(line);
    }
    const diff = apiRows.filter((r) => !r.same).map((r) => r.shape);
    console.log(diff.length ? `API results differ from the kernel's at ${diff.join(', ')}` : 'API results: bit for bit the kernel\'s, every shape.');
  }
}

function printTable(nativeInfo) {
  const head = ['case', 'SIMD', 'scalar', 'JS table', 'JS cos/sin', 'floor JS', 'floor wasm', 'v128 loop', 'native',
    '| JS-table/SIMD', 'JS-cos/SIMD', 'scalar/SIMD', 'SIMD/floor', 'SIMD/loop', 'SIMD/native', '| err SIMD', 'err scalar', 'ulps'];
  const widths = [44, 8, 8, 8, 10, 8, 10, 9, 8, 15, 11, 11, 10, 9, 11, 10, 10, 5];
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[0]) : pad(c, widths[i]))).join(' ');
  console.log('\nTimes in ms per call (median of %d repetitions, each >= %d ms); ratios from this run.', REPS, MIN_MS);
  console.log("floor = the same bytes copied (RoPE: Float32Array.set / wasm memory.copy) or written (sinusoidal: fill / memory.fill);");
  console.log('v128 loop = the same copy as a wasm v128.load/v128.store loop: memory.copy is the C library\'s memmove, which may');
  console.log('use non-temporal stores; wasm code cannot, so the loop is the floor for any kernel that writes a second buffer.');
  console.log('ratio A/B > 1 means B is faster; SIMD/floor is how far the kernel is from the physical limit (1 = at it).');
  console.log('err = max |result - float64 reference| (computed in JS); ulps = SIMD vs scalar build, float32 ulps.\n');
  console.log(line(head));
  let group = '';
  for (const r of results) {
    if (r.group !== group && group) console.log('');
    group = r.group;
    const nat = nativeInfo.ms?.get(r.native);
    const floor = r.floorWasm;
    console.log(line([r.name, fmt(r.simd), fmt(r.scalar), fmt(r.jsTable), fmt(r.jsMath), fmt(r.floorJs), fmt(r.floorWasm), fmt(r.floorLoop), fmt(nat),
      `| ${ratio(r.jsTable, r.simd)}`, ratio(r.jsMath, r.simd), ratio(r.scalar, r.simd), ratio(r.simd, floor), ratio(r.simd, r.floorLoop), ratio(r.simd, nat),
      `| ${sci(r.err)}`, sci(r.errScalar), r.ulps ?? '–']));
  }
  if (progressionRows.length) {
    console.log('\nPositions 0..n-1 (rotation recurrence) beside the same positions permuted (direct path), timed in turn on the same buffers:');
    console.log('ms per call, minima of %d repetitions; perm/prog > 1: the recurrence is faster. err: the worst of the four against float64.', REPS);
    console.log(line(['case', 'SIMD prog', 'SIMD perm', 'scal prog', 'scal perm', '', '', '', '', '| perm/prog SIMD', 'perm/prog scalar', '', '', '', '', '| err', '', 'ulps']));
    for (const r of progressionRows) {
      const { t } = r;
      console.log(line([r.name, fmt(t['simd prog']), fmt(t['simd perm']), fmt(t['scalar prog']), fmt(t['scalar perm']), '', '', '', '',
        `| ${ratio(t['simd perm'], t['simd prog'])}`, ratio(t['scalar perm'], t['scalar prog']), '', '', '', '', `| ${sci(r.err)}`, '', r.ulps]));
    }
  }
  if (styleRows.length) {
    console.log('\nInterleaved / half, SIMD, tables given, the four timed in turn on the same buffers: ms per call, minima of %d repetitions', REPS);
    console.log(line(['shape', 'il in', 'half in', 'il out', 'half out', '', '', '', '', '| il/half in place', 'il/half out']));
    for (const { shape, t } of styleRows) {
      console.log(line([shape, fmt(t['interleaved in']), fmt(t['half in']), fmt(t['interleaved out']), fmt(t['half out']), '', '', '', '',
        `| ${ratio(t['interleaved in'], t['half in'])}`, ratio(t['interleaved out'], t['half out'])]));
    }
  }
  if (precision.length) {
    console.log('\nAccuracy at large positions (max |error| vs float64; target <= 2e-7):');
    for (const p of precision) {
      console.log(`  ${p.build.padEnd(6)}  cos/sin cache, positions 1e6..1e6+63, d=128: ${sci(p.cache)}   sinusoidal 64×512 from position 1e6: ${sci(p.sinusoidal)}   fused RoPE there: ${sci(p.rope)}`);
    }
  }
}

function printSizes() {
  console.log('\n.wasm sizes:');
  for (const f of ['posenc.wasm', 'posenc-scalar.wasm']) {
    const bytes = readFileSync(new URL(f, BUILD));
    const mod = new WebAssembly.Module(bytes);
    const imports = WebAssembly.Module.imports(mod).map((i) => `${i.module}.${i.name}`);
    console.log(`  ${f.padEnd(20)} ${pad(bytes.length, 7)} B, gzip -9 ${pad(gzipSync(bytes, { level: 9 }).length, 6)} B, imports: ${imports.join(', ') || 'none'}`);
  }
}

function printTargets(nativeInfo, huge, models) {
  const get = (name) => results.find((r) => r.name === name);
  const checks = [];
  const check = (what, value, pass, want) => checks.push({ what, value, pass, want });
  if (lab) {
    check('lab training step: SIMD / scalar speed', lab.simd.tokensPerSecond / lab.scalar.tokensPerSecond, lab.simd.tokensPerSecond / lab.scalar.tokensPerSecond >= 3, '>= 3×');
    if (lab.native.ms) check('lab training step: SIMD time / native time', lab.simd.ms / lab.native.ms, lab.simd.ms / lab.native.ms <= 2, '<= 2×');
    const p = lab.pool;
    check(`lab Train in ${p.workers} workers: time / (1.3 slowest + rest / ${p.cores})${p.sameBits ? '' : ', NOT the same bits'}`, p.pool.ms / p.target,
      p.pool.ms <= p.target && p.sameBits, '<= 1×');
  }
  for (const style of ['interleaved', 'half']) {
    const out = get(`rope 2048×32×128 ${style} table out of place`), inp = get(`rope 2048×32×128 ${style} table in place`);
    if (!out) continue;
    check(`RoPE 2048×32×128 ${style} table: JS-with-table / SIMD`, out.jsTable / out.simd, out.jsTable / out.simd >= 4, '>= 4×');
    check(`RoPE 2048×32×128 ${style} table: SIMD / wasm memory.copy`, out.simd / out.floorWasm, out.simd / out.floorWasm <= 1.15, '<= 1.15×');
    if (out.floorLoop) check(`  (for reference: SIMD / wasm v128 copy loop)`, out.simd / out.floorLoop, out.simd / out.floorLoop <= 1.15, '<= 1.15×');
    const nat = nativeInfo.ms?.get(out.native);
    if (nat) check(`RoPE 2048×32×128 ${style} table: SIMD / native`, out.simd / nat, out.simd / nat <= 1.3, '<= 1.3×');
    if (inp) check(`RoPE 2048×32×128 ${style} table: out of place / in place`, out.simd / inp.simd, out.simd / inp.simd >= 1.3, '>= 1.3×');
  }
  for (const place of ['out of place', 'in place']) {
    const il = get(`rope 2048×32×128 interleaved table ${place}`), hf = get(`rope 2048×32×128 half table ${place}`);
    if (il && hf) check(`RoPE 2048×32×128 table ${place}: interleaved / half`, il.simd / hf.simd, il.simd / hf.simd <= 1.2, '<= 1.2×');
  }
  for (const style of ['interleaved', 'half']) {
    const t = get(`rope 512×1×64 ${style} table out of place`), f = get(`rope 512×1×64 ${style} fused out of place`);
    if (t) check(`RoPE 512×1×64 ${style} table: JS-with-table / SIMD`, t.jsTable / t.simd, t.jsTable / t.simd >= 8, '>= 8×');
    if (f) check(`RoPE 512×1×64 ${style} fused: JS Math.cos/sin / SIMD`, f.jsMath / f.simd, f.jsMath / f.simd >= 5, '>= 5×');
  }
  const s = get('sinusoidal 8192×4096');
  if (s) {
    check('sinusoidal 8192×4096: JS Math.sin/cos / SIMD', s.jsMath / s.simd, s.jsMath / s.simd >= 6, '>= 6×');
    check('sinusoidal 8192×4096: SIMD / write floor (memory.fill)', s.simd / s.floorWasm, s.simd / s.floorWasm <= 4, '<= 4×');
  }
  const d = get('decay 2000 log-spaced distances d=4096');
  if (d) check('decay 2000 log-spaced at d=4096: JS / SIMD', d.jsMath / d.simd, d.jsMath / d.simd >= 5, '>= 5×');
  // through the public API (apiCases, sinusoidalApiCase): what callers get
  // a copying call's target, and the same in the child with huge pages for its new array
  const copying = (what, row, rows, r, want) => {
    check(what, r(row), r(row) >= want, `>= ${want}×`);
    const h = huge && !huge.skipped && huge[rows].find((x) => x.shape === row.shape);
    if (h) check(`  (the same with ${TUNABLE})`, r(h), r(h) >= want, `>= ${want}×`);
  };
  const sa = sinApiRows.find((r) => r.shape === '8192×4096');
  if (sa) {
    check('API sinusoidal 8192×4096 with out: JS / API', sa.js / sa.apiOut, sa.js / sa.apiOut >= 10, '>= 10×');
    copying('API sinusoidal 8192×4096 copying: JS / API', sa, 'sinApiRows', (r) => r.js / r.api, 6);
  }
  const api = (shape) => apiRows.find((r) => r.shape === shape);
  const demo = api('512×1×64');
  if (demo) {
    copying('API applyRope 512×1×64 positions: JS-with-table / API', demo, 'apiRows', (r) => r.js / r.api, 4);
    copying('API applyRope 512×1×64 cos/sin table: JS-with-table / API', demo, 'apiRows', (r) => r.js / r.table, 6);
  }
  const big = api('2048×32×128');
  if (big) {
    check('API applyRope 2048×32×128 positions, out: JS-with-table / API', big.js / big.apiOut, big.js / big.apiOut >= 2, '>= 2×');
    copying('API applyRope 2048×32×128 positions: JS-with-table / API', big, 'apiRows', (r) => r.js / r.api, 1.5);
    check('API applyRope 2048×32×128 table, out: JS-with-table / API', big.js / big.tableOut, big.js / big.tableOut >= 2, '>= 2×');
    copying('API applyRope 2048×32×128 table: JS-with-table / API', big, 'apiRows', (r) => r.js / r.table, 1.5);
    const q = big.inPlaceTableIl / big.inPlaceTable;
    check('API applyRopeInPlace 2048×32×128 table: interleaved / half', q, q <= 1.2, '<= 1.2×');
  }
  const step = api('1×32×128');
  if (step) {
    check('API decode step 1×32×128 positions, out: API / kernel', step.apiOut / step.kernelFused, step.apiOut / step.kernelFused <= 2, '<= 2×');
    check('API decode step 1×32×128 positions: API / kernel', step.api / step.kernelFused, step.api / step.kernelFused <= 2, '<= 2×');
    check('  (the same in place on a pe.tensor(): API / kernel)', step.inPlace / step.kernelFused, step.inPlace / step.kernelFused <= 2, '<= 2×');
  }
  for (const r of apiRows.filter((x) => x.bytes > 64 * 1024)) {
    for (const [what, t, k, c, sc] of [['positions', r.apiOut, r.kernelPos, r.copies, r.scan], ['table', r.tableOut, r.kernelTable, r.copiesTable, r.scanTable]]) {
      const v = (t - c) / k;
      check(`API ${r.shape} ${what}, out: (API - copies) / kernel`, v, v <= 1.5, '<= 1.5×');
      if (sc !== undefined) check(`  (the same less the scan pass before out is written)`, v - sc / k, v - sc / k <= 1.5, '<= 1.5×');
    }
  }
  if (models?.rotation) {
    const worst = Math.max(...MODEL_CPUS.map((c) => worstRatio(models.rotation, c)));
    check(`model: slowest interleaved / fastest half loop, worst of ${MODEL_CPUS.length} cores`, worst, worst <= 1.2, '<= 1.2×');
    // (the AMD slowdown this guards against was 1.5-3x)
    const k = Math.max(...models.kernels.flatMap((m) => MODEL_CPUS.map((c) => m.worst[c])));
    check(`model: any kernel loop's cycles / its cycles on ${MODEL_CPUS[0]}, worst core`, k, k <= 1.5, '<= 1.5×');
  }
  const errs = results.filter((r) => r.group !== 'decay' && r.err !== undefined);
  if (errs.length) {
    const worst = Math.max(...errs.map((r) => Math.max(r.err, r.errScalar)), ...precision.map((p) => Math.max(p.cache, p.sinusoidal)));
    check('max error vs float64 (tables, caches, RoPE; positions up to 1e6)', worst, worst <= 2e-7, '<= 2e-7');
    const ulps = Math.max(...errs.map((r) => r.ulps ?? 0));
    check('SIMD vs scalar build agreement (float32 ulps)', ulps, ulps <= 2, '<= 2');
  }
  if (!checks.length) return;
  console.log('\nTargets:');
  for (const c of checks) {
    const v = c.want.includes('e-') ? sci(c.value) : c.want.endsWith('×') ? `${c.value.toFixed(2)}×` : String(c.value);
    console.log(`  ${c.pass ? 'HOLDS' : 'MISSES'}  ${c.what.padEnd(66)} ${pad(v, 8)}  (target ${c.want})`);
  }
}

/** The CPU model with its family and model numbers (they tell Zen 3 from Zen 4, Ice Lake from
 * Sapphire Rapids where a VM shows only "Intel Xeon Processor"); os.cpus() where there is no
 * /proc/cpuinfo. */
function cpuModel() {
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8').split('\n\n')[0];
    const field = (k) => info.match(new RegExp(`^${k}\\s*:\\s*(.*)$`, 'm'))?.[1];
    const name = field('model name') ?? cpus()[0]?.model ?? 'unknown';
    return `${name} (${field('vendor_id') ?? '?'}, family ${field('cpu family') ?? '?'}, model ${field('model') ?? '?'})`;
  } catch {
    return cpus()[0]?.model ?? 'unknown';
  }
}

// ---- main ----

const started = performance.now();
const heaps = {
  simd: await instantiate(new URL('posenc.wasm', BUILD)),
  scalar: await instantiate(new URL('posenc-scalar.wasm', BUILD)),
};
if (!JSON_OUT) console.log(`posenc bench: Node ${process.version}, ${process.arch}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; WASM SIMD build vs scalar build vs plain JS vs native.`);
if (!JSON_OUT) console.log(`CPU: ${cpuModel()}`);
const loadAtStart = loadavg()[0];

const pe = await loadPosenc();
if (JSON_OUT) {
  apiCases(pe, heaps, SMOKE ? [[4, 2, 16]] : [[2048, 32, 128], [512, 1, 64], [1, 32, 128]]);
  if (!SMOKE) sinusoidalApiCase(pe, heaps, 8192, 4096);
  console.log(JSON.stringify({ apiRows, sinApiRows }));
  process.exit(0);
} else if (SMOKE) {
  apiCases(pe, heaps, [[4, 2, 16]]);
  ropeCases(heaps, [[4, 2, 16]]);
  progressionCases(heaps, [{ kind: 'cache', seq: 70, hd: 16 }, { kind: 'fused', seq: 70, heads: 2, hd: 16, style: 'interleaved', place: 'out' }]);
  styleCases(heaps, [[4, 2, 16]]);
} else {
  // the public API first: what callers get
  apiCases(pe, heaps, [[2048, 32, 128], [512, 1, 64], [1, 32, 128]]);
  sinusoidalApiCase(pe, heaps, 8192, 4096);
  ropeCases(heaps, [[2048, 32, 128], [512, 1, 64], [1, 32, 128]]);
  styleCases(heaps, [[2048, 32, 128], [512, 1, 64], [64, 32, 128], [1, 32, 128]]);
  progressionCases(heaps, [
    { kind: 'cache', seq: 2048, hd: 128 },
    { kind: 'fused', seq: 512, heads: 1, hd: 64, style: 'interleaved', place: 'out' },
    { kind: 'fused', seq: 512, heads: 1, hd: 64, style: 'half', place: 'out' },
    { kind: 'fused', seq: 2048, heads: 32, hd: 128, style: 'interleaved', place: 'in' },
    { kind: 'fused', seq: 2048, heads: 32, hd: 128, style: 'half', place: 'in' },
  ]);
  cacheCase(heaps, 8192, 128);
  sinusoidalCase(heaps, 2048, 512);
  sinusoidalCase(heaps, 8192, 4096);
  decayCase(heaps, 8192, 128, 'lin');
  decayCase(heaps, 2000, 4096, 'log');
  precisionCases(heaps);
}

let nativeInfo = { skipped: 'not run (--no-native or --smoke)' };
const specs = results.map((r) => r.native).filter(Boolean);
if (!SMOKE && !flag('no-native') && specs.length) {
  log('native build');
  specs.push(...new Set(results.filter((r) => r.group === 'rope').map((r) => `copy:${4 * Number(r.native.split(':')[1]) * r.native.split(':')[2] * r.native.split(':')[3]}`)));
  nativeInfo = runNative(specs, { reps: REPS, minMs: MIN_MS });
}

// the copying calls again with huge pages for their new arrays (a child: glibc reads the setting at start)
let huge = null;
if (apiRows.length) {
  log(`public API with ${TUNABLE}`);
  huge = withHugePages([...(SMOKE ? ['--smoke'] : [`--reps=${REPS}`, `--min-ms=${MIN_MS}`]), ...(ONLY ? [`--only=${ONLY}`] : [])]);
}

let lab = null;
if (!ONLY || wanted('lab')) {
  log('lab');
  lab = labBench(SMOKE ? { repeats: 1, steps: 1, native: false } : { native: !flag('no-native') });
  log('lab: the default Train, one worker then a pool');
  lab.pool = await labPoolBench(SMOKE ? { settings: { task: 'kback', steps: 2, seed: 1, trainLength: 4, dModel: 16, layers: 1 }, repeats: 1 } : {});
}

// the kernels' loops as V8 compiled them here, on llvm-mca's models of other cores (AMD among them)
let models = null;
if (!ONLY || wanted('model')) {
  log('core models');
  const version = llvmMca();
  models = version ? { version, ...coreModels(MODEL_CPUS) } : { skipped: NO_MCA };
}

printApi(huge);
printTable(nativeInfo);
if (models?.skipped) console.log(`\nCore models: skipped: ${models.skipped}`);
else if (models) printModels(models.version, MODEL_CPUS, models);
if (lab) {
  const row = (name, r) => (r.ms ? `${name} ${fmt(r.ms)} ms a step, ${Math.round(r.tokensPerSecond).toLocaleString('en')} tokens/s` : `${name} skipped: ${r.skipped}`);
  console.log(`\nThe lab (a training step of the default model: 32 × 16 tokens of k-back, loss, gradient, AdamW; minimum of means):\n  ${[row('WASM SIMD', lab.simd), row('scalar build', lab.scalar), row(`native ${lab.native.compiler ?? ''} -O3 -march=native`, lab.native)].join('\n  ')}`);
  const p = lab.pool, s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  console.log(`The page's default Train (7 runs; worker start-up included; ${p.repeats > 1 ? `the fastest of ${p.repeats} turns each` : 'one turn each'}; load average ${loadavg()[0].toFixed(1)} on ${p.cores} cores):
  one worker ${s(p.one.ms)}: ${Object.entries(p.one.runs).map(([e, ms]) => `${e} ${s(ms)}`).join(', ')}
  pool of ${p.workers} workers ${s(p.pool.ms)} (${(p.one.ms / p.pool.ms).toFixed(2)}× faster), same bits: ${p.sameBits ? 'yes' : 'NO'}
  target 1.3 × slowest alone (${p.slowest.encoding} ${s(p.slowest.ms)}) + rest (${s(p.rest)}) / ${p.cores} = ${s(p.target)}`);
}
console.log(nativeInfo.compiler ? `\nnative: ${nativeInfo.compiler}, -O3 -march=native, the same c/*.c (scalar forms, auto-vectorised), run as a child process.`
  : `\nnative: skipped: ${nativeInfo.skipped}`);
if (nativeInfo.ms) {
  const copies = [...nativeInfo.ms].filter(([k]) => k.startsWith('copy:'));
  console.log(`native memcpy of the same bytes: ${copies.map(([k, v]) => `${(Number(k.slice(5)) / 2 ** 20).toFixed(1)} MiB ${fmt(v)} ms`).join(', ')}`);
}
const big = results.find((r) => r.name.startsWith('rope 2048×32×128'));
if (big) {
  const bytes = 2 * 4 * 2048 * 32 * 128;
  console.log(`Physical limit: out-of-place RoPE at 2048×32×128 must read and write 33.6 MB; a plain copy of them takes ${fmt(big.floorWasm)} ms in wasm (${(bytes / big.floorWasm / 1e6).toFixed(1)} GB/s read+write), ${fmt(big.floorJs)} ms with Float32Array.set. In place avoids the second buffer and can go below it.`);
}
printSizes();
printTargets(nativeInfo, huge, models);
console.log(`\nbench took ${((performance.now() - started) / 1000).toFixed(0)} s; 1-minute load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (other jobs on this machine make the times noisy; compare ratios within one run).`);
