// real-decay.js: does a real head's score fall with distance? The sentence's own mean query and
// key of a head of layer 0 (before RoPE), turned apart by every distance up to L0, beside
// section 13's curve for aligned vectors of the same lengths.
import { lineChart, lineLegend, palette, dashes, sig, intGrid, refresh, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';
import { subscribe, state, modelPanel, meanQK, HEAD_OPTIONS, fitHeads, noModel, modelName } from './shared/real-model.js';

const M = messages({
  en: {
    colReal: 'this model',
    colAligned: 'aligned q and k',
    title: 'Does it decay? A real head\'s score against distance, beside section 13\'s aligned curve',
    head: 'head',
    all: 'every head (mean)',
    xTitle: 'distance |Δ| (key |Δ| positions before the query)',
    yTitle: 'score q̄ · R k̄ / √d',
    real: 'this model: the sentence\'s mean q and k',
    aligned: 'aligned q, k of the same lengths (§13)',
    waiting: 'Reading the model…',
    noticeFalls: 'The real score falls with distance: over the far half of L₀ it averages {far}, against {near} at distance 0.',
    noticeFlat: 'The real score does not fall the way the aligned curve does: over the far half of L₀ it averages {far}, against {near} at distance 0, while the aligned curve keeps {alignedShare} % of its start.',
    readout: '{model}, {head}: at distance 0 the score is {near}, the aligned curve {aStart}; mean over |Δ| from L₀/2 to L₀ = {L0}: real {far}, aligned {aFar}.',
    how: 'For the chosen head the page averages the query of every token of your sentence, and the key of every token, before RoPE (layer 0, exact), then turns the key |Δ| positions back and takes the dot product divided by √d, for |Δ| from 0 to L₀. By bilinearity this is the mean score over every pair of the sentence\'s tokens moved to that distance. The aligned curve is section 13\'s Σ cos(Δθᵢ) scaled to vectors of the same lengths, pointing the same way in every pair.',
  },
  zh: {
    colReal: '本模型',
    colAligned: '对齐的 q 和 k',
    title: '会衰减吗？真实头的得分随距离的变化，与第 13 节对齐向量的曲线并排',
    head: '头',
    all: '所有头（平均）',
    xTitle: '距离 |Δ|（key 在 query 之前 |Δ| 个位置）',
    yTitle: '得分 q̄ · R k̄ / √d',
    real: '本模型：句子的平均 q 和 k',
    aligned: '长度相同、方向对齐的 q 和 k（第 13 节）',
    waiting: '正在读取模型…',
    noticeFalls: '真实得分随距离下降：在 L₀ 的后一半上平均为 {far}，距离 0 处为 {near}。',
    noticeFlat: '真实得分并不像对齐曲线那样下降：在 L₀ 的后一半上平均为 {far}，距离 0 处为 {near}；对齐曲线则保留了起点的 {alignedShare}%。',
    readout: '{model}，{head}：距离 0 处得分为 {near}，对齐曲线为 {aStart}；|Δ| 从 L₀/2 到 L₀ = {L0} 的平均：真实 {far}，对齐 {aFar}。',
    how: '对所选的头，本页把你句子中每个 token 的 query 取平均，每个 token 的 key 也取平均（RoPE 之前，第 0 层，精确计算），再把 key 往回转 |Δ| 个位置，取点积并除以 √d，|Δ| 从 0 到 L₀。由双线性可知，这就是句子中每一对 token 被挪到该距离时得分的平均。对齐曲线是第 13 节的 Σ cos(Δθᵢ)，按长度相同、每一对方向都一致的向量缩放。',
  },
});

/** Per distance, head h's (or every head's mean) q̄ · R(−x) k̄ / √d; rotated as the model rotates (scaling: none or given). */
export function headCurve(pe, l0, lt, head, dist, scaling) {
  const a = l0.att, r = a.rotaryDim;
  const heads = head === 'all' ? Array.from({ length: a.heads }, (_, h) => h) : [Math.min(Number(head), a.heads - 1)];
  const out = new Float64Array(dist.length);
  const attn = scaling ? pe.ropeAttentionFactor(r, { base: lt.base, scaling }) ** 2 : 1;
  const s = (lt.softmaxScale / Math.sqrt(a.headDim)) * attn / heads.length;
  let qq = 0, kk = 0;
  for (const h of heads) {
    const { q, k } = meanQK(l0, h);
    // k̄ · R(x) q̄ = q̄ · R(−x) k̄: the key x positions before the query
    const c = pe.ropeDecay(dist, { kind: 'vectors', dim: r, base: lt.base, q: k, k: q, style: a.style, ...(scaling ? { scaling } : {}) });
    for (let j = 0; j < dist.length; j++) out[j] += c[j] * s;
    qq += Math.hypot(...q) / heads.length;
    kk += Math.hypot(...k) / heads.length;
  }
  return { curve: out, qNorm: qq, kNorm: kk };
}

export default {
  kind: 'real-decay',
  messages: M,
  title: M.title,
  params: [
    { name: 'head', label: M.head, type: 'select', options: HEAD_OPTIONS, value: 'all', optionLabels: { all: M.all } },
  ],
  mount(el, { pe, Chart }) {
    const stopPanel = modelPanel(el);
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle, aspect: 2.2 });
    chart.options.plugins.legend = lineLegend;
    const stop = subscribe(pe, () => refresh(el));
    const view = {
      update({ head }) {
        const S = state(), l0 = S.layer0, m = S.model;
        if (!l0 || !m.L0) return noModel(view, () => ((chart.data.datasets = []), chart.update()), M.waiting, ['distance', 'real', 'aligned'], [COL.distance, M.colReal, M.colAligned]);
        const a = l0.att, L0 = m.L0;
        fitHeads(el, l0.att.heads);
        const dist = L0 <= 512 ? Array.from({ length: L0 + 1 }, (_, j) => j) : intGrid(0, L0, 513);
        const { curve, qNorm, kNorm } = headCurve(pe, l0, m.lt, head, dist, null);
        const ones = pe.ropeDecay(dist, { dim: a.rotaryDim, base: m.lt.base });
        const aScale = (qNorm * kNorm * m.lt.softmaxScale) / Math.sqrt(a.headDim) / ones[0];
        const aligned = Array.from(ones, (v) => v * aScale);
        const xy = (v) => dist.map((x, j) => ({ x, y: v[j] }));
        chart.data.datasets = [
          { label: String(M.real), data: xy(curve), borderColor: palette[0], backgroundColor: palette[0], borderWidth: 2 },
          { label: String(M.aligned), data: xy(aligned), borderColor: palette[1], backgroundColor: palette[1], borderDash: dashes[1] },
        ];
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = L0;
        chart.update();
        const farMean = (v) => {
          let s = 0, n = 0;
          dist.forEach((x, j) => x >= L0 / 2 && ((s += v[j]), n++));
          return s / n;
        };
        const near = curve[0], far = farMean(curve), aFar = farMean(aligned);
        const num = (x) => sig(x, 3);
        const v = { near: num(near), far: num(far), alignedShare: ((aFar / aligned[0]) * 100).toFixed(0) };
        view.notice = (near > 0 && far < 0.5 * near ? M.noticeFalls : M.noticeFlat).format(v);
        view.readout = M.readout.format({
          ...v, model: modelName(m), head: head === 'all' ? String(M.all) : `${M.head} ${Math.min(Number(head), a.heads - 1)}`,
          aStart: num(aligned[0]), aFar: num(aFar), L0,
        });
        return { columns: ['distance', 'real', 'aligned'], heads: colHeads([COL.distance, M.colReal, M.colAligned]), rows: dist.map((x, j) => [x, curve[j], aligned[j]]) };
      },
      destroy: () => (stop(), stopPanel(), chart.destroy()),
    };
    return view;
  },
};
