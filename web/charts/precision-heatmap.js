// precision-heatmap.js: where in the table a narrow type goes wrong: the error of
// every (position, pair) cell of an emulated cos/sin table (pe.ropeCache with `precision`)
// against the float64 table (pe.sinusoidal, precision 'f64'), on a log colour scale.
import { plainCanvas, viridis, fillCells, drawCells, drawColourBar, niceTicks, intGrid, sig, chartFont, textScale, scaledMargin, subscript, COL, colHeads } from './common.js';
import { MODES, truth, lastFloat16 } from './precision-lab.js';
import { messages } from '../host/i18n.js';
import { cellKeys, markCell } from './shared/cell-keys.js';

const TYPES = { float32: 'f32', bfloat16: 'bf16', float16: 'f16', 'inv_freq bf16 early': 'early' };
// the largest whole number below which the type holds every whole number (2^significand bits)
const EXACT_TO = { f32: 2 ** 24, bf16: 256, f16: 2048, early: 2 ** 24 };
const LOG_LO = -9, LOG_HI = 0.5; // the colour scale, fixed so that the types compare: 1e-9 to about 3
const MARGIN = { left: 52, right: 74, top: 8, bottom: 38 };

const M = messages({
  en: {
    title: 'Error of every table entry: position × pair',
    type: 'table type',
    early: 'θᵢ in bfloat16 early',
    dim: 'rotary dim d',
    maxPos: 'largest position',
    columns: 'positions sampled',
    base: 'base',
    heatmap: 'Heatmap of RoPE table errors',
    xLog: 'position m (log scale)',
    xLinear: 'position m',
    yTitle: 'pair i',
    refused: 'float16 refused',
    above: 'above {max}',
    hint: 'Tap the map or point at it (or Tab to it and use the arrow keys; Page Up and Page Down move 10 columns) to read one entry.',
    cellRefused: 'position {pos}: not representable in float16',
    cell: 'position {pos}, pair {pair} (θ{sub} = {theta}): larger absolute error of cos and sin = {err}',
    aria: 'Heatmap: error of a {type} RoPE table against float64, {count} positions from 1 to {maxPos} ' +
      'across, {half} pairs down, colour from 1e-9 or less (dark) to 1 and more (yellow). Select it with Tab and use the arrow keys to read entries.',
    readout: '{type}: the largest error, {worst}, is at position {worstPos}, pair {worstPair}; ' +
      '{big} of {entries} entries are off by more than 0.01',
    readoutRefused: '; positions above {f16Max} are grey: they or their angles do not fit a float16, whose largest value is 65504.',
    end: '.',
    noticeNone: 'No entry is off by more than 0.01 here; the largest error is {worst}.',
    noticeRule: 'Pair {firstPair} is the first off by more than 0.01, at position {firstAt}. Across the map, faster pairs go wrong earlier and slower ones follow as the position grows: at position {lastPos}, {badLast} of the {half} pairs (d = {dim}) are off by more than 0.01.',
    noticeFirst: 'Pair {firstPair} is the first off by more than 0.01, at position {firstAt}; at position {lastPos}, {badLast} of the {half} pairs (d = {dim}) are.',
    noticeRough: ' The order is only rough: {faster}, because when a pair goes wrong depends not only on its speed but also on how far rounding happens to move its θᵢ and its angle m·θᵢ.',
    faster1: 'pair 1 is faster but goes wrong later',
    faster2: 'pairs 1 and 2 are faster but go wrong later',
    fasterMany: 'pairs 1 to {beforeFirst} are faster but go wrong later',
    noticePair0Lost: ' Pair 0, whose frequency θ₀ = 1 every type holds exactly, goes wrong only where the position itself is rounded: {type} holds every whole number only up to {exactTo}, and {pair0At} is the first position the map samples that it cannot hold.',
    noticePair0Exact: ' Pair 0, whose frequency θ₀ = 1 every type holds exactly, stays within 0.01 throughout.',
    how: 'Each cell is one entry of the emulated table (as in the chart above: every step rounded into the chosen type) against the float64 value: the larger of the cos and sin errors, on a log colour scale fixed from 10^−9 to about 3 so that the types compare. Positions are log-spaced from 1 to the largest position (evenly spaced below 100), with the powers of ten added.',
  },
  zh: {
    title: '表中每个元素的误差：位置 × 维度对',
    type: '表的类型',
    early: 'θᵢ 过早舍入为 bfloat16',
    dim: '旋转维度 d',
    maxPos: '最大位置',
    columns: '采样的位置数',
    base: '底数 base',
    heatmap: 'RoPE 表误差的热力图',
    xLog: '位置 m（对数坐标）',
    xLinear: '位置 m',
    yTitle: '第 i 对',
    refused: 'float16 拒绝',
    above: '高于 {max}',
    hint: '用手指点按图中任一处或把鼠标移到图上（也可用 Tab 键选中图后按方向键，上下翻页键一次移动 10 列），即可读出一个元素。',
    cellRefused: '位置 {pos}：float16 无法表示',
    cell: '位置 {pos}，第 {pair} 对（θ{sub} = {theta}）：cos、sin 的绝对误差中较大者 = {err}',
    aria: '热力图：{type} RoPE 表相对 float64 的误差，横向为从 1 到 {maxPos} 的 {count} 个位置，纵向为 {half} 对，' +
      '颜色从 1e-9 及以下（深色）到 1 及以上（黄色）。用 Tab 键选中后按方向键可读出各个元素。',
    readout: '{type}：最大误差 {worst} 出现在位置 {worstPos}、第 {worstPair} 对；' +
      '{entries} 个元素中有 {big} 个偏差超过 0.01',
    readoutRefused: '；高于 {f16Max} 的位置是灰色的：这些位置本身或它们的角度放不进 float16（最大值 65504）。',
    end: '。',
    noticeNone: '在这组设置下，没有哪个元素偏差超过 0.01；最大误差是 {worst}。',
    noticeRule: '第 {firstPair} 对最先出错，在位置 {firstAt} 处误差超过 0.01。放眼整张图，转得快的维度对出错早，随着位置增大，慢的维度对陆续跟上：到位置 {lastPos}，{half} 个维度对（d = {dim}）中已有 {badLast} 个误差超过 0.01。',
    noticeFirst: '第 {firstPair} 对最先出错，在位置 {firstAt} 处误差超过 0.01；到位置 {lastPos}，{half} 个维度对（d = {dim}）中有 {badLast} 个误差超过 0.01。',
    noticeRough: '不过这个先后顺序只是大致如此：{faster}转得更快，出错却更晚。一个维度对何时出错，不只看它转得多快，还要看它的 θᵢ 和角度 m·θᵢ 恰好被舍入了多少。',
    faster1: '第 1 对（i = 1）',
    faster2: '第 1、2 对（i = 1、2）',
    fasterMany: 'i = 1…{beforeFirst} 的维度对',
    noticePair0Lost: '第 0 对（i = 0）的频率 θ₀ = 1 在每种类型里都能精确表示，所以只有位置本身被舍入时它才出错：{type} 只能精确表示 {exactTo} 以内的全部整数，而 {pair0At} 是图中采样到的第一个它无法精确表示的位置。',
    noticePair0Exact: '第 0 对（i = 0）的频率 θ₀ = 1 在每种类型里都能精确表示，它的误差始终不超过 0.01。',
    how: '每个格子是模拟表（与上图相同：每一步都舍入到所选类型）中的一个元素与 float64 值之差，取 cos 与 sin 误差中较大的一个，用对数色标表示；色标固定为 10^−9 到约 3，以便比较不同类型。位置从 1 到所选的最大位置按对数等距采样（小于 100 时等距），并加上 10 的各次幂。',
  },
});

const colourIndex = (e) => {
  const t = e > 0 ? (Math.log10(e) - LOG_LO) / (LOG_HI - LOG_LO) : 0;
  return Math.min(255, Math.max(0, Math.floor(t * 256)));
};
const posLabel = (v) => (v >= 1e4 ? `1e${Math.round(Math.log10(v))}` : String(v));

export default {
  kind: 'precision-heatmap',
  messages: M,
  title: M.title,
  params: [
    { name: 'type', label: M.type, type: 'select', options: Object.keys(TYPES), value: 'bfloat16',
      optionLabels: { 'inv_freq bf16 early': M.early } },
    { name: 'dim', label: M.dim, type: 'int', min: 2, max: 256, step: 2, value: 64 },
    { name: 'maxPos', label: M.maxPos, type: 'int', min: 10, max: 1000000, value: 1000000 },
    { name: 'columns', label: M.columns, type: 'int', min: 8, max: 400, value: 120 },
    { name: 'base', label: M.base, type: 'number', min: 2, max: 10000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe }) {
    const { canvas, paint, destroy } = plainCanvas(el, 1.8, M.heatmap);
    canvas.classList.add('heatmap-canvas');
    const hover = document.createElement('p');
    hover.className = 'cell-hover mono';
    hover.setAttribute('aria-live', 'polite');
    el.append(hover);
    const image = document.createElement('canvas');
    let s = null, cursor = null, plot = null;

    const draw = (ctx, w, h) => {
      if (!s) return;
      const { grid, half } = s;
      const k = textScale(), m = scaledMargin(MARGIN, k);
      plot = { x: m.left, y: m.top, w: Math.max(10, w - m.left - m.right), h: Math.max(10, h - m.top - m.bottom) };
      const xTicks = [];
      const at = s.scale === 'log' ? grid.filter((p) => Math.abs(Math.log10(p) % 1) < 1e-9) : niceTicks(1, grid[grid.length - 1], 5);
      for (const v of at) {
        const c = grid.findIndex((p) => p >= v);
        if (c >= 0 && (!xTicks.length || c - xTicks[xTicks.length - 1][2] > (grid.length / 12) * k)) xTicks.push([(c + 0.5) / grid.length, posLabel(grid[c]), c]);
      }
      const yTicks = niceTicks(0, half - 1, Math.max(2, Math.floor(plot.h / (36 * k)))).map((i) => [(i + 0.5) / half, String(i)]);
      drawCells(ctx, image, plot, { xTicks, yTicks, xTitle: String(s.scale === 'log' ? M.xLog : M.xLinear), yTitle: String(M.yTitle) });
      const bar = { x: plot.x + plot.w + Math.round(12 * k), y: plot.y, w: 12, h: plot.h };
      const f = (e) => 1 - (e - LOG_LO) / (LOG_HI - LOG_LO);
      drawColourBar(ctx, viridis, bar, [[f(0), '1'], [f(-3), '1e-3'], [f(-6), '1e-6'], [f(-9), '≤1e-9']]);
      if (s.f16Max !== null) {
        const c = grid.findIndex((p) => p > s.f16Max);
        if (c >= 0) {
          ctx.fillStyle = '#1d2330'; // dark on the light grey of refused cells, in either theme
          ctx.font = chartFont('tick');
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          const x = plot.x + ((c + grid.length) / 2 / grid.length) * plot.w;
          ctx.fillText(String(M.refused), x, plot.y + plot.h / 2 - 8);
          ctx.fillText(M.above.format({ max: s.f16Max }), x, plot.y + plot.h / 2 + 8);
        }
      }
      if (cursor) {
        const cw = plot.w / grid.length, ch = plot.h / half;
        markCell(ctx, plot.x + cursor.c * cw, plot.y + cursor.r * ch, cw, ch);
      }
    };
    const showCursor = () => {
      // the hint is a sentence: monospace is for the figures of an entry
      hover.classList.toggle('hint', !s || !cursor);
      hover.classList.toggle('mono', Boolean(s && cursor));
      if (!s || !cursor) {
        // (a live region: rewriting the same hint at every redraw would have it read out again)
        if (hover.textContent !== String(M.hint)) hover.textContent = String(M.hint);
        return;
      }
      const { c, r } = cursor, e = s.err[c * s.half + r];
      hover.textContent = Number.isNaN(e) ? M.cellRefused.format({ pos: s.grid[c] })
        : M.cell.format({ pos: s.grid[c], pair: r, sub: subscript(r), theta: sig(s.theta[r], 4), err: sig(e, 3) });
    };
    const setCursor = (c) => {
      cursor = c && { c: Math.min(s.grid.length - 1, Math.max(0, c.c)), r: Math.min(s.half - 1, Math.max(0, c.r)) };
      showCursor();
      paint(draw);
    };
    const point = (e) => {
      if (!s || !plot) return;
      const b = canvas.getBoundingClientRect();
      const fx = (e.clientX - b.left - plot.x) / plot.w, fy = (e.clientY - b.top - plot.y) / plot.h;
      if (fx >= 0 && fx < 1 && fy >= 0 && fy < 1) setCursor({ c: Math.floor(fx * s.grid.length), r: Math.floor(fy * s.half) });
    };
    // a mouse reads as it moves; a finger's tap gives no move, only its down
    canvas.addEventListener('pointermove', point);
    canvas.addEventListener('pointerdown', point);
    // rows are pairs, columns positions
    const keys = cellKeys(canvas, {
      size: () => s && { rows: s.half, cols: s.grid.length },
      at: () => cursor && { row: cursor.r, col: cursor.c },
      go: ({ row, col }) => setCursor({ c: col, r: row }),
    });

    const view = {
      update({ type, dim, maxPos, columns, base }) {
        const half = dim / 2;
        const scale = maxPos >= 100 ? 'log' : 'linear';
        // the powers of ten join the sampled positions so the axis ticks sit on real columns
        const tens = Array.from({ length: Math.floor(Math.log10(maxPos) + 1e-9) + 1 }, (_, k) => 10 ** k);
        const grid = [...new Set([...intGrid(1, maxPos, Math.min(columns, maxPos), scale), ...(scale === 'log' ? tens : [])])].sort((a, b) => a - b);
        const mode = MODES.find((m) => m.key === TYPES[type]);
        const f16Max = mode.key === 'f16' ? lastFloat16(pe, dim, base) : null;
        const n = f16Max === null ? grid.length : grid.filter((p) => p <= f16Max).length;
        const want = truth(pe, grid.slice(0, n), dim, base);
        const got = n ? pe.ropeCache(grid.slice(0, n), dim, { base, precision: mode.precision }) : null;
        // err[c * half + i]: position column c, pair i; NaN where the type cannot hold the position
        const err = new Float64Array(grid.length * half).fill(NaN);
        let worst = 0, worstAt = 0, big = 0;
        for (let j = 0; j < n * half; j++) {
          const e = Math.max(Math.abs(got.cos[j] - want.cos[j]), Math.abs(got.sin[j] - want.sin[j]));
          err[j] = e;
          if (e > worst) (worst = e), (worstAt = j);
          if (e > 0.01) big++;
        }
        fillCells(image, grid.length, half, viridis, (c, r) => (Number.isNaN(err[c * half + r]) ? -1 : colourIndex(err[c * half + r])));
        const theta = pe.ropeInvFreq(dim, { base });
        s = { grid, half, err, theta, scale, f16Max };
        if (cursor) cursor = { c: Math.min(cursor.c, grid.length - 1), r: Math.min(cursor.r, half - 1) };
        paint(draw);
        showCursor();
        // where the error starts: the first position at which each pair is off by more than 0.01
        const BIG = 0.01;
        const firstBig = (i) => {
          for (let c = 0; c < n; c++) if (err[c * half + i] > BIG) return c;
          return -1;
        };
        const starts = Array.from({ length: half }, (_, i) => firstBig(i));
        let firstPair = -1;
        starts.forEach((c, i) => {
          if (c >= 0 && (firstPair < 0 || c < starts[firstPair])) firstPair = i;
        });
        let badLast = 0;
        for (let i = 0; i < half && n; i++) if (err[(n - 1) * half + i] > BIG) badLast++;
        const v = {
          type: type === 'inv_freq bf16 early' ? String(M.early) : type, count: grid.length, maxPos, half,
          // 4 significant digits: a worst error of 1.996 must not print as an exact 2
          worst: sig(worst, 4), worstPos: grid[Math.floor(worstAt / half)], worstPair: worstAt % half, big, entries: n * half, f16Max,
          firstPair, firstAt: grid[starts[firstPair]], lastPos: grid[n - 1], badLast, pair0At: grid[starts[0]],
          dim, beforeFirst: firstPair - 1, exactTo: EXACT_TO[mode.key],
        };
        canvas.setAttribute('aria-label', M.aria.format(v));
        keys.relabel();
        view.readout = M.readout.format(v) + (f16Max !== null && n < grid.length ? M.readoutRefused.format(v) : M.end);
        // The rule "faster pairs go wrong earlier" is stated only where the map bears it out: of the
        // pairs 1 … half − 1 taken two at a time, at least three in four go wrong in speed order
        // (a pair that never goes wrong counts as going wrong last), and a quarter of the pairs go
        // wrong somewhere, or there are no slower ones that follow. Pair 0 is the exception the
        // notice gives on its own.
        const when = starts.map((c) => (c < 0 ? n : c));
        let inOrder = 0, pairs = 0;
        for (let i = 1; i < half; i++) for (let j = i + 1; j < half; j++) if (when[i] !== when[j]) pairs++, (inOrder += when[i] < when[j]);
        const rule = pairs > 0 && inOrder >= 0.75 * pairs && starts.filter((c) => c >= 0).length >= half / 4;
        view.notice = firstPair < 0 ? M.noticeNone.format(v)
          : (rule ? M.noticeRule : M.noticeFirst).format(v)
            // pairs 1 .. firstPair − 1 are faster than the first to go wrong, yet all went wrong later
            + (firstPair < 2 || !starts.slice(1, firstPair).every((c) => c >= 0) ? ''
              : M.noticeRough.format({ faster: (firstPair === 2 ? M.faster1 : firstPair === 3 ? M.faster2 : M.fasterMany).format(v) }))
            + (starts[0] >= 0 ? M.noticePair0Lost : M.noticePair0Exact).format(v);
        let rows = null;
        return {
          measured: { worst, over001: big, firstPair, firstAt: v.firstAt ?? null, pair0At: v.pair0At ?? null, badLast, inOrder: pairs ? inOrder / pairs : null },
          columns: ['position', ...Array.from({ length: half }, (_, i) => `pair ${i}`)],
          heads: colHeads([COL.position, ...Array.from({ length: half }, (_, i) => COL.pair.format({ i }))]),
          get rows() {
            rows ??= grid.map((p, c) => [p, ...Array.from(err.subarray(c * half, (c + 1) * half), (e) => (Number.isNaN(e) ? null : e))]);
            return rows;
          },
        };
      },
      destroy,
    };
    return view;
  },
};
