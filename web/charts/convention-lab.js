// convention-lab.js: issue 6 §20, interleaved pairs (Meta's LLaMA, GPT-J) against rotate_half
// pairs (Hugging Face, GPT-NeoX) on the same q and k: the row permutation Hugging Face's LLaMA
// conversion applies to W_q and W_k, a measured check that it makes the scores agree, and the
// attention pattern when the permutation is skipped. Every number is a kernel's (pe.applyRope,
// pe.gram, pe.attention); this file only moves indices around.
import { plainCanvas, viridis, fillCells, drawCells, drawColourBar, niceTicks, sig, maxAbsDiff, ink } from './common.js';
import { L, tr } from '../host/i18n.js';

const INPUTS = ['previous-token head', 'random q, k'];
const M = { left: 40, right: 44, top: 22, bottom: 34 };

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
  title: L('The same q, k through interleaved and rotate_half pairs: permuted, and not', '同样的 q、k 分别经过交错配对和 rotate_half 配对：置换与不置换'),
  params: [
    { name: 'dim', label: L('head dim d', '头维度 d'), type: 'int', min: 4, max: 64, step: 2, value: 32 },
    { name: 'seq', label: L('tokens', 'token 数'), type: 'int', min: 2, max: 48, value: 16 },
    { name: 'input', label: L('q and k', 'q 和 k'), type: 'select', options: INPUTS, value: INPUTS[0],
      optionLabels: { [INPUTS[0]]: L('previous-token head', '关注前一个 token 的头'), [INPUTS[1]]: L('random q, k', '随机的 q、k') } },
    { name: 'norm', label: L('length of q, k (× a unit normal)', 'q、k 的长度（× 单位正态）'), type: 'number', min: 0.25, max: 8, step: 'any', value: 3 },
    { name: 'seed', label: L('seed', '种子'), type: 'int', min: 0, max: 1000, value: 0 },
    { name: 'base', label: L('base', '底数 base'), type: 'number', min: 2, max: 1000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe }) {
    const scroll = document.createElement('div');
    scroll.className = 'table-scroll';
    const table = document.createElement('table');
    table.className = 'values mono perm-table';
    scroll.append(table);
    el.append(scroll);
    const grid = document.createElement('div');
    grid.className = 'cell-panels';
    el.append(grid);
    // Panel titles and subtitles, read in the current language at each draw.
    const NAMES = [
      [L('interleaved weights, interleaved RoPE', '交错的权重，交错的 RoPE'), L('as trained', '与训练时相同')],
      [L('rows permuted, rotate_half', '行已置换，rotate_half'), L('converted the way HF does', '按 HF 的方式转换')],
      [L('rows not permuted, rotate_half', '行未置换，rotate_half'), L('the wrong pairing', '错误的配对')],
    ];
    const panels = NAMES.map(([title]) => {
      const box = document.createElement('div');
      grid.append(box);
      const p = plainCanvas(box, 1.05, () => tr(`Attention weights: ${title}`, `注意力权重：${title}`));
      return { ...p, image: document.createElement('canvas') };
    });

    const paintPanel = (panel, [title, sub], seq) => panel.paint((ctx, w, h) => {
      const side = Math.max(10, Math.min(w - M.left - M.right, h - M.top - M.bottom));
      const plot = { x: M.left, y: M.top + 12, w: side, h: side - 12 };
      const ticks = niceTicks(0, seq - 1, 4).map((v) => [(v + 0.5) / seq, String(v)]);
      drawCells(ctx, panel.image, plot, { xTicks: ticks, yTicks: ticks, xTitle: tr('key position', 'key 位置'), yTitle: 'query', title });
      ctx.fillStyle = ink().muted;
      ctx.font = '11px system-ui, sans-serif';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'bottom';
      ctx.fillText(sub, plot.x, plot.y - 18);
      drawColourBar(ctx, viridis, { x: plot.x + plot.w + 8, y: plot.y, w: 8, h: plot.h }, [[0, '1'], [0.5, '.5'], [1, '0']]);
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

        panels.forEach((p, j) => {
          fillCells(p.image, seq, seq, viridis, (c, r) => Math.min(255, Math.floor(weights[j][r * seq + c] * 256)));
          const names = NAMES[j].map(String);
          paintPanel(p, names, seq);
          p.canvas.setAttribute('aria-label', tr(`Attention weights, ${names[0]} (${names[1]}): ${seq} queries down, ${seq} keys across, ` +
            `causal; the previous token gets ${sig(100 * prev(weights[j]), 3)} % on average.`,
            `注意力权重，${names[0]}(${names[1]})：纵向 ${seq} 个 query，横向 ${seq} 个 key,` +
            `因果掩码；前一个 token 平均得到 ${sig(100 * prev(weights[j]), 3)} %。`));
        });

        const th = (t) => `<th scope="col">${t}</th>`;
        table.innerHTML = `<caption>${tr('The row permutation of W_q and W_k (and so of q, k): Hugging Face row j takes Meta row …',
          'W_q 和 W_k 的行置换（因而也是 q、k 的）：Hugging Face 的第 j 行取自 Meta 的第 … 行')}</caption>` +
          `<thead><tr><th scope="row">${tr('HF row j', 'HF 第 j 行')}</th>${perm.map((_, j) => th(j)).join('')}</tr></thead>` +
          `<tbody><tr><th scope="row">${tr('Meta row', 'Meta 的行')}</th>${perm.map((p) => `<td>${p}</td>`).join('')}</tr>` +
          `<tr><th scope="row">${tr('pair', '对')}</th>${perm.map((p) => `<td>${p >> 1}</td>`).join('')}</tr></tbody>`;

        view.readout = tr(`After permuting the rows, rotate_half's scores match the interleaved ones to ${sig(scoreDiff, 2)} (largest |Δ| over ${seq}×${seq} scores); ` +
          `without it the attention weights differ by up to ${sig(wrongDiff, 3)}, and the previous token gets ` +
          `${sig(100 * prev(weights[0]), 3)} % of each query's attention as trained, ${sig(100 * prev(weights[1]), 3)} % converted and ` +
          `${sig(100 * prev(weights[2]), 3)} % with the wrong pairing, which gives the token itself ${sig(100 * self(weights[2]), 3)} % ` +
          `(${sig(100 * self(weights[0]), 3)} % as trained).`,
          `置换行之后，rotate_half 的得分与交错方式的得分相差不超过 ${sig(scoreDiff, 2)}（${seq}×${seq} 个得分中最大的 |Δ|）;` +
          `不置换时注意力权重最多相差 ${sig(wrongDiff, 3)}。前一个 token 得到每个 query 注意力的比例：与训练时相同为 ` +
          `${sig(100 * prev(weights[0]), 3)} %，转换后为 ${sig(100 * prev(weights[1]), 3)} %,` +
          `错误配对时为 ${sig(100 * prev(weights[2]), 3)} %，此时 token 自身得到 ${sig(100 * self(weights[2]), 3)} %` +
          `（训练时为 ${sig(100 * self(weights[0]), 3)} %）。`);
        return {
          measured: { permutedScoreDiff: scoreDiff, wrongWeightDiff: wrongDiff, previousToken: weights.map(prev), self: weights.map(self) },
          columns: ['query', 'key', 'score interleaved', 'score half permuted', 'score half unpermuted', 'weight interleaved', 'weight half permuted', 'weight half unpermuted'],
          rows: Array.from({ length: seq * seq }, (_, j) => [Math.floor(j / seq), j % seq, ...scores.map((s) => s[j]), ...weights.map((w) => w[j])]),
        };
      },
      destroy: () => panels.forEach((p) => p.destroy()),
    };
    return view;
  },
};
