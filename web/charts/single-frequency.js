// single-frequency.js: seed 002 #2, PE(pos) = sin(pos) alone: positions 2 and 8 land close
// together because 8 − 2 = 6 is nearly one period 2π.
import { scatterChart, palette, sig, ink, pointArrays } from './common.js';
import { L, tr } from '../host/i18n.js';

const STEPS = 24; // curve samples per unit of position

export default {
  kind: 'single-frequency',
  title: L('One frequency: PE(pos) = sin(pos)', '单一频率：PE(pos) = sin(pos)'),
  params: [
    { name: 'a', label: L('position A', '位置 A'), type: 'int', min: 0, max: 64, value: 2 },
    { name: 'b', label: L('position B', '位置 B'), type: 'int', min: 0, max: 64, value: 8 },
    { name: 'span', label: L('last position shown', '显示到的位置'), type: 'int', min: 4, max: 64, value: 13 },
  ],
  mount(el, { pe, Chart }) {
    const chart = scatterChart(el, Chart, { x: L('position', '位置'), y: L('sin(position)', 'sin(位置)'), aspect: 2.4, legend: true });
    chart.canvas.parentElement.classList.add('phone-tall');
    // Room above ±1 for the labels, ticks only where they mean something.
    Object.assign(chart.options.scales.y, { min: -1.2, max: 1.3, afterBuildTicks: (axis) => { axis.ticks = [-1, -0.5, 0, 0.5, 1].map((value) => ({ value })); } });
    const points = pointArrays();
    const view = {
      update({ a, b, span }) {
        span = Math.max(span, a, b);
        // The curve between whole positions: with rotaryDim 2 the only angle is 1 · position, so
        // ropeCache's sin column is sin(x) at any real x; whole positions come from the PE table.
        const xs = Float64Array.from({ length: span * STEPS + 1 }, (_, j) => j / STEPS);
        const curve = pe.ropeCache(xs, 2).sin;
        const table = pe.sinusoidal(span + 1, 2); // dim 2: w_0 = 1, column 0 is sin(pos)
        const at = (p) => table[2 * p];
        chart.options.scales.x.max = span;
        chart.options.scales.x.min = 0;
        chart.data.datasets = [
          {
            label: tr('sin(x) between positions', '位置之间的 sin(x)'),
            data: points('curve', xs.length, (j) => curve[j], (j) => xs[j]),
            showLine: true, pointRadius: 0, borderColor: '#9aa3b2', borderWidth: 1.5,
          },
          {
            label: tr('PE(pos), whole positions', 'PE(pos)，整数位置'),
            data: points('whole', span + 1, at),
            pointRadius: 3, backgroundColor: palette[0], borderColor: palette[0],
          },
          {
            label: tr(`positions ${a} and ${b}`, `位置 ${a} 和 ${b}`),
            data: [a, b].map((p) => ({ x: p, y: at(p) })),
            pointLabels: [a, b].map((p) => `sin ${p} = ${at(p).toFixed(3)}`),
            labelDy: 10,
            pointRadius: 7, pointStyle: 'rectRot', backgroundColor: palette[1], borderColor: ink().bg,
          },
        ];
        chart.canvas.setAttribute('aria-label', tr(`sin(position) from 0 to ${span}; sin ${a} = ${at(a).toFixed(3)}, sin ${b} = ${at(b).toFixed(3)}`,
          `sin(位置)，位置 0 到 ${span}；sin ${a} = ${at(a).toFixed(3)}，sin ${b} = ${at(b).toFixed(3)}`));
        chart.update();
        const gap = Math.abs(at(a) - at(b));
        view.readout = tr(`sin ${a} = ${at(a).toFixed(3)} and sin ${b} = ${at(b).toFixed(3)} differ by only ${sig(gap, 3)}` +
          (Math.abs(a - b) === 6
            ? `: ${Math.max(a, b)} − ${Math.min(a, b)} = 6 is nearly one period 2π ≈ 6.283, so one frequency can hardly tell them apart.`
            : '.'),
          `sin ${a} = ${at(a).toFixed(3)} 与 sin ${b} = ${at(b).toFixed(3)} 只相差 ${sig(gap, 3)}` +
          (Math.abs(a - b) === 6
            ? `:${Math.max(a, b)} − ${Math.min(a, b)} = 6 几乎正好是一个周期 2π ≈ 6.283，所以单一频率很难把它们分开。`
            : '。'));
        return {
          columns: ['position', 'sin(position)', 'marked'],
          rows: Array.from({ length: span + 1 }, (_, p) => [p, at(p), p === a || p === b ? 1 : 0]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
