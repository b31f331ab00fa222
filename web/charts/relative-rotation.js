// relative-rotation.js: the relative-position map R(k), PE(pos + k) = R(k)·PE(pos): the table row at pos + k
// beside the row at pos turned pair by pair by k·w_i (pe.shiftSinusoidal), and how far apart.
import { lineChart, palette, pointLegend, sig, maxAbsDiff, pointArrays, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    colDim: 'dim',
    colDiff: 'difference',
    title: 'PE(m + Δ) and R(Δ)·PE(m), dimension by dimension',
    pos: 'position m',
    k: 'offset Δ',
    base: 'base',
    xTitle: 'dimension (even: sin, odd: cos)',
    yTitle: 'value',
    before: 'PE({pos}), before the rotation',
    target: 'PE({target}) computed directly',
    rotated: 'R({k})·PE({pos}), after the rotation',
    readout: 'max |PE({target}) − R({k})·PE({pos})| = {diff} over {dim} dimensions: rounding alone, because the values are stored as 32-bit floats (float32), which keep about 7 significant digits.',
    readoutSame: 'PE({target}) and R({k})·PE({pos}) are identical in all {dim} dimensions.',
    notice: 'Every cross, R({k})·PE({pos}), sits on its circle, PE({target}): turning each pair of PE({pos}) by {k}·θᵢ gives the row PE({target}), and the same R({k}) works from any position.',
    how: 'R(Δ) turns pair i of the row PE(m) by the angle Δ·θᵢ (angles in float64, the vectors in float32); the circles are the row PE(m + Δ) computed directly from its sines and cosines. Any tiny difference is float32 rounding (about 7 significant digits).',
  },
  zh: {
    colDim: '维度',
    colDiff: '差',
    title: '逐个维度比较 PE(m + Δ) 与 R(Δ)·PE(m)',
    pos: '位置 m',
    k: '偏移 Δ',
    base: '底数 base',
    xTitle: '维度（偶数：sin，奇数：cos）',
    yTitle: '取值',
    before: 'PE({pos})，旋转前',
    target: '直接算出的 PE({target})',
    rotated: 'R({k})·PE({pos})，旋转后',
    readout: '在 {dim} 个维度上 max |PE({target}) − R({k})·PE({pos})| = {diff}，这只是舍入误差：这些数值存成 32 位浮点数（float32），只保留约 7 位有效数字。',
    readoutSame: 'PE({target}) 与 R({k})·PE({pos}) 在全部 {dim} 个维度上完全相同（差为 0）。',
    notice: '每个叉号（R({k})·PE({pos})）都落在对应的圆圈（PE({target})）上：把 PE({pos}) 的每一对转过 {k}·θᵢ，就得到 PE({target}) 这一行；从任何位置出发，用的都是同一个 R({k})。',
    how: 'R(Δ) 把 PE(m) 这一行的第 i 对转过角度 Δ·θᵢ（角度用 float64，向量用 float32）；圆圈是由正弦和余弦直接算出的 PE(m + Δ) 这一行。两者之间若有极小的差别，那是 float32 的舍入误差（约 7 位有效数字）。',
  },
});

export default {
  kind: 'relative-rotation',
  messages: M,
  title: M.title,
  main: 'k',
  params: [
    { name: 'pos', label: M.pos, type: 'int', min: 0, max: 1000, value: 2 },
    { name: 'k', label: M.k, type: 'int', min: 0, max: 1000, value: 6 },
    { name: 'dim', label: 'd_model', type: 'int', min: 2, max: 64, step: 2, value: 16 },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 1000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle, aspect: 2.2 });
    chart.options.plugins.legend = pointLegend;
    chart.options.scales.y.min = -1.15;
    chart.options.scales.y.max = 1.15;
    chart.options.scales.y.afterBuildTicks = (axis) => (axis.ticks = [-1, -0.5, 0, 0.5, 1].map((value) => ({ value })));
    const points = pointArrays();
    const series = (label, values, i, style) => ({
      label,
      data: points(style, values.length, (x) => values[x]),
      borderColor: palette[i],
      backgroundColor: palette[i],
      showLine: false,
      pointRadius: style === 'crossRot' ? 7 : 5,
      pointHoverRadius: 7,
      pointStyle: style,
      pointBorderWidth: 2,
    });
    const view = {
      update({ pos, k, dim, base }) {
        const before = pe.sinusoidal(1, dim, { base, start: pos });
        const target = pe.sinusoidal(1, dim, { base, start: pos + k });
        const rotated = pe.shiftSinusoidal(before, k, { dim, base });
        const diff = maxAbsDiff(target, rotated);
        const v = { pos, k, target: pos + k, dim, diff: sig(diff, 2) };
        chart.data.datasets = [
          { ...series(M.before.format(v), before, 5, 'rectRot'), pointRadius: 3, backgroundColor: 'transparent' },
          { ...series(M.target.format(v), target, 0, 'circle'), backgroundColor: 'transparent' },
          series(M.rotated.format(v), rotated, 1, 'crossRot'),
        ];
        chart.options.scales.x.min = -0.5;
        chart.options.scales.x.max = dim - 0.5;
        // Half-cell margins keep the end markers whole; the ticks stay on the dimensions.
        chart.options.scales.x.afterBuildTicks = (axis) => (axis.ticks = Array.from({ length: dim }, (_, value) => ({ value })));
        chart.update();
        view.notice = M.notice.format(v);
        view.readout = (diff === 0 ? M.readoutSame : M.readout).format(v);
        return {
          measured: { maxDiff: diff },
          columns: ['dim', `PE(${pos})`, `PE(${pos + k})`, `R(${k})PE(${pos})`, 'difference'],
          heads: colHeads([M.colDim, `PE(${pos})`, `PE(${pos + k})`, `R(${k})PE(${pos})`, M.colDiff]),
          rows: Array.from(target, (t, j) => [j, before[j], t, rotated[j], t - rotated[j]]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
