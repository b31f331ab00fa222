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
    title: 'RoPE score of one random vector k with itself, Δ positions apart (pairs (2i, 2i+1))',
    seed: 'seed for k',
    length: 'largest distance + 1',
    base: 'base',
    xTitle: 'distance Δ',
    yTitle: 'score (R_0 k)·(R_Δ k)',
    readout: 'At Δ = 0 the score is |k|² = {s0}; at Δ = 1 it is {s1}; over Δ = {from}…{to} it averages {mean} (RMS {rms}).',
    notice: 'A real vector sits between the two extremes: the score falls fast from |k|² = {s0} as the fast pairs fall out of step, then drifts down to about {ratio} of it, oscillating.',
    how: 'k has d independent standard normal entries drawn from the seed; the key copy is rotated Δ positions further (pairs (2i, 2i+1), θ_i = base^(−2i/d)) and the dot product is taken in double precision for every Δ from 0 to the largest distance.',
  },
  zh: {
    title: '随机向量 k 与平移 Δ 个位置后的自身之间的 RoPE 得分（配对 (2i, 2i+1)）',
    seed: 'k 的种子',
    length: '最大距离 + 1',
    base: '底数 base',
    xTitle: '距离 Δ',
    yTitle: '得分 (R_0 k)·(R_Δ k)',
    readout: 'Δ = 0 时得分为 |k|² = {s0}；Δ = 1 时为 {s1}；在 Δ = {from}…{to} 上平均为 {mean}（均方根 {rms}）。',
    notice: '真实的向量介于两个极端之间：随着快的对失去同步，得分从 |k|² = {s0} 迅速下降，然后一边振荡一边缓慢降到它的约 {ratio}。',
    how: 'k 的 d 个分量是由种子生成的独立标准正态数；作为 key 的那一份再往后旋转 Δ 个位置（配对 (2i, 2i+1)，θ_i = base^(−2i/d)），从 0 到最大距离的每个 Δ 都用双精度计算内积。',
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
          label: '(R_0 k)·(R_Δ k)',
          data: Array.from(s, (y, x) => ({ x, y })), borderColor: palette[0],
        }];
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = length - 1;
        chart.update();
        const from = length >> 1;
        let sum = 0, sq = 0;
        for (let i = from; i < length; i++) (sum += s[i]), (sq += s[i] * s[i]);
        const n = length - from, mean = sum / n, rms = Math.sqrt(sq / n);
        view.notice = M.notice.format({ s0: sig(s[0], 4), ratio: `${Math.round((100 * mean) / s[0])}%` });
        view.readout = M.readout.format({ s0: sig(s[0], 5), s1: sig(s[1], 5), from, to: length - 1, mean: sig(mean, 3), rms: sig(rms, 3) });
        return { columns: ['Δ', 'score'], rows: dist.map((i) => [i, s[i]]) };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
