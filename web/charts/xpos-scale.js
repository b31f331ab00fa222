// xpos-scale.js: xPos (lucidrains rotary-embedding-torch, use_xpos): RoPE, plus a per-pair factor
// ζᵢ^(p/scale_base) on the query and its inverse on the key, ζᵢ = (2i + 0.4·d)/(1.4·d) < 1, so a
// score picks up ζᵢ^((m − n)/scale_base): a decay with distance that RoPE alone lacks, fastest in
// the fast pairs (pe.xposScale; positions centred, as the reference does).
import { lineChart, palette, dashes, lineLegend, sig, pointArrays, logAxis, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    title: 'xPos: the factor each pair adds to a score, against the distance between query and key',
    dim: 'head dim d',
    scaleBase: 'scale_base',
    maxDist: 'largest distance',
    xTitle: 'distance m − n',
    yTitle: 'factor on the pair\'s score: ζᵢ to the power (m − n)/scale_base',
    pair: 'pair {i}: ζ = {zeta}',
    readout: 'd = {dim}, scale_base {scaleBase}: ζ runs from {z0} (pair 0) to {zl} (pair {last}); at distance {max} pair 0\'s part of the score is scaled by {f0} and the slowest pair\'s by {fl}.',
    notice: 'Every factor falls with distance, fastest in the fast pairs: the pairs that tell near keys apart fade first, and a far key\'s score shrinks toward what the slow pairs give it.',
    how: 'For each pair i, ζᵢ = (2i + 0.4d)/(1.4d) < 1; the query\'s pair is multiplied by ζᵢ^(m/scale_base) and the key\'s by ζᵢ^(−n/scale_base), so their product on the score is ζᵢ^((m − n)/scale_base), computed in float64 (as lucidrains\' rotary-embedding-torch with use_xpos, which centres the positions; the product does not change). 200 distances from 0 to the largest; four pairs drawn. The lab\'s xPos models use d = 8 (their head width) and scale_base 512.',
  },
  zh: {
    title: 'xPos：每一对加到得分上的因子，随 query 与 key 之间的距离变化',
    dim: '头维度 d',
    scaleBase: 'scale_base',
    maxDist: '最大距离',
    xTitle: '距离 m − n',
    yTitle: '这一对得分上的因子：ζᵢ 的 (m − n)/scale_base 次幂',
    pair: '第 {i} 对：ζ = {zeta}',
    readout: 'd = {dim}，scale_base 为 {scaleBase}：ζ 从 {z0}（第 0 对）到 {zl}（第 {last} 对）；在距离 {max} 处，第 0 对在得分中的贡献乘以 {f0}，最慢的一对乘以 {fl}。',
    notice: '每个因子都随距离下降，快的维度对下降得最快：用来区分近处 key 的那些维度对最先衰减，远处 key 的得分越来越只剩慢的维度对的贡献。',
    how: '对每一对 i，ζᵢ = (2i + 0.4d)/(1.4d) < 1；query 的这一对乘以 ζᵢ^(m/scale_base)，key 的这一对乘以 ζᵢ^(−n/scale_base)，两者在得分上的乘积就是 ζᵢ^((m − n)/scale_base)，以 float64 计算（与 lucidrains 的 rotary-embedding-torch 在 use_xpos 下一致；它把位置居中，乘积不受影响）。从 0 到最大距离取 200 个距离，画出其中四对。实验台上的 xPos 模型用 d = 8（即头维度）和 scale_base 512。',
  },
});

export default {
  kind: 'xpos-scale',
  messages: M,
  title: M.title,
  params: [
    { name: 'dim', label: M.dim, type: 'int', min: 4, max: 256, step: 2, value: 64 },
    { name: 'scaleBase', label: M.scaleBase, type: 'number', min: 1, max: 100000, step: 'any', value: 512 },
    { name: 'maxDist', label: M.maxDist, type: 'int', min: 8, max: 100000, value: 4096 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle, yType: 'logarithmic' });
    chart.canvas.parentElement.classList.add('phone-legend'); // a legend of several lines on a phone
    chart.options.plugins.legend = lineLegend;
    Object.assign(chart.options.scales.y, logAxis);
    const pts = pointArrays();
    const view = {
      update({ dim, scaleBase, maxDist }) {
        const half = dim / 2, n = 200;
        const dist = Array.from({ length: n + 1 }, (_, j) => Math.round((j * maxDist) / n));
        // the factor on a score is the query's ζ^(m/s) times the key's ζ^(−n/s): ζ^((m − n)/s)
        const f = pe.xposScale(dist, { dim, scaleBase });
        const shown = [...new Set([0, Math.floor(half / 4), Math.floor(half / 2), half - 1])];
        chart.data.datasets = shown.map((i, k) => ({
          label: M.pair.format({ i, zeta: sig((2 * i + 0.4 * dim) / (1.4 * dim), 4) }), data: pts(k, dist.length, (j) => f[j * half + i], (j) => dist[j]),
          borderColor: palette[k], borderDash: dashes[k], borderWidth: 1.75,
        }));
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = maxDist;
        chart.update();
        view.notice = String(M.notice);
        view.readout = M.readout.format({
          dim, scaleBase, max: maxDist, last: half - 1, z0: sig(0.4 / 1.4, 4), zl: sig((2 * (half - 1) + 0.4 * dim) / (1.4 * dim), 4),
          f0: sig(f[n * half], 3), fl: sig(f[n * half + half - 1], 3),
        });
        return { columns: ['distance', ...shown.map((i) => `pair ${i}`)], heads: colHeads([COL.distance, ...shown.map((i) => COL.pair.format({ i }))]), rows: dist.map((x, j) => [x, ...shown.map((i) => f[j * half + i])]) };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
