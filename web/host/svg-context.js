// svg-context.js: a 2D canvas context that writes SVG instead of pixels. A chart is drawn into it
// exactly as into its canvas (Chart.js through chart.ctx, hand-drawn charts through their paint
// function), so the SVG holds the same picture as vectors: paths as <path>, text as <text> in
// the font the chart asked for, clip regions as <clipPath>. What is pixels in the chart (a
// heatmap's cells, put as ImageData or drawn from an offscreen canvas) stays pixels: an <image>.
//
// Coordinates: path points are mapped by the transform in effect when they are added (as a
// canvas does), so a <path> is in the SVG's own units, CSS pixels of the chart. Text keeps its
// transform (a rotated axis title stays rotated text). Not drawn: shadows, composite modes other
// than source-over, gradients and patterns (no chart of posenc's uses them: they paint grey).
// Text has the true minus sign, as on the page's canvases (charts/shared/canvas.js minusText):
// a Chart.js tick drawn into this context never passes through the canvas's wrapper.

import { minusSign } from './i18n.js';

const TAU = 2 * Math.PI;
const num = (v) => {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
};
const escapeXML = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
  // characters XML 1.0 forbids
  .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');

let scratch = null;
/** A real 2D context for what SVG cannot answer itself: text metrics and colour parsing. */
function real() {
  scratch ??= document.createElement('canvas').getContext('2d');
  return scratch;
}

/** A CSS colour as SVG paint: { paint: '#rrggbb', opacity }. */
function paint(style) {
  if (typeof style !== 'string') return { paint: '#808080', opacity: 1 };
  const ctx = real();
  ctx.fillStyle = '#000000';
  ctx.fillStyle = style; // the canvas's own parser: any CSS colour, normalized
  const c = ctx.fillStyle;
  const m = /^rgba\((\d+), (\d+), (\d+), ([\d.]+)\)$/.exec(c);
  if (!m) return { paint: c, opacity: 1 };
  const hex = [m[1], m[2], m[3]].map((v) => Number(v).toString(16).padStart(2, '0')).join('');
  return { paint: `#${hex}`, opacity: Number(m[4]) };
}

/** A CSS font shorthand as SVG attributes. */
function fontAttrs(font) {
  const m = /^\s*(.*?)\s*([\d.]+)px(?:\s*\/\s*\S+)?\s+(.+)$/.exec(font);
  if (!m) return 'font-family="sans-serif" font-size="10"';
  const words = m[1].split(/\s+/).filter(Boolean);
  const weight = words.find((w) => /^(bold|bolder|lighter|\d{3})$/.test(w));
  const style = words.find((w) => /^(italic|oblique)$/.test(w));
  return `font-family="${escapeXML(m[3])}" font-size="${num(Number(m[2]))}"` +
    (weight ? ` font-weight="${weight}"` : '') + (style ? ` font-style="${style}"` : '');
}

const mul = (m, n) => [
  m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5],
];
const apply = (m, x, y) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

/**
 * A path as segments [cmd, ...points] ('M', 'L', 'C', 'Z'), with the canvas's path methods.
 * `map` takes a user-space point to the stored space (the context's transform for the context's
 * own path; identity for a Path2D, which is mapped when it is used).
 */
class Segments {
  constructor(map) {
    this.map = map;
    this.list = [];
    this.last = null; // current point, stored space
    this.start = null; // start of the subpath, stored space
  }

  moveTo(x, y) {
    if (![x, y].every(Number.isFinite)) return;
    const p = this.map(x, y);
    this.list.push(['M', ...p]);
    this.last = this.start = p;
  }

  lineTo(x, y) {
    if (![x, y].every(Number.isFinite)) return;
    if (!this.last) return this.moveTo(x, y);
    const p = this.map(x, y);
    this.list.push(['L', ...p]);
    this.last = p;
  }

  bezierCurveTo(x1, y1, x2, y2, x, y) {
    if (![x1, y1, x2, y2, x, y].every(Number.isFinite)) return;
    if (!this.last) this.moveTo(x1, y1);
    const p = [...this.map(x1, y1), ...this.map(x2, y2), ...this.map(x, y)];
    this.list.push(['C', ...p]);
    this.last = p.slice(4);
  }

  quadraticCurveTo(cx, cy, x, y) {
    if (![cx, cy, x, y].every(Number.isFinite)) return;
    if (!this.last) this.moveTo(cx, cy);
    // the same curve as a cubic (exact), in stored space: affine maps keep Béziers
    const [x0, y0] = this.last, [qx, qy] = this.map(cx, cy), [x3, y3] = this.map(x, y);
    this.list.push(['C', x0 + (2 / 3) * (qx - x0), y0 + (2 / 3) * (qy - y0), x3 + (2 / 3) * (qx - x3), y3 + (2 / 3) * (qy - y3), x3, y3]);
    this.last = [x3, y3];
  }

  arc(x, y, r, a0, a1, ccw = false) {
    this.ellipse(x, y, r, r, 0, a0, a1, ccw);
  }

  ellipse(x, y, rx, ry, rot, a0, a1, ccw = false) {
    if (![x, y, rx, ry, rot, a0, a1].every(Number.isFinite)) return;
    if (rx < 0 || ry < 0) throw new DOMException('negative radius', 'IndexSizeError');
    let sweep = a1 - a0;
    if (!ccw) sweep = sweep >= TAU ? TAU : ((sweep % TAU) + TAU) % TAU;
    else sweep = sweep <= -TAU ? -TAU : -((((-sweep) % TAU) + TAU) % TAU);
    const cos = Math.cos(rot), sin = Math.sin(rot);
    const at = (a) => {
      const ex = rx * Math.cos(a), ey = ry * Math.sin(a);
      return [x + ex * cos - ey * sin, y + ex * sin + ey * cos];
    };
    const d = (a) => {
      const ex = -rx * Math.sin(a), ey = ry * Math.cos(a);
      return [ex * cos - ey * sin, ex * sin + ey * cos];
    };
    const p0 = at(a0);
    if (this.last) this.lineTo(...p0);
    else this.moveTo(...p0);
    const n = Math.max(1, Math.ceil(Math.abs(sweep) / (Math.PI / 2)));
    const step = sweep / n, k = (4 / 3) * Math.tan(step / 4);
    for (let i = 0; i < n; i++) {
      const s = a0 + i * step, e = s + step;
      const [sx, sy] = at(s), [ex, ey] = at(e), [dsx, dsy] = d(s), [dex, dey] = d(e);
      this.bezierCurveTo(sx + k * dsx, sy + k * dsy, ex - k * dex, ey - k * dey, ex, ey);
    }
  }

  arcTo(x1, y1) {
    // no chart of posenc's (nor Chart.js) draws arcTo: its corner is drawn as a sharp one
    this.lineTo(x1, y1);
  }

  rect(x, y, w, h) {
    this.moveTo(x, y);
    this.lineTo(x + w, y);
    this.lineTo(x + w, y + h);
    this.lineTo(x, y + h);
    this.closePath();
  }

  roundRect(x, y, w, h) {
    this.rect(x, y, w, h);
  }

  closePath() {
    if (!this.last) return;
    this.list.push(['Z']);
    this.last = this.start;
  }

  /** The SVG path data, each point through `m` (a matrix) if given. */
  d(m) {
    return this.list.map(([c, ...p]) => {
      const q = [];
      for (let i = 0; i < p.length; i += 2) q.push(...(m ? apply(m, p[i], p[i + 1]) : [p[i], p[i + 1]]));
      return c + q.map(num).join(' ');
    }).join('');
  }
}

/** Path2D for the time a chart draws into an SvgContext (Chart.js strokes its lines through one). */
export class RecordingPath2D {
  constructor(from) {
    this.segments = new Segments((x, y) => [x, y]);
    if (from instanceof RecordingPath2D) this.segments.list.push(...from.segments.list);
  }

  addPath(path) {
    if (path instanceof RecordingPath2D) this.segments.list.push(...path.segments.list);
  }
}
for (const k of ['moveTo', 'lineTo', 'bezierCurveTo', 'quadraticCurveTo', 'arc', 'ellipse', 'arcTo', 'rect', 'roundRect', 'closePath']) {
  RecordingPath2D.prototype[k] = function (...a) {
    return this.segments[k](...a);
  };
}

const STATE = {
  fillStyle: '#000000', strokeStyle: '#000000', lineWidth: 1, lineCap: 'butt', lineJoin: 'miter', miterLimit: 10,
  font: '10px sans-serif', textAlign: 'start', textBaseline: 'alphabetic', globalAlpha: 1, lineDashOffset: 0,
  imageSmoothingEnabled: true, imageSmoothingQuality: 'low', globalCompositeOperation: 'source-over', direction: 'ltr',
  shadowBlur: 0, shadowColor: 'rgba(0, 0, 0, 0)', shadowOffsetX: 0, shadowOffsetY: 0, filter: 'none',
  letterSpacing: '0px', wordSpacing: '0px', fontKerning: 'auto',
};

/**
 * The SVG-writing context for a `width` × `height` (CSS px) drawing. `canvas` is what
 * ctx.canvas answers (the chart's own canvas: Chart.js reads its size). body() gives the
 * elements drawn so far, defs() the clip paths they use.
 */
export class SvgContext {
  #state = { ...STATE, m: [1, 0, 0, 1, 0, 0], dash: [], clip: null };
  #stack = [];
  #path = null;
  #out = [];
  #defs = [];
  #ids;

  constructor(canvas, width, height, ids = { n: 0, prefix: 'c' }) {
    this.canvas = canvas;
    this.width = width;
    this.height = height;
    this.#ids = ids;
    this.beginPath();
    for (const k of Object.keys(STATE)) {
      Object.defineProperty(this, k, {
        enumerable: true,
        get: () => this.#state[k],
        set: (v) => {
          if (k === 'globalAlpha' && !(Number.isFinite(v) && v >= 0 && v <= 1)) return;
          if (k === 'lineWidth' && !(Number.isFinite(v) && v > 0)) return;
          this.#state[k] = v;
        },
      });
    }
  }

  body() {
    return this.#out.join('\n');
  }

  defs() {
    return this.#defs.join('\n');
  }

  // ---- state and transform ----
  save() {
    this.#stack.push({ ...this.#state, m: [...this.#state.m], dash: [...this.#state.dash] });
  }

  restore() {
    if (this.#stack.length) this.#state = this.#stack.pop();
  }

  reset() {
    this.#state = { ...STATE, m: [1, 0, 0, 1, 0, 0], dash: [], clip: null };
    this.#stack = [];
    this.#out = [];
    this.beginPath();
  }

  setTransform(a, b, c, d, e, f) {
    if (typeof a === 'object' && a) ({ a, b, c, d, e, f } = a);
    if ([a, b, c, d, e, f].every(Number.isFinite)) this.#state.m = [a, b, c, d, e, f];
  }

  resetTransform() {
    this.#state.m = [1, 0, 0, 1, 0, 0];
  }

  getTransform() {
    return new DOMMatrix(this.#state.m);
  }

  transform(a, b, c, d, e, f) {
    if ([a, b, c, d, e, f].every(Number.isFinite)) this.#state.m = mul(this.#state.m, [a, b, c, d, e, f]);
  }

  translate(x, y) {
    this.transform(1, 0, 0, 1, x, y);
  }

  scale(x, y) {
    this.transform(x, 0, 0, y, 0, 0);
  }

  rotate(a) {
    this.transform(Math.cos(a), Math.sin(a), -Math.sin(a), Math.cos(a), 0, 0);
  }

  setLineDash(list) {
    if (Array.isArray(list) && list.every((v) => Number.isFinite(v) && v >= 0)) {
      this.#state.dash = list.length % 2 ? [...list, ...list] : [...list];
    }
  }

  getLineDash() {
    return [...this.#state.dash];
  }

  // ---- paths ----
  beginPath() {
    this.#path = new Segments((x, y) => apply(this.#state.m, x, y));
  }

  moveTo(...a) { this.#path.moveTo(...a); }
  lineTo(...a) { this.#path.lineTo(...a); }
  bezierCurveTo(...a) { this.#path.bezierCurveTo(...a); }
  quadraticCurveTo(...a) { this.#path.quadraticCurveTo(...a); }
  arc(...a) { this.#path.arc(...a); }
  ellipse(...a) { this.#path.ellipse(...a); }
  arcTo(...a) { this.#path.arcTo(...a); }
  rect(...a) { this.#path.rect(...a); }
  roundRect(...a) { this.#path.roundRect(...a); }
  closePath() { this.#path.closePath(); }

  /** Which path a fill/stroke/clip is of: the argument's (a Path2D, mapped now) or the context's. */
  #pathData(arg) {
    if (arg instanceof RecordingPath2D) return arg.segments.d(this.#state.m);
    return this.#path.d();
  }

  fill(a, b) {
    const rule = typeof a === 'string' ? a : b;
    this.#fillD(this.#pathData(a), rule);
  }

  stroke(a) {
    this.#strokeD(this.#pathData(a));
  }

  clip(a, b) {
    const rule = typeof a === 'string' ? a : b;
    const d = this.#pathData(a);
    const id = `${this.#ids.prefix}${++this.#ids.n}`;
    const parent = this.#state.clip ? ` clip-path="url(#${this.#state.clip})"` : '';
    this.#defs.push(`<clipPath id="${id}"${parent}><path d="${d}"${rule === 'evenodd' ? ' clip-rule="evenodd"' : ''}/></clipPath>`);
    this.#state.clip = id;
  }

  fillRect(x, y, w, h) {
    const s = new Segments((px, py) => apply(this.#state.m, px, py));
    s.rect(x, y, w, h);
    this.#fillD(s.d());
  }

  strokeRect(x, y, w, h) {
    const s = new Segments((px, py) => apply(this.#state.m, px, py));
    s.rect(x, y, w, h);
    this.#strokeD(s.d());
  }

  /** Clearing the whole drawing starts it again; SVG cannot erase part of what is drawn (no chart does). */
  clearRect(x, y, w, h) {
    const [x0, y0] = apply(this.#state.m, x, y), [x1, y1] = apply(this.#state.m, x + w, y + h);
    if (Math.min(x0, x1) <= 0 && Math.min(y0, y1) <= 0 && Math.max(x0, x1) >= this.width && Math.max(y0, y1) >= this.height) {
      this.#out = [];
    }
  }

  isPointInPath() {
    return false;
  }

  isPointInStroke() {
    return false;
  }

  // ---- what is drawn ----
  #common() {
    const s = this.#state;
    return s.clip ? ` clip-path="url(#${s.clip})"` : '';
  }

  /** An element with a transform of its own: its clip goes on a group, since a clip-path is read in the element's transformed space. */
  #pushTransformed(el) {
    const s = this.#state;
    this.#out.push(s.clip ? `<g clip-path="url(#${s.clip})">${el}</g>` : el);
  }

  #fillD(d, rule) {
    if (!d) return;
    const { paint: p, opacity } = paint(this.#state.fillStyle);
    const o = opacity * this.#state.globalAlpha;
    if (o === 0) return;
    this.#out.push(`<path d="${d}" fill="${p}"${o < 1 ? ` fill-opacity="${num(o * 1000) / 1000}"` : ''}` +
      `${rule === 'evenodd' ? ' fill-rule="evenodd"' : ''}${this.#common()}/>`);
  }

  #strokeD(d) {
    if (!d) return;
    const s = this.#state;
    const { paint: p, opacity } = paint(s.strokeStyle);
    const o = opacity * s.globalAlpha;
    if (o === 0) return;
    const k = Math.sqrt(Math.abs(s.m[0] * s.m[3] - s.m[1] * s.m[2])) || 1;
    let attrs = ` stroke="${p}" stroke-width="${num(s.lineWidth * k)}"`;
    if (o < 1) attrs += ` stroke-opacity="${num(o * 1000) / 1000}"`;
    if (s.lineCap !== 'butt') attrs += ` stroke-linecap="${s.lineCap}"`;
    if (s.lineJoin !== 'miter') attrs += ` stroke-linejoin="${s.lineJoin}"`;
    else if (s.miterLimit !== 4) attrs += ` stroke-miterlimit="${num(s.miterLimit)}"`;
    if (s.dash.length && s.dash.some((v) => v > 0)) {
      attrs += ` stroke-dasharray="${s.dash.map((v) => num(v * k)).join(' ')}"`;
      if (s.lineDashOffset) attrs += ` stroke-dashoffset="${num(s.lineDashOffset * k)}"`;
    }
    this.#out.push(`<path d="${d}" fill="none"${attrs}${this.#common()}/>`);
  }

  measureText(text) {
    text = minusSign(String(text));
    const ctx = real();
    ctx.font = this.#state.font;
    ctx.textAlign = this.#state.textAlign;
    ctx.textBaseline = this.#state.textBaseline;
    return ctx.measureText(text);
  }

  fillText(text, x, y, maxWidth) {
    this.#text(text, x, y, maxWidth, 'fill');
  }

  strokeText(text, x, y, maxWidth) {
    this.#text(text, x, y, maxWidth, 'stroke');
  }

  #text(text, x, y, maxWidth, how) {
    if (![x, y].every(Number.isFinite)) return;
    const s = this.#state;
    const str = minusSign(String(text).replace(/[\t\n\f\r]/g, ' '));
    // SVG draws on the alphabetic baseline; the canvas's baseline (top, middle, ...) is moved
    // there by the font's own metrics, so the text sits where the canvas put it in any viewer.
    const ctx = real();
    ctx.font = s.font;
    ctx.textBaseline = 'alphabetic';
    const base = ctx.measureText(str);
    ctx.textBaseline = s.textBaseline;
    const here = ctx.measureText(str);
    const dy = (base.fontBoundingBoxAscent ?? 0) - (here.fontBoundingBoxAscent ?? 0);
    const rtl = s.direction === 'rtl';
    const anchor = { left: 'start', right: 'end', center: 'middle', start: rtl ? 'end' : 'start', end: rtl ? 'start' : 'end' }[s.textAlign] ?? 'start';
    const colour = paint(how === 'fill' ? s.fillStyle : s.strokeStyle);
    const o = colour.opacity * s.globalAlpha;
    if (o === 0 || !str.trim()) return;
    let attrs = `x="${num(x)}" y="${num(y + dy)}" ${fontAttrs(s.font)}`;
    if (anchor !== 'start') attrs += ` text-anchor="${anchor}"`;
    const [a, b, c, d, e, f] = s.m;
    if (a !== 1 || b !== 0 || c !== 0 || d !== 1 || e !== 0 || f !== 0) {
      attrs += ` transform="matrix(${[a, b, c, d, e, f].map((v) => Math.round(v * 1e4) / 1e4).join(' ')})"`;
    }
    if (Number.isFinite(maxWidth) && base.width > maxWidth && maxWidth > 0) attrs += ` textLength="${num(maxWidth)}" lengthAdjust="spacingAndGlyphs"`;
    attrs += how === 'fill'
      ? ` fill="${colour.paint}"${o < 1 ? ` fill-opacity="${num(o * 1000) / 1000}"` : ''}`
      : ` fill="none" stroke="${colour.paint}" stroke-width="${num(s.lineWidth)}"${o < 1 ? ` stroke-opacity="${num(o * 1000) / 1000}"` : ''}`;
    this.#pushTransformed(`<text ${attrs}>${escapeXML(str)}</text>`);
  }

  /** Pixels stay pixels: an <image> of the source (or of its sub-rectangle), placed by the transform. */
  drawImage(img, ...a) {
    let sx = 0, sy = 0, sw = img.width, sh = img.height, dx, dy, dw, dh;
    if (a.length === 2) [dx, dy, dw, dh] = [a[0], a[1], sw, sh];
    else if (a.length === 4) [dx, dy, dw, dh] = a;
    else if (a.length === 8) [sx, sy, sw, sh, dx, dy, dw, dh] = a;
    else return;
    if (!(sw > 0 && sh > 0 && dw && dh)) return;
    const c = document.createElement('canvas');
    c.width = Math.round(sw);
    c.height = Math.round(sh);
    c.getContext('2d').drawImage(img, sx, sy, sw, sh, 0, 0, c.width, c.height);
    this.#image(c.toDataURL('image/png'), dx, dy, dw, dh, this.#state.m);
  }

  putImageData(data, dx, dy) {
    const c = document.createElement('canvas');
    c.width = data.width;
    c.height = data.height;
    c.getContext('2d').putImageData(data, 0, 0);
    // putImageData ignores the transform, and its pixels are the canvas's device pixels
    this.#image(c.toDataURL('image/png'), dx, dy, data.width, data.height, [1, 0, 0, 1, 0, 0]);
  }

  #image(href, x, y, w, h, m) {
    const [a, b, c, d, e, f] = m;
    const sharp = this.#state.imageSmoothingEnabled ? '' : ' image-rendering="pixelated"';
    const o = this.#state.globalAlpha;
    this.#pushTransformed(`<image href="${href}" x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}" preserveAspectRatio="none"` +
      ` transform="matrix(${[a, b, c, d, e, f].map((v) => Math.round(v * 1e4) / 1e4).join(' ')})"${sharp}` +
      `${o < 1 ? ` opacity="${num(o * 1000) / 1000}"` : ''}/>`);
  }

  createImageData(w, h) {
    return real().createImageData(w, h);
  }

  getImageData(x, y, w, h) {
    return real().createImageData(w, h);
  }

  createLinearGradient() {
    return { addColorStop() {} };
  }

  createRadialGradient() {
    return { addColorStop() {} };
  }

  createConicGradient() {
    return { addColorStop() {} };
  }

  createPattern() {
    return null;
  }

  getContextAttributes() {
    return { alpha: true };
  }
}
