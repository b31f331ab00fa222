// lettering.js: the one source of the size of chart text. Chart.js draws ticks and legends at
// Chart.defaults.font.size: 12 px on the page, presentSize() while the presenter view shows a
// chart (page/present.js sets it with setLettering, then redraws the chart). Text drawn by hand on a canvas, and by the
// Chart.js plugins, takes its font from here, scaled the same way, and layouts that leave room
// for labels scale their margins by textScale(): on the page the scale is 1 and nothing moves.

/** Chart.js's size on the page. */
export const PAGE_SIZE = 12;

/**
 * Chart.js's size in the presenter view on a screen of width × height CSS pixels: 18 px on a
 * 1280×720 projector, growing with the screen (27 px at 1920×1080) so that a chart read from
 * the back of the room is as legible on a large screen as on a small one; never under 16 px.
 * The view's own text is sized from it too (present.js), so chart and slide grow together.
 */
export function presentSize(width, height) {
  const k = Math.min(width / 1280, height / 720);
  return Math.max(16, Math.min(40, Math.round(18 * k)));
}
const FAMILY = 'system-ui, sans-serif';

/** Each role's weight and size on the page: tick and note text, labels, bold labels, titles. */
const ROLES = { tick: [400, 11], label: [400, 12], bold: [600, 12], title: [600, 12] };

let size = PAGE_SIZE;

/**
 * Sets chart text to `px` CSS pixels: Chart.js's default size (of `Chart`, the copy the charts draw
 * with: a bundled one is not the global one) and the hand-drawn text that follows it. The
 * presenter view and exported figures set it, and put back PAGE_SIZE after.
 */
export function setLettering(Chart, px) {
  size = px;
  if (Chart?.defaults?.font) Chart.defaults.font.size = px;
}

/** How much larger chart text is now than on the page (1 on the page). */
export function textScale() {
  return size / PAGE_SIZE;
}

/** The size, in CSS pixels, of text of `role` now (11 px ticks on the page, 17 px in the presenter at 1280×720). */
export function textSize(role = 'label') {
  return Math.round(ROLES[role][1] * textScale());
}

/**
 * The canvas font for text of `role`: 'tick' (tick labels and notes), 'label', 'bold' or 'title';
 * `px` overrides the size (a label that must fit a cell).
 */
export function chartFont(role = 'label', px = textSize(role)) {
  const weight = ROLES[role][0];
  return `${weight === 400 ? '' : `${weight} `}${px}px ${FAMILY}`;
}

/** `margin` ({ left, right, top, bottom } in page pixels) scaled with the text. */
export function scaledMargin(margin, s = textScale()) {
  return Object.fromEntries(Object.entries(margin).map(([k, v]) => [k, Math.round(v * s)]));
}

/** n's digits as Unicode subscripts (127 → ₁₂₇), for chart text that cannot hold <sub>. */
export const subscript = (n) => String(n).replace(/[0-9]/g, (c) => String.fromCharCode(0x2080 + Number(c)));

/**
 * Chart.js's scale title font, as a scriptable option: the text's size, smaller (to 70 %) when the
 * title is longer than its axis can hold. Grown text makes a long title ("θᵢ (rad per position)
 * and Tᵢ (positions), log scale") outrun a short axis; the presenter sets this while it shows a
 * chart (on the page the titles fit and the size is Chart.js's own).
 */
export function axisTitleFont(ctx) {
  const px = Math.round(PAGE_SIZE * textScale());
  const { chart, scale } = ctx ?? {};
  const lines = [].concat(scale?.options?.title?.text ?? '').filter(Boolean);
  if (!chart?.ctx || !lines.length) return { size: px };
  const c = chart.ctx;
  c.save();
  c.font = `${px}px ${chart.options?.font?.family ?? FAMILY}`;
  const wide = Math.max(...lines.map((line) => c.measureText(line).width));
  c.restore();
  // what the axis leaves after the legend, the other axis and its title, about five lines of text,
  // or, once the chart has been laid out, the axis's length as drawn (plus a little overhang)
  const horizontal = scale.isHorizontal(), drawn = horizontal ? scale.width : scale.height;
  const room = Math.min((horizontal ? chart.width : chart.height) - 5 * px, drawn > 0 ? drawn + px : Infinity);
  return { size: wide <= room ? px : Math.max(Math.round(0.7 * px), Math.floor((px * room) / wide)) };
}
