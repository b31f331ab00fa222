// absolute-decay.js: the source post's experiment with absolute (added) PE: the score of a
// query at position 0 against keys at positions i, (Q + PE[0])·(K + PE[i]) and PE[0]·PE[i]
// (pe.sinusoidalDecay).
// Cost: each curve is length × d/2 sines and cosines in the kernel (about 4 ns each), so the
// sizes stop at 4096 positions (eight times the post's 512: the decay and the level it settles
// at are long visible) and d = 1024 (twice the post's; PE[0]·PE[i] is a sum over the d/2
// frequencies, so a larger d scales both curves and shows nothing new).
import { lineChart, palette, dashes, lineLegend, sig } from './common.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    title: 'Score of the query at position 0 against a key at position i (absolute PE)',
    seed: 'seed for Q, K',
    length: 'positions',
    base: 'base',
    xTitle: 'key position i',
    yTitle: 'inner product',
    readout: '(Q + PE[0])·(K + PE[i]) is {qk0} at i = 0 and averages {tailMean} over i ≥ {from}; PE[0]·PE[i] falls from {pe0} (= d/2) to {peLast} at i = {last}.',
  },
  zh: {
    title: '位置 0 的 query 与位置 i 的 key 的得分（绝对位置编码）',
    seed: 'Q、K 的种子',
    length: '位置数',
    base: '底数 base',
    xTitle: 'key 位置 i',
    yTitle: '内积',
    readout: '(Q + PE[0])·(K + PE[i]) 在 i = 0 处为 {qk0}，在 i ≥ {from} 上平均为 {tailMean}；PE[0]·PE[i] 从 {pe0}（= d/2）降到 i = {last} 处的 {peLast}。',
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
        // One draw of 2d numbers: Q is the first half, K the second (as the source post draws them: torch.randn twice).
        const qk = pe.randomNormal(2 * dim, seed);
        const q = qk.subarray(0, dim), k = qk.subarray(dim);
        const dist = Array.from({ length }, (_, i) => i);
        const withQK = pe.sinusoidalDecay(dist, { dim, base, q, k });
        const peOnly = pe.sinusoidalDecay(dist, { dim, base });
        chart.data.datasets = [
          { label: '(Q + PE[0])·(K + PE[i])', data: Array.from(withQK, (y, x) => ({ x, y })), borderColor: palette[0], borderDash: dashes[0] },
          { label: 'PE[0]·PE[i]', data: Array.from(peOnly, (y, x) => ({ x, y })), borderColor: palette[1], borderDash: dashes[1] },
        ];
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = length - 1;
        chart.update();
        const tail = withQK.subarray(length >> 1);
        const tailMean = tail.reduce((s, v) => s + v, 0) / tail.length;
        view.readout = M.readout.format({
          qk0: sig(withQK[0], 4), tailMean: sig(tailMean, 4), from: length >> 1,
          pe0: sig(peOnly[0], 4), peLast: sig(peOnly[length - 1], 4), last: length - 1,
        });
        return {
          columns: ['i', '(Q+PE[0])·(K+PE[i])', 'PE[0]·PE[i]'],
          rows: dist.map((i) => [i, withQK[i], peOnly[i]]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
