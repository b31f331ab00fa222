// near-orthogonal.js: seed 002 #5, the angle between random "word" vectors and sinusoidal
// PE vectors: in high dimension it clusters tightly around 90°, as BERT's trained ones do.
//
// Sizes: the words × d random numbers cost about 40 ns each to draw, so the largest draw
// (512 × 1024) takes about 20 ms of the frame. d up to 1024 holds BERT-base's 768, and a larger d
// only narrows the peak further (its width goes as 1/√d); 512 words fill the histogram's bins
// well enough to read its mean and width (seed 002 used 1000); a word meets one position, so
// more positions than words would go unused (512 is BERT's count).
import { canvasIn, palette, dashes, lineLegend, sig, normalPool } from './common.js';
import { L, tr } from '../host/i18n.js';

// Seed 002 #5: BERT-base, words 100..1099 against all 512 position embeddings.
const BERT = { cos: -0.009876, mean: 90.57, std: 2.03 };
const NICE = [0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10];

export default {
  kind: 'near-orthogonal',
  title: L('Angle between a random word vector and a PE vector', '随机词向量与位置编码向量之间的夹角'),
  params: [
    { name: 'dim', label: L('dimension d', '维度 d'), type: 'int', min: 2, max: 1024, step: 2, value: 768 },
    { name: 'words', label: L('word vectors', '词向量个数'), type: 'int', min: 16, max: 512, value: 256 },
    { name: 'length', label: L('positions', '位置数'), type: 'int', min: 1, max: 512, value: 512 },
    { name: 'seed', label: L('seed', '种子'), type: 'int', min: 0, max: 1000, value: 0 },
  ],
  mount(el, { pe, Chart }) {
    const canvas = canvasIn(el, 2.2);
    const chart = new Chart(canvas, {
      type: 'bar',
      data: { datasets: [] },
      options: {
        animation: false,
        parsing: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: { legend: lineLegend, tooltip: { mode: 'nearest', intersect: false } },
        scales: {
          x: { type: 'linear', title: { display: true, text: () => tr('angle between word vector and PE vector (degrees)', '词向量与位置编码向量的夹角（度）') }, ticks: { maxRotation: 0 } },
          y: { beginAtZero: true, title: { display: true, text: () => tr('number of pairs', '对数') }, ticks: { maxRotation: 0 } },
        },
      },
    });
    // The random vectors dominate the cost: drawn again only for a new seed or more numbers.
    const normals = normalPool(pe);
    let table = null, tableKey = '';
    const view = {
      update({ dim, words: n, length, seed }) {
        const words = normals(n * dim, seed);
        // Word j meets position j mod length, so every position is used about equally.
        const rows = Math.min(length, n);
        if (tableKey !== `${n},${rows},${dim}`) {
          // the PE row each word meets, laid out beside the words for pe.rowCosines
          const pe_ = pe.sinusoidal(rows, dim);
          table = new Float32Array(n * dim);
          for (let j = 0; j < n; j++) table.set(pe_.subarray((j % rows) * dim, (j % rows + 1) * dim), j * dim);
          tableKey = `${n},${rows},${dim}`;
        }
        const cos = pe.rowCosines(words, table, dim);
        const deg = Array.from(cos, (c) => (Math.acos(Math.max(-1, Math.min(1, c))) * 180) / Math.PI);
        let sum = 0, sq = 0, sc = 0, lo = Infinity, hi = -Infinity;
        for (let j = 0; j < n; j++) {
          sum += deg[j];
          sq += deg[j] * deg[j];
          sc += cos[j];
          lo = Math.min(lo, deg[j]);
          hi = Math.max(hi, deg[j]);
        }
        const mean = sum / n, std = Math.sqrt(Math.max(0, sq / n - mean * mean)), meanCos = sc / n;
        const width = NICE.find((w) => (hi - lo) / w <= 40) ?? 20;
        const start = Math.floor(lo / width) * width;
        const counts = new Array(Math.max(1, Math.ceil((hi - start) / width + 1e-9))).fill(0);
        for (const a of deg) counts[Math.min(counts.length - 1, Math.floor((a - start) / width))]++;
        const top = Math.max(...counts);
        const vline = (x, label, i) => ({
          type: 'line', label, data: [{ x, y: 0 }, { x, y: top }], borderColor: palette[i],
          borderDash: dashes[i], borderWidth: 2, pointRadius: 0, backgroundColor: 'transparent', order: i - 3,
        });
        chart.data.datasets = [
          {
            label: tr(`${n} (word, position) pairs, ${sig(width, 2)}° bins`, `${n} 个（词，位置）对，每格 ${sig(width, 2)}°`),
            data: counts.map((y, b) => ({ x: start + (b + 0.5) * width, y })),
            backgroundColor: palette[5], borderColor: palette[0], borderWidth: 1,
            barPercentage: 1, categoryPercentage: 1,
          },
          vline(mean, tr(`mean here ${mean.toFixed(2)}°`, `此处的平均值 ${mean.toFixed(2)}°`), 1),
          vline(BERT.mean, tr(`BERT reported mean ${BERT.mean}°`, `BERT 报告的平均值 ${BERT.mean}°`), 2),
        ];
        // Axis ends on whole ticks, so no label crowds the last one.
        const x0 = Math.min(start, BERT.mean - width), x1 = Math.max(start + counts.length * width, BERT.mean + width);
        const tick = NICE.find((t) => (x1 - x0) / t <= 12) ?? 20;
        Object.assign(chart.options.scales.x, { min: Math.floor(x0 / tick) * tick, max: Math.ceil(x1 / tick) * tick, ticks: { maxRotation: 0, stepSize: tick } });
        canvas.setAttribute('aria-label', tr(`Histogram of the angles in degrees between ${n} random word vectors and PE vectors, d = ${dim}`,
          `${n} 个随机词向量与位置编码向量夹角（度）的直方图，d = ${dim}`));
        chart.update();
        view.readout = tr(`d = ${dim}: mean cosine ${sig(meanCos, 2)}, mean angle ${mean.toFixed(2)}°, std ${std.toFixed(2)}°` +
          ` (range ${lo.toFixed(2)}°–${hi.toFixed(2)}°); BERT-base reported mean cosine ${BERT.cos.toFixed(4)},` +
          ` mean angle ${BERT.mean}°, std ${BERT.std}°.`,
          `d = ${dim}：平均余弦 ${sig(meanCos, 2)}，平均夹角 ${mean.toFixed(2)}°，标准差 ${std.toFixed(2)}°` +
          `（范围 ${lo.toFixed(2)}°–${hi.toFixed(2)}°）；BERT-base 报告的平均余弦为 ${BERT.cos.toFixed(4)}，` +
          `平均夹角 ${BERT.mean}°，标准差 ${BERT.std}°。`);
        return {
          columns: ['word', 'position', 'cosine', 'angle (deg)'],
          rows: deg.map((a, j) => [j, j % rows, cos[j], a]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
