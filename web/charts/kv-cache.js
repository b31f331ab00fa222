// kv-cache.js: seed 001 #4, KV-cache decoding with RoPE: the prompt's keys are rotated at
// positions 0..P−1 and cached; the next token's query and key are rotated at position P.
// Its attention row over cache + new key must equal the last row of a full recomputation.
import { canvasIn, palette, sig, maxAbsDiff } from './common.js';
import { L, tr, lang } from '../host/i18n.js';

export default {
  kind: 'kv-cache',
  title: L('Attention of the new token: KV cache against full recomputation', '新 token 的注意力：KV 缓存与完整重新计算对比'),
  params: [
    { name: 'prompt', label: L('prompt length P', '提示词长度 P'), type: 'int', min: 1, max: 32, value: 4 },
    { name: 'headDim', label: L('head dim', '头维度'), type: 'int', min: 2, max: 128, step: 2, value: 20 },
    { name: 'seed', label: L('seed for q, k, v', 'q、k、v 的种子'), type: 'int', min: 0, max: 1000, value: 0 },
    { name: 'style', label: L('pairs', '配对方式'), type: 'select', options: ['half', 'interleaved'], value: 'half',
      optionLabels: { half: L('half (i, i + d/2)', '前后两半 (i, i + d/2)'), interleaved: L('interleaved (2i, 2i+1)', '交错 (2i, 2i+1)') } },
    { name: 'base', label: L('base', '底数 base'), type: 'number', min: 1, max: 1000000, step: 'any', value: 10000 },
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
          x: { title: { display: true, text: () => tr('key position', 'key 位置') } },
          y: { beginAtZero: true, title: { display: true, text: () => tr('attention weight of the new token', '新 token 的注意力权重') } },
        },
      },
    });
    const scroll = document.createElement('div');
    scroll.className = 'table-scroll';
    const table = document.createElement('table');
    table.className = 'values mono';
    scroll.append(table);
    el.append(scroll);
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
        chart.data.labels = positions.map((j) => [String(j), j < P ? tr('cached', '已缓存') : tr('new', '新')]);
        chart.data.datasets = [
          { label: tr('full recomputation, last row', '完整重新计算，最后一行'), data: Array.from(fullRow), backgroundColor: palette[0], borderColor: palette[0], borderWidth: 1 },
          { label: tr('KV cache: new query over cached + new keys', 'KV 缓存：新 query 对已缓存 + 新 key'), data: Array.from(inc.weights), backgroundColor: 'rgba(213, 94, 0, 0.15)', borderColor: palette[1], borderWidth: 2, borderDash: [4, 2] },
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
        } else table.innerHTML = `<caption>${tr(`Rotated keys (first ${shown} of ${hd} dims) and the new token's weight on each`,
          `旋转后的 key（${hd} 维中的前 ${shown} 维）以及新 token 对每个 key 的权重`)}</caption><thead><tr>` +
          [tr('position', '位置'), tr('from', '来源'), ...Array.from({ length: shown }, (_, d) => `k[${d}]`), tr('full', '完整'), tr('cache', '缓存')]
            .map((c) => `<th scope="col">${c}</th>`).join('') +
          '</tr></thead><tbody>' +
          rows.map(([j, from, ...vals]) => `<tr><th scope="row">${j}</th><td>${from === 'cache' ? tr('cache', '缓存') : tr('new', '新')}</td>${vals.map((x) => `<td>${f(x)}</td>`).join('')}</tr>`).join('') +
          '</tbody>';
        tableShape = layout;
        canvas.setAttribute('aria-label', tr(`Bar chart: attention weights of the new token at position ${P} over all ${n} keys, from the KV cache and from a full recomputation`,
          `柱状图：位置 ${P} 的新 token 对全部 ${n} 个 key 的注意力权重，分别来自 KV 缓存和完整重新计算`));
        view.readout = tr(`Prompt positions 0…${P - 1}, then position ${P}: the cached run's weights differ from the full ` +
          `recomputation by at most ${sig(dw, 2)}, its output by ${sig(dout, 2)}.`,
          `提示词位于位置 0…${P - 1}，随后是位置 ${P}：使用缓存时的权重与完整重新计算最多相差 ${sig(dw, 2)}，` +
          `输出最多相差 ${sig(dout, 2)}。`);
        return {
          measured: { weights: dw, output: dout },
          columns: ['key position', 'source', ...Array.from({ length: shown }, (_, d) => `k[${d}]`), 'weight (full)', 'weight (cache)'],
          rows,
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
