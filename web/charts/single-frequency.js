// single-frequency.js: PE(pos) = sin(pos) alone: positions 2 and 8 land close
// together because 8 − 2 = 6 is nearly one period 2π; the readout says how far B − A is from a
// whole number of periods, and calls two values nearly equal only when it is close to one.
import { scatterChart, palette, sig, ink, pointArrays, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const STEPS = 24; // curve samples per unit of position

const M = messages({
  en: {
    colSin: 'sin(position)',
    colMarked: 'marked',
    title: 'One frequency: PE(m) = sin m',
    a: 'position A',
    b: 'position B',
    span: 'last position shown',
    xTitle: 'position',
    yTitle: 'sin m (m = position)',
    curve: 'sin between whole positions',
    whole: 'PE(m) at whole positions m',
    marked: 'positions {a} and {b}',
    ariaLabel: 'sin m for positions m from 0 to {span}; sin {a} = {sa}, sin {b} = {sb}',
    readoutSame: 'A and B are the same position: sin {a} = {sa}.',
    readoutNear: 'sin {a} = {sa} and sin {b} = {sb} differ by only {gap}: {hi} − {lo} = {d} is {off} {side} {periods} ({turns}), so the two nearly coincide.',
    readoutApart: 'sin {a} = {sa} and sin {b} = {sb} differ by {gap}: {hi} − {lo} = {d} is {off} {side} {periods} ({turns}).',
    readoutUnder: 'sin {a} = {sa} and sin {b} = {sb} differ by {gap}: {hi} − {lo} = {d} is less than half a period (2π ≈ 6.283).',
    readoutMirror: ' They are close only because a sine takes each value twice a period (sin x = sin(π − x)), not because they are a period apart.',
    short: 'short of',
    past: 'more than',
    periodOne: 'one period',
    periodMany: '{k} periods',
    turnOne: '2π ≈ 6.283',
    turnMany: '{k}·2π ≈ {kp}',
    noticePeriod: 'Positions {a} and {b} are about {periods} apart: one sine gives them nearly the same value.',
    noticeRepeat: 'One sine repeats every 2π ≈ 6.28 positions, so positions about a period apart look alike.',
    how: 'The dots are the first column of a sinusoidal table of width 2 (a single pair, θ₀ = 1), so each is sin m at a whole position m; the grey curve joins them with 24 points per position. Nothing is fitted: these are the values a one-frequency encoding gives.',
  },
  zh: {
    colSin: 'sin 值',
    colMarked: '已标记',
    title: '单一频率：PE(m) = sin m',
    a: '位置 A',
    b: '位置 B',
    span: '显示的最后一个位置',
    xTitle: '位置',
    yTitle: 'sin m（m 为位置）',
    curve: '整数位置之间的 sin 曲线',
    whole: '整数位置 m 上的 PE(m)',
    marked: '位置 {a} 和 {b}',
    ariaLabel: 'sin m（m 为位置），位置 0 到 {span}；sin {a} = {sa}，sin {b} = {sb}',
    readoutSame: 'A 和 B 是同一个位置：sin {a} = {sa}。',
    readoutNear: 'sin {a} = {sa} 与 sin {b} = {sb} 只相差 {gap}：{hi} − {lo} = {d}，比{periods}（{turns}）{side} {off}，所以两个值几乎重合。',
    readoutApart: 'sin {a} = {sa} 与 sin {b} = {sb} 相差 {gap}：{hi} − {lo} = {d}，比{periods}（{turns}）{side} {off}。',
    readoutUnder: 'sin {a} = {sa} 与 sin {b} = {sb} 相差 {gap}：{hi} − {lo} = {d}，还不到半个周期（2π ≈ 6.283）。',
    readoutMirror: '两者接近只是因为正弦在一个周期里每个值都取两次（sin x = sin(π − x)），并不是因为相隔整数个周期。',
    short: '少',
    past: '多',
    periodOne: '一个周期',
    periodMany: ' {k} 个周期',
    turnOne: '2π ≈ 6.283',
    turnMany: '{k}·2π ≈ {kp}',
    noticePeriod: '位置 {a} 和 {b} 相隔约{periods}：单个正弦给它们的值几乎一样。',
    noticeRepeat: '单个正弦每隔 2π ≈ 6.28 个位置就重复一次，所以相隔约一个周期的位置看起来差不多。',
    how: '图中的点取自宽度为 2 的正弦位置编码表（只有一对，θ₀ = 1）的第一列，即各整数位置 m 上的 sin m；灰色曲线以每个位置 24 个采样点把它们连起来。这里没有任何拟合，就是单一频率编码给出的取值。',
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
        // how far B − A is from the nearest whole number of periods 2π
        const d = Math.abs(a - b), k = Math.round(d / (2 * Math.PI)), off = d - 2 * Math.PI * k;
        const v = {
          a, b, span, sa: at(a).toFixed(3), sb: at(b).toFixed(3), gap: sig(gap, 3), hi: Math.max(a, b), lo: Math.min(a, b),
          d, k, kp: sig(2 * Math.PI * k, 4), off: sig(Math.abs(off), 3), side: String(off < 0 ? M.short : M.past),
        };
        v.periods = (k === 1 ? M.periodOne : M.periodMany).format(v);
        v.turns = (k === 1 ? M.turnOne : M.turnMany).format(v);
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
        // "nearly coincide" only where both hold: B − A within 0.35 of a whole number of periods
        // (8 − 2 = 6 is 0.283 short) and the values within 0.2 of each other, a tenth of sin's range
        const close = gap <= 0.2, near = k > 0 && Math.abs(off) <= 0.35 && close;
        // close for the other reason: sin x = sin(π − x), so A + B near π plus a whole number of periods
        // (said only where that explains the closeness better than the nearest whole number of periods)
        const m = (a + b - Math.PI) / (2 * Math.PI), mirrorOff = Math.abs(m - Math.round(m)) * 2 * Math.PI;
        const mirror = !near && close && mirrorOff <= 0.5 && mirrorOff < Math.abs(off) / 2;
        view.notice = near ? M.noticePeriod.format(v) : String(M.noticeRepeat);
        view.readout = d === 0 ? M.readoutSame.format(v)
          : near ? M.readoutNear.format(v)
            : (k ? M.readoutApart : M.readoutUnder).format(v) + (mirror ? String(M.readoutMirror) : '');
        return {
          columns: ['position', 'sin(position)', 'marked'],
          heads: colHeads([COL.position, M.colSin, M.colMarked]),
          rows: Array.from({ length: span + 1 }, (_, p) => [p, at(p), p === a || p === b ? 1 : 0]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
