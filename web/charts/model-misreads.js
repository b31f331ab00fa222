// model-misreads.js: the reported ways runtimes have misread a model's position settings, each
// against the correct reading, for the model chosen: the score q·k of one seeded query and key
// at distance x, read right and read wrong, and their difference over x. Scores come from the
// kernels (applyRope on q at every distance, k at position 0, then row dot products), so each
// misread is exactly the computation a runtime that made it performs.
import { lineChart, palette, dashes, lineLegend, sig, logAxis, intGrid, COL, colHeads } from './common.js';
import { MODEL_IDS, MODEL_LABELS, ERROR_DISTANCES, modelReader, trainingLength, freqOptions } from './shared/model.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    title: 'Common misreads of a model\'s position settings: score error against the correct reading, by distance',
    model: 'model',
    seed: 'seed of q and k',
    xTitle: 'distance m − n from key to query (log scale)',
    yTitle: 'largest |score error| so far ÷ (|q|·|k|)',
    theta: 'rope_theta left at 10000',
    partial: 'partial rotary factor ignored',
    proportional: 'proportional read as classic partial',
    longrope: 'LongRoPE\'s long factors from L₀, not L₀ + 1',
    global: 'global scaling on sliding layers too',
    attention: 'scaling\'s attention factor dropped',
    style: 'the other pair style',
    readout: 'Random q and k from seed {seed}, {count} distances from 1 to {max}. ',
    cited: '{name} ({ref})',
    readLine: '“{name}” ({ref}), on {type}: largest error {worst} (at distance {at}){first}. ',
    readFirst: ', first past 1% at distance {x}',
    readNever: ', never past 1%',
    readNone: 'Of the misreads listed, these do not apply to this model: {list}.',
    readPartialLongrope: ' A runtime that ignored the partial rotary factor could not run this model at all: its LongRoPE lists hold one factor per rotated pair ({n}), none for the other {rest} pairs of the head.',
    error: 'This config could not be read: {message}',
    noRope: 'This model has no rotated layers to misread.',
    listSep: '; ',
    noticeAll: 'Every misread that applies here moves the score by more than 1 % by distance {near}: none waits for long inputs.',
    noticeMixed: '{early} of {count} misreads move the score by more than 1 % by distance {near}; the rest first do so at distance {x} or later.',
    noticeMixedNever: '{early} of {count} misreads move the score by more than 1 % by distance {near}; the rest stay under 1 % at every distance shown.',
    noticeLate: 'The misreads here wait for long range: none moves the score by more than 1 % before distance {x}.',
    noticeNever: 'None of the misreads here moves the score by more than 1 % at any distance shown.',
    how: 'For the chosen model the page reads its config and scores one random query and key (from the seed, with the head size of the layer type concerned) at up to 240 log-spaced whole distances m − n (fewer where they round to the same number; the text under the chart gives the count), key at position n = 0 and query at position m, once read right and once with each misread. The error is |wrong − right| / (|q|·|k|), drawn as the largest so far up to each distance; the distances just below L₀ are always included. A misread counts as early here when it passes 1 % within the first 64 positions.',
  },
  zh: {
    title: '模型位置设置的常见误读：各误读相对正确读法的得分误差，随距离变化',
    model: '模型',
    seed: 'q 和 k 的种子',
    xTitle: 'key 到 query 的距离 m − n（对数坐标）',
    yTitle: '累计最大 |得分误差| ÷ (|q|·|k|)',
    theta: 'rope_theta 误用默认的 10000',
    partial: '忽略了部分旋转比例',
    proportional: '把 proportional 当成经典的部分旋转',
    longrope: 'LongRoPE 在长度 L₀ 而非 L₀ + 1 时切换到长因子',
    global: '全局层的缩放也用到了滑动窗口层',
    attention: '丢掉了缩放的注意力因子',
    style: '用了另一种配对方式',
    readout: '随机的 q 和 k（种子 {seed}），{count} 个距离，从 1 到 {max}。',
    cited: '{name}（{ref}）',
    readLine: '{name}（{ref}），在 {type} 上：最大误差 {worst}（在距离 {at} 处）{first}。',
    readFirst: '，在距离 {x} 处首次超过 1%',
    readNever: '，从未超过 1%',
    readNone: '以下误读不适用于这个模型：{list}。',
    readPartialLongrope: '忽略部分旋转比例的运行时根本跑不了这个模型：它的 LongRoPE 列表只为参与旋转的 {n} 个维度对各给一个因子，头里其余 {rest} 个维度对没有因子。',
    error: '无法读取这个配置：{message}',
    noRope: '这个模型没有旋转的层，无从误读。',
    listSep: '；',
    noticeAll: '适用于这个模型的每种误读，都在距离 {near} 以内就让得分偏差超过 1%：没有哪一种要等到长输入才显现。',
    noticeMixed: '{count} 种误读中有 {early} 种在距离 {near} 以内就让得分偏差超过 1%；其余的要到距离 {x} 或更远才超过。',
    noticeMixedNever: '{count} 种误读中有 {early} 种在距离 {near} 以内就让得分偏差超过 1%；其余的在图中所有距离上都不超过 1%。',
    noticeLate: '这里的误读要到长距离才显现：在距离 {x} 之前，没有哪一种让得分偏差超过 1%。',
    noticeNever: '这里的误读在图中所有距离上都没有让得分偏差超过 1%。',
    how: '页面读取所选模型的配置，用由种子生成的一个随机 query 和 key（维度取相应层类型的头维度），在至多 240 个按对数等距的整数距离 m − n 上打分（取整后重复的只算一次，实际个数见图下的说明）：key 在位置 n = 0，query 在位置 m；一次按正确的设置，每种误读各一次。误差为 |误读 − 正确| / (|q|·|k|)，画的是到每个距离为止的最大值；紧挨 L₀ 之下的几个距离总会包括在内。误差在前 64 个位置之内超过 1% 的误读，这里算作“立即显现”。',
  },
});

// where each misread was reported: the readout cites it, the legend has no room for it on a phone
const REPORTS = {
  theta: 'vllm#42624', partial: 'transformers#48652', proportional: 'pie#603', longrope: 'unsloth#10681',
  global: 'mlx-vlm#1709', attention: 'ik_llama.cpp#1298', style: 'transformers.js#1416',
};
const cited = (name) => M.cited.format({ name: String(M[name]), ref: REPORTS[name] });

/** The layer type misreads are shown on: the scaled one when there is one, else the first rotated. */
function mainType(info) {
  const rotated = Object.entries(info.layerTypes).filter(([, t]) => !t.nope);
  return rotated.find(([, t]) => t.scaling) ?? rotated[0] ?? null;
}

/**
 * Each misread: { name, type (the layer type it concerns), right, wrong } where it applies to this
 * model, else wrong = null. The global-scaling misread concerns a layer type without scaling
 * beside one with it (Gemma 3's sliding layers); the others, the main layer type.
 */
function misreads(info, typeName, t) {
  const rotated = Object.entries(info.layerTypes).filter(([, u]) => !u.nope);
  const scaled = rotated.find(([, u]) => u.scaling);
  const plain = scaled && rotated.find(([, u]) => !u.scaling);
  const s = t.scaling;
  const list = [
    ['theta', t.base !== 10000 && { ...t, base: 10000 }],
    // LongRoPE's lists have a factor per rotated pair only: rotating the whole head leaves pairs with none
    ['partial', t.rotaryDim < t.headDim && s?.type !== 'proportional' && s?.type !== 'longrope' && { ...t, rotaryDim: t.headDim - (t.headDim % 2) }],
    ['proportional', s?.type === 'proportional' && {
      ...t, rotaryDim: 2 * Math.floor((s.partialRotaryFactor * t.headDim) / 2), scaling: s.factor && s.factor !== 1 ? { type: 'linear', factor: s.factor } : null,
    }],
    ['longrope', s?.type === 'longrope' && { ...t, longropeAtL0: true }],
    ['global', null],
    ['attention', t.attentionFactor !== null && t.attentionFactor !== 1 && { ...t, attentionFactor: 1 }],
    ['style', { ...t, style: t.style === 'half' ? 'interleaved' : 'half' }],
  ].map(([name, wrong]) => ({ name, type: typeName, right: t, wrong: wrong || null }));
  if (plain) list[4] = { name: 'global', type: plain[0], right: plain[1], wrong: { ...plain[1], scaling: scaled[1].scaling } };
  return list;
}

/**
 * What to notice: misreads that move the score past 1 % within the first EARLY positions against
 * those that wait for long range. `firsts`: each misread's first distance past 1 % (Infinity: never).
 */
const EARLY = 64;
function noticeFor(firsts) {
  if (!firsts.length) return undefined;
  const early = firsts.filter((x) => x <= EARLY), late = firsts.filter((x) => x > EARLY);
  const v = { early: early.length, count: firsts.length, near: Math.max(...early), x: Math.min(...late) };
  if (!late.length) return M.noticeAll.format(v);
  if (!early.length) return (Number.isFinite(v.x) ? M.noticeLate : M.noticeNever).format(v);
  return (Number.isFinite(v.x) ? M.noticeMixed : M.noticeMixedNever).format(v);
}

export default {
  kind: 'model-misreads',
  messages: M,
  title: M.title,
  params: [
    { name: 'model', label: M.model, type: 'select', options: MODEL_IDS, value: 'qwen2-7b-yarn4', optionLabels: MODEL_LABELS },
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 1000, value: 0 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle, xType: 'logarithmic', aspect: 1.8 });
    chart.canvas.parentElement.classList.add('phone-legend'); // a legend of several lines on a phone
    chart.options.plugins.legend = lineLegend;
    Object.assign(chart.options.scales.x, logAxis);
    const reader = modelReader(el, pe, 'qwen2-7b-yarn4');

    /** q·k at each distance in `dist` for one reading of a layer type (k at position 0, q at x). */
    const scores = (t, q, k, dist) => {
      const n = dist.length, dim = t.headDim;
      const qs = new Float32Array(n * dim), ks = new Float32Array(n * dim);
      for (let j = 0; j < n; j++) (qs.set(q, j * dim), ks.set(k, j * dim));
      const out = new Float64Array(n);
      // a length-dependent scaling is taken at the length the query's position makes (x + 1);
      // positions run in groups of one length where the scaling's choice cannot change
      const groups = new Map(), L0 = trainingLength(t, null) ?? 0;
      dist.forEach((x, j) => {
        const long = t.longropeAtL0 ? x + 1 >= L0 : x + 1 > L0;
        const key = t.scaling?.type === 'longrope' ? (long ? 'long' : 'short') : t.scaling?.type === 'dynamic' ? String(x + 1) : 'all';
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(j);
      });
      for (const [key, idx] of groups) {
        let seqLen = 1;
        if (key === 'long') seqLen = Number.MAX_SAFE_INTEGER;
        else if (key !== 'all' && key !== 'short') seqLen = Number(key);
        const fo = freqOptions(t, seqLen);
        const opts = { heads: 1, headDim: dim, rotaryDim: t.rotaryDim, style: t.style, ...fo };
        const m = idx.length;
        const qx = pe.applyRope(qs.subarray(0, m * dim), { ...opts, positions: idx.map((j) => dist[j]) });
        const k0 = pe.applyRope(ks.subarray(0, m * dim), { ...opts, positions: new Float64Array(m) });
        // the kernels apply the scaling's own attention factor; a reading that drops it divides it out
        const attnOwn = pe.ropeAttentionFactor(t.rotaryDim, fo);
        const fix = t.attentionFactor === 1 && attnOwn !== 1 ? 1 / (attnOwn * attnOwn) : 1;
        const d = pe.rowDots(qx, k0, dim);
        idx.forEach((j, r) => (out[j] = d[r] * fix));
      }
      return out;
    };

    const view = {
      update({ model, seed }) {
        const { info, error } = reader.read(model);
        chart.data.datasets = [];
        const empty = { columns: ['distance'], heads: colHeads([COL.distance]), rows: [] };
        if (error || !info) return chart.update(), (view.notice = undefined), (view.readout = M.error.format({ message: error })), empty;
        const main = mainType(info);
        if (!main) return chart.update(), (view.notice = undefined), (view.readout = String(M.noRope)), empty;
        const [typeName, t] = main;
        // (a config that names no context: distances to 32768)
        const maxPos = info.maxPositionEmbeddings ?? trainingLength(t, null) ?? 32768;
        const dist = intGrid(1, maxPos, ERROR_DISTANCES, 'log');
        const L0 = trainingLength(t, info.maxPositionEmbeddings);
        // the distances where a switch at L0 happens: the grid cannot miss them
        if (L0 && L0 < maxPos) for (const x of [L0 - 2, L0 - 1, L0]) if (!dist.includes(x)) dist.push(x);
        dist.sort((a, b) => a - b);
        // the right reading's scores per layer type, with q and k of its head width
        const reference = new Map();
        const rightFor = (type, u) => {
          if (!reference.has(type)) {
            const qk = pe.randomNormal(2 * u.headDim, seed * 2 + 1);
            const q = qk.subarray(0, u.headDim), k = qk.subarray(u.headDim);
            let nq = 0, nk = 0;
            for (let i = 0; i < u.headDim; i++) (nq += q[i] * q[i]), (nk += k[i] * k[i]);
            reference.set(type, { q, k, norm: Math.sqrt(nq * nk), scores: scores(u, q, k, dist) });
          }
          return reference.get(type);
        };
        const lines = [], skipped = [], columns = ['distance'], names = [COL.distance], cols = [], firsts = [];
        const unrunnable = t.rotaryDim < t.headDim && t.scaling?.type === 'longrope';
        misreads(info, typeName, t).forEach(({ name, type, right: u, wrong }, i) => {
          if (!wrong) return name === 'partial' && unrunnable ? null : skipped.push(cited(name));
          const { q, k, norm, scores: right } = rightFor(type, u);
          const err = Float64Array.from(scores(wrong, q, k, dist), (v, j) => Math.abs(v - right[j]) / norm);
          let worst = 0, first = -1;
          err.forEach((e, j) => ((worst = e > err[worst] ? j : worst), first < 0 && e > 0.01 && (first = j)));
          // the worst error up to each distance: what a runtime that reads this model wrong risks by then
          let run = 0;
          chart.data.datasets.push({
            label: String(M[name]), data: dist.map((x, j) => ({ x, y: (run = Math.max(run, err[j])) })),
            borderColor: palette[i % 7], borderDash: dashes[i % 6], borderWidth: 1.75,
          });
          firsts.push(first >= 0 ? dist[first] : Infinity);
          lines.push(M.readLine.format({
            name: String(M[name]), ref: REPORTS[name], type, worst: sig(err[worst], 3), at: dist[worst],
            first: first >= 0 ? M.readFirst.format({ x: dist[first] }) : String(M.readNever),
          }));
          columns.push(name);
          names.push(M[name]);
          cols.push(err);
        });
        chart.options.scales.x.min = 1;
        chart.options.scales.x.max = maxPos;
        chart.update();
        view.notice = noticeFor(firsts);
        view.readout = M.readout.format({ seed, count: dist.length, max: maxPos }) + lines.join('') +
          (skipped.length ? M.readNone.format({ list: skipped.join(String(M.listSep)) }) : '') +
          (unrunnable
            ? M.readPartialLongrope.format({ n: t.rotaryDim / 2, rest: (t.headDim - t.rotaryDim) / 2 }) : '');
        return { columns, heads: colHeads(names), rows: dist.map((x, j) => [x, ...cols.map((c) => c[j])]) };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
