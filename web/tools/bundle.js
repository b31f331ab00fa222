// bundle.js: the single-file builds, made with esbuild (`node web/tools/bundle.js`, run by build.sh
// after the wasm is built):
//   dist/posenc.js         a classic script: both wasm builds inlined as base64, Chart.js, the
//                          stylesheet and every chart module. It registers <posenc-chart> and
//                          sets window.posenc = { load(), kinds, version }. Works from file://.
//   web/build/posenc.js    the same file, served beside the page: its Embed snippets load it.
//   dist/standalone.html   index.html with the stylesheet and a bundle of main.js inlined: the
//                          whole page in one file, with a hash-based Content-Security-Policy.
//   dist/standalone-teaching.html  teaching.html made the same way, beside it: the page's "For
//                          teachers" link opens it, and its links to the lesson open standalone.html.
//   dist/module/posenc.js  the light embed, an ES module (<script type="module">): a small entry
//                          that asks at once for what the charts in view need, and registers
//                          <posenc-chart> once the element's code (chunks/boot-*.js and the one
//                          chunk it imports) has come. The rest loads when a chart needs it, each
//                          piece once a page: the chart's own code (chunks/<kind>-*.js), Chart.js
//                          (lines only, or with bar charts and fills), the kernels (posenc-core.wasm
//                          without the lab; posenc.wasm for the lab's charts), the API's model
//                          families (for the charts that read models or train) and the lab's
//                          results (a chunk of their own, for the lab charts). Copied to
//                          web/build/module/ for the page's Embed snippet.
// Nothing here is fetched at run time; nothing leaves the machine at build time.
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile, copyFile, rm, cp, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { basename, dirname, join, relative } from 'node:path';
import { FAMILY_METHODS, TABLE_METHODS } from '../lib/instance.js';
import { SIMD_PROBE } from '../lib/heap.js';
import { KINDS, DEFAULT_KIND } from '../host/kinds.js';
import { callsAny, namedChartImports } from './chart-imports.js';
import { elementStylesheet } from './element-css.js';

const WEB = dirname(dirname(fileURLToPath(import.meta.url)));
const ROOT = dirname(WEB);
const DIST = join(ROOT, 'dist');
const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));

/** Sets up runtime.js with everything inlined; `urls` is source for configure()'s URL options. */
const assets = (urls) => `
import { configure } from './host/runtime.js';
import { loadPosenc, simdSupported } from './lib/posenc.js';
import simd from './build/posenc.wasm';
import scalar from './build/posenc-scalar.wasm';
import css from './page/style.css';
import labSafetensors from './build/lab-model/model.safetensors';
import labConfig from './build/lab-model/config.json';
import labTokenizer from './build/lab-model/tokenizer.json';
import labTokenizerConfig from './build/lab-model/tokenizer_config.json';
import { Chart, registerables, DomPlatform } from 'chart.js';
Chart.register(...registerables);
Chart.platforms ??= { DomPlatform };
configure({ Chart, css, loadKernels: () => loadPosenc({ source: simdSupported() ? simd : scalar }), ${urls},
  labModel: { 'model.safetensors': labSafetensors, 'config.json': labConfig, 'tokenizer.json': labTokenizer, 'tokenizer_config.json': labTokenizerConfig } });
`;

/**
 * Chart.js for the light embed, in two builds of its own (esbuild splits by module, and Chart.js
 * is one): 'lines', what most charts draw (line and scatter charts on linear, log and category
 * axes), and 'all', with bar charts and area fills too, for the charts whose code draws them
 * (BARS_OR_FILLS, read from their minified sources) and the charts of a page that has one. A
 * chart that fills an area without the filler says so rather than drawing without it. Each
 * carries Chart.platforms as Chart.js's UMD file (the page's) does: web/host/first-draw.js sizes
 * charts through a DomPlatform of its own.
 */
const CHART_JS = {
  lines: `
import { Chart, LineController, ScatterController, LinearScale, LogarithmicScale, CategoryScale,
  PointElement, LineElement, Legend, Tooltip, Decimation, Title, DomPlatform } from 'chart.js';
const fills = {
  id: 'posencFills',
  beforeUpdate(chart) {
    if (!Chart.registry.plugins.get('filler') && chart.data.datasets.some((d) => d.fill)) {
      throw new Error('posenc: this chart fills areas, and the Chart.js filler is not loaded for it');
    }
  },
};
Chart.register(LineController, ScatterController, LinearScale, LogarithmicScale, CategoryScale,
  PointElement, LineElement, Legend, Tooltip, Decimation, Title, fills);
Chart.platforms ??= { DomPlatform };
export default Chart;
`,
  all: `
import { Chart, LineController, ScatterController, BarController, LinearScale, LogarithmicScale, CategoryScale,
  PointElement, LineElement, BarElement, Legend, Tooltip, Filler, Decimation, Title, DomPlatform } from 'chart.js';
Chart.register(LineController, ScatterController, BarController, LinearScale, LogarithmicScale, CategoryScale,
  PointElement, LineElement, BarElement, Legend, Tooltip, Filler, Decimation, Title);
Chart.platforms ??= { DomPlatform };
export default Chart;
`,
};
const BARS_OR_FILLS = /\btype:"bar"|\bfill:/;

/** The lab's charts train in the page (lab-order) or read its results: they need the whole kernels build. */
const LAB_KINDS = /^(lab-|length-lab$)/;

/**
 * The light embed's set-up: loaders in place of inlined assets. Each kernels build is fetched and
 * compiled once (streaming, as it arrives); the charts outside the lab share one instance of the
 * kernels without the lab, and get the API's tables and attention (tables-attention.js) and its
 * model families (families.js, which brings the former) only when a chart that calls them is on
 * the page.
 */

const lightConfig = (chartJsFiles) => `
import { configure } from './host/runtime.js';
import { loadInstance, addFamilies } from './lib/instance.js';
import { simdSupported, compileFrom } from './lib/heap.js';
import css from './page/style.css';
// this module is bundled into a chunk (chunks/): the script and its files are one folder up
const HOME = new URL('../', import.meta.url);
// the kinds whose code calls a method of families.js, of tables-attention.js, and those that draw
// bars or fills, written after the build
const FAMILIES = new Set(JSON.parse("__POSENC_FAMILIES__"));
const TABLES = new Set(JSON.parse("__POSENC_TABLES__"));
const BARS = new Set(JSON.parse("__POSENC_BARS__"));
// one Chart.js a page: 'all' from the start when a chart of the page draws bars or fills, and
// from the first such chart added later on
let bars = typeof document === 'object' && [...document.querySelectorAll('posenc-chart')].some((el) => BARS.has(el.getAttribute('kind')?.trim()));
const LAB = ${LAB_KINDS};
const compiled = new Map();
function compile(name) {
  if (!compiled.has(name)) compiled.set(name, compileFrom(new URL(\`\${name}\${simdSupported() ? '' : '-scalar'}.wasm\`, HOME)));
  return compiled.get(name);
}
const GROUPS = { families: () => import('./lib/families.js'), tables: () => import('./lib/tables-attention.js') };
let core = null;
configure({
  css,
  kernelBuild: (kind = '') => (LAB.test(kind) ? 'all' : FAMILIES.has(kind) ? 'core+families' : TABLES.has(kind) ? 'core+tables' : 'core'),
  loadKernels: async (build) => {
    if (build === 'all') {
      const [source, f] = await Promise.all([compile('posenc'), GROUPS.families()]);
      return loadInstance({ source }, f);
    }
    core ??= compile('posenc-core').then((source) => loadInstance({ source }, null));
    if (build === 'core') return core;
    const [pe, f] = await Promise.all([core, GROUPS[build.slice('core+'.length)]()]);
    addFamilies(pe, f);
    return pe;
  },
  chartJsBuild: (kind = '') => ((bars ||= BARS.has(kind)) ? 'all' : 'lines'),
  loadChartJs: (build) => (build === 'all' ? import(${JSON.stringify(`./${basename(chartJsFiles.all)}`)})
    : import(${JSON.stringify(`./${basename(chartJsFiles.lines)}`)})).then((m) => m.default),
  scriptUrl: () => new URL('posenc.js', HOME).href,
  labModel: new URL('lab-model/', HOME).href,
  scriptModule: true,
  embedUrl: null,
});
`;

/**
 * In the light embed, what imports the public API (runtime.js's default loader) gets it with its
 * tables, attention and model families loaded when it is called: the same loadPosenc, without
 * families.js up front.
 */
const LIGHT_API = `
import { loadInstance } from './lib/instance.js';
export { simdSupported } from './lib/heap.js';
export async function loadPosenc(options) {
  return loadInstance(options, await import('./lib/families.js'));
}
`;

/**
 * The light embed's entry, built on its own after the chunks, whose files it names: it has no
 * static import, so it runs as soon as it arrives, and asks at once for everything the charts in
 * view need, every chunk of it (modulepreload links: a chunk's own imports are otherwise found one
 * round trip later): the element's code, each chart's and the model families' where a chart
 * calls them; it imports Chart.js and preloads the kernels itself.
 */
const lightEntry = (table, boot) => `
// files in chunks/: { kinds: { kind: [files the boot module's do not include], in KINDS' order },
// boot, families, tables: [files], chartjs: { lines, all }: file, familyKinds, tableKinds, barKinds: [kinds] }
const CHUNKS = ${JSON.stringify(table)};
const KINDS = Object.freeze(Object.keys(CHUNKS.kinds));
const DIR = new URL('chunks/', import.meta.url);
const preloaded = new Set();
function preload(files) {
  for (const f of files) {
    if (preloaded.has(f)) continue;
    preloaded.add(f);
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = new URL(f, DIR).href;
    document.head.append(link);
  }
}
const inView = [];
let bars = false;
if (typeof document === 'object') {
  preload(CHUNKS.boot);
  for (const el of document.querySelectorAll('posenc-chart')) {
    if (el.getBoundingClientRect().top > innerHeight + 300) continue;
    const kind = (el.getAttribute('kind') ?? ${JSON.stringify(DEFAULT_KIND)}).trim();
    if (!KINDS.includes(kind)) continue;
    inView.push(kind);
    // the element starts drawing this one when it is defined, not a frame later when an
    // IntersectionObserver would say what this check has said already
    el[Symbol.for('posenc-chart.inView')] = true;
    preload(CHUNKS.kinds[kind]);
    if (CHUNKS.familyKinds.includes(kind)) preload(CHUNKS.families);
    else if (CHUNKS.tableKinds.includes(kind)) preload(CHUNKS.tables);
  }
  // the Chart.js the element's set-up will choose: with bar charts and fills if a chart of the page draws them
  bars = [...document.querySelectorAll('posenc-chart')].some((el) => CHUNKS.barKinds.includes(el.getAttribute('kind')?.trim()));
}
const boot = import(${JSON.stringify(`./${boot}`)});
if (inView.length) {
  // Chart.js runs as soon as it has come, and the kernels come alongside (fetched again by the
  // element's set-up, which gets this response): the build without the lab unless a lab chart is in view
  import(new URL(CHUNKS.chartjs[bars ? 'all' : 'lines'], DIR).href).catch(() => {});
  let simd = false;
  try {
    simd = WebAssembly.validate(new Uint8Array(${JSON.stringify([...SIMD_PROBE])}));
  } catch {}
  const link = document.createElement('link');
  Object.assign(link, { rel: 'preload', as: 'fetch', crossOrigin: 'anonymous' });
  link.href = new URL(\`\${inView.some((k) => ${LAB_KINDS}.test(k)) ? 'posenc' : 'posenc-core'}\${simd ? '' : '-scalar'}.wasm\`, import.meta.url).href;
  document.head.append(link);
  // Chart.js writes its tick labels with Intl.NumberFormat, whose first use in a page loads the
  // locale's data (about 20 ms): done now, while the chart's files are on their way
  try {
    new Intl.NumberFormat().format(0.5);
  } catch {}
}
// what the charts in view will ask for, asked for now: their kernels and Chart.js load while the
// elements wait for their first frame
boot.then((b) => {
  for (const kind of inView) for (const p of [b.loadChart(kind), b.kernels(kind), b.chartJs(kind)]) p.catch(() => {});
}, () => {});
/** The kernels (those chart \`kind\` draws with: without the lab unless it is a lab chart). */
export const load = (kind) => boot.then((b) => b.kernels(kind));
export const kinds = KINDS;
export const version = ${JSON.stringify(pkg.version)};
`;

/**
 * web/lab/results.js, which fetches the lab's results beside itself, as the builds have it that
 * do not: the single-file ones (nothing is fetched from file://, nor under standalone.html's
 * policy) with the file inlined as text, parsed when a lab chart first asks for it; the light
 * embed with it in a chunk of its own (LAB_RESULTS_CHUNK), loaded then.
 */
const LAB_RESULTS = {
  inlined: `
import text from './results.json';
let parsed = null;
export const labResults = () => (parsed ??= Promise.resolve().then(() => JSON.parse(text)));
`,
  chunk: `
let loaded = null;
export function labResults() {
  loaded ??= import('./results.json').then((m) => m.default, (err) => {
    loaded = null;
    throw err;
  });
  return loaded;
}
`,
};
/** The light embed's chunk of the lab's results: a string given to JSON.parse, which costs less to parse than an object literal. */
const LAB_RESULTS_CHUNK = (text) => `export default JSON.parse(${JSON.stringify(text)});`;

const ENTRIES = {
  element: `
import 'posenc:assets';
import './embed/element.js';
import { kernels } from './host/runtime.js';
import { KINDS } from './host/chart-host.js';
export const load = kernels;
export const kinds = KINDS;
export const version = ${JSON.stringify(pkg.version)};
`,
  standalone: null, // made from index.html's module scripts
  'standalone-guide': null, // and from teaching.html's
};

// Virtual modules: the entries, the assets set-up, the script's own URL (for import.meta.url,
// which a classic script lacks) and an empty node:fs (heap.js reads files only under Node).
function virtual(name, urls, { shared = null } = {}) {
  const modules = {
    'posenc:entry': ENTRIES[name],
    'posenc:assets': assets(urls),
    'posenc:light-config': shared ? lightConfig(shared.chartJsFiles) : '',
    // the light embed's element, its set-up and what its entry hands on to
    'posenc:boot': `
import 'posenc:light-config';
import './embed/element.js';
export { kernels, chartJs } from './host/runtime.js';
export { loadChart } from './host/chart-host.js';
${(shared?.common ?? []).map((f) => `import ${JSON.stringify(f)};`).join('\n')}
`,
    'posenc:light-api': LIGHT_API,
    'posenc:base': 'export const posencBaseUrl = (typeof document === "object" && document.currentScript && document.currentScript.src) || (typeof location === "object" ? location.href : "file:///");',
    'node:fs/promises': 'export function readFile() { throw new Error("no file system in the browser"); }',
  };
  return {
    name: 'posenc-virtual',
    setup(b) {
      b.onResolve({ filter: /^(posenc:|node:fs\/promises$)/ }, (a) => ({ path: a.path, namespace: 'posenc' }));
      // the stylesheet of each chart's shadow root (the element's): minified, and without the page's own rules
      b.onLoad({ filter: /\/page\/style\.css$/ }, async (a) => ({ contents: await elementStylesheet(await readFile(a.path, 'utf8'), WEB), loader: 'text' }));
      b.onLoad({ filter: /\/lab\/results\.js$/ }, (a) => ({
        contents: LAB_RESULTS[name === 'light' ? 'chunk' : 'inlined'], resolveDir: dirname(a.path), loader: 'js' }));
      if (name === 'light') {
        b.onLoad({ filter: /\/lab\/results\.json$/ }, async (a) => ({ contents: LAB_RESULTS_CHUNK(await readFile(a.path, 'utf8')), loader: 'js' }));
        b.onResolve({ filter: /^\.\/chartjs-/ }, (a) => ({ path: a.path, external: true }));
        b.onResolve({ filter: /\/lib\/posenc\.js$/ }, (a) => ({ path: 'posenc:light-api', namespace: 'posenc' }));
        // each kind's module a chunk loaded on demand (not every file under charts/)
        b.onLoad({ filter: /\/host\/kinds\.js$/ }, async (a) => ({
          contents: namedChartImports(await readFile(a.path, 'utf8')), resolveDir: dirname(a.path), loader: 'js' }));
      }
      b.onLoad({ filter: /.*/, namespace: 'posenc' }, (a) => ({ contents: modules[a.path], resolveDir: WEB, loader: 'js' }));
      // see light(): the modules loaded on demand import what every page loads first
      if (shared?.importers) {
        b.onLoad({ filter: /\.js$/ }, async (a) => (shared.importers.has(a.path)
          ? { contents: `import 'posenc:boot';\n${await readFile(a.path, 'utf8')}`, resolveDir: dirname(a.path), loader: 'js' } : undefined));
      }
    },
  };
}

async function bundle(name, urls, extra = {}) {
  const result = await build({
    entryPoints: ['posenc:entry'],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    legalComments: 'eof',
    charset: 'utf8',
    loader: { '.wasm': 'binary', '.css': 'text', '.safetensors': 'binary', '.json': 'text' },
    inject: ['posenc:base'],
    define: { 'import.meta.url': 'posencBaseUrl' },
    plugins: [virtual(name, urls)],
    logLevel: 'warning',
    ...extra,
  });
  return result.outputFiles[0].text;
}

/** Makes JavaScript safe to put between <script> and </script>. */
function scriptSafe(js) {
  const out = js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  if (/<\/script|<!--/i.test(out)) throw new Error('bundle.js: cannot inline the script safely');
  return out;
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function replaceOnce(html, pattern, by, what, page = 'index.html') {
  let n = 0;
  const out = html.replace(pattern, () => (n++, typeof by === 'function' ? by() : by));
  if (n !== 1) throw new Error(`bundle.js: ${page} should have exactly one ${what}, found ${n}`);
  return out;
}

/** The teacher's guide in one file, beside dist/standalone.html (a page's link to a file that is not there fails from file://). */
const GUIDE = 'standalone-teaching.html';

/**
 * A page of web/ in one file: its stylesheet and a bundle of its module scripts inlined, with a
 * hash-based Content-Security-Policy. `page`: index.html or teaching.html; `entry`: the bundle's
 * name; `assets`: whether the kernels and the lab's model come too (the guide draws no chart);
 * `links(html)`: the page's links to its sibling pages, pointed at their single files; `needs`:
 * the module script the page cannot be without.
 */
async function standalonePage(page, entry, { assets, links, needs }) {
  let html = links(await readFile(join(WEB, page), 'utf8'));
  // Every module script of the page, in order, becomes one import of the bundle's entry.
  const modules = [];
  // (the served page loads their bundle, build/page/<name>.js, made from page/<name>.js)
  html = html.replace(/[ \t]*<script type="module"(?: async)? src="build\/page\/([\w-]+\.js)"><\/script>\n?/gi, (_, src) => (modules.push(`page/${src}`), ''));
  if (!modules.includes(needs)) throw new Error(`bundle.js: ${page} has no <script type="module" src="build/${needs}">`);
  // what the served page asks for ahead (the kernels) is inlined here
  html = html.replace(/[ \t]*<link rel="(?:module)?preload"[^>]*>\n?/gi, '');
  ENTRIES[entry] = `${assets ? "import 'posenc:assets';\n" : ''}${modules.map((m) => `import './${m}';`).join('\n')}\n`;
  const js = scriptSafe(await bundle(entry, 'scriptUrl: "posenc.js", scriptModule: false, embedUrl: null'));
  const css = (await readFile(join(WEB, 'page', 'style.css'), 'utf8')).replace(/<\/style/gi, '<\\/style');
  html = replaceOnce(html, /<link rel="stylesheet" href="page\/style\.css">/i, '', 'stylesheet link', page);
  // Other classic scripts (run before the first paint, say) are inlined where they stand.
  const classic = [];
  html = html.replace(/<script src="([\w/-]+\.js)"><\/script>/gi, (_, src) => (classic.push(src), `<script>\u0000${classic.length - 1}</script>`));
  const classicText = await Promise.all(classic.map(async (src) => scriptSafe(await readFile(join(WEB, src), 'utf8'))));
  html = html.replace(/<script>\u0000(\d+)<\/script>/g, (_, i) => `<script>${classicText[Number(i)]}</script>`);
  const left = html.match(/<script[^>]*\ssrc=[^>]*>|<link[^>]*rel="stylesheet"[^>]*>/i);
  if (left) throw new Error(`bundle.js: ${page} loads something the standalone build does not inline: ${left[0]}`);
  // Functions as replacements: the inlined text may contain "$&" and friends.
  // The stylesheet in the head; the script at the end of the body, where every chart's element
  // has been read (the served page's async script mounts those read so far, then the rest).
  html = html.replace(/<\/head>/i, () => `<style>${css}</style>\n</head>`);
  html = replaceOnce(html, /<\/body>/i, () => `<script>${js}</script>\n</body>`, '</body>', page);
  // The served page's policy allows 'self'; here everything is inline, so it names the hashes
  // of every inline script (the page's own ones too) and of the stylesheet.
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/gi)].map((m) => sha256(m[1]));
  const csp = `default-src 'none'; script-src ${scripts.join(' ')} 'wasm-unsafe-eval'; style-src ${sha256(css)}; ` +
    "img-src data: blob:; connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";
  html = replaceOnce(html, /<meta http-equiv="Content-Security-Policy"[^>]*>/i,
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`, 'Content-Security-Policy meta', page);
  return html;
}

/** The whole page in one file; its "For teachers" link opens the guide's single file beside it. */
const standalone = () => standalonePage('index.html', 'standalone', { assets: true, needs: 'page/main.js',
  links: (html) => replaceOnce(html, /href="teaching\.html"/g, `href="${GUIDE}"`, 'link to teaching.html', 'index.html') });

/** The teacher's guide in one file: its links to the lesson, scenes and handouts open dist/standalone.html. */
const standaloneGuide = () => standalonePage('teaching.html', 'standalone-guide', { assets: false, needs: 'page/page-ui.js',
  links: (html) => html.replace(/\bindex\.html\b/g, 'standalone.html') });

/** The light embed: an ES module with chunks, written to dist/module/ with the wasm it loads. */
async function light() {
  const out = join(DIST, 'module');
  await rm(out, { recursive: true, force: true });
  const options = {
    entryPoints: { boot: 'posenc:boot' },
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: out,
    entryNames: 'chunks/[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    legalComments: 'eof',
    charset: 'utf8',
    loader: { '.css': 'text' },
    banner: { js: `/*! posenc ${pkg.version} (${pkg.license}) */` },
    logLevel: 'warning',
    metafile: true,
  };
  // Chart.js's two builds (CHART_JS), named by their content as esbuild names the chunks
  const chartJsFiles = {};
  for (const [name, contents] of Object.entries(CHART_JS)) {
    const { entryPoints, splitting, outdir, entryNames, chunkNames, ...one } = options;
    const r = await build({ ...one, stdin: { contents, resolveDir: WEB, sourcefile: `chartjs-${name}.js` }, write: false, metafile: false });
    // A chart's first drawing runs most of Chart.js: this comment (first in the file) has Chromium
    // compile every function while the file arrives, off the main thread, not one at a time as
    // the first chart calls them.
    const text = `//# allFunctionsCalledOnLoad\n${r.outputFiles[0].text}`;
    chartJsFiles[name] = `chunks/chartjs-${name}-${createHash('sha256').update(text).digest('hex').slice(0, 8).toUpperCase()}.js`;
    await mkdir(join(out, 'chunks'), { recursive: true });
    await writeFile(join(out, chartJsFiles[name]), text);
  }
  // esbuild splits what the element's code shares with the charts into a chunk per set of
  // importers, loaded in requests of their own: a dozen small files for one chart, which a host
  // serving HTTP/1.1 fetches six at a time. So a first build finds the modules loaded on demand
  // and the chunks most charts import; in the second, the boot module imports the latter, and
  // each of the former imports the boot module (loaded before any of them anyway): all of it
  // ends up in one chunk.
  const first = await build({ ...options, write: false, plugins: [virtual('light', '', { shared: { chartJsFiles } })] });
  const kindOutputs = Object.values(first.metafile.outputs).filter((o) => /(?:^|\/)charts\/[\w-]+\.js$/.test(o.entryPoint ?? ''));
  const importedBy = new Map();
  for (const o of kindOutputs) for (const i of o.imports) if (i.kind === 'import-statement') importedBy.set(i.path, (importedBy.get(i.path) ?? 0) + 1);
  const common = [...importedBy].filter(([, n]) => n > kindOutputs.length / 2)
    .flatMap(([chunk]) => Object.keys(first.metafile.outputs[chunk].inputs)).filter((i) => /^web\/.*\.js$/.test(i));
  const importers = new Set(Object.values(first.metafile.outputs).map((o) => o.entryPoint ?? '')
    .filter((e) => /^web\/(charts|host|lib)\/.*\.js$/.test(e) && !common.includes(e)).map((e) => join(ROOT, e)));
  const result = await build({ ...options, plugins: [virtual('light', '', { shared: { common: common.map((f) => join(ROOT, f)), importers, chartJsFiles } })] });
  // Each chart's chunks, with the chunks they import, for the entry's table
  const outputs = Object.fromEntries(Object.entries(result.metafile.outputs).map(([k, v]) => [relative(out, join(ROOT, k)), v]));
  const closure = (file, seen = new Set()) => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const i of outputs[file].imports) if (i.kind === 'import-statement') closure(relative(out, join(ROOT, i.path)), seen);
    return seen;
  };
  // What each chart's own code calls, read from its modules' sources (not through the boot
  // module, which reaches everything): a method of the model families, or Chart.js's bar charts
  // and area fills (Chart.js 'all')
  const inputs = result.metafile.inputs;
  const sources = (kind) => {
    const seen = new Set();
    const walk = (path) => {
      if (seen.has(path) || path.startsWith('posenc:')) return;
      seen.add(path);
      for (const i of inputs[path]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) walk(i.path);
    };
    walk(`web/charts/${kind}.js`);
    return Promise.all([...seen].filter((f) => /\.js$/.test(f) && !/lib\/(instance|families)\.js$/.test(f)).map((f) => readFile(join(ROOT, f), 'utf8')));
  };
  const callsFamilies = callsAny(FAMILY_METHODS), callsTables = callsAny(TABLE_METHODS);
  const table = { kinds: {}, boot: [], families: [], tables: [], chartjs: chartJsFiles, familyKinds: [], tableKinds: [], barKinds: [] };
  for (const kind of KINDS) table.kinds[kind] = null; // in KINDS' order
  for (const [file, o] of Object.entries(outputs)) {
    const entry = o.entryPoint ?? '';
    const kind = /(?:^|\/)charts\/([\w-]+)\.js$/.exec(entry)?.[1];
    if (kind) {
      table.kinds[kind] = [...closure(file)];
      const texts = await sources(kind);
      if (texts.some((t) => callsFamilies.test(t))) table.familyKinds.push(kind);
      else if (texts.some((t) => callsTables.test(t))) table.tableKinds.push(kind);
      const minified = await Promise.all(texts.map(async (t) => (await transform(t, { loader: 'js', minify: true })).code));
      if (minified.some((t) => BARS_OR_FILLS.test(t))) table.barKinds.push(kind);
    } else if (entry.endsWith('posenc:boot')) table.boot = [...closure(file)];
    else if (/(?:^|\/)lib\/families\.js$/.test(entry)) table.families = [...closure(file)];
    else if (/(?:^|\/)lib\/tables-attention\.js$/.test(entry)) table.tables = [...closure(file)];
  }
  const configFile = Object.keys(outputs).find((f) => Object.keys(outputs[f].inputs).some((i) => i.endsWith('posenc:light-config')));
  if (KINDS.some((k) => !table.kinds[k]) || !table.boot.length || !table.families.length || !table.tables.length ||
    !configFile?.startsWith('chunks/')) {
    throw new Error('bundle.js: the light embed\'s chunks are not where its entry and set-up look for them');
  }
  // which kinds call the model families or the tables and attention, or draw bars and fills, into
  // the element's set-up (JSON in a JS string literal)
  let text = await readFile(join(out, configFile), 'utf8');
  for (const [name, value] of [['__POSENC_FAMILIES__', table.familyKinds], ['__POSENC_TABLES__', table.tableKinds], ['__POSENC_BARS__', table.barKinds]]) {
    if (text.split(`"${name}"`).length !== 2) throw new Error(`bundle.js: cannot write ${name} into ${configFile}`);
    text = text.replace(`"${name}"`, () => JSON.stringify(JSON.stringify(value)));
  }
  await writeFile(join(out, configFile), text);
  // The entry preloads the boot module's chunks first: a kind's list names only the chunks it adds,
  // and every file by its name in chunks/ (the entry's table is part of every post's first bytes)
  const boot = table.boot[0], inBoot = new Set(table.boot);
  const own = (files) => files.filter((f) => !inBoot.has(f)).map((f) => f.replace(/^chunks\//, ''));
  for (const kind of KINDS) table.kinds[kind] = own(table.kinds[kind]);
  table.families = own(table.families);
  table.tables = own(table.tables);
  table.boot = table.boot.map((f) => f.replace(/^chunks\//, ''));
  table.chartjs = Object.fromEntries(Object.entries(table.chartjs).map(([k, f]) => [k, f.replace(/^chunks\//, '')]));
  const entryBuild = await build({
    stdin: { contents: lightEntry(table, boot), resolveDir: WEB, sourcefile: 'posenc-light-entry.js' },
    bundle: true,
    external: ['./chunks/*'],
    format: 'esm',
    outfile: join(out, 'posenc.js'),
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    charset: 'utf8',
    banner: { js: `/*! posenc ${pkg.version} (${pkg.license}) */` },
    logLevel: 'warning',
    metafile: true,
  });
  if (Object.values(entryBuild.metafile.outputs)[0].imports.some((i) => i.kind !== 'dynamic-import')) {
    throw new Error('bundle.js: the light embed\'s entry should have no static import');
  }
  for (const f of ['posenc.wasm', 'posenc-scalar.wasm', 'posenc-core.wasm', 'posenc-core-scalar.wasm']) {
    await copyFile(join(WEB, 'build', f), join(out, f));
  }
  // the offline model of "Inside a real model", read beside the script as a model's own files
  await cp(join(WEB, 'build', 'lab-model'), join(out, 'lab-model'), { recursive: true });
  await rm(join(WEB, 'build', 'module'), { recursive: true, force: true });
  await cp(out, join(WEB, 'build', 'module'), { recursive: true });
  return out;
}

await mkdir(DIST, { recursive: true });
const element = await bundle('element', 'scriptUrl: null, embedUrl: null', { globalName: 'posenc' });
const banner = `/*! posenc ${pkg.version} (${pkg.license}): <posenc-chart> with its kernels, Chart.js and charts in one classic script. */\n`;
await writeFile(join(DIST, 'posenc.js'), banner + element);
await mkdir(join(WEB, 'build'), { recursive: true });
await copyFile(join(DIST, 'posenc.js'), join(WEB, 'build', 'posenc.js'));
await writeFile(join(DIST, 'standalone.html'), await standalone());
await writeFile(join(DIST, GUIDE), await standaloneGuide());
const lightDir = await light();
const size = async (f) => `${((await readFile(f)).length / 1024).toFixed(0)} KiB`;
console.error(`bundle.js: wrote dist/module/ (posenc.js ${await size(join(lightDir, 'posenc.js'))}, ` +
  `${(await readdir(join(lightDir, 'chunks'))).length} chunks), web/build/module/`);
console.error(`bundle.js: wrote dist/posenc.js (${await size(join(DIST, 'posenc.js'))}), web/build/posenc.js, ` +
  `dist/standalone.html (${await size(join(DIST, 'standalone.html'))}), dist/${GUIDE} (${await size(join(DIST, GUIDE))})`);
