// dynamic-kv-cache.js: dynamic NTK with a KV cache. The key written at step t
// (sequence length t, position t − 1) is rotated with scaling { type: 'dynamic', seqLen: t }
// and cached; the query of step T uses seqLen T. Recomputing every key with seqLen T gives the
// scores the model would see without a cache; the difference is what the cache costs.
//
// One kernel call a redraw (pe.dynamicKvCache): it builds the cache (a base for every key past
// max_position_embeddings), then at each sampled step rotates all keys afresh and scores the
// query on both sets, the numbers applyRope, gram and attention would give one call at a time
// (a few hundred calls, and as many arrays, per redraw). Length stops at 512, sixteen times the
// default max_position_embeddings, where the drift is plain.
import { lineChartWith, palette, lineLegend, sig, beyondShade, COL, colHeads } from './common.js';
import { normalPool } from './shared/random.js';
import { messages } from '../host/i18n.js';

const STEPS = 24; // sampled lengths for the top chart (each step rotates all its keys afresh)
const MAX_LENGTH = 512;

const M = messages({
  en: {
    colLength: 'current length L',
    colScoreDiff: 'largest score difference',
    colWeightDiff: 'largest weight difference',
    title: 'Dynamic NTK with a KV cache: scores from cached keys against keys recomputed with the current base',
    maxPos: 'L₀ (max_position_embeddings)',
    length: 'grow to length',
    factor: 'factor s',
    headDim: 'head dim',
    base: 'base',
    seed: 'seed for q, k',
    growX: 'current length L',
    growY: 'largest |difference|',
    growY1: 'attention weight |difference|',
    lastX: 'key position n',
    lastY: 'score q·kₙ',
    scoreDiff: 'largest |score difference| (left axis)',
    weightDiff: 'largest |attention weight difference| (right axis)',
    beyond: 'longer than L₀ = {maxPos}',
    note: 'At the last step (length {T}): the query\'s score on every key, from the cache and recomputed with the current base. ' +
      'Keys 0…{lastEarly} were cached with the original base, each later key with a larger one; only the newest, key {newest}, shares the query\'s base.',
    noteShort: 'At the last step (length {T}): the query\'s score on every key, from the cache and recomputed with the current base. ' +
      'Every key was cached with the original base, the one the query uses.',
    fresh: 'recomputed with the current base',
    cached: 'from the cache (each key\'s own base)',
    agreeExact: 'matches the recomputation exactly',
    agreeUpTo: 'differs by up to {worst}',
    readoutShort: 'The sequence never grows past L₀ = {maxPos}: the cache {agree} (grow it past {maxPos} to see them part).',
    readoutLong: 'Up to length {maxPos} the cache {agree}; the {past} keys written after it were rotated with {past} different bases ' +
      '(slowest-pair wavelength {slowThen} at step {first}, {slowNow} at step {T}; the original base gives {slowOrig}); at the last step the attention weights differ by up to {weight}.',
    readoutOne: 'Up to length {maxPos} the cache {agree}; the one key written after it, at step {T}, was rotated with a larger base ' +
      '(slowest-pair wavelength {slowNow}, against {slowOrig} with the original base); at the last step the attention weights differ by up to {weight}.',
    noticeShort: 'Within L₀ the cache is exact: every step uses the original base.',
    noticeLong: 'Past L₀ = {maxPos} the cached keys keep the bases of their own steps, so the query\'s scores drift from a fresh computation. At the last step (length {T}) the largest difference over its keys is {score}, where the recomputed scores q·k (before they are scaled by 1/√d for the softmax) run from {lo} to {hi}; over all the steps drawn, the largest is {peak}, at length {peakT} (the peak of the upper chart).',
    how: 'The page runs one generation up to the chosen length: the key written at step t (position t − 1) is rotated with dynamic NTK at length t and kept; at about 24 sampled steps, always including L₀ and L₀ + 1, the query is scored against the kept keys and against every key rotated afresh with that step\'s base, and the chart plots the largest difference of the scores and of the softmax weights. q and k are random normal vectors drawn from the seed; pairs use the rotate_half layout of section 14 (dimension j pairs with j + d/2). vLLM\'s dynamic computes one base when it loads the model, for the longest length it will serve, and keeps it whatever the prompt\'s length, so its cache stays consistent; llama.cpp has no dynamic NTK at all.',
  },
  zh: {
    colLength: '当前长度 L',
    colScoreDiff: '得分的最大差值',
    colWeightDiff: '权重的最大差值',
    title: '带 KV 缓存的动态 NTK：缓存的 key 给出的得分，与用当前底数重新计算的 key 对比',
    maxPos: 'L₀（max_position_embeddings）',
    length: '增长到长度',
    factor: '缩放因子 s',
    headDim: '头维度',
    base: '底数 base',
    seed: 'q、k 的种子',
    growX: '当前长度 L',
    growY: '最大 |差值|',
    growY1: '注意力权重 |差值|',
    lastX: 'key 位置 n',
    lastY: '得分 q·kₙ',
    scoreDiff: '最大 |得分差值|（左轴）',
    weightDiff: '最大 |注意力权重差值|（右轴）',
    beyond: '长于 L₀ = {maxPos}',
    note: '最后一步（长度 {T}）：query 对每个 key 的得分，分别来自缓存和用当前底数重新计算。' +
      'key 0…{lastEarly} 是用原始底数缓存的，之后每个 key 的底数都更大；只有最新的 key {newest} 与 query 的底数相同。',
    noteShort: '最后一步（长度 {T}）：query 对每个 key 的得分，分别来自缓存和用当前底数重新计算。' +
      '所有 key 都是用原始底数缓存的，与 query 的底数相同。',
    fresh: '用当前底数重新计算',
    cached: '来自缓存（各 key 用各自的底数）',
    agreeExact: '与重新计算完全一致',
    agreeUpTo: '最多相差 {worst}',
    readoutShort: '序列从未超过 L₀ = {maxPos}：缓存{agree}（让长度超过 {maxPos} 就能看到两者分开）。',
    readoutLong: '长度不超过 {maxPos} 时缓存{agree}；之后写入的 {past} 个 key 用了 {past} 个不同的底数旋转' +
      '（最慢一对的波长在第 {first} 步为 {slowThen}，第 {T} 步为 {slowNow}；原始底数下为 {slowOrig}）；最后一步的注意力权重最多相差 {weight}。',
    readoutOne: '长度不超过 {maxPos} 时缓存{agree}；之后写入的唯一一个 key（第 {T} 步）用更大的底数旋转' +
      '（最慢一对的波长为 {slowNow}，原始底数下为 {slowOrig}）；最后一步的注意力权重最多相差 {weight}。',
    noticeShort: '长度不超过 L₀ 时缓存完全准确：每一步用的都是原始底数。',
    noticeLong: '超过 L₀ = {maxPos} 之后，缓存的 key 各自保留写入那一步的底数，query 的得分因此偏离重新计算的结果。在最后一步（长度 {T}），所有 key 中得分之差最大为 {score}，而此时重新计算的得分 q·k（尚未乘以 1/√d，也尚未送入 softmax）在 {lo} 到 {hi} 之间；在图中画出的所有步里，最大的差出现在长度 {peakT}，为 {peak}（即上图的峰值）。',
    how: '页面把一次生成一直跑到所选长度：第 t 步（位置 t − 1）写入的 key 用长度为 t 的动态 NTK 旋转后保存；在约 24 个采样步上（始终包含 L₀ 和 L₀ + 1），分别用保存的 key 和用该步底数重新旋转的全部 key 给 query 打分，图中画出得分之差与 softmax 权重之差的最大值。q 和 k 是由种子生成的正态随机向量；采用第 14 节 rotate_half 的前后两半配对（维度 j 与维度 j + d/2 配成一对）。vLLM 的 dynamic 在加载模型时按它要支持的最大长度算出一个底数，之后不论提示词多长都用这一个，所以它的缓存始终一致；llama.cpp 则根本没有动态 NTK。',
  },
});

/** About n lengths from 1 to last, always with maxPos and maxPos + 1 (where the bases part). */
function lengths(last, maxPos, n) {
  const set = new Set([1, last]);
  for (let j = 0; j < n; j++) set.add(1 + Math.round(((last - 1) * j) / (n - 1)));
  for (const t of [maxPos, maxPos + 1]) if (t <= last) set.add(t);
  return [...set].sort((a, b) => a - b);
}

export default {
  kind: 'dynamic-kv-cache',
  messages: M,
  title: M.title,
  params: [
    { name: 'maxPos', label: M.maxPos, type: 'int', min: 2, max: 512, value: 32 },
    { name: 'length', label: M.length, type: 'int', min: 2, max: MAX_LENGTH, value: 128 },
    { name: 'factor', label: M.factor, type: 'number', min: 1, max: 16, step: 'any', value: 2 },
    { name: 'headDim', label: M.headDim, type: 'int', min: 4, max: 128, step: 2, value: 32 }, // dynamic NTK's exponent d/(d − 2) needs d > 2
    { name: 'base', label: M.base, type: 'number', min: 2, max: 1000000, step: 'any', value: 10000 },
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 1000, value: 0 },
  ],
  mount(el, { pe, Chart }) {
    const grow = lineChartWith([beyondShade], el, Chart, { x: M.growX, y: M.growY, aspect: 2.2 });
    grow.options.plugins.legend = lineLegend;
    Object.assign(grow.options.scales.x.ticks, { includeBounds: false });
    grow.options.scales.y.min = 0;
    grow.options.scales.y1 = { type: 'linear', position: 'right', min: 0, title: { display: true, text: () => String(M.growY1) }, grid: { drawOnChartArea: false } };
    const note = document.createElement('p');
    note.className = 'chart-note';
    const last = lineChartWith([], el, Chart, { x: M.lastX, y: M.lastY, aspect: 2.2 });
    last.options.plugins.legend = lineLegend;
    Object.assign(last.options.scales.x.ticks, { includeBounds: false });
    last.canvas.parentElement.before(note);
    for (const c of [grow, last]) c.canvas.parentElement.classList.add('phone-tall');

    const normals = normalPool(pe);
    const view = {
      update({ maxPos, length: T, factor, headDim: hd, base, seed }) {
        // keys first: row j of k is the same draw whatever T is (normals are a seeded stream)
        const r = normals(2 * T * hd, seed);
        const k = r.subarray(0, T * hd), q = r.subarray(T * hd);
        const early = Math.min(T, maxPos); // keys cached with the original base
        const ts = lengths(T, maxPos, Math.min(STEPS, T));
        const run = pe.dynamicKvCache(q, k, { headDim: hd, style: 'half', base, factor, maxPositionEmbeddings: maxPos, steps: ts });
        const series = ts.map((t, i) => ({ t, score: run.scoreDiff[i], weight: run.weightDiff[i] }));

        grow.data.datasets = [
          { label: String(M.scoreDiff), data: series.map((p) => ({ x: p.t, y: p.score })), borderColor: palette[0], backgroundColor: palette[0], borderDash: [], pointRadius: 2 },
          { label: String(M.weightDiff), data: series.map((p) => ({ x: p.t, y: p.weight })), borderColor: palette[1], backgroundColor: palette[1], borderDash: [6, 3], pointRadius: 2, pointStyle: 'rect', yAxisID: 'y1' },
        ];
        grow.options.plugins.posencBeyond = { x: maxPos, label: M.beyond.format({ maxPos }) };
        grow.options.scales.x.min = 1;
        grow.options.scales.x.max = T;
        grow.update();

        note.textContent = (T <= maxPos ? M.noteShort : M.note).format({ T, lastEarly: early - 1, newest: T - 1 });
        const xy = (ys) => Array.from(ys, (y, x) => ({ x, y }));
        last.data.datasets = [
          { label: String(M.fresh), data: xy(run.freshScores), borderColor: palette[0], borderDash: [], borderWidth: 1.5 },
          { label: String(M.cached), data: xy(run.cachedScores), borderColor: palette[1], borderDash: [6, 3], borderWidth: 2 },
        ];
        last.options.scales.x.min = 0;
        last.options.scales.x.max = T - 1;
        last.update();

        // What "the base a key was rotated with" means: the slowest pair's wavelength then.
        const dyn = (seqLen) => ({ type: 'dynamic', factor, maxPositionEmbeddings: maxPos, seqLen });
        const slow = (t) => 2 * Math.PI / pe.ropeInvFreq(hd, { base, scaling: dyn(t) })[hd / 2 - 1];
        const before = series.filter((p) => p.t <= maxPos);
        const exact = before.every((p) => p.score === 0 && p.weight === 0);
        const fin = series[series.length - 1];
        const peak = series.reduce((a, p) => (p.score > a.score ? p : a));
        const v = {
          maxPos, T, past: T - maxPos, worst: sig(Math.max(...before.map((p) => p.score)), 2),
          first: maxPos + 1, slowOrig: sig(slow(maxPos), 4),
          slowThen: T > maxPos ? sig(slow(maxPos + 1), 4) : '', slowNow: T > maxPos ? sig(slow(T), 4) : '',
          score: sig(fin.score, 3), weight: sig(fin.weight, 3),
          peakT: peak.t, peak: sig(peak.score, 3),
          lo: sig(Math.min(...run.freshScores), 3), hi: sig(Math.max(...run.freshScores), 3),
        };
        v.agree = exact ? String(M.agreeExact) : M.agreeUpTo.format(v);
        view.readout = (T <= maxPos ? M.readoutShort : T === maxPos + 1 ? M.readoutOne : M.readoutLong).format(v);
        view.notice = (T <= maxPos ? M.noticeShort : M.noticeLong).format(v);
        return {
          measured: { lastScoreDiff: fin.score, lastWeightDiff: fin.weight, exactUpToMax: exact },
          columns: ['length T', 'max |score diff|', 'max |weight diff|'],
          heads: colHeads([M.colLength, M.colScoreDiff, M.colWeightDiff]),
          rows: series.map((p) => [p.t, p.score, p.weight]),
        };
      },
      destroy: () => (grow.destroy(), last.destroy()),
    };
    return view;
  },
};
