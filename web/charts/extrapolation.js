// extrapolation.js: seed 001 #5, a model trained on length L only ever saw positions
// 0..L−1; how many turns each RoPE pair made by then (θ_i from pe.ropeInvFreq). Pairs that
// never completed one turn met only part of their circle, so positions ≥ L are new to them.
import { lineChart, palette, dashes, lineLegend, sig, logAxis } from './common.js';

export default {
  kind: 'extrapolation',
  title: 'Turns of each RoPE pair by the last trained position',
  params: [
    { name: 'length', label: 'training length L', type: 'int', min: 2, max: 1000000, value: 4096 },
    { name: 'dim', label: 'head dim d', type: 'int', min: 2, max: 4096, step: 2, value: 128 },
    { name: 'base', label: 'base', type: 'number', min: 1, max: 100000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: 'pair i', y: 'turns (L − 1)·θ_i / 2π, log scale', yType: 'logarithmic' });
    chart.options.plugins.legend = lineLegend;
    Object.assign(chart.options.scales.y, logAxis);
    chart.options.scales.x.ticks = { includeBounds: false, precision: 0 };
    const view = {
      update({ length, dim, base }) {
        const theta = pe.ropeInvFreq(dim, { base });
        const half = theta.length;
        const turns = Array.from(theta, (t) => ((length - 1) * t) / (2 * Math.PI));
        const first = turns.findIndex((t) => t < 1);
        const short = first < 0 ? 0 : half - first;
        const pts = half <= 128 ? 3 : 0;
        const part = (from, to) => turns.slice(from, to).map((y, j) => ({ x: from + j, y }));
        const split = first < 0 ? half : first;
        chart.data.datasets = [
          { label: '≥ 1 full turn within L', data: part(0, split), borderColor: palette[0], backgroundColor: palette[0], borderDash: dashes[0], pointRadius: pts, pointStyle: 'circle' },
          { label: '< 1 turn: never came full circle', data: part(split, half), borderColor: palette[1], backgroundColor: palette[1], borderDash: dashes[1], pointRadius: pts + 1, pointStyle: 'triangle' },
          { label: 'one turn', data: [{ x: 0, y: 1 }, { x: half - 1, y: 1 }], borderColor: palette[6], borderDash: dashes[2], borderWidth: 1 },
        ];
        // Half a pair of margin keeps the end markers whole.
        chart.options.scales.x.min = -0.5;
        chart.options.scales.x.max = half - 0.5;
        chart.update();
        view.readout = `${short} of ${half} pairs never complete a turn within L = ${length} positions` +
          (short ? ` (pairs ${first}…${half - 1}; pair ${half - 1} turns ${sig(turns[half - 1], 3)} of a circle, ` +
            `pair 0 ${sig(turns[0], 4)} times).` : ` (the slowest, pair ${half - 1}, turns ${sig(turns[half - 1], 4)} times).`);
        return {
          measured: { neverTurn: short },
          columns: ['pair i', 'theta_i', 'turns by position L-1'],
          rows: turns.map((t, i) => [i, theta[i], t]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
