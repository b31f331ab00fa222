// precision-lab.js: how far a RoPE cos/sin table built in a narrow type is from
// float64, position 1 to 10⁶. pe.ropeCache({ precision }) emulates each type step by step
// (position, inverse frequency, angle, output, each rounded to nearest-even); the float64
// truth is pe.sinusoidal(..., { precision: 'f64' }), posenc's own range-reduced float64 sin/cos
// (a different code path from the emulation's libm), so even the float64 curve is a comparison.
import { palette, lineLegend, sig, intGrid, canvasIn, pointLabels, ink, logAxis, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const MAX_POS = 1e6;
const SAMPLES = 160;
// An error of exactly 0 has no place on a log axis: it is drawn at the floor, 1e-17 for tables
// (float64's own differences are ~1e-15) and 1e-10 for scores (float32 arithmetic, ~1e-7).
const FLOORS = { table: 1e-17, score: 1e-10 };
const F16_MAX = 65504;

const M = messages({
  en: {
    colError: 'error, {name}',
    title: 'Error of a RoPE cos/sin table built in each type, against float64',
    titleScore: 'Error of the score q·k/√d when RoPE’s table is built in each type, against float64',
    dim: 'rotary dim d',
    base: 'base',
    measure: 'error of',
    seed: 'seed for q, k',
    f32: 'float32 table',
    bf16: 'bfloat16 table',
    f16: 'float16 table',
    early: 'θᵢ rounded to bfloat16, the rest float32',
    measureTable: 'cos/sin table',
    measureScore: 'score q·k/√d, k one position back',
    xTitle: 'position m (log scale)',
    yTitle: 'largest error over pairs (log scale)',
    yTable: 'largest absolute error of cos and sin over pairs (log scale)',
    yScore: '|Δ(q·k)|/√d, the error of the score (log scale)',
    stopsAt: '{label} (stops at {f16Max})',
    underFloor: '{label} (under 1e{exp} drawn at the bottom)',
    cases: 'reported cases, at their positions',
    aria: 'Log-log chart: {measure} error against position 1 to 10⁶ for float32, bfloat16, float16, ' +
      'θᵢ rounded early to bfloat16 and float64, with the reported cases marked',
    stop: 'float16 stops at position {f16Max}: past it the position or one of its angles does not fit a float16 (largest {f16Limit})',
    range: '{lo} to {hi}',
    readoutScore: 'With d = {dim} and k one position behind q, the score q·k/√d is off by up to {f16Past} in float16 past ' +
      'position 2048 and {bf16Past} in bfloat16 past 256, where neighbouring positions start to round together, ' +
      'but only by {spread} with θᵢ rounded early: q and k share the wrong θᵢ, and a score sees only their ' +
      'one-position difference; at 10⁶ float32 is off by {f32}, float64 tables by {f64}; {stop}.',
    readoutTable: 'With d = {dim}, the table is off by {f16Case} in float16 at position 1857, {bf16Case} in bfloat16 ' +
      'at 15962 and {earlyCase} at 4095 with θᵢ rounded to bfloat16 early; at 10⁶ float32 is off by ' +
      '{f32} and float64 by {f64}; {stop}.',
    noticeTable: 'Built in a 16-bit type, the table goes wrong as the position grows: bfloat16 is off by up to {bf16Worst} and float16 by up to {f16Worst} (2 is the most a cos or sin can be off). float32 drifts the same way, only far more slowly: at the positions drawn, its largest error is {f32Worst}.',
    noticeScore: 'Attention sees the loss too: past position 256 the bfloat16 score is off by up to {bf16Past}, while θᵢ rounded early costs at most {earlyWorst}, because q and k share it.',
    how: 'Each table is emulated step by step in its type: the position m, the frequency θᵢ, the angle m·θᵢ and the cos/sin output are each rounded to the nearest value of the type (ties to even), then compared with a float64 table computed by separate code. Positions: 160 log-spaced from 1 to 10⁶, plus the reported ones. In the score view q (at m) and k (at m − 1) are random vectors from the seed, rotated with the emulated table in float32 and scored against the float64 rotation. float16 stops at the last position whose value and angles fit below 65504. A curve joins its samples: between two of them the error can be larger than at either. The chart uses d = 32, not the running example\'s 128, because GPT-NeoX #1003 reported the float16 error at 1857 with that rotary dim. Rounding θᵢ to float16 keeps it within 0.05 % only while θᵢ ≥ 2^−14 ≈ 6.1×10^−5, as every θᵢ is at the defaults; below that float16 keeps fewer significant bits. At base 500000 and d = 128 that moves pairs 48 to 63 by up to 0.86 % (pair 62), at base 10⁷ by up to 12 %; bfloat16, whose range is float32\'s, keeps its 0.4 % at both.',
  },
  zh: {
    colError: '误差（{name}）',
    title: '用各种数值类型构建的 RoPE cos/sin 表相对 float64 的误差',
    titleScore: '用各种数值类型构建 RoPE 的表时，得分 q·k/√d 相对 float64 的误差',
    dim: '旋转维度 d',
    base: '底数 base',
    measure: '查看的误差',
    seed: 'q、k 的种子',
    f32: 'float32 表',
    bf16: 'bfloat16 表',
    f16: 'float16 表',
    early: 'θᵢ 先舍入为 bfloat16，其余用 float32',
    measureTable: 'cos/sin 表',
    measureScore: '得分 q·k/√d，k 落后一个位置',
    xTitle: '位置 m（对数坐标）',
    yTitle: '所有维度对中的最大误差（对数坐标）',
    yTable: '所有维度对中 cos、sin 的最大绝对误差（对数坐标）',
    yScore: '|Δ(q·k)|/√d，即得分的误差（对数坐标）',
    stopsAt: '{label}（止于 {f16Max}）',
    underFloor: '{label}（低于 1e{exp} 的画在底部）',
    cases: '已报告的案例，标在各自的位置上',
    aria: '双对数坐标图：{measure}的误差随位置 1 到 10⁶ 的变化，包括 float32、bfloat16、float16、' +
      '过早舍入为 bfloat16 的 θᵢ 以及 float64，并标出已报告的案例',
    stop: 'float16 止于位置 {f16Max}：再往后，位置本身或它的某个角度就放不进 float16 了（最大 {f16Limit}）',
    range: '{lo} 到 {hi}',
    readoutScore: 'd = {dim}，k 比 q 落后一个位置：在位置 2048 之后 float16 的得分 q·k/√d 最多偏差 {f16Past}，' +
      '在 256 之后 bfloat16 最多偏差 {bf16Past}，因为从那里开始相邻位置会被舍入成同一个数；' +
      '而 θᵢ 过早舍入时只偏差 {spread}：q 和 k 共用同一个有误差的 θᵢ，而得分只看到它们相差一个位置的部分；' +
      '在 10⁶ 处 float32 偏差 {f32}，float64 表偏差 {f64}；{stop}。',
    readoutTable: 'd = {dim} 时，float16 表在位置 1857 偏差 {f16Case}，bfloat16 表在 15962 偏差 {bf16Case}，' +
      'θᵢ 过早舍入为 bfloat16 时在 4095 偏差 {earlyCase}；在 10⁶ 处 float32 偏差 ' +
      '{f32}，float64 偏差 {f64}；{stop}。',
    noticeTable: '用 16 位类型构建的表，误差随位置增大而增大：bfloat16 最多偏差 {bf16Worst}，float16 最多偏差 {f16Worst}（cos 或 sin 最多也只能偏差 2）。float32 的误差也是这样增长的，只是慢得多：在图中采样的位置上，它的最大误差是 {f32Worst}。',
    noticeScore: '注意力同样受影响：位置 256 之后，bfloat16 的得分最多偏差 {bf16Past}；而 θᵢ 过早舍入最多只造成 {earlyWorst} 的偏差，因为 q 和 k 共用它。',
    how: '每张表都在对应类型中逐步模拟：位置 m、频率 θᵢ、角度 m·θᵢ 和 cos/sin 输出各自舍入到该类型最近的值（恰在中间时取偶数），再与另一段代码算出的 float64 表比较。位置取 1 到 10⁶ 之间按对数等距的 160 个，外加已报告的位置。在得分视图中，q（位于 m）和 k（位于 m − 1）是由种子生成的随机向量，用模拟的表以 float32 旋转后打分，再与 float64 的旋转结果比较。float16 的曲线止于这样的最后一个位置：位置本身及其各个角度都不超过 65504。曲线只是把采样点连起来，两个采样点之间的误差可能比这两点处都大。图中用 d = 32，而不是贯穿全文的 128，因为 GPT-NeoX #1003 报告 float16 在位置 1857 出错时，旋转维度就是 32。θᵢ 舍入为 float16 后误差不超过 0.05%，前提是 θᵢ ≥ 2^−14 ≈ 6.1×10^−5，默认设置下每个 θᵢ 都满足；比它更小的数，float16 能保留的有效位更少。底数取 500000、d = 128 时，第 48 到 63 对的舍入误差因此最多达 0.86%（第 62 对），底数取 10⁷ 时最多达 12%；bfloat16 的数值范围与 float32 相同，在这两种底数下都仍在 0.4% 以内。',
  },
});

export const MODES = [
  { key: 'f32', label: M.f32, precision: 'f32', get color() { return palette[0]; }, dash: [] },
  { key: 'bf16', label: M.bf16, precision: 'bf16', color: palette[1], dash: [6, 3] },
  { key: 'f16', label: M.f16, precision: 'f16', color: palette[2], dash: [2, 2] },
  { key: 'early', label: M.early, precision: { position: 'f32', invFreq: 'bf16', angle: 'f32', output: 'f32' }, color: palette[3], dash: [10, 3, 2, 3] },
  // palette[0] and palette[6] are read at each draw: they change with the theme (colours.js)
  { key: 'f64', label: 'float64', precision: 'f64', get color() { return palette[6]; }, dash: [1, 3] },
];

// Reported cases: the type, the position, and where it was reported.
const CASES = [
  { mode: 'f16', position: 1857, text: 'f16, 1857 (GPT-NeoX #1003)' },
  { mode: 'bf16', position: 15962, text: 'bf16, 15962 (candle #3520)' },
  { mode: 'early', position: 4095, text: 'bf16 inv_freq, 4095 (sglang-jax #1472)' },
];
// lineLegend, except that marker-only datasets show their marker rather than a line.
const markerLegend = {
  ...lineLegend,
  labels: {
    ...lineLegend.labels,
    generateLabels(chart) {
      return lineLegend.labels.generateLabels(chart).map((it) => {
        const ds = chart.data.datasets[it.datasetIndex];
        return ds.showLine === false ? { ...it, pointStyle: 'rectRot', lineDash: [], lineWidth: 1.5, fillStyle: ink().bg, strokeStyle: ink().fg } : it;
      });
    },
  },
};
const MEASURES = ['cos/sin table', 'score q·k/√d, k one position back'];
const MEASURE_NAMES = { [MEASURES[0]]: M.measureTable, [MEASURES[1]]: M.measureScore };

/**
 * The largest integer position in [1, F16_MAX] that pe.ropeCache accepts in float16: past it
 * the position or its angle would not fit the type and the API throws a RangeError, so the
 * float16 curve has to stop there. 0 if none fits.
 */
export function lastFloat16(pe, dim, base) {
  const fits = (p) => {
    try {
      pe.ropeCache([p], dim, { base, precision: 'f16' });
      return true;
    } catch (err) {
      if (err instanceof RangeError) return false;
      throw err;
    }
  };
  if (fits(F16_MAX)) return F16_MAX;
  let lo = 0, hi = F16_MAX; // fits(lo) (or lo = 0), !fits(hi)
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The float64 truth, position by position: { sin(p), cos(p) } rows of [half]. */
export function truth(pe, positions, dim, base) {
  const half = dim / 2, cos = new Float64Array(positions.length * half), sin = new Float64Array(positions.length * half);
  positions.forEach((p, r) => {
    const row = pe.sinusoidal(1, dim, { base, start: p, precision: 'f64' }); // interleaved: sin at 2i, cos at 2i + 1
    for (let i = 0; i < half; i++) (sin[r * half + i] = row[2 * i]), (cos[r * half + i] = row[2 * i + 1]);
  });
  return { cos, sin };
}

/** Largest |a − b| over the pairs of each row, for cos and sin together. */
export function rowMaxErr(got, want, rows, half) {
  const out = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let m = 0;
    for (let i = r * half; i < (r + 1) * half; i++) m = Math.max(m, Math.abs(got.cos[i] - want.cos[i]), Math.abs(got.sin[i] - want.sin[i]));
    out[r] = m;
  }
  return out;
}

let lastMeasure = null;

export default {
  kind: 'precision-lab',
  messages: M,
  // the title follows the measure shown (the one last drawn, for exports; each figure's caption is set as it draws)
  get title() {
    return lastMeasure === MEASURES[1] ? M.titleScore : M.title;
  },
  params: [
    { name: 'dim', label: M.dim, type: 'int', min: 2, max: 256, step: 2, value: 32 },
    { name: 'base', label: M.base, type: 'number', min: 2, max: 10000000, step: 'any', value: 10000 },
    { name: 'measure', label: M.measure, type: 'select', options: MEASURES, value: MEASURES[0], optionLabels: MEASURE_NAMES },
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 1000, value: 0 },
  ],
  mount(el, { pe, Chart }) {
    const canvas = canvasIn(el, 1.8);
    canvas.parentElement.classList.add('phone-legend');
    const chart = new Chart(canvas, {
      type: 'line',
      data: { datasets: [] },
      plugins: [pointLabels],
      options: {
        animation: false, parsing: false, normalized: true, responsive: true, maintainAspectRatio: false,
        interaction: { mode: 'nearest', intersect: false },
        elements: { point: { radius: 0 }, line: { borderWidth: 1.5 } },
        plugins: { legend: markerLegend },
        scales: {
          x: { type: 'logarithmic', min: 1, max: MAX_POS, title: { display: true, text: () => String(M.xTitle) }, ...logAxis },
          y: { type: 'logarithmic', title: { display: true, text: () => String(M.yTitle) }, ...logAxis },
        },
      },
    });

    // what depends on d and the base alone (about 180 small kernel calls), kept while the measure or the seed moves
    let kept = null;
    const view = {
      update({ dim, base, measure, seed }) {
        const half = dim / 2;
        if (kept?.key !== `${dim},${base}`) kept = { key: `${dim},${base}`, f16Max: lastFloat16(pe, dim, base), want: null };
        const { f16Max } = kept;
        const grid = [...new Set([...intGrid(1, MAX_POS, SAMPLES, 'log'), ...CASES.map((c) => c.position), ...(f16Max >= 1 ? [f16Max] : [])])].sort((a, b) => a - b);
        const f16Count = grid.filter((p) => p <= f16Max).length; // float16 evaluates this prefix of grid
        const scoreMode = measure === MEASURES[1];
        lastMeasure = measure;
        const caption = el.closest('figure')?.querySelector(':scope > figcaption');
        if (caption) caption.textContent = String(scoreMode ? M.titleScore : M.title);
        const FLOOR = scoreMode ? FLOORS.score : FLOORS.table;
        let err; // key -> Float64Array over the accepted prefix of grid
        const accepted = {};
        if (!scoreMode) {
          const want = (kept.want ??= truth(pe, grid, dim, base));
          err = {};
          for (const m of MODES) {
            const n = m.key === 'f16' ? f16Count : grid.length;
            accepted[m.key] = n;
            err[m.key] = rowMaxErr(pe.ropeCache(grid.slice(0, n), dim, { base, precision: m.precision }), want, n, half);
          }
        } else {
          // q at position p, k at p − 1: rotate both with the emulated table (pe.applyRopeInPlace
          // with cos/sin tensors, float32 arithmetic), score them, and compare with pe.applyRope.
          const qk = pe.randomNormal(2 * dim, seed), q = qk.subarray(0, dim), k = qk.subarray(dim);
          const tile = (v, n) => {
            const out = new Float32Array(n * dim);
            for (let r = 0; r < n; r++) out.set(v, r * dim);
            return out;
          };
          // row r of a with row r of b: q at p against k at p − 1, for every p at once
          const pairs = (a, b) => pe.rowDots(a, b, dim);
          const shape = { heads: 1, headDim: dim, style: 'half' };
          const N = grid.length, back = grid.map((p) => p - 1);
          const ref = pairs(pe.applyRope(tile(q, N), { ...shape, base, positions: grid }), pe.applyRope(tile(k, N), { ...shape, base, positions: back }));
          const scale = Math.sqrt(dim); // q·k/√d: the score the softmax sees
          err = {};
          for (const m of MODES) {
            const n = m.key === 'f16' ? f16Count : N;
            accepted[m.key] = n;
            const tab = pe.ropeCache([...grid.slice(0, n), ...back.slice(0, n)], dim, { base, precision: m.precision });
            const both = new Float32Array(2 * n * dim);
            both.set(tile(q, n));
            both.set(tile(k, n), n * dim);
            const x = pe.tensor(both), c = pe.tensor(tab.cos), s = pe.tensor(tab.sin);
            try {
              pe.applyRopeInPlace(x, { ...shape, cos: c, sin: s });
              const rot = x.array.slice();
              const got = pairs(rot.subarray(0, n * dim), rot.subarray(n * dim));
              err[m.key] = Float64Array.from(got, (v, r) => Math.abs(v - ref[r]) / scale);
            } finally {
              x.free(), c.free(), s.free();
            }
          }
        }

        const at = (key, p) => {
          const r = grid.indexOf(p);
          return r >= 0 && r < accepted[key] ? err[key][r] : null;
        };
        chart.data.datasets = MODES.map((m) => ({
          label: m.key === 'f16' && accepted.f16 < grid.length ? M.stopsAt.format({ label: m.label, f16Max })
            : err[m.key].some((e) => e < FLOOR) ? M.underFloor.format({ label: m.label, exp: Math.round(Math.log10(FLOOR)) }) : String(m.label),
          data: Array.from({ length: accepted[m.key] }, (_, r) => ({ x: grid[r], y: Math.max(FLOOR, err[m.key][r]) })),
          borderColor: m.color, backgroundColor: m.color, borderDash: m.dash, borderWidth: m.key === 'f64' ? 2 : 1.5,
        }));
        const cases = CASES.map((c) => ({ ...c, error: at(c.mode, c.position) }));
        // One dataset per case so each label can sit above or below its marker without colliding.
        cases.forEach((c, j) => chart.data.datasets.push({
          label: j === 0 ? String(M.cases) : '', data: c.error === null ? [] : [{ x: c.position, y: Math.max(FLOOR, c.error) }],
          showLine: false, pointRadius: 6, pointHoverRadius: 7, pointStyle: 'rectRot', borderColor: ink().fg, borderWidth: 1.5,
          backgroundColor: MODES.find((m) => m.key === c.mode).color, pointLabels: [String(c.position)], labelDy: c.position === 4095 ? 10 : -24,
        }));
        if (accepted.f16 < grid.length) {
          chart.data.datasets.push({ label: '', data: [{ x: f16Max, y: FLOOR }, { x: f16Max, y: 100 }], borderColor: palette[2], borderDash: [2, 2], borderWidth: 1 });
        }
        chart.options.scales.y.min = FLOOR;
        chart.options.scales.y.max = 100; // headroom above the 16-bit curves for the case labels
        chart.options.scales.y.title.text = String(scoreMode ? M.yScore : M.yTable);
        canvas.setAttribute('aria-label', M.aria.format({ measure: String(MEASURE_NAMES[measure]) }));
        chart.update();

        const last = grid.length - 1;
        /** Largest error of `key` at positions from `from` on (within what the type accepted). */
        const worstFrom = (key, from) => {
          let m = 0;
          for (let r = 0; r < accepted[key]; r++) if (grid[r] >= from) m = Math.max(m, err[key][r]);
          return m;
        };
        const spread = () => {
          let lo = Infinity, hi = 0;
          for (const e of err.early) (lo = Math.min(lo, e)), (hi = Math.max(hi, e));
          return lo === hi ? sig(lo, 2) : M.range.format({ lo: sig(lo, 2), hi: sig(hi, 2) });
        };
        const v = {
          dim, f32: sig(err.f32[last], 3), f64: sig(err.f64[last], 3),
          stop: M.stop.format({ f16Max, f16Limit: F16_MAX }),
        };
        // A score sees only the angle difference of q and k: a frequency error shared by both
        // costs distance·Δθ (here one position's worth), a rounded position or angle does not cancel.
        const worstAll = (key) => worstFrom(key, 0);
        view.notice = scoreMode
          ? M.noticeScore.format({ bf16Past: sig(worstFrom('bf16', 256), 3), earlyWorst: sig(worstAll('early'), 2) })
          : M.noticeTable.format({ bf16Worst: sig(worstAll('bf16'), 4), f16Worst: sig(worstAll('f16'), 4), f32Worst: sig(worstAll('f32'), 3) });
        view.readout = scoreMode
          ? M.readoutScore.format({ ...v, f16Past: sig(worstFrom('f16', 2048), 3), bf16Past: sig(worstFrom('bf16', 256), 3), spread: spread() })
          : M.readoutTable.format({ ...v, f16Case: sig(cases[0].error, 3), bf16Case: sig(cases[1].error, 3), earlyCase: sig(cases[2].error, 3) });
        return {
          measured: { worstF16Past2048: worstFrom('f16', 2048), worstEarly: Math.max(...err.early), cases: Object.fromEntries(cases.map((c) => [`${c.mode}@${c.position}`, c.error])), f64At1e6: err.f64[last], f32At1e6: err.f32[last], f16Last: f16Max },
          columns: ['position', ...MODES.map((m) => `error ${m.key}`)],
          heads: colHeads([COL.position, ...MODES.map((m) => M.colError.format({ name: m.label }))]),
          rows: grid.map((p, r) => [p, ...MODES.map((m) => (r < accepted[m.key] ? err[m.key][r] : null))]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
