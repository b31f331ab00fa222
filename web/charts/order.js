// order.js: the source post's word-order experiment: attention outputs for one sentence and the
// same words with the first and third swapped, side by side, and, per word, how far its output
// moved between the two orders.
import { coolwarmCss, maxAbsDiff, sig, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

// Token ids; the words they stand for are in the message tables (w1…w4). The last word stays in
// place, so its output, the one that predicts the next word, is compared at the same position.
const SEQS = [[1, 2, 3, 4], [3, 2, 1, 4]];
const TOKENS = [1, 2, 3, 4];
const DIM = 10, HEADS = 2, VOCAB = 5; // the sizes of the post's experiment

const M = messages({
  en: {
    colTokens: 'tokens',
    title: 'Attention output per word: “dog bites man because” against “man bites dog because” (d_model = 10, 2 heads of width 5)',
    encoding: 'position encoding',
    none: 'none',
    sinusoidal: 'sinusoidal',
    rope: 'RoPE',
    causal: 'causal mask',
    seed: 'weights seed',
    caption: '“{seq}”',
    sep: ' ',
    w1: 'dog',
    w2: 'bites',
    w3: 'man',
    w4: 'because',
    dim: 'dim',
    pos: 'pos',
    change: 'change {d}',
    changed: 'changed',
    identical: 'identical',
    swapped: 'same output, moved from pos {from} to {to}',
    noticeNone: 'Each word gets the same output in both orders, wherever it stands: the last word’s output, which predicts the next word, is identical, so the model cannot tell who bit whom.',
    noticeCausal: 'The mask makes the first three words depend on order (each sees only itself and the words before it), but the last word sees all four in either order: its output is still identical.',
    noticeEncoded: 'With position information the last word’s output differs between the two orders: the prediction of the next word can now depend on who bit whom.',
    readout: 'Largest difference of each word’s output between the two orders: {list}.',
    item: '“{word}” {d} ({v})',
    itemSep: ', ',
    how: 'The page runs one attention layer on the two token sequences: embeddings of width 10; 2 heads, each projecting all 10 dims to a q, k and v of width 5; the two heads’ outputs joined as dims 0–4 and 5–9, with no output projection after them. The word embeddings and the Q, K, V projections are drawn from one random seed, the same for both orders. Sinusoidal PE is added to the embeddings; RoPE rotates q and k in each head. Width 5 is a toy choice that follows the source post (real heads have an even width, often 128): RoPE turns a head’s two pairs and leaves the odd fifth dimension as it is. A word’s two outputs are compared wherever it sits; differences below 10⁻⁶ are float32 rounding and count as identical.',
  },
  zh: {
    colTokens: 'token 序列',
    title: '每个词的注意力输出：“苹果 比 梨 甜”与“梨 比 苹果 甜”对比（d_model = 10，2 个头，头维度 5）',
    encoding: '位置编码',
    none: '无',
    sinusoidal: '正弦位置编码',
    rope: 'RoPE 旋转位置编码',
    causal: '因果掩码',
    seed: '权重种子',
    caption: '“{seq}”',
    sep: ' ',
    w1: '苹果',
    w2: '比',
    w3: '梨',
    w4: '甜',
    dim: '维度',
    pos: '位置',
    change: '变化 {d}',
    changed: '有变化',
    identical: '完全相同',
    swapped: '输出相同，只是从位置 {from} 移到 {to}',
    noticeNone: '每个词不论处在哪个位置，两种顺序下的输出都一样：最后一个词的输出用来预测下一个词，它完全相同，所以模型分不出是谁比谁甜。',
    noticeCausal: '掩码让前三个词的输出随顺序而变（每个词只看得到自己和前面的词），但最后一个词在两种顺序下都看得到全部四个词，它的输出仍然完全相同。',
    noticeEncoded: '加入位置信息后，最后一个词的输出在两种顺序下不再相同：模型终于能根据谁比谁甜来预测下一个词了。',
    readout: '每个词在两种顺序下输出的最大差值：{list}。',
    item: '“{word}” {d}（{v}）',
    itemSep: '，',
    how: '本页对两个 token 序列各算一层注意力：词嵌入 10 维；2 个头，每个头把全部 10 维投影成 5 维的 q、k、v；两个头的输出拼接成维度 0–4 和 5–9，之后不再乘输出投影。词嵌入和 Q、K、V 投影矩阵都由同一个随机种子生成，两种顺序共用同一套。正弦位置编码加在词嵌入上；RoPE 在每个头里旋转 q 和 k。头维度取 5 只是沿用来源博文 2 的演示尺寸（真实模型的头维度是偶数，常见为 128）：RoPE 转动每个头里的两个维度对，多出来的第 5 维保持不动。比较的是同一个词在两句话中的输出，不管它处在哪个位置；小于 10⁻⁶ 的差值只是 float32 的舍入误差，算作完全相同。',
  },
});

// Below this a difference is float32 rounding in the softmax sums, not a change.
const SAME = 1e-6;

export default {
  kind: 'order',
  messages: M,
  title: M.title,
  params: [
    { name: 'encoding', label: M.encoding, type: 'select', options: ['none', 'sinusoidal', 'rope'], value: 'none',
      optionLabels: { none: M.none, sinusoidal: M.sinusoidal, rope: M.rope } },
    { name: 'causal', label: M.causal, type: 'bool', value: false },
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 999, value: 0 },
  ],
  mount(el, { pe }) {
    const grid = document.createElement('div');
    grid.className = 'order-grid';
    const tables = SEQS.map((seq, s) => {
      const box = document.createElement('div');
      // on a phone the encoding menu sits between the two orders (host/phone.js): the first
      // above it, the second's "change" row right under it
      box.className = s === 0 ? 'table-scroll phone-control-after' : 'table-scroll';
      const table = document.createElement('table');
      table.className = 'values mono order-table';
      const cap = document.createElement('caption');
      table.append(cap, document.createElement('thead'), document.createElement('tbody'));
      box.append(table);
      grid.append(box);
      return table;
    });
    el.append(grid);

    const word = (t) => String(M[`w${t}`]);
    // Transposed (dims down, positions across) so two tables fit side by side and a swap
    // shows as two columns trading places.
    const fill = (table, seq, out, scale, moved, shown) => {
      table.caption.textContent = M.caption.format({ seq: seq.map(word).join(String(M.sep)) });
      const head = document.createElement('tr');
      const corner = document.createElement('th');
      corner.scope = 'col';
      corner.textContent = String(M.dim);
      head.append(corner);
      seq.forEach((t, p) => {
        const th = document.createElement('th');
        th.scope = 'col';
        if (moved[t]) th.className = 'order-moved';
        const delta = document.createElement('span');
        delta.className = 'order-delta';
        delta.textContent = M.change.format({ d: shown(t) });
        th.append(`${M.pos} ${p}`, document.createElement('br'), word(t), document.createElement('br'), delta);
        head.append(th);
      });
      table.tHead.replaceChildren(head);
      // Cells built as elements: a style="" attribute in HTML text is blocked by the page's
      // Content-Security-Policy (style-src 'self'); a style set through the DOM is not.
      const rows = [];
      for (let d = 0; d < DIM; d++) {
        const row = document.createElement('tr');
        const th = document.createElement('th');
        th.scope = 'row';
        th.textContent = String(d);
        row.append(th);
        for (let p = 0; p < seq.length; p++) {
          const v = out[p * DIM + d];
          const td = document.createElement('td');
          td.style.background = coolwarmCss(v, -scale, scale, 0.45);
          td.title = String(v);
          td.textContent = v.toFixed(3);
          row.append(td);
        }
        rows.push(row);
      }
      table.tBodies[0].replaceChildren(...rows);
    };

    const view = {
      update({ encoding, causal, seed }) {
        const opts = { dim: DIM, heads: HEADS, vocab: VOCAB, encoding, causal, seed };
        const outs = SEQS.map((seq) => pe.orderDemo(seq, opts).output);
        const row = (s, token) => {
          const p = SEQS[s].indexOf(token);
          return outs[s].subarray(p * DIM, (p + 1) * DIM);
        };
        // Each token compared with itself across the two orders, wherever it sits.
        const diff = Object.fromEntries(TOKENS.map((t) => [t, maxAbsDiff(row(0, t), row(1, t))]));
        const moved = Object.fromEntries(TOKENS.map((t) => [t, diff[t] > SAME]));
        let scale = 0;
        for (const o of outs) for (const v of o) scale = Math.max(scale, Math.abs(v));
        const show = (t) => (diff[t] === 0 ? '0' : sig(diff[t], 3));
        SEQS.forEach((seq, s) => fill(tables[s], seq, outs[s], scale || 1, moved, show));

        const last = TOKENS[TOKENS.length - 1];
        view.notice = String(moved[last] ? M.noticeEncoded : causal ? M.noticeCausal : M.noticeNone);
        const stays = (t) => SEQS[0].indexOf(t) === SEQS[1].indexOf(t);
        const verdict = (t) => String(moved[t] ? M.changed : stays(t) ? M.identical
          : M.swapped.format({ from: SEQS[0].indexOf(t), to: SEQS[1].indexOf(t) }));
        view.readout = M.readout.format({
          list: TOKENS.map((t) => M.item.format({ word: word(t), d: show(t), v: verdict(t) })).join(String(M.itemSep)),
        });
        return {
          columns: ['tokens', 'position', 'token', ...Array.from({ length: DIM }, (_, d) => `dim ${d}`)],
          heads: colHeads([M.colTokens, COL.position, 'token', ...Array.from({ length: DIM }, (_, d) => COL.dim.format({ d }))]),
          rows: SEQS.flatMap((seq, s) =>
            seq.map((t, p) => [seq.join(' '), p, t, ...outs[s].subarray(p * DIM, (p + 1) * DIM)])),
        };
      },
    };
    return view;
  },
};
