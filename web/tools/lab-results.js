// lab-results.js (npm run lab): trains the lab page's default run with the SIMD build and writes
// web/lab/results.json, which the page shows at once: for each task and encoding, the options,
// the loss of every step, the evaluation at each multiple of the training length (RoPE also with
// PI, NTK and YaRN, no retraining, and after a short fine-tune at 4x with each), the attention of
// one example at 1x and 4x, and for the learned table what training did to each of its rows.
// The same models from two more seeds give the spread of the headline figures (summaries only).
// tests/lab-results.test.js retrains part of it and checks the file against the code.
//
// Encodings of numbers in the file: summary figures are plain JSON numbers (exact doubles);
// arrays are { dtype, shape?, base64 } of the typed array's little-endian bytes: the loss
// (float32, exact); per position, from `offset` (the first position that carries loss; those
// before it have none), the count of right predictions over the `sequences` evaluated (uint16:
// evaluate's positionAccuracy is count / sequences, exactly) and the mean loss (float64, exact).
// Attention maps are the last layer's weights averaged over heads, lower triangle row by row,
// in web/lab/picture.js's 10-bit square roots.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadPosenc } from '../lib/posenc.js';
import { sequenceLength } from '../lib/lab.js';
import { packPicture } from '../lab/picture.js';
import { DEFAULT_RUN } from '../lab/default-run.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RESULTS_FILE = join(ROOT, 'web', 'lab', 'results.json');

/** The default run (web/lab/default-run.js), what this trains: the tests retrain parts of it. */
export { DEFAULT_RUN };

export const b64 = (typed, shape) => ({
  dtype: typed.constructor.name.replace('Array', '').toLowerCase(),
  ...(shape ? { shape } : {}),
  base64: Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength).toString('base64'),
});

/**
 * The last layer's weights averaged over heads, lower triangle, packed by picture.js: the
 * float32 mean the page computes (run.js details()).
 */
export function attentionPicture(a) {
  const { weights, layers, heads, length: T } = a;
  const mean = new Float32Array((T * (T + 1)) / 2);
  const base = (layers - 1) * heads * T * T;
  let k = 0;
  for (let i = 0; i < T; i++)
    for (let j = 0; j <= i; j++, k++) {
      let s = 0;
      for (let h = 0; h < heads; h++) s += weights[base + h * T * T + i * T + j];
      mean[k] = s / heads;
    }
  return packPicture(mean);
}

/** One evaluate() entry as the file stores it. */
export function evaluationRecord(e, sequences) {
  const offset = e.positionLoss.findIndex((x) => !Number.isNaN(x));
  const correct = Uint16Array.from(e.positionAccuracy.subarray(offset), (a) => Math.round(a * sequences));
  return {
    length: e.length, ...(e.factor ? { factor: e.factor } : {}), tokenAccuracy: e.tokenAccuracy,
    sequenceAccuracy: e.sequenceAccuracy, loss: e.loss, offset, positionCorrect: b64(correct),
    positionLoss: b64(e.positionLoss.slice(offset)),
  };
}

function evaluation(run, lengths, scaling, o) {
  const ev = run.evaluate({ lengths, ...o.evaluate, ...(scaling ? { scaling: { type: scaling } } : {}) });
  return ev.map((e) => evaluationRecord(e, o.evaluate.sequences));
}

const summaryOf = (e) => ({ length: e.length, ...(e.factor ? { factor: e.factor } : {}), tokenAccuracy: e.tokenAccuracy, sequenceAccuracy: e.sequenceAccuracy, loss: e.loss });

/** The options of one model of the run (a rope model sized for its fine-tunes). */
export function trainOptionsOf(task, enc, o = DEFAULT_RUN, seed = o.train.seed) {
  const ft = enc.encoding === 'rope' ? { fineTuneLength: o.fineTune.multiple * o.train.trainLength } : {};
  return { task, ...enc, ...o.train, ...ft, seed };
}

/**
 * What training did to a learned table, row by row up to the longest evaluation sequence: how far
 * each row moved from its initial value (|P - P0| / |P0|), and its largest cosine with any row
 * training reached (0..T-1 of the longest training sequence) other than itself.
 */
export function positionTable(initial, trained, dModel, rows, reached) {
  const row = (a, p) => a.subarray(p * dModel, (p + 1) * dModel);
  const dot = (a, b) => a.reduce((s, x, j) => s + x * b[j], 0);
  const moved = new Float32Array(rows), nearest = new Float32Array(rows);
  for (let p = 0; p < rows; p++) {
    const a = row(trained, p), a0 = row(initial, p);
    moved[p] = Math.sqrt(a.reduce((s, x, j) => s + (x - a0[j]) ** 2, 0) / dot(a0, a0));
    let best = -1;
    for (let q = 0; q < reached; q++) if (q !== p) best = Math.max(best, dot(a, row(trained, q)) / Math.sqrt(dot(a, a) * dot(row(trained, q), row(trained, q))));
    nearest[p] = best;
  }
  return { reached, rows, moved: b64(moved), nearest: b64(nearest) };
}

/** The rope model fine-tuned with `scaling` (trained afresh from the same options; freed). */
export function fineTuned(pe, task, enc, scaling, o = DEFAULT_RUN, seed = o.train.seed) {
  const run = pe.train(trainOptionsOf(task, enc, o, seed));
  try {
    const f = o.fineTune, length = f.multiple * o.train.trainLength;
    const loss = run.step(f.steps, { length, scaling: { type: scaling, factor: f.multiple } });
    const lengths = o.multiples.map((m) => m * o.train.trainLength);
    const ev = run.evaluate({ lengths, ...o.evaluate, scaling: { type: scaling, factor: f.multiple } });
    return { loss: b64(loss), evaluation: ev.map(summaryOf) };
  } finally {
    run.free();
  }
}

/** Another seed of one model: its evaluation summaries (RoPE's scaled and fine-tuned ones too). */
export function seedRecord(pe, task, enc, seed, o = DEFAULT_RUN) {
  const run = pe.train(trainOptionsOf(task, enc, o, seed));
  try {
    const lengths = o.multiples.map((m) => m * o.train.trainLength);
    const ev = (scaling) => run.evaluate({ lengths, ...o.evaluate, ...(scaling ? { scaling: { type: scaling } } : {}) }).map(summaryOf);
    const r = { task, ...enc, seed, evaluation: ev(null) };
    if (enc.encoding === 'rope') {
      r.scaled = Object.fromEntries(o.scalings.map((s) => [s, ev(s)]));
      r.fineTuned = Object.fromEntries(o.scalings.map((s) => [s, { evaluation: fineTuned(pe, task, enc, s, o, seed).evaluation }]));
    }
    return r;
  } finally {
    run.free();
  }
}

/** Trains and evaluates one model of the run; returns its record (run is freed). */
export function runOne(pe, task, enc, o = DEFAULT_RUN) {
  const t0 = performance.now();
  const run = pe.train(trainOptionsOf(task, enc, o));
  try {
    const trainMs = performance.now() - t0;
    const lengths = o.multiples.map((m) => m * o.train.trainLength);
    const record = { task, ...enc, options: run.options, loss: b64(run.loss), evaluation: evaluation(run, lengths, null, o) };
    if (enc.encoding === 'rope') {
      record.scaled = Object.fromEntries(o.scalings.map((s) => [s, evaluation(run, lengths, s, o)]));
      record.fineTuned = Object.fromEntries(o.scalings.map((s) => [s, fineTuned(pe, task, enc, s, o)]));
    }
    if (enc.encoding === 'learned') {
      const fresh = pe.train({ ...trainOptionsOf(task, enc, o), steps: 0 });
      const initial = fresh.parameters().pos_emb;
      fresh.free();
      const rows = sequenceLength(task, Math.max(...o.multiples) * o.train.trainLength);
      record.positionTable = positionTable(initial, run.parameters().pos_emb, run.options.dModel, rows, sequenceLength(task, o.train.trainLength));
    }
    record.attention = o.attention.multiples.map((m) => {
      const a = run.attention({ length: m * o.train.trainLength, seed: o.attention.seed });
      return { multiple: m, length: a.length, tokens: Array.from(a.tokens), weights: { ...b64(attentionPicture(a), [a.length]), dtype: 'sqrt10' } };
    });
    record.ms = { train: Math.round(trainMs), total: Math.round(performance.now() - t0) };
    return record;
  } finally {
    run.free();
  }
}

export async function main() {
  const pe = await loadPosenc({ simd: true });
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  const t0 = performance.now();
  const runs = [];
  for (const task of DEFAULT_RUN.tasks)
    for (const enc of DEFAULT_RUN.encodings) {
      const r = runOne(pe, task, enc);
      runs.push(r);
      const acc = r.evaluation.map((e) => e.tokenAccuracy.toFixed(2)).join(' / ');
      console.log(`${task.padEnd(5)} ${(enc.encoding + (enc.style ? ` ${enc.style}` : '')).padEnd(10)} ${acc}   (${r.ms.total} ms)`);
      if (r.scaled) for (const [s, ev] of Object.entries(r.scaled)) console.log(`${''.padEnd(5)} ${`  + ${s}`.padEnd(10)} ${ev.map((e) => e.tokenAccuracy.toFixed(2)).join(' / ')}`);
      if (r.fineTuned) for (const [s, f] of Object.entries(r.fineTuned)) console.log(`${''.padEnd(5)} ${`  ft ${s}`.padEnd(10)} ${f.evaluation.map((e) => e.tokenAccuracy.toFixed(2)).join(' / ')}`);
    }
  const seedRuns = [];
  for (const seed of DEFAULT_RUN.seeds)
    for (const task of DEFAULT_RUN.tasks)
      for (const enc of DEFAULT_RUN.encodings) seedRuns.push(seedRecord(pe, task, enc, seed));
  console.log(`${seedRuns.length} more runs from seeds ${DEFAULT_RUN.seeds.join(', ')}`);
  const seconds = (performance.now() - t0) / 1000;
  const results = { posenc: version, build: 'simd', options: DEFAULT_RUN, runs, seedRuns };
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  const text = JSON.stringify(results) + '\n';
  writeFileSync(RESULTS_FILE, text);
  console.log(`lab-results: ${runs.length} runs in ${seconds.toFixed(1)} s; wrote ${RESULTS_FILE} (${(text.length / 1024).toFixed(0)} KiB)`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
