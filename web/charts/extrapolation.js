// extrapolation.js: why RoPE does not extrapolate by itself: a model trained on length L only
// ever saw positions 0..L−1; how many turns each RoPE pair made by then (θ_i from
// pe.ropeInvFreq). Pairs that never completed one turn met only part of their circle, so
// positions ≥ L are new to them.
import { lineChart, palette, dashes, lineLegend, sig, logAxis, pointArrays, lazyRows, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    colTurns: 'turns by position L₀ − 1',
    title: 'Turns of each RoPE pair over the largest trained distance L₀ − 1',
    length: 'training length L₀',
    dim: 'head dim d',
    base: 'base',
    xTitle: 'pair i',
    yTitle: 'turns (L₀ − 1)·θᵢ / 2π, log scale',
    full: '≥ 1 full turn within L₀',
    short: '< 1 turn: never came full circle',
    one: 'one turn',
    readout: '{short} of {half} pairs never complete a turn within L₀ = {length}',
    notice: 'The slow pairs never came full circle in training: {short} of {half} pairs meet new angles at distances of L₀ or more.',
    noticeNone: 'Every pair came full circle in training: no pair meets an angle it has not seen at some distance.',
    how: 'Turns = (L₀ − 1)·θᵢ / 2π for each pair, with θᵢ = base^(−2i/d) in double precision: how far pair i has turned over the largest distance a sequence of L₀ tokens contains.',
    readoutShort: ' (pairs {first}…{last}; pair {last} turns {slowest} of a circle, pair 0 {fastest} times).',
    readoutNone: ' (the slowest, pair {last}, turns {slowest} times).',
  },
  zh: {
    colTurns: '到位置 L₀ − 1 转过的圈数',
    title: '在训练见过的最大距离 L₀ − 1 上，RoPE 每一对转过的圈数',
    length: '训练长度 L₀',
    dim: '头维度 d',
    base: '底数 base',
    xTitle: '第 i 对',
    yTitle: '圈数 (L₀ − 1)·θᵢ / 2π，对数坐标',
    full: 'L₀ 之内转满 ≥ 1 圈',
    short: '< 1 圈：从未转满一圈',
    one: '一圈',
    readout: '在 L₀ = {length} 之内，{half} 对中有 {short} 对从未转满一圈',
    notice: '慢的维度对在训练中从未转满一圈：距离达到 L₀ 或更远时，{half} 对中有 {short} 对会遇到新的角度。',
    noticeNone: '每一对在训练中都转满了一圈：没有哪一对会在某个距离上遇到没见过的角度。',
    how: '对每一对计算圈数 (L₀ − 1)·θᵢ / 2π，θᵢ = base^(−2i/d) 用双精度：即在 L₀ 个 token 的序列所含的最大距离上，第 i 对转过了多少圈。',
    readoutShort: '（第 {first}…{last} 对；第 {last} 对只转了 {slowest} 圈，第 0 对转了 {fastest} 圈）。',
    readoutNone: '（最慢的第 {last} 对转了 {slowest} 圈）。',
  },
});

export default {
  kind: 'extrapolation',
  messages: M,
  title: M.title,
  params: [
    { name: 'length', label: M.length, type: 'int', min: 2, max: 1000000, value: 4096 },
    { name: 'dim', label: M.dim, type: 'int', min: 2, max: 4096, step: 2, value: 128 },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 100000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle, yType: 'logarithmic' });
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
          { label: String(M.full), data: part('full', 0, split), borderColor: palette[0], backgroundColor: palette[0], borderDash: dashes[0], pointRadius: pts, pointStyle: 'circle' },
          { label: String(M.short), data: part('short', split, half), borderColor: palette[1], backgroundColor: palette[1], borderDash: dashes[1], pointRadius: pts + 1, pointStyle: 'triangle' },
          { label: String(M.one), data: points('one', 2, () => 1, (i) => i * (half - 1)), borderColor: palette[6], borderDash: dashes[2], borderWidth: 1 },
        ];
        // Half a pair of margin keeps the end markers whole.
        chart.options.scales.x.min = -0.5;
        chart.options.scales.x.max = half - 0.5;
        chart.update();
        const v = {
          short, half, length, first, last: half - 1, slowest: sig(turns[half - 1], short ? 3 : 4), fastest: sig(turns[0], 4),
        };
        view.notice = (short ? M.notice : M.noticeNone).format(v);
        view.readout = M.readout.format(v) + (short ? M.readoutShort : M.readoutNone).format(v);
        return lazyRows({ measured: { neverTurn: short }, columns: ['pair i', 'theta_i', 'turns by position L-1'], heads: colHeads([COL.pairI, 'θᵢ', M.colTurns]) },
          () => turns.map((t, i) => [i, theta[i], t]));
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
