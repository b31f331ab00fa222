// order.js: the source post's word-order experiment: attention outputs for tokens [1, 2, 3] and
// [2, 1, 3] side by side, and, per token, how far its output moved when the first two tokens
// swapped.
import { coolwarmCss, maxAbsDiff, sig } from './common.js';
import { messages } from '../host/i18n.js';

const SEQS = [[1, 2, 3], [2, 1, 3]];
const DIM = 10, HEADS = 2, VOCAB = 5; // the sizes of the post's experiment

const M = messages({
  en: {
    title: 'Attention output per token: [1, 2, 3] against [2, 1, 3] (dim 10, 2 heads)',
    encoding: 'position encoding',
    none: 'none',
    sinusoidal: 'sinusoidal',
    rope: 'RoPE',
    causal: 'causal mask',
    seed: 'weights seed',
    caption: 'tokens [{seq}]',
    dim: 'dim',
    pos: 'pos',
    changed: 'changed',
    identical: 'identical',
    swapped: 'just swapped',
    readout: "Token 3's output: max |difference| = {d3} ({v3}); token 1 in [1,2,3] vs token 1 in [2,1,3]: {d1} ({v1}); token 2: {d2} ({v2}).",
  },
  zh: {
    title: '每个 token 的注意力输出：[1, 2, 3] 与 [2, 1, 3] 对比（维度 10，2 个头）',
    encoding: '位置编码',
    none: '无',
    sinusoidal: '正弦位置编码',
    rope: 'RoPE 旋转位置编码',
    causal: '因果掩码',
    seed: '权重种子',
    caption: 'token 序列 [{seq}]',
    dim: '维度',
    pos: '位置',
    changed: '有变化',
    identical: '完全相同',
    swapped: '只是交换了位置',
    readout: 'token 3 的输出：最大 |差值| = {d3}（{v3}）；token 1 在 [1,2,3] 与 [2,1,3] 中相比：{d1}（{v1}）；token 2：{d2}（{v2}）。',
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
    const tables = SEQS.map((seq) => {
      const box = document.createElement('div');
      box.className = 'table-scroll';
      const table = document.createElement('table');
      table.className = 'values mono order-table';
      const cap = document.createElement('caption');
      table.append(cap, document.createElement('thead'), document.createElement('tbody'));
      box.append(table);
      grid.append(box);
      return table;
    });
    el.append(grid);

    // Transposed (dims down, positions across) so two tables fit side by side and a swap
    // shows as two columns trading places.
    const fill = (table, seq, out, scale, moved, shown) => {
      table.caption.textContent = M.caption.format({ seq: seq.join(', ') });
      table.tHead.innerHTML = `<tr><th scope="col">${M.dim}</th>${seq
        .map((t, p) => `<th scope="col" class="${moved[t] ? 'order-moved' : ''}">${M.pos} ${p}<br>token ${t}<br>` +
          `<span class="order-delta">max|Δ| ${shown(t)}</span></th>`)
        .join('')}</tr>`;
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
        const diff = Object.fromEntries([1, 2, 3].map((t) => [t, maxAbsDiff(row(0, t), row(1, t))]));
        const moved = Object.fromEntries([1, 2, 3].map((t) => [t, diff[t] > SAME]));
        let scale = 0;
        for (const o of outs) for (const v of o) scale = Math.max(scale, Math.abs(v));
        const show = (t) => (diff[t] === 0 ? '0' : sig(diff[t], 3));
        SEQS.forEach((seq, s) => fill(tables[s], seq, outs[s], scale || 1, moved, show));

        const verdict = (t, same) => (moved[t] ? M.changed : same);
        view.readout = M.readout.format({
          d3: show(3), v3: verdict(3, M.identical), d1: show(1), v1: verdict(1, M.swapped), d2: show(2), v2: verdict(2, M.swapped),
        });
        return {
          columns: ['tokens', 'position', 'token', ...Array.from({ length: DIM }, (_, d) => `dim ${d}`)],
          rows: SEQS.flatMap((seq, s) =>
            seq.map((t, p) => [seq.join(' '), p, t, ...outs[s].subarray(p * DIM, (p + 1) * DIM)])),
        };
      },
    };
    return view;
  },
};
