// embed.test.js: posenc outside its own page, in real Chromium. <posenc-chart> on a plain blog
// page over http (dist/posenc.js from another origin, and web/element.js as a module),
// dist/standalone.html and dist/posenc.js from file:// with every other request blocked,
// embed.html in iframes (exactly the URL's parameters, height posted), the Link round trip,
// the Embed snippets, CSV and PNG downloads, and what `npm pack` puts in the package.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, copyFileSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startBrowser, pageReady } from './browser.js';
import { serve } from '../web/tools/serve.js';
import { trackedPage, trackedPages, inkOf } from './fixtures/track.js';
import { KINDS } from '../web/host/chart-host.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FIXTURES = join(ROOT, 'tests', 'fixtures');
const DIST_JS = join(ROOT, 'dist', 'posenc.js');
const STANDALONE = join(ROOT, 'dist', 'standalone.html');
const clean = { console: [], pageErrors: [], dialogs: [], failed: [], external: [] };

// the pages served over http in two contexts, tracked ones and browser.js's (b.pages), whose pages
// take on the renderer of the one before (a load costs half as much so); the file:// one in its own
let b, fixtures, tracked;
before(async () => {
  if (!existsSync(DIST_JS) || !existsSync(STANDALONE)) execFileSync('node', ['web/tools/bundle.js'], { cwd: ROOT, stdio: 'inherit' });
  b = await startBrowser();
  fixtures = await serve({ port: 0, root: FIXTURES });
  tracked = trackedPages(b.browser);
});
after(async () => {
  await tracked?.close();
  await b?.close();
  await fixtures?.close();
});

/** A fixture's HTML served at `path` of the site, for trackedPages' open(). */
const fixtureAt = (path, fulfil) => [[`${b.url}${path}`, (r) => r.fulfill({ contentType: 'text/html', ...fulfil })]];

const ink = (selector) => `(${inkOf})(${selector})`;

/** Sets controls of a page chart by name and waits for the redraw. */
function setControls(page, kind, values) {
  return page.evaluate(({ kind, values }) => new Promise((resolve) => {
    const el = document.querySelector(`[data-chart="${kind}"]`);
    const host = window.posencPage.charts.get(kind);
    el.addEventListener('posenc:drawn', () => resolve(host.params()), { once: true });
    for (const [name, v] of Object.entries(values)) {
      const c = host.controls.find((x) => x.param.name === name);
      const input = c.inputs[c.inputs.length - 1];
      if (input.type === 'checkbox') input.checked = v;
      else input.value = String(v);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
  }), { kind, values });
}

test('KINDS lists every chart module', () => {
  const files = readdirSync(join(ROOT, 'web', 'charts')).filter((f) => f.endsWith('.js') && f !== 'common.js').map((f) => f.slice(0, -3));
  assert.deepEqual([...KINDS].sort(), files.sort());
});

test('web/embed/README.md documents every kind and every attribute of <posenc-chart>', async () => {
  const readme = readFileSync(join(ROOT, 'web', 'embed', 'README.md'), 'utf8');
  const { paramAttribute } = await import('../web/host/chart-host.js');
  for (const kind of KINDS) {
    const row = readme.split('\n').find((l) => l.startsWith(`| \`${kind}\` |`));
    assert.ok(row, `README's attribute table has a row for ${kind}`);
    const { default: chart } = await import(`../web/charts/${kind}.js`);
    for (const p of chart.params) assert.ok(row.includes(`\`${paramAttribute(p)}\`=`), `README names ${kind}'s attribute ${paramAttribute(p)}`);
  }
});

test('<posenc-chart> on a plain blog page over http: one script tag from another origin, lazy, attributes = params', async () => {
  const { page, close, problems, csp } = await tracked.open(`${fixtures.url}blog.html`, {
    routes: [['**/posenc.js', (r) => r.fulfill({ path: DIST_JS, contentType: 'text/javascript' })]],
  });
  const first = await page.evaluate(async () => {
    const el = document.getElementById('first');
    const host = await el.ready;
    const root = el.shadowRoot;
    return {
      params: host.params(), rows: el.data.rows.length,
      fallbackShown: !!root.querySelector('slot'),
      controlsHidden: root.querySelector('.controls:not(.phone-main)').hidden,
      width: Math.round(el.getBoundingClientRect().width),
      article: Math.round(document.querySelector('article').getBoundingClientRect().width - 32),
      canvasWidth: Math.round(root.querySelector('canvas').getBoundingClientRect().width),
      padding: ((s) => parseFloat(s.paddingLeft) + parseFloat(s.paddingRight))(getComputedStyle(root.querySelector('.posenc-element'))),
    };
  });
  assert.deepEqual(first.params, { theta: 'θ_i = base^(−2i/d)', preset: 'free', dim: 256, maxDist: 2000, scale: 'linear', bound: true, base: 10000 });
  assert.equal(first.fallbackShown, false, 'fallback content gone once drawn');
  assert.equal(first.controlsHidden, true, 'controls="0" hides the controls');
  assert.equal(first.width, first.article, 'the element fills its container');
  // the element's box keeps its inner margin on either side
  assert.ok(first.canvasWidth >= first.width - first.padding - 2, `canvas ${first.canvasWidth} px fills the element (${first.width} px, ${first.padding} px of padding)`);
  assert.ok(await page.evaluate(ink("document.getElementById('first').shadowRoot.querySelector('canvas')")) > 1000, 'pixels drawn');

  // The kernels behind the element give the numbers it drew (window.posenc.load()).
  const same = await page.evaluate(async () => {
    const pe = await window.posenc.load();
    const { rows } = document.getElementById('first').data;
    const g = pe.ropeDecay(rows.map((r) => r[0]), { dim: 256, base: 10000, kind: 'ones' });
    return rows.every((r, i) => r[1] === g[i]);
  });
  assert.ok(same, 'element data equals pe.ropeDecay');

  // Lazy: the second chart, 3000 px down, has not started; scrolled near, it draws.
  const lazy = () => page.evaluate(() => {
    const root = document.getElementById('lazy').shadowRoot;
    return { slot: !!root.querySelector('slot'), canvas: !!root.querySelector('canvas') };
  });
  assert.deepEqual(await lazy(), { slot: true, canvas: false }, 'below the fold: still the fallback');
  await page.evaluate(() => document.getElementById('lazy').scrollIntoView());
  await page.waitForFunction(() => document.getElementById('lazy').shadowRoot.querySelector('canvas'));
  await page.evaluate(() => document.getElementById('lazy').ready);
  assert.deepEqual(await lazy(), { slot: false, canvas: true });

  // Attributes and properties: reflected both ways, checked like URL values.
  const changed = await page.evaluate(async () => {
    const el = document.getElementById('first');
    const drawn = () => new Promise((r) => el.addEventListener('posenc:drawn', r, { once: true }));
    let d = drawn();
    el.maxDist = 3000;
    await d;
    const attr = el.getAttribute('max-dist');
    d = drawn();
    el.setAttribute('dim', '128');
    await d;
    const afterAttr = { dim: el.dim, maxDist: el.maxDist };
    d = drawn();
    el.setAttribute('base', '<img src=x onerror=alert(1)>');
    await d;
    const note = el.shadowRoot.querySelector('.posenc-note')?.textContent ?? '';
    return { attr, afterAttr, base: el.base, note, imgs: el.shadowRoot.querySelectorAll('img').length };
  });
  assert.equal(changed.attr, '3000', 'property writes the attribute');
  assert.deepEqual(changed.afterAttr, { dim: 128, maxDist: 3000 });
  assert.equal(changed.base, 10000, 'a malformed attribute keeps the value');
  assert.match(changed.note, /base = “<img src=x onerror=alert\(1\)>” is not a valid value/);
  assert.equal(changed.imgs, 0);

  assert.deepEqual(problems, clean);
  assert.deepEqual(await csp(), [], 'no CSP violation under the blog\'s strict policy');
  await page.screenshot({ path: join(ROOT, 'tests', 'artifacts', 'embed-blog.png') }).catch(() => {});
  await close();
});

test('<posenc-chart> as a module from the site\'s own files (web/embed/element.js)', async () => {
  const { page, close, problems, csp } = await tracked.open(`${b.url}fixture-element.html`, { routes: fixtureAt('fixture-element.html', { path: join(FIXTURES, 'element-module.html') }) });
  const r = await page.evaluate(async () => {
    const el = document.getElementById('kv');
    const host = await el.ready;
    return {
      params: host.params(), style: el.paramStyle, prompt: el.prompt,
      buttons: [...el.shadowRoot.querySelectorAll('.posenc-toolbar button')].map((x) => x.dataset.action),
    };
  });
  assert.equal(r.params.style, 'interleaved', 'param-style sets the param "style"');
  assert.equal(r.style, 'interleaved');
  assert.equal(r.prompt, 6);
  assert.deepEqual(r.buttons, ['png', 'svg', 'animate', 'csv', 'table'], 'toolbar: PNG, SVG, GIF / video, CSV and the table\'s toggle');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#kv button[data-action="csv"]').click()]);
  const csv = readFileSync(await download.path(), 'utf8');
  assert.match(csv, /^# posenc chart "kv-cache"/);
  assert.match(csv, /\r\n# style = interleaved\r\n/);
  assert.ok(await page.evaluate(ink("document.getElementById('kv').shadowRoot.querySelector('canvas')")) > 500);

  // toolbar and locked set after the chart has drawn take effect, and the reader's settings stay
  const later = await page.evaluate(async () => {
    const el = document.getElementById('kv');
    (await el.ready).set({ prompt: 9 });
    const inputs = () => [...el.shadowRoot.querySelectorAll('.controls:not(.phone-main) input, .controls:not(.phone-main) select')];
    el.locked = true;
    await new Promise((r) => setTimeout(r, 50));
    const locked = inputs().every((i) => i.disabled);
    el.locked = false;
    await new Promise((r) => setTimeout(r, 50));
    const unlocked = inputs().every((i) => !i.disabled);
    el.toolbar = false;
    await new Promise((r) => setTimeout(r, 50));
    const host = await el.ready;
    return { locked, unlocked, buttons: el.shadowRoot.querySelectorAll('.posenc-toolbar button').length, prompt: host.params().prompt, style: host.params().style };
  });
  assert.deepEqual(later, { locked: true, unlocked: true, buttons: 0, prompt: 9, style: 'interleaved' });
  assert.deepEqual(problems, clean);
  assert.deepEqual(await csp(), []);
  await close();
});

test('a param that counts only beside another\'s value: given alone it brings that value; beside another, a note says why it is unused', async () => {
  const { parseParams, stateQuery } = await import('../web/host/params.js');
  const { embedSnippets, toCSV } = await import('../web/host/export.js');
  const { params } = (await import('../web/charts/rope-decay.js')).default;
  assert.deepEqual(parseParams(params, [['dim', '64']], { ignore: [] }), { values: { dim: 64, preset: 'free' }, notes: [] });
  assert.deepEqual(parseParams(params, [['preset', 'free'], ['dim', '64']], { ignore: [] }), { values: { dim: 64, preset: 'free' }, notes: [] });
  const both = parseParams(params, [['preset', '256'], ['dim', '64']], { ignore: [] });
  assert.deepEqual(both.values, { preset: '256' });
  assert.deepEqual(both.notes, ['dim = 64 was not used: it counts only when preset = free, and preset = 256 was given.']);
  // what the page writes out leaves an unused dim out, so that reading it back draws the same chart
  const set = { ...Object.fromEntries(params.map((p) => [p.name, p.value])), preset: '4', dim: 64 };
  const query = stateQuery('rope-decay', params, set);
  assert.doesNotMatch(query, /dim=/);
  assert.equal(parseParams(params, new URLSearchParams(query)).values.preset, '4');
  assert.doesNotMatch(embedSnippets({ chart: { kind: 'rope-decay', title: 't', params }, values: set, scriptUrl: 'posenc.js' }), / dim=/);
  assert.doesNotMatch(toCSV({ kind: 'rope-decay', title: 't', params }, set, { columns: [], rows: [] }), /# dim =/);
  assert.match(stateQuery('rope-decay', params, { ...set, preset: 'free' }), /&dim=64/);
  // copied from the Chinese page, both snippets draw in Chinese: an iframe cannot see its post's
  // language, and a post need not name one
  const { setLang } = await import('../web/host/i18n.js');
  const snippets = () => embedSnippets({ chart: { kind: 'rope-decay', title: 't', params }, values: set, embedUrl: 'http://h/embed.html', scriptUrl: 'posenc.js' });
  assert.doesNotMatch(snippets(), /lang/);
  setLang('zh');
  try {
    assert.match(snippets(), /<iframe src="http:\/\/h\/embed\.html\?chart=rope-decay&amp;lang=zh&amp;/);
    assert.match(snippets(), /<posenc-chart kind="rope-decay" lang="zh" /);
    assert.match(snippets(), /^<!-- posenc: rope-decay\. 下面两段代码选一段粘贴，不要两段都贴。 -->$/m);
  } finally {
    setLang('en');
  }

  const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>a post</title><link rel="icon" href="data:,">' +
    '<script type="module" src="/embed/element.js"></script></head><body>' +
    '<posenc-chart id="a" kind="rope-decay" dim="64"></posenc-chart><posenc-chart id="b" kind="rope-decay" preset="256" dim="64"></posenc-chart></body></html>';
  const { page, close, problems } = await tracked.open(`${b.url}fixture-only-when.html`, { routes: fixtureAt('fixture-only-when.html', { body: html }) });
  const state = (id) => page.evaluate(async (id) => {
    const el = document.getElementById(id);
    const host = await el.ready;
    const { preset, dim } = host.params();
    return { preset, dim, note: el.shadowRoot.querySelector('.posenc-note')?.textContent ?? null,
      dimShown: !el.shadowRoot.querySelector('.controls:not(.phone-main) [name="dim"]').closest('.control').hidden };
  }, id);
  assert.deepEqual(await state('a'), { preset: 'free', dim: 64, note: null, dimShown: true }, 'dim="64" alone means d = 64');
  const b2 = await state('b');
  assert.equal(b2.preset, '256');
  assert.equal(b2.dimShown, false);
  assert.match(b2.note, /dim = 64 was not used: it counts only when preset = free, and preset = 256 was given\./);
  // set later, beside preset="256": still unused, and said so
  await page.evaluate(() => document.getElementById('b').setAttribute('dim', '32'));
  await page.waitForFunction(() => /dim = 32 was not used/.test(document.getElementById('b').shadowRoot.querySelector('.posenc-note')?.textContent));
  assert.equal((await state('b')).preset, '256');
  assert.deepEqual(problems, clean);
  await close();

  // the same from embed.html's URL
  const e = await tracked.open(`${b.url}embed.html?chart=rope-decay&dim=64`);
  await e.page.waitForFunction(() => window.posencEmbed?.host?.data);
  assert.deepEqual(await e.page.evaluate(() => {
    const { preset, dim } = window.posencEmbed.host.params();
    return { preset, dim, notes: document.querySelectorAll('.posenc-note').length };
  }), { preset: 'free', dim: 64, notes: 0 });
  await e.close();
});

test('<posenc-chart lang theme>: the page\'s one language and theme, applied inside the elements; the host page\'s <html> untouched', async () => {
  const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>a post</title>' +
    '<meta http-equiv="Content-Security-Policy" content="default-src \'self\'; script-src \'self\' \'wasm-unsafe-eval\'; style-src \'self\'; img-src \'self\' data: blob:; connect-src \'self\'; object-src \'none\'">' +
    '<link rel="icon" href="data:,"><script type="module" src="/embed/element.js"></script></head><body>' +
    '<posenc-chart id="a" kind="wavelengths" lang="zh" theme="dark"></posenc-chart><posenc-chart id="b" kind="binary"></posenc-chart></body></html>';
  const { page, close, problems, csp } = await tracked.open(`${b.url}fixture-lang.html`, { routes: fixtureAt('fixture-lang.html', { body: html }) });
  const state = () => page.evaluate(async () => {
    const one = async (id) => {
      const el = document.getElementById(id);
      await el.ready;
      const root = el.shadowRoot;
      return {
        caption: root.querySelector('figcaption').textContent,
        background: getComputedStyle(root.querySelector('.posenc-element')).backgroundColor,
        text: getComputedStyle(root.querySelector('.readout')).color,
      };
    };
    const h = document.documentElement;
    return { a: await one('a'), b: await one('b'), html: [h.lang, h.dataset.theme ?? null, h.style.colorScheme], chartText: window.Chart.defaults.color };
  });
  const zhDark = await state();
  for (const id of ['a', 'b']) {
    assert.match(zhDark[id].caption, /[\u4e00-\u9fff]/, `${id}: Chinese (one language per page)`);
    assert.equal(zhDark[id].background, 'rgb(20, 23, 29)', `${id}: dark`);
  }
  assert.equal(zhDark.chartText, '#a9b2c1', 'Chart.js text in the dark theme\'s colour');
  assert.deepEqual(zhDark.html, ['en', null, ''], 'the host page\'s <html> is left alone');
  const drawn = page.evaluate(() => new Promise((r) => document.getElementById('a').addEventListener('posenc:drawn', r, { once: true })));
  await page.evaluate(() => {
    const a = document.getElementById('a');
    a.setAttribute('lang', 'en');
    a.theme = 'light';
  });
  await drawn;
  const enLight = await state();
  for (const id of ['a', 'b']) {
    assert.doesNotMatch(enLight[id].caption, /[\u4e00-\u9fff]/, id);
    assert.equal(enLight[id].background, 'rgb(255, 255, 255)', id);
    assert.notEqual(enLight[id].text, zhDark[id].text, `${id}: the text colour follows`);
  }
  assert.deepEqual(enLight.html, ['en', null, '']);
  // a theme that is not one: a note, and the theme stays
  await page.evaluate(() => document.getElementById('b').setAttribute('theme', 'purple'));
  await page.waitForFunction(() => document.getElementById('b').shadowRoot.querySelector('.posenc-note'));
  assert.match(await page.evaluate(() => document.getElementById('b').shadowRoot.querySelector('.posenc-note').textContent), /theme = “purple” is not one of the choices/);
  // nor a language that is not one ("cn" is no language code): a note, and the language stays
  await page.evaluate(() => document.getElementById('a').setAttribute('lang', 'cn'));
  await page.waitForFunction(() => document.getElementById('a').shadowRoot.querySelector('.posenc-note'));
  assert.match(await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('.posenc-note').textContent), /lang = “cn” is not one of the choices; using the default en\./);
  // two charts that ask for two languages: the page shows the last asked for, and that chart says so
  const conflict = await page.evaluate(async () => {
    document.getElementById('a').setAttribute('lang', 'en');
    const c = Object.assign(document.createElement('posenc-chart'), { id: 'c' });
    c.setAttribute('kind', 'binary');
    c.setAttribute('lang', 'zh');
    document.body.append(c);
    await c.ready;
    const note = (id) => document.getElementById(id).shadowRoot.querySelector('.posenc-note')?.textContent ?? '';
    return { c: note('c'), a: note('a'), caption: document.getElementById('a').shadowRoot.querySelector('figcaption').textContent };
  });
  assert.match(conflict.c, /lang = “zh”决定本页所有图表的语言，而本页另一张图表要求“en”/);
  assert.equal(conflict.a, '', 'the chart whose language was overridden has no note of it');
  assert.match(conflict.caption, /[\u4e00-\u9fff]/, 'the page in the last language asked for');
  assert.deepEqual(problems, clean);
  assert.deepEqual(await csp(), []);
  await close();
});

test('<posenc-chart> keeps its text off its edges in every theme: a dark chart on a light post is a framed figure', async () => {
  const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>a post</title>' +
    '<link rel="icon" href="data:,"><script type="module" src="/embed/element.js"></script></head>' +
    '<body style="margin: 0; background: #fff"><posenc-chart id="a" kind="rope-decay" theme="dark" toolbar></posenc-chart></body></html>';
  const { page, close, problems } = await tracked.open(`${b.url}fixture-frame.html`, { viewport: { width: 800, height: 900 }, routes: fixtureAt('fixture-frame.html', { body: html }) });
  const edges = () => page.evaluate(async () => {
    const el = document.getElementById('a');
    await el.ready;
    const root = el.shadowRoot;
    const frame = root.querySelector('.posenc-element').getBoundingClientRect();
    const inner = ['figcaption', '.controls', 'canvas', '.readout', '.posenc-toolbar'].map((q) => root.querySelector(q)).filter((e) => e && e.getClientRects().length);
    const rects = inner.map((e) => e.getBoundingClientRect());
    return {
      background: getComputedStyle(root.querySelector('.posenc-element')).backgroundColor,
      left: Math.min(...rects.map((r) => r.left)) - frame.left,
      right: frame.right - Math.max(...rects.map((r) => r.right)),
      top: Math.min(...rects.map((r) => r.top)) - frame.top,
      frameWidth: frame.width, hostWidth: el.getBoundingClientRect().width,
    };
  });
  const dark = await edges();
  assert.equal(dark.background, 'rgb(20, 23, 29)');
  for (const side of ['left', 'right', 'top']) assert.ok(dark[side] >= 12, `dark: ${side} margin ${dark[side]} px`);
  assert.equal(dark.frameWidth, dark.hostWidth, 'the padding is inside the element\'s width');
  const drawn = page.evaluate(() => new Promise((r) => document.getElementById('a').addEventListener('posenc:drawn', r, { once: true })));
  await page.evaluate(() => (document.getElementById('a').theme = 'light'));
  await drawn;
  const light = await edges();
  assert.equal(light.background, 'rgb(255, 255, 255)');
  for (const side of ['left', 'right', 'top']) assert.ok(light[side] >= 12, `light: ${side} margin ${light[side]} px`);
  assert.deepEqual(problems, clean);
  await close();
});

test('dist/standalone.html and dist/posenc.js work from file:// with every other request blocked', async () => {
  const { page, context, problems } = await trackedPage(b.browser);
  const blocked = [];
  await page.route('**/*', (r) => (r.request().url().startsWith('file:') ? r.fallback() : (blocked.push(r.request().url()), r.abort())));
  await page.goto(pathToFileURL(STANDALONE).href);
  await pageReady(page);
  const res = await page.evaluate(`(() => {
    const ink = ${inkOf};
    const kinds = [...document.querySelectorAll('[data-chart]')].map((e) => e.dataset.chart);
    const charts = window.posencPage.charts;
    return {
      kinds, mounted: [...charts.keys()],
      empty: kinds.filter((k) => !charts.get(k)?.data?.rows?.length),
      blank: [...document.querySelectorAll('main canvas')].filter((c) => c.getClientRects().length && ink(c) === 0)
        .map((c) => c.closest('[data-chart]')?.dataset.chart),
    };
  })()`);
  assert.ok(res.kinds.length >= 20);
  assert.deepEqual(res.mounted.sort(), [...res.kinds].sort());
  assert.deepEqual(res.empty, []);
  assert.deepEqual(res.blank, []);
  assert.deepEqual(blocked, [], 'the standalone page asked for nothing');

  // A page of one's own beside dist/posenc.js, double-clicked.
  const dir = mkdtempSync(join(tmpdir(), 'posenc-file-'));
  try {
    copyFileSync(DIST_JS, join(dir, 'posenc.js'));
    writeFileSync(join(dir, 'post.html'), '<!doctype html><meta charset="utf-8"><title>post</title><script src="posenc.js"></script>' +
      '<p>Before.</p><posenc-chart kind="wavelengths" dim="64">loading</posenc-chart>');
    await page.goto(pathToFileURL(join(dir, 'post.html')).href);
    const n = await page.evaluate(async () => {
      const el = document.querySelector('posenc-chart');
      await el.ready;
      return el.data.rows.length;
    });
    assert.equal(n, 32, 'wavelengths for dim 64: 32 pairs');
    assert.ok(await page.evaluate(ink("document.querySelector('posenc-chart').shadowRoot.querySelector('canvas')")) > 500);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(blocked, []);
  assert.deepEqual(problems, clean);
  await context.close();
});

test('embed.html renders exactly its URL\'s parameters and posts its height to the host page', async () => {
  const a = `${b.url}embed.html?chart=rope-decay&preset=free&dim=64&maxDist=500&scale=log&bound=0&base=500&theta=${encodeURIComponent('θ_i = base^(−2i/d)')}`;
  const c = `${b.url}embed.html?chart=sin-heatmap&length=40&dim=32&layout=concat&controls=0`;
  const { page, close, problems, csp } = await tracked.open(`${fixtures.url}iframe-host.html#${encodeURIComponent(a)}|${encodeURIComponent(c)}`);
  await page.waitForFunction(() => window.heights.filter((h) => h.type === 'posenc:height').length >= 2);
  const frames = page.frames().filter((f) => f.parentFrame());
  assert.equal(frames.length, 2);
  const info = [];
  for (const f of frames) {
    info.push(await f.evaluate(async () => {
      await window.posencEmbed.ready;
      return {
        params: window.posencEmbed.host.params(),
        controlsHidden: document.querySelector('.controls:not(.phone-main)').hidden,
        notes: window.posencEmbed.notes,
        height: Math.ceil(document.getElementById('embed').getBoundingClientRect().height),
      };
    }));
  }
  const [ia, ic] = frames[0].url() === a ? info : info.reverse();
  assert.deepEqual(ia.params, { theta: 'θ_i = base^(−2i/d)', preset: 'free', dim: 64, maxDist: 500, scale: 'log', bound: false, base: 500 });
  assert.deepEqual(ia.notes, []);
  assert.equal(ia.controlsHidden, false);
  assert.deepEqual(ic.params, { length: 40, dim: 32, base: 10000, layout: 'concat' });
  assert.equal(ic.controlsHidden, true, 'controls=0');
  // the last message of each frame carries its height, and the README snippet applied it
  await page.waitForFunction((hs) => {
    const frames = [...document.querySelectorAll('iframe')];
    return hs.every((h) => frames.some((f) => Math.round(f.getBoundingClientRect().height) === h));
  }, [ia.height, ic.height]);
  const msgs = await page.evaluate(() => window.heights);
  for (const m of msgs) {
    assert.deepEqual(Object.keys(m).sort(), ['chart', 'frame', 'height', 'type']);
    assert.ok(Number.isInteger(m.height) && m.height > 0);
  }
  const last = (kind) => msgs.filter((m) => m.chart === kind).at(-1).height;
  assert.equal(last('rope-decay'), ia.height);
  assert.equal(last('sin-heatmap'), ic.height);
  assert.deepEqual(problems, clean);
  assert.deepEqual(await csp(), []);
  await close();
  // framing: allowed for embed.html by the server (a <meta> policy cannot say it), for it alone
  assert.equal((await fetch(`${b.url}embed.html?chart=order`)).headers.get('content-security-policy'), 'frame-ancestors *');
  assert.equal((await fetch(`${b.url}index.html`)).headers.get('content-security-policy'), null);
});

test('Link, Embed, CSV and PNG on the page', async (t) => {
  const { page, context, close, problems } = await b.pages.open('index.html');
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: b.url.replace(/\/$/, '') });
  await pageReady(page);
  const set = await setControls(page, 'rope-decay', { preset: 'free', dim: 96, scale: 'log', bound: false, maxDist: 5000 });
  assert.equal(set.dim, 96);
  const hostData = () => page.evaluate(() => JSON.stringify(window.posencPage.charts.get('rope-decay').data));
  const data = await hostData();
  const btn = (action) => page.locator(`[data-chart="rope-decay"] .posenc-toolbar button[data-action="${action}"]`);

  await t.test('Link: copies a URL of the whole state; opening it restores the chart and scrolls to it', async () => {
    await btn('link').focus();
    await page.keyboard.press('Enter'); // keyboard operable
    await page.waitForFunction(() => document.querySelector('[data-chart="rope-decay"] .posenc-share-status')?.textContent);
    const { field, status, clip } = await page.evaluate(async () => {
      const box = document.querySelector('[data-chart="rope-decay"]');
      return {
        field: box.querySelector('.posenc-share textarea').value,
        status: box.querySelector('.posenc-share-status').textContent,
        clip: await navigator.clipboard.readText(),
      };
    });
    assert.equal(status, 'Copied to the clipboard.');
    assert.equal(clip, field);
    const url = new URL(field);
    assert.equal(url.hash, '#decay');
    assert.equal(url.searchParams.get('chart'), 'rope-decay');
    assert.equal(url.searchParams.get('dim'), '96');
    const other = await b.pages.open(field.slice(b.url.length));
    await pageReady(other.page);
    const back = await other.page.evaluate(() => {
      const el = document.querySelector('[data-chart="rope-decay"]');
      const r = el.getBoundingClientRect();
      return { data: JSON.stringify(window.posencPage.charts.get('rope-decay').data), top: r.top, inView: r.top >= -2 && r.top < innerHeight / 2, notes: el.querySelector('.posenc-note') };
    });
    assert.ok(back.data === data, 'same chart data');
    assert.ok(back.inView, `the linked chart is scrolled into view (top at ${back.top})`);
    assert.equal(back.notes, null);
    assert.deepEqual(other.problems, { console: [], failed: [], external: [], pageErrors: [] });
    await other.close();
  });

  await t.test('Embed: an iframe snippet and an element snippet that show the same state', async () => {
    await btn('embed').click();
    const text = await page.evaluate(() => document.querySelector('[data-chart="rope-decay"] .posenc-share textarea').value);
    const src = text.match(/<iframe src="([^"]+)"/)[1].replace(/&amp;/g, '&');
    assert.ok(src.startsWith(`${b.url}embed.html?chart=rope-decay&`), src);
    assert.match(text, new RegExp(`<script type="module" src="${b.url}build/module/posenc.js"></script>`));
    assert.match(text, /<posenc-chart kind="rope-decay" theta="θ_i = base\^\(−2i\/d\)" preset="free" dim="96" max-dist="5000" scale="log" bound="0" base="10000">/);
    // the iframe's page draws the same numbers
    const emb = await b.pages.open(src.slice(b.url.length));
    const embData = await emb.page.evaluate(async () => (await window.posencEmbed.ready, JSON.stringify(window.posencEmbed.host.data)));
    assert.ok(embData === data, `the iframe draws the same data (${embData?.slice(0, 80)})`);
    await emb.close();
    // two snippets, one to paste: the iframe with its height script, or the element with its script
    const lines = text.split('\n');
    assert.match(lines[0], /^<!-- posenc: rope-decay\. Paste one of the two snippets below, not both\. -->$/);
    const second = lines.findIndex((l) => l.startsWith('<!-- 2. '));
    assert.ok(lines[1].startsWith('<!-- 1. ') && second > 1, text);
    const [iframeSnippet, elementSnippet] = [lines.slice(1, second).join('\n'), lines.slice(second).join('\n')];
    assert.equal((iframeSnippet.match(/<iframe /g) ?? []).length, 1);
    assert.doesNotMatch(iframeSnippet, /posenc-chart/);
    assert.doesNotMatch(elementSnippet, /<iframe/);
    // each pasted into a plain page of another origin: the element draws the same numbers, and
    // the iframe takes the height its chart posts (served by a real server: Chromium does not
    // let a page of unknown address reach 127.0.0.1)
    const dir = mkdtempSync(join(tmpdir(), 'posenc-paste-'));
    const post = (snippet) => `<!doctype html><meta charset="utf-8"><title>pasted</title><link rel="icon" href="data:,">\n<div style="width: 600px">${snippet}</div>\n`;
    writeFileSync(join(dir, 'pasted.html'), post(elementSnippet));
    writeFileSync(join(dir, 'framed.html'), post(iframeSnippet));
    const other = await serve({ port: 0, root: dir });
    let blog;
    try {
      blog = await tracked.open(`${other.url}pasted.html`);
      const elData = await blog.page.evaluate(async () => {
        // defined once the script has loaded its code, which may come after the load event
        await customElements.whenDefined('posenc-chart');
        const el = document.querySelector('posenc-chart');
        await el.ready;
        return JSON.stringify(el.data);
      });
      assert.ok(elData === data, `the pasted element draws the same data (${elData?.slice(0, 80)})`);
      await blog.page.goto(`${other.url}framed.html`);
      // the snippet's height (the chart's on the page, 928 px wide) is not the 600 px column's
      const given = Number(iframeSnippet.match(/ height="(\d+)"/)[1]);
      const frame = blog.page.frames()[1];
      await frame.waitForFunction(() => window.posencEmbed?.host?.data, null, { timeout: 20000 });
      // settled: the height the chart last posted is the iframe's, and the chart fits in it
      await frame.waitForFunction(() => Math.abs(document.documentElement.scrollHeight - innerHeight) <= 1, null, { timeout: 10000 });
      const posted = await blog.page.evaluate(() => document.querySelector('iframe').getBoundingClientRect().height);
      assert.ok(Math.abs(posted - given) > 10 && posted > 200, `the iframe follows its chart: ${posted} px, the snippet said ${given}`);
      assert.deepEqual(blog.problems, clean);
    } finally {
      await blog?.close();
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  await t.test('without the Clipboard API the text is shown, focused and selected', async () => {
    await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true }));
    await btn('link').click();
    const r = await page.evaluate(() => {
      const box = document.querySelector('[data-chart="rope-decay"]');
      const field = box.querySelector('.posenc-share textarea');
      return {
        status: box.querySelector('.posenc-share-status').textContent,
        focused: document.activeElement === field,
        selected: field.selectionEnd - field.selectionStart === field.value.length && field.value.length > 20,
        visible: field.getClientRects().length > 0,
      };
    });
    assert.deepEqual(r, { status: 'Select the text and copy it (Ctrl+C, or ⌘C on a Mac).', focused: true, selected: true, visible: true });
  });

  await t.test('CSV: a header naming the parameters, then exactly the kernel\'s numbers', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), btn('csv').click()]);
    assert.equal(download.suggestedFilename(), 'posenc-rope-decay.csv');
    const csv = readFileSync(await download.path(), 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    const comments = lines.filter((l) => l.startsWith('#'));
    for (const p of ['theta = θ_i = base^(−2i/d)', 'preset = free', 'dim = 96', 'maxDist = 5000', 'scale = log', 'bound = 0', 'base = 10000']) {
      assert.ok(comments.includes(`# ${p}`), `header names ${p}`);
    }
    const table = lines.filter((l) => !l.startsWith('#'));
    assert.equal(table[0], 'Δ,g(Δ)');
    const rows = table.slice(1).map((l) => l.split(',').map(Number));
    const g = await page.evaluate(async (xs) => {
      // the page's own kernels
      const { pe } = window.posencPage;
      return Array.from(pe.ropeDecay(xs, { dim: 96, base: 10000, kind: 'ones' }));
    }, rows.map((r) => r[0]));
    assert.ok(rows.length > 500, `${rows.length} rows`);
    assert.deepEqual(rows.map((r) => r[1]), g, 'CSV values are the kernel\'s, to the last bit');
  });

  await t.test('PNG: a valid PNG of the chart at twice its CSS width, its heading above it', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), btn('png').click()]);
    assert.equal(download.suggestedFilename(), 'posenc-rope-decay.png');
    const png = readFileSync(await download.path());
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
    const width = png.readUInt32BE(16), height = png.readUInt32BE(20);
    const css = await page.evaluate(() => {
      const c = document.querySelector('[data-chart="rope-decay"] canvas');
      const r = c.getBoundingClientRect();
      return { w: r.width, h: r.height, backing: c.width };
    });
    assert.equal(width, Math.round(2 * css.w));
    // the chart's title drawn above the chart (a posted image has no page around it), one or two lines,
    // and a line or two of how it is set under it, unless "settings under the figure" is unticked
    const bands = height - Math.round(2 * css.h);
    assert.ok(bands >= 2 * 40 && bands <= 2 * 160, `heading and settings bands of ${bands / 2} CSS px`);
    const box = page.locator('[data-chart="rope-decay"] [name="with-settings"]');
    await box.uncheck();
    const [bare] = await Promise.all([page.waitForEvent('download'), btn('png').click()]);
    await box.check();
    const heading = readFileSync(await bare.path()).readUInt32BE(20) - Math.round(2 * css.h);
    assert.ok(heading >= 2 * 24 && heading <= 2 * 90, `a heading band of ${heading / 2} CSS px`);
    assert.ok(bands - heading >= 2 * 16, `a settings band of ${(bands - heading) / 2} CSS px`);
    assert.equal(css.backing, Math.round(css.w), 'the chart on the page is back at 1× after the export');
    const pngInk = await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
      const img = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const c = new OffscreenCanvas(img.width, img.height);
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const d = ctx.getImageData(0, 0, img.width, img.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200) n++;
      return n;
    }, png.toString('base64'));
    assert.ok(pngInk > 5000, `the PNG shows the chart (${pngInk} dark pixels)`);
    const titleInk = await page.evaluate(async ({ b64, rows }) => {
      const img = await createImageBitmap(new Blob([Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))], { type: 'image/png' }));
      const ctx = new OffscreenCanvas(img.width, img.height).getContext('2d');
      ctx.drawImage(img, 0, 0);
      const d = ctx.getImageData(0, 0, img.width, rows).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] < 120 && d[i + 1] < 120 && d[i + 2] < 120) n++;
      return n;
    }, { b64: png.toString('base64'), rows: heading });
    assert.ok(titleInk > 500, `the heading band holds the title's text (${titleInk} dark pixels)`);
    assert.ok(await hostData() === data, 'the export left the chart\'s data as it was');
  });

  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
  await close();
});

test('web/lib/posenc.d.ts declares every export and every method of web/lib/posenc.js', async () => {
  const dts = readFileSync(join(ROOT, 'web', 'lib', 'posenc.d.ts'), 'utf8');
  const api = await import('../web/lib/posenc.js');
  for (const name of Object.keys(api)) assert.match(dts, new RegExp(`export declare (const|function) ${name}\\b`), `export ${name}`);
  const pe = await api.loadPosenc();
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(pe)).filter((m) => m !== 'constructor');
  assert.ok(methods.length > 15);
  for (const m of methods) assert.match(dts, new RegExp(`\\n  ${m}\\(`), `method ${m}`);
  for (const k of Object.keys(pe)) assert.match(dts, new RegExp(`readonly ${k}:`), `property ${k}`);
  // both declaration files parse as TypeScript (esbuild's parser: there is no tsc here)
  const { transformSync } = await import('esbuild');
  for (const f of ['web/lib/posenc.d.ts', 'web/embed/element.d.ts']) transformSync(readFileSync(join(ROOT, f), 'utf8'), { loader: 'ts' });
});

test('npm pack: the exports map, types and files an author installs', async () => {
  // (one pack: its --json report lists the files a dry run lists, and its tarball is installed below)
  const dir = mkdtempSync(join(tmpdir(), 'posenc-pack-'));
  try {
    const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const [packed] = JSON.parse(out);
    const files = new Set(packed.files.map((f) => f.path));
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const targets = [];
    const walk = (v) => (typeof v === 'string' ? targets.push(v) : Object.values(v).forEach(walk));
    walk(pkg.exports);
    targets.splice(0, targets.length, ...targets.filter((t) => !t.includes('*')).map((t) => t.replace(/^\.\//, '')));
    for (const f of [...targets, 'web/lib/posenc.d.ts', 'web/embed/element.d.ts', 'web/build/posenc.wasm', 'web/build/posenc-scalar.wasm',
      'web/embed.html', 'web/embed/embed.js', 'web/embed/element.js', 'web/vendor/chart.umd.js', 'web/charts/rope-decay.js', 'README.md']) {
      assert.ok(files.has(f), `the package holds ${f}`);
    }
    for (const f of files) assert.ok(!/^(tests|c|node_modules)\//.test(f), `the package leaves out ${f}`);
    // the pages as a teacher hosts them: every file they load, the page's bundle whole
    for (const page of ['index.html', 'teaching.html']) {
      const html = readFileSync(join(ROOT, 'web', page), 'utf8');
      for (const [, ref] of html.matchAll(/<(?:script|link)\b[^>]*\s(?:src|href)="([\w./-]+)"/g)) {
        assert.ok(files.has(`web/${ref}`), `the package holds web/${ref}, which ${page} loads`);
      }
    }
    for (const f of readdirSync(join(ROOT, 'web', 'build', 'page'))) assert.ok(files.has(`web/build/page/${f}`), `the package holds web/build/page/${f}`);
    // and the light embed beside them, which the page's Embed snippet loads
    assert.ok(files.has('web/build/module/posenc.js'), 'the package holds web/build/module/posenc.js');

    // Chart.js, gifenc and the tokenizer are copied into web/vendor/ and the bundles at build
    // time: no module the package ships imports a package by name, so it depends on none.
    let imports = 0;
    for (const f of files) {
      if (!/^web\/(?!build\/|vendor\/).*\.js$/.test(f)) continue;
      const source = readFileSync(join(ROOT, f), 'utf8');
      for (const m of source.matchAll(/^\s*(?:import|export)\b[^;'"]*?from\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm)) {
        const spec = m[1] ?? m[2];
        assert.ok(/^(\.|node:)/.test(spec), `${f} imports ${spec}, which the package does not hold`);
        imports++;
      }
    }
    assert.ok(imports > 100, `the shipped modules' imports were read (${imports})`);
    const installed = JSON.parse(execFileSync('tar', ['-xzOf', join(dir, packed.filename), 'package/package.json'], { encoding: 'utf8' }));
    assert.equal(installed.dependencies, undefined, 'the package has no dependencies to install');

    // Installed as a dependency (unpacked into node_modules, nothing beside it), `import 'posenc'`
    // computes and the posenc command reads a config.
    mkdirSync(join(dir, 'node_modules', 'posenc'), { recursive: true });
    execFileSync('tar', ['-xzf', join(dir, packed.filename), '-C', join(dir, 'node_modules', 'posenc'), '--strip-components=1']);
    writeFileSync(join(dir, 'use.mjs'), "import { loadPosenc } from 'posenc';\nconst pe = await loadPosenc();\n" +
      'console.log(JSON.stringify(Array.from(pe.sinusoidal(2, 4, { precision: "f64" }))));\n');
    const table = JSON.parse(execFileSync('node', ['use.mjs'], { cwd: dir, encoding: 'utf8' }));
    assert.deepEqual(table.map((x) => Number(x.toFixed(8))), [0, 1, 0, 1, 0.84147098, 0.54030231, 0.00999983, 0.99995]);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'llama', head_dim: 64, num_attention_heads: 8, hidden_size: 512, rope_theta: 10000 }));
    const cli = execFileSync('node', [join(dir, 'node_modules', 'posenc', 'web', 'tools', 'posenc-cli.js'), 'inspect', 'config.json'], { cwd: dir, encoding: 'utf8' });
    assert.match(cli, /full_attention \(32 layers\): base 10000, head 64, rotary 64, pairs half/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
