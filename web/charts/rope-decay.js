// rope-decay.js: the long-range decay of RoPE: g(x) = 2·Σ cos(x·θ_i), the score of all-ones
// q = k at distance x (pe.ropeDecay), for three choices of θ_i, beside the RoFormer paper's bound.
// Cost: each curve is 2000 distances × d/2 pairs in the kernel; a "free" d stops at 4096, the
// largest of the source post's presets (the frequencies θ_i always run from 1 to about 1/base: a
// larger d only adds pairs between them).
import { lineChart, palette, dashes, lineLegend, sig, intGrid, logAxis } from './common.js';
import { messages } from '../host/i18n.js';

const DIM_PRESETS = ['4', '256', '4096', 'free'];
const THETAS = ['θ_i = base^(−2i/d)', 'θ_i = 1', 'θ_i = 0'];
const SAMPLES = 2000;

const M = messages({
  en: {
    title: 'RoPE score of q = k = all ones against relative distance x',
    free: 'free',
    dimFree: 'd when "free"',
    maxDist: 'largest distance',
    axis: 'x axis',
    linear: 'linear',
    log: 'log',
    bound: 'RoFormer bound',
    base: 'base',
    xTitle: 'relative distance x',
    yTitle: 'score',
    boundLabel: 'bound (2/d)·Σ_j |Σ_{k<j} e^(i·x·θ_k)|',
    readout: 'd = {dim}: g({x0}) = {g0}, g({xn}) = {gn}; over the {count} sampled distances g runs from {lo} (x = {xlo}) to {hi} (x = {xhi})',
    readoutBound: '; the bound goes from {b0} to {bn}',
    readoutQuarter: '; T_max/4 = {quarter}.',
    end: '.',
  },
  zh: {
    title: 'q = k = 全 1 向量时 RoPE 得分随相对距离 x 的变化',
    free: '自定义',
    dimFree: '自定义时的 d',
    maxDist: '最大距离',
    axis: 'x 轴',
    linear: '线性',
    log: '对数',
    bound: 'RoFormer 上界',
    base: '底数 base',
    xTitle: '相对距离 x',
    yTitle: '得分',
    boundLabel: '上界 (2/d)·Σ_j |Σ_{k<j} e^(i·x·θ_k)|',
    readout: 'd = {dim}：g({x0}) = {g0}，g({xn}) = {gn}；在 {count} 个采样距离上，g 从 {lo}（x = {xlo}）到 {hi}（x = {xhi}）',
    readoutBound: '；上界从 {b0} 变到 {bn}',
    readoutQuarter: '；T_max/4 = {quarter}。',
    end: '。',
  },
});

export default {
  kind: 'rope-decay',
  messages: M,
  title: M.title,
  params: [
    { name: 'theta', label: 'θ', type: 'select', options: THETAS, value: THETAS[0] },
    { name: 'preset', label: 'd', type: 'select', options: DIM_PRESETS, value: '256', optionLabels: { free: M.free } },
    { name: 'dim', label: M.dimFree, type: 'int', min: 2, max: 4096, step: 2, value: 128 },
    { name: 'maxDist', label: M.maxDist, type: 'int', min: 10, max: 100000, value: 10000 },
    { name: 'scale', label: M.axis, type: 'select', options: ['linear', 'log'], value: 'linear',
      optionLabels: { linear: M.linear, log: M.log } },
    { name: 'bound', label: M.bound, type: 'bool', value: true },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 10000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle });
    chart.options.plugins.legend = lineLegend;
    const view = {
      update({ theta, preset, dim: free, maxDist, scale, bound, base }) {
        const dim = preset === 'free' ? free : Number(preset);
        const half = dim / 2;
        // The θ_i = 0 and θ_i = 1 cases of the source post replace the frequencies outright.
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
            label: String(M.boundLabel), data: xy(b), borderColor: palette[1], borderDash: dashes[1],
          });
        }
        // Where the slowest pair stops falling; only meaningful for the geometric θ_i.
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
        const v = {
          dim, x0: dist[0], g0: sig(g[0], 6), xn: dist[last], gn: sig(g[last], 4), count: dist.length,
          lo: sig(g[lo], 4), xlo: dist[lo], hi: sig(g[hi], 6), xhi: dist[hi],
          b0: b && sig(b[0], 4), bn: b && sig(b[last], 4), quarter: quarter && Math.round(quarter),
        };
        view.readout = M.readout.format(v) + (b ? M.readoutBound.format(v) : '') + (quarter ? M.readoutQuarter.format(v) : M.end);
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
