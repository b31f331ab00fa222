// lab-positions.js: where in the sequence a tiny model goes wrong past its training length:
// accuracy (or loss) by position at 1×, 2×, 4× and 8× the training length, for one encoding of
// the lab's default run (web/lab/results.json, made by `npm run lab`), or of the latest run
// trained on this page.
import { lineChart, palette, dashes, lineLegend, sig, pointArrays, requestRedraw } from './common.js';
import { messages } from '../host/i18n.js';
import { labDetails, onTrained } from '../lab/run.js';
import { LAB, taskParam, encodingParam } from './shared/lab.js';
import results from '../lab/results.json' with { type: 'json' };

const M = messages({
  en: {
    title: 'Where a model goes wrong past its training length: accuracy or loss by position, at 1× to 8× that length',
    metric: 'measure',
    accuracy: 'accuracy',
    loss: 'loss',
    xTitle: 'position in the sequence (tokens)',
    line: 'tested at length {length}',
    readout: '{encoding} on “{task}” ({steps} steps, seed {seed}): {list}.',
    readoutHere: '{encoding} on “{task}”, trained on this page ({steps} steps, seed {seed}, training length {length}): {list}.',
    readItem: 'at length {length}, {metric} {first} at the first scored position and {last} at the last',
  },
  zh: {
    title: '模型在训练长度之外错在哪里：在 1× 到 8× 长度上按位置的准确率或损失',
    metric: '度量',
    accuracy: '准确率',
    loss: '损失',
    xTitle: '序列中的位置（token）',
    line: '在长度 {length} 上测试',
    readout: '{encoding}，任务“{task}”（{steps} 步，种子 {seed}）：{list}。',
    readoutHere: '{encoding}，任务“{task}”，在本页训练（{steps} 步，种子 {seed}，训练长度 {length}）：{list}。',
    readItem: '长度 {length} 时，第一个计分位置的{metric}为 {first}，最后一个为 {last}',
  },
});


export default {
  kind: 'lab-positions',
  messages: M,
  title: M.title,
  params: [
    taskParam('copy'),
    encodingParam('rope'),
    { name: 'metric', label: M.metric, type: 'select', options: ['accuracy', 'loss'], value: 'accuracy', optionLabels: { accuracy: M.accuracy, loss: M.loss } },
  ],
  mount(el, { Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.accuracy, aspect: 2 });
    chart.options.plugins.legend = lineLegend;
    const pts = pointArrays();
    const stop = onTrained(() => requestRedraw(el));
    const view = {
      update({ task, encoding, metric }) {
        const { evaluation, trained } = labDetails(results, task, encoding);
        chart.options.scales.y.title.text = () => String(M[metric]);
        Object.assign(chart.options.scales.y, metric === 'accuracy' ? { min: 0, max: 1 } : { min: 0, max: undefined });
        chart.data.datasets = evaluation.map((e, i) => ({
          label: M.line.format({ length: e.length }), data: pts(i, e.positions.length, (n) => e.positions[n][metric], (n) => e.positions[n].position),
          borderColor: palette[i], borderDash: dashes[i], borderWidth: 1.75,
        }));
        chart.update();
        const o = trained ?? results.options.train;
        view.readout = (trained ? M.readoutHere : M.readout).format({
          encoding: String(LAB[encoding]), task: String(LAB[task]), steps: o.steps, seed: o.seed, length: o.trainLength,
          list: evaluation.map((e) => M.readItem.format({
            length: e.length, metric: String(M[metric]), first: sig(e.positions[0][metric], 3), last: sig(e.positions.at(-1)[metric], 3),
          })).join('; '),
        });
        return { columns: ['length', 'position', 'accuracy', 'loss'], rows: evaluation.flatMap((e) => e.positions.map((p) => [e.length, p.position, p.accuracy, p.loss])) };
      },
      destroy: () => (stop(), chart.destroy()),
    };
    return view;
  },
};
