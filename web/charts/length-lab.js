// length-lab.js: does the encoding matter? Tiny transformers trained with each position encoding
// (pe.train, the lab in the same WASM module), tested at 1×, 2×, 4× and 8× their training length:
// accuracy against test length per encoding, RoPE also scaled at evaluation (PI, NTK, YaRN). At
// the default steps and seed the chart shows web/lab/results.json (made by `npm run lab` with the
// same code) as soon as it has come; other settings train on the reader's machine when they press
// Train: in a pool of Web Workers, one per core (web/lab/pool.js), where the page can start them,
// else in slices on the page, with live loss curves and Cancel.
import { lineChart, lineLegend, sig, requestRedraw, pointArrays, COL, colHeads } from './common.js';
import { messages, cjkSpacing } from '../host/i18n.js';
import { SCALINGS, MULTIPLES, TRAIN_LENGTH, trainAll, decodeSeeds, publishTrained, evaluationsOf } from '../lab/run.js';
import { trainPool, poolSize } from '../lab/pool.js';
import { timeLeft } from '../lab/estimate.js';
import { LAB_DEFAULTS } from '../lib/lab.js';
import { DEFAULT_RUN } from '../lab/default-run.js';
import { LAB, taskParam, ENCODING_NAMES, acrossSeeds, seedBand, lineLook, coveredBy, fileResults, awaitResults } from './shared/lab.js';

const DEFAULT_STEPS = DEFAULT_RUN.train.steps, DEFAULT_SEED = DEFAULT_RUN.train.seed;
const SLICE_MS = 25; // a time-sliced page yields after this long: no task near 50 ms
const SCALING_NAMES = { pi: 'PI', ntk: 'NTK', yarn: 'YaRN' };
/** A run's name as the chart shows it: 'RoPE', or 'RoPE + YaRN'. */
const runName = (encoding, scaling) => (scaling ? M.withScaling.format({ name: String(LAB[encoding]), scaling: SCALING_NAMES[scaling] }) : String(LAB[encoding]));

const M = messages({
  en: {
    title: 'Accuracy against test length: tiny transformers trained with each position encoding, tested at 1× to 8× their training length',
    metric: 'accuracy',
    token: 'per token',
    sequence: 'whole sequence',
    encoding: 'encodings',
    every: 'every one',
    trainLength: 'training length',
    dModel: 'd_model',
    layers: 'layers',
    steps: 'training steps',
    seed: 'seed',
    xTitle: 'test length (tokens of the task; trained up to {length})',
    yTitle: 'accuracy',
    lossTitle: 'training loss',
    lossX: 'training step',
    lossFile: 'Below: the loss of each model above on its training batch, every 5th step, for seed {seed} alone, the only seed whose losses are stored.',
    lossOwn: 'Below: the loss of each model trained here on its training batch, every 5th step, seed {seed}.',
    lossLive: 'Below: the loss of each model training now on its training batch, seed {seed}, a point after every slice of steps.',
    lossWhy: ' Each step draws its batch at a new length, so the loss jumps from step to step.',
    train: 'Train',
    cancel: 'Cancel',
    shown: 'Shown: the default run, trained ahead of time ({steps} steps, seeds {seeds}: each line is their mean, its band their range).',
    shownOwn: 'Shown: trained here, {steps} steps, seed {seed}{where}.',
    oneSeed: ' That is one seed; the text quotes the mean of seeds {seeds}, drawn before Train, so its figures can differ from these.',
    drawnDefault: 'drawn: the default run, trained ahead of time (training length {length}, {steps} steps, the mean and range of seeds {seeds})',
    inWorker: ', in a Web Worker',
    inWorkers: ', in {workers} Web Workers at once',
    inSlices: ', in slices on this page (no Worker here)',
    pressTrain: 'Press Train to train with these settings (every encoding at the default size takes about half a minute on one core, less on several); shown meanwhile: the default run.',
    progress: 'Training {name} ({index} of {count}), step {step} of {steps}…',
    progressPool: 'Training in {workers} Web Workers, {done} of {count} done: {list}…',
    progressWorker: 'Training in a Web Worker, {done} of {count} done: {list}…',
    progressItem: '{name} step {step} of {steps}',
    progressEvaluating: '{name} evaluating',
    elapsed: ' {elapsed} so far.',
    elapsedLeft: ' {elapsed} so far, about {left} left.',
    seconds: '{s} s',
    minutes: '{m} min {s} s',
    wholeMinutes: '{m} min',
    cancelled: 'Cancelled.',
    failed: 'Training failed: {message}',
    readout: 'Task “{task}”, {metric} accuracy at 1× / 2× / 4× / 8× the training length: {list}.',
    readItem: '{name} {values}',
    sep: '; ',
    withScaling: '{name} + {scaling}',
    noticeRight: 'Right (0.95 or more) at the training length: {right1}{same}. Still right at 2×: {right2}; at 4×: {right4}.',
    sameAt1: ' (RoPE\'s scaled lines are RoPE itself there: at 1× their factor is 1)',
    noticeWeak: 'No encoding has learned this task at the training length: the best gets {value} ({best}). {at2}',
    best2: 'At 2× the best gets {value2} ({best2}).',
    zero2: 'At 2× every accuracy is 0.',
    noticeZero: 'No encoding gets any of this task right at the training length: every accuracy is 0.',
    nobody: 'none',
    nameSep: ', ',
    how: 'Each model is a decoder-only transformer (2 layers, d_model 32, 4 heads of width 8, batch 32, AdamW, its learning rate raised linearly to 0.003 over the first 100 steps (a warm-up), then held), trained by the page\'s own WebAssembly code on sequences of up to 16 tokens of the task (a new length each step), then scored on 128 fresh sequences at each test length. RoPE\'s scaled lines reuse the RoPE model and only change its angles at evaluation (factor = the multiple). The default run (seeds 1, 2, 3) was trained ahead of time with the same code by npm run lab and is stored with the page; Train trains on your machine in Web Workers (background threads), one per core and each encoding in one of them, or in short slices on the page where there are none.',
  },
  zh: {
    title: '准确率随测试长度的变化：用各种位置编码训练的小 Transformer，在训练长度的 1× 到 8× 上测试',
    metric: '准确率',
    token: '按 token',
    sequence: '整条序列',
    encoding: '编码',
    every: '全部',
    trainLength: '训练长度',
    dModel: 'd_model',
    layers: '层数',
    steps: '训练步数',
    seed: '种子',
    xTitle: '测试长度（任务的 token 数；训练时最长 {length}）',
    yTitle: '准确率',
    lossTitle: '训练损失',
    lossX: '训练步数',
    lossFile: '下图是上面各模型在训练批上的损失，每 5 步画一个点。只画了种子 {seed}，因为只保存了它的损失。',
    lossOwn: '下图是在这里训练的各模型在训练批上的损失，每 5 步画一个点，种子 {seed}。',
    lossLive: '下图是正在训练的各模型在训练批上的损失，种子 {seed}，每训练一小段画一个点。',
    lossWhy: '每一步的那批序列都换一个随机长度，所以曲线上下跳动。',
    train: '训练',
    cancel: '取消',
    shown: '当前显示：预先训练好的默认结果（{steps} 步，种子 {seeds}：每条线是它们的平均值，色带是它们的范围）。',
    shownOwn: '当前显示：在这里训练的结果，{steps} 步，种子 {seed}{where}。',
    oneSeed: '这只是一个种子的结果；正文引用的是种子 {seeds} 的平均值，也就是按“训练”之前图中画的曲线，所以数字可能与这里不同。',
    drawnDefault: '图中是预先训练好的默认结果（训练长度 {length}，{steps} 步，种子 {seeds} 的平均值与范围）',
    inWorker: '，在 Web Worker 中',
    inWorkers: '，同时在 {workers} 个 Web Worker 中',
    inSlices: '，在本页面上分片运行（这里没有 Worker）',
    pressTrain: '按“训练”即可用这些设置训练（默认大小下训练全部编码，单核大约需要半分钟，多核更快）；在此之前显示预先训练好的默认结果。',
    progress: '正在训练 {name}（第 {index} 个，共 {count} 个），第 {step} 步，共 {steps} 步……',
    progressPool: '正在用 {workers} 个 Web Worker 同时训练，已完成 {done} 个，共 {count} 个：{list}……',
    progressWorker: '正在一个 Web Worker 中训练，已完成 {done} 个，共 {count} 个：{list}……',
    progressItem: '{name} 第 {step} 步，共 {steps} 步',
    progressEvaluating: '{name} 评估中',
    elapsed: '已用 {elapsed}。',
    elapsedLeft: '已用 {elapsed}，大约还需 {left}。',
    seconds: '{s} 秒',
    minutes: '{m} 分 {s} 秒',
    wholeMinutes: '{m} 分钟',
    cancelled: '已取消。',
    failed: '训练失败：{message}',
    readout: '任务“{task}”，在训练长度的 1× / 2× / 4× / 8× 处的准确率（{metric}）：{list}。',
    readItem: '{name} {values}',
    sep: '；',
    withScaling: '{name} + {scaling}',
    noticeRight: '在训练长度上做对（准确率不低于 0.95）的：{right1}{same}。到 2× 仍然做对的：{right2}；到 4×：{right4}。',
    sameAt1: '（RoPE 的几条缩放曲线在这里就是 RoPE 本身：1× 处的缩放因子为 1）',
    noticeWeak: '在训练长度上没有哪种编码学会了这个任务：最好的也只有 {value}（{best}）。{at2}',
    best2: '到 2× 时最好的为 {value2}（{best2}）。',
    zero2: '到 2× 时准确率全都是 0。',
    noticeZero: '在训练长度上，没有哪种编码能做对这个任务的任何一部分：准确率全都是 0。',
    nobody: '没有',
    nameSep: '、',
    how: '每个模型都是纯解码器的 Transformer（2 层，d_model 32，4 个头，头维度 8，批大小 32，AdamW，学习率在前 100 步线性预热到 0.003，之后保持不变），由本页自己的 WebAssembly 代码在该任务最长 16 个 token 的序列上训练（每一步换一个长度），然后在每个测试长度上用 128 条新序列打分。RoPE 的几条缩放曲线沿用同一个 RoPE 模型，只在推理时改变它的角度（缩放因子等于倍数）。默认结果（种子 1、2、3）由同一份代码通过 npm run lab 预先训练好，随页面一起提供；按“训练”会在你的机器上训练：有 Web Worker（后台线程）时每个核一个，各编码分到其中并行训练；没有时在页面上分成小段进行。',
  },
});

/**
 * What to notice in `lines` ([encoding, scaling, per-multiple means]): which lines are right
 * (0.95 or more) at 1×, 2× and 4×; or, when none is right at 1×, the best at 1× and at 2× (every
 * line that ties for it, and none when the best is 0).
 */
function notice(lines, field) {
  const RIGHT = 0.95;
  const names = (n, plainOnly) => {
    const list = lines.filter(([, s, ev]) => !(plainOnly && s) && ev[n]?.[field] >= RIGHT).map(([enc, s]) => runName(enc, s));
    return list.length ? list.join(String(M.nameSep)) : String(M.nobody);
  };
  const top = (n) => Math.max(0, ...lines.map((l) => l[2][n]?.[field] ?? 0));
  // a tie is a tie at the two digits shown, in every view: two lines that both read 0.88 are both
  // named, not only the one ahead in the third digit.
  // At 1× every scaling is the identity, so a scaled line ties with its plain one: name the plain one
  const tied = (n) => lines.filter(([, s, ev]) => !(n === 0 && s) && ev[n] && sig(ev[n][field], 2) === sig(top(n), 2)).map(([enc, s]) => runName(enc, s)).join(String(M.nameSep));
  // (the scaled lines are left out at 1×, where each is its plain line: say so where they are drawn)
  const same = lines.some(([, s]) => s) ? String(M.sameAt1) : '';
  if (top(0) >= RIGHT) return M.noticeRight.format({ right1: names(0, true), same, right2: names(1), right4: names(2) });
  if (top(0) === 0) return M.noticeZero.format();
  const at2 = top(1) ? M.best2.format({ best2: tied(1), value2: sig(top(1), 2) }) : M.zero2.format();
  return M.noticeWeak.format({ best: tied(0), value: sig(top(0), 2), at2 });
}

/**
 * A duration as the status says it: '42 s', '1 min 5 s'; an estimate rounded to what it can
 * promise (5 s under a minute, 10 s under ten minutes, whole minutes beyond).
 */
function duration(ms, estimate = false) {
  let s = Math.round(ms / 1000);
  if (estimate) s = s < 60 ? 5 * Math.max(1, Math.ceil(s / 5)) : s < 600 ? 10 * Math.round(s / 10) : 60 * Math.round(s / 60);
  if (s < 60) return M.seconds.format({ s });
  return s % 60 ? M.minutes.format({ m: Math.floor(s / 60), s: s % 60 }) : M.wholeMinutes.format({ m: s / 60 });
}

/** Whether training can run in module Workers here (not file://; the single-file build has no worker file, found at the start). */
const canStartWorkers = () => typeof Worker === 'function' && location.protocol !== 'file:';
const startWorker = () => new Worker(new URL('../lab/worker.js', import.meta.url), { type: 'module' });

export default {
  kind: 'length-lab',
  messages: M,
  title: M.title,
  params: [
    taskParam('kback'),
    { name: 'metric', label: M.metric, type: 'select', options: ['token', 'sequence'], value: 'token', optionLabels: { token: M.token, sequence: M.sequence } },
    { name: 'encoding', label: M.encoding, type: 'select', options: ['all', ...ENCODING_NAMES], value: 'all',
      optionLabels: { all: M.every, ...Object.fromEntries(ENCODING_NAMES.map((n) => [n, LAB[n]])) } },
    { name: 'trainLength', label: M.trainLength, type: 'int', min: 4, max: 32, step: 4, value: TRAIN_LENGTH, trains: true },
    { name: 'dModel', label: M.dModel, type: 'int', min: 16, max: 64, step: 16, value: LAB_DEFAULTS.dModel, trains: true },
    { name: 'layers', label: M.layers, type: 'int', min: 1, max: 4, value: LAB_DEFAULTS.layers, trains: true },
    { name: 'steps', label: M.steps, type: 'int', min: 50, max: 2000, step: 50, value: DEFAULT_STEPS, trains: true },
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 1000, value: DEFAULT_SEED, trains: true },
  ],
  mount(el, { pe, Chart }) {
    let shownLength = TRAIN_LENGTH; // the training length of the runs drawn
    // the axis title in the language of the moment (t() reads a message object by language)
    const xTitle = { get en() { return M.xTitle.format({ length: shownLength }); }, get zh() { return M.xTitle.format({ length: shownLength }); } };
    const chart = lineChart(el, Chart, { x: xTitle, y: M.yTitle, xType: 'logarithmic', aspect: 1.8 });
    chart.options.plugins.legend = lineLegend;
    chart.options.plugins.filler = { propagate: false }; // the seeds' bands
    // ten lines' legend: a taller box on phones; the task menu right under it (host/phone.js)
    chart.canvas.parentElement.classList.add('phone-legend', 'phone-control-after');
    chart.options.scales.x.afterBuildTicks = (axis) => (axis.ticks = MULTIPLES.map((m) => ({ value: m * shownLength })));
    chart.options.scales.x.ticks.callback = (v) => String(v);
    Object.assign(chart.options.scales.y, { min: 0, max: 1 });

    const panel = document.createElement('div');
    panel.className = 'lab-panel';
    const button = document.createElement('button');
    button.type = 'button';
    const status = document.createElement('p');
    status.className = 'chart-note';
    // what a screen reader hears: the status when it says something new (a run started or done, the
    // result), not the progress of every slice of steps, which comes many times a second
    const spoken = document.createElement('p');
    spoken.className = 'visually-hidden';
    spoken.setAttribute('role', 'status');
    let said = null;
    const speak = (text, mark = text) => mark !== said && ((said = mark), (spoken.textContent = text));
    panel.append(button, status, spoken);
    // what the loss chart says: whose losses, which seed
    const lossNote = document.createElement('p');
    lossNote.className = 'chart-note';
    el.append(panel, lossNote);
    const loss = lineChart(el, Chart, { x: M.lossX, y: M.lossTitle, aspect: 2.6 });
    // (a legend of its own: the scaled RoPE lines above share their run's one loss curve)
    loss.options.plugins.legend = lineLegend;
    loss.canvas.parentElement.classList.add('phone-legend');
    // the losses of the runs shown, every 5th step; a curve hidden under another is named so, as above
    const curve = (encoding, data, under = null) => ({ label: under ? LAB.under.format({ name: String(LAB[encoding]), other: String(LAB[under]) }) : String(LAB[encoding]),
      data, borderColor: lineLook(encoding).colour, borderWidth: 1.25, borderDash: [] });
    const lossCurves = (runs) => {
      const ys = runs.map((r) => Array.from({ length: Math.ceil(r.loss.length / 5) }, (_, n) => r.loss[5 * n]));
      const covered = coveredBy(ys, Math.max(...ys.flat()));
      return runs.map((r, j) => curve(r.encoding, ys[j].map((y, n) => ({ x: 5 * n + 1, y })), covered[j] < 0 ? null : runs[covered[j]].encoding));
    };
    Object.assign(loss.options.plugins, { decimation: false });
    const pts = pointArrays();

    const own = new Map(); // runs trained here, by their settings
    let job = null; // { key, stop() }
    let message = null;
    const key = (p, encoding = p.encoding) => `${p.task}/${encoding}/${p.trainLength}/${p.dModel}/${p.layers}/${p.steps}/${p.seed}`;
    const settings = (p) => ({ task: p.task, steps: p.steps, seed: p.seed, trainLength: p.trainLength, dModel: p.dModel, layers: p.layers,
      ...(p.encoding === 'all' ? {} : { encodings: [p.encoding] }) });
    let params = null;

    const finish = (runs, where, k, p) => {
      job = null;
      if (runs) (own.set(k, { runs, where }), (message = null), publishTrained(p.task, runs, settings(p)));
      requestRedraw(el);
    };
    // the live loss: a curve per run, its point after every slice of steps
    const live = new Map();
    // the time since Train and, once the runs have measured their speed, the time left (estimate.js):
    // said with every slice, and each second between (an evaluation says nothing for seconds)
    let started = 0, ticker = 0, say = null;
    const timing = (left, at) => {
      const now = performance.now(), elapsed = duration(now - started);
      return left === null ? M.elapsed.format({ elapsed }) : M.elapsedLeft.format({ elapsed, left: duration(left - (now - at), true) });
    };
    const progress = (p, text, mark, left) => {
      if (!live.has(p.encoding)) live.set(p.encoding, []);
      live.get(p.encoding).push({ x: p.step, y: p.lastLoss });
      const at = performance.now();
      say = () => (status.textContent = message = cjkSpacing(text + timing(left, at)));
      speak(say(), mark);
      loss.data.datasets = [...live].map(([encoding, data]) => curve(encoding, data));
      loss.update();
    };
    const tick = () => (job ? say?.() : (clearInterval(ticker), (ticker = 0)));
    const train = () => {
      const p = { ...params }, k = key(p);
      live.clear();
      (started = performance.now()), (say = null);
      ticker ||= setInterval(tick, 1000);
      lossNote.textContent = M.lossLive.format({ seed: p.seed }) + String(M.lossWhy);
      if (canStartWorkers()) pooled(p, k);
      else sliced(p, k);
      requestRedraw(el);
    };
    const pooled = (p, k) => {
      const pool = trainPool(settings(p), {
        spawn: startWorker, size: poolSize(ENCODING_NAMES.length, navigator.hardwareConcurrency),
        onProgress: (q) => progress(q, (q.workers > 1 ? M.progressPool : M.progressWorker).format({ ...q,
          list: q.active.map((a) => cjkSpacing((a.step < a.steps ? M.progressItem : M.progressEvaluating).format({ ...a, name: String(LAB[a.encoding]) })))
            .join(String(M.sep)) }), `${k} ${q.done}`, q.left),
      });
      job = { key: k, stop: pool.stop };
      pool.done.then((runs) => job?.key === k && finish(runs, pool.workers, k, p), (err) => {
        if (job?.key !== k) return;
        // workers that cannot start (a single-file build has no worker file): slices instead
        if (err.start && !live.size) sliced(p, k);
        else (message = M.failed.format({ message: err.message })), finish(null, null, k, p);
      });
    };
    const sliced = (p, k) => {
      let stop = false, last = performance.now();
      job = { key: k, stop: () => (stop = true) };
      trainAll(pe, settings(p), {
        slice: 5,
        cancelled: () => stop,
        pause: (q) => {
          if (performance.now() - last < SLICE_MS) return null;
          // one run at a time: this one, then the rest of the list
          const rest = (p.encoding === 'all' ? ENCODING_NAMES : [p.encoding]).slice(q.index + 1).map((e) => ({ steps: q.steps, evaluations: evaluationsOf(e) }));
          progress({ ...q, lastLoss: q.loss[q.loss.length - 1] }, M.progress.format({ ...q, name: String(LAB[q.encoding]), index: q.index + 1 }), `${k} ${q.index}`,
            timeLeft([{ ...q, evaluatingMs: 0 }, ...rest], 1));
          return new Promise((r) => setTimeout(r)).then(() => (last = performance.now()));
        },
      }).then((runs) => job?.key === k && finish(runs, 'slices', k, p),
        (err) => job?.key === k && ((message = M.failed.format({ message: err.message })), finish(null, null, k, p)));
    };
    button.addEventListener('click', () => {
      if (job) {
        job.stop();
        job = null;
        message = String(M.cancelled);
        requestRedraw(el);
      } else train();
    });

    const file = fileResults(el);
    // the file's runs of a task, one list per seed, decoded when first drawn
    const decoded = new Map();
    const fileSeeds = (task) => {
      if (!decoded.has(task)) decoded.set(task, decodeSeeds(file.results, task));
      return decoded.get(task);
    };
    const seedList = () => [DEFAULT_SEED, ...DEFAULT_RUN.seeds].join(String(M.nameSep));
    const view = {
      update(p) {
        params = p;
        const defaultRun = p.steps === DEFAULT_STEPS && p.trainLength === TRAIN_LENGTH && p.dModel === LAB_DEFAULTS.dModel && p.layers === LAB_DEFAULTS.layers;
        const isDefault = defaultRun && p.seed === DEFAULT_SEED;
        const mine = own.get(key(p)) ?? own.get(key(p, 'all')); // one encoding of an 'all' run is shown from it
        const chosen = (runs) => runs.filter((r) => p.encoding === 'all' || r.encoding === p.encoding);
        shownLength = mine ? p.trainLength : TRAIN_LENGTH;
        Object.assign(chart.options.scales.x, { min: shownLength * 0.9, max: shownLength * 8 * 1.1 });
        button.textContent = String(job ? M.cancel : M.train);
        const field = p.metric === 'token' ? 'tokenAccuracy' : 'sequenceAccuracy';
        const n = mine ? 1 : DEFAULT_RUN.seeds.length + 1;
        const columns = ['encoding', 'length', `${field} (mean over ${n} seeds)`, `${field} lowest`, `${field} highest`];
        const heads = colHeads([COL.encoding, COL.length, COL.mean.format({ field: COL[field], n }), COL.lowest.format({ field: COL[field] }), COL.highest.format({ field: COL[field] })]);
        // (Train works without the file: what it trains is drawn)
        if (!mine && !file.results) return awaitResults(file, view, () => (chart.update(), loss.update()), columns, heads);
        const seeds = (mine ? [mine.runs] : fileSeeds(p.task)).map(chosen); // one list of runs per seed
        const runs = seeds[0];
        if (!job) {
          // where: 'slices', or the number of workers
          const where = mine?.where === 'slices' ? String(M.inSlices) : mine?.where === 1 ? String(M.inWorker)
            : M.inWorkers.format({ workers: mine?.where });
          // a run of the default settings is one seed of the run the text quotes, the mean of three
          status.textContent = message ?? (mine ? M.shownOwn.format({ steps: p.steps, seed: p.seed, where }) + (defaultRun ? M.oneSeed.format({ seeds: seedList() }) : '')
            : isDefault ? M.shown.format({ steps: DEFAULT_STEPS, seeds: seedList() })
              : M.pressTrain.format());
          speak(status.textContent);
          message = null;
        }
        // an exported figure or a printed chart says what it draws when that is not what the controls say
        status.dataset.settingsNote = mine ? '' : M.drawnDefault.format({ length: TRAIN_LENGTH, steps: DEFAULT_STEPS, seeds: seedList() });
        // a line per encoding (and RoPE scaling): the mean over the seeds shown, per length; with
        // more than one seed, the band between their lowest and highest
        const lines = [];
        runs.forEach((r, i) => {
          if (!r) return;
          for (const s of [null, ...SCALINGS]) {
            if (s && !r.scaled?.[s]) continue;
            lines.push([r.encoding, s, acrossSeeds(seeds.map((rs) => (s ? rs[i].scaled[s] : rs[i].evaluation)), field)]);
          }
        });
        const band = seeds.length > 1;
        // a line drawn exactly under another (xPos under RoPE when copying) is named in the legend as hidden
        const covered = coveredBy(lines.map(([, , ev]) => ev.map((e) => e[field])));
        chart.data.datasets = lines.flatMap(([enc, s, ev], j) => {
          const { colour, dash } = lineLook(enc, { scaling: s }), name = runName(enc, s);
          const line = {
            label: covered[j] < 0 ? name : LAB.under.format({ name, other: runName(lines[covered[j]][0], lines[covered[j]][1]) }),
            data: pts(j, ev.length, (n) => ev[n][field], (n) => ev[n].length),
            borderColor: colour, borderDash: dash, borderWidth: s ? 1.5 : 2.25,
            pointRadius: 3, pointStyle: s ? 'triangle' : 'circle',
          };
          return band ? [line, ...seedBand(pts, j, ev, colour, s ? '14' : '26')] : [line];
        });
        chart.update();
        if (!job) {
          loss.data.datasets = lossCurves(runs);
          loss.update();
          lossNote.textContent = (mine ? M.lossOwn.format({ seed: p.seed }) : M.lossFile.format({ seed: DEFAULT_SEED })) + String(M.lossWhy);
        }
        view.notice = cjkSpacing(notice(lines, field));
        view.readout = cjkSpacing(M.readout.format({
          task: String(LAB[p.task]), metric: String(M[p.metric]),
          list: lines.map(([enc, s, ev]) => M.readItem.format({ name: runName(enc, s), values: ev.map((e) => sig(e[field], 2)).join(' / ') })).join(String(M.sep)),
        }));
        return {
          cellText: { encoding: Object.fromEntries(lines.map(([enc, s]) => [s ? `${enc} + ${s}` : enc, runName(enc, s)])) },
          columns, heads,
          rows: lines.flatMap(([enc, s, ev]) => ev.map((e) => [s ? `${enc} + ${s}` : enc, e.length, e[field], e.lo, e.hi])),
        };
      },
      destroy: () => (job?.stop(), clearInterval(ticker), chart.destroy(), loss.destroy()),
    };
    return view;
  },
};

