// lab-learned.js: what a learned position table holds past the positions training reached, row
// by row: how far training moved each row from its random initial value, and its largest cosine
// with any reached row, for the lab's default run (web/lab/results.json, made by `npm run lab`).
import { lineChartWith, palette, dashes, lineLegend, beyondShade, sig, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';
import { fromBase64 } from '../lab/run.js';
import { LAB, taskParam, fileResults, awaitResults } from './shared/lab.js';

const M = messages({
  en: {
    colReached: 'reached in training',
    colMoved: 'moved',
    colNearest: 'largest cosine with another reached row',
    title: 'What a learned position table gives a position it never trained',
    xTitle: 'position (row of the table)',
    yTitle: 'fraction moved, or cosine',
    moved: 'moved by training: |P − P₀| / |P₀|',
    nearest: 'largest cosine with another reached row',
    random: 'random vectors: {value} on average',
    beyond: 'never reached in training (positions ≥ {reached})',
    range: '{lo} to {hi}',
    readout: '“{task}”, learned table, {steps} steps: training reached positions 0 to {last}. Their rows moved {reachedMoved} of their length; every other row moved {otherMoved}, what weight decay alone does: it is still its random initial value. Largest cosine with another reached row (never with itself): {reachedCos} for the reached rows, {otherCos} for the others; for comparison, the largest cosine of a random {dim}-dimensional vector with {reached} other random ones, one per reached row, is {random} on average. The cosines do not separate the two groups; only the movement does.',
    notice: 'Every row past position {last} is still its random initial value: training never reached it, so a longer input gets position codes the model never learned to read.',
    how: 'The learned position table of the lab model trained with seed 1 (one row of d_model = 32 numbers per position), compared row by row with its initial value: |P − P₀|/|P₀|, and the largest cosine with any other row training reached (a reached row is not compared with itself). Training reaches a row, that is, gives it a gradient, when some training sequence is that long: 16 tokens for “repeat the token 2 places back”, 33 for copying. The dotted line is the same largest cosine for random vectors (400 draws, computed here).',
  },
  zh: {
    colReached: '训练中到达过',
    colMoved: '移动比例',
    colNearest: '与其他已到达行的最大余弦',
    title: '可学习的位置表给未训练位置的编码是什么？',
    xTitle: '位置（表中的行）',
    yTitle: '移动的比例，或余弦',
    moved: '训练带来的移动：|P − P₀| / |P₀|',
    nearest: '与其他已到达行的最大余弦',
    random: '随机向量：平均 {value}',
    beyond: '训练时从未到达（位置 ≥ {reached}）',
    range: '{lo} 到 {hi}',
    readout: '任务“{task}”，可学习的绝对位置编码，{steps} 步：训练到达了位置 0 到 {last}，它们在位置表中的行移动了自身长度的 {reachedMoved}；其余每一行都移动了 {otherMoved}，这是权重衰减单独造成的：它们仍是随机的初始值。与另一到达过的行的最大余弦（不与自身比较）：到达过的行为 {reachedCos}，其余的行为 {otherCos}；作为对照，一个随机的 {dim} 维向量与 {reached} 个随机向量（每个到达过的行一个）的最大余弦平均为 {random}。余弦分不开这两组行，只有移动量能分开。',
    notice: '位置 {last} 之后的每一行都仍是随机的初始值：训练从未到达那里，所以更长的输入得到的是模型从未学过如何读取的位置编码。',
    how: '取实验台上用种子 1 训练的可学习的绝对位置编码模型，把它的位置表（每个位置一行，d_model = 32 个数）逐行与初始值比较：|P − P₀|/|P₀|，以及与训练到达过的其他任何一行的最大余弦（到达过的行不与自身比较）。训练到达某一行，即这一行得到梯度，条件是有训练序列有那么长：“重复往前第 2 个 token”任务为 16 个 token，复制任务为 33 个。点线是随机向量的同一个最大余弦（在这里抽取 400 次算出）。',
  },
});

const DRAWS = 400;

/** Mean over DRAWS random vectors of the largest cosine with `others` random vectors, in `dim` dimensions. */
function randomNearest(pe, dim, others) {
  // each draw: rows [a, o_1 … o_others]; every row is set beside its draw's a, one rowCosines call for all
  const per = (others + 1) * dim, v = pe.randomNormal(DRAWS * per, 1), a = new v.constructor(v.length);
  for (let d = 0; d < DRAWS; d++) for (let k = 0; k <= others; k++) a.set(v.subarray(d * per, d * per + dim), d * per + k * dim);
  const cos = pe.rowCosines(a, v, dim);
  let sum = 0;
  for (let d = 0; d < DRAWS; d++) {
    let best = -1;
    for (let k = 1; k <= others; k++) best = Math.max(best, cos[d * (others + 1) + k]);
    sum += best;
  }
  return sum / DRAWS;
}

const pct = (f) => `${sig(100 * f, 2)}%`;
const COLUMNS = ['position', 'reached', 'moved', 'nearest cosine'];
const heads = () => colHeads([COL.position, M.colReached, M.colMoved, M.colNearest]);

export default {
  kind: 'lab-learned',
  messages: M,
  title: M.title,
  params: [taskParam('kback')],
  mount(el, { pe, Chart }) {
    const chart = lineChartWith([beyondShade], el, Chart, { x: M.xTitle, y: M.yTitle, aspect: 2 });
    chart.options.plugins.legend = lineLegend;
    chart.canvas.parentElement.classList.add('phone-legend');
    Object.assign(chart.options.scales.y, { min: 0, suggestedMax: 0.8 });
    const reference = new Map();
    const file = fileResults(el);
    const view = {
      update({ task }) {
        if (!file.results) return awaitResults(file, view, () => chart.update(), COLUMNS, heads());
        const run = file.results.runs.find((r) => r.task === task && r.encoding === 'learned');
        const { reached, rows } = run.positionTable;
        const moved = fromBase64(run.positionTable.moved), nearest = fromBase64(run.positionTable.nearest);
        const dim = run.options.dModel;
        if (!reference.has(reached)) reference.set(reached, randomNearest(pe, dim, reached));
        const random = reference.get(reached);
        const line = (a) => Array.from(a, (y, x) => ({ x, y }));
        chart.data.datasets = [
          { label: String(M.moved), data: line(moved), borderColor: palette[0], borderDash: dashes[0], borderWidth: 1.75 },
          { label: String(M.nearest), data: line(nearest), borderColor: palette[1], borderDash: dashes[1], borderWidth: 1.5 },
          { label: M.random.format({ dim, value: sig(random, 2) }), data: [{ x: 0, y: random }, { x: rows - 1, y: random }], borderColor: palette[2], borderDash: dashes[2], borderWidth: 2 },
        ];
        Object.assign(chart.options.scales.x, { min: 0, max: rows - 1 });
        chart.options.plugins.posencBeyond = { x: reached - 0.5, label: M.beyond.format({ reached }) };
        chart.update();
        const span = (a, f) => {
          const lo = f(Math.min(...a)), hi = f(Math.max(...a));
          return lo === hi ? lo : M.range.format({ lo, hi });
        };
        const cos = (x) => sig(x, 2);
        view.notice = M.notice.format({ last: reached - 1 });
        view.readout = M.readout.format({
          task: String(LAB[task]), steps: run.options.steps, last: reached - 1, reached, dim, random: sig(random, 2),
          reachedMoved: span(moved.subarray(0, reached), pct), otherMoved: span(moved.subarray(reached), pct),
          reachedCos: span(nearest.subarray(0, reached), cos), otherCos: span(nearest.subarray(reached), cos),
        });
        return { columns: COLUMNS, heads: heads(), rows: Array.from(moved, (m, p) => [p, p < reached ? 1 : 0, m, nearest[p]]) };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
