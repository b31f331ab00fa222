// redraw-soon.js: redraws that wait until their chart is near the view. A long page mounts every
// chart as it loads, and a language or theme switch changes every chart at once: computing and
// drawing them all (their kernels, then Chart.js) holds the page for most of a second. A chart
// near the view is redrawn at once; one far from it when the page is next idle, one chart at a
// time, or as soon as it comes near, so that it is drawn before the reader gets to it. A chart
// that is not shown (the page behind the presenter view) waits until it is. What needs every
// chart as the page is set now (print, an export, the tests) calls redrawNow() first.
import { eachIdleMoment } from './idle.js';

/** container -> its redraw, for the charts that wait */
const waiting = new Map();
/** The boxes watched (a chart's section, or the chart itself outside a section) -> how many charts, and those near the view. */
const watched = new Map();
const near = new WeakSet();
const boxOf = (container) => container.closest('section') ?? container;
/** Whether `container` is near the view; one moved out of its box (onto the presenter's slide) is so when it is shown. */
const isNear = (container) => {
  const box = boxOf(container);
  return watched.has(box) ? near.has(box) : container.checkVisibility();
};

// (a section's own box, not the chart's: a section far from the view has its contents skipped
// by content-visibility, and a chart in skipped contents is never near)
const observer = typeof IntersectionObserver === 'function'
  ? new IntersectionObserver((entries) => {
    for (const e of entries) (e.isIntersecting ? near.add(e.target) : near.delete(e.target));
    for (const [container] of waiting) if (isNear(container)) run(container);
    drain();
  }, { rootMargin: '100% 0px' })
  : null;

function run(container) {
  const redraw = waiting.get(container);
  waiting.delete(container);
  if (container.isConnected) redraw();
}

/** Redraws the waiting charts that are shown, one per idle moment; a chart not shown waits for the observer. */
const drainWhenIdle = eachIdleMoment(() => {
  const next = [...waiting.keys()].find((c) => !c.isConnected || c.checkVisibility());
  if (next) run(next);
  return Boolean(next);
});
const drain = () => waiting.size && drainWhenIdle();

/** Watches `container` (a chart's) for redrawSoon(); returns a function that stops it. */
export function watchNear(container) {
  const box = boxOf(container);
  if (!watched.has(box)) observer?.observe(box);
  watched.set(box, (watched.get(box) ?? 0) + 1);
  return () => {
    waiting.delete(container);
    // (a section holds several charts: it stays watched while one of them is)
    const n = watched.get(box) - 1;
    if (n > 0) return void watched.set(box, n);
    watched.delete(box);
    observer?.unobserve(box);
  };
}

/**
 * Calls redraw() now if `container` is near the view (or cannot be watched), else when it comes
 * near or the page is idle; a later call replaces an earlier one still waiting.
 */
export function redrawSoon(container, redraw) {
  if (!observer || isNear(container)) {
    waiting.delete(container);
    redraw();
    return;
  }
  waiting.set(container, redraw);
  drain();
}

/** Forgets `container`'s waiting redraw: it was just redrawn. */
export const redrawn = (container) => waiting.delete(container);

/** Runs now every waiting redraw of a chart within `root` or around it (`root` a canvas of the chart); returns how many ran. */
export function redrawNow(root = document) {
  let n = 0;
  for (const container of [...waiting.keys()]) if (root.contains(container) || container.contains(root)) run(container), n++;
  return n;
}
