// rope-decay-random.js: the long-range decay of RoPE for a random vector, the source post's
// experiment: one random vector k as both query and key, the key rotated Δ positions further:
// the score of k at position 0 with k at position Δ against Δ (pe.ropeDecay, kind 'vectors'). With q = k the score is Σ_i |k_i|²·cos(Δθ_i), and a
// random k has E|k_i|² = 2, so its expected curve is g(Δ) = 2·Σ_i cos(Δθ_i), drawn beside it. The key
// control swaps in an independent k, whose score is 0 on average over draws at every distance.
// Cost: the kernel turns every pair at every distance, length × d/2 rotations (about 4 ns
// each), so the sizes stop at 8192 distances (eight times the post's 1024: the slow drift is
// long visible) and d = 1024 (twice the post's 512; the score is a sum over the d/2 pairs, so a
// larger d scales the curve and smooths it a little, and shows nothing new).
import { lineChart, palette, dashes, lineLegend, sig, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const KEYS = ['same', 'independent'];

const M = messages({
  en: {
    title: 'RoPE score of a random query and key, Δ positions apart (pairs (2i, 2i+1))',
    seed: 'seed for q, k',
    length: 'number of distances',
    base: 'base',
    key: 'the key is',
    same: 'the query itself (q = k)',
    independent: 'an independent random vector',
    xTitle: 'distance Δ',
    yTitle: 'score: q at position 0 · k at position Δ',
    product: 'q at position 0 · k at position Δ',
    productSame: 'q at position 0 · k at position Δ, q = k',
    expected: 'expected score g(Δ) = 2·Σᵢ cos(Δ·θᵢ)',
    readout: 'At Δ = 0 the score is |k|² = {s0}; at Δ = 1 it is {s1}; over Δ = {from}…{to} it averages {mean} (RMS {rms}), and g averages {gMean}.',
    readoutIndependent: 'At Δ = 0 the score is q·k = {s0}; over Δ = {from}…{to} it averages {mean} (RMS {rms}).',
    notice: 'k is both query and key, so the score follows g(Δ), its expected curve (dashed), down from |k|² = {s0}: a fast drop as the fast pairs fall out of step, then a slow drift; the uneven lengths of k\'s pairs add the wobble.',
    noticeIndependent: 'With an independent key no decay is expected: over many draws of q and k the score averages 0 at every distance, with the same typical size √d ≈ {sd}. One draw wanders: its slow pairs, which barely turn over a few hundred positions, can hold it on one side of 0 for a long stretch (it starts at q·k = {s0}); other seeds wander differently.',
    how: 'q and k have d independent standard normal entries drawn from the seed (with "the query itself", k is q). The key is rotated Δ positions further than the query (pairs (2i, 2i+1), θᵢ = base^(−2i/d)) and the dot product is taken in double precision for every Δ from 0 to the number of distances minus 1. The dashed g(Δ) is the same sum with every pair of length² 2, the average for a random vector.',
  },
  zh: {
    title: '随机的 query 与 key 相隔 Δ 个位置时的 RoPE 得分（配对 (2i, 2i+1)）',
    seed: 'q、k 的种子',
    length: '距离个数',
    base: '底数 base',
    key: 'key 取',
    same: 'query 本身（q = k）',
    independent: '另一个独立的随机向量',
    xTitle: '距离 Δ',
    yTitle: '得分：位置 0 的 q · 位置 Δ 的 k',
    product: '位置 0 的 q · 位置 Δ 的 k',
    productSame: '位置 0 的 q · 位置 Δ 的 k，q = k',
    expected: '期望得分 g(Δ) = 2·Σᵢ cos(Δ·θᵢ)',
    readout: 'Δ = 0 时得分为 |k|² = {s0}；Δ = 1 时为 {s1}；在 Δ = {from}…{to} 上平均为 {mean}（均方根 {rms}），g 在这一段平均为 {gMean}。',
    readoutIndependent: 'Δ = 0 时得分为 q·k = {s0}；在 Δ = {from}…{to} 上平均为 {mean}（均方根 {rms}）。',
    notice: 'k 既是 query 又是 key，所以得分沿着它的期望曲线 g(Δ)（虚线）从 |k|² = {s0} 往下走：快的维度对失去同步时迅速下降，随后缓慢下滑；k 的各维度对长度不一，带来了起伏。',
    noticeIndependent: 'key 换成独立的向量后，就没有可预期的衰减：对许多组 q、k 取平均，得分在每个距离上都是 0，典型大小都是 √d ≈ {sd}。单独一次抽取的曲线则会起伏：慢的维度对在几百个位置里几乎不转，可能让曲线在很长一段距离上都偏在 0 的一侧（起点为 q·k = {s0}）；换个种子，起伏就不同。',
    how: 'q 和 k 的 d 个分量是由种子生成的独立标准正态数（选“query 本身”时 k 就是 q）。key 比 query 多旋转 Δ 个位置（配对 (2i, 2i+1)，θᵢ = base^(−2i/d)），从 0 到“距离个数”减 1 的每个 Δ 都用双精度计算内积。虚线 g(Δ) 是同一个和，只是每一对的长度平方都取随机向量的平均值 2。',
  },
});

export default {
  kind: 'rope-decay-random',
  messages: M,
  title: M.title,
  main: 'key',
  params: [
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 1000, value: 0 },
    { name: 'dim', label: 'd', type: 'int', min: 2, max: 1024, step: 2, value: 512 },
    { name: 'length', label: M.length, type: 'int', min: 2, max: 8192, value: 1024 },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 10000000, step: 'any', value: 10000 },
    { name: 'key', label: M.key, type: 'select', options: KEYS, value: 'same', optionLabels: { same: M.same, independent: M.independent } },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle });
    chart.options.plugins.legend = lineLegend;
    Object.assign(chart.options.scales.x.ticks, { includeBounds: false });
    const view = {
      update({ seed, dim, length, base, key }) {
        const same = key !== 'independent';
        // q = k: one draw of d numbers, as the source post; independent: one draw of 2d, q the first half
        const drawn = pe.randomNormal(same ? dim : 2 * dim, seed);
        const q = drawn.subarray(0, dim), k = same ? q : drawn.subarray(dim);
        const dist = Array.from({ length }, (_, i) => i);
        const s = pe.ropeDecay(dist, { dim, base, kind: 'vectors', q, k, style: 'interleaved' });
        const g = same ? pe.ropeDecay(dist, { dim, base, kind: 'ones' }) : null;
        chart.data.datasets = [{
          // the y axis's product; with the key control on "the query itself" q is k, and the legend says so
          label: String(same ? M.productSame : M.product),
          data: Array.from(s, (y, x) => ({ x, y })), borderColor: palette[0],
        }];
        if (g) {
          chart.data.datasets.push({
            label: String(M.expected), data: Array.from(g, (y, x) => ({ x, y })),
            borderColor: palette[1], borderDash: dashes[1], borderWidth: 1.5,
          });
        }
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = length - 1;
        chart.update();
        const from = length >> 1;
        const tailMean = (v) => {
          let sum = 0;
          for (let i = from; i < length; i++) sum += v[i];
          return sum / (length - from);
        };
        let sq = 0;
        for (let i = from; i < length; i++) sq += s[i] * s[i];
        const mean = tailMean(s), rms = Math.sqrt(sq / (length - from));
        const v = { s0: sig(s[0], 5), s1: sig(s[1], 5), from, to: length - 1, mean: sig(mean, 3), rms: sig(rms, 3), gMean: g && sig(tailMean(g), 3) };
        view.notice = (same ? M.notice : M.noticeIndependent).format({ s0: sig(s[0], 4), sd: sig(Math.sqrt(dim), 3) });
        view.readout = (same ? M.readout : M.readoutIndependent).format(v);
        return {
          columns: ['Δ', 'score', ...(g ? ['g(Δ)'] : [])],
          heads: colHeads(['Δ', COL.score, ...(g ? ['g(Δ)'] : [])]),
          rows: dist.map((i) => [i, s[i], ...(g ? [g[i]] : [])]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
