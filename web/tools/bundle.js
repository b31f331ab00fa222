// bundle.js: the single-file builds, made with esbuild (`node web/tools/bundle.js`, run by build.sh
// after the wasm is built):
//   dist/posenc.js         a classic script: both wasm builds inlined as base64, Chart.js, the
//                          stylesheet and every chart module. It registers <posenc-chart> and
//                          sets window.posenc = { load(), kinds, version }. Works from file://.
//   web/build/posenc.js    the same file, served beside the page: its Embed snippets load it.
//   dist/standalone.html   index.html with the stylesheet and a bundle of main.js inlined: the
//                          whole page in one file, with a hash-based Content-Security-Policy.
//   dist/module/posenc.js  the light embed, an ES module (<script type="module">): it registers
//                          <posenc-chart> and loads the rest when a chart needs it, each piece once
//                          a page: the chart's own code (dist/module/chunks/), Chart.js, the
//                          kernels (posenc-core.wasm without the lab; posenc.wasm for the lab's
//                          charts) and the lab's results (in the lab charts' chunk). Copied to
//                          web/build/module/ for the page's Embed snippet.
// Nothing here is fetched at run time; nothing leaves the machine at build time.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile, copyFile, rm, cp, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';

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
import { Chart, registerables } from 'chart.js';
Chart.register(...registerables);
configure({ Chart, css, loadKernels: () => loadPosenc({ source: simdSupported() ? simd : scalar }), ${urls},
  labModel: { 'model.safetensors': labSafetensors, 'config.json': labConfig, 'tokenizer.json': labTokenizer, 'tokenizer_config.json': labTokenizerConfig } });
`;

/** Chart.js with what posenc's charts draw (line, scatter and bar charts on linear, log and category axes). */
const CHART_JS = `
import { Chart, LineController, ScatterController, BarController, LinearScale, LogarithmicScale, CategoryScale,
  PointElement, LineElement, BarElement, Legend, Tooltip, Filler, Decimation, Title } from 'chart.js';
Chart.register(LineController, ScatterController, BarController, LinearScale, LogarithmicScale, CategoryScale,
  PointElement, LineElement, BarElement, Legend, Tooltip, Filler, Decimation, Title);
export default Chart;
`;

/** The light embed's set-up: loaders in place of inlined assets. */
const LIGHT_CONFIG = `
import { configure } from './host/runtime.js';
import { loadPosenc, simdSupported } from './lib/posenc.js';
import css from './page/style.css';
// the lab's charts train in the page (lab-order) or read its results: they need the whole build
const LAB = /^(lab-|length-lab$)/;
configure({
  css,
  kernelBuild: (kind) => (LAB.test(kind ?? '') ? 'all' : 'core'),
  loadKernels: (build) => {
    const file = \`posenc\${build === 'core' ? '-core' : ''}\${simdSupported() ? '' : '-scalar'}.wasm\`;
    return loadPosenc({ source: new URL(file, import.meta.url) });
  },
  loadChartJs: () => import('posenc:chartjs').then((m) => m.default),
  scriptUrl: () => new URL('posenc.js', import.meta.url).href,
  labModel: new URL('lab-model/', import.meta.url).href,
  scriptModule: true,
  embedUrl: null,
});
`;

const ENTRIES = {
  light: `
import 'posenc:light-config';
import './embed/element.js';
import { kernels, chartJs } from './host/runtime.js';
import { KINDS, DEFAULT_KIND, loadChart } from './host/chart-host.js';
// What the charts in view will ask for, asked for now: their code (every chunk of it at once,
// as modulepreload links: the chunks a chart imports are otherwise found one round trip later),
// their kernels and Chart.js load while the elements wait for their first frame.
const CHUNKS = JSON.parse("__POSENC_CHUNKS__"); // { kinds: { kind: [files] }, chartjs: [files] }, written after the build
const preloaded = new Set();
const preload = (files = []) => {
  for (const f of files) {
    if (preloaded.has(f)) continue;
    preloaded.add(f);
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = new URL(f, import.meta.url).href;
    document.head.append(link);
  }
};
if (typeof document === 'object') {
  for (const el of document.querySelectorAll('posenc-chart')) {
    if (el.getBoundingClientRect().top > innerHeight + 300) continue;
    const kind = (el.getAttribute('kind') ?? DEFAULT_KIND).trim();
    if (!KINDS.includes(kind)) continue;
    preload(CHUNKS.kinds[kind]);
    preload(CHUNKS.chartjs);
    for (const p of [loadChart(kind), kernels(kind), chartJs()]) p.catch(() => {});
  }
}
export const load = kernels;
export const kinds = KINDS;
export const version = ${JSON.stringify(pkg.version)};
`,
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
};

// Virtual modules: the entries, the assets set-up, the script's own URL (for import.meta.url,
// which a classic script lacks) and an empty node:fs (heap.js reads files only under Node).
function virtual(name, urls) {
  const modules = {
    'posenc:entry': ENTRIES[name],
    'posenc:assets': assets(urls),
    'posenc:light-config': LIGHT_CONFIG,
    'posenc:chartjs': CHART_JS,
    'posenc:base': 'export const posencBaseUrl = (typeof document === "object" && document.currentScript && document.currentScript.src) || (typeof location === "object" ? location.href : "file:///");',
    'node:fs/promises': 'export function readFile() { throw new Error("no file system in the browser"); }',
  };
  return {
    name: 'posenc-virtual',
    setup(b) {
      b.onResolve({ filter: /^(posenc:|node:fs\/promises$)/ }, (a) => ({ path: a.path, namespace: 'posenc' }));
      b.onLoad({ filter: /.*/, namespace: 'posenc' }, (a) => ({ contents: modules[a.path], resolveDir: WEB, loader: 'js' }));
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

function replaceOnce(html, pattern, by, what) {
  let n = 0;
  const out = html.replace(pattern, () => (n++, typeof by === 'function' ? by() : by));
  if (n !== 1) throw new Error(`bundle.js: index.html should have exactly one ${what}, found ${n}`);
  return out;
}

async function standalone() {
  let html = await readFile(join(WEB, 'index.html'), 'utf8');
  // Every module script of the page, in order, becomes one import of the bundle's entry.
  const modules = [];
  html = html.replace(/[ \t]*<script type="module" src="([\w./-]+\.js)"><\/script>\n?/gi, (_, src) => (modules.push(src), ''));
  if (!modules.includes('page/main.js')) throw new Error('bundle.js: index.html has no <script type="module" src="page/main.js">');
  // what the served page asks for ahead (its modules, the kernels) is inlined here
  html = html.replace(/[ \t]*<link rel="(?:module)?preload"[^>]*>\n?/gi, '');
  ENTRIES.standalone = `import 'posenc:assets';\n${modules.map((m) => `import './${m}';`).join('\n')}\n`;
  const js = scriptSafe(await bundle('standalone', 'scriptUrl: "posenc.js", scriptModule: false, embedUrl: null'));
  const css = (await readFile(join(WEB, 'page', 'style.css'), 'utf8')).replace(/<\/style/gi, '<\\/style');
  html = replaceOnce(html, /<link rel="stylesheet" href="page\/style\.css">/i, '', 'stylesheet link');
  html = replaceOnce(html, /[ \t]*<script src="vendor\/chart\.umd\.js"[^>]*><\/script>\n?/i, '', 'Chart.js script');
  // Other classic scripts (run before the first paint, say) are inlined where they stand.
  const classic = [];
  html = html.replace(/<script src="([\w/-]+\.js)"><\/script>/gi, (_, src) => (classic.push(src), `<script>\u0000${classic.length - 1}</script>`));
  const classicText = await Promise.all(classic.map(async (src) => scriptSafe(await readFile(join(WEB, src), 'utf8'))));
  html = html.replace(/<script>\u0000(\d+)<\/script>/g, (_, i) => `<script>${classicText[Number(i)]}</script>`);
  const left = html.match(/<script[^>]*\ssrc=[^>]*>|<link[^>]*rel="stylesheet"[^>]*>/i);
  if (left) throw new Error(`bundle.js: index.html loads something the standalone build does not inline: ${left[0]}`);
  // Functions as replacements: the inlined text may contain "$&" and friends.
  // The stylesheet in the head; the script at the end of the body, where the page is parsed
  // (as it is when deferred module scripts run on the served page).
  html = html.replace(/<\/head>/i, () => `<style>${css}</style>\n</head>`);
  html = replaceOnce(html, /<\/body>/i, () => `<script>${js}</script>\n</body>`, '</body>');
  // The served page's policy allows 'self'; here everything is inline, so it names the hashes
  // of every inline script (the page's own ones too) and of the stylesheet.
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/gi)].map((m) => sha256(m[1]));
  const csp = `default-src 'none'; script-src ${scripts.join(' ')} 'wasm-unsafe-eval'; style-src ${sha256(css)}; ` +
    "img-src data: blob:; connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";
  html = replaceOnce(html, /<meta http-equiv="Content-Security-Policy"[^>]*>/i,
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`, 'Content-Security-Policy meta');
  return html;
}

/** The light embed: an ES module with chunks, written to dist/module/ with the wasm it loads. */
async function light() {
  const out = join(DIST, 'module');
  await rm(out, { recursive: true, force: true });
  const result = await build({
    entryPoints: { posenc: 'posenc:entry' },
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: out,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    legalComments: 'eof',
    charset: 'utf8',
    loader: { '.css': 'text' },
    banner: { js: `/*! posenc ${pkg.version} (${pkg.license}) */` },
    plugins: [virtual('light', '')],
    logLevel: 'warning',
    metafile: true,
  });
  // Each chart's chunks and Chart.js's, with the chunks they import, into the entry's table
  const outputs = Object.fromEntries(Object.entries(result.metafile.outputs).map(([k, v]) => [relative(out, join(ROOT, k)), v]));
  const closure = (file, seen = new Set()) => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const i of outputs[file].imports) if (i.kind === 'import-statement') closure(relative(out, join(ROOT, i.path)), seen);
    return seen;
  };
  const table = { kinds: {}, chartjs: [] };
  for (const [file, o] of Object.entries(outputs)) {
    const kind = /(?:^|\/)charts\/([\w-]+)\.js$/.exec(o.entryPoint ?? '')?.[1];
    if (kind) table.kinds[kind] = [...closure(file)];
    else if (/chartjs/.test(o.entryPoint ?? '')) table.chartjs = [...closure(file)];
  }
  const entryFile = join(out, 'posenc.js');
  const text = await readFile(entryFile, 'utf8');
  if (text.split('"__POSENC_CHUNKS__"').length !== 2 || !table.chartjs.length) throw new Error('bundle.js: cannot write the light embed\'s chunk table');
  await writeFile(entryFile, text.replace('"__POSENC_CHUNKS__"', () => JSON.stringify(JSON.stringify(table))));
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
const lightDir = await light();
const size = async (f) => `${((await readFile(f)).length / 1024).toFixed(0)} KiB`;
console.error(`bundle.js: wrote dist/module/ (posenc.js ${await size(join(lightDir, 'posenc.js'))}, ` +
  `${(await readdir(join(lightDir, 'chunks'))).length} chunks), web/build/module/`);
console.error(`bundle.js: wrote dist/posenc.js (${await size(join(DIST, 'posenc.js'))}), web/build/posenc.js, ` +
  `dist/standalone.html (${await size(join(DIST, 'standalone.html'))})`);
