// alibi-bias.js: ALiBi (Press et al., "Train Short, Test Long"): no rotation and no table, a bias
// −λ_h·(m − n) added to each head's scores, with the slopes λ_h = 2^(−8h/n_heads): the score of a key
// falls linearly with its distance, steeply in the first heads and gently in the last, and the
// same holds at any length (pe.alibiSlopes, pe.alibiBias).
import { lineChart, palette, dashes, lineLegend, sig, pointArrays, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    colSlope: 'slope',
    colBias: 'bias at distance {d}',
    title: 'ALiBi: the bias each head adds to a score, against the distance between query and key',
    heads: 'heads n_heads',
    maxDist: 'largest distance',
    xTitle: 'distance m − n (query at m, key at n)',
    yTitle: 'bias added to the score',
    head: 'head {h}: λ = {m}',
    readout: '{heads} heads: slopes λ from {first} (head 1) to {last} (head {heads}); at distance {max} the bias runs from {steep} to {gentle}. A softmax turns a bias b into a factor e^b on the weight: head 1 has multiplied the weight of a key {max} positions back by about {factor}.',
    notice: 'Every line falls steadily: a nearer key always gets a larger bias than a farther one, in every head and at any length, so the bias alone can never prefer a key a few places back to the ones nearer.',
    how: 'Head h (of n_heads) adds −λₕ·(m − n) to the score of the key at n, with λₕ = 2^(−8h/n_heads) for h = 1 … n_heads when n_heads is a power of two (Press et al.; for other n_heads, their code\'s rule: the slopes of the next lower power of two, then every other slope of twice it): a straight line per head, drawn from its two ends. The softmax factor e^b is computed from the base-10 logarithm where it passes float64\'s range. The lab\'s ALiBi models follow the same rule with n_heads = 4.',
  },
  zh: {
    colSlope: '斜率',
    colBias: '距离 {d} 处的偏置',
    title: 'ALiBi：每个头加到得分上的偏置，随 query 与 key 之间的距离变化',
    heads: '头数 n_heads',
    maxDist: '最大距离',
    xTitle: '距离 m − n（query 在 m，key 在 n）',
    yTitle: '加到得分上的偏置',
    head: '第 {h} 个头：λ = {m}',
    readout: '{heads} 个头：斜率 λ 从 {first}（第 1 个头）到 {last}（第 {heads} 个头）；距离 {max} 处的偏置从 {steep} 到 {gentle}。softmax 把偏置 b 变成权重上的因子 e^b：第 1 个头把相隔 {max} 个位置的 key 的权重压到原来的约 {factor} 倍。',
    notice: '每条线都单调下降：在每个头、任何长度上，近的 key 得到的偏置总比远的大，所以单靠这个偏置，永远不会让往前几个位置的 key 胜过比它更近的 key。',
    how: 'n_heads 个头中的第 h 个头给位置 n 上的 key 的得分加上 −λₕ·(m − n)，n_heads 为 2 的幂时 λₕ = 2^(−8h/n_heads)，h = 1 … n_heads（Press 等人；n_heads 不是 2 的幂时按他们代码的规则：先取不超过 n_heads 的最大 2 的幂的斜率，再从其两倍的斜率中隔一个取一个）：每个头一条直线，由两个端点画出。softmax 中的因子 e^b 超出 float64 范围时，由以 10 为底的对数算出。实验台上的 ALiBi 模型按同一规则取 n_heads = 4。',
  },
});

/** e^b to 3 digits; past float64's range (b > 709) from its base-10 logarithm, as 1.23e889. */
const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
/** e^b, written as 1.3×10⁻¹⁴ once it is small: "1/7.9e13" or "1.3e-14" is hard to read in a sentence. */
function expFactor(b) {
  const e = b / Math.LN10;
  if (e > -3) return sig(Math.exp(b), 2);
  // mantissa and exponent from the logarithm: e^b underflows to 0 past b ≈ −745
  let k = Math.floor(e), m = Number((10 ** (e - k)).toPrecision(2));
  if (m >= 10) (m /= 10), (k += 1);
  return `${m}×10${[...String(k)].map((c) => SUPERSCRIPT[c]).join('')}`;
}

export default {
  kind: 'alibi-bias',
  messages: M,
  title: M.title,
  params: [
    { name: 'heads', label: M.heads, type: 'int', min: 1, max: 64, value: 8 },
    { name: 'maxDist', label: M.maxDist, type: 'int', min: 2, max: 4096, value: 64 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle });
    chart.canvas.parentElement.classList.add('phone-legend'); // a legend of several lines on a phone
    chart.options.plugins.legend = lineLegend;
    const pts = pointArrays();
    const view = {
      update({ heads, maxDist }) {
        const slopes = pe.alibiSlopes(heads);
        // each head's bias is the line −m·x: two points draw it exactly
        const shown = heads <= 8 ? [...slopes.keys()] : [0, 1, 2, 3, heads - 4, heads - 3, heads - 2, heads - 1];
        chart.data.datasets = shown.map((h, k) => ({
          label: M.head.format({ h: h + 1, m: sig(slopes[h], 3) }), data: pts(k, 2, (n) => -slopes[h] * n * maxDist, (n) => n * maxDist),
          borderColor: palette[k % 7], borderDash: dashes[k % 6], borderWidth: 1.75,
        }));
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = maxDist;
        chart.update();
        view.notice = String(M.notice);
        view.readout = M.readout.format({
          heads, first: sig(slopes[0], 4), last: sig(slopes[heads - 1], 4), max: maxDist,
          steep: sig(-slopes[0] * maxDist, 4), gentle: sig(-slopes[heads - 1] * maxDist, 4), factor: expFactor(-slopes[0] * maxDist),
        });
        return { columns: ['head', 'slope', `bias at ${maxDist}`], heads: colHeads([COL.head, M.colSlope, M.colBias.format({ d: maxDist })]), rows: Array.from(slopes, (m, h) => [h + 1, m, -m * maxDist]) };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
