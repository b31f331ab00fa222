// helix.js: the source post's "spring": the unit-circle point of one pair carried along a position
// axis, drawn in oblique projection of (sin a, cos a, position). Seen end-on it is the circle,
// where positions land on each other; seen from the side no two positions ever meet.
import { plainCanvas, palette, sig, ink, textShade, chartFont, textScale, textSize, scaledMargin, COL, colHeads } from './common.js';
import { pairTrack } from './unit-circle.js';
import { messages } from '../host/i18n.js';

const MARGIN = { left: 28, right: 28, top: 18, bottom: 46 };

const M = messages({
  en: {
    title: 'The same pair with the position added as a third axis: a spring',
    pair: 'pair i',
    base: 'base',
    length: 'last position',
    helix: 'Helix',
    axis: 'position →',
    posAt: 'pos {p}',
    near: '{d} apart on the circle, {back} positions apart on the axis',
    aria: 'Helix of pair {pair} over positions 0 to {length}',
    ariaBack: '; on the circle, position {back} is the one nearest position 0, {d} away',
    readout: 'Pair {pair} (θ = {w} rad per position): on the circle, position {back} lies nearest position 0, {d} away.',
    notice: 'After about {turns} turns, position {back} is back near position 0, {d} from it on the circle, yet lies {back} positions further along the axis: on the spring no two positions meet, but only because the drawing adds the position as an axis; the encoding itself holds just the point on the circle.',
    noticeOneTurn: 'After about one turn, position {back} is back near position 0, {d} from it on the circle, yet lies {back} positions further along the axis: on the spring no two positions meet, but only because the drawing adds the position as an axis; the encoding itself holds just the point on the circle.',
    noticeNotRound: 'Up to position {length} the point turns {part} of a turn and does not come round: on the circle each position still has a place of its own, and the one nearest position 0 is its neighbour, position 1, {d} away. The spring only adds the position as an axis; the encoding itself holds just the point on the circle.',
    noticeSlow: 'Pair {pair} turns only {w} rad per position: up to position {length} the point moves {part} of a turn, and on the circle position 1 lies just {d} from position 0. On its own this pair barely tells positions apart; the spring spreads them out only because the drawing adds the position as an axis, while the encoding holds just the point on the circle.',
    how: 'The same pair as in the circle above, with position m added as a third axis from left to right, drawn in perspective (the far half of each turn is faint). The slant moves each dot sideways off its tick, so the number beside a dot gives its position; where the spring is crowded, fewer dots are numbered, those of the first turn first. The position nearest position 0 is the one whose (sin, cos) is closest to that of position 0; the distance is the straight-line (Euclidean) distance between the two points in the plane, as in the circle above. That position is back near position 0 when its angle is past half a turn, so that it nears position 0 from the other side; the turns counted are its angle over 2π, rounded, so a point just short of a full turn, which the circle above says has not come round yet, counts as about one.',
  },
  zh: {
    title: '同一对维度加上位置轴：画成一根弹簧',
    pair: '第 i 对',
    base: '底数 base',
    length: '最后的位置',
    helix: '螺旋',
    axis: '位置 →',
    posAt: '位置 {p}',
    near: '圆上相距 {d}，轴上相隔 {back} 个位置',
    aria: '第 {pair} 对在位置 0 到 {length} 上的螺旋',
    ariaBack: '；在圆上离位置 0 最近的是位置 {back}，相距 {d}',
    readout: '第 {pair} 对（θ = {w} 弧度/位置）：在圆上离位置 0 最近的是位置 {back}，相距 {d}。',
    notice: '转过约 {turns} 圈后，位置 {back} 在圆上又回到位置 0 附近（相距 {d}），但沿位置轴向前走了 {back} 个位置：在弹簧上任意两个位置都不会相遇，不过这只是因为图中把位置本身画成了一根轴；编码里只有圆上的那个点。',
    noticeOneTurn: '转过约一圈后，位置 {back} 在圆上又回到位置 0 附近（相距 {d}），但沿位置轴向前走了 {back} 个位置：在弹簧上任意两个位置都不会相遇，不过这只是因为图中把位置本身画成了一根轴；编码里只有圆上的那个点。',
    noticeNotRound: '到位置 {length} 为止，点只转了 {part} 圈，还没有转回来：每个位置在圆上仍各占一处，离位置 0 最近的就是紧挨着的位置 1，相距 {d}。弹簧只是多画了一根位置轴，编码里只有圆上的那个点。',
    noticeSlow: '第 {pair} 对每个位置只转 {w} 弧度：到位置 {length} 为止，点只转了 {part} 圈，位置 1 在圆上离位置 0 只有 {d}。单看这一对，几乎分不出不同的位置；弹簧上各点之所以分得开，只是因为图中多画了一根位置轴，编码里只有圆上的那个点。',
    how: '与上面单位圆中的是同一对维度，再加上从左到右的位置轴 m，按透视画出（每圈靠后的半圈画得较淡）。斜着画会让点偏离自己的刻度，所以点旁标出了它的位置；弹簧太密时只标一部分点，先标第一圈。“离位置 0 最近”指 (sin, cos) 与位置 0 最近的位置，距离是平面上两点之间的直线距离（欧氏距离），与上面的单位圆相同。这个位置的角度超过半圈时，它是从另一侧靠近位置 0 的，才算“回到位置 0 附近”；转过的圈数是它的角度除以 2π 再四舍五入，所以差一点才满一圈的点（上面的单位圆说它还没有转回来）也算转过约一圈。',
  },
});

export default {
  kind: 'helix',
  messages: M,
  title: M.title,
  params: [
    // d_model / 2 pairs, numbered from 0: the control stops at the last one of the d_model set.
    { name: 'pair', label: M.pair, type: 'int', min: 0, max: 511, value: 0, maxFor: ({ dim }) => dim / 2 - 1 },
    { name: 'dim', label: 'd_model', type: 'int', min: 2, max: 1024, step: 2, value: 64 },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 1000000, step: 'any', value: 10000 },
    { name: 'length', label: M.length, type: 'int', min: 1, max: 200, value: 20 },
  ],
  mount(el, { pe }) {
    const { canvas, paint, destroy } = plainCanvas(el, 2.6, M.helix);
    const view = {
      update({ pair, dim, base, length }) {
        pair = Math.min(pair, dim / 2 - 1);
        const t = pairTrack(pe, { dim, base, pair, from: 0, to: length });
        // The position nearest to position 0 on the circle, searched over 1..length.
        let back = null;
        for (let p = 1; p <= length; p++) {
          const d = Math.hypot(t.sin[p] - t.sin[0], t.cos[p] - t.cos[0]);
          if (!back || d < back.d) back = { p, d };
        }
        const v = { pair, length, w: sig(t.w, 4), back: back?.p, d: back && sig(back.d, 2) };
        // Whether the nearest point came round: its angle passed half a turn, so it is near 0 from
        // the far side. Otherwise (θ ≤ 1 rad, so fewer than one turn in all) the nearest is position 1.
        const turns = back ? Math.round((back.p * t.w) / (2 * Math.PI)) : 0;
        Object.assign(v, { turns, part: sig((length * t.w) / (2 * Math.PI), 2) });
        const notice = !back ? null : turns > 1 ? M.notice : turns === 1 ? M.noticeOneTurn
          : back.d < 0.05 ? M.noticeSlow : M.noticeNotRound;
        paint((ctx, w, h) => {
          // A side view turned about the vertical: sin a (the depth) shows as a sideways shift,
          // so each turn draws as a loop of the coil instead of an edge-on wave.
          const k = textScale(), m = scaledMargin(MARGIN, k); // room for the labels, grown with the text
          const plotW = w - m.left - m.right, R = Math.min((h - m.top - m.bottom) / 2.3, plotW / 4.5);
          const depth = { x: 0.6 * R, y: -0.12 * R };
          const top = m.top + Math.max(0, (h - m.top - m.bottom - 2.3 * R) / 2); // centre it when width limits R
          const x0 = m.left + 0.6 * R, span = plotW - 1.2 * R, cy = top + 1.15 * R;
          const P = (pos, s, c) => [x0 + (pos / length) * span + s * depth.x, cy - c * R + s * depth.y];

          // The position axis through the centre of every circle, with its ticks.
          ctx.strokeStyle = ink().muted;
          ctx.fillStyle = ink().muted;
          ctx.lineWidth = 1;
          ctx.beginPath(); ctx.moveTo(x0, cy); ctx.lineTo(x0 + span + 14, cy); ctx.stroke();
          ctx.beginPath(); ctx.moveTo(x0 + span + 20, cy); ctx.lineTo(x0 + span + 12, cy - 4); ctx.lineTo(x0 + span + 12, cy + 4); ctx.fill();
          const every = Math.max(1, Math.ceil(length / Math.max(1, span / (28 * k))));
          const tickY = cy + 1.15 * R + 6;
          ctx.font = chartFont('label');
          ctx.textAlign = 'center';
          ctx.textBaseline = 'top';
          for (let p = 0; p <= length; p += every) {
            const x = x0 + (p / length) * span;
            ctx.fillRect(Math.round(x), tickY - 5, 1, 5);
            ctx.fillText(String(p), x, tickY + 1);
          }
          ctx.fillText(String(M.axis), x0 + span / 2, tickY + 17);

          // Far half of each turn (sin a > 0, receding) thin and pale, near half on top of it.
          const { x: px, sin: ps, cos: pc } = t.path;
          for (const far of [true, false]) {
            ctx.strokeStyle = palette[0];
            ctx.globalAlpha = far ? 0.3 : 0.9;
            ctx.lineWidth = far ? 1.2 : 2.2;
            ctx.beginPath();
            let open = false;
            for (let j = 0; j < px.length; j++) {
              if ((ps[j] > 0) !== far) { open = false; continue; }
              const [x, y] = P(px[j], ps[j], pc[j]);
              if (open) ctx.lineTo(x, y); else ctx.moveTo(x, y);
              open = true;
            }
            ctx.stroke();
          }
          ctx.globalAlpha = 1;
          const dots = Array.from({ length: length + 1 }, (_, p) => P(p, t.sin[p], t.cos[p]));
          dots.forEach(([x, y], p) => {
            const mark = p === 0 || p === back?.p;
            ctx.fillStyle = mark ? palette[1] : palette[0];
            ctx.beginPath(); ctx.arc(x, y, mark ? 5 : 3, 0, 2 * Math.PI); ctx.fill();
          });
          // what a dot's number must not cover: the axis, the bold near half of the spring (the
          // pale far half shows through a number), the link and its labels
          const strokes = [[x0, cy, x0 + span + 20, cy]];
          for (let j = 1; j < px.length; j++) {
            if (ps[j - 1] <= 0 || ps[j] <= 0) strokes.push([...P(px[j - 1], ps[j - 1], pc[j - 1]), ...P(px[j], ps[j], pc[j])]);
          }
          const boxes = [];
          if (back) {
            const [ax, ay] = dots[0], [bx, by] = dots[back.p];
            strokes.push([ax, ay, bx, by]);
            ctx.strokeStyle = palette[1];
            ctx.lineWidth = 1.2;
            ctx.setLineDash([4, 4]);
            ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by); ctx.stroke();
            ctx.setLineDash([]);
            ctx.fillStyle = textShade(palette[1]);
            ctx.font = chartFont('bold');
            ctx.textBaseline = 'bottom';
            ctx.textAlign = 'center';
            const labels = [[M.posAt.format({ p: 0 }), ax, ay - 7], [M.posAt.format({ p: back.p }), bx, by - 7]];
            apart(ctx, labels, w);
            const note = M.near.format(v);
            if (turns && ctx.measureText(note).width < Math.abs(bx - ax) - 80) labels.push([note, (ax + bx) / 2, Math.min(ay, by) - 7]);
            const lineH = textSize('bold');
            for (const [text, x, y] of labels) {
              const half = ctx.measureText(text).width / 2;
              boxes.push([x - half - 4, y - lineH, x + half + 4, y]); // a number beside "pos 1" must not read as part of it
              ctx.fillText(text, x, y);
            }
          }
          // The depth moves each dot sideways off its tick, by up to about two ticks: the dots
          // carry their own positions, so the drawing never has to be read off the axis.
          ctx.font = chartFont('tick');
          ctx.fillStyle = ink().muted;
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          const out = (p) => [t.sin[p] * depth.x, -t.cos[p] * R + t.sin[p] * depth.y];
          const numbers = dotNumbers(ctx, { dots, out, skip: [0, back?.p], strokes, boxes, area: [0, 0, w, tickY - 6], size: textSize('tick'), turn: (2 * Math.PI) / t.w });
          for (const [text, x, y] of numbers) ctx.fillText(text, x, y);
        });
        canvas.setAttribute('aria-label', M.aria.format(v) + (back ? M.ariaBack.format(v) : ''));
        view.notice = notice ? notice.format(v) : '';
        view.readout = back ? M.readout.format(v) : '';
        return {
          columns: ['position', `sin a (dim ${2 * pair})`, `cos a (dim ${2 * pair + 1})`],
          heads: colHeads([COL.position, COL.sinDim.format({ d: 2 * pair }), COL.cosDim.format({ d: 2 * pair + 1 })]),
          rows: Array.from({ length: length + 1 }, (_, p) => [p, t.sin[p], t.cos[p]]),
        };
      },
      destroy,
    };
    return view;
  },
};

/**
 * Moves two centred labels [text, x, y] (baseline at y) apart sideways, about their midpoint,
 * where they would overlap, and keeps both inside 0…width: two close points must not share one
 * run of text ("pos 0" and "pos 1" read as "ppos01").
 */
function apart(ctx, labels, width, gap = 6) {
  const [a, b] = labels[0][1] <= labels[1][1] ? labels : [labels[1], labels[0]];
  const wa = ctx.measureText(a[0]).width, wb = ctx.measureText(b[0]).width;
  const lineH = 1.3 * ctx.measureText('M').width;
  const overlap = wa / 2 + wb / 2 + gap - (b[1] - a[1]);
  if (overlap <= 0 || Math.abs(a[2] - b[2]) >= lineH) return;
  a[1] -= overlap / 2;
  b[1] += overlap / 2;
  // at an edge of the canvas, both move in from it together
  const shift = Math.max(0, wa / 2 + 2 - a[1]) - Math.max(0, b[1] + wb / 2 + 2 - width);
  a[1] += shift;
  b[1] += shift;
}

// the sides of a dot its number may take, nearest the outward one first
const SIDES = [0, 1, -1, 2, -2, 3, -3, 4].map((k) => (k * Math.PI) / 4);

/**
 * The numbers written beside the dots, as [text, x, y] (centred). From position 1 on, each goes
 * just outside its dot, away from the spring's axis (`out(p)`, or else turned by 45°, 90°, … from
 * it), where it stays inside `area`, covers no dot, stroke, box or earlier number, and lies clearly
 * nearer its own dot than any other; a number with no such place is left out. Past the first turn
 * (positions up to `turn`) the numbering stops at two such numbers in a row, so a crowded spring
 * shows its first turn numbered instead of numbers scattered over it.
 */
export function dotNumbers(ctx, { dots, out, skip, strokes, boxes, area, size, turn = Infinity, gap = 3 }) {
  const placed = [], taken = [...boxes], h = 0.8 * size;
  let missed = 0;
  const dotR = (p) => (skip.includes(p) ? 5 : 3) + 1;
  for (let p = 1; p < dots.length; p++) {
    if (skip.includes(p)) continue;
    const text = String(p), wide = ctx.measureText(text).width, [dx, dy] = dots[p];
    const [ox, oy] = out(p), len = Math.hypot(ox, oy) || 1;
    for (const a of SIDES) {
      const ux = (ox * Math.cos(a) - oy * Math.sin(a)) / len, uy = (ox * Math.sin(a) + oy * Math.cos(a)) / len;
      // from the dot's centre to the box's centre: past the dot, the gap and half the box along u
      const reach = dotR(p) + gap + Math.min(wide / 2 / Math.abs(ux || 1e-9), h / 2 / Math.abs(uy || 1e-9));
      const x = dx + ux * reach, y = dy + uy * reach;
      const box = [x - wide / 2, y - h / 2, x + wide / 2, y + h / 2];
      if (box[0] < area[0] || box[1] < area[1] || box[2] > area[2] || box[3] > area[3]) continue;
      const own = Math.hypot(x - dx, y - dy);
      if (dots.some(([qx, qy], q) => q !== p && (Math.hypot(x - qx, y - qy) < own + size / 2 || boxNear(box, qx, qy, dotR(q))))) continue;
      if (taken.some((b) => b[0] < box[2] && box[0] < b[2] && b[1] < box[3] && box[1] < b[3])) continue;
      if (strokes.some((s) => crosses(box, s))) continue;
      placed.push([text, x, y]);
      taken.push(box);
      break;
    }
    missed = placed.at(-1)?.[0] === text ? 0 : missed + 1;
    if (p > turn && missed >= 2) break;
  }
  return placed;
}

/** Whether the circle at (x, y) of radius r reaches into `box` [x0, y0, x1, y1]. */
function boxNear([x0, y0, x1, y1], x, y, r) {
  return Math.hypot(x - Math.max(x0, Math.min(x, x1)), y - Math.max(y0, Math.min(y, y1))) < r;
}

/** Whether the segment [ax, ay, bx, by] passes through `box` (Liang–Barsky clipping). */
function crosses([x0, y0, x1, y1], [ax, ay, bx, by]) {
  let lo = 0, hi = 1;
  const dx = bx - ax, dy = by - ay;
  for (const [q, d] of [[ax - x0, -dx], [x1 - ax, dx], [ay - y0, -dy], [y1 - ay, dy]]) {
    if (d === 0) { if (q < 0) return false; continue; }
    const r = q / d;
    if (d < 0) lo = Math.max(lo, r); else hi = Math.min(hi, r);
    if (lo > hi) return false;
  }
  return true;
}
