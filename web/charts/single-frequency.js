// single-frequency.js: PE(pos) = sin(pos) alone: positions 2 and 8 land close
// together because 8 − 2 = 6 is nearly one period 2π.
import { scatterChart, palette, sig, ink, pointArrays } from './common.js';
import { messages } from '../host/i18n.js';

const STEPS = 24; // curve samples per unit of position

const M = messages({
  en: {
    title: 'One frequency: PE(pos) = sin(pos)',
    a: 'position A',
    b: 'position B',
    span: 'last position shown',
    xTitle: 'position',
    yTitle: 'sin(position)',
    curve: 'sin(x) between positions',
    whole: 'PE(pos), whole positions',
    marked: 'positions {a} and {b}',
    ariaLabel: 'sin(position) from 0 to {span}; sin {a} = {sa}, sin {b} = {sb}',
    readout: 'sin {a} = {sa} and sin {b} = {sb} differ by only {gap}',
    readoutPeriod: ': {hi} − {lo} = 6 is nearly one period 2π ≈ 6.283, so one frequency can hardly tell them apart.',
    end: '.',
  },
  zh: {
    title: '单一频率：PE(pos) = sin(pos)',
    a: '位置 A',
    b: '位置 B',
    span: '显示到的位置',
    xTitle: '位置',
    yTitle: 'sin（位置）',
    curve: '位置之间的 sin(x)',
    whole: 'PE(pos)，整数位置',
    marked: '位置 {a} 和 {b}',
    ariaLabel: 'sin（位置），位置 0 到 {span}；sin {a} = {sa}，sin {b} = {sb}',
    readout: 'sin {a} = {sa} 与 sin {b} = {sb} 只相差 {gap}',
    readoutPeriod: '：{hi} − {lo} = 6 几乎正好是一个周期 2π ≈ 6.283，所以单一频率很难把它们分开。',
    end: '。',
  },
});

export default {
  kind: 'single-frequency',
  messages: M,
  title: M.title,
  params: [
    { name: 'a', label: M.a, type: 'int', min: 0, max: 64, value: 2 },
    { name: 'b', label: M.b, type: 'int', min: 0, max: 64, value: 8 },
    { name: 'span', label: M.span, type: 'int', min: 4, max: 64, value: 13 },
  ],
  mount(el, { pe, Chart }) {
    const chart = scatterChart(el, Chart, { x: M.xTitle, y: M.yTitle, aspect: 2.4, legend: true });
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
        const gap = Math.abs(at(a) - at(b));
        const v = { a, b, span, sa: at(a).toFixed(3), sb: at(b).toFixed(3), gap: sig(gap, 3), hi: Math.max(a, b), lo: Math.min(a, b) };
        chart.options.scales.x.max = span;
        chart.options.scales.x.min = 0;
        chart.data.datasets = [
          {
            label: String(M.curve),
            data: points('curve', xs.length, (j) => curve[j], (j) => xs[j]),
            showLine: true, pointRadius: 0, borderColor: '#9aa3b2', borderWidth: 1.5,
          },
          {
            label: String(M.whole),
            data: points('whole', span + 1, at),
            pointRadius: 3, backgroundColor: palette[0], borderColor: palette[0],
          },
          {
            label: M.marked.format(v),
            data: [a, b].map((p) => ({ x: p, y: at(p) })),
            pointLabels: [`sin ${a} = ${v.sa}`, `sin ${b} = ${v.sb}`],
            labelDy: 10,
            pointRadius: 7, pointStyle: 'rectRot', backgroundColor: palette[1], borderColor: ink().bg,
          },
        ];
        chart.canvas.setAttribute('aria-label', M.ariaLabel.format(v));
        chart.update();
        view.readout = M.readout.format(v) + (Math.abs(a - b) === 6 ? M.readoutPeriod.format(v) : M.end);
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
