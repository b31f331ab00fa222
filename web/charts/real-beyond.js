// real-beyond.js: the same real head's score (the sentence's mean q and k of layer 0) at
// distances past the training length L0, as the model rotates it and under PI, NTK and YaRN
// (the real vectors rotated with each variant's frequencies, its attention factor included).
import { lineChartWith, lineLegend, beyondShade, palette, dashes, sig, intGrid, refresh, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';
import { subscribe, state, modelPanel, HEAD_OPTIONS, fitHeads, noModel, modelName } from './shared/real-model.js';
import { headCurve } from './real-decay.js';

const M = messages({
  en: {
    title: 'Past the training length: the same head\'s score under PI, NTK and YaRN',
    head: 'head',
    all: 'every head (mean)',
    factor: 'scaling factor s',
    xTitle: 'distance |Δ|',
    yTitle: 'score q̄ · R k̄ / √d',
    none: 'as trained (no scaling)',
    pi: 'PI (θᵢ ÷ s)',
    ntk: 'NTK-aware (larger base)',
    yarn: 'YaRN',
    beyond: 'past L₀ = {L0}',
    waiting: 'Reading the model…',
    notice: 'Inside L₀, where the model was trained, {best} stays closest to the trained curve (mean gap {bestGap}) and {worst} moves furthest ({worstGap}). Staying close there is necessary, not enough: no scaling has a gap of 0, and past L₀ this chart cannot show which recipe still finds the right keys.',
    readout: '{model}, {head}, s = {factor}: mean absolute gap to the trained curve over |Δ| ≤ L₀ = {L0} (0 for no scaling, by definition): {list}; at |Δ| = {far}: {ends}.',
    item: '{name} {value}',
    sep: ', ',
    how: 'The head\'s mean query and key over your sentence (layer 0, before RoPE, as in the chart above) are rotated apart by each distance up to s × L₀ with the frequencies of each variant: PI divides every θᵢ by s, NTK multiplies the base by s^(d/(d−2)), YaRN (factor s, original length L₀) divides θᵢ by s for the pairs that make less than about one turn within L₀, keeps those that make more than about 32 turns as they are, ramps between the two (with the ramp\'s ends rounded outward to whole pair indices, as transformers does, which in a small head, such as the page\'s own model\'s, keeps pair 0 as it is though it turns only a few times within L₀), and multiplies every score by its attention factor squared. The gap is the mean absolute difference from the unscaled curve over distances up to L₀, in score units.',
  },
  zh: {
    title: '超出训练长度：同一个头在 PI、NTK 和 YaRN 下的得分',
    head: '头',
    all: '所有头（平均）',
    factor: '缩放因子 s',
    xTitle: '距离 |Δ|',
    yTitle: '得分 q̄ · R k̄ / √d',
    none: '不缩放（按训练时）',
    pi: 'PI（θᵢ ÷ s）',
    ntk: 'NTK-aware（加大底数）',
    yarn: 'YaRN',
    beyond: '超出 L₀ = {L0}',
    waiting: '正在读取模型…',
    notice: '在模型训练过的 L₀ 之内，{best}最接近训练时的曲线（平均绝对差 {bestGap}），{worst}偏离最远（{worstGap}）。在这里贴近是必要条件，但并不充分：不缩放时平均绝对差就是 0；而在 L₀ 之外，这张图显示不出哪种做法仍能找到正确的 key。',
    readout: '{model}，{head}，s = {factor}：在 |Δ| ≤ L₀ = {L0} 上与训练时曲线的平均绝对差（不缩放时按定义为 0）：{list}；在 |Δ| = {far} 处：{ends}。',
    item: '{name} {value}',
    sep: '，',
    how: '把这个头在你句子上的平均 query 和平均 key（第 0 层，RoPE 之前，同上图）按各方法的频率转开，距离直到 s × L₀：PI 把每个 θᵢ 除以 s，NTK 把底数乘以 s^(d/(d−2))，YaRN（因子 s，原始长度 L₀）对在 L₀ 之内转不到约一圈的维度对把 θᵢ 除以 s，对转了约 32 圈以上的维度对保持不变，两者之间逐渐过渡（过渡段的两端像 transformers 那样向外取整到整数序号；在很小的头里，比如本页自己的模型，第 0 对在 L₀ 之内虽然只转几圈，也因此保持不变），并把每个得分乘以其注意力因子的平方。差是距离不超过 L₀ 时与不缩放曲线之差的绝对值的平均，单位与得分相同。',
  },
});

const VARIANTS = ['none', 'pi', 'ntk', 'yarn'];
/** Three significant digits (a message puts the true minus sign before a negative one). */
const num = (x) => sig(x, 3);

export default {
  kind: 'real-beyond',
  messages: M,
  title: M.title,
  params: [
    { name: 'head', label: M.head, type: 'select', options: HEAD_OPTIONS, value: 'all', optionLabels: { all: M.all } },
    { name: 'factor', label: M.factor, type: 'select', options: ['2', '4', '8'], value: '4' },
  ],
  mount(el, { pe, Chart }) {
    const stopPanel = modelPanel(el);
    const chart = lineChartWith([beyondShade], el, Chart, { x: M.xTitle, y: M.yTitle, aspect: 2.2 });
    chart.options.plugins.legend = lineLegend;
    const stop = subscribe(pe, () => refresh(el));
    const view = {
      update({ head, factor }) {
        const S = state(), l0 = S.layer0, m = S.model;
        if (!l0 || !m.L0) return noModel(view, () => ((chart.data.datasets = []), chart.update()), M.waiting, ['distance', ...VARIANTS], [COL.distance, ...VARIANTS.map((v) => M[v])]);
        const s = Number(factor), L0 = m.L0, max = s * L0;
        fitHeads(el, l0.att.heads);
        const dist = max <= 600 ? Array.from({ length: max + 1 }, (_, j) => j) : intGrid(0, max, 601);
        const scalings = { none: null, pi: { type: 'linear', factor: s }, ntk: { type: 'ntk', factor: s }, yarn: { type: 'yarn', factor: s, originalMaxPositionEmbeddings: L0 } };
        const curves = Object.fromEntries(VARIANTS.map((v) => [v, headCurve(pe, l0, m.lt, head, dist, scalings[v]).curve]));
        chart.data.datasets = VARIANTS.map((v, n) => ({
          label: String(M[v]), data: dist.map((x, j) => ({ x, y: curves[v][j] })), borderColor: palette[n], backgroundColor: palette[n], borderDash: dashes[n], borderWidth: v === 'none' ? 2 : 1.5,
        }));
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = max;
        chart.options.plugins.posencBeyond = { x: L0, label: M.beyond.format({ L0 }) };
        chart.update();
        const gap = (v) => {
          let g = 0, n = 0;
          dist.forEach((x, j) => x <= L0 && ((g += Math.abs(curves[v][j] - curves.none[j])), n++));
          return g / n;
        };
        const gaps = Object.fromEntries(VARIANTS.slice(1).map((v) => [v, gap(v)]));
        const order = VARIANTS.slice(1).sort((x, y) => gaps[x] - gaps[y]);
        const best = order[0], worst = order.at(-1);
        view.notice = M.notice.format({ best: String(M[best]), bestGap: num(gaps[best]), worst: String(M[worst]), worstGap: num(gaps[worst]) });
        const last = dist.length - 1;
        view.readout = M.readout.format({
          model: modelName(m), head: head === 'all' ? String(M.all) : `${M.head} ${Math.min(Number(head), l0.att.heads - 1)}`,
          factor, L0, list: order.map((v) => M.item.format({ name: String(M[v]), value: num(gaps[v]) })).join(M.sep),
          far: dist[last], ends: VARIANTS.map((v) => M.item.format({ name: String(M[v]), value: num(curves[v][last]) })).join(M.sep),
        });
        return { columns: ['distance', ...VARIANTS], heads: colHeads([COL.distance, ...VARIANTS.map((v) => M[v])]), rows: dist.map((x, j) => [x, ...VARIANTS.map((v) => curves[v][j])]) };
      },
      destroy: () => (stop(), stopPanel(), chart.destroy()),
    };
    return view;
  },
};
