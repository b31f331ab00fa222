// rope-decay-random.js: the long-range decay of RoPE for a random vector, the source post's
// experiment: one random vector K as both query and key, the key rotated Δk positions further:
// K·R(Δk)K against Δk (pe.ropeDecay, kind 'vectors').
// Cost: the kernel turns every pair at every distance, length × d/2 rotations (about 4 ns
// each), so the sizes stop at 8192 distances (eight times the post's 1024: the slow drift is
// long visible) and d = 1024 (twice the post's 512; the score is a sum over the d/2 pairs, so a
// larger d scales the curve and smooths it a little, and shows nothing new).
import { lineChart, palette, lineLegend, sig } from './common.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    title: 'RoPE score of one random vector K with itself, Δk positions apart (pairs (2i, 2i+1))',
    seed: 'seed for K',
    length: 'largest distance + 1',
    base: 'base',
    xTitle: 'distance Δk',
    yTitle: 'inner product',
    readout: 'At Δk = 0 the score is |K|² = {s0}; at Δk = 1 it is {s1}; over Δk = {from}…{to} it averages {mean} (RMS {rms}).',
  },
  zh: {
    title: '一个随机向量 K 与相隔 Δk 个位置的自身的 RoPE 得分（配对 (2i, 2i+1)）',
    seed: 'K 的种子',
    length: '最大距离 + 1',
    base: '底数 base',
    xTitle: '距离 Δk',
    yTitle: '内积',
    readout: 'Δk = 0 时得分为 |K|² = {s0}；Δk = 1 时为 {s1}；在 Δk = {from}…{to} 上平均为 {mean}（均方根 {rms}）。',
  },
});

export default {
  kind: 'rope-decay-random',
  messages: M,
  title: M.title,
  params: [
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 1000, value: 0 },
    { name: 'dim', label: 'd_model', type: 'int', min: 2, max: 1024, step: 2, value: 512 },
    { name: 'length', label: M.length, type: 'int', min: 2, max: 8192, value: 1024 },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 10000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle });
    chart.options.plugins.legend = lineLegend;
    Object.assign(chart.options.scales.x.ticks, { includeBounds: false });
    const view = {
      update({ seed, dim, length, base }) {
        const K = pe.randomNormal(dim, seed);
        const dist = Array.from({ length }, (_, i) => i);
        const s = pe.ropeDecay(dist, { dim, base, kind: 'vectors', q: K, k: K, style: 'interleaved' });
        chart.data.datasets = [{
          label: '(R(0)K)·(R(Δk)K)',
          data: Array.from(s, (y, x) => ({ x, y })), borderColor: palette[0],
        }];
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = length - 1;
        chart.update();
        const from = length >> 1;
        let sum = 0, sq = 0;
        for (let i = from; i < length; i++) (sum += s[i]), (sq += s[i] * s[i]);
        const n = length - from, mean = sum / n, rms = Math.sqrt(sq / n);
        view.readout = M.readout.format({ s0: sig(s[0], 5), s1: sig(s[1], 5), from, to: length - 1, mean: sig(mean, 3), rms: sig(rms, 3) });
        return { columns: ['delta k', 'score'], rows: dist.map((i) => [i, s[i]]) };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
