// rope-decay.js: seed 004 #2-3, g(x) = 2·Σ cos(x·θ_i), the RoPE score of all-ones q = k at
// distance x (pe.ropeDecay), for three choices of θ_i, beside the RoFormer paper's bound.
// Cost: each curve is 2000 distances × d/2 pairs in the kernel; a "free" d stops at 4096, the
// largest of the seed's presets (the frequencies θ_i always run from 1 to about 1/base: a
// larger d only adds pairs between them).
import { lineChart, palette, dashes, lineLegend, sig, intGrid, logAxis } from './common.js';
import { L, tr } from '../host/i18n.js';

const DIM_PRESETS = ['4', '256', '4096', 'free'];
const THETAS = ['θ_i = base^(−2i/d)', 'θ_i = 1', 'θ_i = 0'];
const SAMPLES = 2000;

export default {
  kind: 'rope-decay',
  title: L('RoPE score of q = k = all ones against relative distance x', 'q = k = 全 1 向量时 RoPE 得分随相对距离 x 的变化'),
  params: [
    { name: 'theta', label: 'θ', type: 'select', options: THETAS, value: THETAS[0] },
    { name: 'preset', label: 'd', type: 'select', options: DIM_PRESETS, value: '256', optionLabels: { free: L('free', '自定义') } },
    { name: 'dim', label: L('d when "free"', '自定义时的 d'), type: 'int', min: 2, max: 4096, step: 2, value: 128 },
    { name: 'maxDist', label: L('largest distance', '最大距离'), type: 'int', min: 10, max: 100000, value: 10000 },
    { name: 'scale', label: L('x axis', 'x 轴'), type: 'select', options: ['linear', 'log'], value: 'linear',
      optionLabels: { linear: L('linear', '线性'), log: L('log', '对数') } },
    { name: 'bound', label: L('RoFormer bound', 'RoFormer 上界'), type: 'bool', value: true },
    { name: 'base', label: L('base', '底数 base'), type: 'number', min: 1, max: 10000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: L('relative distance x', '相对距离 x'), y: L('score', '得分') });
    chart.options.plugins.legend = lineLegend;
    const view = {
      update({ theta, preset, dim: free, maxDist, scale, bound, base }) {
        const dim = preset === 'free' ? free : Number(preset);
        const half = dim / 2;
        // The θ_i = 0 and θ_i = 1 cases of seed 004 replace the frequencies outright.
        const invFreq = theta === THETAS[1] ? new Float64Array(half).fill(1)
          : theta === THETAS[2] ? new Float64Array(half) : undefined;
        const opts = invFreq ? { dim, invFreq } : { dim, base };
        // Linear axis: the exact progression 0, Δ, 2Δ, … ≤ maxDist with Δ = ⌈maxDist/2000⌉, which the
        // kernel computes by a rotation recurrence (3–5× faster than a sin/cos per term); intGrid's
        // rounded points are uneven unless maxDist is a multiple of 2000. The axis still ends at maxDist.
        const step = Math.max(1, Math.ceil(maxDist / SAMPLES));
        const dist = scale === 'log' ? intGrid(1, maxDist, Math.min(SAMPLES + 1, maxDist + 1), 'log')
          : Array.from({ length: Math.floor(maxDist / step) + 1 }, (_, j) => j * step);
        const g = pe.ropeDecay(dist, { ...opts, kind: 'ones' });
        const b = bound ? pe.ropeDecay(dist, { ...opts, kind: 'bound' }) : null;
        const xy = (v) => dist.map((x, j) => ({ x, y: v[j] }));
        chart.data.datasets = [
          { label: 'g(x) = 2·Σ_i cos(x·θ_i)', data: xy(g), borderColor: palette[0], borderDash: dashes[0] },
        ];
        if (b) {
          chart.data.datasets.push({
            label: tr('bound (2/d)·Σ_j |Σ_{k<j} e^(i·x·θ_k)|', '上界 (2/d)·Σ_j |Σ_{k<j} e^(i·x·θ_k)|'), data: xy(b), borderColor: palette[1], borderDash: dashes[1],
          });
        }
        // Where the slowest pair stops falling (seed 004 #3); only meaningful for the geometric θ_i.
        let quarter = null;
        if (!invFreq) {
          quarter = (2 * Math.PI) / pe.ropeInvFreq(dim, { base })[half - 1] / 4;
          if (quarter <= maxDist) {
            let lo = Infinity, hi = -Infinity;
            for (const v of [g, b ?? []]) for (const y of v) (lo = Math.min(lo, y)), (hi = Math.max(hi, y));
            chart.data.datasets.push({
              label: `x = T_max/4 = ${Math.round(quarter)}`, data: [{ x: quarter, y: lo }, { x: quarter, y: hi }],
              borderColor: palette[2], borderDash: dashes[2], borderWidth: 1.5,
            });
          }
        }
        Object.assign(chart.options.scales.x, scale === 'log' ? { type: 'logarithmic', ...logAxis }
          : { type: 'linear', ticks: { maxRotation: 0, includeBounds: false }, grid: {} });
        chart.options.scales.x.min = dist[0];
        chart.options.scales.x.max = maxDist;
        chart.update();
        let lo = 0, hi = 0;
        for (let j = 1; j < g.length; j++) {
          if (g[j] < g[lo]) lo = j;
          if (g[j] > g[hi]) hi = j;
        }
        const last = dist.length - 1;
        view.readout = tr(`d = ${dim}: g(${dist[0]}) = ${sig(g[0], 6)}, g(${dist[last]}) = ${sig(g[last], 4)}; ` +
          `over the ${dist.length} sampled distances g runs from ${sig(g[lo], 4)} (x = ${dist[lo]}) to ${sig(g[hi], 6)} (x = ${dist[hi]})` +
          (b ? `; the bound goes from ${sig(b[0], 4)} to ${sig(b[last], 4)}` : '') +
          (quarter ? `; T_max/4 = ${Math.round(quarter)}.` : '.'),
          `d = ${dim}:g(${dist[0]}) = ${sig(g[0], 6)},g(${dist[last]}) = ${sig(g[last], 4)};` +
          `在 ${dist.length} 个采样距离上，g 从 ${sig(g[lo], 4)}(x = ${dist[lo]})到 ${sig(g[hi], 6)}(x = ${dist[hi]})` +
          (b ? `；上界从 ${sig(b[0], 4)} 变到 ${sig(b[last], 4)}` : '') +
          (quarter ? `;T_max/4 = ${Math.round(quarter)}。` : '。'));
        return {
          columns: ['x', 'g(x)', ...(b ? ['bound'] : [])],
          rows: dist.map((x, j) => [x, g[j], ...(b ? [b[j]] : [])]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
