// svg.js: a chart as an SVG file. Each canvas of the chart is drawn again into an SvgContext
// (svg-context.js): a Chart.js chart through its own draw(), with the context swapped for the
// time of one frame; a hand-drawn canvas through the paint function it registered here
// (host/repaint.js; charts/shared/canvas.js does for plainCanvas). A canvas that registered neither is copied in
// as an <image> of its pixels, so nothing on screen is missing from the file.
import { SvgContext, RecordingPath2D } from './svg-context.js';
import { colours, theme } from './theme.js';
import { painterOf } from './repaint.js';
import { figureHeading, figureFooter, figureLayout } from './export.js';

/** One canvas into ctx: true when drawn as vectors. */
function drawInto(canvas, ctx, Chart) {
  const chart = Chart?.getChart?.(canvas);
  if (chart) {
    const own = chart.ctx, path2d = globalThis.Path2D;
    // Chart.js keeps the context in its scales, boxes (legend, title) and dataset controllers
    // too: each is pointed at ours for this draw
    const holders = [chart, ...(chart.boxes ?? []), ...Object.values(chart.scales ?? {}),
      ...(chart.getSortedVisibleDatasetMetas?.() ?? []).map((m) => m.controller)];
    const swapped = [];
    for (const h of holders) for (const k of ['ctx', '_ctx']) if (h && h[k] === own) swapped.push([h, k]);
    // and it strokes its lines through a cached Path2D: a recording one for this draw
    const forget = () => {
      for (const meta of chart.getSortedVisibleDatasetMetas?.() ?? []) if (meta.dataset) meta.dataset._path = undefined;
    };
    try {
      globalThis.Path2D = RecordingPath2D;
      forget();
      for (const [h, k] of swapped) h[k] = ctx;
      chart.draw();
    } finally {
      for (const [h, k] of swapped) h[k] = own;
      globalThis.Path2D = path2d;
      forget();
    }
    return true;
  }
  const repaint = painterOf(canvas);
  if (repaint) {
    repaint(ctx);
    return true;
  }
  return false;
}

/**
 * The SVG text of the chart's visible canvases, laid out as on screen, on the theme's
 * background. `title` becomes the SVG's <title> and is drawn above the chart as its heading
 * (a figure posted without its page needs one); the chart itself is drawn as on screen, moved
 * down by the heading's height (the root's data-heading). `settings`, a line of how the chart is
 * set, is written under it; `scale` is the text's size on the page's (letteringFor), which the
 * chart's own text was drawn at too.
 */
export function chartSVG(canvases, { Chart, title = '', settings = '', scale = 1 } = {}) {
  const { rects, width, height } = figureLayout(canvases);
  const ids = { n: 0, prefix: 'clip' };
  const parts = [], defs = [];
  canvases.forEach((canvas, i) => {
    const r = rects[i];
    const ctx = new SvgContext(canvas, r.w, r.h, ids);
    if (!drawInto(canvas, ctx, Chart)) {
      ctx.drawImage(canvas, 0, 0, r.w, r.h);
    }
    defs.push(ctx.defs());
    parts.push(`<g transform="translate(${Math.round(r.x * 100) / 100} ${Math.round(r.y * 100) / 100})">\n${ctx.body()}\n</g>`);
  });
  const w = Math.ceil(width);
  const esc = (t) => String(t).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const palette = colours();
  const heading = figureHeading(title, w, { scale }), footer = figureFooter(settings, w, { scale });
  const h = Math.ceil(height) + heading.height + footer.height;
  const text = (l, dy = 0) => `<text x="${l.x}" y="${l.y + dy}" font-family="${esc(l.family)}" font-size="${l.size}"` +
    `${l.weight === 400 ? '' : ` font-weight="${l.weight}"`} fill="${palette[l.colour]}">${esc(l.text)}</text>`;
  const texts = heading.lines.map((l) => text(l));
  const below = footer.lines.map((l) => text(l, heading.height + Math.ceil(height)));
  return `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" data-theme="${theme()}" data-heading="${heading.height}">\n` +
    (title ? `<title>${esc(title)}</title>\n` : '') +
    `<defs>\n${defs.filter(Boolean).join('\n')}\n</defs>\n` +
    `<rect width="100%" height="100%" fill="${palette.bg}"/>\n` +
    (texts.length ? `<g data-part="heading">\n${texts.join('\n')}\n</g>\n` : '') +
    `<g data-part="chart" transform="translate(0 ${heading.height})">\n${parts.join('\n')}\n</g>\n` +
    (below.length ? `<g data-part="settings">\n${below.join('\n')}\n</g>\n` : '') + '</svg>\n';
}
