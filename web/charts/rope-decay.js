// rope-decay.js: the long-range decay of RoPE: g(x) = 2·Σ cos(x·θ_i), the score of all-ones
// q = k at distance x (pe.ropeDecay), for three choices of θ_i, beside the RoFormer paper's bound.
// Cost: each curve is 2000 distances × d/2 pairs in the kernel; a "free" d stops at 4096, the
// largest of the source post's presets (the frequencies θ_i always run from 1 to about 1/base: a
// larger d only adds pairs between them).
// g's lowest value is not taken at the points drawn: past 2000 they are spaced out and miss the
// narrow dips of g (d = 256: the lowest point drawn is −39.65 at Δ = 8675; at Δ = 9322, between two
// points drawn, g = −42.29). It is taken at every whole distance up to the largest, one more pass
// of the kernel over maxDist + 1 distances × d/2 pairs (about 2 ms at the defaults), or at one
// distance in k where that would pass LOWEST_WORK terms (never fewer distances than are drawn).
import { lineChart, palette, dashes, lineLegend, sig, intGrid, wholeSteps, logAxis, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const DIM_PRESETS = ['4', '256', '4096', 'free'];
// The values stay as links and embeds write them; the menu shows θ with a subscript i.
const THETAS = ['θ_i = base^(−2i/d)', 'θ_i = 1', 'θ_i = 0'];
const THETA_LABELS = Object.fromEntries(THETAS.map((v) => [v, v.replace('θ_i', 'θᵢ')]));
const SAMPLES = 2000;
const LOWEST_WORK = 2 ** 21; // terms (distances × pairs) the lowest value is taken over at most
// Both ends of the bound are rounded alike (whole numbers from 1000 up), so a bound that does not
// change (θ_i = 0 or 1: 16512 for d = 256) is not printed as if it did.
const boundFigure = (x) => (Math.abs(x) >= 1000 ? String(Math.round(x)) : sig(x, 4));

const M = messages({
  en: {
    colRelative: 'RoFormer relative bound (2/d)·Σ|Sⱼ|',
    colBound: 'bound on |g| = d × relative bound',
    title: 'RoPE score g(Δ) of q = k = all ones against the distance Δ',
    free: 'free',
    dimFree: 'd when "free"',
    maxDist: 'largest distance',
    axis: 'Δ axis',
    linear: 'linear',
    log: 'log',
    bound: 'RoFormer bound',
    base: 'base',
    xTitle: 'distance Δ',
    yTitle: 'score g(Δ)',
    y2Title: 'RoFormer bound ÷ d (right axis)',
    boundLabel: 'RoFormer bound on |g|, ÷ d (right axis)',
    noticeGeometric: 'Pairs fall out of step one after another, fastest first: at Δ = {x}, {inPhase} of the {half} pairs have turned by at most 1 radian (they are still in step), and g = {gx}: about 2 for each pair in step, a little less for those near one radian.',
    noticeReturns: 'With only {half} pairs, g falls and then comes back up to {peak} of d = {dim} at Δ = {xpeak}: the pairs fall back into step, so there is no lasting decay. Try d = 256.',
    noticeOnes: 'Every pair turns at the same speed, so g = d·cos Δ repeats for ever: no decay.',
    noticeZeros: 'Nothing turns, so g = d at every distance: no position signal at all.',
    readout: 'd = {dim}: g({x0}) = {g0}, g({xn}) = {gn}; over {counted}, g is lowest at Δ = {xlo}: {lo}',
    countedAll: 'every whole distance up to {max}',
    countedEvery: 'one whole distance in {every} up to {max}',
    readoutBound: '; RoFormer\'s bound on |g|, 2·Σⱼ |Sⱼ|, is drawn divided by d on its own right axis, so its curve can run below g\'s, but the bound itself stays above |g|: {b0} at Δ = {x0}, {bn} at Δ = {xn}',
    readoutQuarter: '; the slowest pair\'s cosine reaches 0 at Tₘₐₓ/4 = {quarter}.',
    readoutQuarterPast: '; the slowest pair\'s cosine reaches 0 at Tₘₐₓ/4 = {quarter}, past the largest distance drawn ({maxDist}): raise it to see that point.',
    end: '.',
    how: 'g(Δ) is summed in double precision over the d/2 pairs at each distance drawn: every integer up to 2000, evenly spaced beyond that, and about 2000 log-spaced distances on the log axis. Its lowest value in the readout is not taken at the points drawn, which can miss a narrow dip, but at every whole distance up to the largest (at one in k where d/2 times their count would pass about two million terms, never at fewer than are drawn). Only Δ ≥ 0 is drawn: cos is even, so g(−Δ) = g(Δ), and the bound is the same at −Δ too. The bound\'s partial sums S_j add the unit vectors (cos Δθᵢ, sin Δθᵢ) of pairs 0 … j − 1; the chart plots (2/d)·Σ_j |S_j| on the right axis, the relative bound that RoFormer\'s Figure 2 plots, d times smaller than the bound on |g|. The table and CSV carry d times it: for all-ones q and k that bounds |g|, and it stays above |g| at every distance.',
  },
  zh: {
    colRelative: 'RoFormer 相对上界 (2/d)·Σ|Sⱼ|',
    colBound: '|g| 的上界 = d × 相对上界',
    title: 'q = k = 全 1 向量时 RoPE 得分 g(Δ) 随距离 Δ 的变化',
    free: '自定义',
    dimFree: '自定义时的 d',
    maxDist: '最大距离',
    axis: 'Δ 轴',
    linear: '线性',
    log: '对数',
    bound: 'RoFormer 上界',
    base: '底数 base',
    xTitle: '距离 Δ',
    yTitle: '得分 g(Δ)',
    y2Title: 'RoFormer 上界 ÷ d（右轴）',
    boundLabel: 'RoFormer 的 |g| 上界 ÷ d（右轴）',
    noticeGeometric: '维度对按从快到慢的顺序依次失去同步：Δ = {x} 时，{half} 对中还有 {inPhase} 对转过的角度不超过 1 弧度（仍然同步），而 g = {gx}：每个同步的维度对贡献约 2，转了将近 1 弧度的贡献少一些。',
    noticeReturns: '只有 {half} 对时，g 先下降，又在 Δ = {xpeak} 处回升到 {peak}（d = {dim}）：各维度对重新回到同步，所以没有持续的衰减。试试 d = 256。',
    noticeOnes: '所有的对都以同样的速度旋转，于是 g = d·cos Δ 永远周期性重复，没有衰减。',
    noticeZeros: '什么都不转，g 在任何距离上都等于 d：完全没有位置信号。',
    readout: 'd = {dim}：g({x0}) = {g0}，g({xn}) = {gn}；在{counted}中，g 的最小值为 {lo}（Δ = {xlo}）',
    countedAll: ' 0 到 {max} 的整数距离',
    countedEvery: ' 0 到 {max}、每隔 {every} 取一个的整数距离',
    readoutBound: '；RoFormer 给出的 |g| 上界 2·Σⱼ |Sⱼ| 除以 d 后画在右侧单独的纵轴上，所以这条曲线可能低于 g 的曲线，但上界本身始终高于 |g|：Δ = {x0} 处为 {b0}，Δ = {xn} 处为 {bn}',
    readoutQuarter: '；最慢一对的余弦在 Tₘₐₓ/4 = {quarter} 处降到 0。',
    readoutQuarterPast: '；最慢一对的余弦在 Tₘₐₓ/4 = {quarter} 处降到 0，这已超出图中的最大距离 {maxDist}，调大最大距离才能看到这一点。',
    end: '。',
    how: 'g(Δ) 在每个画出的距离上对 d/2 个维度对用双精度求和：距离不超过 2000 时取每个整数，超过时均匀取样，对数坐标轴上取约 2000 个按对数均匀分布的距离。图下文字给出的 g 的最小值不是在画出的点上取的（那些点可能漏掉很窄的低谷），而是取遍最大距离以内的每个整数距离（若距离个数乘以 d/2 超过约两百万项，就每 k 个取一个，但取的距离不少于画出的点）。图中只画 Δ ≥ 0：cos 是偶函数，g(−Δ) = g(Δ)，上界在 −Δ 处也一样。上界中的部分和 S_j 是第 0 … j − 1 对的单位向量 (cos Δθᵢ, sin Δθᵢ) 之和；图中右轴画的是 (2/d)·Σ_j |S_j|，即 RoFormer 论文图 2 所画的相对上界，只有 |g| 的上界的 1/d。表格和 CSV 给出它的 d 倍：对全 1 的 q 和 k，这才是 |g| 的上界，它在每个距离上都高于 |g|。',
  },
});

export default {
  kind: 'rope-decay',
  messages: M,
  title: M.title,
  // animated, the base grows from the original RoPE's 10 000 to a long-context 500 000: the
  // score decays ever more slowly with distance
  sweep: { param: 'base', from: 10000, to: 500000, frames: 40 },
  params: [
    { name: 'theta', label: 'θ', type: 'select', options: THETAS, value: THETAS[0], optionLabels: THETA_LABELS },
    { name: 'preset', label: 'd', type: 'select', options: DIM_PRESETS, value: '256', optionLabels: { free: M.free } },
    { name: 'dim', label: M.dimFree, onlyWhen: { preset: 'free' }, type: 'int', min: 2, max: 4096, step: 2, value: 128 },
    { name: 'maxDist', label: M.maxDist, type: 'int', min: 10, max: 100000, value: 10000 },
    { name: 'scale', label: M.axis, type: 'select', options: ['linear', 'log'], value: 'linear',
      optionLabels: { linear: M.linear, log: M.log } },
    { name: 'bound', label: M.bound, type: 'bool', value: true },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 10000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle });
    chart.options.plugins.legend = lineLegend;
    // RoFormer's relative bound is d times smaller than a bound on |g|: drawn on the axis of g it
    // would sit below the curve it bounds, so it gets an axis of its own.
    chart.options.scales.y2 = { type: 'linear', position: 'right', title: { display: true, text: () => String(M.y2Title) },
      grid: { drawOnChartArea: false }, ticks: { maxRotation: 0 } };
    const view = {
      update({ theta, preset, dim: free, maxDist, scale, bound, base }) {
        const dim = preset === 'free' ? free : Number(preset);
        const half = dim / 2;
        // The θ_i = 0 and θ_i = 1 cases of the source post replace the frequencies outright.
        const invFreq = theta === THETAS[1] ? new Float64Array(half).fill(1)
          : theta === THETAS[2] ? new Float64Array(half) : undefined;
        const opts = invFreq ? { dim, invFreq } : { dim, base };
        // Linear axis: the exact progression 0, Δ, 2Δ, … ≤ maxDist with Δ = ⌈maxDist/2000⌉, which the
        // kernel computes by a rotation recurrence (3–5× faster than a sin/cos per term); intGrid's
        // rounded points are uneven unless maxDist is a multiple of 2000. The axis still ends at maxDist.
        const linear = wholeSteps(0, maxDist, SAMPLES), step = linear.every;
        const dist = scale === 'log' ? intGrid(1, maxDist, Math.min(SAMPLES + 1, maxDist + 1), 'log') : linear.at;
        const g = pe.ropeDecay(dist, { ...opts, kind: 'ones' });
        const low = lowest(JSON.stringify([theta, dim, invFreq ? null : base, maxDist]), opts, dim, maxDist,
          scale === 'log' ? null : { step, dist, g });
        const b = bound ? pe.ropeDecay(dist, { ...opts, kind: 'bound' }) : null;
        const xy = (v) => dist.map((x, j) => ({ x, y: v[j] }));
        chart.data.datasets = [
          { label: 'g(Δ) = 2·Σᵢ cos(Δ·θᵢ)', data: xy(g), borderColor: palette[0], borderDash: dashes[0] },
        ];
        if (b) {
          chart.data.datasets.push({
            label: String(M.boundLabel), data: xy(b), borderColor: palette[1], borderDash: dashes[1], yAxisID: 'y2',
          });
        }
        // Where the slowest pair stops falling; only meaningful for the geometric θ_i.
        let quarter = null;
        if (!invFreq) {
          quarter = (2 * Math.PI) / pe.ropeInvFreq(dim, { base })[half - 1] / 4;
          if (quarter <= maxDist) {
            let lo = Infinity, hi = -Infinity;
            for (const y of g) (lo = Math.min(lo, y)), (hi = Math.max(hi, y));
            chart.data.datasets.push({
              label: `x = Tₘₐₓ/4 = ${Math.round(quarter)}`, data: [{ x: quarter, y: lo }, { x: quarter, y: hi }],
              borderColor: palette[2], borderDash: dashes[2], borderWidth: 1.5,
            });
          }
        }
        chart.options.scales.y2.display = Boolean(b);
        Object.assign(chart.options.scales.x, scale === 'log' ? { type: 'logarithmic', ...logAxis }
          : { type: 'linear', ticks: { maxRotation: 0, includeBounds: false }, grid: {} });
        chart.options.scales.x.min = dist[0];
        chart.options.scales.x.max = maxDist;
        chart.update();
        const last = dist.length - 1;
        // RoFormer's bound on |g|: the relative curve times max|h_(i+1) − h_i|·(d/2) = 2·(d/2) = d
        // for all-ones q and k (h_i = 2 for every pair, h_(d/2) = 0).
        const onG = b && Array.from(b, (r) => r * dim);
        const v = {
          dim, x0: dist[0], g0: sig(g[0], 6), xn: dist[last], gn: sig(g[last], 4),
          lo: sig(low.y, 4), xlo: low.x, b0: b && boundFigure(onG[0]), bn: b && boundFigure(onG[last]),
          quarter: quarter && Math.round(quarter), maxDist,
        };
        view.notice = notice(theta, dim, opts, maxDist, dist, g);
        v.counted = (low.every === 1 ? M.countedAll : M.countedEvery).format({ every: low.every, max: maxDist });
        view.readout = M.readout.format(v) + (b ? M.readoutBound.format(v) : '') + (!quarter ? M.end
          : (quarter <= maxDist ? M.readoutQuarter : M.readoutQuarterPast).format(v));
        return {
          measured: { lowest: low },
          columns: ['Δ', 'g(Δ)', ...(b ? ['RoFormer relative bound (2/d)·Σ|S_j|', 'bound on |g| = d × relative'] : [])],
          heads: colHeads(['Δ', 'g(Δ)', ...(b ? [M.colRelative, M.colBound] : [])]),
          rows: dist.map((x, j) => [x, g[j], ...(b ? [b[j], onG[j]] : [])]),
        };
      },
      destroy: () => chart.destroy(),
    };
    // g's lowest value over whole distances (see LOWEST_WORK), kept while only the axis or the bound
    // changes. On the linear axis, where the distances drawn are the ones it would take, it reuses g.
    let lowKey = '', low = null;
    function lowest(key, opts, dim, maxDist, drawn) {
      if (key === lowKey) return low;
      const { every, at: whole } = wholeSteps(0, maxDist, Math.max(SAMPLES, Math.floor(LOWEST_WORK / (dim / 2))));
      const reuse = drawn && drawn.step === every;
      const at = reuse ? drawn.dist : whole;
      const y = reuse ? drawn.g : pe.ropeDecay(at, { ...opts, kind: 'ones' });
      let j0 = 0;
      for (let j = 1; j < y.length; j++) if (y[j] < y[j0]) j0 = j;
      (lowKey = key), (low = { every, x: at[j0], y: y[j0] });
      return low;
    }
    /** What to notice: for the geometric θ_i, g against the count of pairs still in step at a round distance. */
    function notice(theta, dim, opts, maxDist, dist, g) {
      if (theta === THETAS[1]) return M.noticeOnes.format({});
      if (theta === THETAS[2]) return M.noticeZeros.format({});
      // Few pairs fall back into step (d = 4 within its period of 628): say so rather than count pairs.
      const fell = g.findIndex((y) => y < dim / 4);
      if (fell >= 0) {
        let peak = fell;
        for (let j = fell; j < g.length; j++) if (g[j] > g[peak]) peak = j;
        if (g[peak] > dim / 2) return M.noticeReturns.format({ half: dim / 2, dim, peak: sig(g[peak], 3), xpeak: dist[peak] });
      }
      // a round distance a tenth of the axis, but no farther than where the slowest pair is still in step
      const invFreq = pe.ropeInvFreq(dim, { base: opts.base });
      const x = Math.min(10 ** Math.max(0, Math.floor(Math.log10(maxDist)) - 1), 10 ** Math.floor(Math.log10(1 / invFreq.at(-1))));
      const inPhase = invFreq.filter((t) => x * t <= 1).length;
      const [gx] = pe.ropeDecay([x], { ...opts, kind: 'ones' });
      return M.noticeGeometric.format({ x, inPhase, half: dim / 2, gx: sig(gx, 3) });
    }
    return view;
  },
};
