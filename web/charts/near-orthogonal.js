// near-orthogonal.js: the source post's experiment on the angle between random "word" vectors
// and sinusoidal PE vectors: in high dimension it clusters tightly around 90°, as BERT's trained
// ones do.
//
// Sizes: the words × d random numbers cost about 40 ns each to draw, so the largest draw
// (512 × 1024) takes about 20 ms of the frame. d up to 1024 holds BERT-base's 768, and a larger d
// only narrows the peak further (its width goes as 1/√d); 512 words fill the histogram's bins
// well enough to read its mean and width (the source post used 1000); a word meets one position,
// so more positions than words would go unused (512 is BERT's count).
import { canvasIn, palette, dashes, lineLegend, sig, COL, colHeads } from './common.js';
import { normalPool } from './shared/random.js';
import { messages } from '../host/i18n.js';

// What the source post measured on BERT-base: words 100..1099 against all 512 position embeddings.
const BERT = { cos: -0.009876, cosStd: 0.035428, mean: 90.57, std: 2.03 }; // source post 3's measurement
const NICE = [0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10];

const M = messages({
  en: {
    colWord: 'word',
    colAngle: 'angle (degrees)',
    title: 'Angle between a random word vector and a PE vector',
    dim: 'dimension d',
    words: 'word vectors',
    length: 'positions',
    seed: 'seed',
    xTitle: 'angle between word vector and PE vector (degrees)',
    yTitle: 'number of (word, position) pairs',
    bins: '{n} (word, position) pairs, {width}° bins',
    meanHere: 'mean here {mean}°',
    bertMean: 'BERT reported mean {bertMean}°',
    aria: 'Histogram of the angles in degrees between {n} random word vectors and PE vectors, d = {dim}',
    readout: 'd = {dim}: cosine mean {meanCos}, std {cosStd} (chance: 1/√d = {chance}); angle mean {mean}°, std {std}° (range {lo}°–{hi}°). ' +
      'BERT-base, d = 768: cosine mean {bertCos}, std {bertCosStd}; angle mean {bertMean}°, std {bertStd}°.',
    noticeBert: 'The angles cluster at 90°, spread by about what chance gives in {dim} dimensions (cosine std near 1/√d); BERT’s reported spread is about the same, so its numbers show chance, not orthogonality learned in training.',
    notice: 'The angles cluster at 90° with a cosine spread of about 1/√d: the more dimensions, the closer two unrelated directions are to orthogonal.',
    how: 'Word vectors are drawn from N(0, 1) with the seed control. Word j is paired with the PE row of position j; when there are more words than positions, the positions are used again from 0 (word j takes position j mod the number of positions). The cosine of each pair is computed in float64. The dashed line marks the mean angle here, the dotted one the mean angle source post 3 measured on BERT-base, whose position table is learned, not sinusoidal.',
  },
  zh: {
    colWord: '词',
    colAngle: '夹角（度）',
    title: '随机词向量与位置编码向量之间的夹角',
    dim: '维度 d',
    words: '词向量个数',
    length: '位置数',
    seed: '种子',
    xTitle: '词向量与位置编码向量的夹角（度）',
    yTitle: '（词，位置）配对的组数',
    bins: '{n} 组（词，位置）配对，每格 {width}°',
    meanHere: '此处的平均值 {mean}°',
    bertMean: 'BERT 报告的平均值 {bertMean}°',
    aria: '{n} 个随机词向量与位置编码向量夹角（度）的直方图，d = {dim}',
    readout: 'd = {dim}：余弦均值 {meanCos}，标准差 {cosStd}（随机基线 1/√d = {chance}）；夹角均值 {mean}°，标准差 {std}°（范围 {lo}°–{hi}°）。' +
      'BERT-base，d = 768：余弦均值 {bertCos}，标准差 {bertCosStd}；夹角均值 {bertMean}°，标准差 {bertStd}°。',
    noticeBert: '夹角集中在 90° 附近，离散程度与 {dim} 维空间里随机方向本来就有的相当（余弦标准差约为 1/√d）；BERT 报告的离散程度与此相近，所以这组数字体现的是随机性，而不是训练学出来的正交。',
    notice: '夹角集中在 90° 附近，余弦的离散程度约为 1/√d：维度越高，两个无关的方向就越接近正交。',
    how: '词向量从 N(0, 1) 中抽取（种子见上方控件）。第 j 个词与位置 j 的位置编码行配对；词比位置多时，位置从 0 开始重复使用（第 j 个词取的位置是 j 除以位置数的余数）。每组配对的余弦用 float64 计算。虚线标出这里的平均夹角，点线标出来源博文 3 在 BERT-base 上测得的平均夹角；BERT 的位置表是训练出来的，不是正弦位置编码。',
  },
});

export default {
  kind: 'near-orthogonal',
  messages: M,
  title: M.title,
  params: [
    { name: 'dim', label: M.dim, type: 'int', min: 2, max: 1024, step: 2, value: 768 },
    { name: 'words', label: M.words, type: 'int', min: 16, max: 512, value: 256 },
    { name: 'length', label: M.length, type: 'int', min: 1, max: 512, value: 512 },
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 1000, value: 0 },
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
          x: { type: 'linear', title: { display: true, text: () => String(M.xTitle) }, ticks: { maxRotation: 0 } },
          y: { beginAtZero: true, title: { display: true, text: () => String(M.yTitle) }, ticks: { maxRotation: 0 } },
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
        let cc = 0;
        for (let j = 0; j < n; j++) cc += (cos[j] - meanCos) ** 2;
        const cosStd = Math.sqrt(cc / n);
        const width = NICE.find((w) => (hi - lo) / w <= 40) ?? 20;
        const start = Math.floor(lo / width) * width;
        const counts = new Array(Math.max(1, Math.ceil((hi - start) / width + 1e-9))).fill(0);
        for (const a of deg) counts[Math.min(counts.length - 1, Math.floor((a - start) / width))]++;
        const top = Math.max(...counts);
        const v = {
          n, dim, width: sig(width, 2), mean: mean.toFixed(2), std: std.toFixed(2), lo: lo.toFixed(2), hi: hi.toFixed(2),
          meanCos: sig(meanCos, 2), bertCos: BERT.cos.toFixed(4), bertMean: BERT.mean, bertStd: BERT.std,
          cosStd: cosStd.toFixed(4), chance: (1 / Math.sqrt(dim)).toFixed(4), bertCosStd: BERT.cosStd.toFixed(4),
        };
        const vline = (x, label, i) => ({
          type: 'line', label, data: [{ x, y: 0 }, { x, y: top }], borderColor: palette[i],
          borderDash: dashes[i], borderWidth: 2, pointRadius: 0, backgroundColor: 'transparent', order: i - 3,
        });
        chart.data.datasets = [
          {
            label: M.bins.format(v),
            data: counts.map((y, b) => ({ x: start + (b + 0.5) * width, y })),
            backgroundColor: palette[5], borderColor: palette[0], borderWidth: 1,
            barPercentage: 1, categoryPercentage: 1,
          },
          vline(mean, M.meanHere.format(v), 1),
          vline(BERT.mean, M.bertMean.format(v), 2),
        ];
        // Axis ends on whole ticks, so no label crowds the last one.
        const x0 = Math.min(start, BERT.mean - width), x1 = Math.max(start + counts.length * width, BERT.mean + width);
        const tick = NICE.find((t) => (x1 - x0) / t <= 12) ?? 20;
        Object.assign(chart.options.scales.x, { min: Math.floor(x0 / tick) * tick, max: Math.ceil(x1 / tick) * tick, ticks: { maxRotation: 0, stepSize: tick } });
        canvas.setAttribute('aria-label', M.aria.format(v));
        chart.update();
        view.notice = (dim === 768 ? M.noticeBert : M.notice).format(v);
        view.readout = M.readout.format(v);
        return {
          columns: ['word', 'position', 'cosine', 'angle (deg)'],
          heads: colHeads([M.colWord, COL.position, COL.cosine, M.colAngle]),
          rows: deg.map((a, j) => [j, j % rows, cos[j], a]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
