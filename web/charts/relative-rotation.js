// relative-rotation.js: the relative-position map R(k), PE(pos + k) = R(k)·PE(pos): the table row at pos + k
// beside the row at pos turned pair by pair by k·w_i (pe.shiftSinusoidal), and how far apart.
import { lineChart, palette, pointLegend, sig, maxAbsDiff, pointArrays } from './common.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    title: 'PE(pos + k) and R(k)·PE(pos), dimension by dimension',
    pos: 'position pos',
    k: 'offset k',
    base: 'base',
    xTitle: 'dimension (even: sin, odd: cos)',
    yTitle: 'value',
    before: 'PE({pos}), before the rotation',
    target: 'PE({target}) from the table',
    rotated: 'R({k})·PE({pos}): each pair turned by {k}·w_i',
    readout: 'max |PE({target}) − R({k})·PE({pos})| = {diff} over {dim} dimensions (float32 keeps about 7 digits, so this is rounding: the rotation is exact).',
  },
  zh: {
    title: '逐个维度比较 PE(pos + k) 与 R(k)·PE(pos)',
    pos: '位置 pos',
    k: '偏移 k',
    base: '底数 base',
    xTitle: '维度（偶数：sin，奇数：cos）',
    yTitle: '取值',
    before: 'PE({pos})，旋转前',
    target: '表中的 PE({target})',
    rotated: 'R({k})·PE({pos})：每一对转过 {k}·w_i',
    readout: '在 {dim} 个维度上 max |PE({target}) − R({k})·PE({pos})| = {diff}（float32 约保留 7 位有效数字，所以这只是舍入误差：旋转本身是精确的）。',
  },
});

export default {
  kind: 'relative-rotation',
  messages: M,
  title: M.title,
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
        view.readout = M.readout.format(v);
        return {
          measured: { maxDiff: diff },
          columns: ['dim', `PE(${pos})`, `PE(${pos + k})`, `R(${k})PE(${pos})`, 'difference'],
          rows: Array.from(target, (t, j) => [j, before[j], t, rotated[j], t - rotated[j]]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
