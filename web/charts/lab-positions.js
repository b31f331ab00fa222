// lab-positions.js: where in the sequence a tiny model goes wrong past its training length:
// accuracy (or loss) by position at 1×, 2×, 4× and 8× the training length, for one encoding of
// the lab's default run (web/lab/results.json, made by `npm run lab`), or of the latest run
// trained on this page.
import { lineChart, palette, dashes, lineLegend, sig, pointArrays, refresh, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';
import { labDetails, onTrained } from '../lab/run.js';
import { DEFAULT_RUN } from '../lab/default-run.js';
import { LAB, taskParam, encodingParam, fileResults, awaitResults } from './shared/lab.js';

const M = messages({
  en: {
    colAccuracy: 'accuracy',
    colLoss: 'loss',
    title: 'Where a model goes wrong past its training length: accuracy or loss by position, at 1× to 8× that length',
    metric: 'measure',
    accuracy: 'accuracy',
    loss: 'loss',
    xTitle: 'position in the sequence (tokens)',
    line: 'tested at length {length}',
    readout: '{encoding} on “{task}” ({steps} steps, seed {seed}): {list}.',
    readoutHere: '{encoding} on “{task}”, trained on this page ({steps} steps, seed {seed}, training length {length}): {list}.',
    readItem: 'at length {length}, {metric} {first} at the first scored position and {last} at the last',
    sep: '; ',
    noticeEdge: 'Accuracy 0.9 or more at every test length up to position {before}; position {first} is the first where some test length falls below 0.9{collapse}. ',
    collapse: ', and position {at} the first where one falls below 0.5',
    noticeLate: 'Keys {edge} to {before} places back, never shown in training either, cost it little.',
    noticeEarly: 'Position {edge} is the first past the training length: from there on every position is new to this model.',
    noticeNever: 'This model never learned the task: even before position {edge} its accuracy is only {inside}.',
    noticeHolds: 'Accuracy 0.9 or more at every position up to {multiple}× the training length ({outside} from position {edge} on).',
    noticeCopy: 'Along the answer, accuracy falls from the first copied token to the last: {first1} to {last1} at 1×, {first2} to {last2} at 2×.',
    how: 'Each point is one position of the test sequences (128 fresh ones per length), scored for the model of the lab above trained with seed 1: the share of sequences whose token there is predicted right, or the mean loss there. Only positions that carry an answer are drawn: from position 2 on for “repeat the token 2 places back”, the second half for copying. The readout\'s bar, an accuracy of 0.9, is lower than the 0.95 at which the lab\'s accuracy-against-length chart calls a model right, because each position\'s accuracy rests on only 128 sequences. After you press Train above, this chart shows that run instead.',
  },
  zh: {
    colAccuracy: '准确率',
    colLoss: '损失',
    title: '模型在训练长度之外错在哪里：在 1× 到 8× 长度上按位置的准确率或损失',
    metric: '度量',
    accuracy: '准确率',
    loss: '损失',
    xTitle: '序列中的位置（token）',
    line: '在长度 {length} 上测试',
    readout: '{encoding}，任务“{task}”（{steps} 步，种子 {seed}）：{list}。',
    readoutHere: '{encoding}，任务“{task}”，在本页训练（{steps} 步，种子 {seed}，训练长度 {length}）：{list}。',
    readItem: '长度 {length} 时，第一个计分位置的{metric}为 {first}，最后一个为 {last}',
    sep: '；',
    noticeEdge: '在所有测试长度上，位置 {before} 及以前的准确率都不低于 0.9；从位置 {first} 起，才有某个测试长度的准确率低于 0.9{collapse}。',
    collapse: '；从位置 {at} 起，有的低于 0.5',
    noticeLate: '往前 {edge} 到 {before} 个位置的 key 在训练中同样没出现过，对它的影响却很小。',
    noticeEarly: '位置 {edge} 是超出训练长度的第一个位置：从那里起，每个位置对这个模型来说都是新的。',
    noticeNever: '这个模型没有学会这个任务：即使在位置 {edge} 之前，准确率也只有 {inside}。',
    noticeHolds: '直到训练长度的 {multiple}×，每个位置的准确率都不低于 0.9（位置 {edge} 起为 {outside}）。',
    noticeCopy: '沿着答案，准确率从第一个复制的 token 到最后一个逐渐下降：1× 时从 {first1} 降到 {last1}，2× 时从 {first2} 降到 {last2}。',
    how: '每个点是测试序列中的一个位置（每个长度 128 条新序列），模型是上面实验台上用种子 1 训练的那个：该位置上的 token 预测正确的序列所占的比例，或该位置上的平均损失。只画带答案的位置：“重复往前第 2 个 token”任务从位置 2 开始，复制任务画后一半。图下的文字以准确率 0.9 为界，低于实验台上“准确率随测试长度变化”那张图判定“做对”所用的 0.95，因为每个位置的准确率只基于 128 条序列。在上面按“训练”之后，这张图改为显示那次训练的结果。',
  },
});


/** Mean accuracy of the positions of one evaluation below `edge` and from it on (NaN for none). */
function split(e, edge) {
  const mean = (ps) => ps.reduce((a, q) => a + q.accuracy, 0) / ps.length;
  return [mean(e.positions.filter((q) => q.position < edge)), mean(e.positions.filter((q) => q.position >= edge))];
}

const COLUMNS = ['length', 'position', 'accuracy', 'loss'];
const heads = () => colHeads([COL.length, COL.position, M.colAccuracy, M.colLoss]);

// The readout's bar: an accuracy of 0.9 or more (a position's accuracy is over 128 sequences, so looser than
// the 0.95 the length chart calls right); collapsed: below half.
const RIGHT = 0.9, COLLAPSED = 0.5;

/** The first position at which some test length is right less than `below` of the time (Infinity for none). */
function firstWrong(evaluation, below = RIGHT) {
  return Math.min(...evaluation.map((e) => e.positions.find((q) => q.accuracy < below)?.position ?? Infinity));
}

/**
 * What to notice: for the offset task, up to which position the model stays right at every
 * length, from which on it is right less than half the time, and whether it fails right past the
 * training length (new positions) or later (far keys); for copy, the first and last answer
 * tokens at 1× and 2×.
 */
function notice(task, evaluation, edge) {
  const acc = (e, k) => e.positions.at(k).accuracy.toFixed(2);
  if (task === 'copy') {
    const [a, b] = evaluation;
    return M.noticeCopy.format({ first1: acc(a, 0), last1: acc(a, -1), first2: acc(b, 0), last2: acc(b, -1) });
  }
  const [inside] = split(evaluation[0], edge);
  if (!(inside >= RIGHT)) return M.noticeNever.format({ edge, inside: inside.toFixed(2) });
  const first = firstWrong(evaluation);
  if (first === Infinity) {
    const last = evaluation.length - 1;
    return M.noticeHolds.format({ multiple: evaluation[last].length / evaluation[0].length, edge, outside: split(evaluation[last], edge)[1].toFixed(2) });
  }
  const before = first - 1, at = firstWrong(evaluation, COLLAPSED);
  const collapse = at > first && at < Infinity ? M.collapse.format({ at }) : '';
  return M.noticeEdge.format({ before, first, collapse }) + (first > edge ? M.noticeLate : M.noticeEarly).format({ edge, before, first });
}

export default {
  kind: 'lab-positions',
  messages: M,
  title: M.title,
  params: [
    taskParam('kback'),
    encodingParam('rope'),
    { name: 'metric', label: M.metric, type: 'select', options: ['accuracy', 'loss'], value: 'accuracy', optionLabels: { accuracy: M.accuracy, loss: M.loss } },
  ],
  mount(el, { Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.accuracy, aspect: 2 });
    chart.options.plugins.legend = lineLegend;
    const pts = pointArrays();
    const stop = onTrained(() => refresh(el));
    const file = fileResults(el);
    const view = {
      update({ task, encoding, metric }) {
        chart.options.scales.y.title.text = () => String(M[metric]);
        Object.assign(chart.options.scales.y, metric === 'accuracy' ? { min: 0, max: 1 } : { min: 0, max: undefined });
        if (!file.results) return awaitResults(file, view, () => chart.update(), COLUMNS, heads());
        const { evaluation, trained } = labDetails(file.results, task, encoding);
        chart.data.datasets = evaluation.map((e, i) => ({
          label: M.line.format({ length: e.length }), data: pts(i, e.positions.length, (n) => e.positions[n][metric], (n) => e.positions[n].position),
          borderColor: palette[i], borderDash: dashes[i], borderWidth: 1.75,
        }));
        chart.update();
        const o = trained ?? DEFAULT_RUN.train;
        view.notice = notice(task, evaluation, o.trainLength);
        view.readout = (trained ? M.readoutHere : M.readout).format({
          encoding: String(LAB[encoding]), task: String(LAB[task]), steps: o.steps, seed: o.seed, length: o.trainLength,
          list: evaluation.map((e) => M.readItem.format({
            length: e.length, metric: String(M[metric]), first: sig(e.positions[0][metric], 3), last: sig(e.positions.at(-1)[metric], 3),
          })).join(String(M.sep)),
        });
        return { columns: COLUMNS, heads: heads(), rows: evaluation.flatMap((e) => e.positions.map((p) => [e.length, p.position, p.accuracy, p.loss])) };
      },
      destroy: () => (stop(), chart.destroy()),
    };
    return view;
  },
};
