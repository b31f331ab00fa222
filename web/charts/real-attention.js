// real-attention.js: each head's attention in layer 0 of a real model on the reader's sentence,
// and what-if: the same with the fastest or the slowest rotation pairs left out of every score
// (a counterfactual on layer 0 only). Heads whose weight goes mostly to one offset are named.
import { plainCanvas, viridis, fillCells, drawCells, drawColourBar, refresh, textScale, chartFont, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';
import { subscribe, state, modelPanel, noModel, modelName } from './shared/real-model.js';

const M = messages({
  en: {
    share25: '25 %',
    share50: '50 %',
    share75: '75 %',
    title: 'Layer 0\'s attention on your sentence, head by head, with pairs left out',
    heatmap: 'Attention maps of every head of layer 0 on the sentence',
    drop: 'leave out',
    none: 'no pair (the model as it is)',
    fast: 'the fastest pairs',
    slow: 'the slowest pairs',
    share: 'share of the pairs left out',
    query: 'query m',
    key: 'key n',
    head: 'head {h}',
    offset: 'Δ = {d}: {w}',
    sink: 'first token: {w}',
    waiting: 'Reading the model…',
    noticeNone: 'Positional heads (most of their weight on one offset Δ = n − m, whatever the tokens): {list}.',
    noticeNoneZero: 'No head puts more than half its weight on one offset on this sentence; the closest is {head}, with {w} on Δ = {d}. The share is an average over the queries, and each later query has more earlier tokens to spread its weight over, so a shorter sentence can push it past half.{past}',
    pastL0: ' This sentence is also longer than the {L0} tokens the model was trained on.',
    noticeDrop: 'Positional heads that lose their offset when {which} ({share} % of them) are left out: {lost} of {n} ({list}).',
    noticeDropAll: 'With {which} ({share} % of them) left out, all {n} positional heads lose their offset ({list}).',
    noticeDropNone: 'With {which} ({share} % of them) left out, all {n} positional heads keep their offset.',
    noticeDropOne: 'With {which} ({share} % of them) left out, the only positional head ({list}) loses its offset.',
    noticeDropOneKept: 'With {which} ({share} % of them) left out, the only positional head ({list}) keeps its offset.',
    noticeDropZero: 'No head is positional with every pair in, so leaving pairs out has no offset to break.',
    readout: '{model}, {T} tokens, {heads} heads; the weight of each head on its most-used offset (Δ from 0 to −4), averaged over queries m ≥ 4: {list}.',
    readItem: 'h{h} (Δ = {d}) {w}',
    posItem: '{head} (Δ = {d})',
    sep: ', ',
    how: 'Layer 0 is computed exactly (as in the chart above); each score is qₘ · kₙ / √d summed over the rotation pairs of the head, so leaving pairs out drops their terms from every score before the softmax. This is a what-if on layer 0 only: the model never ran without those pairs, and deeper layers would see a different input. A head is named positional when, on average over queries m ≥ 4, more than half its weight falls on one offset Δ between 0 and −4.',
  },
  zh: {
    share25: '25%',
    share50: '50%',
    share75: '75%',
    title: '第 0 层对你的句子的注意力，逐头显示，并可去掉一部分维度对',
    heatmap: '第 0 层各头在句子上的注意力图',
    drop: '去掉',
    none: '不去掉（模型原样）',
    fast: '最快的维度对',
    slow: '最慢的维度对',
    share: '去掉的维度对所占比例',
    query: 'query m',
    key: 'key n',
    head: '头 {h}',
    offset: 'Δ = {d}：{w}',
    sink: '第一个 token：{w}',
    waiting: '正在读取模型…',
    noticeNone: '位置头（无论 token 是什么，大部分权重都落在同一个偏移 Δ = n − m 上）：{list}。',
    noticeNoneZero: '在这个句子上，没有哪个头把一半以上的权重放在同一个偏移上；最接近的是{head}，在 Δ = {d} 上的权重为 {w}。这是对各个 query 取的平均值，越靠后的 query 前面的 token 越多，权重摊得越开，所以换一个更短的句子，这个权重就可能超过一半。{past}',
    pastL0: '此外，这个句子比模型训练时的 {L0} 个 token 还长。',
    noticeDrop: '去掉{which}（占 {share}%）之后，{n} 个位置头中有 {lost} 个失去了偏移（{list}）。',
    noticeDropAll: '去掉{which}（占 {share}%）之后，{n} 个位置头全都失去了偏移（{list}）。',
    noticeDropNone: '去掉{which}（占 {share}%）之后，{n} 个位置头都保留了各自的偏移。',
    noticeDropOne: '去掉{which}（占 {share}%）之后，唯一的位置头（{list}）失去了它的偏移。',
    noticeDropOneKept: '去掉{which}（占 {share}%）之后，唯一的位置头（{list}）保留了它的偏移。',
    noticeDropZero: '所有维度对都在时就没有位置头，所以去掉维度对也没有偏移可破坏。',
    readout: '{model}，{T} 个 token，{heads} 个头；每个头在最常用偏移（Δ 从 0 到 −4）上的权重，对 m ≥ 4 的 query 取平均：{list}。',
    readItem: '头 {h}（Δ = {d}）{w}',
    posItem: '{head}（Δ = {d}）',
    sep: '，',
    how: '第 0 层按上图的方式精确计算；每个得分是 qₘ · kₙ / √d 在该头各个维度对上的和，去掉一些维度对，就是在 softmax 之前从每个得分里删掉它们的项。这只是第 0 层上的消融实验：模型从未在没有这些维度对的情况下运行过，更深的层也会看到不同的输入。若对 m ≥ 4 的 query 取平均后，一个头超过一半的权重落在 0 到 −4 之间的同一个偏移 Δ 上，就称它为位置头。',
  },
});


/** Causal softmax weights [heads][T][T] from rotated q [T][heads][hd], k [T][kvHeads][hd], keeping pairs `keep`. */
export function weightsKeeping(a, keep, scale) {
  const { heads, kvHeads, headDim: hd, rotaryDim: r, length: T } = a;
  const dims = [];
  for (let i = 0; i < r / 2; i++) if (keep(i)) dims.push(i, i + r / 2);
  for (let j = r; j < hd; j++) dims.push(j);
  const out = new Float64Array(heads * T * T), group = heads / kvHeads, row = new Float64Array(T);
  for (let h = 0; h < heads; h++) {
    const g = Math.floor(h / group);
    for (let m = 0; m < T; m++) {
      const qo = (m * heads + h) * hd;
      let mx = -Infinity;
      for (let n = 0; n <= m; n++) {
        const ko = (n * kvHeads + g) * hd;
        let s = 0;
        for (const j of dims) s += a.q[qo + j] * a.k[ko + j];
        row[n] = s * scale;
        if (row[n] > mx) mx = row[n];
      }
      let sum = 0;
      for (let n = 0; n <= m; n++) sum += (row[n] = Math.exp(row[n] - mx));
      for (let n = 0; n <= m; n++) out[(h * T + m) * T + n] = row[n] / sum;
    }
  }
  return out;
}

/** Per head: { d: the offset Δ in 0…−4 with the most weight (mean over queries m ≥ 4), w: that weight, sink: weight on n = 0 }. */
export function headOffsets(w, heads, T) {
  const from = Math.min(4, T - 1);
  return Array.from({ length: heads }, (_, h) => {
    let best = { d: 0, w: 0 }, sink = 0, cnt = 0;
    for (let m = from; m < T; m++) (sink += w[(h * T + m) * T]), cnt++;
    for (let d = 0; d <= 4; d++) {
      let s = 0, c = 0;
      for (let m = Math.max(from, d); m < T; m++) (s += w[(h * T + m) * T + m - d]), c++;
      if (c && s / c > best.w) best = { d: -d, w: s / c };
    }
    return { ...best, sink: cnt ? sink / cnt : 0, positional: best.w > 0.5 };
  });
}

/**
 * The grid of `heads` panels in a canvas `W` px wide whose panels must be at least `need` px
 * wide: { cols, rows, aspect (the canvas's width / height, as CSS text), and the margins }.
 * Rows are added only where the usual one (two past 8 heads) leaves the panels too narrow; then
 * the canvas is as tall as its rows of square panels need.
 */
function grid(heads, W, need) {
  // room for the labels, grown with the text (lettering.js)
  // (the gap grows faster: the last tick of one panel and the first of the next face each other across it)
  const k = textScale(), left = 40 * k, top = 20 * k;
  const fit = (r, gap) => {
    const cols = Math.ceil(heads / r);
    return { cols, rows: Math.ceil(heads / cols), sz: (W - left - 50 * k - (cols - 1) * gap) / cols, gap };
  };
  const usual = fit(heads > 8 ? 2 : 1, 14 * k * k);
  if (usual.sz >= need || usual.cols === 1) {
    // the usual grid keeps the shape it always had, worked out for a 900 px canvas
    const aspect = (900 / (usual.rows * ((900 - 90 - (usual.cols - 1) * 14) / usual.cols + 48) + 10)).toFixed(2);
    return { ...usual, aspect, k, under: 48 * k, left, top };
  }
  // small panels: a wider gap, so that one panel's last tick does not read as one number with
  // the next one's first, and a row's labels kept clear of the titles of the row under it
  let g = usual;
  for (let r = usual.rows + 1; g.sz < need && g.cols > 1; r++) g = fit(r, 28 * k * k);
  const under = 60 * k;
  return { ...g, aspect: (W / (top + g.rows * (g.sz + under) + 10)).toFixed(2), k, under, left, top };
}

export default {
  kind: 'real-attention',
  messages: M,
  title: M.title,
  params: [
    { name: 'drop', label: M.drop, type: 'select', options: ['none', 'fast', 'slow'], value: 'none', optionLabels: { none: M.none, fast: M.fast, slow: M.slow } },
    { name: 'share', label: M.share, type: 'select', options: ['25', '50', '75'], value: '50', optionLabels: { 25: M.share25, 50: M.share50, 75: M.share75 } },
  ],
  mount(el, { pe }) {
    const stopPanel = modelPanel(el);
    const { canvas, paint, reshape, destroy } = plainCanvas(el, 2.1, M.heatmap);
    const ctx = canvas.getContext('2d');
    const images = [];
    const stop = subscribe(pe, () => refresh(el));
    const view = {
      update({ drop, share }) {
        const S = state(), l0 = S.layer0, m = S.model;
        if (!l0) return noModel(view, () => paint(() => {}), M.waiting, ['head', 'query m', 'key n', 'weight'], [COL.head, COL.queryM, COL.keyN, COL.weight]);
        const a = l0.att, half = a.rotaryDim / 2, T = a.length;
        const cut = Math.round((Number(share) / 100) * half);
        const scale = m.lt.softmaxScale / Math.sqrt(a.headDim);
        const keep = drop === 'fast' ? (i) => i >= cut : drop === 'slow' ? (i) => i < half - cut : () => true;
        const w = drop === 'none' ? Float64Array.from(a.weights) : weightsKeeping(a, keep, scale);
        const base = headOffsets(Float64Array.from(a.weights), a.heads, T), now = headOffsets(w, a.heads, T);
        while (images.length < a.heads) images.push(document.createElement('canvas'));
        const titles = now.map((o, h) => M.head.format({ h }) + (o.positional ? ' ●' : ''));
        const xTitles = now.map((o) => M.offset.format({ d: o.d, w: o.w.toFixed(2) }));
        // the widest label a panel carries: a panel narrower than it would run its labels into its neighbour's
        const widest = (font, texts) => ((ctx.font = font), Math.max(...texts.map((t) => ctx.measureText(t).width)));
        const need = Math.max(widest(chartFont('title'), titles), widest(chartFont('tick'), xTitles));
        // the canvas's shape follows the grid of heads (one row of 4 for the lab, two of 5 to 8 for
        // real models; more rows where the width would make the panels narrower than their labels)
        let reshaping = false;
        paint(function draw(ctx, W, H) {
          const { cols, rows, k, gap, under, left, top, aspect } = grid(a.heads, W, need);
          // a width met for the first time reshapes the canvas: painted again at its new height
          // (an export drawing into a context of its own takes the picture at the size it gives)
          if (ctx === canvas.getContext('2d') && !reshaping && reshape(aspect)) {
            reshaping = true;
            paint(draw);
            reshaping = false;
            return;
          }
          const sz = Math.max(20, Math.min((W - left - 50 * k - (cols - 1) * gap) / cols, (H - 10 - rows * under) / rows));
          for (let h = 0; h < a.heads; h++) {
            fillCells(images[h], T, T, viridis, (c, r) => (c > r ? -1 : Math.min(255, Math.round(w[(h * T + r) * T + c] * 255))));
            const col = h % cols, row = Math.floor(h / cols);
            const plot = { x: left + col * (sz + gap), y: top + row * (sz + under), w: sz, h: sz };
            drawCells(ctx, images[h], plot, {
              title: titles[h],
              xTicks: [[0, '0'], [1, String(T - 1)]], yTicks: col === 0 ? [[0, '0'], [1, String(T - 1)]] : [],
              xTitle: xTitles[h], yTitle: col === 0 ? String(M.query) : '', yTitleX: 14 * k,
            });
          }
          // no taller than a panel: beside a phone's small panels a fixed height would dwarf them
          drawColourBar(ctx, viridis, { x: W - 40 * k, y: top, w: 12, h: Math.min(H - 2 * top, 160, sz) }, [[0, '1'], [0.5, '0.5'], [1, '0']]);
        });
        const pos = base.map((o, h) => (o.positional ? h : -1)).filter((h) => h >= 0);
        if (drop === 'none') {
          const top = base.reduce((b, o, h) => (o.w > base[b].w ? h : b), 0);
          view.notice = pos.length ? M.noticeNone.format({ list: pos.map((h) => M.posItem.format({ head: M.head.format({ h }), d: base[h].d })).join(M.sep) })
            : M.noticeNoneZero.format({ head: M.head.format({ h: top }), d: base[top].d, w: base[top].w.toFixed(2), past: m.L0 && T > m.L0 ? M.pastL0.format({ L0: m.L0 }) : '' });
        } else if (!pos.length) view.notice = String(M.noticeDropZero);
        else {
          const lost = pos.filter((h) => !now[h].positional || now[h].d !== base[h].d);
          // one head, none lost and all lost each read as their own sentence ("1 of 1 heads" does not)
          const one = pos.length === 1, none = !lost.length, all = lost.length === pos.length;
          const message = one ? (none ? M.noticeDropOneKept : M.noticeDropOne) : none ? M.noticeDropNone : all ? M.noticeDropAll : M.noticeDrop;
          view.notice = message.format({ which: String(M[drop]), share, lost: lost.length, n: pos.length, list: (one ? pos : lost).map((h) => M.head.format({ h })).join(M.sep) });
        }
        view.readout = M.readout.format({
          model: modelName(m), T, heads: a.heads,
          list: now.map((o, h) => M.readItem.format({ h, d: o.d, w: o.w.toFixed(2) })).join(M.sep),
        });
        const rows = [];
        for (let h = 0; h < a.heads; h++) for (let q = 0; q < T; q++) for (let n = 0; n <= q; n++) rows.push([h, q, n, w[(h * T + q) * T + n]]);
        return { columns: ['head', 'query m', 'key n', 'weight'], heads: colHeads([COL.head, COL.queryM, COL.keyN, COL.weight]), rows };
      },
      destroy: () => (stop(), stopPanel(), destroy()),
    };
    return view;
  },
};
