// export.js: what the toolbar hands out: the Embed snippets, the CSV of a chart's data, and
// downloads (CSV, and PNG at twice the resolution).
import { HOST } from './strings.js';
import { NUMBER, escapeHTML, formatValue, paramAttribute, show, stateQuery } from './params.js';

/**
 * The two snippets the Embed button copies: an iframe of embed.html (if embedUrl) and the
 * custom element with its script tag (if scriptUrl; type="module" if scriptModule). Every value is escaped.
 */
export function embedSnippets({ chart, values, embedUrl, scriptUrl, scriptModule = false, height = 480 }) {
  const parts = [];
  if (embedUrl) {
    const src = new URL(embedUrl);
    src.search = `?${stateQuery(chart.kind, chart.params, values)}`;
    parts.push(`<!-- posenc: ${escapeHTML(chart.kind)}, ${HOST.embedIframe} -->`,
      `<iframe src="${escapeHTML(src.href)}" title="${escapeHTML(chart.title)}" width="100%" ` +
      `height="${Math.max(200, Math.round(height))}" loading="lazy" style="border: 0"></iframe>`);
  }
  if (scriptUrl) {
    const attrs = chart.params.map((p) => ` ${paramAttribute(p)}="${escapeHTML(formatValue(p, values[p.name] ?? p.value))}"`).join('');
    parts.push(`<!-- posenc: ${escapeHTML(chart.kind)}, ${HOST.embedElement} -->`,
      // a module never blocks the page's first paint, and loads only what its charts draw
      `<script${scriptModule ? ' type="module"' : ''} src="${escapeHTML(String(scriptUrl))}"></script>`,
      `<posenc-chart kind="${escapeHTML(chart.kind)}"${attrs}>${escapeHTML(chart.title)}</posenc-chart>`);
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
  for (const p of chart.params) lines.push(`# ${p.name} = ${formatValue(p, values[p.name] ?? p.value)}`);
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
