// repaint.js: how a hand-drawn canvas is drawn again into another 2D context (the SVG export's,
// host/svg.js): charts/shared/canvas.js registers each plainCanvas here. Kept apart from svg.js
// so that a chart does not load the SVG writer until a reader asks for an SVG.

const painters = new WeakMap();

/** Registers how `canvas` is drawn again: repaint(ctx) draws it into ctx in CSS pixels. */
export function repaintable(canvas, repaint) {
  painters.set(canvas, repaint);
}

/** The repaint function registered for `canvas`, if any. */
export const painterOf = (canvas) => painters.get(canvas);
