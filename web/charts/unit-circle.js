// unit-circle.js: one (sin a, cos a) pair of the PE table drawn as the source post draws it
// (x = sin a, y = cos a): as the position grows the point runs round the unit circle,
// clockwise, and lands near earlier positions again. Play / step buttons drive the position.
import { plainCanvas, palette, sig, ink, textShade, chartFont, textScale, textSize, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const MAX_PATH = 1500; // curve samples per draw; the dots are exact whatever this is

const M = messages({
  en: {
    title: 'One pair of PE as a point (sin a, cos a), a = m·θᵢ',
    pair: 'pair i',
    base: 'base',
    position: 'position m',
    back: '◀ step',
    backLabel: 'Step back one position',
    forward: 'step ▶',
    forwardLabel: 'Step forward one position',
    pause: '❚❚ pause',
    pauseLabel: 'Pause',
    play: '▶ play',
    playLabel: 'Play: advance the position',
    unitCircle: 'Unit circle',
    posMark: 'pos {position}',
    ariaLabel: 'Unit circle, pair {pair} of d_model {dim}: position {position} is at (sin a, cos a) = ({s}, {c})',
    ariaNearest: ', nearest to earlier position {near}',
    readout: 'Position {position}, pair {pair} (dims {d0}, {d1}; θ = {w} rad per position): (sin a, cos a) = ({s}, {c}); ',
    readoutNearest: 'the nearest earlier point is position {near}, {gap} away.',
    readoutStart: 'the start, (0, 1).',
    noticeNear: 'The point runs clockwise round the circle and position {position} lands close to position {near}: in one plane, positions pile up.',
    noticeSlow: 'Pair {pair} turns {w} rad per position: up to position {position} the point has not come round yet, so every position still has its own place on the circle.',
    noticeStart: 'Position 0 starts at the top, (sin 0, cos 0) = (0, 1); step or play to watch it turn clockwise.',
    how: 'The dots are pair i of the sinusoidal table (d = d_model) at the whole positions 0 … m; the faint path joins them through fractional positions. The last nine earlier dots are numbered where there is room; where dots crowd, some numbers are left out. “Nearest” compares the point of position m with every earlier one; the distance is the ordinary straight-line (Euclidean) distance between the two points in the plane. The small arrow at the point shows the direction of motion.',
  },
  zh: {
    title: '位置编码的一对维度画成点 (sin a, cos a)，a = m·θᵢ',
    pair: '第 i 对',
    base: '底数 base',
    position: '位置 m',
    back: '◀ 后退',
    backLabel: '后退一个位置',
    forward: '前进 ▶',
    forwardLabel: '前进一个位置',
    pause: '❚❚ 暂停',
    pauseLabel: '暂停',
    play: '▶ 播放',
    playLabel: '播放：位置逐个增加',
    unitCircle: '单位圆',
    posMark: '位置 {position}',
    ariaLabel: '单位圆，d_model = {dim} 的第 {pair} 对：位置 {position} 在 (sin a, cos a) = ({s}, {c})',
    ariaNearest: '，最接近先前的位置 {near}',
    readout: '位置 {position}，第 {pair} 对（维度 {d0}、{d1}；θ = {w} 弧度/位置）：(sin a, cos a) = ({s}, {c})；',
    readoutNearest: '此前各点中离它最近的是位置 {near}，相距 {gap}。',
    readoutStart: '这是起点 (0, 1)。',
    noticeNear: '点沿单位圆顺时针转动，位置 {position} 落在位置 {near} 附近：在一个平面里，各个位置会叠在一起。',
    noticeSlow: '第 {pair} 对每个位置只转 {w} 弧度：到位置 {position} 为止，点还没有转回来，所以每个位置在圆上仍各占一处。',
    noticeStart: '位置 0 从最上方出发，(sin 0, cos 0) = (0, 1)；单步前进或播放，可以看到它顺时针转动。',
    how: '图中的点是正弦位置编码表（d = d_model）第 i 对在整数位置 0 … m 上的取值；淡色轨迹经过其间的非整数位置把它们连起来。此前最后九个点在有空位时标出位置，点挤在一起时，有些编号会略去。“最近的点”是把位置 m 的点与之前每个位置的点比较，距离是平面上两点之间通常的直线距离（欧氏距离）。点旁的小箭头表示运动方向。',
  },
});

/**
 * Pair `pair` of the table for positions from..to: dots at whole positions from pe.sinusoidal,
 * and a smooth path between them from pe.ropeCache (the same angles position · w_i, at
 * fractional positions). Shared with helix.js.
 */
export function pairTrack(pe, { dim, base, pair, from, to }) {
  const w = pe.ropeInvFreq(dim, { base });
  const count = to - from + 1;
  const table = pe.sinusoidal(count, dim, { base, start: from });
  const sin = new Float64Array(count), cos = new Float64Array(count);
  for (let r = 0; r < count; r++) {
    sin[r] = table[r * dim + 2 * pair];
    cos[r] = table[r * dim + 2 * pair + 1];
  }
  // Enough samples that one step turns at most ~6°, within the budget.
  const perPos = Math.min(32, Math.max(1, Math.ceil(w[pair] / 0.1)));
  const n = Math.min(MAX_PATH, (to - from) * perPos + 1);
  const xs = Float64Array.from({ length: n }, (_, j) => (n === 1 ? from : from + ((to - from) * j) / (n - 1)));
  const cache = pe.ropeCache(xs, dim, { base });
  const half = dim / 2;
  const path = { x: xs, sin: new Float64Array(n), cos: new Float64Array(n) };
  for (let j = 0; j < n; j++) {
    path.sin[j] = cache.sin[j * half + pair];
    path.cos[j] = cache.cos[j * half + pair];
  }
  return { w: w[pair], from, sin, cos, path };
}

/** The earlier position whose point lies nearest the last one (Euclidean distance in the plane). */
export function nearestEarlier(track, last) {
  let best = null;
  for (let p = track.from; p < last; p++) {
    const r = p - track.from, l = last - track.from;
    const d = Math.hypot(track.sin[r] - track.sin[l], track.cos[r] - track.cos[l]);
    if (!best || d < best.d) best = { p, d };
  }
  return best;
}

function arrow(ctx, x0, y0, x1, y1, color, width = 2) {
  const a = Math.atan2(y1 - y0, x1 - x0), head = 9;
  ctx.strokeStyle = ctx.fillStyle = color;
  ctx.lineWidth = width;
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1 - head * 0.6 * Math.cos(a), y1 - head * 0.6 * Math.sin(a));
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - head * Math.cos(a - 0.4), y1 - head * Math.sin(a - 0.4));
  ctx.lineTo(x1 - head * Math.cos(a + 0.4), y1 - head * Math.sin(a + 0.4));
  ctx.closePath();
  ctx.fill();
}

const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
// Labels that merely touch read as one number ("0123456" for seven close dots): a label keeps
// this much clear of every other label, dot and tick.
const GAP = 5;
const grown = (b) => ({ left: b.left - GAP, right: b.right + GAP, top: b.top - GAP, bottom: b.bottom + GAP });

/**
 * Where a label centred near a point goes: the first of `spots` (centres, best first) whose box,
 * slid inside the w × h canvas, is clear of every box in `taken`; failing that, a label that
 * `must` be written goes at the first, slid inside and below the corner note so it never covers
 * it, and any other is left out (null): where dots crowd, a number jammed against its neighbours
 * would read as part of theirs. The box is added to `taken`.
 */
function placeLabel(ctx, text, spots, { w, h, note, taken, height, must = false }) {
  const width = ctx.measureText(text).width, pad = 2;
  const boxAt = ({ x, y }) => {
    const left = Math.min(Math.max(x - width / 2, pad), w - width - pad);
    const top = Math.min(Math.max(y - height / 2, pad), h - height - pad);
    return { text, left, top, right: left + width, bottom: top + height };
  };
  let box = spots.map(boxAt).find((b) => !overlaps(b, note) && !taken.some((t) => overlaps(grown(b), t)));
  if (!box) {
    if (!must) return null;
    box = boxAt(spots[0]);
    if (overlaps(box, note)) box = boxAt({ x: spots[0].x, y: note.bottom + 1 + height / 2 });
  }
  taken.push(box);
  ctx.fillText(text, (box.left + box.right) / 2, (box.top + box.bottom) / 2);
  return box;
}

/**
 * Spots for a label of `width` × `height` beside the point (px, py) of unit vector (s, c): out
 * along the radius (where the page has always put it), then behind the point along its path,
 * ahead of it, and inside the circle, each just clear of the dot by `gap`.
 */
function spotsBeside(px, py, s, c, { width, height, gap, out, ahead = true }) {
  const beside = (dx, dy) => {
    const reach = (Math.abs(dx) * width) / 2 + (Math.abs(dy) * height) / 2 + gap;
    return { x: px + dx * reach, y: py + dy * reach };
  };
  // on screen the radius points (s, −c) and the motion (c, s)
  const spots = [{ x: px + s * out, y: py - c * out }, beside(s, -c), beside(-c, -s)];
  if (ahead) spots.push(beside(c, s));
  spots.push(beside(-s, c));
  // where close dots crowd those, a line further out or further in, still on the dot's radius
  const step = height + GAP;
  for (const k of [1, 2]) {
    spots.push({ x: px + s * (out + k * step), y: py - c * (out + k * step) });
    const inward = beside(-s, c);
    spots.push({ x: inward.x - s * k * step, y: inward.y + c * k * step });
  }
  return spots;
}

export default {
  kind: 'unit-circle',
  messages: M,
  title: M.title,
  // the position is what a reader moves; a GIF of 0 → 50 shows the point running round and
  // coming back near where it started
  main: 'position',
  sweep: { param: 'position', from: 0, to: 50 },
  params: [
    { name: 'pair', label: M.pair, type: 'int', min: 0, max: 511, value: 0, maxFor: ({ dim }) => dim / 2 - 1 },
    { name: 'dim', label: 'd_model', type: 'int', min: 2, max: 1024, step: 2, value: 64 },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 1000000, step: 'any', value: 10000 },
    // the slider steps through the first 64 positions (each a finger's width on a phone); the number box goes to 1000
    { name: 'position', label: M.position, type: 'int', min: 0, max: 1000, sliderMax: 64, value: 7 },
  ],
  mount(el, { pe }) {
    el.classList.add('circle-body');
    const bar = document.createElement('div');
    bar.className = 'circle-buttons';
    const button = () => {
      const b = document.createElement('button');
      b.type = 'button';
      bar.append(b);
      return b;
    };
    const back = button(), play = button(), fwd = button();
    // Texts in the current language; run again by update() after a language switch.
    const labelButtons = () => {
      const set = (b, text, label) => ((b.textContent = String(text)), b.setAttribute('aria-label', String(label)));
      set(back, M.back, M.backLabel);
      set(fwd, M.forward, M.forwardLabel);
      if (timer) set(play, M.pause, M.pauseLabel);
      else set(play, M.play, M.playLabel);
    };
    el.append(bar);
    const { canvas, paint, destroy } = plainCanvas(el, 1, M.unitCircle);

    // The position is the host's control: drive its range input so slider, box and chart agree.
    const input = () => el.closest('.chart')?.querySelector('input[type="range"][name="position"]');
    const move = (delta) => {
      const r = input();
      if (!r) return false;
      const v = Math.min(Number(r.max), Math.max(Number(r.min), Number(r.value) + delta));
      if (v === Number(r.value)) return false;
      r.value = String(v);
      r.dispatchEvent(new Event('input', { bubbles: true }));
      return true;
    };
    // Nothing moves until the reader presses play (no autoplay, whatever the motion setting).
    let timer = 0;
    const stop = () => {
      clearInterval(timer);
      timer = 0;
      labelButtons();
    };
    play.addEventListener('click', () => {
      if (timer) return stop();
      timer = setInterval(() => move(1) || stop(), 350);
      labelButtons();
    });
    labelButtons();
    back.addEventListener('click', () => (stop(), move(-1)));
    fwd.addEventListener('click', () => (stop(), move(1)));

    const view = {
      update({ pair, dim, base, position }) {
        labelButtons();
        pair = Math.min(pair, dim / 2 - 1);
        const t = pairTrack(pe, { dim, base, pair, from: 0, to: position });
        const s = t.sin[position], c = t.cos[position];
        const near = nearestEarlier(t, position);
        const v = {
          position, pair, dim, d0: 2 * pair, d1: 2 * pair + 1, w: sig(t.w, 4), s: s.toFixed(3), c: c.toFixed(3),
          near: near?.p, gap: near && sig(near.d, 2),
        };
        paint((ctx, w, h) => {
          const size = Math.min(w, h), R = Math.max(1, size / 2 - 42 * textScale()), cx = w / 2, cy = h / 2; // R > 0 even while the box is tiny
          const X = (v) => cx + v * R, Y = (v) => cy - v * R;
          const colour = ink();
          ctx.font = chartFont('label');
          ctx.lineWidth = 1;
          ctx.setLineDash([3, 4]);
          ctx.strokeStyle = colour.line;
          for (const g of [-1, -0.5, 0.5, 1]) {
            ctx.beginPath(); ctx.moveTo(X(g), Y(-1.1)); ctx.lineTo(X(g), Y(1.1)); ctx.stroke();
            ctx.beginPath(); ctx.moveTo(X(-1.1), Y(g)); ctx.lineTo(X(1.1), Y(g)); ctx.stroke();
          }
          ctx.setLineDash([]);
          ctx.strokeStyle = colour.muted;
          ctx.beginPath(); ctx.moveTo(X(-1.1), cy); ctx.lineTo(X(1.1), cy); ctx.stroke();
          ctx.beginPath(); ctx.moveTo(cx, Y(-1.1)); ctx.lineTo(cx, Y(1.1)); ctx.stroke();
          // The ticks at the ends of the grid lines, outside the circle: where an axis meets the
          // circle a position's point can land (position 0 sits at (0, 1)).
          ctx.fillStyle = colour.muted;
          // (the y axis's on the right: on the left its 1 would run into the axis names beside it)
          const ticks = [['−1', X(-1), Y(-1.1) + 3, 'center'], ['1', X(1), Y(-1.1) + 3, 'center'],
            ['1', X(1.1) + 4, Y(1), 'left'], ['−1', X(1.1) + 4, Y(-1), 'left']];
          for (const [text, x, y, align] of ticks) {
            ctx.textAlign = align;
            ctx.textBaseline = align === 'left' ? 'middle' : 'top';
            ctx.fillText(text, x, y);
          }
          // Axis names in the corner, where no point of the circle can land on them, inside the
          // margin the grid keeps from the edge (X(-1.1), Y(1.1): its top left corner).
          ctx.fillStyle = colour.fg;
          ctx.textAlign = 'left';
          ctx.textBaseline = 'top';
          const line = textSize('label');
          ctx.fillText('x = sin a', X(-1.1), Y(1.1));
          ctx.fillText('y = cos a', X(-1.1), Y(1.1) + line + 4);
          const note = { left: X(-1.1), top: Y(1.1), bottom: Y(1.1) + 2 * line + 6,
            right: X(-1.1) + Math.max(ctx.measureText('x = sin a').width, ctx.measureText('y = cos a').width) };

          // The circle every pair lives on, then the path this pair has run so far.
          ctx.strokeStyle = '#b8c0cc';
          ctx.beginPath(); ctx.arc(cx, cy, R, 0, 2 * Math.PI); ctx.stroke();
          ctx.strokeStyle = palette[0];
          ctx.globalAlpha = 0.45;
          ctx.lineWidth = 2;
          ctx.beginPath();
          t.path.sin.forEach((v, j) => (j ? ctx.lineTo(X(v), Y(t.path.cos[j])) : ctx.moveTo(X(v), Y(t.path.cos[j]))));
          ctx.stroke();
          ctx.globalAlpha = 1;

          // The earlier positions faint, in one path (a thousand of them draw as one fill), the
          // last nine labelled, the current one solid.
          const labelled = Math.max(0, position - 9);
          const dots = (from, to, alpha) => {
            if (from > to) return;
            ctx.fillStyle = palette[0];
            ctx.globalAlpha = alpha;
            ctx.beginPath();
            for (let p = from; p <= to; p++) {
              const x = X(t.sin[p]), y = Y(t.cos[p]);
              ctx.moveTo(x + 3.5, y);
              ctx.arc(x, y, 3.5, 0, 2 * Math.PI);
            }
            ctx.fill();
          };
          dots(0, labelled - 1, 0.35);
          dots(labelled, position - 1, 0.85);
          dots(position, position, 1);
          ctx.globalAlpha = 1;
          // The current point: an arrow from the centre, and the way it is moving
          // (d/da (sin a, cos a) = (cos a, −sin a): clockwise on this page).
          arrow(ctx, cx, cy, X(s), Y(c), palette[1], 2.5);
          arrow(ctx, X(s), Y(c), X(s) + c * 26, Y(c) + s * 26, palette[1], 1.5);
          // Labels last, each inside the canvas and off the corner note, the ticks, the current
          // point and its arrow head, and the labels placed before it: the current point's first.
          const around = (x, y, r) => ({ left: x - r, right: x + r, top: y - r, bottom: y + r });
          const taken = [around(X(s), Y(c), 6), around(X(s) + c * 26, Y(c) + s * 26, 6),
            ...ticks.map(([text, x, y, align]) => {
              const tw = ctx.measureText(text).width, left = align === 'left' ? x : x - tw / 2;
              return { left, right: left + tw, top: align === 'left' ? y - line / 2 : y, bottom: align === 'left' ? y + line / 2 : y + line };
            })];
          for (let p = labelled; p < position; p++) taken.push(around(X(t.sin[p]), Y(t.cos[p]), 4));
          const at = { w, h, note, taken };
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          ctx.fillStyle = textShade(palette[1]);
          ctx.font = chartFont('bold');
          const mark = M.posMark.format(v), bold = textSize('bold');
          const labels = [placeLabel(ctx, mark, spotsBeside(X(s), Y(c), s, c,
            { width: ctx.measureText(mark).width, height: bold, gap: 9, out: 0.22 * R, ahead: false }), { ...at, height: bold, must: true })];
          ctx.fillStyle = colour.fg;
          ctx.font = chartFont('label');
          for (let p = position - 1; p >= labelled; p--) {
            const text = String(p), x = X(t.sin[p]), y = Y(t.cos[p]);
            const box = placeLabel(ctx, text, spotsBeside(x, y, t.sin[p], t.cos[p],
              { width: ctx.measureText(text).width, height: line, gap: 6, out: 0.17 * R }), { ...at, height: line });
            if (box) labels.push(box);
          }
          // what was drawn where, for the tests that keep labels inside the canvas and apart
          view.drawnLabels = { w, h, note, labels };
        });
        canvas.setAttribute('aria-label', M.ariaLabel.format(v) + (near ? M.ariaNearest.format(v) : ''));
        const round = position * t.w >= 2 * Math.PI;
        view.notice = !near ? String(M.noticeStart) : round ? M.noticeNear.format(v) : M.noticeSlow.format(v);
        view.readout = M.readout.format(v) + (near ? M.readoutNearest.format(v) : String(M.readoutStart));
        return {
          columns: ['position', `sin a (dim ${2 * pair})`, `cos a (dim ${2 * pair + 1})`],
          heads: colHeads([COL.position, COL.sinDim.format({ d: 2 * pair }), COL.cosDim.format({ d: 2 * pair + 1 })]),
          rows: Array.from({ length: position + 1 }, (_, p) => [p, t.sin[p], t.cos[p]]),
        };
      },
      destroy: () => (stop(), destroy()),
    };
    return view;
  },
};
