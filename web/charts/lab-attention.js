// lab-attention.js: what a tiny model trained at length 16 attends to, at 1× and at 4× that
// length: the last layer's attention, averaged over heads, for one example of the task, for one
// encoding of the lab's default run (web/lab/results.json; stored in sixteenths), or of the
// latest run trained on this page.
import { plainCanvas, viridis, fillCells, drawCells, drawColourBar, requestRedraw } from './common.js';
import { messages } from '../host/i18n.js';
import { labDetails, onTrained } from '../lab/run.js';
import { LAB, taskParam, encodingParam, ENCODING_NAMES } from './shared/lab.js';
import results from '../lab/results.json' with { type: 'json' };

const M = messages({
  en: {
    title: 'What the model attends to: last layer, heads averaged, at 1× and 4× the training length',
    heatmap: 'Attention maps of the lab model at the training length and at four times it',
    panel: '{multiple}×: {length} tokens',
    query: 'query position',
    key: 'key position',
    readout: '{encoding} on “{task}”: the largest weight on the key three places back (k-back) or on the matching copy position, averaged over queries: {list}.',
    readItem: '{multiple}× {value}',
    readoutAll: 'One input of “{task}” at the training length, every encoding: the weight on the key the task needs, averaged over queries: {list}.',
    readItemAll: '{name} {value}',
    here: ' (Trained on this page: {steps} steps, seed {seed}, training length {length}.)',
  },
  zh: {
    title: '模型在关注什么：最后一层、各头平均，在训练长度的 1× 与 4× 上',
    heatmap: '实验模型在训练长度及其四倍长度上的注意力图',
    panel: '{multiple}×：{length} 个 token',
    query: 'query 位置',
    key: 'key 位置',
    readout: '{encoding}，任务“{task}”：往前第三个 key（k-back）或对应复制位置上的权重，在各 query 上的平均：{list}。',
    readItem: '{multiple}× 为 {value}',
    readoutAll: '任务“{task}”的同一个输入，在训练长度上，各种编码：任务所需的 key 上的权重，在各 query 上的平均：{list}。',
    readItemAll: '{name} 为 {value}',
    here: '（在本页训练：{steps} 步，种子 {seed}，训练长度 {length}。）',
  },
});


/** The key a query should attend to for the task: 3 back (k-back), or the matching input token (copy). */
function target(task, i, T) {
  if (task === 'kback') return i - 2 >= 0 ? i - 2 : -1; // the token at i + 1 - k with k = 3, seen from i
  const n = (T - 1) / 2; // BOS x1..xn SEP x1..x(n-1) (T = 2n + 1): query SEP + j predicts x_{j+1}, at key j + 1
  return i >= n + 1 ? i - n : -1;
}

export default {
  kind: 'lab-attention',
  messages: M,
  title: M.title,
  params: [
    taskParam('kback'),
    encodingParam('rope', { all: true }),
  ],
  mount(el) {
    const { paint, destroy } = plainCanvas(el, 2.1, M.heatmap);
    const images = ENCODING_NAMES.map(() => document.createElement('canvas'));
    const stop = onTrained(() => requestRedraw(el));
    const view = {
      update({ task, encoding }) {
        // one encoding at 1× and 4×, or every encoding at 1× (the same input for all)
        const all = encoding === 'all';
        const details = all ? ENCODING_NAMES.map((e) => labDetails(results, task, e)) : [labDetails(results, task, encoding)];
        const attention = all ? details.map((d, k) => ({ ...d.attention[0], name: ENCODING_NAMES[k] })) : details[0].attention;
        const trained = details.every((d) => d.trained) ? details[0].trained : null;
        const hits = attention.map((a) => {
          let s = 0, n = 0;
          for (let i = 0; i < a.length; i++) {
            const j = target(task, i, a.length);
            if (j >= 0) (s += a.weights[i * a.length + j]), n++;
          }
          return n ? s / n : NaN;
        });
        paint((ctx, w, h) => {
          const cols = all ? 4 : 2, rows = Math.ceil(attention.length / cols), gap = 40;
          const size = Math.min((w - 120 - (cols - 1) * gap) / cols, (h - 60 * rows) / rows);
          attention.forEach((a, k) => {
            fillCells(images[k], a.length, a.length, viridis, (c, r) => (c > r ? -1 : Math.min(255, Math.round(a.weights[r * a.length + c] * 255))));
            const col = k % cols, row = Math.floor(k / cols);
            const plot = { x: 50 + col * (size + gap), y: 24 + row * (size + 56), w: size, h: size };
            drawCells(ctx, images[k], plot, {
              title: all ? String(LAB[a.name]) : M.panel.format({ multiple: a.multiple, length: a.length }),
              xTicks: [[0, '0'], [1, String(a.length - 1)]], yTicks: [[0, '0'], [1, String(a.length - 1)]],
              xTitle: String(M.key), yTitle: col === 0 ? String(M.query) : '',
            });
          });
          drawColourBar(ctx, viridis, { x: 50 + cols * (size + gap) - gap + 16, y: 24, w: 12, h: size }, [[0, '1'], [0.5, '0.5'], [1, '0']]);
        });
        const value = (k) => (Number.isNaN(hits[k]) ? '–' : hits[k].toFixed(2));
        view.readout = all
          ? M.readoutAll.format({ task: String(LAB[task]), list: attention.map((a, k) => M.readItemAll.format({ name: String(LAB[a.name]), value: value(k) })).join(', ') })
          : M.readout.format({
            encoding: String(LAB[encoding]), task: String(LAB[task]),
            list: attention.map((a, k) => M.readItem.format({ multiple: a.multiple, value: value(k) })).join(', '),
          });
        if (trained) view.readout += M.here.format({ steps: trained.steps, seed: trained.seed, length: trained.trainLength });
        const rows = [];
        for (const a of attention) for (let i = 0; i < a.length; i++) for (let j = 0; j <= i; j++) rows.push([a.name ?? encoding, a.multiple, i, j, a.weights[i * a.length + j]]);
        return { columns: ['encoding', 'multiple', 'query', 'key', 'weight'], rows };
      },
      destroy: () => (stop(), destroy()),
    };
    return view;
  },
};
