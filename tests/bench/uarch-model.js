// uarch-model.js: the RoPE rotation loops as V8 compiles them on this machine, run through
// llvm-mca's models of other x86 cores, so that interleaved and half pairs can be compared on
// AMD's Zen cores where no such machine is at hand. A model, not a measurement: llvm-mca
// simulates the loop body with every access in L1 and no store forwarding or aliasing between
// them, so it shows what the instructions cost a core (shuffle and multiply ports, load and
// store slots, loop overhead), not memory effects, and not the bandwidth that bounds the large
// calls of the bench on every core.
//
//   node tests/bench/uarch-model.js [--cpus=skylake,znver3] [--json]
//
// Prints, for each loop of posenc_rope_apply_table that rotates float32 vectors (one per pair
// style, for the heads-of-a-row form and the one-head form), the cycles per 8 floats on each
// core model and interleaved / half. Needs llvm-mca (Debian's llvm package); without it, says so.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WASM = fileURLToPath(new URL('../../web/build/posenc.wasm', import.meta.url));
const KERNEL = 'posenc_rope_apply_table';
export const CPUS = ['skylake', 'icelake-server', 'znver1', 'znver2', 'znver3'];
const ITERATIONS = 1000;

/** Runs the kernel often enough for V8's optimizing tier, both styles, several heads and one. */
async function drive() {
  const { instantiate } = await import('../../web/lib/heap.js');
  const heap = await instantiate(new URL(`file://${WASM}`));
  const fn = heap.fn, seq = 16, hd = 128, half = hd / 2;
  const px = fn.malloc(4 * seq * 32 * hd), pc = fn.malloc(4 * seq * half), ps = fn.malloc(4 * seq * half);
  new Float32Array(heap.memory.buffer, pc, seq * half).fill(0.5);
  new Float32Array(heap.memory.buffer, ps, seq * half).fill(0.5);
  for (let i = 0; i < 4000; i++) {
    for (const heads of [32, 1]) for (const style of [0, 1]) fn.posenc_rope_apply_table(px, px, seq, heads, hd, hd, style, pc, ps);
  }
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

/** Innermost loops (a backward branch and what lies between it and its target) that multiply float32 vectors. */
export function vectorLoops(code) {
  const loops = [];
  code.forEach((ins, i) => {
    const m = /^j\w+\s+0x[0-9a-f]+\s+<\+0x([0-9a-f]+)>/.exec(ins.text);
    if (!m || parseInt(m[1], 16) > ins.off) return;
    const head = code.findIndex((c) => c.off === parseInt(m[1], 16));
    if (head >= 0) loops.push(code.slice(head, i + 1));
  });
  const inner = loops.filter((l) => !loops.some((o) => o !== l && o[0].off >= l[0].off && o.at(-1).off <= l.at(-1).off));
  return inner.filter((l) => l.some((c) => c.text.startsWith('vmulps')));
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

/** [{ style, floats, cycles: { cpu: per 8 floats } }] for the rotation loops of the SIMD build. */
export function rotationModels(cpus = CPUS) {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, ['--print-wasm-code', self, '--drive'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`driving the kernel failed: ${run.stderr}`);
  const seen = new Set();
  const loops = turbofanCode(run.stdout).flatMap(vectorLoops).filter((l) => {
    const key = l.map((c) => c.text.replace(/<\+0x[0-9a-f]+>|0x[0-9a-f]{8,}/g, '')).join('\n');
    return !seen.has(key) && seen.add(key);
  });
  return loops.map((loop) => {
    const stores = loop.filter((c) => /^vmov\w+\s+\[/.test(c.text)).length;
    const style = loop.some((c) => c.text.startsWith('vshufps')) ? 'interleaved' : 'half';
    const perIter = model(loop, cpus), floats = 4 * stores;
    return { style, floats, instructions: loop.length, cycles: Object.fromEntries(cpus.map((c) => [c, (perIter[c] * 8) / floats])) };
  });
}

export const NO_MCA = 'llvm-mca not found (Debian package llvm)';

/** llvm-mca's LLVM version, or null when it is not installed. */
export function llvmMca() {
  const r = spawnSync('llvm-mca', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? (/LLVM version ([\d.]+)/.exec(r.stdout)?.[1] ?? '?') : null;
}

function main() {
  const arg = (k) => process.argv.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3);
  const cpus = arg('cpus')?.split(',') ?? CPUS;
  const version = llvmMca();
  if (!version) {
    console.log(`Core models: skipped: ${NO_MCA}`);
    return;
  }
  const loops = rotationModels(cpus);
  if (process.argv.includes('--json')) return console.log(JSON.stringify({ version, cpus, loops }));
  printModels(version, cpus, loops);
}

/** The table: a row per loop, cycles per 8 floats on each model, then the slowest interleaved
 * loop against the fastest half loop on each model (an upper bound: a call runs one form). */
export function printModels(version, cpus, loops) {
  console.log(`\nRoPE rotation loops of ${KERNEL} as V8 compiled them here, on llvm-mca ${version}'s core models`);
  console.log('(a model: every access in L1; cycles per 8 floats rotated; a row per distinct loop V8 emitted):');
  console.log('loop'.padEnd(30) + cpus.map((c) => c.padStart(15)).join(''));
  for (const l of loops) {
    console.log(`${l.style}, ${l.instructions} instructions`.padEnd(30) + cpus.map((c) => l.cycles[c].toFixed(2).padStart(15)).join(''));
  }
  if (loops.some((l) => l.style === 'half') && loops.some((l) => l.style === 'interleaved')) {
    console.log('slowest interleaved / fastest half'.padEnd(30) + cpus.map((c) => `${worstRatio(loops, c).toFixed(2)}×`.padStart(15)).join(''));
  }
}

/** The slowest interleaved loop's cycles over the fastest half loop's on `cpu`. */
export function worstRatio(loops, cpu) {
  const of = (style) => loops.filter((l) => l.style === style).map((l) => l.cycles[cpu]);
  return Math.max(...of('interleaved')) / Math.min(...of('half'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--drive')) await drive();
  else main();
}
