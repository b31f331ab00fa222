// scaling-decay.js: issue 6 §17, the decay curves of section 13 out to 4·L0, before and after a
// scaling variant: g(x) = 2·Σ cos(x·θ_i) (pe.ropeDecay kind 'ones') and q·R(x)q for one random
// q (kind 'vectors'). Distances past L0 are shaded: the model never saw them in training.
import { lineChartWith, palette, lineLegend, sig, intGrid, logAxis, beyondShade, ink } from './common.js';

const VARIANTS = ['linear (PI)', 'NTK-aware', 'dynamic NTK', 'YaRN', 'llama3'];
const REACH = 4; // the brief's "out to 4× the training length"
const SAMPLES = 1000;

function scalingFor(variant, factor, l0) {
  switch (variant) {
    case 'linear (PI)': return { type: 'linear', factor };
    case 'NTK-aware': return { type: 'ntk', factor };
    // dynamic NTK's base depends on the length being read: here the whole 4·L0 window
    case 'dynamic NTK': return { type: 'dynamic', factor, maxPositionEmbeddings: l0, seqLen: REACH * l0 };
    case 'YaRN': return { type: 'yarn', factor, originalMaxPositionEmbeddings: l0 };
    default: return { type: 'llama3', factor, originalMaxPositionEmbeddings: l0 };
  }
}

/** Share of the distances past l0 at which `v` leaves [lo, hi]. */
function outside(dist, v, l0, lo, hi) {
  let n = 0, out = 0;
  for (let j = 0; j < dist.length; j++) {
    if (dist[j] <= l0) continue;
    n++;
    if (v[j] < lo || v[j] > hi) out++;
  }
  return n ? out / n : 0;
}

function range(dist, v, l0) {
  let lo = Infinity, hi = -Infinity;
  for (let j = 0; j < dist.length && dist[j] <= l0; j++) (lo = Math.min(lo, v[j])), (hi = Math.max(hi, v[j]));
  return [lo, hi];
}

const pct = (f) => `${sig(100 * f, 2)} %`;

export default {
  kind: 'scaling-decay',
  title: 'RoPE decay curves out to 4 × the training length, before and after a scaling variant',
  params: [
    { name: 'variant', label: 'variant', type: 'select', options: VARIANTS, value: 'YaRN' },
    { name: 'factor', label: 'factor s', type: 'number', min: 1, max: 64, step: 'any', value: 4 },
    { name: 'l0', label: 'training length L0', type: 'int', min: 16, max: 65536, value: 4096 },
    { name: 'dim', label: 'head dim d', type: 'int', min: 4, max: 512, step: 2, value: 128 },
    { name: 'base', label: 'base', type: 'number', min: 2, max: 10000000, step: 'any', value: 10000 },
    { name: 'seed', label: 'seed for q', type: 'int', min: 0, max: 1000, value: 0 },
    { name: 'scale', label: 'x axis', type: 'select', options: ['linear', 'log'], value: 'linear' },
  ],
  mount(el, { pe, Chart }) {
    const ones = lineChartWith([beyondShade], el, Chart, { x: 'relative distance x', y: 'g(x) = 2·Σ cos(x·θ_i)', aspect: 2.2 });
    const vec = lineChartWith([beyondShade], el, Chart, { x: 'relative distance x', y: 'q·R(x)q, random q', aspect: 2.2, legend: false });
    ones.options.plugins.legend = lineLegend;
    ones.canvas.parentElement.classList.add('phone-tall');
    vec.canvas.parentElement.classList.add('phone-tall');
    const note = document.createElement('p');
    note.className = 'chart-note';
    note.textContent = 'The same for one random vector q as query and key (colours and dashes as above).';
    vec.canvas.parentElement.before(note);

    const view = {
      update({ variant, factor, l0, dim, base, seed, scale }) {
        const max = REACH * l0;
        const dist = intGrid(scale === 'log' ? 1 : 0, max, Math.min(SAMPLES, max + 1), scale);
        const scaling = scalingFor(variant, factor, l0);
        const q = pe.randomNormal(dim, seed);
        const curves = {};
        for (const kind of ['ones', 'vectors']) {
          const opts = { dim, base, kind, q, k: q, style: 'half' };
          curves[kind] = { before: pe.ropeDecay(dist, opts), after: pe.ropeDecay(dist, { ...opts, scaling }) };
        }
        const attn = pe.ropeAttentionFactor(dim, { base, scaling });
        const xy = (v) => dist.map((x, j) => ({ x, y: v[j] }));
        const stats = {};
        for (const [kind, chart] of [['ones', ones], ['vectors', vec]]) {
          const { before, after } = curves[kind];
          const [lo, hi] = range(dist, before, l0);
          stats[kind] = { lo, hi, before: outside(dist, before, l0, lo, hi), after: outside(dist, after, l0, lo, hi) };
          chart.data.datasets = [
            { label: 'no scaling', data: xy(before), borderColor: palette[0], borderDash: [], borderWidth: 1.25 },
            { label: `${variant}, factor ${sig(factor, 4)}`, data: xy(after), borderColor: palette[1], borderDash: [6, 3], borderWidth: 1.5 },
            { label: `range within L0 without scaling`, data: [{ x: dist[0], y: lo }, { x: max, y: lo }], borderColor: ink().muted, borderDash: [2, 4], borderWidth: 1 },
            { label: '', data: [{ x: dist[0], y: hi }, { x: max, y: hi }], borderColor: ink().muted, borderDash: [2, 4], borderWidth: 1 },
          ];
          chart.options.plugins.posencBeyond = { x: l0, label: `beyond L0 = ${l0}` };
          Object.assign(chart.options.scales.x, scale === 'log' ? { type: 'logarithmic', ...logAxis }
            : { type: 'linear', ticks: { includeBounds: false }, grid: {} });
          chart.options.scales.x.min = dist[0];
          chart.options.scales.x.max = max;
          chart.canvas.setAttribute('aria-label', `${kind === 'ones' ? 'g(x)' : 'q·R(x)q for a random q'} against distance 0 to ${max}, ` +
            `without scaling and with ${variant}; distances past ${l0} shaded`);
          chart.update();
        }
        const s1 = stats.ones, s2 = stats.vectors;
        view.readout = `Past L0 = ${l0}, g(x) leaves the range it had within L0 ([${sig(s1.lo, 4)}, ${sig(s1.hi, 4)}]) at ` +
          `${pct(s1.before)} of the sampled distances without scaling and ${pct(s1.after)} with ${variant}; the random-vector score ` +
          `at ${pct(s2.before)} and ${pct(s2.after)}` +
          (attn !== 1 ? `; ${variant}'s attention factor ${sig(attn, 5)}, left out here, multiplies q and k and so every score by its square.` : '.');
        return {
          measured: { outside: stats, attentionFactor: attn },
          columns: ['x', 'g no scaling', `g ${variant}`, 'q.R(x)q no scaling', `q.R(x)q ${variant}`],
          rows: dist.map((x, j) => [x, curves.ones.before[j], curves.ones.after[j], curves.vectors.before[j], curves.vectors.after[j]]),
        };
      },
      destroy: () => (ones.destroy(), vec.destroy()),
    };
    return view;
  },
};
