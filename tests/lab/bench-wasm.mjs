// bench-wasm.mjs: times a training step of the default lab model in a wasm build holding c/lab
// (web/build's, as tests/bench/lab-bench.js passes them), with the protocol of tests/lab/bench.c:
//   fixed: one kback batch at n = train_len (32 x 16 tokens): loss_and_grad + adamw_step;
//   train: posenc_lab_train_steps (a fresh batch of random n each step).
// Each figure is the minimum over repeats of the mean of a run of steps.
//   node tests/lab/bench-wasm.mjs build.wasm [repeats] [steps]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const [file, repeatsArg, stepsArg] = process.argv.slice(2);
const repeats = Number(repeatsArg ?? 7), steps = Number(stepsArg ?? 20);
const module = new WebAssembly.Module(readFileSync(file));
// The one import a memory-growing standalone module has (web/heap.js passes the same).
const extra = WebAssembly.Module.imports(module).filter((i) => i.name !== 'emscripten_notify_memory_growth');
if (extra.length) throw new Error(`${file} imports ${extra.map((i) => i.name)}`);
const { exports: w } = new WebAssembly.Instance(module, { env: { emscripten_notify_memory_growth() {} } });
w._initialize?.();
const check = (rc, what) => { if (rc < 0) throw new Error(`${what}: status ${rc}`); return rc; };

const cfgPtr = w.malloc(8 * 32), outPtr = w.malloc(4);
check(w.posenc_lab_config_default(cfgPtr), 'config_default');
check(w.posenc_lab_create(cfgPtr, outPtr), 'create');
const model = new Int32Array(w.memory.buffer, outPtr, 1)[0];
const cfg = new Float64Array(w.memory.buffer, cfgPtr, 32);
const B = cfg[15], L = cfg[13]; // batch, train_len (posenc_lab_config's order)
const T = L; // kback: T = n
const tok = w.malloc(4 * B * T), tgt = w.malloc(4 * B * T), loss = w.malloc(8);
for (let b = 0; b < B; b++) check(w.posenc_lab_example(model, L, b + 1, tok + 4 * b * T, tgt + 4 * b * T), 'example');

function time(fn) {
  let best = Infinity;
  fn(); // warm-up
  for (let r = 0; r < repeats; r++) {
    const t0 = performance.now();
    for (let s = 0; s < steps; s++) fn();
    best = Math.min(best, (performance.now() - t0) / steps);
  }
  return best;
}
const fixed = time(() => {
  check(w.posenc_lab_loss_and_grad(model, tok, tgt, B, T, 0, 1, 1, loss), 'loss_and_grad');
  check(w.posenc_lab_adamw_step(model), 'adamw_step');
});
const losses = w.malloc(4 * steps);
const train = time(() => check(w.posenc_lab_train_steps(model, 1, losses), 'train_steps'));
w.posenc_lab_free(model);
console.log(JSON.stringify({ file, fixed_ms: +fixed.toFixed(4), fixed_tokens_per_s: Math.round(B * T / fixed * 1000),
  train_ms: +train.toFixed(4) }));
