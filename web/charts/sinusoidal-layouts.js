// sinusoidal-layouts.js: the three sinusoidal layouts side by side (pe.sinusoidal
// with layout 'interleaved', 'concat', 'tensor2tensor') and their PE·PE dot products (pe.gram):
// interleaved and concat hold the same numbers in another column order, so every dot product
// agrees; tensor2tensor's frequencies base^(−i/(d/2−1)) are others, and so are its products.
// Every layout pairs sin and cos of one frequency, so PE(a)·PE(b) = Σ cos((a − b)·w_i) depends on
// a − b alone: row 0 against every row (length dot products) holds every distance there is,
// where all pairs of rows (length² of them, 50 million multiplications at 256 × 256) would only
// repeat them, rounded differently.
import { plainCanvas, coolwarm, coolwarmIndex, fillCells, drawCells, niceTicks, scaledMargin, lineChart, lineLegend, palette, sig, maxAbsDiff, pointArrays, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    colDot: 'PE(0)·PE(Δ), {name}',
    title: 'Three sinusoidal layouts, and the dot products PE(0)·PE(Δ) they give',
    length: 'positions',
    base: 'base',
    interleavedTitle: 'interleaved [sin, cos, sin, cos, …]',
    interleaved: 'interleaved',
    concatTitle: 'concat [sin … | cos …]',
    concat: 'concat',
    heatmap: 'Heatmap of the {name} sinusoidal table',
    xTitle: 'distance Δ',
    dimension: 'dimension',
    position: 'position',
    note: 'Colour: −1 (blue) through 0 (grey) to 1 (red), positions down, dimensions across. Below: row 0 of each table dotted with row Δ.',
    readout: 'Over all {length} distances Δ, {same}; the tensor2tensor ones differ from them by up to {other}: its slowest frequency is exactly 1/base, while base^(−2i/d) stops one step short of it, at {slowest}.',
    sameExact: 'the interleaved and concat layouts give exactly the same dot products PE(0)·PE(Δ) (the dashed concat line lies on the interleaved one)',
    sameRounded: 'the interleaved and concat dot products PE(0)·PE(Δ) differ only by rounding, at most {same}: they add the same products in another order (the dashed concat line lies on the interleaved one)',
    notice: 'Interleaved and concat hold the same numbers in another order, so their dot products agree (a checkpoint still needs the layout it was trained with); tensor2tensor\'s other frequencies change them by up to {other}.',
    how: 'The page builds each table with d = d_model columns and the chosen number of positions, then dots row 0 with every row Δ. Every layout pairs a sin and a cos of one frequency, so PE(m)·PE(n) depends on n − m alone, and row 0 against every row covers every distance there is.',
  },
  zh: {
    colDot: 'PE(0)·PE(Δ)（{name}）',
    title: '三种正弦位置编码布局，以及它们给出的内积 PE(0)·PE(Δ)',
    length: '位置数',
    base: '底数 base',
    interleavedTitle: '交错 [sin, cos, sin, cos, …]',
    interleaved: '交错',
    concatTitle: '拼接 [sin … | cos …]',
    concat: '拼接',
    heatmap: '{name}布局的正弦位置编码表热力图',
    xTitle: '距离 Δ',
    dimension: '维度',
    position: '位置',
    note: '颜色：从 −1（蓝）经 0（灰）到 1（红），纵向为位置，横向为维度。下图：每张表的第 0 行与第 Δ 行的内积。',
    readout: '在全部 {length} 个距离 Δ 上，{same}；tensor2tensor 的内积与它们最多相差 {other}：它最慢的频率恰好是 1/base，而 base^(−2i/d) 差一步才到，停在 {slowest}。',
    sameExact: '交错与拼接布局给出的内积 PE(0)·PE(Δ) 完全相同（拼接的虚线与交错的实线重合）',
    sameRounded: '交错与拼接布局的内积 PE(0)·PE(Δ) 只差舍入误差，最多 {same}：它们把同样的乘积换个顺序相加（拼接的虚线与交错的实线重合）',
    notice: '交错与拼接布局只是同样的数换了顺序，所以内积一致（但检查点仍须用训练时的布局）；tensor2tensor 的频率不同，内积最多相差 {other}。',
    how: '页面按 d = d_model 列和所选的位置数构建每张表，再把第 0 行与每个第 Δ 行做内积。每种布局都把同一频率的 sin 与 cos 配成一对，所以 PE(m)·PE(n) 只取决于 n − m，第 0 行与各行的内积已经覆盖了所有距离。',
  },
});

// [layout, panel title, name]
const LAYOUTS = [
  ['interleaved', M.interleavedTitle, M.interleaved],
  ['concat', M.concatTitle, M.concat],
  ['tensor2tensor', 'tensor2tensor [sin … | cos …]', 'tensor2tensor'],
];
const MARGIN = { left: 40, right: 8, top: 20, bottom: 34 };

export default {
  kind: 'sinusoidal-layouts',
  messages: M,
  title: M.title,
  params: [
    { name: 'length', label: M.length, type: 'int', min: 2, max: 256, value: 64 },
    { name: 'dim', label: 'd_model', type: 'int', min: 4, max: 256, step: 2, value: 64 },
    { name: 'base', label: M.base, type: 'number', min: 2, max: 1000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const grid = document.createElement('div');
    grid.className = 'cell-panels';
    el.append(grid);
    const panels = LAYOUTS.map(([, , name]) => {
      const box = document.createElement('div');
      grid.append(box);
      const label = () => M.heatmap.format({ name });
      return { ...plainCanvas(box, 1.15, label), image: document.createElement('canvas'), label };
    });
    const note = document.createElement('p');
    note.className = 'chart-note';
    el.append(note);
    const chart = lineChart(el, Chart, { x: M.xTitle, y: 'PE(0)·PE(Δ)', aspect: 2.6 });
    // the legend in the layouts' order, whatever order they are drawn in
    chart.options.plugins.legend = { ...lineLegend, labels: { ...lineLegend.labels, sort: (x, y) => x.datasetIndex - y.datasetIndex } };
    chart.canvas.parentElement.classList.add('phone-tall');
    Object.assign(chart.options.scales.x.ticks, { includeBounds: false });
    const points = pointArrays();

    const view = {
      update({ length, dim, base }) {
        // (written only when the language changed it: a DOM write invalidates the page's style)
        const noteText = String(M.note);
        if (note.textContent !== noteText) note.textContent = noteText;
        const tables = LAYOUTS.map(([layout]) => pe.sinusoidal(length, dim, { base, layout }));
        const grams = tables.map((t) => pe.gram(t.subarray(0, dim), t, dim));
        panels.forEach((p, j) => {
          const t = tables[j];
          fillCells(p.image, dim, length, coolwarm, (c, r) => coolwarmIndex(t[r * dim + c]));
          p.paint((ctx, w, h) => {
            const m = scaledMargin(MARGIN);
            const plot = { x: m.left, y: m.top, w: Math.max(10, w - m.left - m.right), h: Math.max(10, h - m.top - m.bottom) };
            drawCells(ctx, p.image, plot, {
              xTicks: niceTicks(0, dim - 1, 3).map((v) => [(v + 0.5) / dim, String(v)]),
              yTicks: niceTicks(0, length - 1, 4).map((v) => [(v + 0.5) / length, String(v)]),
              xTitle: String(M.dimension), yTitle: String(M.position), title: String(LAYOUTS[j][1]),
            });
          });
        });
        panels.forEach((p) => p.canvas.setAttribute('aria-label', p.label()));
        const xs = Array.from({ length }, (_, x) => x);
        chart.data.datasets = LAYOUTS.map(([, , name], j) => ({
          label: String(name), data: points(j, length, (x) => grams[j][x]),
          borderColor: palette[j], borderDash: [[], [6, 4], [2, 3]][j], borderWidth: [3, 1.5, 2][j],
          // concat equals interleaved: drawn last (lowest order), its dashes show on the wide solid line
          order: j === 1 ? -1 : 0,
        }));
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = length - 1;
        chart.update();
        const same = maxAbsDiff(grams[0], grams[1]), other = maxAbsDiff(grams[0], grams[2]);
        const w = pe.ropeInvFreq(dim, { base });
        const sameText = same === 0 ? String(M.sameExact) : M.sameRounded.format({ same: sig(same, 2) });
        view.readout = M.readout.format({ length, same: sameText, other: sig(other, 3), slowest: sig(w[w.length - 1], 3) });
        view.notice = M.notice.format({ other: sig(other, 3) });
        return {
          measured: { interleavedVsConcat: same, interleavedVsT2t: other },
          columns: ['x', ...LAYOUTS.map(([l]) => `PE(0).PE(x) ${l}`)],
          heads: colHeads(['Δ', ...LAYOUTS.map(([, , name]) => M.colDot.format({ name }))]),
          rows: xs.map((x) => [x, ...grams.map((g) => g[x])]),
        };
      },
      destroy: () => (panels.forEach((p) => p.destroy()), chart.destroy()),
    };
    return view;
  },
};
