// dynamic-kv-cache.js: issue 6 §18, dynamic NTK with a KV cache. The key written at step t
// (sequence length t, position t − 1) is rotated with scaling { type: 'dynamic', seqLen: t }
// and cached; the query of step T uses seqLen T. Recomputing every key with seqLen T gives the
// scores the model would see without a cache; the difference is what the cache costs.
import { lineChartWith, palette, lineLegend, sig, maxAbsDiff, beyondShade } from './common.js';

const STEPS = 32; // sampled lengths for the top chart: each costs six kernel calls

/** About n lengths from 1 to last, always with maxPos and maxPos + 1 (where the bases part). */
function lengths(last, maxPos, n) {
  const set = new Set([1, last]);
  for (let j = 0; j < n; j++) set.add(1 + Math.round(((last - 1) * j) / (n - 1)));
  for (const t of [maxPos, maxPos + 1]) if (t <= last) set.add(t);
  return [...set].sort((a, b) => a - b);
}

export default {
  kind: 'dynamic-kv-cache',
  title: 'Dynamic NTK with a KV cache: scores from cached keys against keys recomputed with the current base',
  params: [
    { name: 'maxPos', label: 'max_position_embeddings', type: 'int', min: 2, max: 512, value: 32 },
    { name: 'length', label: 'grow to length', type: 'int', min: 2, max: 1024, value: 128 },
    { name: 'factor', label: 'factor s', type: 'number', min: 1, max: 16, step: 'any', value: 2 },
    { name: 'headDim', label: 'head dim', type: 'int', min: 2, max: 128, step: 2, value: 32 },
    { name: 'base', label: 'base', type: 'number', min: 2, max: 1000000, step: 'any', value: 10000 },
    { name: 'seed', label: 'seed for q, k', type: 'int', min: 0, max: 1000, value: 0 },
  ],
  mount(el, { pe, Chart }) {
    const grow = lineChartWith([beyondShade], el, Chart, { x: 'current length T', y: 'largest |difference|', aspect: 2.2 });
    grow.options.plugins.legend = lineLegend;
    grow.options.scales.x.ticks = { includeBounds: false };
    grow.options.scales.y.min = 0;
    grow.options.scales.y1 = { type: 'linear', position: 'right', min: 0, title: { display: true, text: 'attention weight |difference|' }, grid: { drawOnChartArea: false } };
    const note = document.createElement('p');
    note.className = 'chart-note';
    const last = lineChartWith([], el, Chart, { x: 'key position j', y: 'score q·k_j', aspect: 2.2 });
    last.options.plugins.legend = lineLegend;
    last.options.scales.x.ticks = { includeBounds: false };
    last.canvas.parentElement.before(note);
    for (const c of [grow, last]) c.canvas.parentElement.classList.add('phone-tall');

    const view = {
      update({ maxPos, length: T, factor, headDim: hd, base, seed }) {
        const dyn = (seqLen) => ({ type: 'dynamic', factor, maxPositionEmbeddings: maxPos, seqLen });
        const shape = { heads: 1, headDim: hd, style: 'half', base };
        const r = pe.randomNormal(2 * T * hd, seed);
        const q = r.subarray(0, T * hd), k = r.subarray(T * hd);
        const row = (a, j) => a.subarray(j * hd, (j + 1) * hd);
        const upTo = (n) => Array.from({ length: n }, (_, j) => j);

        // The cache as generation fills it: key j is written at length j + 1. Up to maxPos every
        // step has the original base, so those keys are one call.
        const cache = new Float32Array(T * hd);
        const early = Math.min(T, maxPos);
        cache.set(pe.applyRope(k.subarray(0, early * hd), { ...shape, positions: upTo(early), scaling: dyn(early) }));
        for (let j = early; j < T; j++) cache.set(pe.applyRope(row(k, j), { ...shape, positions: [j], scaling: dyn(j + 1) }), j * hd);

        /** Step t: the query at position t − 1, its scores and weights on the cache and on fresh keys. */
        const step = (t) => {
          const qt = pe.applyRope(row(q, t - 1), { ...shape, positions: [t - 1], scaling: dyn(t) });
          const fresh = pe.applyRope(k.subarray(0, t * hd), { ...shape, positions: upTo(t), scaling: dyn(t) });
          const cached = cache.subarray(0, t * hd);
          const v = k.subarray(0, t * hd); // the weights do not depend on v
          return {
            cachedScores: pe.gram(qt, cached, hd), freshScores: pe.gram(qt, fresh, hd),
            cachedW: pe.attention(qt, cached, v, { heads: 1, headDim: hd }).weights,
            freshW: pe.attention(qt, fresh, v, { heads: 1, headDim: hd }).weights,
          };
        };
        const ts = lengths(T, maxPos, Math.min(STEPS, T));
        const series = ts.map((t) => {
          const s = step(t);
          return { t, score: maxAbsDiff(s.cachedScores, s.freshScores), weight: maxAbsDiff(s.cachedW, s.freshW), s };
        });
        const end = series[series.length - 1].s;

        grow.data.datasets = [
          { label: 'largest |score difference| (left axis)', data: series.map((p) => ({ x: p.t, y: p.score })), borderColor: palette[0], backgroundColor: palette[0], borderDash: [], pointRadius: 2 },
          { label: 'largest |attention weight difference| (right axis)', data: series.map((p) => ({ x: p.t, y: p.weight })), borderColor: palette[1], backgroundColor: palette[1], borderDash: [6, 3], pointRadius: 2, pointStyle: 'rect', yAxisID: 'y1' },
        ];
        grow.options.plugins.posencBeyond = { x: maxPos, label: `longer than ${maxPos}` };
        grow.options.scales.x.min = 1;
        grow.options.scales.x.max = T;
        grow.update();

        note.textContent = `At the last step (length ${T}): the query's score on every key, from the cache and recomputed with the current base. ` +
          `Keys 0…${Math.min(T, maxPos) - 1} were cached with the original base, each later key with a larger one; only the newest share the query's base.`;
        const xs = upTo(T);
        last.data.datasets = [
          { label: 'recomputed with the current base', data: xs.map((x) => ({ x, y: end.freshScores[x] })), borderColor: palette[0], borderDash: [], borderWidth: 1.5 },
          { label: 'from the cache (each key with its own step\'s base)', data: xs.map((x) => ({ x, y: end.cachedScores[x] })), borderColor: palette[1], borderDash: [6, 3], borderWidth: 2 },
        ];
        last.options.scales.x.min = 0;
        last.options.scales.x.max = T - 1;
        last.update();

        // What "the base a key was rotated with" means: the slowest pair's wavelength then.
        const slow = (t) => 2 * Math.PI / pe.ropeInvFreq(hd, { base, scaling: dyn(t) })[hd / 2 - 1];
        const before = series.filter((p) => p.t <= maxPos);
        const exact = before.every((p) => p.score === 0 && p.weight === 0);
        const fin = series[series.length - 1];
        const agree = exact ? 'matches the recomputation exactly' : `differs by up to ${sig(Math.max(...before.map((p) => p.score)), 2)}`;
        view.readout = T <= maxPos
          ? `The sequence never grows past max_position_embeddings = ${maxPos}, so every step uses the original base and the ` +
            `cache ${agree} (grow it past ${maxPos} to see them part).`
          : `Up to length ${maxPos} the cache ${agree}; at length ${T} the ${T - maxPos} keys written past it were rotated with ` +
            `${T - maxPos} different bases (slowest-pair wavelength ${sig(slow(maxPos), 4)} at step ${maxPos}, ${sig(slow(T), 4)} now), ` +
            `and the query's scores differ by up to ${sig(fin.score, 3)}, its attention weights by up to ${sig(fin.weight, 3)}.`;
        return {
          measured: { lastScoreDiff: fin.score, lastWeightDiff: fin.weight, exactUpToMax: exact },
          columns: ['length T', 'max |score diff|', 'max |weight diff|'],
          rows: series.map((p) => [p.t, p.score, p.weight]),
        };
      },
      destroy: () => (grow.destroy(), last.destroy()),
    };
    return view;
  },
};
