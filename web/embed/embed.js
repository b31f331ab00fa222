// embed.js: the script of embed.html, one chart for an iframe. Its URL holds the whole state:
//   embed.html?chart=<kind>&<param>=<value>...[&controls=0][&toolbar=1]
// Values are checked like the page's (parseParams: unknown or malformed ones are named in a
// note and keep their defaults). Whenever the page's height changes it posts
//   { type: 'posenc:height', chart: <kind>, height: <CSS px, integer> }
// to the parent window, so the host page can size the iframe (README "Embedding a chart").
// `lang=en|zh` and `theme=auto|light|dark` are read by i18n.js and theme.js themselves (and by
// early.js before the first paint); the chart host follows them.
import { kernels, chartJs } from '../host/runtime.js';
import {
  chartQuery, DEFAULT_KIND, HOST, RESERVED, loadChart, loadFailed, mountChart, parseParams, parseValue, showMessage, noteBox, show,
} from '../host/chart-host.js';
import { addToolbar } from '../host/toolbar.js';
import { t, onLang, setLang } from '../host/i18n.js';
import '../host/theme.js';

const main = document.getElementById('embed');
const status = document.getElementById('status');
const box = document.getElementById('chart');
// (setLang: this page's language switch, for whoever drives the page, as the lesson's own
// switch is; the page's modules are bundled, so a script cannot reach i18n.js by importing it)
window.posencEmbed = { host: null, kind: null, ready: null, notes: [], setLang };

function flag(q, name, fallback, notes) {
  const all = q.getAll(name);
  if (!all.length) return fallback;
  if (all.length > 1) return notes.push(HOST.repeated.format({ name })), fallback;
  const r = parseValue({ name, type: 'bool', value: fallback }, all[0]);
  if (r.note) notes.push(r.note);
  return r.value ?? fallback;
}

let lastHeight = -1;
function postHeight() {
  const height = Math.ceil(main.getBoundingClientRect().height);
  if (height === lastHeight || window.parent === window) return;
  lastHeight = height;
  window.parent.postMessage({ type: 'posenc:height', chart: window.posencEmbed.kind, height }, '*');
}

async function run() {
  const { query: q, named, kind: known, notes } = chartQuery(location.search);
  const kind = known ?? DEFAULT_KIND;
  if (named.length === 0) notes.push(HOST.noChart.format({ used: DEFAULT_KIND }));
  else if (named.length === 1 && !known) notes.push(HOST.unknownChart.format({ kind: show(named[0]), used: DEFAULT_KIND }));
  window.posencEmbed.kind = kind;
  const controls = flag(q, 'controls', true, notes);
  const toolbar = flag(q, 'toolbar', false, notes);
  const locked = flag(q, 'lock', false, notes);
  new ResizeObserver(postHeight).observe(main);

  let pe, Chart;
  try {
    [pe, Chart] = await Promise.all([kernels(), chartJs()]);
  } catch (err) {
    status.textContent = '';
    showMessage(box, loadFailed(err));
    return;
  }
  try {
    const chart = await loadChart(kind);
    // ignore only the names embed.js reads itself; a chart= that was wrong is already noted
    const entries = [...q].filter(([k]) => !RESERVED.includes(k));
    const parsed = parseParams(chart.params, named.length === 1 && kind === named[0] ? entries : []);
    notes.push(...parsed.notes);
    window.posencEmbed.notes = notes;
    const host = mountChart(box, chart, { pe, Chart, values: parsed.values, notes, controls, locked });
    if (toolbar) addToolbar(host, { png: true, csv: true });
    window.posencEmbed.host = host;
    const title = () => (document.title = `posenc: ${t(chart.title)}`);
    title();
    onLang(title);
    status.textContent = '';
  } catch (err) {
    status.textContent = '';
    const note = noteBox(notes);
    showMessage(box, HOST.drawFailed.format({ message: err?.message ?? String(err) }));
    if (note) box.prepend(note);
    console.error(err);
  }
  postHeight();
}

window.posencEmbed.ready = new Promise((resolve) => {
  const go = () => run().catch((err) => console.error(err)).then(resolve);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', go);
  else go();
});
