// frequency-curves.js: chosen PE dimensions against position, as the source post draws them
// (d_model = 64, 512 positions; dims 18, 19 oscillate fast, dims 54, 55 slowly).
// Dims are chosen as pairs (2i, 2i+1), as the post chooses them: sin and cos of one frequency.
// d_model stops at 512 (the base Transformer's): the frequencies base^(−2i/d) run from 1 to about
// 1/base whatever d is, so a larger d only adds frequencies between those 512 already has, while
// its table (length × d values, of which four columns are drawn) grows with it.
import { lineChart, palette, sig, pointArrays, lazyRows, drawnFrom, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    listSep: ', ',
    title: 'PE value against position for chosen dimensions',
    length: 'positions',
    low: 'fast pair: first dim 2i',
    high: 'slow pair: first dim 2i',
    base: 'base',
    xTitle: 'position m',
    yTitle: 'PE value',
    lowDim: 'fast pair: dim {d} ({fn})',
    highDim: 'slow pair: dim {d} ({fn})',
    ariaLabel: 'PE value against position 0 to {last} for dims {dims} of d_model {dim}',
    turns: '{n} turns',
    partTurn: '{n} of a turn',
    readout: 'Over {length} positions dims {low}, {low1} (θ = {wLow}) make {turnsLow}, dims {high}, {high1} (θ = {wHigh}) {turnsHigh}',
    readoutClamped: ' (a choice past d_model − 2 = {max} was moved to it).',
    end: '.',
    notice: 'The fast pair (dims {low}, {low1}) tells neighbours apart but repeats every {periodLow} positions; the slow pair (dims {high}, {high1}) does not come round within these positions, so it never repeats, but it moves so little that it separates positions only weakly.',
    noticeBoth: 'The fast pair (dims {low}, {low1}) tells neighbours apart but repeats every {periodLow} positions; the slow pair (dims {high}, {high1}) comes round too, only less often, every {periodHigh} positions.',
    noticeSwapped: 'The pair chosen as fast (dims {low}, {low1}) turns no faster than the slow one: the higher the dims, the slower the pair.',
    how: 'Columns 2i and 2i + 1 of the interleaved sinusoidal table (d = d_model, float32), plotted against position m; together they form pair i, with θᵢ = base^(−2i/d). A turn count is (positions − 1)·θᵢ / 2π.',
  },
  zh: {
    listSep: '、',
    title: '所选维度的位置编码值随位置的变化',
    length: '位置数',
    low: '快的一对：起始维度 2i',
    high: '慢的一对：起始维度 2i',
    base: '底数 base',
    xTitle: '位置 m',
    yTitle: '位置编码的取值',
    lowDim: '快的一对：维度 {d}（{fn}）',
    highDim: '慢的一对：维度 {d}（{fn}）',
    ariaLabel: 'd_model = {dim} 时维度 {dims} 的位置编码值，位置 0 到 {last}',
    turns: '转了 {n} 圈',
    partTurn: '转了 {n} 圈',
    readout: '在 {length} 个位置上，维度 {low}、{low1}（θ = {wLow}）{turnsLow}，维度 {high}、{high1}（θ = {wHigh}）{turnsHigh}',
    readoutClamped: '（超过 d_model − 2 = {max} 的选择已改为该值）。',
    end: '。',
    notice: '快的一对（维度 {low}、{low1}）能分辨相邻的位置，但每 {periodLow} 个位置就重复一次；慢的一对（维度 {high}、{high1}）在这些位置内转不满一圈，所以不会重复，但它变化太小，对位置的区分很弱。',
    noticeBoth: '快的一对（维度 {low}、{low1}）能分辨相邻的位置，但每 {periodLow} 个位置就重复一次；慢的一对（维度 {high}、{high1}）也会转回来，只是慢一些，每 {periodHigh} 个位置重复一次。',
    noticeSwapped: '选作“快”的一对（维度 {low}、{low1}）并不比慢的那对转得快：维度越高，这一对转得越慢。',
    how: '取交错排列的正弦位置编码表（d = d_model，float32）中的第 2i 和 2i + 1 列，画出它们随位置 m 的变化；这两列组成第 i 对，θᵢ = base^(−2i/d)。转过的圈数等于 θᵢ 乘以（位置数 − 1）再除以 2π。',
  },
});

export default {
  kind: 'frequency-curves',
  messages: M,
  title: M.title,
  main: 'low',
  params: [
    { name: 'dim', label: 'd_model', type: 'int', min: 4, max: 512, step: 2, value: 64 },
    { name: 'length', label: M.length, type: 'int', min: 2, max: 4096, value: 512 },
    { name: 'low', label: M.low, type: 'int', min: 0, max: 510, step: 2, value: 18 },
    { name: 'high', label: M.high, type: 'int', min: 0, max: 510, step: 2, value: 54 },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 1000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle });
    chart.canvas.parentElement.classList.add('phone-tall');
    // A margin of 0.15 past ±1: a slow cos stays near 1, and on the plot's edge it would vanish into the border.
    Object.assign(chart.options.scales.y, { min: -1.15, max: 1.15, afterBuildTicks: (axis) => { axis.ticks = [-1, -0.5, 0, 0.5, 1].map((value) => ({ value })); } });
    // the table, kept while only the chosen dims move
    let table = null, w = null, key = '';
    const points = pointArrays();
    const last = drawnFrom();
    const view = {
      update(params) {
        const { dim, length, base } = params;
        let { low, high } = params;
        const clamped = low > dim - 2 || high > dim - 2;
        low = Math.min(low, dim - 2);
        high = Math.min(high, dim - 2);
        // Past d_model − 2 a choice is clamped: moving it further changes nothing to draw.
        if (last.same([dim, length, low, high, base, clamped], params)) return last.data;
        if (key !== `${length},${dim},${base}`) {
          table = pe.sinusoidal(length, dim, { base });
          w = pe.ropeInvFreq(dim, { base });
          key = `${length},${dim},${base}`;
        }
        const dims = [low, low + 1, high, high + 1];
        chart.data.datasets = dims.map((d, i) => ({
          label: (i < 2 ? M.lowDim : M.highDim).format({ d, fn: d % 2 ? 'cos' : 'sin' }),
          data: points(i, length, (p) => table[p * dim + d]),
          borderColor: palette[i],
          borderDash: i < 2 ? [] : [6, 4],
        }));
        chart.options.scales.x.max = length - 1;
        chart.canvas.setAttribute('aria-label', M.ariaLabel.format({ last: length - 1, dims: dims.join(String(M.listSep)), dim }));
        chart.update();
        // Turns over the plotted range: the largest angle (length − 1)·w_i over 2π.
        const turns = (d) => ((length - 1) * w[d / 2]) / (2 * Math.PI);
        const turnText = (d) => (turns(d) >= 1 ? M.turns : M.partTurn).format({ n: sig(turns(d), 3) });
        const v = {
          length, low, low1: low + 1, wLow: sig(w[low / 2], 3), turnsLow: turnText(low),
          high, high1: high + 1, wHigh: sig(w[high / 2], 3), turnsHigh: turnText(high), max: dim - 2,
        };
        v.periodLow = sig((2 * Math.PI) / w[low / 2], 3);
        v.periodHigh = sig((2 * Math.PI) / w[high / 2], 3);
        view.notice = (w[low / 2] <= w[high / 2] ? M.noticeSwapped : turns(high) < 1 ? M.notice : M.noticeBoth).format(v);
        view.readout = M.readout.format(v) + (clamped ? M.readoutClamped.format(v) : M.end);
        const drawn = table; // (the next redraw may replace the table)
        return last.keep(lazyRows({ columns: ['position', ...dims.map((d) => `dim ${d}`)], heads: colHeads([COL.position, ...dims.map((d) => COL.dim.format({ d }))]) },
          () => Array.from({ length }, (_, p) => [p, ...dims.map((d) => drawn[p * dim + d])])));
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
