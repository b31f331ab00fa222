// rope-2d.js: RoPE in two dimensions: q at position m turns by
// mθ, k at position n by nθ (pe.applyRope), and the score (pe.gram) depends only on n − m.
import { canvasIn, palette, dashes, sig, ink, textShade, chartFont, textScale, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const Q = [1, 0];
const K_LENGTH = 0.8; // shorter than q, so the two arrows stay apart when they point alike
const TRAIL = 24; // earlier positions of q drawn at most
// q at its earlier positions: a dashed grey segment from the origin with a small arrowhead.
const GHOST = { borderColor: '#9aa3b2', dash: dashes[2], width: 1.5, head: 7 };

const M = messages({
  en: {
    colVector: 'vector',
    title: 'q at position m and k at position n, each rotated by its position times θ',
    m: 'query position m',
    n: 'key position n',
    shift: 'move both by c',
    theta: 'θ (degrees per position)',
    kAngle: 'k before rotation (degrees from q)',
    xTitle: 'dimension 0',
    yTitle: 'dimension 1',
    kAt: 'k at n = {n}',
    qAt: 'q at m = {m}',
    aria: 'Arrows of q at position {m} and k at position {n} in the plane, each rotated by its position times θ = {theta}°; q·k = {score4}',
    readout: 'q·k = |q|·|k|·cos ∠(q, k) = 1 × {kLength} × cos({angle}°) = {score}, with q at {m} and k at {n} (n − m = {offset})',
    readoutSame: '; at {list}, the same to within {apart}: the rotated q and k are float32 numbers, good to about 7 significant digits, and the score differs only by their rounding.',
    readoutExact: '; at {list}: identical.',
    same: 'm = {a}, n = {b} it is {value}',
    sameSep: ' and ',
    end: '.',
    notice: 'The score depends only on the offset n − m = {offset}: shifting both positions turns both arrows and leaves q·k as it is.',
    how: 'q is a 2-D vector of length 1 and k one of length 0.8, shorter so that the two arrows stay apart when they point the same way; before rotation k is at the chosen angle from q. Each is rotated by its position times θ, and q·k is their dot product, computed again at the unshifted positions and at the smallest pair of positions with the same offset to show that it does not change.',
  },
  zh: {
    colVector: '向量',
    title: '位置 m 的 q 与位置 n 的 k，各自旋转“位置 × θ”',
    m: 'query 位置 m',
    n: 'key 位置 n',
    shift: '两者同时平移 c',
    theta: 'θ（每个位置的度数）',
    kAngle: 'k 在旋转前与 q 的夹角（度）',
    xTitle: '维度 0',
    yTitle: '维度 1',
    kAt: 'n = {n} 处的 k',
    qAt: 'm = {m} 处的 q',
    aria: '平面上位置 {m} 的 q 与位置 {n} 的 k 的箭头，各自旋转“位置 × θ”，θ = {theta}°；q·k = {score4}',
    readout: 'q 在 {m}、k 在 {n} 时（n − m = {offset}），q·k = |q|·|k|·cos ∠(q, k) = 1 × {kLength} × cos({angle}°) = {score}',
    readoutSame: '；{list}，相差不超过 {apart}：旋转后的 q 和 k 是 float32 数，约有 7 位有效数字，得分的差别只来自它们的舍入误差。',
    readoutExact: '；{list}，两者完全相同（差为 0）。',
    same: '在 m = {a}、n = {b} 处为 {value}',
    sameSep: '，',
    end: '。',
    notice: '得分只取决于偏移 n − m = {offset}：同时平移两个位置，两支箭头一起转动，q·k 保持不变。',
    how: 'q 是长度为 1 的二维向量，k 的长度为 0.8：短一些，两支箭头指向相同时才不会重叠；旋转前 k 与 q 成所选的夹角。两者各自旋转“位置 × θ”，q·k 是它们的内积。图中还在未平移的位置、以及偏移相同的最小一对位置上重新计算得分，以显示它不变。',
  },
});

/** Where a label 8 px past (x, y) in direction t is written, and the box it covers. */
function labelBox(ctx, text, x, y, t) {
  const align = Math.cos(t) < -0.3 ? 'right' : Math.cos(t) > 0.3 ? 'left' : 'center';
  const baseline = Math.sin(t) < -0.3 ? 'bottom' : Math.sin(t) > 0.3 ? 'top' : 'middle';
  const at = [x + 8 * Math.cos(t), y + 8 * Math.sin(t)];
  const w = ctx.measureText(text).width, h = 1.2 * ctx.measureText('M').width;
  const left = align === 'right' ? at[0] - w : align === 'left' ? at[0] : at[0] - w / 2;
  const top = baseline === 'bottom' ? at[1] - h : baseline === 'top' ? at[1] : at[1] - h / 2;
  return { align, baseline, at, left, top, right: left + w, bottom: top + h };
}

// clear of the axes' numbers (left of and below the plot) and inside the canvas
const clear = (b, { chartArea: area, width }) => b.left >= area.left && b.right <= width && b.top >= 0 && b.bottom <= area.bottom;

// Arrowheads, position labels and the angle arc are drawn over Chart.js's line segments.
const arrows = {
  id: 'rope2dArrows',
  beforeDatasetsDraw(chart) {
    const { ctx, scales: { x, y } } = chart;
    const cx = x.getPixelForValue(0), cy = y.getPixelForValue(0);
    ctx.save();
    ctx.strokeStyle = '#c9ced8';
    ctx.beginPath();
    ctx.arc(cx, cy, Math.abs(x.getPixelForValue(1) - cx), 0, 2 * Math.PI);
    ctx.stroke();
    ctx.restore();
  },
  afterDatasetsDraw(chart) {
    const { ctx, scales: { x, y } } = chart;
    const px = (p) => [x.getPixelForValue(p[0]), y.getPixelForValue(p[1])];
    // q's earlier positions (up to TRAIL of them) are not datasets: Chart.js's work per dataset
    // and update would grow with them. Their segments are stroked here exactly as Chart.js
    // strokes a dataset's line (clipped to the scales, last one first, before the arrowheads).
    const ghosts = chart.options.plugins.rope2dArrows?.ghosts ?? [];
    for (let j = ghosts.length - 1; j >= 0; j--) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(x.left, y.top, x.right - x.left, y.bottom - y.top);
      ctx.clip();
      ctx.save();
      ctx.lineCap = 'butt';
      ctx.setLineDash(GHOST.dash);
      ctx.lineDashOffset = 0;
      ctx.lineJoin = 'miter';
      ctx.lineWidth = GHOST.width;
      ctx.strokeStyle = GHOST.borderColor;
      const path = new Path2D(), [x0, y0] = px([0, 0]), [x1, y1] = px(ghosts[j].arrows[0].tip);
      path.moveTo(x0, y0);
      path.lineTo(x1, y1);
      ctx.stroke(path);
      ctx.restore();
      ctx.restore();
    }
    ctx.save();
    chart.drawnLabels = []; // what was written where, for the tests that keep labels off the axes
    for (const ds of [...ghosts, ...chart.data.datasets]) {
      for (const a of ds.arrows ?? []) {
        const [x0, y0] = px([0, 0]), [x1, y1] = px(a.tip);
        const ang = Math.atan2(y1 - y0, x1 - x0), h = ds.head ?? 10;
        ctx.fillStyle = ds.borderColor;
        ctx.beginPath();
        ctx.moveTo(x1, y1);
        ctx.lineTo(x1 - h * Math.cos(ang - 0.4), y1 - h * Math.sin(ang - 0.4));
        ctx.lineTo(x1 - h * Math.cos(ang + 0.4), y1 - h * Math.sin(ang + 0.4));
        ctx.closePath();
        ctx.fill();
        if (a.text) {
          // Labels sit past the tip, turned off the ray by `side` so k's label clears q's trail; a
          // label that would reach the axes' numbers or leave the canvas turns a quarter away from k's side.
          ctx.font = chartFont(ds.bold ? 'bold' : 'label');
          const t0 = ang + (ds.side ?? 0);
          const t = [t0, t0 - Math.PI / 2, t0 + Math.PI / 2].find((u) => clear(labelBox(ctx, a.text, x1, y1, u), chart)) ?? t0;
          const { align, baseline, at } = labelBox(ctx, a.text, x1, y1, t);
          ctx.textAlign = align;
          ctx.textBaseline = baseline;
          ctx.fillStyle = textShade(ds.borderColor);
          ctx.fillText(a.text, ...at);
          const { left, top, right, bottom } = labelBox(ctx, a.text, x1, y1, t);
          chart.drawnLabels.push({ text: a.text, left, top, right, bottom, area: { ...chart.chartArea } });
        }
      }
    }
    const arc = chart.options.plugins.rope2dArrows?.arc;
    if (arc) {
      const [cx, cy] = px([0, 0]), r = Math.abs(x.getPixelForValue(0.3) - cx);
      ctx.strokeStyle = palette[6];
      ctx.lineWidth = 1;
      ctx.beginPath();
      // Canvas y points down, so the angles flip sign.
      ctx.arc(cx, cy, r, -arc.from, -arc.to, arc.to > arc.from);
      ctx.stroke();
      // The label goes in a corner of the plot, outside the circle, at any text size: the corner
      // farthest (in angle) from every arrow, so no arrow's label meets it either.
      const tips = [...ghosts, ...chart.data.datasets].flatMap((ds) => (ds.arrows ?? []).map((a) => Math.atan2(a.tip[1], a.tip[0])));
      const apart = (a, b) => Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));
      const corners = [[-1, 1], [1, 1], [-1, -1], [1, -1]];
      const score = ([sx, sy]) => Math.min(Math.PI, ...tips.map((t) => apart(t, Math.atan2(sy, sx))));
      const [sx, sy] = corners.reduce((best, c) => (score(c) > score(best) + 1e-9 ? c : best));
      const inset = 6;
      ctx.fillStyle = palette[6];
      ctx.font = chartFont('label');
      ctx.textAlign = sx < 0 ? 'left' : 'right';
      ctx.textBaseline = sy > 0 ? 'top' : 'bottom';
      const tx = sx < 0 ? x.left + inset : x.right - inset, ty = sy > 0 ? y.top + inset : y.bottom - inset;
      // A halo keeps the label readable over the grid lines.
      ctx.strokeStyle = ink().bg;
      ctx.lineWidth = 4;
      ctx.strokeText(arc.text, tx, ty);
      ctx.fillText(arc.text, tx, ty);
    }
    ctx.restore();
  },
};

export default {
  kind: 'rope-2d',
  messages: M,
  title: M.title,
  main: 'shift',
  params: [
    { name: 'm', label: M.m, type: 'int', min: 0, max: 20, value: 2 },
    { name: 'n', label: M.n, type: 'int', min: 0, max: 20, value: 1 },
    { name: 'shift', label: M.shift, type: 'int', min: 0, max: 100, value: 0 },
    { name: 'theta', label: M.theta, type: 'number', min: 0, max: 180, step: 'any', value: 30 },
    { name: 'kAngle', label: M.kAngle, type: 'number', min: -180, max: 180, step: 'any', value: 0 },
  ],
  mount(el, { pe, Chart }) {
    const canvas = canvasIn(el, 1);
    canvas.parentElement.classList.add('square');
    const lim = 1.35;
    // Fixed axis sizes and no legend (the arrows carry labels) keep the plot area square.
    // both axes take the same room (for ticks and title, grown with the text): the plot stays square
    const fit = (size) => (axis) => {
      const px = Math.round(size * textScale());
      if (axis.isHorizontal()) axis.height = px;
      else axis.width = px;
    };
    const unitTicks = (axis) => (axis.ticks = [-1, -0.5, 0, 0.5, 1].map((value) => ({ value })));
    const chart = new Chart(canvas, {
      type: 'scatter',
      data: { datasets: [] },
      options: {
        animation: false,
        parsing: false,
        responsive: true,
        maintainAspectRatio: false,
        layout: { padding: 12 },
        // No legend, tooltip or fill is shown: those plugins are off, not only hidden (a hidden
        // legend still builds its items, resolving every dataset's style, at every update).
        plugins: { legend: false, tooltip: false, filler: false, rope2dArrows: {} },
        scales: {
          x: { min: -lim, max: lim, title: { display: true, text: () => String(M.xTitle) }, afterBuildTicks: unitTicks, afterFit: fit(46) },
          y: { min: -lim, max: lim, title: { display: true, text: () => String(M.yTitle) }, afterBuildTicks: unitTicks, afterFit: fit(46) },
        },
      },
      plugins: [arrows],
    });
    const rad = Math.PI / 180;
    // In two dimensions RoPE has one pair with θ_0 = base^0 = 1 rad per position, so
    // a position of p·θ (in radians) turns the pair by exactly p·θ.
    const rotate = (v, positions) => pe.applyRope(positions.flatMap(() => v), {
      heads: 1, headDim: 2, style: 'interleaved', positions: positions.map((p) => p * rad),
    });
    const view = {
      update({ m, n, shift, theta, kAngle }) {
        const k = [K_LENGTH * Math.cos(kAngle * rad), K_LENGTH * Math.sin(kAngle * rad)];
        const mq = m + shift, nk = n + shift;
        const trailFrom = Math.max(0, mq - TRAIL);
        const trailPos = Array.from({ length: mq - trailFrom + 1 }, (_, j) => (trailFrom + j) * theta);
        const qTrail = rotate(Q, trailPos);
        const q = qTrail.subarray(2 * (mq - trailFrom));
        const [kr, q0, k0] = [rotate(k, [nk * theta]), rotate(Q, [m * theta]), rotate(k, [n * theta])];
        const score = pe.gram(q, kr, 2)[0], score0 = pe.gram(q0, k0, 2)[0];
        const seg = (v) => [{ x: 0, y: 0 }, { x: v[0], y: v[1] }];
        const ghosts = [];
        for (let j = 0; j < mq - trailFrom; j++) ghosts.push(qTrail.subarray(2 * j, 2 * j + 2));
        // Positions whose q lands on the same point (θ = 180°: 0, 2, 4, …) share one label, on the
        // latest of them, "q@0 = q@2" (a label per arrow would be hidden under the next one); the
        // longer label sits beside the tip, across the ray, where it does not run off the plot.
        const tipKey = (v) => `${Math.round(v[0] * 1e6) / 1e6},${Math.round(v[1] * 1e6) / 1e6}`;
        const samePoint = new Map();
        [...ghosts, q].forEach((v, j) => samePoint.set(tipKey(v), [...(samePoint.get(tipKey(v)) ?? []), trailFrom + j]));
        const label = (v, p) => {
          const at = samePoint.get(tipKey(v));
          return at.at(-1) === p ? at.map((x) => `q@${x}`).join(' = ') : '';
        };
        const across = (v) => (samePoint.get(tipKey(v)).length > 1 ? { side: -Math.PI / 2 } : {});
        chart.options.plugins.rope2dArrows.ghosts = ghosts.map((g, j) => ({
          ...GHOST, ...across(g), arrows: [{ tip: g, text: ghosts.length <= 8 ? label(g, trailFrom + j) : '' }],
        }));
        // Always two datasets, k and q: the trail is drawn by the plugin above.
        chart.data.datasets = [
          {
            label: M.kAt.format({ n: nk }), data: seg(kr), showLine: true, pointRadius: 0, borderColor: palette[1],
            borderDash: dashes[1], borderWidth: 2.5, bold: true, side: 1.2, arrows: [{ tip: kr, text: `k@${nk}` }],
          },
          {
            label: M.qAt.format({ m: mq }), data: seg(q), showLine: true, pointRadius: 0, borderColor: palette[0],
            borderWidth: 2.5, bold: true, ...(ghosts.length <= 8 ? across(q) : {}),
            arrows: [{ tip: q, text: ghosts.length <= 8 ? label(q, mq) : `q@${mq}` }],
          },
        ];
        const aq = Math.atan2(q[1], q[0]), ak = Math.atan2(kr[1], kr[0]);
        let turn = ak - aq;
        turn -= 2 * Math.PI * Math.round(turn / (2 * Math.PI));
        chart.options.plugins.rope2dArrows.arc = Math.abs(turn) > 1e-6
          ? { from: aq, to: aq + turn, text: `∠(q, k) = ${(turn / rad).toFixed(1)}°` } : null;
        // The same offset n − m started from position 0: the score must not change.
        const [m0, n0] = mq >= nk ? [mq - nk, 0] : [0, nk - mq];
        const ref = pe.gram(rotate(Q, [m0 * theta]), rotate(k, [n0 * theta]), 2)[0];
        chart.update();
        const same = [], seen = new Set([`${mq},${nk}`]);
        for (const [a, b, v] of [[m, n, score0], [m0, n0, ref]]) {
          if (!seen.has(`${a},${b}`)) seen.add(`${a},${b}`), same.push([a, b, v]);
        }
        const v = {
          m: mq, n: nk, theta, score: score.toFixed(6), score4: score.toFixed(4), offset: nk - mq,
          kLength: K_LENGTH, angle: (turn / rad).toFixed(1),
          apart: same.length ? sig(Math.max(...same.map(([, , x]) => Math.abs(x - score))), 2) : '',
          list: same.map(([a, b, x]) => M.same.format({ a, b, value: x.toFixed(6) })).join(String(M.sameSep)),
        };
        canvas.setAttribute('aria-label', M.aria.format(v));
        view.notice = M.notice.format(v);
        const apart = same.length ? Math.max(...same.map(([, , x]) => Math.abs(x - score))) : 0;
        view.readout = M.readout.format(v) + (same.length ? (apart === 0 ? M.readoutExact : M.readoutSame).format(v) : M.end);
        return {
          columns: ['vector', 'position', 'x0', 'x1'],
          heads: colHeads([M.colVector, COL.position, 'x₀', 'x₁']),
          rows: [
            ...ghosts.map((g, j) => ['q', trailFrom + j, g[0], g[1]]),
            ['q', mq, q[0], q[1]],
            ['k', nk, kr[0], kr[1]],
            ['q·k', '', score, ''],
          ],
        };
      },
      get drawnLabels() { return chart.drawnLabels; },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
