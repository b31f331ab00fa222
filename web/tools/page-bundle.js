// page-bundle.js: each page's module script bundled (`node web/tools/page-bundle.js`, run by
// build.sh) into web/build/page/:
// - main.js, index.html's, with every chart (the page mounts them all), and page-ui.js, the
//   teacher's guide's: one file per page, because a module's imports are found one level per
//   round trip, and only once the parser lets go of the thread: the page's sources import each
//   other five levels deep, and split into chunks they still came in three waves after the page
//   was parsed.
// - embed.js, embed.html's (one chart, for an iframe), split: the element's code in one wave,
//   then the chart's own chunk (embed-<kind>-*.js) and what it shares with others. Unbundled,
//   its 40 modules came a level of imports per round trip.
//
// Every module keeps its own import.meta.url: the kernels, the lab's model and results, the
// training worker and the vendor files are found beside the sources, as when the sources are
// served unbundled.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';
import { namedChartImports } from './chart-imports.js';

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

const sourceUrls = {
  name: 'posenc-page',
  setup(b) {
    // heap.js reads files only under Node
    b.onResolve({ filter: /^node:fs\/promises$/ }, (a) => ({ path: a.path, namespace: 'posenc-page' }));
    b.onLoad({ filter: /.*/, namespace: 'posenc-page' }, () => ({
      contents: 'export function readFile() { throw new Error("no file system in the browser"); }', loader: 'js' }));
    // vendor files (tokenizers, gifenc) stay where build.sh copies them, loaded when first used
    b.onResolve({ filter: /\/vendor\/[\w.-]+\.js$/ }, (a) => ({
      path: relative(PAGE_OUT, join(a.resolveDir, a.path)), external: true }));
    b.onLoad({ filter: /\.js$/ }, async (a) => {
      let text = await readFile(a.path, 'utf8');
      if (a.path.endsWith(join('host', 'kinds.js'))) text = namedChartImports(text);
      // every output file sits in PAGE_OUT: the source's own URL is found from the bundle's
      const own = `new URL(${JSON.stringify(relative(PAGE_OUT, a.path))}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', own), resolveDir: dirname(a.path), loader: 'js' };
    });
  },
};

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
    plugins: [sourceUrls],
    logLevel: 'warning',
  };
  await build({ ...options, entryPoints: await entries() });
  // (the chunks sit beside the bundles: a module's own URL is found relative to PAGE_OUT)
  await build({ ...options, entryPoints: [join(WEB, 'embed', 'embed.js')], splitting: true, chunkNames: 'embed-[name]-[hash]' });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildPage();
  console.error('page-bundle.js: wrote web/build/page/');
}
