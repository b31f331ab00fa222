// page-bundle.js: each page's module script bundled (`node web/tools/page-bundle.js`, run by
// build.sh) into web/build/page/:
// - index.html's in three files of fixed names: main.js, the page's own code with the chart it
//   opens with; main-shared.js, what that chart shares with the others (the host, the API but its
//   model families); main-charts.js, every other chart and the API's model families, asked for as
//   soon as main.js runs. The page's first chart waits for a quarter of the page's script, which
//   a phone on a slow link feels. No more files than these: a module's imports are found one
//   level per round trip, and only once the parser lets go of the thread (the page's sources
//   import each other five levels deep), so index.html asks for main-shared.js itself
//   (modulepreload), and the page's own code is never split into chunks loaded on demand.
// - page-ui.js, the teacher's guide's, in one file.
// - embed.js, embed.html's (one chart, for an iframe), split: the element's code in one wave,
//   then the chart's own chunk (embed-<kind>-*.js) and what it shares with others. Unbundled,
//   its 40 modules came a level of imports per round trip.
//
// Every module keeps its own import.meta.url: the kernels, the lab's model and results, the
// training worker and the vendor files are found beside the sources, as when the sources are
// served unbundled.
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { basename, dirname, join, relative } from 'node:path';
import { callsAny, firstAndRestImports, namedChartImports, restModule } from './chart-imports.js';
import { FAMILY_METHODS } from '../lib/instance.js';

const WEB = dirname(dirname(fileURLToPath(import.meta.url)));
const PAGE_OUT = join(WEB, 'build', 'page');
/** The pages whose module scripts (<script type="module" src="build/page/<name>.js">) are the entries. */
const PAGES = ['index.html', 'teaching.html'];

/** The entries: web/page/<name>.js for every build/page/<name>.js a page loads. */
async function entries() {
  const names = new Set();
  for (const page of PAGES) {
    const html = await readFile(join(WEB, page), 'utf8');
    const own = [...html.matchAll(/<script type="module"(?: async)? src="build\/page\/([\w-]+)\.js"/g)].map((m) => m[1]);
    // two bundles on one page would each have their own copy of the modules they share
    if (own.length > 1) throw new Error(`page-bundle.js: ${page} loads ${own.length} page bundles; one imports what else it needs`);
    for (const name of own) names.add(name);
  }
  if (!names.has('main')) throw new Error('page-bundle.js: index.html loads no build/page/main.js');
  return [...names].map((name) => join(WEB, 'page', `${name}.js`));
}

/** The kind of index.html's first chart (its first <div data-chart>), the one the page opens with. */
async function firstChart() {
  const html = (await readFile(join(WEB, 'index.html'), 'utf8')).replace(/<!--[\s\S]*?-->/g, '');
  const kind = /<div data-chart="([\w-]+)"/.exec(html)?.[1];
  if (!kind) throw new Error('page-bundle.js: index.html has no <div data-chart>');
  return kind;
}

const REST = 'posenc-page:charts';
const API = 'posenc-page:api';

/**
 * The JS API as index.html's bundle has it (for lib/posenc.js's loadPosenc): the kernels with
 * their tables and attention at once, the model families when the other charts come (REST hands
 * them over as it runs, before any of its charts can mount).
 */
const PAGE_API = `
import { loadInstance, addFamilies } from ${JSON.stringify(join(WEB, 'lib', 'instance.js'))};
import * as tables from ${JSON.stringify(join(WEB, 'lib', 'tables-attention.js'))};
export { simdSupported } from ${JSON.stringify(join(WEB, 'lib', 'heap.js'))};
let families = null;
const waiting = [];
export function familiesArrived(f) {
  families = f;
  for (const pe of waiting.splice(0)) addFamilies(pe, f);
}
export async function loadPosenc(options) {
  const pe = await loadInstance(options, tables);
  if (families) addFamilies(pe, families);
  else waiting.push(pe);
  return pe;
}
`;

/** REST: every chart but `first`, exported by kind, handing the API's model families over first. */
const restWithFamilies = (first) => `import { familiesArrived } from ${JSON.stringify(API)};
import * as families from ${JSON.stringify(join(WEB, 'lib', 'families.js'))};
familiesArrived(families);
${restModule(first)}`;

/**
 * The page's sources as the bundles take them. With `first` (index.html's bundle): kinds.js
 * imports that chart with it and every other from one module (REST), and the sources' own
 * import() of a module of theirs is a static import (their code comes with the page's).
 */
const sourceUrls = (first = null) => ({
  name: 'posenc-page',
  setup(b) {
    // heap.js reads files only under Node
    b.onResolve({ filter: /^node:fs\/promises$/ }, (a) => ({ path: a.path, namespace: 'posenc-page' }));
    b.onLoad({ filter: /.*/, namespace: 'posenc-page' }, () => ({
      contents: 'export function readFile() { throw new Error("no file system in the browser"); }', loader: 'js' }));
    if (first) {
      b.onResolve({ filter: new RegExp(`^${REST}$`) }, () => ({ path: join(WEB, 'charts', 'charts.js'), namespace: 'posenc-charts' }));
      b.onLoad({ filter: /.*/, namespace: 'posenc-charts' }, () => ({ contents: restWithFamilies(first), resolveDir: join(WEB, 'charts'), loader: 'js' }));
      b.onResolve({ filter: new RegExp(`/lib/posenc\\.js$|^${API}$`) }, () => ({ path: join(WEB, 'lib', 'page-api.js'), namespace: 'posenc-api' }));
      b.onLoad({ filter: /.*/, namespace: 'posenc-api' }, () => ({ contents: PAGE_API, resolveDir: join(WEB, 'lib'), loader: 'js' }));
    }
    // vendor files (tokenizers, gifenc) stay where build.sh copies them, loaded when first used
    b.onResolve({ filter: /\/vendor\/[\w.-]+\.js$/ }, (a) => ({
      path: relative(PAGE_OUT, join(a.resolveDir, a.path)), external: true }));
    b.onLoad({ filter: /\.js$/ }, async (a) => {
      let text = await readFile(a.path, 'utf8');
      if (a.path.endsWith(join('host', 'kinds.js'))) text = first ? firstAndRestImports(text, first, REST) : namedChartImports(text);
      else if (first) text = staticImports(text);
      // every output file sits in PAGE_OUT: the source's own URL is found from the bundle's
      const own = `new URL(${JSON.stringify(relative(PAGE_OUT, a.path))}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', own), resolveDir: dirname(a.path), loader: 'js' };
    });
  },
});

/** `text` with each import('./x.js') of a source (not a vendor file) made a static import. */
function staticImports(text) {
  const head = [];
  const out = text.replace(/\bimport\((['"])(\.{1,2}\/[\w./-]+\.js)\1\)/g, (call, quote, path) => {
    if (path.includes('/vendor/')) return call;
    head.push(`import * as IMPORTED_${head.length} from ${JSON.stringify(path)};`);
    return `Promise.resolve(IMPORTED_${head.length - 1})`;
  });
  return head.length ? `${head.join('\n')}\n${out}` : text;
}

/**
 * index.html's bundle, written as main.js, main-shared.js (its one static import) and
 * main-charts.js (its one import() of a file of its own), or an error if esbuild made other files.
 */
async function buildMain(options, entry) {
  const r = await build({ ...options, plugins: [sourceUrls(await firstChart())], entryPoints: [entry], splitting: true,
    chunkNames: 'main-[name]-[hash]', write: false, metafile: true });
  const outputs = r.metafile.outputs, main = Object.keys(outputs).find((f) => basename(f) === 'main.js');
  const own = (kind) => outputs[main].imports.filter((i) => i.kind === kind && !i.external).map((i) => basename(i.path));
  const [shared, ...moreShared] = own('import-statement'), [charts, ...moreCharts] = own('dynamic-import');
  const names = new Map([['main.js', 'main.js'], [shared, 'main-shared.js'], [charts, 'main-charts.js']]);
  if (!shared || !charts || moreShared.length || moreCharts.length || Object.keys(outputs).some((f) => !names.has(basename(f)))) {
    throw new Error(`page-bundle.js: index.html's bundle should be main.js, one shared chunk and one of charts; esbuild made ${Object.keys(outputs).map((f) => basename(f)).join(', ')}`);
  }
  // the chart the page opens with draws before the model families come
  const early = [main, ...Object.keys(outputs).filter((f) => basename(f) === shared)].flatMap((f) => Object.keys(outputs[f].inputs));
  const callsFamilies = callsAny(FAMILY_METHODS);
  for (const input of early.filter((i) => i.startsWith(relative(process.cwd(), join(WEB, 'charts'))) && i.endsWith('.js'))) {
    if (callsFamilies.test(await readFile(input, 'utf8'))) throw new Error(`page-bundle.js: ${input} comes with index.html's first chart and calls the API's model families, which come after it`);
  }
  await mkdir(PAGE_OUT, { recursive: true });
  for (const file of r.outputFiles) {
    let text = file.text;
    for (const [from, to] of names) text = text.replaceAll(`"./${from}"`, JSON.stringify(`./${to}`));
    if ([shared, charts].some((f) => text.includes(f))) throw new Error(`page-bundle.js: ${basename(file.path)} names a chunk in a way not renamed`);
    await writeFile(join(PAGE_OUT, names.get(basename(file.path))), text);
  }
}

/** Writes web/build/page/ afresh. */
export async function buildPage() {
  await rm(PAGE_OUT, { recursive: true, force: true });
  const options = {
    bundle: true,
    format: 'esm',
    outdir: PAGE_OUT,
    entryNames: '[name]',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    charset: 'utf8',
    plugins: [sourceUrls()],
    logLevel: 'warning',
  };
  const all = await entries(), main = all.find((e) => basename(e) === 'main.js');
  await buildMain(options, main);
  await build({ ...options, entryPoints: all.filter((e) => e !== main) });
  // (the chunks sit beside the bundles: a module's own URL is found relative to PAGE_OUT)
  await build({ ...options, entryPoints: [join(WEB, 'embed', 'embed.js')], splitting: true, chunkNames: 'embed-[name]-[hash]' });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildPage();
  console.error('page-bundle.js: wrote web/build/page/');
}
