// extrapolation.js: seed 001 #5, a model trained on length L only ever saw positions
// 0..L−1; how many turns each RoPE pair made by then (θ_i from pe.ropeInvFreq). Pairs that
// never completed one turn met only part of their circle, so positions ≥ L are new to them.
import { lineChart, palette, dashes, lineLegend, sig, logAxis, pointArrays, lazyRows } from './common.js';
import { L, tr } from '../host/i18n.js';

export default {
  kind: 'extrapolation',
  title: L('Turns of each RoPE pair by the last trained position', '到训练过的最后一个位置时 RoPE 每一对转过的圈数'),
  params: [
    { name: 'length', label: L('training length L', '训练长度 L'), type: 'int', min: 2, max: 1000000, value: 4096 },
    { name: 'dim', label: L('head dim d', '头维度 d'), type: 'int', min: 2, max: 4096, step: 2, value: 128 },
    { name: 'base', label: L('base', '底数 base'), type: 'number', min: 1, max: 100000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: L('pair i', '第 i 对'), y: L('turns (L − 1)·θ_i / 2π, log scale', '圈数 (L − 1)·θ_i / 2π，对数坐标'), yType: 'logarithmic' });
    chart.options.plugins.legend = lineLegend;
    Object.assign(chart.options.scales.y, logAxis);
    Object.assign(chart.options.scales.x.ticks, { includeBounds: false, precision: 0 });
    const points = pointArrays();
    const view = {
      update({ length, dim, base }) {
        const theta = pe.ropeInvFreq(dim, { base });
        const half = theta.length;
        const turns = Array.from(theta, (t) => ((length - 1) * t) / (2 * Math.PI));
        const first = turns.findIndex((t) => t < 1);
        const short = first < 0 ? 0 : half - first;
        const pts = half <= 128 ? 3 : 0;
        const part = (key, from, to) => points(key, to - from, (j) => turns[from + j], (j) => from + j);
        const split = first < 0 ? half : first;
        chart.data.datasets = [
          { label: tr('≥ 1 full turn within L', 'L 之内转满 ≥ 1 圈'), data: part('full', 0, split), borderColor: palette[0], backgroundColor: palette[0], borderDash: dashes[0], pointRadius: pts, pointStyle: 'circle' },
          { label: tr('< 1 turn: never came full circle', '< 1 圈：从未转满一圈'), data: part('short', split, half), borderColor: palette[1], backgroundColor: palette[1], borderDash: dashes[1], pointRadius: pts + 1, pointStyle: 'triangle' },
          { label: tr('one turn', '一圈'), data: points('one', 2, () => 1, (i) => i * (half - 1)), borderColor: palette[6], borderDash: dashes[2], borderWidth: 1 },
        ];
        // Half a pair of margin keeps the end markers whole.
        chart.options.scales.x.min = -0.5;
        chart.options.scales.x.max = half - 0.5;
        chart.update();
        view.readout = tr(`${short} of ${half} pairs never complete a turn within L = ${length} positions` +
          (short ? ` (pairs ${first}…${half - 1}; pair ${half - 1} turns ${sig(turns[half - 1], 3)} of a circle, ` +
            `pair 0 ${sig(turns[0], 4)} times).` : ` (the slowest, pair ${half - 1}, turns ${sig(turns[half - 1], 4)} times).`),
          `在 L = ${length} 个位置之内，${half} 对中有 ${short} 对从未转满一圈` +
          (short ? `(第 ${first}…${half - 1} 对；第 ${half - 1} 对只转了 ${sig(turns[half - 1], 3)} 圈，` +
            `第 0 对转了 ${sig(turns[0], 4)} 圈)。` : `（最慢的第 ${half - 1} 对转了 ${sig(turns[half - 1], 4)} 圈）。`));
        return lazyRows({ measured: { neverTurn: short }, columns: ['pair i', 'theta_i', 'turns by position L-1'] },
          () => turns.map((t, i) => [i, theta[i], t]));
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
