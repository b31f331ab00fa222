// lab-scaling.js: the long-context recipes on a model that was actually trained. The lab's RoPE
// model (trained at lengths up to 16) tested at 1× to 8× that length: unscaled; with position
// interpolation, NTK or YaRN applied at evaluation only (factor = the multiple); and after a short
// fine-tune at 4× with each of them (factor 4). From web/lab/results.json (`npm run lab`): each
// line the mean over its seeds, the band their range.
import { lineChart, lineLegend, sig, pointArrays, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';
import { MULTIPLES, TRAIN_LENGTH } from '../lab/run.js';
import { DEFAULT_RUN } from '../lab/default-run.js';
import { LAB, taskParam, acrossSeeds, seedBand, lineLook, coveredBy, fileResults, awaitResults } from './shared/lab.js';

const M = messages({
  en: {
    title: 'Scaling a trained RoPE model: PI, NTK and YaRN at evaluation only, and after a short fine-tune with factor 4 on lengths up to 4×',
    metric: 'accuracy',
    token: 'per token',
    sequence: 'whole sequence',
    xTitle: 'test length (tokens of the task; trained up to 16)',
    yTitle: 'accuracy',
    plain: 'RoPE, unscaled',
    atEval: 'RoPE + {scaling} at evaluation',
    tuned: 'RoPE + {scaling}, tuned {steps} steps, factor {multiple}',
    readout: 'Task “{task}”, {metric} accuracy at 1× / 2× / 4× / 8× the training length (the mean of seeds {seeds}): {list}.',
    readItem: '{name} {values}',
    sep: '; ',
    seedSep: ', ',
    noticeKback: 'Applied at evaluation alone, PI breaks the task past 1× ({piEval} at 2×); {furthest} {stay} right (0.95 or more) furthest, to {reach}×, and at 8× {best8} does best, with {value8}. Fine-tuned with factor 4, PI gets {piTuned} at 4× and {piTuned1} at 1×, where the unscaled model gets {plain1}.',
    and: ' and ',
    stays: 'stays',
    stay: 'stay',
    noticeCopy: '{peak}At 4×, the longest length they were tuned on, they win back {lo} % to {hi} % of what the unscaled model loses from 1× to 4× ({plain1} → {plain4}): {list}. None survives 8× ({best8} at best).',
    noticeCopyScores: '{peak}At 4×, the longest length they were tuned on, they score {list}, and the unscaled model {plain4}; none survives 8× ({best8} at best).',
    peakFirst: 'Each fine-tune does best at 1× and falls towards 4×. ',
    peakTuned: 'Each fine-tune does best near the 4× it was tuned up to. ',
    peakMixed: '',
    copyItem: '{name} {value}',
    copySep: ', ',
    how: 'The RoPE model of the lab above (seeds 1, 2, 3; the lines are their mean, the bands their range), scored at 1× to 8× its training length: unscaled; with PI, NTK or YaRN applied at evaluation only (factor = the multiple); and after 100 more training steps with the scaling in place (factor 4), each step at one length drawn from every length up to 4× the training length (64 tokens of the task), short ones included, then scored with that scaling at every length. PI divides every angle by the factor; NTK raises the base so that the slowest pair\'s angle is divided by the factor and the fastest pair is kept. YaRN follows Hugging Face\'s rule (β_fast = 32, β_slow = 1), with the longest training sequence as its original length, counted in positions: 16 for “repeat the token 2 places back”, 33 for copying (whose L₀, 16 tokens to copy, fills 33 positions). It keeps every pair up to the one that turns 32 times within that length (that pair\'s fractional index rounded down, and never below pair 0), divides by the factor every pair from the one that turns once within it (rounded up), ramps linearly in the pair index between the two, and scales the scores by (0.1 ln s + 1)². In either task no pair turns 32 times and only pair 0 turns more than once, so the ends round to pairs 0 and 1, and YaRN keeps pair 0 and divides pairs 1 to 3 by the factor. Trained ahead of time by npm run lab and stored with the page.',
  },
  zh: {
    title: '缩放一个训练好的 RoPE 模型：只在推理时使用 PI、NTK 和 YaRN，以及用因子 4 在不超过 4× 的长度上短暂微调之后',
    metric: '准确率',
    token: '按 token',
    sequence: '整条序列',
    xTitle: '测试长度（任务的 token 数；训练时最长 16）',
    yTitle: '准确率',
    plain: 'RoPE，不缩放',
    atEval: 'RoPE + {scaling}，只在推理时',
    tuned: 'RoPE + {scaling}，以因子 {multiple} 微调 {steps} 步',
    readout: '任务“{task}”，在训练长度的 1× / 2× / 4× / 8× 处的准确率（{metric}；种子 {seeds} 的平均值）：{list}。',
    readItem: '{name} {values}',
    sep: '；',
    seedSep: '、',
    noticeKback: '只在推理时缩放，PI 一超过 1× 就做不了这个任务（2× 处仅 {piEval}）；{furthest} {stay}保持做对（准确率不低于 0.95）的长度最远，一直到 {reach}×；8× 处最好的是 {best8}，为 {value8}。用因子 4 微调之后，PI 在 4× 处为 {piTuned}，在 1× 处为 {piTuned1}，而不缩放的模型在 1× 处为 {plain1}。',
    and: ' 和 ',
    stays: '',
    stay: '',
    noticeCopy: '{peak}在微调用过的最长长度 4× 处，不缩放的模型从 1× 到 4× 损失了一部分准确率（{plain1} → {plain4}），它们挽回了其中的 {lo}%～{hi}%：{list}。到 8× 全都失败（最好也只有 {best8}）。',
    noticeCopyScores: '{peak}在微调用过的最长长度 4× 处，{list}，不缩放的模型为 {plain4}；到 8× 全都失败（最好也只有 {best8}）。',
    peakFirst: '每种微调都是在 1× 处最好，越往 4× 越差。',
    peakTuned: '每种微调都在它用过的最长长度 4× 附近效果最好。',
    peakMixed: '',
    copyItem: '{name} 为 {value}',
    copySep: '，',
    how: '即上面实验台上的 RoPE 模型（种子 1、2、3；曲线是它们的平均值，色带是它们的范围），在训练长度的 1× 到 8× 上测试：不缩放；只在推理时使用 PI、NTK 或 YaRN（缩放因子等于倍数）；以及带着缩放（因子 4）再训练 100 步之后，在每个长度上用同一种缩放测试。微调的每一步从不超过训练长度 4 倍（该任务的 64 个 token）的所有长度中抽一个，短序列也包括在内。PI 把每个角度除以缩放因子；NTK 加大底数，使最慢一对的角度恰好除以缩放因子，最快的一对保持不变。YaRN 按 Hugging Face 的规则（β_fast = 32，β_slow = 1），以最长的训练序列为原始长度，按位置数计：“重复往前第 2 个 token”任务为 16，复制任务为 33（它的 L₀ 是要复制的 16 个 token，共占 33 个位置）。在这个长度之内转满 32 圈的那一对（其小数序号向下取整，且不小于第 0 对）及更快的维度对保持不变；在其中恰好转一圈的那一对（向上取整）及更慢的维度对除以缩放因子；两者之间按维度对的序号线性过渡；得分再乘以 (0.1 ln s + 1)²。两个任务中都没有哪一对转满 32 圈，只有第 0 对转了一圈以上，所以两端取整后是第 0 对和第 1 对，YaRN 保留第 0 对，把第 1 到 3 对除以缩放因子。结果由 npm run lab 预先训练好，随页面一起提供。',
  },
});

const SCALINGS = [['pi', 'PI'], ['ntk', 'NTK'], ['yarn', 'YaRN']];
const RIGHT = 0.95;

const SEEDS = [DEFAULT_RUN.train.seed, ...DEFAULT_RUN.seeds];

/**
 * The lines of one task of `results`: [name, one evaluation list per seed, look (lineLook: as the
 * lab's first chart draws RoPE and RoPE scaled at evaluation), fine-tuned].
 */
function lines(results, task) {
  const rope = (r) => r.task === task && r.encoding === 'rope';
  const runs = [results.runs.find(rope), ...results.seedRuns.filter(rope)];
  const ft = results.options.fineTune;
  const out = [[M.plain.format(), runs.map((r) => r.evaluation), lineLook('rope'), false]];
  SCALINGS.forEach(([s, name]) => out.push([M.atEval.format({ scaling: name }), runs.map((r) => r.scaled[s]), lineLook('rope', { scaling: s }), false]));
  SCALINGS.forEach(([s, name]) => out.push([M.tuned.format({ scaling: name, steps: ft.steps, multiple: ft.multiple }),
    runs.map((r) => r.fineTuned[s].evaluation), lineLook('rope', { scaling: s, tuned: true }), true]));
  return out;
}

/**
 * What to notice, from the lines' values per multiple (lines() order: unscaled; PI, NTK, YaRN at
 * evaluation; PI, NTK, YaRN fine-tuned).
 */
function notice(task, v) {
  const [plain, piEval, ntkEval, yarnEval, piTuned, ntkTuned, yarnTuned] = v;
  if (task === 'copy') return copyNotice(plain, [['PI', piTuned], ['NTK', ntkTuned], ['YaRN', yarnTuned]]);
  // how far each scaling at evaluation stays right (0.95 or more from 1× on, as the first chart's
  // notice counts it), the ones that stay right furthest, and the best at 8×
  const reach = (ev) => MULTIPLES[ev.findIndex((x) => x < RIGHT) - 1] ?? (ev.every((x) => x >= RIGHT) ? MULTIPLES.at(-1) : 0);
  const evals = [['PI', piEval], ['NTK', ntkEval], ['YaRN', yarnEval]];
  const far = Math.max(...evals.map(([, ev]) => reach(ev)));
  const furthest = evals.filter(([, ev]) => reach(ev) === far).map(([name]) => name);
  const [best8, ev8] = evals.reduce((a, b) => (b[1][3] > a[1][3] ? b : a));
  return M.noticeKback.format({ piEval: sig(piEval[1], 2), furthest: furthest.join(String(M.and)), stay: String(furthest.length > 1 ? M.stay : M.stays), reach: far, best8, value8: sig(ev8[3], 2),
    piTuned: sig(piTuned[2], 2), plain1: sig(plain[0], 2), piTuned1: sig(piTuned[0], 2) });
}

/**
 * The copy task's notice, from the unscaled line and the fine-tuned ones ([name, values per
 * multiple]): where the fine-tunes do best (1×, 2×, 4×), what they score at the 4× they were
 * tuned for, best first, and the share of the unscaled model's loss from 1× to 4× they win back.
 */
export function copyNotice(plain, tuned) {
  const at4 = MULTIPLES.indexOf(4), at8 = MULTIPLES.indexOf(8);
  const peakAt = (ev) => ev.slice(0, at4 + 1).indexOf(Math.max(...ev.slice(0, at4 + 1)));
  const peaks = new Set(tuned.map(([, ev]) => peakAt(ev)));
  const peak = String(peaks.size > 1 ? M.peakMixed : peaks.has(0) ? M.peakFirst : peaks.has(at4) ? M.peakTuned : M.peakMixed);
  const list = [...tuned].sort((a, b) => b[1][at4] - a[1][at4]).map(([name, ev]) => M.copyItem.format({ name, value: sig(ev[at4], 2) })).join(String(M.copySep));
  const lost = plain[0] - plain[at4];
  const shares = tuned.map(([, ev]) => (ev[at4] - plain[at4]) / lost);
  const v = { peak, list, plain1: sig(plain[0], 2), plain4: sig(plain[at4], 2), best8: sig(Math.max(...tuned.map(([, ev]) => ev[at8])), 2),
    lo: Math.round(100 * Math.min(...shares)), hi: Math.round(100 * Math.max(...shares)) };
  // a share means something only where the unscaled model had something to lose and every fine-tune gains
  return (lost > 0.1 && Math.min(...shares) > 0 ? M.noticeCopy : M.noticeCopyScores).format(v);
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
    chart.options.scales.x.ticks.callback = (v) => String(v);
    Object.assign(chart.options.scales.y, { min: 0, max: 1 });
    const pts = pointArrays();
    const file = fileResults(el);
    const view = {
      update({ task, metric }) {
        const field = metric === 'token' ? 'tokenAccuracy' : 'sequenceAccuracy';
        const columns = ['model', 'length', 'factor', `${field} (mean over ${SEEDS.length} seeds)`, `${field} lowest`, `${field} highest`];
        const heads = colHeads([COL.model, COL.length, COL.factor, COL.mean.format({ field: COL[field], n: SEEDS.length }), COL.lowest.format({ field: COL[field] }), COL.highest.format({ field: COL[field] })]);
        if (!file.results) return awaitResults(file, view, () => chart.update(), columns, heads);
        const ls = lines(file.results, task).map(([label, evs, ...rest]) => [label, acrossSeeds(evs, field), ...rest]);
        // a line drawn exactly under another is named in the legend as hidden
        const covered = coveredBy(ls.map(([, ev]) => ev.map((e) => e[field])));
        chart.data.datasets = ls.flatMap(([label, ev, { colour, dash }, tuned], j) => {
          const atEval = !tuned && dash.length > 0;
          return [{
            label: covered[j] < 0 ? label : LAB.under.format({ name: label, other: ls[covered[j]][0] }),
            data: pts(j, ev.length, (n) => ev[n][field], (n) => ev[n].length),
            borderColor: colour, borderDash: dash, borderWidth: atEval ? 1.5 : 2.25,
            pointRadius: 3, pointStyle: tuned ? 'rect' : atEval ? 'triangle' : 'circle',
          }, ...seedBand(pts, j, ev, colour, atEval ? '14' : '22')];
        });
        chart.update();
        view.notice = notice(task, ls.map(([, ev]) => ev.map((e) => e[field])));
        view.readout = M.readout.format({
          task: String(LAB[task]), metric: String(M[metric]), seeds: SEEDS.join(String(M.seedSep)),
          list: ls.map(([name, ev]) => M.readItem.format({ name, values: ev.map((e) => sig(e[field], 2)).join(' / ') })).join(String(M.sep)),
        });
        return {
          columns, heads,
          rows: ls.flatMap(([name, ev]) => ev.map((e) => [name, e.length, e.factor ?? 1, e[field], e.lo, e.hi])),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
