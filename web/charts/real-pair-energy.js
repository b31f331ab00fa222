// real-pair-energy.js: from a real model's weights alone, how much of W_q (or W_k) feeds each
// rotation pair, per head: ‖row u‖² + ‖row v‖² for the two rows (u, v) that rotate together,
// as a share of the head's total. Layer 0 at once; every layer when asked (all q/k tensors).
import { plainCanvas, viridis, fillCells, drawCells, drawColourBar, ink, refresh, sig, chartFont, textScale, textSize, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';
import { subscribe, state, modelPanel, readAllLayers, noModel, modelName } from './shared/real-model.js';

const M = messages({
  en: {
    percent: '{n} %',
    colShare: 'share of energy',
    title: 'Which pairs the projections feed: share of each head\'s Wq or Wk energy per pair (weights only, a proxy)',
    heatmap: 'Heatmap of the share of projection energy per head (rows) and rotation pair (columns)',
    matrix: 'projection',
    q: 'Wq (queries)',
    k: 'Wk (keys)',
    layers: 'layers',
    first: 'layer 0',
    all: 'every layer (reads all Wq and Wk)',
    pair: 'pair i (fast → slow)',
    rows: 'head',
    rowsAll: 'layer, head',
    cut: 'Tᵢ > L₀',
    waiting: 'Reading the model…',
    waitingAll: 'Reading Wq and Wk of every layer…',
    noticeMore: 'The slow pairs (Tᵢ > L₀: they never complete a turn in training) get {ratio}× an even share of the energy of {matrix}: the projection leans towards the frequencies that change least over a whole context.',
    noticeLess: 'The slow pairs (Tᵢ > L₀) get only {ratio}× an even share of the energy of {matrix}: the projection leans towards the fast pairs.',
    noticeEven: 'The energy of {matrix} is spread about evenly over the pairs (the slow pairs get {ratio}× an even share): the weights alone do not single out a band.',
    readout: '{model}, {matrix}, {layers}: pairs {cut}–{last} have Tᵢ > L₀ = {L0} ({pairsShare} % of the pairs) and hold {slowShare} % of the energy; the largest share is pair {top} ({topShare} %).',
    how: 'For each head h and pair i, the page adds the squared lengths of the two rows of Wq (or Wk) that rotate together (rows i and i + d/2 of the head: transformers pairs coordinate i with i + d/2, the rotate_half layout of section 14) and divides by the head\'s total. This is read from the weights alone, a proxy: real q and k also depend on the tokens (the next chart). Every layer needs every Wq and Wk tensor (26.5 MB for SmolLM2-135M); layer 0 needs one of each.',
  },
  zh: {
    percent: '{n}%',
    colShare: '能量占比',
    title: '投影把能量给了哪些维度对：每个头的 Wq 或 Wk 能量在各维度对上的份额（仅凭权重，是一种近似）',
    heatmap: '各头（行）与各维度对（列）上投影能量份额的热力图',
    matrix: '投影',
    q: 'Wq（query）',
    k: 'Wk（key）',
    layers: '层',
    first: '第 0 层',
    all: '所有层（读取全部 Wq 和 Wk）',
    pair: '第 i 对（快 → 慢）',
    rows: '头',
    rowsAll: '层、头',
    cut: 'Tᵢ > L₀',
    waiting: '正在读取模型…',
    waitingAll: '正在读取所有层的 Wq 和 Wk…',
    noticeMore: '慢的维度对（Tᵢ > L₀：训练中从未转满一圈）分到的 {matrix}能量是均分份额的 {ratio} 倍：投影偏向在整个上下文中变化最小的频率。',
    noticeLess: '慢的维度对（Tᵢ > L₀）分到的 {matrix}能量只有均分份额的 {ratio} 倍：投影偏向快的维度对。',
    noticeEven: '{matrix}的能量在各维度对上大致均匀（慢的维度对为均分份额的 {ratio} 倍）：仅凭权重看不出偏好哪个频段。',
    readout: '{model}，{matrix}，{layers}：第 {cut}–{last} 对满足 Tᵢ > L₀ = {L0}（占全部维度对的 {pairsShare}%），拥有 {slowShare}% 的能量；份额最大的是第 {top} 对（{topShare}%）。',
    how: '对每个头 h 和每个维度对 i，本页把 Wq（或 Wk）中一起旋转的两行（该头的第 i 行和第 i + d/2 行：transformers 把第 i 个坐标与第 i + d/2 个配成一对，即第 14 节的 rotate_half 布局）的长度平方相加，再除以该头的总和。这只由权重得到，是一种近似：真实的 q 和 k 还取决于 token（见下一张图）。所有层需要每一个 Wq 和 Wk 张量（SmolLM2-135M 为 26.5 MB）；第 0 层只需各一个。',
  },
});

/** The first pair whose wavelength 2π/θ_i exceeds L0 (θ_i = base^(−2i/r)), or half when none. */
export function slowCut(base, r, L0) {
  const half = r / 2;
  if (!L0) return half;
  for (let i = 0; i < half; i++) if (2 * Math.PI * base ** (2 * i / r) > L0) return i;
  return half;
}

export default {
  kind: 'real-pair-energy',
  messages: M,
  title: M.title,
  params: [
    { name: 'matrix', label: M.matrix, type: 'select', options: ['q', 'k'], value: 'q', optionLabels: { q: M.q, k: M.k } },
    { name: 'layers', label: M.layers, type: 'select', options: ['first', 'all'], value: 'first', optionLabels: { first: M.first, all: M.all } },
  ],
  mount(el, { pe }) {
    const stopPanel = modelPanel(el);
    const { paint, destroy } = plainCanvas(el, 2.1, M.heatmap);
    const image = document.createElement('canvas');
    const stop = subscribe(pe, () => refresh(el));
    const view = {
      update({ matrix, layers }) {
        const S = state(), l0 = S.layer0, m = S.model;
        if (!l0) return noModel(view, () => paint(() => {}), M.waiting, ['layer', 'head', 'pair i', 'share'], [COL.layer, COL.head, COL.pairI, M.colShare]);
        if (layers === 'all' && !Array.isArray(S.all)) {
          if (S.all === null) queueMicrotask(readAllLayers);
        }
        const all = layers === 'all' && Array.isArray(S.all);
        const list = all ? S.all : [l0.energy];
        const heads = matrix === 'q' ? l0.att.heads : l0.att.kvHeads, half = l0.att.rotaryDim / 2;
        const rows = [];
        list.forEach((e, layer) => {
          const E = e[matrix];
          for (let h = 0; h < heads; h++) {
            let tot = 0;
            for (let i = 0; i < half; i++) tot += E[h * half + i];
            rows.push([layer, h, Array.from({ length: half }, (_, i) => (tot ? E[h * half + i] / tot : 0))]);
          }
        });
        const max = Math.max(...rows.map((r) => Math.max(...r[2])));
        const cut = slowCut(m.lt.base, l0.att.rotaryDim, m.L0);
        // shares summed over every row, for the notice
        let slow = 0, top = 0;
        const byPair = new Float64Array(half);
        for (const r of rows) r[2].forEach((v, i) => (byPair[i] += v / rows.length));
        for (let i = 0; i < half; i++) {
          if (i >= cut) slow += byPair[i];
          if (byPair[i] > byPair[top]) top = i;
        }
        const pairsShare = (half - cut) / half;
        paint((ctx, w, h) => {
          fillCells(image, half, rows.length, viridis, (c, r) => Math.min(255, Math.round((rows[r][2][c] / max) * 255)));
          // margins for the tick labels, titles and colour bar, grown with the text (lettering.js)
          const k = textScale();
          // (the top margin holds the bracket over the slow pairs and its label)
          const plot = { x: Math.round(64 * k), y: Math.round(34 * k), w: w - Math.round(150 * k), h: h - Math.round(76 * k) };
          // a tick under every pair, or every 2nd, 4th… pair where the labels would crowd
          let every = 1;
          while ((half / every) * textSize('tick') * 2.5 > plot.w) every *= 2;
          const xTicks = [];
          for (let i = 0; i < half; i += every) xTicks.push([(i + 0.5) / half, String(i)]);
          if ((half - 1) % every) xTicks.push([(half - 0.5) / half, String(half - 1)]);
          drawCells(ctx, image, plot, {
            xTicks,
            yTicks: all ? list.map((_, L) => [(L * heads + 0.5) / rows.length, String(L)]).filter((_, L) => L % Math.ceil(list.length / 10) === 0)
              : Array.from({ length: heads }, (_, hh) => [(hh + 0.5) / heads, String(hh)]),
            xTitle: String(M.pair), yTitle: String(all ? M.rowsAll : M.rows), yTitleX: 22 * k,
          });
          if (cut < half) {
            const x = plot.x + (cut / half) * plot.w;
            ctx.save();
            ctx.strokeStyle = '#ffffff';
            ctx.setLineDash([4, 3]);
            ctx.beginPath();
            ctx.moveTo(Math.round(x) + 0.5, plot.y);
            ctx.lineTo(Math.round(x) + 0.5, plot.y + plot.h);
            ctx.stroke();
            ctx.restore();
            // a bracket over the slow pairs, from the line to the last pair, named Tᵢ > L₀
            const right = plot.x + plot.w, y = plot.y - Math.round(6 * k);
            ctx.strokeStyle = ctx.fillStyle = ink().fg;
            ctx.lineWidth = 1;
            ctx.beginPath();
            ctx.moveTo(Math.round(x) + 0.5, plot.y);
            ctx.lineTo(Math.round(x) + 0.5, y + 0.5);
            ctx.lineTo(Math.round(right) - 0.5, y + 0.5);
            ctx.lineTo(Math.round(right) - 0.5, plot.y);
            ctx.stroke();
            ctx.font = chartFont('label');
            ctx.textBaseline = 'bottom';
            const text = String(M.cut), wide = ctx.measureText(text).width;
            // centred over the bracket, or from its start when the bracket is narrower than the label
            ctx.textAlign = wide + 8 < right - x ? 'center' : 'left';
            ctx.fillText(text, ctx.textAlign === 'center' ? (x + right) / 2 : x, y - 2);
          }
          drawColourBar(ctx, viridis, { x: plot.x + plot.w + Math.round(16 * k), y: plot.y, w: 12, h: plot.h }, [[0, M.percent.format({ n: sig(max * 100, 3) })], [1, '0']]);
        });
        const ratio = pairsShare ? slow / pairsShare : 1;
        const v = { matrix: String(M[matrix]), ratio: ratio.toFixed(2) };
        view.notice = (ratio > 1.15 ? M.noticeMore : ratio < 0.87 ? M.noticeLess : M.noticeEven).format(v);
        if (layers === 'all' && !all) view.notice = `${M.waitingAll} ${view.notice}`;
        view.readout = M.readout.format({
          model: modelName(m), matrix: String(M[matrix]), layers: all ? String(M.all).replace(/ \(.*\)$|（.*）$/, '') : String(M.first),
          cut, last: half - 1, L0: m.L0 ?? '–', pairsShare: (pairsShare * 100).toFixed(0), slowShare: (slow * 100).toFixed(1), top, topShare: (byPair[top] * 100).toFixed(1),
        });
        return { columns: ['layer', 'head', 'pair i', 'share'], heads: colHeads([COL.layer, COL.head, COL.pairI, M.colShare]), rows: rows.flatMap(([L, hh, s]) => s.map((x, i) => [L, hh, i, x])) };
      },
      destroy: () => (stop(), stopPanel(), destroy()),
    };
    return view;
  },
};
