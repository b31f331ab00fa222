// scaling-decay.js: issue 6 §17, the decay curves of section 13 out to 4·L0, before and after a
// scaling variant: g(x) = 2·Σ cos(x·θ_i) (pe.ropeDecay kind 'ones') and q·R(x)q for one random
// q (kind 'vectors'). Distances past L0 are shaded: the model never saw them in training.
import { lineChartWith, palette, lineLegend, sig, intGrid, logAxis, beyondShade, ink } from './common.js';
import { L, tr } from '../host/i18n.js';

const VARIANTS = ['linear (PI)', 'NTK-aware', 'dynamic NTK', 'YaRN', 'llama3'];
// The variants' names on the page (the values above stay the same in every language: links use them).
const NAMES = { 'linear (PI)': L('linear (PI)', '线性插值（PI）'), 'dynamic NTK': L('dynamic NTK', '动态 NTK') };
const nameOf = (v) => String(NAMES[v] ?? v);
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
  title: L('RoPE decay curves out to 4 × the training length, before and after a scaling variant',
    'RoPE 衰减曲线延伸到 4 倍训练长度：缩放前与缩放后'),
  params: [
    { name: 'variant', label: L('variant', '缩放变体'), type: 'select', options: VARIANTS, value: 'YaRN', optionLabels: NAMES },
    { name: 'factor', label: L('factor s', '缩放因子 s'), type: 'number', min: 1, max: 64, step: 'any', value: 4 },
    { name: 'l0', label: L('training length L0', '训练长度 L0'), type: 'int', min: 16, max: 65536, value: 4096 },
    { name: 'dim', label: L('head dim d', '头维度 d'), type: 'int', min: 4, max: 512, step: 2, value: 128 },
    { name: 'base', label: L('base', '底数 base'), type: 'number', min: 2, max: 10000000, step: 'any', value: 10000 },
    { name: 'seed', label: L('seed for q', 'q 的种子'), type: 'int', min: 0, max: 1000, value: 0 },
    { name: 'scale', label: L('x axis', 'x 轴'), type: 'select', options: ['linear', 'log'], value: 'linear',
      optionLabels: { linear: L('linear', '线性'), log: L('log', '对数') } },
  ],
  mount(el, { pe, Chart }) {
    const ones = lineChartWith([beyondShade], el, Chart, { x: L('relative distance x', '相对距离 x'), y: 'g(x) = 2·Σ cos(x·θ_i)', aspect: 2.2 });
    const vec = lineChartWith([beyondShade], el, Chart, { x: L('relative distance x', '相对距离 x'), y: L('q·R(x)q, random q', 'q·R(x)q，随机 q'), aspect: 2.2, legend: false });
    ones.options.plugins.legend = lineLegend;
    ones.canvas.parentElement.classList.add('phone-tall');
    vec.canvas.parentElement.classList.add('phone-tall');
    const note = document.createElement('p');
    note.className = 'chart-note';
    vec.canvas.parentElement.before(note);

    const view = {
      update({ variant, factor, l0, dim, base, seed, scale }) {
        note.textContent = tr('The same for one random vector q as query and key (colours and dashes as above).',
          '同样的比较，换成一个随机向量 q 同时作为 query 和 key（颜色和虚线样式同上）。');
        const name = nameOf(variant);
        const max = REACH * l0;
        // Linear axis: the exact progression 0, Δ, 2Δ, … ≤ max (Δ = ⌈max/(SAMPLES − 1)⌉), which the
        // kernel computes by a rotation recurrence; intGrid's rounded points would be uneven.
        const step = Math.max(1, Math.ceil(max / (SAMPLES - 1)));
        const dist = scale === 'log' ? intGrid(1, max, Math.min(SAMPLES, max + 1), 'log')
          : Array.from({ length: Math.floor(max / step) + 1 }, (_, j) => j * step);
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
            { label: tr('no scaling', '不缩放'), data: xy(before), borderColor: palette[0], borderDash: [], borderWidth: 1.25 },
            { label: tr(`${name}, factor ${sig(factor, 4)}`, `${name}，缩放因子 ${sig(factor, 4)}`), data: xy(after), borderColor: palette[1], borderDash: [6, 3], borderWidth: 1.5 },
            { label: tr('range within L0 without scaling', '不缩放时 L0 之内的取值范围'), data: [{ x: dist[0], y: lo }, { x: max, y: lo }], borderColor: ink().muted, borderDash: [2, 4], borderWidth: 1 },
            { label: '', data: [{ x: dist[0], y: hi }, { x: max, y: hi }], borderColor: ink().muted, borderDash: [2, 4], borderWidth: 1 },
          ];
          chart.options.plugins.posencBeyond = { x: l0, label: tr(`beyond L0 = ${l0}`, `超出 L0 = ${l0}`) };
          Object.assign(chart.options.scales.x, scale === 'log' ? { type: 'logarithmic', ...logAxis }
            : { type: 'linear', ticks: { maxRotation: 0, includeBounds: false }, grid: {} });
          chart.options.scales.x.min = dist[0];
          chart.options.scales.x.max = max;
          chart.canvas.setAttribute('aria-label', tr(`${kind === 'ones' ? 'g(x)' : 'q·R(x)q for a random q'} against distance 0 to ${max}, ` +
            `without scaling and with ${variant}; distances past ${l0} shaded`,
            `${kind === 'ones' ? 'g(x)' : '随机 q 的 q·R(x)q'} 随距离 0 到 ${max} 的变化，不缩放与使用 ${name} 对比；超过 ${l0} 的距离加了阴影`));
          chart.update();
        }
        const s1 = stats.ones, s2 = stats.vectors;
        view.readout = tr(`Past L0 = ${l0}, g(x) leaves the range it had within L0 ([${sig(s1.lo, 4)}, ${sig(s1.hi, 4)}]) at ` +
          `${pct(s1.before)} of the sampled distances without scaling and ${pct(s1.after)} with ${variant}; the random-vector score ` +
          `at ${pct(s2.before)} and ${pct(s2.after)}` +
          (attn !== 1 ? `; ${variant}'s attention factor ${sig(attn, 5)}, left out here, multiplies q and k and so every score by its square.` : '.'),
          `超过 L0 = ${l0} 之后，g(x) 离开它在 L0 之内的取值范围（[${sig(s1.lo, 4)}, ${sig(s1.hi, 4)}]）的采样距离比例：` +
          `不缩放时为 ${pct(s1.before)}，使用 ${name} 时为 ${pct(s1.after)}；随机向量得分的比例分别为 ` +
          `${pct(s2.before)} 和 ${pct(s2.after)}` +
          (attn !== 1 ? `；${name} 的注意力因子 ${sig(attn, 5)} 这里没有计入，它乘在 q 和 k 上，因此每个得分都乘以它的平方。` : '。'));
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
