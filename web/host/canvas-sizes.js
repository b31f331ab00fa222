// canvas-sizes.js: the size of each canvas a chart draws on, learned without laying the page out.
// Reading a canvas's size (clientWidth, getBoundingClientRect, getComputedStyle) right after a
// chart's DOM was written makes the browser lay out this long page again, once per chart, and a
// chart sized that way is drawn at once, far from the view too. A ResizeObserver reports sizes
// after the browser's own layout and before the frame is painted: a canvas learns its size
// there and is drawn then. A canvas the browser has not laid out yet (in a section far from the
// view, which content-visibility skips) has no size until its section nears the view; one that
// still has none when the page is idle is measured then, so that every chart is drawn before
// the reader gets to it. What needs pixels at once (print, exports) measures first (sizeAll).
import { eachIdleMoment } from './idle.js';

/** canvas -> { box, onSize(width, height), size: [w, h] once known (0 × 0: measured while not shown) } */
const watched = new Map();
const canvasOf = new Map(); // box -> canvas
const waiting = new Set(); // { root, done(root), resolve } of whenSized() and whenShown()

/** The size a canvas has on screen; a canvas out of the layout (hidden, or behind a print snapshot) keeps its last. */
function learn(canvas, width, height, measured, quiet = false) {
  const w = watched.get(canvas);
  if (!w) return;
  if (width > 0 && height > 0) {
    w.size = [width, height];
    if (!quiet) w.onSize(width, height);
  } else if (measured && !w.size) {
    w.size = [0, 0];
  }
  settle(canvas);
}

/**
 * Resolves the whenSized() and whenShown() promises whose canvases are all as they wait for (or
 * no longer watched): those around `canvas`, or every one (a canvas no longer watched may have
 * left the page).
 */
function settle(canvas = null) {
  for (const w of waiting) if ((!canvas || w.root.contains(canvas)) && w.done(w.root)) waiting.delete(w), w.resolve();
}

const observer = typeof ResizeObserver === 'function'
  ? new ResizeObserver((entries) => {
    for (const e of entries) learn(canvasOf.get(e.target), e.contentRect.width, e.contentRect.height, false);
  })
  : null;

// a screen of another pixel density draws the same CSS size with more pixels
let ratio = globalThis.devicePixelRatio;
globalThis.addEventListener?.('resize', () => {
  if (globalThis.devicePixelRatio === ratio) return;
  ratio = globalThis.devicePixelRatio;
  for (const w of watched.values()) if (w.size?.[0]) w.onSize(...w.size);
});

/** Measures `canvas`'s box now, its content box as the observer reports it (a layout, if the page changed since the last). */
function measure(canvas, quiet = false) {
  const box = watched.get(canvas).box;
  let r = box.getBoundingClientRect();
  // Chromium's first answer for a box in a section it has never laid out (content-visibility:
  // auto) can be empty; a box that is shown is asked again
  if (!r.width && box.checkVisibility?.()) r = box.getBoundingClientRect();
  const s = getComputedStyle(box);
  const px = (...names) => names.reduce((sum, n) => sum + (parseFloat(s[n]) || 0), 0);
  learn(canvas, r.width - px('paddingLeft', 'paddingRight', 'borderLeftWidth', 'borderRightWidth'),
    r.height - px('paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth'), true, quiet);
}

/** Measures, one per idle moment, the canvases that have no size yet. */
const drainWhenIdle = eachIdleMoment(() => {
  const next = [...watched].find(([c, w]) => !w.size && c.isConnected);
  if (next) measure(next[0]);
  return Boolean(next);
});

/**
 * Calls onSize(width, height) (CSS pixels) with the size of `canvas`, the content box of `box`
 * (the canvas itself, or what it fills: a chart sized by Chart.js sets its canvas's style to the
 * size it was given), whenever it is laid out at a new size (and at a new pixel density), the
 * first time at once if the size is known. Returns a function that stops it.
 */
export function watchSize(canvas, onSize, box = canvas) {
  const known = watched.get(canvas)?.size;
  watched.set(canvas, { box, onSize, size: known });
  canvasOf.set(box, canvas);
  if (observer) observer.observe(box);
  else measure(canvas);
  if (known?.[0]) onSize(...known);
  else drainWhenIdle();
  return () => {
    observer?.unobserve(box);
    watched.delete(canvas);
    canvasOf.delete(box);
    settle();
  };
}

/** `canvas`'s size [w, h] read from the layout now, for a caller about to draw at it (not told to onSize); null for a canvas not watched. */
export function measureNow(canvas) {
  if (!watched.has(canvas)) return null;
  measure(canvas, true);
  return watched.get(canvas)?.size ?? null;
}

/** `canvas`'s last known size [w, h] in CSS pixels, or null while it has none. */
export const sizeOf = (canvas) => watched.get(canvas)?.size ?? null;

/** Measures now every canvas within `root` that has no size yet (each draws as it learns its size). */
export function sizeAll(root = document) {
  for (const [canvas, w] of watched) if (!w.size && root.contains(canvas)) measure(canvas);
}

/** Whether every watched canvas within `root` has a size. */
export const sizedWithin = (root) => ![...watched].some(([c, w]) => !w.size && root.contains(c));

/** Whether every watched canvas within `root` has a size it is shown at (not 0 × 0: measured while not shown). */
export const shownWithin = (root) => ![...watched].some(([c, w]) => !w.size?.[0] && root.contains(c));

const until = (done, root) => (done(root) ? Promise.resolve() : new Promise((resolve) => waiting.add({ root, done, resolve })));

/** Resolves once every canvas watched within `root` has a size (drawn, or measured while not shown). */
export const whenSized = (root = document) => until(sizedWithin, root);

/** Resolves once every canvas watched within `root` is shown at a size, and so drawn (one in a hidden box: when the box is shown). */
export const whenShown = (root = document) => until(shownWithin, root);
