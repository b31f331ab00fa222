// convention-lab.js: interleaved pairs (Meta's LLaMA, GPT-J) against rotate_half
// pairs (Hugging Face, GPT-NeoX) on the same q and k: the row permutation Hugging Face's LLaMA
// conversion applies to W_q and W_k, a measured check that it makes the scores agree, and the
// attention pattern when the permutation is skipped. Every number is a kernel's (pe.applyRope,
// pe.gram, pe.attention); this file only moves indices around.
import { plainCanvas, viridis, fillCells, drawCells, drawColourBar, niceTicks, sig, maxAbsDiff, ink, chartFont, textScale, scaledMargin, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const INPUTS = ['previous-token head', 'random q, k'];
const MARGIN = { left: 40, right: 44, top: 22, bottom: 34 };

const M = messages({
  en: {
    colOf: '{what}: {how}',
    title: 'The same q, k through interleaved and rotate_half pairs: permuted, and not',
    dim: 'head dim d',
    seq: 'tokens',
    input: 'q and k',
    previousToken: 'previous-token head',
    randomQK: 'random q, k',
    norm: 'scale of q, k (multiple of a standard normal)',
    seed: 'seed',
    base: 'base',
    asTrained: 'interleaved weights, interleaved RoPE',
    asTrainedSub: 'as trained',
    converted: 'rows permuted, rotate_half',
    convertedSub: 'converted the way HF does',
    wrong: 'rows not permuted, rotate_half',
    wrongSub: 'the wrong pairing',
    panel: 'Attention weights: {title}',
    keyPosition: 'key position n',
    queryPosition: 'query position m',
    aria: 'Attention weights, {title} ({sub}): {seq} queries down, {seq} keys across, ' +
      'causal; the previous token gets {prev} % on average.',
    caption: 'The row permutation of W<sub>Q</sub> and W<sub>K</sub> (and so of q, k): Hugging Face row j takes Meta row …',
    scrollHint: 'The table below has {d} columns, j = 0 to {last}; where it is wider than the page, scroll it sideways to see them all.',
    hfRow: 'HF row j',
    metaRow: 'Meta row',
    pair: 'pair i',
    readout: 'A difference is the largest absolute difference over the {seq}×{seq} scores or weights. The previous token gets ' +
      '{prevTrained} % of each query\'s attention as trained, {prevConverted} % converted and ' +
      '{prevWrong} % with the wrong pairing. With the wrong pairing, each query gives {selfWrong} % of its attention to its own ' +
      'position (as trained, {selfTrained} %).',
    readoutHead: 'A difference is the largest absolute difference over the {seq}×{seq} scores or weights: with the rows permuted, rotate_half\'s scores match the interleaved ones to {scoreDiff}; ' +
      'without, the attention weights differ by up to {wrongDiff}. As trained, each query gives {selfTrained} % of its attention to its own position.',
    noticeHead: 'Converted, the head keeps its previous-token pattern ({prevConverted} %, as trained); with the rows not permuted the pattern changes: the previous token gets {prevWrong} %, each query’s own position {selfWrong} %.',
    noticeRandom: 'With the rows permuted, rotate_half gives the interleaved scores (to {scoreDiff}); without, the attention weights differ by up to {wrongDiff}.',
    how: 'The page rotates the same q and k three ways: interleaved pairs, rotate_half pairs after the row permutation, and rotate_half pairs without it, then takes the scores q·k and a causal softmax. The previous-token head uses one random vector c (from the seed, times the scale control) as every query and c rotated one position on as every key, so its score peaks one position back. Percentages are averaged over the queries at positions 1 and later.',
  },
  zh: {
    colOf: '{what}：{how}',
    title: '同样的 q、k 分别经过交错配对和 rotate_half 配对：置换与不置换',
    dim: '头维度 d',
    seq: 'token 数',
    input: 'q 和 k',
    previousToken: '关注前一个 token 的头',
    randomQK: '随机的 q、k',
    norm: 'q、k 的尺度（标准正态的倍数）',
    seed: '种子',
    base: '底数 base',
    asTrained: '交错的权重，交错的 RoPE',
    asTrainedSub: '与训练时相同',
    converted: '行已置换，rotate_half',
    convertedSub: '按 HF 的方式转换',
    wrong: '行未置换，rotate_half',
    wrongSub: '错误的配对',
    panel: '注意力权重：{title}',
    keyPosition: 'key 位置 n',
    queryPosition: 'query 位置 m',
    aria: '注意力权重，{title}（{sub}）：纵向 {seq} 个 query，横向 {seq} 个 key，' +
      '因果掩码；前一个 token 平均得到 {prev}%。',
    caption: 'W<sub>Q</sub> 和 W<sub>K</sub> 的行置换（q、k 的维度随之同样置换）：Hugging Face 的第 j 行取自 Meta 的第 … 行',
    scrollHint: '下表共 {d} 列（j = 0 到 {last}）；表格比页面宽时，左右滚动即可看到全部列。',
    hfRow: 'HF 第 j 行',
    metaRow: 'Meta 的行',
    pair: '维度对 i',
    readout: '相差指 {seq}×{seq} 个得分或权重逐个比较时的最大差值（取绝对值）。每个 query 分给前一个 token 的注意力比例：训练时为 ' +
      '{prevTrained}%，转换后为 {prevConverted}%，配对错误时为 {prevWrong}%。' +
      '配对错误时，每个 query 分给自身位置的注意力为 {selfWrong}%（训练时为 {selfTrained}%）。',
    readoutHead: '相差指 {seq}×{seq} 个得分或权重逐个比较时的最大差值（取绝对值）：置换行之后，rotate_half 的得分与交错配对的得分相差不超过 {scoreDiff}；' +
      '不置换时，注意力权重最多相差 {wrongDiff}。训练时，每个 query 分给自身位置的注意力为 {selfTrained}%。',
    noticeHead: '转换后，这个头保留了关注前一个 token 的模式（{prevConverted}%，与训练时相同）；行不置换时模式变了：前一个 token 只得到 {prevWrong}%，每个 query 分给自身位置的注意力为 {selfWrong}%。',
    noticeRandom: '置换行之后，rotate_half 给出与交错配对相同的得分（相差不超过 {scoreDiff}）；不置换时，注意力权重最多相差 {wrongDiff}。',
    how: '页面把同样的 q 和 k 用三种方式旋转：交错配对；先置换行、再用 rotate_half 配对；不置换、直接用 rotate_half 配对，然后计算得分 q·k 并做带因果掩码的 softmax。关注前一个 token 的头用一个随机向量 c（由种子生成，再乘以“尺度”控件的值）作为每个 query，把 c 旋转一个位置后作为每个 key，于是得分在前一个位置处最大。百分比是对位置 1 及之后的各个 query 取的平均。',
  },
});

/** HF row j of W_q / W_k takes Meta row perm[j]: half dim i <- 2i, half dim i + d/2 <- 2i + 1. */
export const hfFromMeta = (d) => Array.from({ length: d }, (_, j) => (j < d / 2 ? 2 * j : 2 * (j - d / 2) + 1));

/** Rows [n][d] of x with their dims reordered: out[r][j] = x[r][perm[j]] (a layout move). */
function permuteDims(x, d, perm) {
  const out = new Float32Array(x.length);
  for (let r = 0; r < x.length / d; r++) for (let j = 0; j < d; j++) out[r * d + j] = x[r * d + perm[j]];
  return out;
}

function tile(v, n) {
  const out = new Float32Array(n * v.length);
  for (let r = 0; r < n; r++) out.set(v, r * v.length);
  return out;
}

export default {
  kind: 'convention-lab',
  messages: M,
  title: M.title,
  params: [
    { name: 'dim', label: M.dim, type: 'int', min: 4, max: 64, step: 2, value: 32 },
    { name: 'seq', label: M.seq, type: 'int', min: 2, max: 48, value: 16 },
    { name: 'input', label: M.input, type: 'select', options: INPUTS, value: INPUTS[0],
      optionLabels: { [INPUTS[0]]: M.previousToken, [INPUTS[1]]: M.randomQK } },
    { name: 'norm', label: M.norm, type: 'number', min: 0.25, max: 8, step: 'any', value: 3 },
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 1000, value: 0 },
    { name: 'base', label: M.base, type: 'number', min: 2, max: 1000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe }) {
    const scroll = document.createElement('div');
    scroll.className = 'table-scroll';
    const table = document.createElement('table');
    table.className = 'values mono perm-table';
    scroll.append(table);
    const hint = document.createElement('p');
    hint.className = 'chart-note';
    el.append(hint, scroll);
    const grid = document.createElement('div');
    grid.className = 'cell-panels';
    el.append(grid);
    // Panel titles and subtitles, read in the current language at each draw.
    const NAMES = [[M.asTrained, M.asTrainedSub], [M.converted, M.convertedSub], [M.wrong, M.wrongSub]];
    const panels = NAMES.map(([title]) => {
      const box = document.createElement('div');
      grid.append(box);
      const p = plainCanvas(box, 1.05, () => M.panel.format({ title: String(title) }));
      return { ...p, image: document.createElement('canvas') };
    });

    const paintPanel = (panel, [title, subtitle], seq) => panel.paint((ctx, w, h) => {
      const k = textScale(), m = scaledMargin(MARGIN, k), sub = Math.round(12 * k);
      const side = Math.max(10, Math.min(w - m.left - m.right, h - m.top - m.bottom));
      const plot = { x: m.left, y: m.top + sub, w: side, h: side - sub };
      const ticks = niceTicks(0, seq - 1, 4).map((v) => [(v + 0.5) / seq, String(v)]);
      drawCells(ctx, panel.image, plot, { xTicks: ticks, yTicks: ticks, xTitle: String(M.keyPosition), yTitle: String(M.queryPosition), title, width: w });
      ctx.fillStyle = ink().muted;
      ctx.font = chartFont('tick');
      ctx.textAlign = 'left';
      ctx.textBaseline = 'bottom';
      ctx.fillText(subtitle, plot.x, plot.y - 18 * k);
      drawColourBar(ctx, viridis, { x: plot.x + plot.w + 8, y: plot.y, w: 8, h: plot.h }, [[0, '1'], [0.5, '0.5'], [1, '0']]);
    });

    const view = {
      update({ dim: d, seq, input, norm, seed, base }) {
        const perm = hfFromMeta(d);
        const positions = Array.from({ length: seq }, (_, j) => j);
        const one = { heads: 1, headDim: d, base };
        let q, k;
        if (input === INPUTS[0]) {
          // A head that looks one token back, as a model trained with interleaved pairs would
          // learn it: the key is the query's content rotated one position on (interleaved), so
          // q_m · k_n peaks at n = m − 1.
          // Trained heads have long q and k; `norm` stands for that and sets how sharp the softmax is.
          const c = pe.randomNormal(d, seed).map((v) => v * norm);
          q = tile(c, seq);
          k = tile(pe.applyRope(c, { ...one, positions: [1], style: 'interleaved' }), seq);
        } else {
          const r = pe.randomNormal(2 * seq * d, seed).map((v) => v * norm);
          (q = r.subarray(0, seq * d)), (k = r.subarray(seq * d));
        }
        const rot = (x, style) => pe.applyRope(x, { ...one, positions, style });
        const cases = [
          [rot(q, 'interleaved'), rot(k, 'interleaved')],
          [rot(permuteDims(q, d, perm), 'half'), rot(permuteDims(k, d, perm), 'half')],
          [rot(q, 'half'), rot(k, 'half')],
        ];
        const scores = cases.map(([qr, kr]) => pe.gram(qr, kr, d));
        const weights = cases.map(([qr, kr]) => pe.attention(qr, kr, k, { heads: 1, headDim: d, causal: true }).weights);
        const scoreDiff = maxAbsDiff(scores[0], scores[1]);
        const wrongDiff = maxAbsDiff(weights[0], weights[2]);
        // mean weight a query (from position 1 on) gives the key `back` positions behind it
        const mean = (w, back) => {
          let sum = 0;
          for (let m = 1; m < seq; m++) sum += w[m * seq + m - back];
          return sum / (seq - 1);
        };
        const prev = (w) => mean(w, 1), self = (w) => mean(w, 0);
        const [prevTrained, prevConverted, prevWrong] = weights.map((w) => sig(100 * prev(w), 3));
        const v = {
          seq, scoreDiff: sig(scoreDiff, 2), wrongDiff: sig(wrongDiff, 3), prevTrained, prevConverted, prevWrong,
          selfWrong: sig(100 * self(weights[2]), 3), selfTrained: sig(100 * self(weights[0]), 3),
        };

        panels.forEach((p, j) => {
          fillCells(p.image, seq, seq, viridis, (c, r) => Math.min(255, Math.floor(weights[j][r * seq + c] * 256)));
          const names = NAMES[j].map(String);
          paintPanel(p, names, seq);
          p.canvas.setAttribute('aria-label', M.aria.format({ seq, title: names[0], sub: names[1], prev: [prevTrained, prevConverted, prevWrong][j] }));
        });

        const th = (t) => `<th scope="col">${t}</th>`;
        hint.textContent = M.scrollHint.format({ d, last: d - 1 });
        table.innerHTML = `<caption>${M.caption}</caption>` +
          `<thead><tr><th scope="row">${M.hfRow}</th>${perm.map((_, j) => th(j)).join('')}</tr></thead>` +
          `<tbody><tr><th scope="row">${M.metaRow}</th>${perm.map((p) => `<td>${p}</td>`).join('')}</tr>` +
          `<tr><th scope="row">${M.pair}</th>${perm.map((p) => `<td>${p >> 1}</td>`).join('')}</tr></tbody>`;

        view.readout = (input === INPUTS[0] ? M.readoutHead : M.readout).format(v);
        view.notice = (input === INPUTS[0] ? M.noticeHead : M.noticeRandom).format(v);
        return {
          measured: { permutedScoreDiff: scoreDiff, wrongWeightDiff: wrongDiff, previousToken: weights.map(prev), self: weights.map(self) },
          columns: ['query', 'key', 'score interleaved', 'score half permuted', 'score half unpermuted', 'weight interleaved', 'weight half permuted', 'weight half unpermuted'],
          heads: colHeads([COL.query, COL.key, ...[COL.score, COL.weight].flatMap((what) => [M.asTrained, M.converted, M.wrong].map((how) => M.colOf.format({ what, how })))]),
          rows: Array.from({ length: seq * seq }, (_, j) => [Math.floor(j / seq), j % seq, ...scores.map((s) => s[j]), ...weights.map((w) => w[j])]),
        };
      },
      destroy: () => panels.forEach((p) => p.destroy()),
    };
    return view;
  },
};
