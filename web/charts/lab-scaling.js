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
