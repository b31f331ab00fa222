// uarch-model.js: the kernels' loops as V8 compiles them on this machine, run through llvm-mca's
// models of other x86 cores, so that a loop's cost can be compared on AMD's Zen cores where no
// such machine is at hand. A model, not a measurement: llvm-mca simulates the loop body with
// every access in L1 and no store forwarding or aliasing between them, so it shows what the
// instructions cost a core (shuffle and multiply ports, load and store slots, loop overhead),
// not memory effects, and not the bandwidth that bounds the large calls of the bench on every
// core.
//
//   node tests/bench/uarch-model.js [--cpus=znver2,znver3] [--json]   (Skylake, the base, is always one)
//
// Prints (1) for each loop of posenc_rope_apply_table that rotates float32 vectors, the cycles
// per 8 floats on each core model and interleaved / half, and (2) for each kernel the RoPE
// calls, the caches and the sinusoidal tables run, its vector loops' cycles on each model
// against Skylake's, the worst loop. Needs llvm-mca (Debian's llvm package); without it, says so.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WASM = fileURLToPath(new URL('../../web/build/posenc.wasm', import.meta.url));
const TABLE = 'posenc_rope_apply_table';
export const CPUS = ['skylake', 'icelake-server', 'znver1', 'znver2', 'znver3'];
const BASE_CPU = CPUS[0];
const ITERATIONS = 100;
export const NO_MCA = 'llvm-mca not found (Debian package llvm)';

/** How each kernel is driven: calls over small buffers, both pair styles, several heads and one.
 * (V8 compiles a whole function at once, so every path's loops are there, run or not.) */
const DRIVERS = {
  [TABLE]: (f, b) => {
    for (const heads of [32, 1]) for (const style of [0, 1]) f.posenc_rope_apply_table(b.x, b.x, b.seq, heads, b.hd, b.hd, style, b.cos, b.sin);
  },
  posenc_rope_apply: (f, b) => {
    for (const heads of [32, 1]) for (const style of [0, 1]) f.posenc_rope_apply(b.x, b.x, b.seq, heads, b.hd, b.hd, style, b.pos, b.inv, 1);
  },
  posenc_rope_cache: (f, b) => f.posenc_rope_cache(b.cos, b.sin, b.pos, b.seq, b.inv, b.hd / 2, 1),
  posenc_sinusoidal: (f, b) => {
    for (const layout of [0, 1]) f.posenc_sinusoidal(b.x, b.seq, b.hd, 10000, 0, layout);
  },
};

/** Calls `kernel` often enough for V8's optimizing tier (run in a child under --print-wasm-code). */
async function drive(kernel) {
  const { instantiate } = await import('../../web/lib/heap.js');
  const heap = await instantiate(new URL(`file://${WASM}`));
  const f = heap.fn, seq = 16, hd = 128, half = hd / 2;
  const b = { seq, hd, x: f.malloc(4 * seq * 32 * hd), cos: f.malloc(4 * seq * half), sin: f.malloc(4 * seq * half), pos: f.malloc(8 * seq), inv: f.malloc(8 * half) };
  new Float32Array(heap.memory.buffer, b.cos, seq * half).fill(0.5);
  new Float32Array(heap.memory.buffer, b.sin, seq * half).fill(0.5);
  new Float64Array(heap.memory.buffer, b.pos, seq).set(Array.from({ length: seq }, (_, i) => (i * 7919) % 1000));
  f.posenc_rope_inv_freq(b.inv, hd, 10000);
  for (let i = 0; i < 4000; i++) DRIVERS[kernel](f, b);
  await new Promise((resolve) => setTimeout(resolve, 100)); // (V8 prints what its background compiles finish)
}

/** The instructions of each wasm function V8 compiled with TurboFan: [[{ off, text }]]. The
 * driver calls one kernel, so these are it and the functions it calls. */
export function turbofanCode(listing) {
  const blocks = listing.split(/\n(?=--- WebAssembly code ---|name: )/).filter((b) => /^kind: wasm function\ncompiler: TurboFan/m.test(b));
  if (!blocks.length) throw new Error('V8 printed no optimized wasm code');
  return blocks.map((block) => {
    const code = [];
    for (const line of block.split('\n')) {
      const m = /^0x[0-9a-f]+\s+([0-9a-f]+)\s+[0-9a-f]+\s+(.*)$/.exec(line);
      if (m) code.push({ off: parseInt(m[1], 16), text: m[2].trim() });
    }
    return code;
  });
}

/** Innermost loops (a backward branch and what lies between it and its target) that do vector
 * float arithmetic. */
export function vectorLoops(code) {
  const loops = [];
  code.forEach((ins, i) => {
    const m = /^j\w+\s+0x[0-9a-f]+\s+<\+0x([0-9a-f]+)>/.exec(ins.text);
    if (!m || parseInt(m[1], 16) > ins.off) return;
    const head = code.findIndex((c) => c.off === parseInt(m[1], 16));
    if (head >= 0) loops.push(code.slice(head, i + 1));
  });
  const inner = loops.filter((l) => !loops.some((o) => o !== l && o[0].off >= l[0].off && o.at(-1).off <= l.at(-1).off));
  return inner.filter((l) => l.some((c) => /^v(mul|add|sub)p[sd] /.test(c.text)));
}

const JCC = { jc: 'jb', jnc: 'jae', jna: 'jbe', ja: 'ja', jz: 'je', jnz: 'jne', jl: 'jl', jge: 'jge', jle: 'jle', jg: 'jg', jmp: 'jmp' };

/** One V8 instruction in the assembler syntax llvm-mca reads (Intel, sizes on memory operands). */
export function toIntel(text, label) {
  let [op, ...rest] = text.replace(/^REX\.W\s+/, '').split(/\s+/);
  let args = rest.join(' ').replace(/\s*<\+0x[0-9a-f]+>$/, '');
  if (op.startsWith('j')) return `${JCC[op] ?? op} ${label}`;
  const vector = /^v/.test(op);
  if (!vector) op = op.replace(/^(add|sub|cmp|mov|lea|imul|and|or|xor|shl|shr|sar|test|inc|dec)[lqwb]$/, '$1');
  // (a memory operand's size is the access's: scalar float ops and vmovd read 4 bytes, double ones and vmovq 8)
  const size = !vector ? 'qword' : /ss$|^vmovd$/.test(op) ? 'dword' : /sd$|^vmovq$/.test(op) ? 'qword' : 'xmmword';
  args = args.split(',').map((a) => (a.startsWith('[') ? `${size} ptr ${a}` : a)).join(', ');
  if (op === 'lea') args = args.replace(/qword ptr /, '');
  return `${op} ${args}`;
}

/** Cycles per iteration of `loop` on each cpu model, from llvm-mca's simulation. */
function model(loop, cpus) {
  const src = ['.intel_syntax noprefix', '.Lhead:', ...loop.map((c) => toIntel(c.text, '.Lhead'))].join('\n') + '\n';
  const out = {};
  for (const cpu of cpus) {
    const r = spawnSync('llvm-mca', [`-mcpu=${cpu}`, `-iterations=${ITERATIONS}`], { input: src, encoding: 'utf8' });
    const m = /Total Cycles:\s+(\d+)/.exec(r.stdout);
    if (r.status !== 0 || !m) throw new Error(`llvm-mca -mcpu=${cpu} failed: ${r.stderr.split('\n')[0]}\n${src}`);
    out[cpu] = Number(m[1]) / ITERATIONS;
  }
  return out;
}

/** The distinct vector loops V8 compiled for `kernel` and its callees, each with its cycles per
 * iteration on each cpu model: [{ loop, cycles }]. */
function kernelLoops(kernel, cpus) {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, ['--print-wasm-code', self, `--drive=${kernel}`], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`driving ${kernel} failed: ${run.stderr}`);
  const seen = new Set();
  return turbofanCode(run.stdout).flatMap(vectorLoops).filter((l) => {
    const key = l.map((c) => c.text.replace(/<\+0x[0-9a-f]+>|0x[0-9a-f]{8,}/g, '')).join('\n');
    return !seen.has(key) && seen.add(key);
  }).map((loop) => ({ loop, cycles: model(loop, cpus) }));
}

/**
 * { rotation, kernels }: rotation, [{ style, floats, instructions, cycles: { cpu: per 8 floats } }]
 * for the loops of posenc_rope_apply_table that rotate float32 vectors (no float64 arithmetic;
 * interleaved when they shuffle pairs apart); kernels, [{ kernel, loops, worst: { cpu: the
 * largest ratio of a loop's cycles on cpu to its cycles on Skylake } }].
 */
export function coreModels(cpus = CPUS) {
  const kernels = [], rotation = [];
  for (const kernel of Object.keys(DRIVERS)) {
    const loops = kernelLoops(kernel, cpus);
    if (!loops.length) throw new Error(`V8 printed no optimized vector loop of ${kernel}`);
    kernels.push({ kernel, loops: loops.length, worst: Object.fromEntries(cpus.map((c) => [c, Math.max(...loops.map((l) => l.cycles[c] / l.cycles[BASE_CPU]))])) });
    if (kernel !== TABLE) continue;
    const rotates = (loop) => loop.some((c) => c.text.startsWith('vmulps')) && !loop.some((c) => /^v\w+pd /.test(c.text));
    for (const { loop, cycles } of loops.filter(({ loop }) => rotates(loop))) {
      const floats = 4 * loop.filter((c) => /^vmov\w+\s+\[/.test(c.text)).length;
      const style = loop.some((c) => c.text.startsWith('vshufps')) ? 'interleaved' : 'half';
      rotation.push({ style, floats, instructions: loop.length, cycles: Object.fromEntries(cpus.map((c) => [c, (cycles[c] * 8) / floats])) });
    }
  }
  return { rotation, kernels };
}

/** llvm-mca's LLVM version, or null when it is not installed. */
export function llvmMca() {
  const r = spawnSync('llvm-mca', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? (/LLVM version ([\d.]+)/.exec(r.stdout)?.[1] ?? '?') : null;
}

function main() {
  const arg = (k) => process.argv.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3);
  const cpus = arg('cpus')?.split(',') ?? CPUS;
  if (cpus[0] !== BASE_CPU) cpus.unshift(BASE_CPU);
  const version = llvmMca();
  if (!version) return console.log(`Core models: skipped: ${NO_MCA}`);
  const models = coreModels(cpus);
  if (process.argv.includes('--json')) return console.log(JSON.stringify({ version, cpus, ...models }));
  printModels(version, cpus, models);
}

const row = (label, cpus, cell) => console.log(label.padEnd(36) + cpus.map((c) => cell(c).padStart(15)).join(''));

/** The two tables: the rotation loops, cycles per 8 floats and interleaved / half (worstRatio);
 * then each kernel's worst loop against Skylake. */
export function printModels(version, cpus, { rotation, kernels }) {
  console.log(`\nRoPE rotation loops of ${TABLE} as V8 compiled them here, on llvm-mca ${version}'s core models`);
  console.log('(a model: every access in L1; cycles per 8 floats rotated; a row per distinct loop V8 emitted):');
  row('loop', cpus, (c) => c);
  for (const l of rotation) row(`${l.style}, ${l.instructions} instructions`, cpus, (c) => l.cycles[c].toFixed(2));
  if (rotation.some((l) => l.style === 'half') && rotation.some((l) => l.style === 'interleaved')) {
    row('slowest interleaved / fastest half', cpus, (c) => `${worstRatio(rotation, c).toFixed(2)}×`);
  }
  console.log(`\nEach kernel's vector loops on the same models: the largest ratio of a loop's cycles to its cycles on ${BASE_CPU}:`);
  row('kernel (vector loops)', cpus, (c) => c);
  for (const k of kernels) row(`${k.kernel} (${k.loops})`, cpus, (c) => `${k.worst[c].toFixed(2)}×`);
}

/** The slowest interleaved loop's cycles over the fastest half loop's on `cpu` (an upper bound on
 * interleaved / half: a call runs one form, the heads of a row or one head's rows back to back). */
export function worstRatio(loops, cpu) {
  const of = (style) => loops.filter((l) => l.style === style).map((l) => l.cycles[cpu]);
  return Math.max(...of('interleaved')) / Math.min(...of('half'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const kernel = process.argv.find((a) => a.startsWith('--drive='))?.slice(8);
  if (kernel) await drive(kernel);
  else main();
}
