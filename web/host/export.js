// export.js: what the toolbar hands out: the Embed snippets, the CSV of a chart's data, and
// downloads (CSV, and PNG at twice the resolution), and the figure the PNG, GIF and video draw:
// the chart's canvases under a heading with its title.
import { sizeAll } from './canvas-sizes.js';
import { redrawNow } from './redraw-soon.js';
import { HOST } from './strings.js';
import { lang, messages } from './i18n.js';
import { colours } from './theme.js';
import { wrap } from './wrap.js';
import { NUMBER, counts, escapeHTML, formatValue, paramAttribute, show, stateQuery } from './params.js';
import { PAGE_SIZE, presentSize, setLettering, textScale } from '../charts/shared/lettering.js';

/** The Embed snippets' comments (here, not in HOST: only a chart with a toolbar loads them). */
const M = messages({
  en: {
    embedOne: 'Paste one of the two snippets below, not both.',
    embedIframe: '1. An iframe, for a site that allows iframes. Where the site allows scripts too, the script after it lets the iframe\'s height follow the chart.',
    embedElement: '2. Or the chart itself, with one script tag, for a site that allows scripts.',
    embedElementOnly: 'The chart itself, with one script tag, for a site that allows scripts.',
  },
  zh: {
    embedOne: '下面两段代码选一段粘贴，不要两段都贴。',
    embedIframe: '1. iframe，适用于允许 iframe 的网站。如果网站也允许脚本，紧跟其后的那段脚本会让 iframe 的高度随图表变化。',
    embedElement: '2. 或者直接嵌入图表本身，只需一个 script 标签，适用于允许脚本的网站。',
    embedElementOnly: '直接嵌入图表本身，只需一个 script 标签，适用于允许脚本的网站。',
  },
});

/**
 * The two snippets the Embed button copies, one to paste or the other: an iframe of embed.html
 * (if embedUrl), with a script that lets its height follow the chart, and the custom element
 * with its script tag (if scriptUrl; type="module" if scriptModule). In Chinese, both say so: an
 * iframe cannot see its post's language, and a post may not name one. Every value is escaped.
 */
export function embedSnippets({ chart, values, embedUrl, scriptUrl, scriptModule = false, height = 480 }) {
  const zh = lang() === 'zh';
  const parts = [`<!-- posenc: ${escapeHTML(chart.kind)}. ${M.embedOne} -->`];
  if (embedUrl) {
    const src = new URL(embedUrl);
    src.search = `?${stateQuery(chart.kind, chart.params, values, zh ? { lang: 'zh' } : {})}`;
    parts.push(`<!-- ${M.embedIframe} -->`,
      `<iframe src="${escapeHTML(src.href)}" title="${escapeHTML(chart.title)}" width="100%" ` +
      `height="${Math.max(200, Math.round(height))}" loading="lazy" style="border: 0"></iframe>`,
      // embed.js posts its height; the bounds keep a page that posts nonsense from blowing the post up
      '<script>addEventListener(\'message\', (e) => { for (const f of document.querySelectorAll(\'iframe\')) ' +
      'if (f.contentWindow === e.source && e.data?.type === \'posenc:height\') ' +
      'f.style.height = `${Math.min(Math.max(Number(e.data.height) || 0, 100), 5000)}px`; });</script>');
  }
  if (scriptUrl) {
    const all = Object.fromEntries(chart.params.map((p) => [p.name, values[p.name] ?? p.value]));
    const attrs = chart.params.filter((p) => counts(p, all)).map((p) => ` ${paramAttribute(p)}="${escapeHTML(formatValue(p, all[p.name]))}"`).join('');
    parts.push(`<!-- ${embedUrl ? M.embedElement : M.embedElementOnly} -->`,
      // a module never blocks the page's first paint, and loads only what its charts draw
      `<script${scriptModule ? ' type="module"' : ''} src="${escapeHTML(String(scriptUrl))}"></script>`,
      `<posenc-chart kind="${escapeHTML(chart.kind)}"${zh ? ' lang="zh"' : ''}${attrs}>${escapeHTML(chart.title)}</posenc-chart>`);
  }
  return parts.join('\n');
}

/** One CSV cell: numbers as JavaScript prints them (exact round trip), text quoted when needed. */
function csvCell(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : String(v);
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  let s = typeof v === 'object' ? JSON.stringify(ArrayBuffer.isView(v) ? Array.from(v) : v) : String(v);
  // a text cell that a spreadsheet would run as a formula gets a leading apostrophe
  if (/^[=+\-@\t\r]/.test(s) && !NUMBER.test(s)) s = `'${s}`;
  return /[",\r\n#]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The CSV of a chart's data: '#' comment lines naming the chart and each parameter, then a
 * header row (data.columns) and one line per row. Read it with e.g. pandas.read_csv(f, comment='#').
 */
export function toCSV(chart, values, data, { link } = {}) {
  const lines = [`# posenc chart "${show(chart.kind)}": ${String(chart.title).replace(/[\r\n]/g, ' ')}`];
  const all = Object.fromEntries(chart.params.map((p) => [p.name, values[p.name] ?? p.value]));
  for (const p of chart.params) if (counts(p, all)) lines.push(`# ${p.name} = ${formatValue(p, all[p.name])}`);
  if (link) lines.push(`# link: ${link}`);
  lines.push((data?.columns ?? []).map(csvCell).join(','));
  for (const row of data?.rows ?? []) lines.push(Array.from(row, csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function download(parent, name, blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  parent.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** Runs fn() while window.devicePixelRatio reads r; restores it after, whatever happens. */
export function withPixelRatio(r, fn) {
  const own = Object.getOwnPropertyDescriptor(window, 'devicePixelRatio');
  try {
    Object.defineProperty(window, 'devicePixelRatio', { configurable: true, enumerable: true, get: () => r });
  } catch {
    return fn();
  }
  try {
    return fn();
  } finally {
    if (own) Object.defineProperty(window, 'devicePixelRatio', own);
    else delete window.devicePixelRatio;
  }
}

/** About the width of a post's column (Zhihu's is 690 px): the width exported figures are lettered for. */
export const POST_WIDTH = 640;

/**
 * How much larger than on the page an exported figure's text is drawn when the chart, `cssWidth`
 * px wide on screen, comes out `width` px wide: so much that the page's 11 px ticks come out at
 * 11 px (a wide chart squeezed into a column would have 7 px text), but at most the presenter
 * view's 1.5 times on a 1280×720 projector, whose layouts are known to hold. A chart narrower than the figure keeps its size.
 */
export function letteringFor(cssWidth, width = POST_WIDTH) {
  return Math.min(presentSize(1280, 720) / PAGE_SIZE, Math.max(1, cssWidth / width));
}

/**
 * Runs fn() (it may be async) with chart text `scale` times its page size, the chart redrawn so:
 * Chart.js's default font, which the hand-drawn text follows (charts/shared/lettering.js, as in
 * the presenter view). Put back and redrawn after, whatever happens.
 */
export async function withLettering(host, Chart, scale, fn) {
  const before = PAGE_SIZE * textScale();
  setLettering(Chart, PAGE_SIZE * scale);
  try {
    host.update();
    return await fn();
  } finally {
    setLettering(Chart, before);
    host.update();
  }
}

/** The heading's fonts: style.css's family (Chinese included), in CSS px before the export's scale. */
const HEADING_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", sans-serif';
const HEADING_PX = { pad: 10, title: 15, titleLine: 20, caption: 13, captionLine: 18 };

/** A swept value as a caption shows it: whole numbers as they are, others to 4 significant digits. */
export function captionValue(v) {
  if (typeof v !== 'number') return String(v);
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(4)));
}

/**
 * The heading an exported figure carries above the chart, for a post that shows it without the
 * page around it: the chart's title (wrapped to the width), and a caption line (an animation's
 * "base = 500000") when `caption` is true, `scale` times their own size (letteringFor). Laid out in CSS px for a figure `width` wide:
 * { height, lines: [{ text, x, y, font, size, weight, colour: 'fg'|'muted', caption }] }, y the
 * baseline. Every frame of an animation gets the same height, whatever its caption says.
 */
export function figureHeading(title, width, { caption = false, scale = 1 } = {}) {
  const ctx = document.createElement('canvas').getContext('2d');
  const HEADING = Object.fromEntries(Object.entries(HEADING_PX).map(([k, v]) => [k, v * scale]));
  const { pad } = HEADING;
  const font = (size, weight) => `${weight} ${size}px ${HEADING_FAMILY}`;
  ctx.font = font(HEADING.title, 600);
  const titleLines = title ? wrap(ctx, title, Math.max(40, width - 2 * pad)) : [];
  const lines = [];
  let y = pad;
  for (const text of titleLines) {
    y += HEADING.titleLine;
    lines.push({ text, x: pad, y: y - 5 * scale, font: font(HEADING.title, 600), family: HEADING_FAMILY, size: HEADING.title, weight: 600, colour: 'fg', caption: false });
  }
  if (caption) {
    y += HEADING.captionLine;
    lines.push({ text: '', x: pad, y: y - 4 * scale, font: font(HEADING.caption, 400), family: HEADING_FAMILY, size: HEADING.caption, weight: 400, colour: 'muted', caption: true });
  }
  return { height: lines.length ? Math.ceil(y + pad / 2) : 0, lines };
}

const FOOTER_PX = { pad: 10, size: 12, line: 16 };

/**
 * The line under an exported figure saying how the chart was set (settings-line.js,
 * in the chart's language: a post shows no controls), wrapped to the width, `scale` times its
 * own size; `rows` lines high when given (an animation's frames share one height; a longer
 * text is cut with "…"). { height, lines: [{ text, x, y, font, family, size, weight, colour }] },
 * y the baseline from the footer's top; { height: 0, lines: [] } without text.
 */
export function figureFooter(text, width, { scale = 1, rows } = {}) {
  if (!text) return { height: 0, lines: [] };
  const ctx = document.createElement('canvas').getContext('2d');
  const pad = FOOTER_PX.pad * scale, size = FOOTER_PX.size * scale, step = FOOTER_PX.line * scale;
  const font = `400 ${size}px ${HEADING_FAMILY}`;
  ctx.font = font;
  let texts = wrap(ctx, text, Math.max(40, width - 2 * pad));
  if (rows && texts.length > rows) texts = [...texts.slice(0, rows - 1), `${texts[rows - 1].replace(/.$/, '')}…`];
  const lines = texts.map((t, i) => ({ text: t, x: pad, y: pad / 2 + (i + 1) * step - 4 * scale, font, family: HEADING_FAMILY, size, weight: 400, colour: 'muted' }));
  return { height: Math.ceil(pad / 2 + (rows ?? texts.length) * step + pad / 2), lines };
}

/**
 * Draws the text lines of a heading (figureHeading) or a footer (figureFooter) onto a 2D context
 * already scaled to CSS px, `dy` below where they were laid out; `caption` fills a heading's caption line.
 */
function drawLines(ctx, lines, palette, dy = 0, caption = '') {
  ctx.save();
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  for (const l of lines) {
    ctx.font = l.font;
    ctx.fillStyle = palette[l.colour];
    ctx.fillText(l.caption ? caption : l.text, l.x, dy + l.y);
  }
  ctx.restore();
}

/** Where the visible canvases sit, relative to their union, in CSS px. */
export function figureLayout(canvases) {
  // a figure is what the screen shows: a canvas not drawn yet, or not since a switch (off screen),
  // is drawn first
  for (const c of canvases) (redrawNow(c), sizeAll(c));
  const rects = canvases.map((c) => c.getBoundingClientRect());
  const left = Math.min(...rects.map((r) => r.left)), top = Math.min(...rects.map((r) => r.top));
  const width = Math.max(...rects.map((r) => r.right)) - left, height = Math.max(...rects.map((r) => r.bottom)) - top;
  return { rects: rects.map((r) => ({ x: r.left - left, y: r.top - top, w: r.width, h: r.height })), width, height };
}

/**
 * Draws one frame onto `out` (already sized): the heading (the chart's title and `caption`, the
 * swept value), under it the canvases as on screen, and under them `footer` (figureFooter: how
 * the chart is set) if given, all scaled by k from CSS px.
 */
export function drawFigure(out, canvases, rects, k, heading, caption = '', footer = null) {
  const ctx = out.getContext('2d', { willReadFrequently: true });
  const palette = colours();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = palette.bg;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.setTransform(k, 0, 0, k, 0, 0);
  drawLines(ctx, heading.lines, palette, 0, caption);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  canvases.forEach((c, i) => {
    const r = rects[i];
    if (c.width && c.height) ctx.drawImage(c, r.x * k, (heading.height + r.y) * k, r.w * k, r.h * k);
  });
  if (footer?.lines.length) {
    ctx.setTransform(k, 0, 0, k, 0, 0);
    drawLines(ctx, footer.lines, palette, heading.height + Math.max(...rects.map((r) => r.y + r.h)));
    ctx.setTransform(1, 0, 0, 1, 0, 0);
  }
  return ctx;
}
