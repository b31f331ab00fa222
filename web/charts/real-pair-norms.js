// real-pair-norms.js: layer 0 of a real model on the reader's sentence: ‖qₘ^(h,i)‖ and ‖kₙ^(h,i)‖,
// the length of each rotation pair's 2-D chunk of the query and the key (Barbero et al.'s
// measure), averaged over heads and tokens (or their largest), against the pair's wavelength.
import { lineChartWith, beyondShade, palette, dashes, lineLegend, sig, refresh, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';
import { subscribe, state, modelPanel, noModel, modelName } from './shared/real-model.js';
import { slowCut } from './real-pair-energy.js';

const M = messages({
  en: {
    colWavelength: 'wavelength Tᵢ',
    title: 'Layer 0 on your sentence: how long each pair\'s chunk of q and k is',
    stat: 'over heads and tokens',
    mean: 'mean',
    max: 'largest',
    statMean: 'mean',
    statMax: 'largest',
    xTitle: 'pair i (wavelength Tᵢ grows →)',
    yTitle: 'length of pair i\'s chunk, ‖qₘ⁽ⁱ⁾‖ and ‖kₙ⁽ⁱ⁾‖, per head',
    q: 'query ‖qₘ⁽ⁱ⁾‖',
    k: 'key ‖kₙ⁽ⁱ⁾‖',
    beyond: 'Tᵢ > L₀ = {L0}: never a full turn in training',
    waiting: 'Reading the model…',
    noticeSlow: 'The longest query chunks sit in a slow pair (pair {top}, Tᵢ = {T} positions, longer than L₀): this layer leans on a pair that never completes a turn within the context.',
    noticeFast: 'The longest query chunks sit in a fast pair (pair {top}, Tᵢ = {T} positions): this layer leans on a pair that goes round at least once within the context.',
    readout: '{model}, {n} tokens: {pairs}; pairs {cut}–{last} have Tᵢ > L₀ and carry {slowShare} % of Σ‖q‖².',
    pairs: '{stat} ‖q‖ is largest in pair {top} ({qTop}) and ‖k‖ in pair {ktop} ({kTop})',
    pairsSame: '{stat} ‖q‖ and ‖k‖ are both largest in pair {top} ({qTop} and {kTop})',
    how: 'The page runs layer 0 exactly as transformers does on the embedding rows of your sentence\'s tokens: the input norm, Wq and Wk, the biases or per-head norms where the model has them (Qwen3\'s q_norm and k_norm normalise each head\'s q and k before RoPE), then RoPE at positions 0, 1, …. It then measures the length of each pair\'s two coordinates of every head\'s query and key. Rotation does not change these lengths, so they say which frequencies the layer uses, not where the tokens are. Reads the layer-0 q/k weight tensors and one embedding row per distinct token.',
  },
  zh: {
    colWavelength: '波长 Tᵢ',
    title: '第 0 层作用于你的句子：q 和 k 在每个维度对上的二维子向量有多长',
    stat: '对各头和各 token',
    mean: '取平均',
    max: '取最大',
    statMean: '平均值',
    statMax: '最大值',
    xTitle: '第 i 对（波长 Tᵢ 递增 →）',
    yTitle: '每个头中第 i 对子向量的长度 ‖qₘ⁽ⁱ⁾‖、‖kₙ⁽ⁱ⁾‖',
    q: 'query ‖qₘ⁽ⁱ⁾‖',
    k: 'key ‖kₙ⁽ⁱ⁾‖',
    beyond: 'Tᵢ > L₀ = {L0}：训练中从未转满一圈',
    waiting: '正在读取模型…',
    noticeSlow: '最长的 query 子向量落在慢的维度对上（第 {top} 对，Tᵢ = {T} 个位置，长于 L₀）：这一层倚重的维度对在上下文之内一圈也转不满。',
    noticeFast: '最长的 query 子向量落在快的维度对上（第 {top} 对，Tᵢ = {T} 个位置）：这一层倚重的维度对在上下文之内至少转一整圈。',
    readout: '{model}，{n} 个 token：{pairs}；第 {cut}–{last} 对满足 Tᵢ > L₀，占 Σ‖q‖² 的 {slowShare}%。',
    pairs: '‖q‖ 和 ‖k‖ 的{stat}分别在第 {top} 对和第 {ktop} 对最大（{qTop} 和 {kTop}）',
    pairsSame: '‖q‖ 和 ‖k‖ 的{stat}都在第 {top} 对最大（分别为 {qTop} 和 {kTop}）',
    how: '本页按 transformers 的做法，对你句子中各 token 的词嵌入行精确计算第 0 层：输入归一化，乘以 Wq 和 Wk，模型有偏置或逐头归一化的话也一并计算（如 Qwen3 的 q_norm 和 k_norm，在 RoPE 之前对每个头的 q 和 k 做归一化），再在位置 0、1、… 上施加 RoPE。然后算出每个头的 query 和 key 在每个维度对上（两个坐标组成的二维向量）的长度。旋转不改变这些长度，所以它们反映的是这一层侧重哪些频率，与 token 的位置无关。页面只读取第 0 层的 q/k 权重张量，以及每个不同 token 的那一行词嵌入。',
  },
});

/** Per pair, the mean or largest of a pair-norm array [n][half][T] over heads and tokens. */
function over(a, n, half, T, stat) {
  const out = new Float64Array(half);
  for (let i = 0; i < half; i++) {
    let s = 0, mx = 0;
    for (let h = 0; h < n; h++) for (let t = 0; t < T; t++) {
      const v = a[(h * half + i) * T + t];
      s += v;
      if (v > mx) mx = v;
    }
    out[i] = stat === 'max' ? mx : s / (n * T);
  }
  return out;
}

export default {
  kind: 'real-pair-norms',
  messages: M,
  title: M.title,
  params: [
    { name: 'stat', label: M.stat, type: 'select', options: ['mean', 'max'], value: 'mean', optionLabels: { mean: M.mean, max: M.max } },
  ],
  mount(el, { pe, Chart }) {
    const stopPanel = modelPanel(el);
    const chart = lineChartWith([beyondShade], el, Chart, { x: M.xTitle, y: M.yTitle, aspect: 2.2 });
    chart.options.plugins.legend = lineLegend;
    chart.options.scales.x.ticks.precision = 0; // pairs are whole numbers
    const stop = subscribe(pe, () => refresh(el));
    const view = {
      update({ stat }) {
        const S = state(), l0 = S.layer0, m = S.model;
        if (!l0) return noModel(view, () => ((chart.data.datasets = []), chart.update()), M.waiting, ['pair i', 'wavelength T_i', 'q', 'k'], [COL.pairI, M.colWavelength, 'q', 'k']);
        const a = l0.att, half = a.rotaryDim / 2, T = a.length;
        const q = over(a.pairNorms.q, a.heads, half, T, stat), k = over(a.pairNorms.k, a.kvHeads, half, T, stat);
        const cut = slowCut(m.lt.base, a.rotaryDim, m.L0);
        const argmax = (v) => v.reduce((b, x, i) => (x > v[b] ? i : b), 0);
        const top = argmax(q), ktop = argmax(k);
        let tot = 0, slow = 0;
        for (let i = 0; i < half; i++) (tot += q[i] ** 2), i >= cut && (slow += q[i] ** 2);
        const line = (label, v, n) => ({
          label: String(label), data: Array.from(v, (y, i) => ({ x: i, y })), borderColor: palette[n], backgroundColor: palette[n],
          borderDash: dashes[n], pointRadius: half > 40 ? 0 : 2,
        });
        chart.data.datasets = [line(M.q, q, 0), line(M.k, k, 1)];
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = half - 1;
        chart.options.plugins.posencBeyond = cut < half ? { x: cut - 0.5, label: M.beyond.format({ L0: m.L0 }) } : undefined;
        chart.update();
        const T_i = 2 * Math.PI * m.lt.base ** (2 * top / a.rotaryDim);
        view.notice = (top >= cut ? M.noticeSlow : M.noticeFast).format({ top, T: sig(T_i, 3) });
        const pairs = (top === ktop ? M.pairsSame : M.pairs).format({
          stat: String(stat === 'max' ? M.statMax : M.statMean), top, qTop: sig(q[top], 3), ktop, kTop: sig(k[ktop], 3),
        });
        view.readout = M.readout.format({
          model: modelName(m), n: T, pairs,
          cut, last: half - 1, slowShare: tot ? ((slow / tot) * 100).toFixed(1) : '0',
        });
        return { columns: ['pair i', 'wavelength T_i', 'q', 'k'], heads: colHeads([COL.pairI, M.colWavelength, 'q', 'k']), rows: Array.from(q, (v, i) => [i, 2 * Math.PI * m.lt.base ** (2 * i / a.rotaryDim), v, k[i]]) };
      },
      destroy: () => (stop(), stopPanel(), chart.destroy()),
    };
    return view;
  },
};
