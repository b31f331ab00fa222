// kv-cache.js: KV-cache decoding with RoPE, as in the source post: the prompt's keys are rotated at
// positions 0..P−1 and cached; the next token's query and key are rotated at position P.
// Its attention row over cache + new key must equal the last row of a full recomputation.
import { canvasIn, palette, sig, maxAbsDiff, COL, colHeads } from './common.js';
import { messages, lang } from '../host/i18n.js';

let captions = 0; // ids for the captions of several kv-cache charts on one page

const M = messages({
  en: {
    colSource: 'source',
    colFull: 'weight (full recompute)',
    colCache: 'weight (KV cache)',
    title: 'Attention of the new token: KV cache against full recomputation',
    prompt: 'prompt length',
    headDim: 'head dim',
    seed: 'seed for q, k, v',
    style: 'pairs',
    half: 'half (i, i + d/2)',
    interleaved: 'interleaved (2i, 2i+1)',
    base: 'base',
    xTitle: 'key position',
    yTitle: 'attention weight of the new token',
    cached: 'cached',
    new: 'new',
    full: 'full recomputation, last row',
    incremental: 'KV cache: new query over cached + new keys',
    caption: "Rotated keys (first {shown} of {hd} dims) and the new token's weight on each",
    position: 'position',
    ariaLabel: 'Bar chart: attention weights of the new token at position {P} over all {n} keys, from the KV cache and from a full recomputation',
    readout: "Prompt positions 0…{last}, then position {P}: the cached run's weights differ from the full recomputation by at most {dw}, its output by at most {dout}.",
    readoutSame: "Prompt positions 0…{last}, then position {P}: the cached run's weights and output are identical to the full recomputation's (difference 0).",
    notice: 'The two bars of every key match: each cached key was rotated at its own position once, and never needs to change.',
    how: 'q, k and v are drawn from the seed (standard normal, one head). The full run rotates every key and query, the prompt\'s and the new token\'s, and applies the softmax under the causal mask (each query sees only itself and earlier keys); the cached run rotates the prompt\'s keys once, keeps them, and attends from the new query over them plus the new key. Both are computed in single precision.',
  },
  zh: {
    colSource: '来源',
    colFull: '权重（完整重算）',
    colCache: '权重（KV 缓存）',
    title: '新 token 的注意力：KV 缓存与完整重新计算对比',
    prompt: '提示词长度',
    headDim: '头维度',
    seed: 'q、k、v 的种子',
    style: '配对方式',
    half: '前后两半 (i, i + d/2)',
    interleaved: '交错 (2i, 2i+1)',
    base: '底数 base',
    xTitle: 'key 位置',
    yTitle: '新 token 的注意力权重',
    cached: '已缓存',
    new: '新',
    full: '完整重新计算，最后一行',
    incremental: 'KV 缓存：新 query 对已缓存的 key 和新 key',
    caption: '旋转后的 key（{hd} 维中的前 {shown} 维）以及新 token 对每个 key 的权重',
    position: '位置',
    ariaLabel: '柱状图：位置 {P} 的新 token 对全部 {n} 个 key 的注意力权重，分别来自 KV 缓存和完整重新计算',
    readout: '提示词位于位置 0…{last}，随后是位置 {P}：使用缓存时的权重与完整重新计算最多相差 {dw}，输出最多相差 {dout}。',
    readoutSame: '提示词位于位置 0…{last}，随后是位置 {P}：使用缓存时的权重和输出与完整重新计算完全相同（差为 0）。',
    notice: '每个 key 的两根柱子都一样高：每个缓存的 key 只在它自己的位置上旋转一次，以后不必再改。',
    how: 'q、k、v 由种子生成（标准正态，一个头）。完整重算：旋转全部 key 和 query（提示词的和新 token 的），再在因果掩码下做 softmax（每个 query 只看它自己和它之前的 key）；用缓存：提示词的 key 只旋转一次并存下，新的 query 对这些 key 和新 key 做注意力。两者都用单精度计算。',
  },
});

export default {
  kind: 'kv-cache',
  messages: M,
  title: M.title,
  params: [
    { name: 'prompt', label: M.prompt, type: 'int', min: 1, max: 32, value: 4 },
    { name: 'headDim', label: M.headDim, type: 'int', min: 2, max: 128, step: 2, value: 20 },
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 1000, value: 0 },
    { name: 'style', label: M.style, type: 'select', options: ['half', 'interleaved'], value: 'half',
      optionLabels: { half: M.half, interleaved: M.interleaved } },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 1000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const canvas = canvasIn(el, 2.4);
    const chart = new Chart(canvas, {
      type: 'bar',
      data: { labels: [], datasets: [] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: { legend: { display: true } },
        scales: {
          x: { title: { display: true, text: () => String(M.xTitle) } },
          y: { beginAtZero: true, title: { display: true, text: () => String(M.yTitle) } },
        },
      },
    });
    // the caption stays above the box that scrolls sideways on a phone, not scrolled away with the table
    const caption = document.createElement('p');
    caption.className = 'table-caption';
    caption.id = `kv-cache-caption-${++captions}`;
    const scroll = document.createElement('div');
    scroll.className = 'table-scroll';
    const table = document.createElement('table');
    table.className = 'values mono';
    table.setAttribute('aria-labelledby', caption.id);
    scroll.append(table);
    el.append(caption, scroll);
    let tableShape = ''; // rows, head dim and language of the table as built
    const view = {
      update({ prompt: P, headDim: hd, seed, style, base }) {
        const n = P + 1, shape = { heads: 1, headDim: hd, style, base };
        const r = pe.randomNormal(3 * n * hd, seed);
        const [q, k, v] = [0, 1, 2].map((j) => r.subarray(j * n * hd, (j + 1) * n * hd));
        const positions = Array.from({ length: n }, (_, j) => j);
        // Full recomputation: every token rotated at its own position, causal attention.
        const full = pe.attention(pe.applyRope(q, { ...shape, positions }), pe.applyRope(k, { ...shape, positions }), v,
          { heads: 1, headDim: hd, causal: true });
        const fullRow = full.weights.subarray(P * n);
        // Step 1, the prompt: its keys rotated at 0..P−1 and cached. Step 2: the new token at P.
        const cache = pe.applyRope(k.subarray(0, P * hd), { ...shape, positions: positions.slice(0, P) });
        const kNew = pe.applyRope(k.subarray(P * hd), { ...shape, positions: [P] });
        const qNew = pe.applyRope(q.subarray(P * hd), { ...shape, positions: [P] });
        const keys = new Float32Array(n * hd);
        keys.set(cache);
        keys.set(kNew, P * hd);
        const inc = pe.attention(qNew, keys, v, { heads: 1, headDim: hd, causal: true });
        const dw = maxAbsDiff(inc.weights, fullRow);
        const dout = maxAbsDiff(inc.output, full.output.subarray(P * hd));
        chart.data.labels = positions.map((j) => [String(j), String(j < P ? M.cached : M.new)]);
        chart.data.datasets = [
          { label: String(M.full), data: Array.from(fullRow), backgroundColor: palette[0], borderColor: palette[0], borderWidth: 1 },
          { label: String(M.incremental), data: Array.from(inc.weights), backgroundColor: 'rgba(213, 94, 0, 0.15)', borderColor: palette[1], borderWidth: 2, borderDash: [4, 2] },
        ];
        chart.update();
        const shown = Math.min(hd, 4), f = (x) => x.toFixed(5);
        const rows = positions.map((j) => [j, j < P ? 'cache' : 'new', ...Array.from(keys.subarray(j * hd, j * hd + shown)), fullRow[j], inc.weights[j]]);
        const layout = `${P} ${hd} ${lang()}`;
        if (layout === tableShape) {
          // Same rows, columns and language: only the numbers moved, so only those cells are rewritten.
          const body = table.tBodies[0];
          rows.forEach(([, , ...vals], r) => {
            const cells = body.rows[r].cells;
            vals.forEach((x, c) => {
              const text = f(x);
              if (cells[c + 2].textContent !== text) cells[c + 2].textContent = text;
            });
          });
        } else {
          caption.textContent = M.caption.format({ shown, hd });
          table.innerHTML = '<thead><tr>' +
            [M.position, M.colSource, ...Array.from({ length: shown }, (_, d) => `k[${d}]`), M.colFull, M.colCache]
              .map((c) => `<th scope="col">${c}</th>`).join('') +
            '</tr></thead><tbody>' +
            rows.map(([j, from, ...vals]) => `<tr><th scope="row">${j}</th><td>${from === 'cache' ? M.cached : M.new}</td>${vals.map((x) => `<td>${f(x)}</td>`).join('')}</tr>`).join('') +
            '</tbody>';
        }
        tableShape = layout;
        canvas.setAttribute('aria-label', M.ariaLabel.format({ P, n }));
        view.notice = M.notice.format({});
        view.readout = (dw === 0 && dout === 0 ? M.readoutSame : M.readout).format({ last: P - 1, P, dw: sig(dw, 2), dout: sig(dout, 2) });
        return {
          measured: { weights: dw, output: dout },
          cellText: { source: { cache: String(M.cached), new: String(M.new) } },
          columns: ['key position', 'source', ...Array.from({ length: shown }, (_, d) => `k[${d}]`), 'weight (full)', 'weight (cache)'],
          heads: colHeads([COL.keyPosition, M.colSource, ...Array.from({ length: shown }, (_, d) => `k[${d}]`), M.colFull, M.colCache]),
          rows,
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
