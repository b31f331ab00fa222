// lab-order.js: what a causal layer without a position encoding can tell about word order. One
// sequence and the same with two earlier tokens swapped go through the lab's model (pe.train,
// run.hidden); the chart plots, per position and depth, how far the two residual streams are
// apart, relative to the stream's norm.
import { lineChartWith, palette, dashes, lineLegend, logAxis, logTick, sig, ink, isDark, requestRedraw, chartFont, COL, colHeads } from './common.js';
import { messages, t } from '../host/i18n.js';
import { ENCODINGS } from '../lab/run.js';
import { LAB, encodingParam } from './shared/lab.js';

const M = messages({
  en: {
    colDepth: 'layers passed (0 = embedding)',
    colRelative: 'relative change |Δh|/|h|',
    title: 'Which order information survives without a position encoding (NoPE, causal mask)',
    steps: 'training steps',
    seed: 'seed',
    xTitle: 'position in the sequence (tokens)',
    yTitle: 'change of the residual stream, |Δh| / |h|',
    depth0: 'embedding',
    depth1: 'after the first layer',
    depth2: 'after the second layer',
    zero: '0 (identical)',
    rounding: 'float32 rounding (≤ 1e-6)',
    swapped: '← swapped →',
    readout: '{encoding}, {steps} training steps, seed {seed}: token ids {first} and {second} at positions {a} and {b} of a 24-token “{task}” input swapped. At the positions after {b}, after the first layer the stream moved by {l1} of its norm at most, after the second by {l2lo} to {l2hi}.',
    verdictSet: 'After position {b}, the first layer cannot tell the two orders apart (the same rows up to float32 rounding): each row sees the tokens up to itself as a set. The second layer can again, because it reads the rows between {a} and {b}, which differ.',
    verdictOrder: 'The first layer already tells the two orders apart after position {b}: the encoding gives it positions.',
    training: '{encoding}, seed {seed}: training {steps} steps…',
    how: 'One 24-token input of “repeat the token 2 places back” (seed 1) and the same input with the tokens at positions 2 and 6 swapped go through the lab model; each point is |Δh|/|h|, the distance between the two residual streams at that position and depth over the first one\'s norm. At 0 steps the model is freshly initialised from the seed; 100 or 400 steps train it here first, in short slices so the page stays responsive. Exact zeros are drawn at the bottom line; the shaded band is float32 rounding (sums taken in another order differ by about 1e-7).',
  },
  zh: {
    colDepth: '经过的层数（0 = 词嵌入）',
    colRelative: '相对变化 |Δh|/|h|',
    title: '没有位置编码时（NoPE，因果掩码）还剩下哪些顺序信息',
    steps: '训练步数',
    seed: '种子',
    xTitle: '序列中的位置（token）',
    yTitle: '残差流的变化 |Δh| / |h|',
    depth0: '词嵌入',
    depth1: '第一层之后',
    depth2: '第二层之后',
    zero: '0（完全相同）',
    rounding: 'float32 舍入（≤ 1e-6）',
    swapped: '← 互换 →',
    readout: '{encoding}，训练 {steps} 步，种子 {seed}：把一个 24 个 token 的“{task}”输入中位置 {a} 和 {b} 上 id 为 {first} 与 {second} 的两个 token 互换。在 {b} 之后的各位置，第一层之后的残差流最多变化了其范数的 {l1}，第二层之后变化了 {l2lo} 到 {l2hi}。',
    verdictSet: '在位置 {b} 之后，第一层分不清两种顺序（各行在 float32 舍入误差以内相同）：每一行都把到它为止的 token 看作一个集合。第二层又能区分，因为它读取了位置 {a} 到 {b} 之间的那些行，而那些行不同。',
    verdictOrder: '在位置 {b} 之后，第一层已经能区分两种顺序：位置编码给了它位置。',
    training: '{encoding}，种子 {seed}：正在训练 {steps} 步……',
    how: '把“重复往前第 2 个 token”任务的一个 24 个 token 的输入（种子 1），以及把其中位置 2 和 6 上的 token 互换后的输入，分别送进实验台模型；每个点是 |Δh|/|h|，即两个残差流在该位置、该深度上的距离除以第一个的范数。0 步时模型是用种子刚初始化的；选 100 或 400 步时先在这里训练，分成小段进行，页面保持流畅。恰好为 0 的值画在最下面那条线上；阴影带是 float32 舍入的范围（按另一种顺序求和会相差约 1e-7）。',
  },
});

const LENGTH = 24, A = 2, B = 6, EXAMPLE_SEED = 1;
// training runs in slices of about SLICE_MS, SLICE_STEPS steps at a time (a step of this model: ~2 ms)
const SLICE_MS = 8, SLICE_STEPS = 2;
// Exact zeros have no place on a log axis: they are drawn at FLOOR, whose tick reads "0".
const FLOOR = 1e-9, ROUNDING = 1e-6;
const DEPTHS = [M.depth0, M.depth1, M.depth2];

/** Relative distance between the two streams of `run` at each depth and position: [depth][position]. */
function distances(run) {
  const one = run.hidden({ length: LENGTH, seed: EXAMPLE_SEED });
  const tokens = Array.from(one.tokens);
  [tokens[A], tokens[B]] = [tokens[B], tokens[A]];
  const x = one.hidden, y = run.hidden(tokens).hidden, D = one.dModel, T = one.length;
  const out = Array.from({ length: one.layers + 1 }, (_, l) => Array.from({ length: T }, (_, p) => {
    let d = 0, n = 0;
    for (let j = (l * T + p) * D, end = j + D; j < end; j++) (d += (x[j] - y[j]) ** 2), (n += x[j] ** 2);
    return Math.sqrt(d / n);
  }));
  return { out, first: one.tokens[A], second: one.tokens[B] };
}

/** A new run of the lab's model with `encoding` on "kback" from `seed`, not trained yet. */
function untrained(pe, encoding, seed) {
  return pe.train({ task: 'kback', ...ENCODINGS.find((e) => e.encoding === encoding), steps: 0, seed });
}

/**
 * Trains `encoding` for `steps` steps from `seed` in slices of a few milliseconds, between which
 * the page stays responsive (a redraw never waits for training); done(result) gets distances()
 * of the trained run. Returns stop(), which ends it early (nothing is called then).
 */
function trainInSlices(pe, { encoding, steps, seed }, done) {
  const run = untrained(pe, encoding, seed);
  let timer = 0;
  const slice = () => {
    let more = false;
    try {
      const t0 = performance.now();
      while (run.steps < steps && performance.now() - t0 < SLICE_MS) run.step(Math.min(SLICE_STEPS, steps - run.steps));
      more = run.steps < steps;
      if (more) timer = setTimeout(slice);
      else done(distances(run));
    } finally {
      if (!more) run.free();
    }
  };
  timer = setTimeout(slice);
  return () => (clearTimeout(timer), run.free());
}

/** The float32 rounding band along the bottom and the swapped positions, drawn under the lines. */
const marks = {
  id: 'posencOrderMarks',
  beforeDatasetsDraw(chart) {
    const { ctx, chartArea: a, scales: { x, y } } = chart;
    const top = y.getPixelForValue(ROUNDING);
    ctx.save();
    ctx.fillStyle = isDark() ? 'rgba(170, 180, 200, 0.14)' : 'rgba(91, 100, 117, 0.14)';
    ctx.fillRect(a.left, top, a.right - a.left, a.bottom - top);
    ctx.font = chartFont('tick');
    ctx.fillStyle = ink().muted;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'bottom';
    ctx.fillText(t(M.rounding), a.right - 4, top - 2);
    ctx.strokeStyle = ink().muted;
    ctx.setLineDash([3, 3]);
    for (const p of [A, B]) {
      const px = x.getPixelForValue(p);
      ctx.beginPath();
      ctx.moveTo(px, a.top);
      ctx.lineTo(px, a.bottom);
      ctx.stroke();
    }
    // one label between the two lines: two would collide on a phone
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(t(M.swapped), (x.getPixelForValue(A) + x.getPixelForValue(B)) / 2, a.top + 2);
    ctx.restore();
  },
};

export default {
  kind: 'lab-order',
  messages: M,
  title: M.title,
  params: [
    encodingParam('none'),
    // a choice, not a slider: 400 steps take about a second, in slices between which the page goes on
    { name: 'steps', label: M.steps, type: 'select', options: ['0', '100', '400'], value: '0' },
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 1000, value: 1 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChartWith([marks], el, Chart, { x: M.xTitle, y: M.yTitle, yType: 'logarithmic', aspect: 2 });
    chart.options.plugins.legend = lineLegend;
    chart.canvas.parentElement.classList.add('phone-legend');
    Object.assign(chart.options.scales.y, logAxis, { min: FLOOR, max: 10 });
    // (exact zeros are drawn at the floor, whose tick reads 0)
    chart.options.scales.y.ticks = { ...logAxis.ticks, callback(v, i, ticks) {
      return v <= FLOOR ? t(M.zero) : logTick.call(this, v, i, ticks);
    } };
    Object.assign(chart.options.scales.x, { min: 0, max: LENGTH - 1 });
    let kept = null, job = null; // the drawn result and its key; the training under way, { key, stop }
    const view = {
      update({ encoding, steps, seed }) {
        const key = `${encoding} ${steps} ${seed}`;
        if (kept?.key !== key && job?.key !== key) {
          job?.stop();
          job = null;
          const settings = { encoding, steps: Number(steps), seed };
          if (settings.steps === 0) {
            const run = untrained(pe, encoding, seed);
            try {
              kept = { key, ...distances(run) };
            } finally {
              run.free();
            }
          } else {
            job = { key, stop: trainInSlices(pe, settings, (result) => ((kept = { key, ...result }), (job = null), requestRedraw(el))) };
          }
        }
        if (kept?.key !== key) {
          // training: the axes alone until it is done (the lines of other settings would mislead)
          chart.data.datasets = [];
          chart.update();
          view.notice = '';
          view.readout = M.training.format({ encoding: String(LAB[encoding]), steps, seed });
          return { columns: ['depth', 'position', 'relative distance'], heads: colHeads([M.colDepth, COL.position, M.colRelative]), rows: [] };
        }
        const { out, first, second } = kept;
        chart.data.datasets = out.map((row, l) => ({
          label: String(DEPTHS[l]), data: row.map((v, p) => ({ x: p, y: Math.max(v, FLOOR) })),
          borderColor: palette[l], borderDash: dashes[l], borderWidth: 1.75, pointRadius: 2.5, pointBackgroundColor: palette[l],
        }));
        chart.update();
        const after = (l) => out[l].slice(B + 1);
        const l1 = Math.max(...after(1)), l2 = after(2);
        view.notice = (l1 < ROUNDING ? M.verdictSet : M.verdictOrder).format({ a: A, b: B });
        view.readout = M.readout.format({
          encoding: String(LAB[encoding]), steps, seed, task: String(LAB.kback), first, second, a: A, b: B,
          l1: sig(l1, 2), l2lo: sig(Math.min(...l2), 2), l2hi: sig(Math.max(...l2), 2),
        });
        return { columns: ['depth', 'position', 'relative distance'], heads: colHeads([M.colDepth, COL.position, M.colRelative]), rows: out.flatMap((row, l) => row.map((v, p) => [l, p, v])) };
      },
      destroy: () => (job?.stop(), chart.destroy()),
    };
    return view;
  },
};
