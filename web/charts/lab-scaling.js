// lab-scaling.js: the long-context recipes on a model that was actually trained. The lab's RoPE
// model (trained at lengths up to 16) tested at 1× to 8× that length: unscaled; with position
// interpolation, NTK or YaRN applied at evaluation only (factor = the multiple); and after a short
// fine-tune at 4× with each of them (factor 4). From web/lab/results.json (`npm run lab`): each
// line the mean over its seeds, the band their range.
import { lineChart, palette, dashes, lineLegend, sig, pointArrays } from './common.js';
import { messages } from '../host/i18n.js';
import { MULTIPLES, TRAIN_LENGTH } from '../lab/run.js';
import { LAB, taskParam, acrossSeeds, seedBand } from './shared/lab.js';
import results from '../lab/results.json' with { type: 'json' };

const M = messages({
  en: {
    title: 'Scaling a trained RoPE model: PI, NTK and YaRN at evaluation only, and after a short fine-tune at 4×',
    metric: 'accuracy',
    token: 'per token',
    sequence: 'whole sequence',
    xTitle: 'test length (tokens of the task; trained up to 16)',
    yTitle: 'accuracy',
    plain: 'RoPE, unscaled',
    atEval: 'RoPE + {scaling} at evaluation',
    tuned: 'RoPE + {scaling}, fine-tuned {steps} steps at {length}',
    readout: 'Task “{task}”, {metric} accuracy at 1× / 2× / 4× / 8× the training length (the mean of seeds {seeds}): {list}.',
    readItem: '{name} {values}',
    sep: '; ',
    noticeKback: 'Applied at evaluation alone, PI breaks the task past 1× ({piEval} at 2×), and {furthest} holds it furthest, to {reach}×. Fine-tuned, PI gets {piTuned} at 4× but drops at 1×, from {plain1} to {piTuned1}: its factor shrinks every distance, at every length.',
    noticeCopy: 'Each fine-tune does best near the 4× it was tuned at (YaRN {yarn4}, PI {pi4}, NTK {ntk4} at 4×), and none survives 8× ({best8} at best).',
    how: 'The RoPE model of the lab above (seeds 1, 2, 3; the lines are their mean, the bands their range), scored at 1× to 8× its training length: unscaled; with PI, NTK or YaRN applied at evaluation only (factor = the multiple); and after 100 more training steps on sequences of up to 64 tokens with the scaling in place (factor 4), then scored with that scaling at every length. PI divides every angle by the factor; NTK raises the base so that the slowest pair\'s angle is divided by the factor and the fastest pair is kept; YaRN keeps the fast pairs, divides the slow ones by the factor, ramps between them by pair index, and scales the scores by (0.1 ln s + 1)². Trained ahead of time by npm run lab and stored with the page.',
  },
  zh: {
    title: '缩放一个训练好的 RoPE 模型：只在评估时使用 PI、NTK 和 YaRN，以及在 4× 长度上短暂微调之后',
    metric: '准确率',
    token: '按 token',
    sequence: '整条序列',
    xTitle: '测试长度（任务的 token 数；训练时最长 16）',
    yTitle: '准确率',
    plain: 'RoPE，不缩放',
    atEval: 'RoPE + {scaling}，仅在评估时',
    tuned: 'RoPE + {scaling}，在长度 {length} 上微调 {steps} 步',
    readout: '任务“{task}”，在训练长度的 1× / 2× / 4× / 8× 处的准确率（{metric}；种子 {seeds} 的平均值）：{list}。',
    readItem: '{name} {values}',
    sep: '；',
    noticeKback: '只在评估时使用时，PI 在 1× 之外就把任务毁了（2× 处为 {piEval}），{furthest} 撑得最远，到 {reach}×。微调之后，PI 在 4× 处达到 {piTuned}，但在 1× 处反而从 {plain1} 降到 {piTuned1}：它的缩放因子在任何长度上都会把每个距离缩小。',
    noticeCopy: '每种微调都在它所用的 4× 附近效果最好（4× 处 YaRN 为 {yarn4}，PI 为 {pi4}，NTK 为 {ntk4}），到 8× 全都失败（最好也只有 {best8}）。',
    how: '即上面实验中的 RoPE 模型（种子 1、2、3；曲线是它们的平均值，色带是它们的范围），在训练长度的 1× 到 8× 上打分：不缩放；只在评估时使用 PI、NTK 或 YaRN（缩放因子等于倍数）；以及带着缩放（因子 4）在最长 64 个 token 的序列上再训练 100 步之后，在每个长度上用同一种缩放打分。PI 把每个角度除以缩放因子；NTK 加大底数，使最慢一对的角度恰好除以缩放因子，最快的一对保持不变；YaRN 保留快速旋转的对，把慢的对除以缩放因子，两者之间按对的序号线性过渡，并把得分乘以 (0.1 ln s + 1)²。结果由 npm run lab 预先训练好，随页面一起提供。',
  },
});

const SCALINGS = [['pi', 'PI'], ['ntk', 'NTK'], ['yarn', 'YaRN']];

const SEEDS = [results.options.train.seed, ...results.options.seeds];

/** The lines of one task: [name, one evaluation list per seed, colour, dashed, fine-tuned]. */
function lines(task) {
  const rope = (r) => r.task === task && r.encoding === 'rope';
  const runs = [results.runs.find(rope), ...results.seedRuns.filter(rope)];
  const ft = results.options.fineTune;
  const out = [[M.plain.format(), runs.map((r) => r.evaluation), palette[6], false, false]];
  SCALINGS.forEach(([s, name], i) => out.push([M.atEval.format({ scaling: name }), runs.map((r) => r.scaled[s]), palette[i], true, false]));
  SCALINGS.forEach(([s, name], i) => out.push([M.tuned.format({ scaling: name, steps: ft.steps, length: ft.multiple * TRAIN_LENGTH }),
    runs.map((r) => r.fineTuned[s].evaluation), palette[i], false, true]));
  return out;
}

/**
 * What to notice, from the lines' values per multiple (lines() order: unscaled; PI, NTK, YaRN at
 * evaluation; PI, NTK, YaRN fine-tuned).
 */
function notice(task, v) {
  const [plain, piEval, ntkEval, yarnEval, piTuned, ntkTuned, yarnTuned] = v;
  if (task === 'copy') {
    return M.noticeCopy.format({ yarn4: sig(yarnTuned[2], 2), pi4: sig(piTuned[2], 2), ntk4: sig(ntkTuned[2], 2),
      best8: sig(Math.max(piTuned[3], ntkTuned[3], yarnTuned[3]), 2) });
  }
  // how far each scaling at evaluation stays right (0.9 or more from 1× on)
  const reach = (ev) => MULTIPLES[ev.findIndex((x) => x < 0.9) - 1] ?? (ev.every((x) => x >= 0.9) ? MULTIPLES.at(-1) : 0);
  const evals = [['PI', piEval], ['NTK', ntkEval], ['YaRN', yarnEval]];
  const [furthest, ev] = evals.reduce((a, b) => (reach(b[1]) > reach(a[1]) ? b : a));
  return M.noticeKback.format({ piEval: sig(piEval[1], 2), furthest, reach: reach(ev), piTuned: sig(piTuned[2], 2), plain1: sig(plain[0], 2), piTuned1: sig(piTuned[0], 2) });
}

export default {
  kind: 'lab-scaling',
  messages: M,
  title: M.title,
  params: [
    taskParam('kback'),
    { name: 'metric', label: M.metric, type: 'select', options: ['token', 'sequence'], value: 'token', optionLabels: { token: M.token, sequence: M.sequence } },
  ],
  mount(el, { Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle, xType: 'logarithmic', aspect: 1.8 });
    chart.options.plugins.legend = lineLegend;
    chart.options.plugins.filler = { propagate: false }; // the seeds' bands
    chart.canvas.parentElement.classList.add('phone-legend'); // ten lines' legend: a taller box on phones
    Object.assign(chart.options.scales.x, { min: TRAIN_LENGTH * 0.9, max: TRAIN_LENGTH * 8 * 1.1,
      afterBuildTicks: (axis) => (axis.ticks = MULTIPLES.map((m) => ({ value: m * TRAIN_LENGTH }))) });
    chart.options.scales.x.ticks = { ...chart.options.scales.x.ticks, callback: (v) => String(v) };
    Object.assign(chart.options.scales.y, { min: 0, max: 1 });
    const pts = pointArrays();
    const view = {
      update({ task, metric }) {
        const field = metric === 'token' ? 'tokenAccuracy' : 'sequenceAccuracy';
        const ls = lines(task).map(([label, evs, ...rest]) => [label, acrossSeeds(evs, field), ...rest]);
        chart.data.datasets = ls.flatMap(([label, ev, colour, dashed, tuned], j) => [{
          label, data: pts(j, ev.length, (n) => ev[n][field], (n) => ev[n].length),
          borderColor: colour, borderDash: dashed ? dashes[1] : [], borderWidth: tuned || j === 0 ? 2.25 : 1.5,
          pointRadius: 3, pointStyle: tuned ? 'rect' : dashed ? 'triangle' : 'circle',
        }, ...seedBand(pts, j, ev, colour, dashed ? '14' : '22')]);
        chart.update();
        view.notice = notice(task, ls.map(([, ev]) => ev.map((e) => e[field])));
        view.readout = M.readout.format({
          task: String(LAB[task]), metric: String(M[metric]), seeds: SEEDS.join(', '),
          list: ls.map(([name, ev]) => M.readItem.format({ name, values: ev.map((e) => sig(e[field], 2)).join(' / ') })).join(String(M.sep)),
        });
        return {
          columns: ['model', 'length', 'factor', `${field} (mean over ${SEEDS.length} seeds)`, `${field} lowest`, `${field} highest`],
          rows: ls.flatMap(([name, ev]) => ev.map((e) => [name, e.length, e.factor ?? 1, e[field], e.lo, e.hi])),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
