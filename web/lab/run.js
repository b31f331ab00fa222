// run.js: the lab's runs as the page trains them (in workers, or in time slices on the page):
// every encoding (or the ones chosen) on one task, each evaluated at 1×, 2×, 4× and 8× its training length, RoPE also
// with position interpolation, NTK and YaRN applied at evaluation. And the default run's results
// as web/lab/results.json holds them (made by `npm run lab` with the same calls), decoded into the
// same shape, so the chart draws both alike.
import { unpackPicture } from './picture.js';
import { DEFAULT_RUN } from './default-run.js';

// the page trains what the default run trained, at its lengths, and keeps the same pictures
export const { encodings: ENCODINGS, scalings: SCALINGS, multiples: MULTIPLES } = DEFAULT_RUN;
export const TRAIN_LENGTH = DEFAULT_RUN.train.trainLength;
const ATTENTION_MULTIPLES = DEFAULT_RUN.attention.multiples;
const { sequences: SEQUENCES, seed: EVALUATION_SEED } = DEFAULT_RUN.evaluate;
const ATTENTION_SEED = DEFAULT_RUN.attention.seed;
// For the time a Train has left (estimate.js), a run's speed is measured once it has trained
// MEASURED_STEPS steps: its steps over the last RECENT slices, and an evaluation timed then on
// PROBE of its sequences (its time grows with their number), after one sequence at each length
// has touched the run's buffers. Not sooner: a worker's code runs slower in its first second,
// until the engine has optimised it, and a run's first pass at a length is slower than the rest.
export const MEASURED_STEPS = 30;
const RECENT = 5, PROBE = 1 / 8;

/** How many times a run of `encoding` is evaluated: RoPE also with each scaling. */
export const evaluationsOf = (encoding) => (encoding === 'rope' ? 1 + SCALINGS.length : 1);

const summary = (ev) => ev.map((e) => ({ length: e.length, tokenAccuracy: e.tokenAccuracy, sequenceAccuracy: e.sequenceAccuracy, loss: e.loss }));

/**
 * Trains the encodings named in `encodings` (default every one) on `task` for `steps` steps from
 * `seed`, at `trainLength` with `dModel` and `layers` (pe.train's defaults otherwise), in slices
 * of `slice` steps; after each slice `pause(progress)` may return a promise (a time-sliced page
 * yields there) and a true `cancelled()` stops. progress = { encoding, index, count, step, steps,
 * loss, stepMs, evaluationMs, evaluations }: once the run has trained MEASURED_STEPS steps (or
 * all of them), the ms a step takes now and the ms each of its `evaluations` will take (null
 * before, and evaluationMs always when `probe` is false). Resolves to the runs, or null when
 * cancelled.
 */
export async function trainAll(pe, { task, steps, seed, trainLength = TRAIN_LENGTH, dModel, layers, encodings, probe = true },
  { slice = 10, pause = () => null, cancelled = () => false } = {}) {
  const runs = [];
  const lengths = MULTIPLES.map((m) => m * trainLength);
  const chosen = encodings ? ENCODINGS.filter((e) => encodings.includes(e.encoding)) : ENCODINGS;
  for (let k = 0; k < chosen.length; k++) {
    const enc = chosen[k];
    const run = pe.train({ task, ...enc, trainLength, ...(dModel ? { dModel } : {}), ...(layers ? { layers } : {}), steps: 0, seed });
    try {
      const evaluate = (scaling, sequences = SEQUENCES) => run.evaluate({ lengths, sequences, seed: EVALUATION_SEED, ...(scaling ? { scaling: { type: scaling } } : {}) });
      const evaluations = evaluationsOf(enc.encoding), recent = []; // [steps, ms] of the last slices
      let measured = false, evaluationMs = null;
      while (run.steps < steps) {
        const n = Math.min(slice, steps - run.steps), t0 = performance.now();
        run.step(n);
        recent.push([n, performance.now() - t0]);
        if (recent.length > RECENT) recent.shift();
        if (!measured && run.steps >= Math.min(MEASURED_STEPS, steps)) {
          measured = true;
          if (probe) {
            evaluate(null, 1);
            const t1 = performance.now();
            evaluate(null, SEQUENCES * PROBE);
            evaluationMs = (performance.now() - t1) / PROBE;
          }
        }
        const stepMs = measured ? recent.reduce((ms, r) => ms + r[1], 0) / recent.reduce((m, r) => m + r[0], 0) : null;
        await pause({ encoding: enc.encoding, index: k, count: chosen.length, step: run.steps, steps, loss: run.loss, stepMs, evaluationMs, evaluations });
        if (cancelled()) return null;
      }
      const plain = evaluate(null);
      const record = { encoding: enc.encoding, style: enc.style, loss: run.loss, evaluation: summary(plain), details: details(run, plain, trainLength) };
      if (enc.encoding === 'rope') record.scaled = Object.fromEntries(SCALINGS.map((s) => [s, summary(evaluate(s))]));
      runs.push(record);
    } finally {
      run.free();
    }
  }
  return runs;
}

/**
 * A training worker's side (worker.js; the bench's Node worker): returns settings => trains them
 * with the module from `load()` (loaded once), posting { type: 'progress', …, lastLoss } after
 * every slice, then { type: 'done', runs } or { type: 'error', message }.
 */
export function trainer(load, post) {
  let pe = null;
  return async (settings) => {
    try {
      pe ??= await load();
      const runs = await trainAll(pe, settings, {
        pause: ({ loss, ...p }) => post({ type: 'progress', ...p, lastLoss: loss[loss.length - 1] }),
      });
      post({ type: 'done', runs });
    } catch (err) {
      post({ type: 'error', message: `${err.name}: ${err.message}` });
    }
  };
}

/** The per-position figures and attention pictures of a run trained here, in decodeDetails' shape (weights in full float32). */
function details(run, evaluation, trainLength) {
  const positions = (e) => Array.from(e.positionAccuracy, (accuracy, t) => ({ position: t, accuracy, loss: e.positionLoss[t] }))
    .filter((q) => !Number.isNaN(q.loss));
  const attention = ATTENTION_MULTIPLES.map((multiple) => {
    const a = run.attention({ length: multiple * trainLength, seed: ATTENTION_SEED }), T = a.length, w = new Float32Array(T * T).fill(NaN);
    const base = (a.layers - 1) * a.heads * T * T;
    for (let i = 0; i < T; i++)
      for (let j = 0; j <= i; j++) {
        let sum = 0;
        for (let h = 0; h < a.heads; h++) sum += a.weights[base + h * T * T + i * T + j];
        w[i * T + j] = sum / a.heads;
      }
    return { multiple, length: T, tokens: Array.from(a.tokens), weights: w };
  });
  return { evaluation: evaluation.map((e) => ({ length: e.length, positions: positions(e) })), attention };
}

// Runs trained on this page, by task (the latest of each), for every lab chart on the page.
const trainedHere = new Map();
const listeners = new Set();

/** Records runs trained on this page (trainAll's result and its settings) and tells the charts. */
export function publishTrained(task, runs, settings) {
  trainedHere.set(task, { runs, settings });
  for (const f of listeners) f(task);
}

/** Calls f(task) whenever runs of a task are trained on this page; returns the unsubscribe. */
export function onTrained(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/**
 * The per-position figures and attention of `encoding` on `task`: the latest run trained on this
 * page when there is one, else the file's; with `trained` = that run's settings, or null.
 */
export function labDetails(results, task, encoding) {
  const here = trainedHere.get(task)?.runs.find((r) => r.encoding === encoding);
  if (here) return { ...here.details, trained: trainedHere.get(task).settings };
  return { ...decodeDetails(results, task, encoding), trained: null };
}

const bytesOf = (b) => Uint8Array.from(atob(b.base64), (c) => c.charCodeAt(0));
export const fromBase64 = (b) => new Float32Array(bytesOf(b).buffer);

/**
 * One run of the file with its per-position figures and attention pictures decoded:
 * { evaluation: [{ length, positions: [{ position, accuracy, loss }] }], attention: [{ multiple,
 * length, tokens, weights (T × T, lower triangle, 0..1: picture.js's 10-bit square roots) }] }.
 */
export function decodeDetails(results, task, encoding) {
  const r = results.runs.find((q) => q.task === task && q.encoding === encoding);
  const sequences = results.options.evaluate.sequences;
  const evaluation = r.evaluation.map((e) => {
    const correct = new Uint16Array(bytesOf(e.positionCorrect).buffer), loss = new Float64Array(bytesOf(e.positionLoss).buffer);
    return { length: e.length, positions: Array.from(correct, (c, i) => ({ position: e.offset + i, accuracy: c / sequences, loss: loss[i] })) };
  });
  const attention = r.attention.map((a) => {
    const T = a.length;
    return { multiple: a.multiple, length: T, tokens: a.tokens, weights: unpackPicture(bytesOf(a.weights), T) };
  });
  return { evaluation, attention };
}

const record = (r) => ({
  encoding: r.encoding, style: r.style, ...(r.loss ? { loss: fromBase64(r.loss) } : {}), evaluation: summary(r.evaluation),
  ...(r.scaled ? { scaled: Object.fromEntries(Object.entries(r.scaled).map(([s, ev]) => [s, summary(ev)])) } : {}),
});

/** The file's runs of `task` in trainAll's shape. */
export function decodeResults(results, task) {
  return results.runs.filter((r) => r.task === task).map(record);
}

/** The file's runs of `task` from every seed it holds, first seed first: one trainAll-shaped list per seed (the others without losses). */
export function decodeSeeds(results, task) {
  const others = results.options.seeds.map((seed) => results.seedRuns.filter((r) => r.task === task && r.seed === seed).map(record));
  return [decodeResults(results, task), ...others];
}
