// absolute-decay.js: the source post's experiment with absolute (added) PE: the score of a
// query at position 0 against keys at positions i, (E + PE[0])·(E′ + PE[i]) and PE[0]·PE[i]
// (pe.sinusoidalDecay).
// Cost: each curve is length × d/2 sines and cosines in the kernel (about 4 ns each), so the
// sizes stop at 4096 positions (eight times the post's 512: the decay and the level it settles
// at are long visible) and d = 1024 (twice the post's; PE[0]·PE[i] is a sum over the d/2
// frequencies, so a larger d scales both curves and shows nothing new).
import { lineChart, palette, dashes, lineLegend, sig } from './common.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    title: 'Score of a query at position 0 against a key at position n (added sinusoidal PE)',
    seed: 'seed for E, E′',
    length: 'positions',
    base: 'base',
    xTitle: 'key position n (distance Δ = n)',
    yTitle: 'inner product',
    readout: '(E + PE(0))·(E′ + PE(n)) is {qk0} at n = 0 and averages {tailMean} over n ≥ {from}; PE(0)·PE(n) falls from {pe0} (= d/2) to {peLast} at n = {last}.',
    notice: 'PE(0)·PE(n) halves within the first {half} positions and then falls more and more slowly; the random E and E′ add a constant and a wobble, but the fast drop near n = 0 stays.',
    noticeHidden: 'Here the random terms are as large as the position term: the fast drop of PE(0)·PE(n) is lost in the total.',
    how: 'E and E′ are random N(0, 1) vectors (from the seed control), the word embeddings of the query’s and the key’s tokens, standing for their content, with no projections; E′ is the same at every n, one fixed token whose position moves; PE is the sinusoidal table (d = d_model). The score expands into E·E′ + E·PE(n) + PE(0)·E′ + PE(0)·PE(n), and PE(0)·PE(n) = Σ cos(n·θᵢ) over the d/2 pairs, summed in float64.',
  },
  zh: {
    title: '位置 0 的 query 与位置 n 的 key 的得分（相加的正弦位置编码）',
    seed: 'E、E′ 的种子',
    length: '位置数',
    base: '底数 base',
    xTitle: 'key 位置 n（距离 Δ = n）',
    yTitle: '内积',
    readout: '(E + PE(0))·(E′ + PE(n)) 在 n = 0 处为 {qk0}，在 n ≥ {from} 上平均为 {tailMean}；PE(0)·PE(n) 从 {pe0}（= d/2）降到 n = {last} 处的 {peLast}。',
    notice: 'PE(0)·PE(n) 在前 {half} 个位置内就降到一半，之后越降越慢；随机的 E 和 E′ 只加上一个常数和一些起伏，n = 0 附近的快速下降依然在。',
    noticeHidden: '这里随机项与位置项一样大：PE(0)·PE(n) 的快速下降淹没在总得分里了。',
    how: 'E 和 E′ 是随机的 N(0, 1) 向量（种子见上方控件），即 query 与 key 所在 token 的词嵌入，代表它们的内容，不经过投影；E′ 在每个 n 上都相同，是同一个 token，只是位置在变；PE 是正弦位置编码表（d = d_model）。得分展开为 E·E′ + E·PE(n) + PE(0)·E′ + PE(0)·PE(n)，其中 PE(0)·PE(n) = Σ cos(n·θᵢ)，对 d/2 个维度对求和，用 float64 计算。',
  },
});

export default {
  kind: 'absolute-decay',
  messages: M,
  title: M.title,
  params: [
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 1000, value: 0 },
    { name: 'dim', label: 'd_model', type: 'int', min: 2, max: 1024, step: 2, value: 512 },
    { name: 'length', label: M.length, type: 'int', min: 2, max: 4096, value: 512 },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 1000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle });
    chart.options.plugins.legend = lineLegend;
    Object.assign(chart.options.scales.x.ticks, { includeBounds: false });
    const view = {
      update({ seed, dim, length, base }) {
        // One draw of 2d numbers: E is the first half, E′ the second (as the source post draws them: torch.randn twice).
        const qk = pe.randomNormal(2 * dim, seed);
        const q = qk.subarray(0, dim), k = qk.subarray(dim);
        const dist = Array.from({ length }, (_, i) => i);
        const withQK = pe.sinusoidalDecay(dist, { dim, base, q, k });
        const peOnly = pe.sinusoidalDecay(dist, { dim, base });
        chart.data.datasets = [
          { label: '(E + PE(0))·(E′ + PE(n))', data: Array.from(withQK, (y, x) => ({ x, y })), borderColor: palette[0], borderDash: dashes[0] },
          { label: 'PE(0)·PE(n)', data: Array.from(peOnly, (y, x) => ({ x, y })), borderColor: palette[1], borderDash: dashes[1] },
        ];
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = length - 1;
        chart.update();
        const tail = withQK.subarray(length >> 1);
        const tailMean = tail.reduce((s, v) => s + v, 0) / tail.length;
        let half = peOnly.findIndex((v) => v <= peOnly[0] / 2);
        const peTail = peOnly.subarray(length >> 1).reduce((s, v) => s + v, 0) / (length - (length >> 1));
        const drop = half > 0 && withQK[0] - tailMean > (peOnly[0] - peTail) / 2;
        if (half < 0) half = length;
        view.notice = (drop ? M.notice : M.noticeHidden).format({ half });
        view.readout = M.readout.format({
          qk0: sig(withQK[0], 4), tailMean: sig(tailMean, 4), from: length >> 1,
          pe0: sig(peOnly[0], 4), peLast: sig(peOnly[length - 1], 4), last: length - 1,
        });
        return {
          columns: ['n', '(E+PE(0))·(E′+PE(n))', 'PE(0)·PE(n)'],
          rows: dist.map((i) => [i, withQK[i], peOnly[i]]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
