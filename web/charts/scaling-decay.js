// scaling-decay.js: the long-range decay curves of RoPE out to 4·L0, before and after a
// scaling method: g(Δ) = 2·Σ cos(Δ·θ_i) (pe.ropeDecay kind 'ones') and the score of one random q at
// position 0 with q at position Δ (kind 'vectors'). Distances past L0 are shaded: the model never saw them in training.
// The curves are drawn at about 1000 distances, but the range within L0 is taken at every whole
// distance up to L0: a sparse grid misses the narrow dips of g there, which makes the range too
// narrow and the share outside it too large. The shares past L0 are a count over an even grid.
import { lineChartWith, palette, lineLegend, sig, intGrid, wholeSteps, logAxis, beyondShade, ink, COL, colHeads } from './common.js';
import { messages, cjkSpacing } from '../host/i18n.js';

const VARIANTS = ['linear (PI)', 'NTK-aware', 'dynamic NTK', 'YaRN', 'llama3'];
const REACH = 4; // the curves run out to 4 × the training length L0
const SAMPLES = 1000;
const INSIDE = 16384; // the range within L0 is taken at every whole distance up to L0, or every k-th past this many
const PAST = 4096; // the shares past L0 are counted at this many evenly spaced distances (every whole one if fewer)

const M = messages({
  en: {
    colOf: '{f}, {name}',
    title: 'RoPE decay curves out to 4 × the training length, before and after a scaling method',
    variant: 'method',
    factor: 'factor s',
    l0: 'training length L₀',
    dim: 'head dim d',
    base: 'base',
    seed: 'seed for q',
    scale: 'x axis',
    linear: 'linear',
    log: 'log',
    linearPI: 'PI (θᵢ ÷ s)',
    ntkAware: 'NTK-aware (larger base)',
    dynamicNTK: 'dynamic NTK',
    xTitle: 'distance Δ',
    vecY: 'score: random q at position 0 · q at position Δ',
    note: 'The same for one random vector q as query and key (colours and dashes as above).',
    vecCol: 'q at 0 · q at Δ',
    noScaling: 'no scaling',
    scaled: '{name}, factor {factor}',
    range: 'range within L₀ without scaling',
    beyond: 'beyond L₀ = {l0}',
    curveOnes: 'g(Δ)',
    curveVectors: 'the score of a random q at position 0 with q at position Δ',
    aria: '{curve} against distance 0 to {max}, without scaling and with {name}; distances past {l0} shaded',
    readout: '{counted}: past L₀ = {l0}, g(Δ) leaves the range it had within L₀ ([{lo}, {hi}]) at ' +
      '{onesBefore} of the distances without scaling and {onesAfter} with {name}; the random-vector score ' +
      'at {vecBefore} and {vecAfter}',
    counted: 'Counting {inside} and {past}',
    insideAll: 'every whole distance up to L₀',
    insideEvery: 'one distance in {every} up to L₀',
    pastAll: 'every whole distance past it',
    pastEvery: 'one in {every} past it',
    percent: '{n} %',
    readoutAttention: '; {name}\'s attention factor {attn}, left out here, multiplies cos and sin, which is the same as multiplying the rotated q and k, and so every score by its square.',
    end: '.',
    noticeHelps: 'With {name}, g past L₀ leaves its trained range at only {onesAfter} of the distances, against {onesBefore} unscaled, but the curves change inside L₀ too: g moves by up to {inside} there (g(0) = {g0}).',
    noticeHelpsAll: 'With {name}, g past L₀ stays in its trained range at every distance counted ({onesAfter} outside it, against {onesBefore} unscaled), but the curves change inside L₀ too: g moves by up to {inside} there (g(0) = {g0}).',
    noticeNoHelp: 'At these settings {name} does not bring the curves back into their trained range ({onesAfter} of distances outside it, against {onesBefore} unscaled), and g still moves by up to {inside} inside L₀.',
    noticeSame: 'At factor 1 the scaled curves are the unscaled ones.',
    how: 'The page evaluates g(Δ) = 2·Σ cos(Δ·θᵢ) and the score of q at position 0 with q at position Δ, for one random q drawn from the seed, with the frequencies before and after scaling, and draws them at about 1000 distances from 0 to 4·L₀ (evenly spaced, or log-spaced on the log axis). Dynamic NTK is taken at length 4·L₀, the whole window. The numbers in the readout are not taken at the points drawn: the range within L₀ is taken at every whole distance up to L₀ (where L₀ passes 16384, at about 16384 evenly spaced distances instead), and the shares past L₀ are counted at evenly spaced whole distances, about 4096 of them (every one where there are fewer): a curve is outside its range at a distance past L₀ where it lies below the lowest or above the highest value the unscaled curve took at the distances up to L₀; “moves inside L₀” is the largest |scaled − unscaled| of g there.',
  },
  zh: {
    colOf: '{f}（{name}）',
    title: 'RoPE 衰减曲线延伸到 4 倍训练长度：缩放前与缩放后',
    variant: '缩放方法',
    factor: '缩放因子 s',
    l0: '训练长度 L₀',
    dim: '头维度 d',
    base: '底数 base',
    seed: 'q 的种子',
    scale: '横轴',
    linear: '线性',
    log: '对数',
    linearPI: 'PI（θᵢ ÷ s）',
    ntkAware: 'NTK-aware（加大底数）',
    dynamicNTK: '动态 NTK',
    xTitle: '距离 Δ',
    vecY: '得分：位置 0 的随机 q · 位置 Δ 的 q',
    note: '同样的比较，换成一个随机向量 q 同时作为 query 和 key（颜色和虚线样式同上）。',
    vecCol: '位置 0 的 q · 位置 Δ 的 q',
    noScaling: '不缩放',
    scaled: '{name}，缩放因子 {factor}',
    range: '不缩放时 L₀ 之内的取值范围',
    beyond: '超出 L₀ = {l0}',
    curveOnes: 'g(Δ)',
    curveVectors: '位置 0 的随机 q 与位置 Δ 的 q 的得分',
    aria: '{curve} 随距离 0 到 {max} 的变化，不缩放与使用 {name} 对比；超过 {l0} 的距离加了阴影',
    readout: '{counted}：超过 L₀ = {l0} 之后，g(Δ) 超出它在 L₀ 之内的取值范围（[{lo}, {hi}]）的距离，' +
      '不缩放时占 {onesBefore}，使用 {name} 时占 {onesAfter}；随机向量得分的相应比例为 ' +
      '{vecBefore} 和 {vecAfter}',
    counted: '{inside}，{past}',
    insideAll: 'L₀ 以内逐一统计每个整数距离',
    insideEvery: 'L₀ 以内每 {every} 个距离取一个',
    pastAll: 'L₀ 之外也逐一统计',
    pastEvery: 'L₀ 之外每 {every} 个距离取一个',
    percent: '{n}%',
    readoutAttention: '；{name} 的注意力因子 {attn} 这里没有计入，它乘在 cos 和 sin 上，也就等于乘在旋转后的 q 和 k 上，因此每个得分都乘以它的平方。',
    end: '。',
    noticeHelps: '用 {name} 之后，L₀ 之外的 g 只在 {onesAfter} 的距离上越出训练时的范围（不缩放时为 {onesBefore}），但 L₀ 之内的曲线也变了：那里的 g 最多变化 {inside}（g(0) = {g0}）。',
    noticeHelpsAll: '用 {name} 之后，在统计的每个距离上，L₀ 之外的 g 都留在训练时的范围内（越界的占 {onesAfter}，不缩放时为 {onesBefore}），但 L₀ 之内的曲线也变了：那里的 g 最多变化 {inside}（g(0) = {g0}）。',
    noticeNoHelp: '在这组设置下，{name} 没能把曲线拉回训练时的范围（越界的距离占 {onesAfter}，不缩放时为 {onesBefore}），而 L₀ 之内的 g 仍最多变化 {inside}。',
    noticeSame: '缩放因子为 1 时，缩放后的曲线与不缩放的完全相同。',
    how: '页面用缩放前后的两组频率计算 g(Δ) = 2·Σ cos(Δ·θᵢ)，以及由种子生成的一个随机向量 q 放在位置 0 与放在位置 Δ 时的得分，在 0 到 4·L₀ 之间约 1000 个距离上画出（线性坐标下等距，对数坐标下按对数等距）。动态 NTK 取长度 4·L₀，即整个窗口。图下文字中的数字不是在画出的点上统计的：L₀ 之内的取值范围取自 L₀ 以内的每个整数距离（L₀ 超过 16384 时改为约 16384 个均匀分布的距离），L₀ 之外的越界比例则在约 4096 个均匀分布的整数距离上统计（不足 4096 个时逐一统计）：在 L₀ 之外的某个距离上，曲线低于未缩放曲线在不超过 L₀ 的距离上的最小值，或高于其最大值，就算越界；“L₀ 之内的变化”是 g 在这些距离上 |缩放后 − 缩放前| 的最大值。',
  },
});

// The variants' names on the page (the values above stay the same in every language: links use them).
const NAMES = { 'linear (PI)': M.linearPI, 'NTK-aware': M.ntkAware, 'dynamic NTK': M.dynamicNTK };
const nameOf = (v) => String(NAMES[v] ?? v);
function scalingFor(variant, factor, l0) {
  switch (variant) {
    case 'linear (PI)': return { type: 'linear', factor };
    case 'NTK-aware': return { type: 'ntk', factor };
    // dynamic NTK's base depends on the length being read: here the whole 4·L0 window
    case 'dynamic NTK': return { type: 'dynamic', factor, maxPositionEmbeddings: l0, seqLen: REACH * l0 };
    case 'YaRN': return { type: 'yarn', factor, originalMaxPositionEmbeddings: l0 };
    default: return { type: 'llama3', factor, originalMaxPositionEmbeddings: l0 };
  }
}

/** Share of the values `v` (taken past L0) outside [lo, hi]. */
function outside(v, lo, hi) {
  let out = 0;
  for (const y of v) if (y < lo || y > hi) out++;
  return v.length ? out / v.length : 0;
}

const pct = (f) => M.percent.format({ n: sig(100 * f, 2) });

export default {
  kind: 'scaling-decay',
  messages: M,
  title: M.title,
  params: [
    { name: 'variant', label: M.variant, type: 'select', options: VARIANTS, value: 'YaRN', optionLabels: NAMES },
    { name: 'factor', label: M.factor, type: 'number', min: 1, max: 64, step: 'any', value: 4 },
    { name: 'l0', label: M.l0, type: 'int', min: 16, max: 65536, value: 4096 },
    { name: 'dim', label: M.dim, type: 'int', min: 4, max: 512, step: 2, value: 128 },
    { name: 'base', label: M.base, type: 'number', min: 2, max: 10000000, step: 'any', value: 10000 },
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 1000, value: 0 },
    { name: 'scale', label: M.scale, type: 'select', options: ['linear', 'log'], value: 'linear',
      optionLabels: { linear: M.linear, log: M.log } },
  ],
  mount(el, { pe, Chart }) {
    const ones = lineChartWith([beyondShade], el, Chart, { x: M.xTitle, y: 'g(Δ) = 2·Σ cos(Δ·θᵢ)', aspect: 2.2 });
    const vec = lineChartWith([beyondShade], el, Chart, { x: M.xTitle, y: M.vecY, aspect: 2.2, legend: false });
    ones.options.plugins.legend = lineLegend;
    ones.canvas.parentElement.classList.add('phone-tall');
    vec.canvas.parentElement.classList.add('phone-tall');
    const note = document.createElement('p');
    note.className = 'chart-note';
    vec.canvas.parentElement.before(note);

    // The range within L0, the shares outside it past L0 and how far g moves within L0, on two
    // grids of their own (see INSIDE and PAST), so they do not depend on the x axis. The unscaled
    // curves depend on neither the method nor its factor: kept while only those move.
    const optsOf = (kind, { dim, base }, q) => (kind === 'vectors' ? { dim, base, kind, q, k: q, style: 'half' } : { dim, base, kind });
    let unscaledKey = '', unscaled = null, countedKey = '', counted = null;
    const count = (p, q, scaling) => {
      const { variant, factor, l0, dim, base, seed } = p;
      const key = JSON.stringify([l0, dim, base, seed]), by = JSON.stringify([variant, factor]);
      if (key === countedKey && by === counted.by) return counted;
      if (key !== unscaledKey) {
        const inside = wholeSteps(0, l0, INSIDE), past = wholeSteps(l0 + 1, REACH * l0, PAST);
        unscaled = { inside, past };
        for (const kind of ['ones', 'vectors']) {
          const before = { inside: pe.ropeDecay(inside.at, optsOf(kind, p, q)), past: pe.ropeDecay(past.at, optsOf(kind, p, q)) };
          let lo = Infinity, hi = -Infinity;
          for (const y of before.inside) (lo = Math.min(lo, y)), (hi = Math.max(hi, y));
          unscaled[kind] = { ...before, lo, hi, outside: outside(before.past, lo, hi) };
        }
        unscaledKey = key;
      }
      const { inside, past } = unscaled;
      const out = { by, insideEvery: inside.every, pastEvery: past.every };
      for (const kind of ['ones', 'vectors']) {
        const u = unscaled[kind];
        const after = pe.ropeDecay(past.at, { ...optsOf(kind, p, q), scaling });
        out[kind] = { lo: u.lo, hi: u.hi, before: u.outside, after: outside(after, u.lo, u.hi) };
      }
      const afterInside = pe.ropeDecay(inside.at, { ...optsOf('ones', p, q), scaling });
      out.inside = 0;
      for (let j = 0; j < afterInside.length; j++) out.inside = Math.max(out.inside, Math.abs(afterInside[j] - unscaled.ones.inside[j]));
      (countedKey = key), (counted = out);
      return out;
    };

    const view = {
      update(p) {
        const { variant, factor, l0, dim, base, seed, scale } = p;
        note.textContent = String(M.note);
        const name = nameOf(variant);
        const max = REACH * l0;
        // Linear axis: the exact progression 0, Δ, 2Δ, … ≤ max (Δ = ⌈max/(SAMPLES − 1)⌉), which the
        // kernel computes by a rotation recurrence; intGrid's rounded points would be uneven.
        const step = Math.max(1, Math.ceil(max / (SAMPLES - 1)));
        const dist = scale === 'log' ? intGrid(1, max, Math.min(SAMPLES, max + 1), 'log')
          : Array.from({ length: Math.floor(max / step) + 1 }, (_, j) => j * step);
        const scaling = scalingFor(variant, factor, l0);
        const q = pe.randomNormal(dim, seed);
        const curves = {};
        for (const kind of ['ones', 'vectors']) {
          const opts = kind === 'vectors' ? { dim, base, kind, q, k: q, style: 'half' } : { dim, base, kind };
          curves[kind] = { before: pe.ropeDecay(dist, opts), after: pe.ropeDecay(dist, { ...opts, scaling }) };
        }
        const attn = pe.ropeAttentionFactor(dim, { base, scaling });
        const xy = (v) => dist.map((x, j) => ({ x, y: v[j] }));
        const v = { name, l0, max, factor: sig(factor, 4), attn: sig(attn, 5) };
        const stats = count(p, q, scaling);
        for (const [kind, chart] of [['ones', ones], ['vectors', vec]]) {
          const { before, after } = curves[kind];
          const { lo, hi } = stats[kind];
          chart.data.datasets = [
            { label: String(M.noScaling), data: xy(before), borderColor: palette[0], borderDash: [], borderWidth: 1.25 },
            { label: cjkSpacing(M.scaled.format(v)), data: xy(after), borderColor: palette[1], borderDash: [6, 3], borderWidth: 1.5 },
            { label: String(M.range), data: [{ x: dist[0], y: lo }, { x: max, y: lo }], borderColor: ink().muted, borderDash: [2, 4], borderWidth: 1 },
            { label: '', data: [{ x: dist[0], y: hi }, { x: max, y: hi }], borderColor: ink().muted, borderDash: [2, 4], borderWidth: 1 },
          ];
          chart.options.plugins.posencBeyond = { x: l0, label: M.beyond.format(v) };
          Object.assign(chart.options.scales.x, scale === 'log' ? { type: 'logarithmic', ...logAxis }
            : { type: 'linear', ticks: { maxRotation: 0, includeBounds: false }, grid: {} });
          chart.options.scales.x.min = dist[0];
          chart.options.scales.x.max = max;
          chart.canvas.setAttribute('aria-label', cjkSpacing(M.aria.format({ ...v, curve: String(kind === 'ones' ? M.curveOnes : M.curveVectors) })));
          chart.update();
        }
        const s1 = stats.ones, s2 = stats.vectors;
        Object.assign(v, {
          lo: sig(s1.lo, 4), hi: sig(s1.hi, 4), onesBefore: pct(s1.before), onesAfter: pct(s1.after),
          vecBefore: pct(s2.before), vecAfter: pct(s2.after),
        });
        v.counted = M.counted.format({
          inside: (stats.insideEvery === 1 ? M.insideAll : M.insideEvery).format({ every: stats.insideEvery }),
          past: (stats.pastEvery === 1 ? M.pastAll : M.pastEvery).format({ every: stats.pastEvery }),
        });
        view.readout = cjkSpacing(M.readout.format(v) + (attn !== 1 ? M.readoutAttention.format(v) : M.end));
        // What to notice: past L0 the scaled curves come back into range, but inside L0 they move too
        // (the slow pairs turn more slowly at every distance), which is why scaling comes with fine-tuning.
        const inside = stats.inside;
        Object.assign(v, { inside: sig(inside, 3), g0: dim });
        view.notice = cjkSpacing((inside <= 1e-9 * dim ? M.noticeSame : s1.after < s1.before ? (s1.after === 0 ? M.noticeHelpsAll : M.noticeHelps) : M.noticeNoHelp).format(v));
        return {
          measured: { outside: { ones: s1, vectors: s2, insideEvery: stats.insideEvery, pastEvery: stats.pastEvery }, attentionFactor: attn },
          columns: ['x', 'g no scaling', `g ${variant}`, 'q.R(x)q no scaling', `q.R(x)q ${variant}`],
          heads: colHeads(['Δ', ...['g', String(M.vecCol)].flatMap((f) => [M.colOf.format({ f, name: M.noScaling }), M.colOf.format({ f, name: NAMES[variant] ?? variant })])]),
          rows: dist.map((x, j) => [x, curves.ones.before[j], curves.ones.after[j], curves.vectors.before[j], curves.vectors.after[j]]),
        };
      },
      destroy: () => (ones.destroy(), vec.destroy()),
    };
    return view;
  },
};
