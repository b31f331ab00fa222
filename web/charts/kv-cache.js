// kv-cache.js: seed 001 #4, KV-cache decoding with RoPE: the prompt's keys are rotated at
// positions 0..P−1 and cached; the next token's query and key are rotated at position P.
// Its attention row over cache + new key must equal the last row of a full recomputation.
import { canvasIn, palette, sig, maxAbsDiff } from './common.js';

export default {
  kind: 'kv-cache',
  title: 'Attention of the new token: KV cache against full recomputation',
  params: [
    { name: 'prompt', label: 'prompt length P', type: 'int', min: 1, max: 32, value: 4 },
    { name: 'headDim', label: 'head dim', type: 'int', min: 2, max: 128, step: 2, value: 20 },
    { name: 'seed', label: 'seed for q, k, v', type: 'int', min: 0, max: 1000, value: 0 },
    { name: 'style', label: 'pairs', type: 'select', options: ['half', 'interleaved'], value: 'half' },
    { name: 'base', label: 'base', type: 'number', min: 1, max: 1000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const canvas = canvasIn(el, 2.4);
    canvas.setAttribute('aria-label', 'Bar chart: attention weights of the new token over all keys, from the KV cache and from a full recomputation');
    const chart = new Chart(canvas, {
      type: 'bar',
      data: { labels: [], datasets: [] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: { legend: { display: true } },
        scales: {
          x: { title: { display: true, text: 'key position' } },
          y: { beginAtZero: true, title: { display: true, text: 'attention weight of the new token' } },
        },
      },
    });
    const scroll = document.createElement('div');
    scroll.className = 'table-scroll';
    const table = document.createElement('table');
    table.className = 'values mono';
    scroll.append(table);
    el.append(scroll);
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
        chart.data.labels = positions.map((j) => [String(j), j < P ? 'cached' : 'new']);
        chart.data.datasets = [
          { label: 'full recomputation, last row', data: Array.from(fullRow), backgroundColor: palette[0], borderColor: palette[0], borderWidth: 1 },
          { label: 'KV cache: new query over cached + new keys', data: Array.from(inc.weights), backgroundColor: 'rgba(213, 94, 0, 0.15)', borderColor: palette[1], borderWidth: 2, borderDash: [4, 2] },
        ];
        chart.update();
        const shown = Math.min(hd, 4), f = (x) => x.toFixed(5);
        const rows = positions.map((j) => [j, j < P ? 'cache' : 'new', ...Array.from(keys.subarray(j * hd, j * hd + shown)), fullRow[j], inc.weights[j]]);
        table.innerHTML = `<caption>Rotated keys (first ${shown} of ${hd} dims) and the new token's weight on each</caption><thead><tr>` +
          ['position', 'from', ...Array.from({ length: shown }, (_, d) => `k[${d}]`), 'full', 'cache'].map((c) => `<th scope="col">${c}</th>`).join('') +
          '</tr></thead><tbody>' +
          rows.map(([j, from, ...vals]) => `<tr><th scope="row">${j}</th><td>${from}</td>${vals.map((x) => `<td>${f(x)}</td>`).join('')}</tr>`).join('') +
          '</tbody>';
        view.readout = `Prompt positions 0…${P - 1}, then position ${P}: the cached run's weights differ from the full ` +
          `recomputation by at most ${sig(dw, 2)}, its output by ${sig(dout, 2)}.`;
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
