// lab-attention.js: what a tiny model trained at length 16 attends to, at 1× and at 4× that
// length: the last layer's attention, averaged over heads, for one example of the task, for one
// encoding of the lab's default run (web/lab/results.json; each weight stored to 10 bits), or of the
// latest run trained on this page.
import { plainCanvas, viridis, fillCells, drawCells, drawColourBar, refresh, textScale, COL, colHeads } from './common.js';
import { messages, cjkSpacing } from '../host/i18n.js';
import { labDetails, onTrained } from '../lab/run.js';
import { LAB, taskParam, encodingParam, ENCODING_NAMES, fileResults, awaitResults } from './shared/lab.js';

const M = messages({
  en: {
    colMultiple: 'multiple of training length',
    title: 'What the model attends to: last layer, heads averaged; one encoding at 1× and 4× the training length, or every encoding at 1×',
    heatmap: 'Attention maps of the lab model at the training length and at four times it',
    panel: '{multiple}×: {length} tokens',
    query: 'query position',
    key: 'key position',
    readout: '{encoding} on “{task}”: the weight on the key the task needs (2 places back, or the matching copy position), averaged over queries: {list}.',
    noticeFar: 'At {multiple}×, queries from position {edge} on give {far} of their weight to keys {edge} or more places back, distances training never showed{stripes}. The brightest stripe is the keys {peak} places back, which a query has only from position {peak} on. These queries give {target} to the key the task needs; averaged over every query from position 2 on, those before {edge} included, the weight on it is {all}.',
    stripes: ', in stripes at keys {list} places back',
    range: '{from}–{to}',
    listSep: ', ',
    listLast: ' and ',
    noticeSpread: 'Even at the training length this model spreads its attention: only {target} of the weight lands on the key the task needs.',
    noticeFalls: 'The weight on the key the task needs falls from {t1} at 1× to {t4} at 4×.',
    noticeAll: 'At the training length, {best} puts the most weight on the key the task needs ({bestValue}), {worst} the least ({worstValue}).',
    noticeTie: 'At the training length, {best} tie for the most weight on the key the task needs ({bestValue}); the least, {worstValue}, goes to {worst}.',
    how: 'One input of the task, at the training length and at 4× it (with every encoding shown, at the training length only), goes through the lab model trained with seed 1; each cell is the weight a query (row) gives a key (column) in the last layer, averaged over the 4 heads (0 to 1; keys after the query are masked, blank). The pictures are stored finely enough that Train above at the default settings gives the same figures. The readout averages over the queries that have a needed key. After you press Train above, this chart shows that run instead.',
    readItem: '{multiple}× {value}',
    sep: ', ',
    readoutAll: 'One input of “{task}” at the training length, every encoding: the weight on the key the task needs, averaged over queries: {list}.',
    readItemAll: '{name} {value}',
    here: ' (Trained on this page: {steps} steps, seed {seed}, training length {length}.)',
  },
  zh: {
    colMultiple: '训练长度的倍数',
    title: '模型在关注什么：最后一层、各头平均；单个编码看训练长度的 1× 与 4×，全部编码只看 1×',
    heatmap: '实验台模型在训练长度及其四倍长度上的注意力图',
    panel: '{multiple}×：{length} 个 token',
    query: 'query 位置',
    key: 'key 位置',
    readout: '{encoding}，任务“{task}”：任务所需的 key（往前第 2 个，或复制时对应的位置）上的权重，在各 query 上的平均：{list}。',
    noticeFar: '在 {multiple}× 时，位置 {edge} 及以后的 query 把 {far} 的权重给了往前 {edge} 个位置及更远的 key（训练中从未出现过的距离）{stripes}。最亮的条纹是往前 {peak} 个位置的 key，只有位置 {peak} 及以后的 query 才有这样的 key。这些 query 放在任务所需的 key 上的权重平均为 {target}；若对位置 2 起的所有 query 取平均（位置 {edge} 之前的也算在内），则为 {all}。',
    stripes: '，集中在往前 {list} 个位置的几条条纹上',
    range: '{from}–{to}',
    listSep: '、',
    listLast: ' 和 ',
    noticeSpread: '即使在训练长度上，这个模型的注意力也是分散的：只有 {target} 的权重落在任务所需的 key 上。',
    noticeFalls: '任务所需的 key 上的权重从 1× 时的 {t1} 降到 4× 时的 {t4}。',
    noticeAll: '在训练长度上，{best} 放在任务所需的 key 上的权重最多（{bestValue}），{worst} 最少（{worstValue}）。',
    noticeTie: '在训练长度上，{best} 并列第一，放在任务所需的 key 上的权重都是 {bestValue}；{worst} 最少，为 {worstValue}。',
    how: '把该任务的一个输入（训练长度，以及它的 4 倍；显示全部编码时只用训练长度）送进用种子 1 训练的实验台模型；每个格子是最后一层中某个 query（行）给某个 key（列）的权重，在 4 个头上取平均（0 到 1；query 之后的 key 被掩码遮住，留空）。图的存储精度足够高，在上面用默认设置按“训练”，得到的数字与这里相同。图下的平均值只在有所需 key 的 query 上计算。在上面按“训练”之后，这张图改为显示那次训练的结果。',
    readItem: '{multiple}× 为 {value}',
    sep: '，',
    readoutAll: '任务“{task}”的同一个输入，在训练长度上，各种编码：任务所需的 key 上的权重，在各 query 上的平均：{list}。',
    readItemAll: '{name} 为 {value}',
    here: '（在本页训练：{steps} 步，种子 {seed}，训练长度 {length}。）',
  },
});


/** The key a query should attend to for the task: 2 back (k-back), or the matching input token (copy). */
function target(task, i, T) {
  if (task === 'kback') return i - 2 >= 0 ? i - 2 : -1; // the lab's k = 3: the token at i + 1 - k, 2 places back
  const n = (T - 1) / 2; // BOS x1..xn SEP x1..x(n-1) (T = 2n + 1): query SEP + j predicts x_{j+1}, at key j + 1
  return i >= n + 1 ? i - n : -1;
}

/**
 * The mean weight that queries past the first picture's length give to keys at least that far
 * back (distances the training length never showed), in picture `a`.
 */
function farWeight(a, edge) {
  let s = 0, n = 0;
  for (let i = edge; i < a.length; i++, n++) for (let j = 0; j <= i - edge; j++) s += a.weights[i * a.length + j];
  return n ? s / n : NaN;
}

/** The mean weight the keys d places back get from the queries that have one, in picture `a`. */
function atDistance(a, d) {
  let s = 0, n = 0;
  for (let i = d; i < a.length; i++, n++) s += a.weights[i * a.length + i - d];
  return s / n;
}

/** The distance at least `edge` whose keys get the largest mean weight, in picture `a`. */
function brightest(a, edge) {
  let best = edge, most = -1;
  for (let d = edge; d < a.length; d++) {
    const w = atDistance(a, d);
    if (w > most) (most = w), (best = d);
  }
  return best;
}

// A stripe: a distance past the training length whose keys get 0.05 of the weight or more, on
// average over the queries that have one.
const STRIPE = 0.05;

/** The distances at least `edge` that hold a stripe in picture `a`, runs of neighbours joined: '40, 46, 52–53 and 59'. */
function stripes(a, edge) {
  const runs = [];
  for (let d = edge; d < a.length; d++) {
    if (atDistance(a, d) < STRIPE) continue;
    if (runs.at(-1)?.[1] === d - 1) runs.at(-1)[1] = d;
    else runs.push([d, d]);
  }
  const names = runs.map(([from, to]) => (from === to ? String(from) : M.range.format({ from, to })));
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(String(M.listSep))}${M.listLast}${names.at(-1)}`;
}

const COLUMNS = ['encoding', 'multiple', 'query', 'key', 'weight'];
const heads = () => colHeads([COL.encoding, M.colMultiple, COL.query, COL.key, COL.weight]);

/** What to notice: where the weight goes past the training length, or which encoding finds the key. */
function notice(task, all, attention, hits, value) {
  if (all) {
    const order = hits.map((h, k) => k).filter((k) => !Number.isNaN(hits[k])).sort((p, q) => hits[q] - hits[p]);
    const [b, w] = [order[0], order.at(-1)];
    // a tie as the reader sees it, at two decimals: every encoding at the top (or bottom) is named,
    // in the lab's order (the digits that would rank them are not shown)
    const named = (v) => attention.map((a, k) => k).filter((k) => value(k) === v).map((k) => String(LAB[attention[k].name]));
    const say = (n) => (n.length < 2 ? n.join('') : `${n.slice(0, -1).join(String(M.listSep))}${M.listLast}${n.at(-1)}`);
    const top = named(value(b));
    return (top.length > 1 ? M.noticeTie : M.noticeAll).format({ best: say(top), bestValue: value(b), worst: say(named(value(w))), worstValue: value(w) });
  }
  if (hits[0] < 0.5) return M.noticeSpread.format({ target: value(0) });
  if (task === 'kback') {
    const edge = attention[0].length, a = attention[1];
    let s = 0, n = 0;
    for (let i = edge; i < a.length; i++) (s += a.weights[i * a.length + i - 2]), n++;
    const list = stripes(a, edge);
    return M.noticeFar.format({ multiple: a.multiple, edge, far: farWeight(a, edge).toFixed(2), target: (s / n).toFixed(2), peak: brightest(a, edge),
      stripes: list ? M.stripes.format({ list }) : '', all: value(1) });
  }
  return M.noticeFalls.format({ t1: value(0), t4: value(1) });
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
    const stop = onTrained(() => refresh(el));
    const file = fileResults(el);
    const view = {
      update({ task, encoding }) {
        if (!file.results) return awaitResults(file, view, () => paint(() => {}), COLUMNS, heads());
        // one encoding at 1× and 4×, or every encoding at 1× (the same input for all)
        const all = encoding === 'all';
        const details = all ? ENCODING_NAMES.map((e) => labDetails(file.results, task, e)) : [labDetails(file.results, task, encoding)];
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
          // room for the labels, grown with the text (lettering.js)
          const k = textScale(), left = 50 * k, top = 24 * k, under = 56 * k;
          // as many maps a row as makes them largest: side by side on a wide screen, one above the
          // other in a phone's tall box (style.css), where side by side they would be 85 px
          const gap = 40 * k, n = attention.length;
          const fit = (cols) => {
            const rows = Math.ceil(n / cols);
            return Math.min((w - left - 70 * k - (cols - 1) * gap) / cols, (h - 60 * k * rows) / rows);
          };
          let cols = 1;
          for (let c = 2; c <= n; c++) if (fit(c) > fit(cols)) cols = c;
          const size = fit(cols);
          attention.forEach((a, k) => {
            fillCells(images[k], a.length, a.length, viridis, (c, r) => (c > r ? -1 : Math.min(255, Math.round(a.weights[r * a.length + c] * 255))));
            const col = k % cols, row = Math.floor(k / cols);
            const plot = { x: left + col * (size + gap), y: top + row * (size + under), w: size, h: size };
            drawCells(ctx, images[k], plot, {
              title: all ? String(LAB[a.name]) : M.panel.format({ multiple: a.multiple, length: a.length }),
              xTicks: [[0, '0'], [1, String(a.length - 1)]], yTicks: [[0, '0'], [1, String(a.length - 1)]],
              xTitle: String(M.key), yTitle: col === 0 ? String(M.query) : '',
            });
          });
          drawColourBar(ctx, viridis, { x: left + cols * (size + gap) - gap + 16 * k, y: top, w: 12, h: size }, [[0, '1'], [0.5, '0.5'], [1, '0']]);
        });
        const value = (k) => (Number.isNaN(hits[k]) ? '–' : hits[k].toFixed(2));
        view.notice = cjkSpacing(notice(task, all, attention, hits, value));
        view.readout = all
          ? cjkSpacing(M.readoutAll.format({ task: String(LAB[task]), list: attention.map((a, k) => M.readItemAll.format({ name: String(LAB[a.name]), value: value(k) })).join(String(M.sep)) }))
          : M.readout.format({
            encoding: String(LAB[encoding]), task: String(LAB[task]),
            list: attention.map((a, k) => M.readItem.format({ multiple: a.multiple, value: value(k) })).join(String(M.sep)),
          });
        if (trained) view.readout += M.here.format({ steps: trained.steps, seed: trained.seed, length: trained.trainLength });
        const rows = [];
        for (const a of attention) for (let i = 0; i < a.length; i++) for (let j = 0; j <= i; j++) rows.push([a.name ?? encoding, a.multiple, i, j, a.weights[i * a.length + j]]);
        return { cellText: { encoding: Object.fromEntries(attention.map((a) => [a.name ?? encoding, String(LAB[a.name ?? encoding])])) }, columns: COLUMNS, heads: heads(), rows };
      },
      destroy: () => (stop(), destroy()),
    };
    return view;
  },
};
