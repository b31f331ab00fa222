// element-css.js: the page's stylesheet as a <posenc-chart> element's shadow root needs it
// (web/tools/bundle.js puts it into the element's builds). The shadow root holds one chart, so
// the rules for the rest of the page (its header, contents, prose, presenter and print
// snapshots) match nothing there: a rule whose selectors each name a class or an id that no
// chart's code uses is left out, which is a quarter of the light embed's stylesheet gzipped.
// What a chart's code uses is read from its sources: every word in web/host, web/charts,
// web/embed and web/lab, a superset of the classes and ids they can set.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { transform } from 'esbuild';

/** Every .js file under dir. */
async function sources(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await sources(p)));
    else if (p.endsWith('.js')) out.push(p);
  }
  return out;
}

/** The words of the chart code's sources (names a class or an id could have). */
async function chartWords(web) {
  const words = new Set();
  for (const dir of ['host', 'charts', 'embed', 'lab']) {
    for (const f of await sources(join(web, dir))) for (const m of (await readFile(f, 'utf8')).matchAll(/[A-Za-z_][\w-]*/g)) words.add(m[0]);
  }
  return words;
}

/** Splits at `sep` outside brackets and parentheses (a selector list, where :is(a, b) holds a comma). */
function splitTop(text, sep) {
  const out = [];
  let depth = 0, from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === sep && depth === 0) out.push(text.slice(from, i)), (from = i + 1);
  }
  out.push(text.slice(from));
  return out;
}

/** [prelude, body] of each top-level block of minified CSS. */
function blocks(css) {
  const out = [];
  let i = 0;
  while (i < css.length) {
    const open = css.indexOf('{', i);
    if (open < 0) break;
    let depth = 0, j = open;
    for (; j < css.length; j++) {
      if (css[j] === '{') depth++;
      else if (css[j] === '}' && --depth === 0) break;
    }
    out.push([css.slice(i, open), css.slice(open + 1, j)]);
    i = j + 1;
  }
  return out;
}

/** `css` minified, without the rules that match nothing in a chart. */
export async function elementStylesheet(css, web) {
  const words = await chartWords(web);
  // (attribute values, [data-kind="x"], are not class names; nor what :not(), :is() or :has()
  // name: a class no chart uses makes :not(.x) match everywhere, and :is(.x, .y) needs only one)
  const bare = (selector) => {
    let s = selector.replace(/\[[^\]]*\]/g, '');
    while (/\([^()]*\)/.test(s)) s = s.replace(/\([^()]*\)/g, '');
    return s;
  };
  const used = (selector) => [...bare(selector).matchAll(/[.#]([A-Za-z_][\w-]*)/g)].every((m) => words.has(m[1]));
  const keep = (text) => blocks(text).map(([prelude, body]) => {
    if (/^@(media|supports|container|layer)\b/.test(prelude)) {
      const inner = keep(body);
      return inner ? `${prelude}{${inner}}` : '';
    }
    if (prelude.startsWith('@')) return `${prelude}{${body}}`;
    const selectors = splitTop(prelude, ',').filter(used);
    return selectors.length ? `${selectors.join(',')}{${body}}` : '';
  }).join('');
  return keep((await transform(css, { loader: 'css', minify: true })).code);
}
