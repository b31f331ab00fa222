// rope-periods.js: RoPE's θ_i = base^(−2i/d) per pair and its period T_i = 2π/θ_i, with
// T_max/4 marked: there even the slowest pair has turned a quarter circle (section 13: the decay is over by then).
import { lineChart, palette, dashes, lineLegend, sig, logAxis, pointArrays, lazyRows, drawnFrom, subscript, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const DIM_PRESETS = ['4', '256', '4096', 'free'];

const M = messages({
  en: {
    title: 'Frequency θᵢ and period Tᵢ = 2π/θᵢ of each RoPE pair',
    free: 'free',
    dimFree: 'd when "free"',
    base: 'base',
    xTitle: 'pair i',
    yTitle: 'θᵢ (rad per position) and Tᵢ (positions), log scale',
    readout: 'd = {dim}, base {base}: Tₘₐₓ = T{last} = {tmax} positions, Tₘₐₓ/4 = {quarter}; θ runs from {theta0} down to θₘᵢₙ = {thetaLast} rad per position.',
    notice: 'The periods grow geometrically, a straight line on the log axis: this head has pairs that repeat every 6.28 positions and pairs that take {tmax} positions to turn once.',
    how: 'θᵢ = base^(−2i/d) is computed in double precision for each pair i = 0 … d/2 − 1, and Tᵢ = 2π/θᵢ. The dotted line is Tₘₐₓ/4, a quarter of the slowest pair\'s period.',
  },
  zh: {
    title: 'RoPE 每一对的频率 θᵢ 与周期 Tᵢ = 2π/θᵢ',
    free: '自定义',
    dimFree: '自定义时的 d',
    base: '底数 base',
    xTitle: '第 i 对',
    yTitle: 'θᵢ（弧度/位置）与 Tᵢ（位置数），对数坐标',
    readout: 'd = {dim}，底数 {base}：Tₘₐₓ = T{last} = {tmax} 个位置，Tₘₐₓ/4 = {quarter}；θ 从每个位置 {theta0} 弧度降到每个位置 {thetaLast} 弧度（θₘᵢₙ）。',
    notice: '周期按等比数列增长，在对数坐标上是一条直线：这个头里既有每 6.28 个位置就重复一次的维度对，也有要 {tmax} 个位置才转一圈的维度对。',
    how: '对每一对 i = 0 … d/2 − 1 用双精度计算 θᵢ = base^(−2i/d) 和 Tᵢ = 2π/θᵢ。点线是 Tₘₐₓ/4，即最慢一对周期的四分之一。',
  },
});

export default {
  kind: 'rope-periods',
  messages: M,
  title: M.title,
  params: [
    { name: 'preset', label: 'd', type: 'select', options: DIM_PRESETS, value: '256', optionLabels: { free: M.free } },
    { name: 'dim', label: M.dimFree, onlyWhen: { preset: 'free' }, type: 'int', min: 2, max: 8192, step: 2, value: 128 },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 10000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle, yType: 'logarithmic' });
    chart.canvas.parentElement.classList.add('phone-legend'); // a legend of several lines on a phone
    chart.options.plugins.legend = lineLegend;
    Object.assign(chart.options.scales.y, logAxis);
    Object.assign(chart.options.scales.x.ticks, { includeBounds: false, precision: 0 });
    const points = pointArrays();
    const last = drawnFrom();
    const view = {
      update(params) {
        const { preset, dim: free, base } = params;
        const dim = preset === 'free' ? free : Number(preset);
        // The free d counts only under "free": moving it under a preset changes nothing to draw.
        if (last.same([dim, base], params)) return last.data;
        const theta = pe.ropeInvFreq(dim, { base });
        const half = theta.length;
        const period = Array.from(theta, (t) => (2 * Math.PI) / t);
        const tmax = period[half - 1], quarter = tmax / 4;
        const pts = half <= 64 ? 3 : 0;
        chart.data.datasets = [
          { label: 'Tᵢ = 2π/θᵢ', data: points('T', half, (i) => period[i]), borderColor: palette[0], backgroundColor: palette[0], borderDash: dashes[0], pointRadius: pts },
          { label: 'θᵢ = base^(−2i/d)', data: points('theta', half, (i) => theta[i]), borderColor: palette[1], backgroundColor: palette[1], borderDash: dashes[1], pointRadius: pts, pointStyle: 'rect' },
          { label: `Tₘₐₓ/4 = ${Math.round(quarter)}`, data: points('quarter', 2, () => quarter, (i) => i * (half - 1)), borderColor: palette[2], borderDash: dashes[2], borderWidth: 2 },
        ];
        // Half a pair of margin keeps the end markers whole.
        chart.options.scales.x.min = -0.5;
        chart.options.scales.x.max = half - 0.5;
        chart.update();
        view.notice = M.notice.format({ tmax: sig(tmax, 6) });
        view.readout = M.readout.format({
          dim, base: sig(base, 6), last: subscript(half - 1), tmax: sig(tmax, 6), quarter: sig(quarter, 6),
          theta0: sig(theta[0], 4), thetaLast: sig(theta[half - 1], 4),
        });
        return last.keep(lazyRows({ measured: { tmax, quarter }, columns: ['pair i', 'theta_i', 'T_i'], heads: colHeads([COL.pairI, 'θᵢ', 'Tᵢ']) }, () => period.map((t, i) => [i, theta[i], t])));
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
