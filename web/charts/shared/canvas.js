// canvas.js: canvases drawn by hand: a responsive canvas with an accessible name, a canvas for
// diagrams, and heatmaps painted as ImageData through a 256-entry colour table.
import { t, minusSign } from '../../host/i18n.js';
import { ink, isDark } from './colours.js';
import { repaintable } from '../../host/repaint.js';
import { measureNow, sizeAll, watchSize } from '../../host/canvas-sizes.js';
import { PAGE_SIZE, chartFont, textScale, textSize } from './lettering.js';

/**
 * A canvas's accessible name that follows the language: `label` is a string, a message or a
 * function returning either. Set now; call again (or let lineChart's hook do it) to refresh.
 */
export function ariaLabel(canvas, label) {
  canvas.setAttribute('aria-label', t(typeof label === 'function' ? label() : label));
}

/**
 * Makes ctx write a negative number with the minus sign U+2212, as the readouts print it
 * (i18n.js minusSign: '∠ = -30°' is drawn '∠ = −30°', 1e-3 keeps its hyphen): every label, tick
 * and note drawn by hand or by Chart.js, measured as it is drawn. Returns ctx.
 */
export function minusText(ctx) {
  // (the prototype's method is looked up at each call, so that whoever wraps it later is still called)
  const proto = Object.getPrototypeOf(ctx);
  for (const name of ['fillText', 'strokeText', 'measureText']) {
    if (Object.hasOwn(ctx, name) && ctx[name].minus) continue;
    const f = function (text, ...rest) {
      return proto[name].call(this, minusSign(String(text)), ...rest);
    };
    f.minus = true;
    ctx[name] = f;
  }
  return ctx;
}

/** A responsive canvas in `el`; `aspect` is width / height. Its text has the true minus sign (minusText). */
export function canvasIn(el, aspect = 2) {
  const box = document.createElement('div');
  box.className = 'canvas-box';
  box.style.aspectRatio = String(aspect);
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  // (Chart.js draws with the context getContext('2d') returns: this one)
  minusText(canvas.getContext('2d'));
  box.append(canvas);
  el.append(box);
  return canvas;
}

/** A canvas for hand-drawn diagrams: draw(ctx, width, height) runs in CSS pixels. */
export function plainCanvas(el, aspect, label) {
  const canvas = canvasIn(el, aspect);
  ariaLabel(canvas, label);
  const ctx = canvas.getContext('2d');
  let last = null;
  // The canvas's CSS size, from canvas-sizes.js (reported after the browser's own layout):
  // reading clientWidth in a redraw, after the page's DOM was written, would force a layout of
  // the whole page. Until it has one (off screen) a picture waits and is painted when it does.
  let size = null;
  const paint = (draw) => {
    last = draw;
    if (!size) return;
    const [w, h] = size, r = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(w * r) || canvas.height !== Math.round(h * r)) {
      canvas.width = Math.round(w * r);
      canvas.height = Math.round(h * r);
    }
    ctx.setTransform(r, 0, 0, r, 0, 0);
    ctx.clearRect(0, 0, w, h);
    draw(ctx, w, h);
  };
  // the SVG export draws the same picture into its own context (which writes the minus sign itself)
  repaintable(canvas, (target) => {
    if (!size) sizeAll(canvas);
    last?.(target, ...(size ?? [canvas.clientWidth, canvas.clientHeight]));
  });
  const stop = watchSize(canvas, (w, h) => {
    size = [w, h];
    if (last) paint(last);
  });
  /**
   * Gives the canvas's box a new shape (width / height, as CSS text); true if it changed. The new
   * size is read at once, so that a picture whose shape follows its width is painted once, at its
   * shape, rather than at the old one until the browser reports the new size a frame later.
   */
  const reshape = (aspect) => {
    const box = canvas.parentElement;
    if (box.style.aspectRatio === aspect) return false;
    box.style.aspectRatio = aspect;
    const now = size && measureNow(canvas);
    if (now?.[0]) size = now;
    return true;
  };
  return { canvas, paint, reshape, destroy: stop };
}

// ---- redraws a chart asks for, and hand-drawn grids ----

/**
 * Asks the chart host to redraw the chart around `el`, as a change of one of its controls
 * would: for inputs a chart builds in its own body (a textarea, a preset menu), which the host
 * does not watch. The host then calls update() once per frame, keeps `data` and fires
 * 'posenc:drawn', exactly as for its own controls.
 */
export function requestRedraw(el) {
  el.closest('.chart')?.querySelector('.controls input, .controls select')?.dispatchEvent(new Event('input'));
}

/** The event a chart's container gets for a redraw that no reader asked for (host/mount.js). */
export const REFRESH = 'posenc:refresh';

/**
 * Redraws the chart around `el` as requestRedraw does, for a change no reader made (data that
 * arrives, another chart's training done, the screen narrowed): its readout is not announced.
 */
export function refresh(el) {
  el.closest('.chart')?.dispatchEvent(new Event(REFRESH));
}

/**
 * Paints a cols × rows grid into `image` (an offscreen canvas, one pixel per cell):
 * index(c, r) gives a LUT entry 0..255, or -1 for a cell without a value (drawn in a grey a
 * step off the theme's background: light on the light theme, dark on the dark one).
 */
export function fillCells(image, cols, rows, lut, index) {
  if (image.width !== cols || image.height !== rows) (image.width = cols), (image.height = rows);
  const ctx = image.getContext('2d');
  const img = ctx.createImageData(cols, rows);
  const px = img.data, none = isDark() ? [44, 49, 59, 255] : [232, 234, 238, 255];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const k = index(c, r), o = 4 * (r * cols + c);
      if (k < 0) px.set(none, o);
      else (px[o] = lut[3 * k]), (px[o + 1] = lut[3 * k + 1]), (px[o + 2] = lut[3 * k + 2]), (px[o + 3] = 255);
    }
  }
  ctx.putImageData(img, 0, 0);
  return image;
}

/** Frames `box` in the theme's muted line and leaves the theme's ink and label font set, aligned as given. */
function frameAndInk(ctx, box, align, baseline) {
  const colour = ink();
  ctx.strokeStyle = colour.muted;
  ctx.lineWidth = 1;
  ctx.strokeRect(box.x - 0.5, box.y - 0.5, box.w + 1, box.h + 1);
  ctx.fillStyle = colour.fg;
  ctx.font = chartFont('tick');
  ctx.textAlign = align;
  ctx.textBaseline = baseline;
}

/** Device pixels per CSS pixel of `ctx` as drawn now (its transform's scale; 1 without one). */
export function deviceScale(ctx) {
  return Math.abs(ctx.getTransform?.().a ?? 1) || 1;
}

/**
 * Draws a cell image into the rectangle `plot` ({ x, y, w, h }, CSS pixels) with a frame, tick
 * labels and axis titles: xTicks / yTicks are [fraction of the axis from the left / top, text];
 * yTitleX (default 34 px left of the plot, more as the text grows) is where the rotated y title
 * is centred. The text is at lettering.js's size of the moment.
 * Cells stay sharp blocks when enlarged and are averaged when shrunk.
 */
export function drawCells(ctx, image, plot, { xTicks = [], yTicks = [], xTitle = '', yTitle = '', yTitleX, title = '', width = Infinity } = {}) {
  // smoothed only when shrunk on the device's pixels: enlarged, cells stay sharp blocks
  const r = deviceScale(ctx);
  ctx.imageSmoothingEnabled = image.width > plot.w * r || image.height > plot.h * r;
  ctx.drawImage(image, plot.x, plot.y, plot.w, plot.h);
  frameAndInk(ctx, plot, 'center', 'top');
  const s = textScale();
  for (const [f, text] of xTicks) {
    const x = plot.x + f * plot.w;
    ctx.fillRect(Math.round(x), plot.y + plot.h, 1, 3);
    ctx.fillText(text, x, plot.y + plot.h + 4);
  }
  if (xTitle) ctx.fillText(xTitle, plot.x + plot.w / 2, plot.y + plot.h + 7 + textSize('tick')); // under the ticks
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const [f, text] of yTicks) {
    const y = plot.y + f * plot.h;
    ctx.fillRect(plot.x - 3, Math.round(y), 3, 1);
    ctx.fillText(text, plot.x - 5, y);
  }
  if (yTitle) {
    ctx.save();
    ctx.translate(yTitleX ?? plot.x - Math.round(34 * s), plot.y + plot.h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.fillText(yTitle, 0, 0);
    ctx.restore();
  }
  if (title) {
    // grown text narrows to the plot's width, where the colour bar's top label would meet it,
    // but never below the page's size (PAGE_SIZE: on the page nothing changes); text wider than
    // the whole canvas (`width`, a phone's) narrows to fit it, down to 9 px
    ctx.font = chartFont('title');
    const wide = ctx.measureText(title).width, size = textSize('title');
    let fit = wide > plot.w && size > PAGE_SIZE ? Math.max(PAGE_SIZE, Math.floor((size * plot.w) / wide)) : size;
    const room = width - plot.x - 2;
    if ((wide * fit) / size > room) fit = Math.max(9, Math.floor((size * room) / wide));
    if (fit !== size) ctx.font = chartFont('title', fit);
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    ctx.fillText(title, plot.x, plot.y - 4);
  }
}

/** A vertical colour bar for `lut` in rect { x, y, w, h }, top = 255; labels are [fraction from the top, text]. */
export function drawColourBar(ctx, lut, bar, labels) {
  for (let py = 0; py < bar.h; py++) {
    const k = 3 * Math.min(255, Math.max(0, Math.floor((1 - (py + 0.5) / bar.h) * 256)));
    ctx.fillStyle = `rgb(${lut[k]} ${lut[k + 1]} ${lut[k + 2]})`;
    ctx.fillRect(bar.x, bar.y + py, bar.w, 1);
  }
  frameAndInk(ctx, bar, 'left', 'middle');
  for (const [f, text] of labels) {
    const y = bar.y + f * bar.h;
    ctx.fillRect(bar.x + bar.w, Math.round(y), 3, 1);
    ctx.fillText(text, bar.x + bar.w + 5, y);
  }
}
