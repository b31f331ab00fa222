// page.test.js: the page as a reader gets it, in Debian's Chromium, one page shared by every
// test that reads it (each sets the controls it needs): every chart mounts and draws, nothing is
// logged, nothing fails to load, nothing leaves localhost; then the charts section by section
// (1-7: each draws, a control changes its data, the seed's numbers are on the page, the order
// experiment's claims hold; 8-15: T_max/4, the KV cache, R(k); 16-20: config.json, the precision
// and convention labs, dynamic NTK), a 360 px phone, and the API in the browser against Node.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageReady, switchLang } from './browser.js';
import { loadPosenc, MODELS } from '../web/lib/posenc.js';

// sections 1-7
const KINDS_1_7 = ['order', 'binary', 'single-frequency', 'three-frequencies', 'wavelengths', 'sin-heatmap',
  'exact-table', 'frequency-curves', 'unit-circle', 'helix'];
const CANVAS_KINDS_1_7 = KINDS_1_7.filter((k) => k !== 'order' && k !== 'exact-table');

// sections 8-15
// kind -> a control to move and the value to move it to
const KINDS_8_15 = {
  'relative-rotation': ['k', 7],
  'near-orthogonal': ['seed', 1],
  'four-terms': ['query', 20],
  'absolute-decay': ['seed', 1],
  'rope-2d': ['m', 3],
  'rope-periods': ['preset', '4'],
  'rope-decay': ['preset', '4'],
  'rope-decay-random': ['seed', 1],
  'rotate-half': ['position', 5],
  'kv-cache': ['seed', 1],
  'extrapolation': ['length', 8192],
};

// sections 16-21
const KINDS_16_20 = ['scaling-variants', 'scaling-decay', 'dynamic-kv-cache', 'precision-lab', 'precision-heatmap', 'convention-lab', 'sinusoidal-layouts',
  'model-positions', 'model-misreads', 'length-lab', 'alibi-bias', 't5-buckets', 'xpos-scale', 'lab-order', 'lab-learned'];
// One control per chart to change, and its new value.
const CHANGE_16_20 = {
  'scaling-variants': ['factor', '4'],
  'scaling-decay': ['variant', 'linear (PI)'],
  'dynamic-kv-cache': ['length', '100'],
  'precision-lab': ['base', '500000'],
  'precision-heatmap': ['type', 'float16'],
  'convention-lab': ['input', 'random q, k'],
  'sinusoidal-layouts': ['dim', '32'],
  'model-positions': ['model', 'llama-3.1-8b'],
  'model-misreads': ['model', 'gemma-3-4b'],
  'length-lab': ['task', 'copy'],
  'alibi-bias': ['heads', '12'],
  't5-buckets': ['numBuckets', '16'],
  'xpos-scale': ['scaleBase', '256'],
  'lab-order': ['encoding', 'rope'],
  'lab-learned': ['task', 'copy'],
};
const LLAMA31 = {
  hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 131072, rope_theta: 500000.0,
  rope_scaling: { factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
};

let b, page, problems;
before(async () => {
  b = await startBrowser();
  ({ page, problems } = await b.open());
  await pageReady(page);
});
after(async () => b?.close());

// One touch-screen phone serves the tests that tap and the Chinese readout (a load costs seconds
// of CPU; what they check is what a tap or a readout shows, not what a load does): each sets the
// size and the language it needs, the language with the page's own switch.
let touchScreen = null;
async function touchPage(lang, viewport) {
  if (!touchScreen) {
    const context = await b.browser.newContext({ viewport, hasTouch: true, isMobile: true });
    touchScreen = await context.newPage();
    await touchScreen.goto(`${b.url}?lang=${lang}`);
    await pageReady(touchScreen);
  } else {
    await touchScreen.setViewportSize(viewport);
    await switchLang(touchScreen, lang);
  }
  return touchScreen;
}

/** Sets control `name` of chart `kind` (on the shared page, or `on`) and resolves with { changed, data } once it redrew. */
function setControl(kind, name, value, on = page) {
  return on.evaluate(async ({ kind, name, value }) => {
    const box = document.querySelector(`[data-chart="${kind}"]`);
    const host = window.posencPage.charts.get(kind);
    const before = JSON.stringify(host.data);
    const inputs = box.querySelectorAll(`.controls [name="${name}"]`);
    const input = inputs[inputs.length - 1]; // the number box of a range + number pair
    const drawn = new Promise((resolve) => box.addEventListener('posenc:drawn', resolve, { once: true }));
    if (input.type === 'checkbox') input.checked = value;
    else input.value = String(value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await drawn;
    return { changed: JSON.stringify(host.data) !== before, data: host.data, readout: box.querySelector('.readout').textContent };
  }, { kind, name, value });
}

/** Replaces the config.json text, fires 'input', waits for the redraw; returns the message shown. */
function setConfig(text) {
  return page.evaluate(async (text) => {
    const el = document.querySelector('[data-chart="scaling-variants"]');
    const box = el.querySelector('textarea');
    const drawn = new Promise((r) => el.addEventListener('posenc:drawn', r, { once: true }));
    box.value = text;
    box.dispatchEvent(new Event('input'));
    await drawn;
    const msg = el.querySelector('.config-message');
    return { text: msg.textContent, error: msg.classList.contains('error'), visible: msg.getBoundingClientRect().height > 0 && getComputedStyle(msg).visibility === 'visible',
      menu: el.querySelector('.config-panel select').selectedOptions[0]?.textContent };
  }, text);
}

const data = (kind) => page.evaluate((kind) => JSON.parse(JSON.stringify(window.posencPage.charts.get(kind).data)), kind);

test('every chart mounts and draws; no console message, failed or external request', async () => {
  const { kinds, mounted, empty } = await page.evaluate(() => {
    const kinds = [...document.querySelectorAll('[data-chart]')].map((e) => e.dataset.chart);
    const charts = window.posencPage.charts;
    const empty = kinds.filter((k) => !charts.get(k)?.data?.rows?.length);
    return { kinds, mounted: [...charts.keys()], empty };
  });
  assert.ok(kinds.length >= 20, `only ${kinds.length} charts on the page`);
  assert.deepEqual(mounted.sort(), [...kinds].sort(), 'every chart mounted');
  assert.deepEqual(empty, [], 'charts that drew no data');
  // every canvas shown (not in a panel hidden at these values) shows something besides its background
  const blank = await page.evaluate(() =>
    [...document.querySelectorAll('main canvas')]
      .filter((c) => c.checkVisibility())
      .filter((c) => {
        if (!c.width || !c.height) return true;
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) return false;
        return true;
      })
      .map((c) => c.closest('[data-chart]')?.dataset.chart),
  );
  assert.deepEqual(blank, [], 'blank canvases');
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
});

test('the charts\' controls are in no <form>: Chrome\'s autofill would read every form of the page again each time a chart mounts or the presenter moves one', async () => {
  const r = await page.evaluate(() => ({
    forms: document.forms.length,
    panels: document.querySelectorAll('.chart .controls:not(.phone-main)').length,
    inputs: [...document.querySelectorAll('.chart .controls :is(input, select)')].filter((e) => e.form).length,
  }));
  assert.equal(r.forms, 0, 'forms on the page');
  assert.ok(r.panels >= 40, `${r.panels} control panels`);
  assert.equal(r.inputs, 0, 'controls owned by a form');
});

// ---- sections 1-7 ----

test('every chart of sections 1-7 mounted, with its data and a readout', async () => {
  const info = await page.evaluate((kinds) => kinds.map((k) => {
    const host = window.posencPage.charts.get(k);
    const box = document.querySelector(`[data-chart="${k}"]`);
    return { k, mounted: !!host, rows: host?.data?.rows?.length ?? 0, readout: box.querySelector('.readout')?.textContent ?? '' };
  }), KINDS_1_7);
  for (const { k, mounted, rows, readout } of info) {
    assert.ok(mounted, `${k} mounted`);
    assert.ok(rows > 0, `${k} returned data rows`);
    assert.ok(readout.length > 20, `${k} has a readout`);
  }
});

test('every canvas drew something besides background, and says what it shows', async () => {
  const res = await page.evaluate((kinds) => kinds.map((k) => {
    const canvases = [...document.querySelectorAll(`[data-chart="${k}"] canvas`)].filter((c) => c.offsetParent);
    return {
      k,
      canvases: canvases.map((c) => {
        const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
        let ink = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && (data[i] < 235 || data[i + 1] < 235 || data[i + 2] < 235)) ink++;
        return { ink, area: c.width * c.height, role: c.getAttribute('role'), keys: c.hasAttribute('aria-roledescription'), label: c.getAttribute('aria-label') ?? '' };
      }),
    };
  }), CANVAS_KINDS_1_7);
  for (const { k, canvases } of res) {
    assert.ok(canvases.length > 0, `${k} has a visible canvas`);
    for (const c of canvases) {
      assert.ok(c.ink > c.area * 0.005, `${k}: ${c.ink} inked pixels of ${c.area}`);
      // a canvas that takes keys (the heatmap's cells) is an application, whose keys screen readers pass on
      assert.equal(c.role, c.keys ? 'application' : 'img', `${k} canvas role`);
      assert.ok(c.label.length > 10, `${k} canvas aria-label`);
    }
  }
});

test('the heatmap is the seed figure: 100 x 512 values in [-1, 1], with a hover read-out', async () => {
  const d = await page.evaluate(() => {
    const { data } = window.posencPage.charts.get('sin-heatmap');
    return { rows: data.rows.length, cols: data.columns.length, r1: data.rows[1].slice(0, 3) };
  });
  assert.deepEqual([d.rows, d.cols], [100, 513]);
  assert.ok(Math.abs(d.r1[1] - Math.sin(1)) < 1e-6 && Math.abs(d.r1[2] - Math.cos(1)) < 1e-6);
  const canvas = page.locator('[data-chart="sin-heatmap"] canvas');
  const box = await canvas.boundingBox();
  await canvas.hover({ position: { x: box.width * 0.3, y: box.height * 0.5 } });
  const hover = await page.locator('[data-chart="sin-heatmap"] .heatmap-hover').textContent();
  assert.match(hover, /^PE\(\d+, \d+\) = −?\d\.\d{6}/);
  await canvas.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowUp');
  assert.match(await page.locator('[data-chart="sin-heatmap"] .heatmap-hover').textContent(), /^PE\(\d+, 0\) = /);
});

test('on a touch screen a tap on a heatmap reads the cell under the finger', async () => {
  const touch = await touchPage('en', { width: 390, height: 800 });
  for (const [kind, out, pattern] of [['sin-heatmap', '.heatmap-hover', /^PE\(\d+, \d+\) = -?\d\.\d{6}/], ['precision-heatmap', '.cell-hover', /pair \d+/]]) {
    const canvas = touch.locator(`[data-chart="${kind}"] canvas`).first();
    await canvas.evaluate((c) => { c.closest('section').style.contentVisibility = 'visible'; c.scrollIntoView(); });
    const box = await canvas.boundingBox();
    const hover = touch.locator(`[data-chart="${kind}"] ${out}`);
    const before = await hover.textContent();
    await touch.touchscreen.tap(box.x + box.width * 0.5, box.y + box.height * 0.5);
    const after = await hover.textContent();
    assert.notEqual(after, before, `${kind}: a tap reads a cell`);
    assert.match(after, pattern, kind);
    await canvas.evaluate((c) => { c.closest('section').style.contentVisibility = ''; });
  }
  await touch.evaluate(() => scrollTo(0, 0));
});

test('the exact table shows the seed values in float64', async () => {
  const text = await page.locator('[data-chart="exact-table"] table').textContent();
  for (const v of ['0.84147098', '0.54030231', '0.00999983', '0.99995']) assert.ok(text.includes(v), v);
  const row0 = await page.locator('[data-chart="exact-table"] tbody tr').first().locator('td').allTextContents();
  assert.deepEqual(row0.map((t) => t.trim()), ['0', '1', '0', '1']);
  // a header says which dimension and which function, in words a reader parses at once
  const heads = await page.locator('[data-chart="exact-table"] thead th').allTextContents();
  assert.deepEqual(heads, ['position', 'dim 0 (sin)', 'dim 1 (cos)', 'dim 2 (sin)', 'dim 3 (cos)']);
});

// a cell's line: its two numbers, which must be that cell's, PE(pos, 2i) = sin(pos / base^(2i/d)),
// PE(pos, 2i + 1) = cos(…), and float32 the float64 value rounded (one float32 step at most)
function checkCell(text, { pos, dim, d, base }, label) {
  const m = /float64 (?:为 )?(-?[\d.e-]+)[,，] ?float32 (?:为 )?(-?[\d.e-]+)$/.exec(text);
  assert.ok(m, `${label}: ${text}`);
  assert.ok(text.startsWith(`PE(${pos}, ${dim}) = ${dim % 2 ? 'cos' : 'sin'}(`), `${label}: ${text}`);
  const angle = pos / base ** ((dim - (dim % 2)) / d);
  const ref = dim % 2 ? Math.cos(angle) : Math.sin(angle);
  const [f64, f32] = [Number(m[1]), Number(m[2])];
  assert.ok(Math.abs(f64 - ref) <= 1e-15, `${label}: float64 ${f64} vs ${ref}`);
  assert.equal(Math.fround(f32), f32, `${label}: ${f32} is a float32`);
  assert.ok(Math.abs(f32 - Math.fround(ref)) <= 2 ** -24 * Math.max(Math.abs(ref), 2 ** -10), `${label}: float32 ${f32} vs ${Math.fround(ref)}`);
}

test('the exact table shows a cell\'s float64 and float32 values on a tap or on focus, and says so', async () => {
  const box = page.locator('[data-chart="exact-table"]');
  const line = box.locator('.exact-cell');
  await page.evaluate(() => {
    const host = window.posencPage.charts.get('exact-table');
    host.set({ length: 4, dim: 6, base: 100 });
    host.update();
  });
  assert.match(await line.textContent(), /^Tap a cell .* float64 and float32 values\.$/);
  const cell = (pos, dim) => box.locator('tbody tr').nth(pos).locator('td').nth(dim);
  // a tap: a pointerdown, no hover
  await cell(3, 3).dispatchEvent('pointerdown');
  checkCell(await line.textContent(), { pos: 3, dim: 3, d: 6, base: 100 }, 'pointerdown');
  // the keyboard: the table is one Tab stop, the arrows move in it
  await cell(1, 4).focus();
  checkCell(await line.textContent(), { pos: 1, dim: 4, d: 6, base: 100 }, 'focus');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  checkCell(await line.textContent(), { pos: 2, dim: 5, d: 6, base: 100 }, 'arrow keys');
  assert.equal(await box.locator('td[tabindex="0"]').count(), 1, 'one Tab stop');
  assert.equal(await page.evaluate(() => document.activeElement.textContent.trim()), (await cell(2, 5).textContent()).trim());
  // the picked cell follows the settings
  await page.evaluate(() => {
    const host = window.posencPage.charts.get('exact-table');
    host.set({ base: 10000 });
    host.update();
  });
  checkCell(await line.textContent(), { pos: 2, dim: 5, d: 6, base: 10000 }, 'after a change');
  await page.evaluate(() => window.posencPage.charts.get('exact-table').reset());
});

test('on a phone, in Chinese, a tap on a cell of the exact table shows its values', async () => {
  const touch = await touchPage('zh', { width: 360, height: 740 });
  const box = touch.locator('[data-chart="exact-table"]');
  const line = box.locator('.exact-cell');
  assert.match(await line.textContent(), /^点按任一单元格.*float64 值和 float32 值。$/);
  const td = box.locator('tbody tr').nth(1).locator('td').nth(2);
  // the headers in words make the table wider than a phone: the reader swipes the column into view
  await td.evaluate((c) => { c.closest('section').style.contentVisibility = 'visible'; c.scrollIntoView({ block: 'center', inline: 'center' }); });
  const r = await td.boundingBox();
  await touch.touchscreen.tap(r.x + r.width / 2, r.y + r.height / 2);
  const text = await line.textContent();
  assert.match(text, /：float64 为 .*，float32 为 /);
  checkCell(text, { pos: 1, dim: 2, d: 4, base: 10000 }, 'zh tap');
  await td.evaluate((c) => { c.closest('section').style.contentVisibility = ''; });
  await touch.evaluate(() => scrollTo(0, 0));
});

test('section 3 numbers match the source post (PE(2), PE(8) for frequencies 1, 1/10, 1/100)', async () => {
  const three = await page.evaluate(() => window.posencPage.charts.get('three-frequencies').data.rows);
  assert.deepEqual(three.map((r) => r[2].toFixed(3)), ['0.909', '0.199', '0.020']);
  assert.deepEqual(three.map((r) => r[3].toFixed(3)), ['0.989', '0.717', '0.080']);
  const one = await page.evaluate(() => window.posencPage.charts.get('single-frequency').data.rows);
  assert.equal(one[2][1].toFixed(3), '0.909');
  assert.equal(one[8][1].toFixed(3), '0.989');
});

test('order: the readout claims hold in the numbers drawn', async () => {
  // rows: [tokens, position, token, ...10 outputs]; the same token compared across the two orders
  // (1 2 3 4 = dog bites man because, 3 2 1 4 = man bites dog because).
  const gaps = (rows) => Object.fromEntries([1, 2, 3, 4].map((t) => {
    const [a, b] = [rows.find((r) => r[0] === '1 2 3 4' && r[2] === t), rows.find((r) => r[0] === '3 2 1 4' && r[2] === t)];
    return [t, Math.max(...a.slice(3).map((v, i) => Math.abs(v - b[3 + i])))];
  }));
  const none = gaps(await page.evaluate(() => window.posencPage.charts.get('order').data.rows));
  assert.deepEqual(none, { 1: 0, 2: 0, 3: 0, 4: 0 }, 'no encoding: every word\'s output the same in both orders');
  let r = await setControl('order', 'causal', true);
  let g = gaps(r.data.rows);
  assert.equal(g[4], 0, 'causal: the last word still identical');
  assert.ok(g[1] > 0.1 && g[2] > 0.1 && g[3] > 0.1, 'causal: the first three words change');
  assert.match(r.readout, /^The mask makes the first three words depend on order/);
  assert.match(r.readout, /“because” 0 \(identical\)\.$/);
  assert.match(r.readout, /“bites” [\d.]+ \(changed\)/, 'section 1\'s first exercise: “bites” keeps its place but changes');
  await setControl('order', 'causal', false);
  for (const encoding of ['sinusoidal', 'rope']) {
    r = await setControl('order', 'encoding', encoding);
    g = gaps(r.data.rows);
    assert.ok(g[4] > 0.01, `${encoding}: the last word changed (${g[4]})`);
    assert.match(r.readout, /^With position information the last word’s output differs/);
    assert.match(r.readout, /“because” [\d.]+ \(changed\)\.$/);
  }
  r = await setControl('order', 'encoding', 'none');
  assert.match(r.readout, /“dog” 0 \(same output, moved from pos 0 to 2\), “bites” 0 \(identical\), “man” 0 \(same output, moved from pos 2 to 0\), “because” 0 \(identical\)\.$/);
});

test('sections 9 and 10: the prose\'s claims hold in the numbers drawn', async () => {
  // four-terms rows: [n, E·E, P·P, E·P, P·E, H·H] for the query at m = 16, d = 512
  let { data: four, readout } = await setControl('four-terms', 'query', 16);
  for (const [n, ee, pp, ep, pe_] of four.rows) {
    if (n !== 16) assert.ok(pp > Math.max(Math.abs(ee), Math.abs(ep), Math.abs(pe_)), `position–position is not the largest term at n = ${n}`);
  }
  const off = four.rows.filter((r) => r[0] !== 16);
  assert.equal(Math.min(...off.map((r) => r[2])).toFixed(0), '132');
  assert.equal(Math.max(...off.map((r) => r[2])).toFixed(0), '249');
  assert.equal(Math.max(...off.flatMap((r) => [r[1], r[3], r[4]].map(Math.abs))).toFixed(1), '25.3');
  assert.match(readout, /^Position–position dominates/);
  // near-orthogonal rows: [word, position, cosine, angle]; the spread is chance's 1/√d
  const { data: near } = await setControl('near-orthogonal', 'seed', 0);
  const cos = near.rows.map((r) => r[2]);
  const mean = cos.reduce((s, c) => s + c, 0) / cos.length;
  const std = Math.sqrt(cos.reduce((s, c) => s + (c - mean) ** 2, 0) / cos.length);
  assert.ok(Math.abs(std - 1 / Math.sqrt(768)) < 0.002, `cosine std ${std}`);
  // absolute-decay rows: [n, total, PE(0)·PE(n)]: 256 at 0, 131 at n = 50, 68 at n = 511
  const abs = (await data('absolute-decay')).rows;
  assert.deepEqual([0, 50, 511].map((n) => abs[n][2].toFixed(0)), ['256', '131', '68']);
});

test('one control of each chart changes its data', async () => {
  const moves = [
    ['binary', 'bits', 2], ['single-frequency', 'a', 3], ['three-frequencies', 'b', 9],
    ['wavelengths', 'dim', 64], ['sin-heatmap', 'dim', 64], ['exact-table', 'length', 3],
    ['frequency-curves', 'low', 20], ['unit-circle', 'pair', 1], ['helix', 'length', 30], ['order', 'seed', 1],
  ];
  for (const [kind, name, value] of moves) {
    const { changed } = await setControl(kind, name, value);
    assert.ok(changed, `${kind}: ${name} = ${value} changed the data`);
  }
});

test('every chart draws with any one control at either end of its range', async () => {
  // (a slider's ends are where a reader lets go; a range end a kernel refuses, as head dim 2
  // was for dynamic NTK, showed an error instead of a chart)
  const failed = await page.evaluate(() => {
    const out = [];
    for (const [kind, host] of window.posencPage.charts) {
      for (const c of host.controls) {
        if (c.param.type !== 'int' && c.param.type !== 'number') continue;
        for (const end of [c.param.min, c.param.max]) {
          c.write(end);
          if (host.update() === null) out.push(`${kind}: ${c.param.name} = ${end}: ${document.querySelector(`[data-chart="${kind}"] .readout`).textContent}`);
        }
        c.write(c.param.value);
      }
      host.update();
    }
    return out;
  });
  assert.deepEqual(failed, []);
});

test('the unit circle step buttons move the position control', async () => {
  const chart = page.locator('[data-chart="unit-circle"]');
  const before = await chart.locator('.controls input[type="number"][name="position"]').inputValue();
  const drawn = page.evaluate(() => new Promise((r) => document.querySelector('[data-chart="unit-circle"]')
    .addEventListener('posenc:drawn', r, { once: true })));
  await chart.getByRole('button', { name: 'Step forward one position' }).click();
  await drawn;
  assert.equal(await chart.locator('.controls input[type="number"][name="position"]').inputValue(), String(Number(before) + 1));
  const rows = await page.evaluate(() => window.posencPage.charts.get('unit-circle').data.rows.length);
  assert.equal(rows, Number(before) + 2);
});

test('unit circle: after position 1, the readout first names position 0 as the nearest earlier point at position 6', async () => {
  // section 7's first exercise quotes this readout
  const nearest = {};
  for (let p = 2; p <= 7; p++) nearest[p] = (await setControl('unit-circle', 'position', p)).readout.match(/nearest earlier point is position (\d+), ([\d.]+) away/).slice(1).join(' ');
  assert.deepEqual(nearest, { 2: '1 0.96', 3: '2 0.96', 4: '3 0.96', 5: '4 0.96', 6: '0 0.28', 7: '1 0.28' });
  await setControl('unit-circle', 'position', 7);
});

// ---- sections 8-15 ----

/** Runs `act` (a function of the chart's box, in the page) and records the text the chart's canvases draw meanwhile. */
function textDrawn(kind, act, arg) {
  return page.evaluate(async ({ kind, act, arg }) => {
    const box = document.querySelector(`[data-chart="${kind}"]`);
    const seen = [], proto = CanvasRenderingContext2D.prototype, fill = proto.fillText;
    proto.fillText = function (text, x, y) {
      if (box.contains(this.canvas)) {
        const m = this.measureText(text), left = { left: 0, center: m.width / 2, right: m.width }[this.textAlign] ?? 0;
        seen.push({ text: String(text), left: x - left, right: x - left + m.width, y });
      }
      return fill.apply(this, arguments);
    };
    try {
      await new Function('box', 'arg', `return (${act})(box, arg)`)(box, arg);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    } finally {
      proto.fillText = fill;
    }
    return seen;
  }, { kind, act: String(act), arg });
}

test('helix: the pair control stops at d_model/2 − 1 and shows the pair drawn', async () => {
  const ctl = () => page.$eval('[data-chart="helix"]', (b) => ({ box: b.querySelector('input[type=number][name=pair]').value, slider: b.querySelector('input[type=range][name=pair]').max }));
  let { data, readout } = await setControl('helix', 'pair', 170);
  assert.deepEqual(await ctl(), { box: '31', slider: '31' }, 'd_model 64 has pairs 0 to 31');
  assert.equal(data.columns[1], 'sin a (dim 62)');
  assert.match(readout, /Pair 31 \(/);
  await setControl('helix', 'dim', 1024);
  assert.deepEqual(await ctl(), { box: '31', slider: '511' }, 'a larger d_model lets the slider go on, the pair staying');
  await setControl('helix', 'dim', 64);
  await setControl('helix', 'pair', 0);
});

test('helix: each notice is true at its settings, and close points keep their labels apart', async () => {
  const notice = () => page.$eval('[data-chart="helix"] .notice', (n) => n.textContent);
  // the defaults: pair 0 turns 1 rad a position, and 19 rad is just past 3 turns
  assert.match(await notice(), /^After about 3 turns, position 19 is back near position 0, 0\.15 from it on the circle/);
  await setControl('helix', 'length', 5); // 5 rad: not yet round, the neighbour is nearest
  assert.match(await notice(), /^Up to position 5 the point turns 0\.8 of a turn and does not come round: .* position 1, 0\.96 away/);
  await setControl('helix', 'length', 200);
  await setControl('helix', 'pair', 10); // 2π/θ ≈ 112 positions a turn
  assert.match(await notice(), /^After about one turn, position 112 is back near position 0/);
  await setControl('helix', 'length', 20);
  const labels = await textDrawn('helix', async (box) => {
    const input = box.querySelector('input[type=number][name=pair]');
    input.value = '31';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((r) => box.addEventListener('posenc:drawn', r, { once: true }));
  });
  assert.match(await notice(), /^Pair 31 turns only 1\.334e-4 rad per position: .* barely tells positions apart/);
  assert.doesNotMatch(await page.$eval('[data-chart="helix"] .readout', (n) => n.textContent), /\b1 positions|returns/);
  const [a, b] = ['pos 0', 'pos 1'].map((t) => labels.findLast((l) => l.text === t));
  assert.ok(a && b, 'both points labelled');
  assert.ok(a.right < b.left, `"pos 0" ends at ${a.right.toFixed(1)}, "pos 1" starts at ${b.left.toFixed(1)}`);
  await setControl('helix', 'pair', 0);
});

/** Draws the helix at `length` and returns its dots ({ x, y } by position) and the numbers written beside them. */
function helixDrawn(length) {
  return page.evaluate(async (length) => {
    const box = document.querySelector('[data-chart="helix"]');
    const proto = CanvasRenderingContext2D.prototype, { arc, fillText } = proto;
    const dots = [], numbers = [];
    proto.arc = function (x, y, r) {
      if (box.contains(this.canvas)) dots.push({ x, y });
      return arc.apply(this, arguments);
    };
    proto.fillText = function (text, x, y) {
      // the dots' numbers are in the small tick lettering (the axis's own numbers are larger)
      if (box.contains(this.canvas) && /^11px /.test(this.font)) numbers.push({ p: Number(text), x, y });
      return fillText.apply(this, arguments);
    };
    try {
      const input = box.querySelector('input[type=number][name=length]');
      input.value = String(length);
      const drawn = new Promise((r) => box.addEventListener('posenc:drawn', r, { once: true }));
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await drawn;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    } finally {
      Object.assign(proto, { arc, fillText });
    }
    return { dots: dots.slice(-(length + 1)), numbers: numbers.filter((n) => Number.isInteger(n.p)) };
  }, length);
}

test('helix: the dots carry their positions, each number beside its own dot, and a crowded spring numbers its first turn', async () => {
  const nearest = (dots, { x, y }) => dots.reduce((best, d, p) => (Math.hypot(d.x - x, d.y - y) < Math.hypot(dots[best].x - x, dots[best].y - y) ? p : best), 0);
  // the defaults: 20 positions, room for every number but those of the two labelled points
  let { dots, numbers } = await helixDrawn(20);
  assert.deepEqual(numbers.map((n) => n.p), [...Array(21).keys()].filter((p) => p !== 0 && p !== 19));
  for (const n of numbers) assert.equal(nearest(dots, n), n.p, `the number ${n.p} is nearest the dot of position ${n.p}`);
  // a dot is drawn off its tick (position 1 by about two ticks), which is why it carries a number
  const tick = (dots[19].x - dots[0].x) / 19; // sin 19 ≈ 0.15: position 19 is drawn nearly on its tick
  assert.ok(dots[1].x - dots[0].x > 2 * tick, `position 1 is drawn ${(dots[1].x - dots[0].x).toFixed(0)} px from position 0, ticks ${tick.toFixed(0)} px apart`);
  // the largest spring: the first turn (positions 1 to 6) is numbered, not numbers scattered over it
  ({ dots, numbers } = await helixDrawn(200));
  assert.ok(numbers.length >= 3 && numbers.some((n) => n.p === 1), `numbered: ${numbers.map((n) => n.p)}`);
  assert.ok(numbers.every((n) => n.p <= 12), `numbered: ${numbers.map((n) => n.p)}`);
  for (const n of numbers) assert.equal(nearest(dots, n), n.p, `the number ${n.p} is nearest the dot of position ${n.p}`);
  await setControl('helix', 'length', 20);
});

test('frequency-curves: the y axis leaves room past ±1, so a curve at 1 is not on the border', async () => {
  const y = await page.evaluate(() => {
    const box = document.querySelector('[data-chart="frequency-curves"]');
    const c = Object.values(window.Chart.instances).find((ch) => box.contains(ch.canvas));
    return { min: c.scales.y.min, max: c.scales.y.max, top: c.chartArea.top, one: c.scales.y.getPixelForValue(1) };
  });
  assert.ok(y.max >= 1.1 && y.min <= -1.1, `y from ${y.min} to ${y.max}`);
  assert.ok(y.one - y.top >= 8, `y = 1 lies ${y.one - y.top} px below the plot's top`);
});

test('every chart of sections 8-15 mounts, draws coloured pixels and redraws in time', async (t) => {
  const info = await page.evaluate((kinds) => kinds.map((kind) => {
    const host = window.posencPage.charts.get(kind);
    if (!host) return { kind, mounted: false };
    const canvas = document.querySelector(`[data-chart="${kind}"] canvas`);
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    // Grid, ticks and text are grey; the data is drawn in saturated palette colours.
    let coloured = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, bl, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
      if (a > 128 && Math.max(r, g, bl) - Math.min(r, g, bl) > 60) coloured++;
    }
    // Median of three redraws after a warm-up one, so JIT tiering does not count.
    host.update();
    const times = [0, 1, 2].map(() => {
      const t0 = performance.now();
      host.update();
      return performance.now() - t0;
    }).sort((x, y) => x - y);
    const ms = times[1];
    return {
      kind, mounted: true, coloured, ms,
      label: canvas.getAttribute('aria-label'), role: canvas.getAttribute('role'),
      readout: host.view.readout, rows: host.data?.rows?.length, columns: host.data?.columns?.length,
    };
  }), Object.keys(KINDS_8_15));
  for (const c of info) {
    assert.ok(c.mounted, `${c.kind} is mounted`);
    assert.ok(c.coloured > 50, `${c.kind} drew its data (${c.coloured} coloured pixels)`);
    assert.equal(c.role, 'img', `${c.kind} canvas role`);
    assert.ok(c.label?.length > 10, `${c.kind} canvas has an aria-label`);
    assert.ok(c.readout?.length > 20, `${c.kind} has a readout`);
    assert.ok(c.rows > 0 && c.columns > 0, `${c.kind} returns { columns, rows }`);
    t.diagnostic(`${c.kind}: redraw ${c.ms.toFixed(1)} ms`);
  }
});

test('moving one control changes each chart\'s data', async () => {
  for (const [kind, [name, value]] of Object.entries(KINDS_8_15)) {
    const before = JSON.stringify(await page.evaluate((k) => window.posencPage.charts.get(k).data, kind));
    const { data } = await setControl(kind, name, value);
    assert.notEqual(JSON.stringify(data), before, `${kind}: moving ${name} to ${value} changed the data`);
  }
});

test('relative-rotation: R(k)·PE(pos) equals PE(pos + k)', async () => {
  for (const [pos, k] of [[2, 6], [500, 100], [1000, 1000]]) {
    await setControl('relative-rotation', 'pos', pos);
    const { data, readout } = await setControl('relative-rotation', 'k', k);
    assert.ok(data.measured.maxDiff <= 1e-6, `pos ${pos}, k ${k}: max difference ${data.measured.maxDiff}`);
    assert.match(readout, new RegExp(`PE\\(${pos + k}\\)`));
    // said so that a reader who skipped the exact values knows what float32 is
    if (data.measured.maxDiff) assert.match(readout, /rounding alone, because the values are stored as 32-bit floats \(float32\)/);
  }
});

test('rope-periods: T_max/4 is 157 for d = 4 and 14617 for d = 256', async () => {
  let { data, readout } = await setControl('rope-periods', 'preset', '256');
  assert.ok(Math.abs(data.measured.quarter - 14617) <= 1, `d = 256: T_max/4 = ${data.measured.quarter}`);
  assert.match(readout, /Tₘₐₓ\/4 = 14617/);
  ({ data } = await setControl('rope-periods', 'preset', '4'));
  assert.ok(Math.abs(data.measured.tmax - 628.3) < 0.1, `d = 4: T_max = ${data.measured.tmax}`);
  assert.ok(Math.abs(data.measured.quarter - 157.08) < 0.01, `d = 4: T_max/4 = ${data.measured.quarter}`);
});

test('rope-decay: θ_i = 0 gives g = d everywhere, θ_i = 1 gives d·cos Δ', async () => {
  await setControl('rope-decay', 'preset', '256');
  let { data } = await setControl('rope-decay', 'theta', 'θ_i = 0');
  assert.equal(data.columns[1], 'g(Δ)');
  assert.ok(data.rows.length > 1000);
  for (const [x, g] of data.rows) assert.ok(Math.abs(g - 256) < 1e-9, `g(${x}) = ${g}`);
  ({ data } = await setControl('rope-decay', 'theta', 'θ_i = 1'));
  for (const [x, g] of data.rows) assert.ok(Math.abs(g - 256 * Math.cos(x)) < 1e-6, `g(${x}) = ${g}`);
  // the linear axis samples the exact progression 0, Δ, 2Δ, … ≤ maxDist, Δ = ⌈maxDist/2000⌉
  // (the kernel's fast path), also where maxDist is no multiple of 2000
  ({ data } = await setControl('rope-decay', 'maxDist', 12345));
  assert.equal(data.rows.length, 1764);
  data.rows.forEach(([x], j) => assert.equal(x, 7 * j, `x_${j}`));
  await setControl('rope-decay', 'maxDist', 10000);
});

test('kv-cache: the cached decode step equals the full recomputation', async () => {
  for (const style of ['half', 'interleaved']) {
    const { data } = await setControl('kv-cache', 'style', style);
    assert.ok(data.measured.weights <= 1e-6, `${style}: weights differ by ${data.measured.weights}`);
    assert.ok(data.measured.output <= 1e-6, `${style}: outputs differ by ${data.measured.output}`);
    assert.equal(data.rows.length, 5);
  }
});

test('extrapolation: 18 of 64 pairs never turn within 4096 positions (d = 128)', async () => {
  const { data, readout } = await setControl('extrapolation', 'length', 4096);
  assert.equal(data.measured.neverTurn, 18);
  assert.match(readout, /18 of 64 pairs never complete a turn within L₀ = 4096/);
});

// ---- sections 16-24 ----

test('each chart of sections 16-24 (but 22, tested in real-model.test.js) mounts, paints, labels its canvases, and redraws on a control', async () => {
  const sections = await page.$$eval('main > section', (s) => s.map((x) => [x.id, x.querySelector('h2').textContent]).filter(([, h]) => /^\d+\./.test(h.trim())));
  const ids = sections.map(([id]) => id);
  assert.deepEqual(ids.slice(-9), ['scaling', 'beyond', 'dynamic-cache', 'precision', 'conventions', 'your-model', 'real-model', 'lab', 'other-encodings']);
  assert.match(sections[sections.length - 9][1], /^16\. RoPE scaling methods/);
  assert.match(sections[sections.length - 1][1], /^24\. The other encodings/);
  for (const kind of KINDS_16_20) {
    const state = await page.evaluate((kind) => {
      const host = window.posencPage.charts.get(kind);
      const canvases = [...document.querySelectorAll(`[data-chart="${kind}"] canvas`)].filter((c) => c.checkVisibility());
      const painted = canvases.map((c) => {
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) return true;
        return false;
      });
      return {
        mounted: !!host, rows: host?.data?.rows?.length ?? 0, readout: document.querySelector(`[data-chart="${kind}"] .readout`).textContent,
        canvases: canvases.length, painted, labelled: canvases.every((c) => c.getAttribute('role') === (c.hasAttribute('aria-roledescription') ? 'application' : 'img') && c.getAttribute('aria-label')),
      };
    }, kind);
    assert.ok(state.mounted, `${kind} mounted`);
    assert.ok(state.rows > 0, `${kind} drew data`);
    assert.ok(state.readout.length > 40, `${kind} readout`);
    assert.ok(state.canvases > 0 && state.painted.every(Boolean), `${kind}: every canvas painted (${state.painted})`);
    // (a canvas read cell by cell from the keyboard, as the precision heatmap's, is an application)
    assert.ok(state.labelled, `${kind}: canvases have role img (or application, if they take keys) and aria-label`);
    const before = JSON.stringify(await data(kind));
    await setControl(kind, ...CHANGE_16_20[kind]);
    assert.notEqual(JSON.stringify(await data(kind)), before, `${kind}: changing ${CHANGE_16_20[kind][0]} changed the data`);
  }
});

test('config.json: Llama 3.1 gives attention factor 1 and a slowest wavelength ×8; broken text shows a message', async () => {
  const label = await page.$eval('[data-chart="scaling-variants"] textarea', (t) => t.labels[0]?.textContent ?? '');
  assert.match(label, /config\.json/);
  const ok = await setConfig(JSON.stringify(LLAMA31, null, 2));
  assert.equal(ok.error, false, ok.text);
  const cfg = (await data('scaling-variants')).measured.config;
  assert.equal(cfg.type, 'llama3');
  assert.equal(cfg.rotaryDim, 128);
  assert.equal(cfg.attentionFactor, 1);
  assert.ok(Math.abs(cfg.slowestStretch - 8) < 1e-9, `slowest pair stretched ×${cfg.slowestStretch}`);
  assert.match(ok.text, /attention factor 1;/);
  // a wavelength's from and to in one number form, though only the second reaches 10⁷
  assert.match(ok.text, /the slowest pair's wavelength goes from 2\.559e6 to 2\.047e7 \(×8\)/);
  assert.equal(ok.menu, 'Llama 3.1 8B (llama3)', 'the preset\'s own text: the menu names it');
  // a wavelength the config leaves alone stays, rather than going from 6.283 to 6.283
  assert.match(ok.text, /the fastest stays 6\.283\./);
  assert.doesNotMatch(ok.text, /softmax scale/);
  const linear = await setConfig(JSON.stringify({ rope_theta: 10000, rope_scaling: { factor: 8, type: 'linear' } }));
  assert.match(linear.text, /the fastest from 6\.283 to 50\.27\./);
  assert.equal(linear.menu, 'your own text (edited or pasted)', 'a text no preset holds: the menu names none');
  // DeepSeek-V3's YaRN keeps cos and sin at 1 and scales the softmax: a porter needs both
  const deepseek = await setConfig(JSON.stringify(MODELS.find((m) => m.id === 'deepseek-v3').config));
  assert.match(deepseek.text, /attention factor 1; softmax scale ×1\.8739 \(on the usual 1\/√d\);/);
  // a config's own training length: said, and drawn where it is not the control's; LongRoPE says which factors it took
  const labels = () => page.evaluate(() => {
    const el = document.querySelector('[data-chart="scaling-variants"]');
    return Object.values(window.Chart.instances).find((c) => el.contains(c.canvas)).data.datasets.map((d) => d.label);
  });
  const phi = await setConfig(JSON.stringify(MODELS.find((m) => m.id === 'phi-3.5-mini').config));
  assert.match(phi.text, /read as longrope, rotary dim 96, L₀ 4096, its long factors \(the current length 65536 is past L₀\)/);
  assert.ok((await labels()).includes('L₀ = 4096: your config’s training length'), (await labels()).join(' | '));
  await setConfig(JSON.stringify(LLAMA31, null, 2));
  assert.ok(!(await labels()).some((l) => /your config’s training length/.test(l)), 'Llama 3.1 8B: L₀ 8192, the control\'s');

  const broken = await setConfig('{"rope_scaling": {"rope_type": "llama3", "factor": 8');
  assert.ok(broken.error && broken.visible, 'a visible error message');
  assert.match(broken.text, /JSON/);
  assert.ok((await data('scaling-variants')).measured.config.error);
  const unknown = await setConfig('{"rope_scaling": {"rope_type": "superrope", "factor": 2}}');
  assert.ok(unknown.error);
  assert.match(unknown.text, /RangeError: .*superrope/);
  const invalid = await setConfig(JSON.stringify({ ...LLAMA31, rope_scaling: { ...LLAMA31.rope_scaling, low_freq_factor: 4, high_freq_factor: 1 } }));
  assert.match(invalid.text, /rope_scaling\.high_freq_factor \(1\) must be at least rope_scaling\.low_freq_factor \(4\)/);
  // and back: the message clears
  assert.equal((await setConfig(JSON.stringify(LLAMA31))).error, false);
  assert.deepEqual(problems.pageErrors, []);
});

test('model-positions says what each note on reading the config means, in both languages', async () => {
  const { readout } = await setControl('model-positions', 'model', 'llama-4-scout');
  // English: the API's own messages, so a porter reads what pe.ropeConfig and the CLI print
  assert.match(readout, / Notes on reading the config: text_config\.rope_scaling\.low_freq_factor and high_freq_factor are both 1: no smooth band, a step instead; pairs with wavelength below 8192 .* divided by 16, .*; not in the config, taken from transformers' Llama4TextConfig defaults, as loading the file there would: text_config\.no_rope_layer_interval 4, .*text_config\.attn_scale 0\.1\.$/);
  assert.doesNotMatch(readout, /class-defaults|llama3-step/);
  const zh = await touchPage('zh', { width: 360, height: 740 });
  const { readout: text } = await setControl('model-positions', 'model', 'llama-4-scout', zh);
  assert.match(text, /读取配置时的说明：low_freq_factor 与 high_freq_factor 都是 1，中间没有平滑过渡段，只有一个台阶：波长短于 8192（original_max_position_embeddings \/ low_freq_factor）的维度对保留原来的 θᵢ，其余的 θᵢ 除以 16，/);
  assert.match(text, /；配置文件里没有写的值，按 transformers 中 Llama4TextConfig 的默认值补上（在 transformers 里加载这个文件也是如此）：text_config\.no_rope_layer_interval 4, .*text_config\.attn_scale 0\.1。$/);
  assert.doesNotMatch(text, /class-defaults|llama3-step|taken from/);
});

test('precision lab: float16 at 1857 (d 32) is off by more than 0.1, float64 at 10^6 by less than 1e-6', async () => {
  await setControl('precision-lab', 'base', '10000');
  await setControl('precision-lab', 'dim', '32');
  const d = await data('precision-lab');
  assert.ok(d.measured.cases['f16@1857'] > 0.1, `f16 at 1857: ${d.measured.cases['f16@1857']}`);
  assert.ok(d.measured.cases['bf16@15962'] > 0.1);
  assert.ok(d.measured.cases['early@4095'] > 0.1);
  assert.ok(d.measured.f64At1e6 < 1e-6, `f64 at 1e6: ${d.measured.f64At1e6}`);
  const col = (name) => d.columns.indexOf(name);
  const row1857 = d.rows.find((r) => r[0] === 1857), rowMax = d.rows[d.rows.length - 1];
  assert.ok(row1857[col('error f16')] > 0.1);
  assert.equal(rowMax[0], 1e6);
  assert.ok(rowMax[col('error f64')] < 1e-6);
  assert.equal(rowMax[col('error f16')], null, 'no float16 value past 65504');
  assert.ok(d.measured.f16Last <= 65504 && d.measured.f16Last > 60000);
  const caption = () => page.$eval('[data-chart="precision-lab"] figcaption', (e) => e.textContent);
  assert.match(await caption(), /^Error of a RoPE cos\/sin table/);
  await setControl('precision-lab', 'measure', 'score q·k/√d, k one position back');
  assert.match(await caption(), /^Error of the score q·k\/√d/, 'the title follows the measure shown');
  const s = await data('precision-lab');
  // in a score a frequency error shared by q and k costs one position's worth; rounded positions do not cancel
  assert.ok(s.measured.worstF16Past2048 > 0.1 && s.measured.cases['early@4095'] < 1e-3 && s.measured.f64At1e6 < 1e-3, JSON.stringify(s.measured));
});

test('section 19: the curves climb towards 2; the heatmap names the pair that goes wrong first, then the rough rule, and pair 0 only once the position rounds', async () => {
  const { data: d } = await setControl('precision-lab', 'measure', 'cos/sin table'); // d = 32, base 10000, from the test above
  const colMax = (name) => Math.max(...d.rows.map((r) => r[d.columns.indexOf(name)] ?? 0));
  assert.ok(colMax('error bf16') > 1.9 && colMax('error f16') > 1.9, 'both 16-bit curves come near 2');
  // the notice prints the worst bfloat16 error to 4 digits, so 1.998 does not read as an exact 2
  const notice = await page.$eval('[data-chart="precision-lab"] .readout', (e) => e.textContent);
  assert.match(notice, new RegExp(`bfloat16 is off by up to ${colMax('error bf16').toPrecision(4)} `));
  const h = (await setControl('precision-heatmap', 'type', 'bfloat16')).data.measured;
  const half = 32; // d = 64
  assert.ok(h.firstPair >= 1 && h.firstPair < half / 4 && h.firstAt < 100, `a fast pair goes wrong first: ${JSON.stringify(h)}`);
  assert.ok(h.pair0At > 256 && h.pair0At < 300, `pair 0 only past 256: ${h.pair0At}`);
  assert.ok(h.badLast >= half - 2, `nearly every pair at 10^6: ${h.badLast}`);
  const hn = await page.$eval('[data-chart="precision-heatmap"] .readout', (e) => e.textContent);
  // the first sentence names the pair that goes wrong first (the prose: "not the fastest one"), then the rough rule
  assert.match(hn, new RegExp(`^Pair ${h.firstPair} is the first off by more than 0\\.01, at position ${h.firstAt}\\. Across the map, faster pairs go wrong earlier .* of the ${half} pairs \\(d = 64\\)`));
  // pairs 1 .. firstPair − 1 are faster yet go wrong later: the notice must say the order is rough
  if (h.firstPair > 1) assert.match(hn, /The order is only rough: pairs? 1 /);
  // bfloat16 holds every whole number up to 256; pair 0 goes wrong at the first sampled position it cannot hold
  assert.ok(h.pair0At % 2 === 1 || h.pair0At > 512, `bfloat16 cannot hold ${h.pair0At}`);
  assert.match(hn, new RegExp(`Pair 0, .* goes wrong only where the position itself is rounded: bfloat16 holds every whole number only up to 256, and ${h.pair0At} is the first position`));
  await setControl('precision-heatmap', 'type', 'float32');
  const f32 = (await data('precision-heatmap')).measured;
  assert.equal(f32.pair0At, null, 'float32 holds every position to 10^6, so pair 0 stays right');
  await setControl('precision-heatmap', 'type', 'bfloat16');
});

test('section 19: float16 holds θ_i to 0.05 % only down to 2^-14; the prose and the chart\'s note give where that fails and by how much', async () => {
  const pe = await loadPosenc({ simd: false });
  // θ_i as the emulation rounds it (position 1 exact, angle and output in float64): the angle of pair i
  const rounded = (base, d, type) => {
    const r = pe.ropeCache([1], d, { base, precision: { position: 'f64', invFreq: type, angle: 'f64', output: 'f64' } });
    return Array.from({ length: d / 2 }, (_, i) => {
      const want = base ** (-2 * i / d);
      return { i, want, err: Math.abs(Math.atan2(r.sin[i], r.cos[i]) - want) / want };
    });
  };
  const worst = (rows) => rows.reduce((a, b) => (b.err > a.err ? b : a));
  // the chart's defaults (d = 32, base 10000): every θ_i is at least 2^-14 and within 2^-11 ≈ 0.05 %
  assert.ok(rounded(10000, 32, 'f16').every((r) => r.want >= 2 ** -14 && r.err <= 2 ** -11));
  const at5e5 = rounded(500000, 128, 'f16'), w = worst(at5e5), w7 = worst(rounded(1e7, 128, 'f16'));
  const below = at5e5.filter((r) => r.want < 2 ** -14).map((r) => r.i);
  assert.deepEqual([below[0], below.at(-1), below.length], [48, 63, 16]);
  for (const base of [500000, 1e7]) assert.ok(worst(rounded(base, 128, 'bf16')).err <= 2 ** -8, 'bfloat16 keeps its 0.4 %');
  const pct = (x, digits) => (100 * x).toPrecision(digits);
  const hasPct = (text, x) => text.includes(`${pct(x, 2)}%`) || text.includes(`${pct(x, 2)} %`);
  assert.equal(w.i, 62, 'the worst pair at base 500000');
  // the prose gives the pairs and the worst error at base 500000; the chart's note adds the pair and base 10^7
  const { tables } = (await import('../web/charts/precision-lab.js')).default.messages;
  for (const [lang, note] of [['en', tables.en.how], ['zh-CN', tables.zh.how]]) {
    const prose = await page.$eval(`#precision p[lang="${lang}"]:not(.skip)`, (e) => e.textContent.replace(/\s+/g, ' '));
    assert.ok(hasPct(prose, w.err), `${lang} prose: ${pct(w.err, 2)} %`);
    assert.match(prose, /48\D+63/);
    assert.ok(hasPct(note, w.err), `${lang} note: ${pct(w.err, 2)} %`);
    assert.match(note, new RegExp(`48\\D+63\\D+${pct(w.err, 2)} ?%\\D+62\\D`), `${lang} note: pairs 48 to 63, up to ${pct(w.err, 2)} % at pair 62`);
    assert.ok(hasPct(note, w7.err), `${lang} note: ${pct(w7.err, 2)} % at base 10^7`);
  }
});

test('convention lab: scores match after permuting the rows; the wrong pairing moves the attention', async () => {
  for (const input of ['previous-token head', 'random q, k']) {
    await setControl('convention-lab', 'input', input);
    const d = await data('convention-lab');
    assert.ok(d.measured.permutedScoreDiff < 1e-5, `${input}: ${d.measured.permutedScoreDiff}`);
    const [i, h] = [d.columns.indexOf('score interleaved'), d.columns.indexOf('score half permuted')];
    assert.ok(d.rows.every((r) => Math.abs(r[i] - r[h]) < 1e-5));
    assert.ok(d.measured.wrongWeightDiff > 0.05, `${input}: the wrong pairing changes the weights`);
  }
  await setControl('convention-lab', 'input', 'previous-token head');
  const p = (await data('convention-lab')).measured;
  assert.ok(p.previousToken[0] > 0.5 && p.previousToken[2] < p.previousToken[0] / 2, JSON.stringify(p));
  // the sinusoidal layouts: interleaved and concat agree, tensor2tensor does not
  const s = (await data('sinusoidal-layouts')).measured;
  assert.ok(s.interleavedVsConcat < 1e-9 && s.interleavedVsT2t > 0.1, JSON.stringify(s));
  const layouts = await page.$eval('[data-chart="sinusoidal-layouts"] .readout', (e) => e.textContent);
  assert.match(layouts, s.interleavedVsConcat === 0 ? /give exactly the same dot products/ : /differ only by rounding, at most/);
  // the numbers the prose quotes, in both languages, are the chart's at its defaults (16 tokens, d = 32, seed 0)
  const pct = (x) => (100 * x).toPrecision(3);
  for (const lang of ['en', 'zh-CN']) {
    const prose = await page.$eval(`#conventions p[lang="${lang}"]:not(.skip)`, (e) => e.textContent);
    assert.ok(prose.includes(pct(p.previousToken[0])) && pct(p.previousToken[0]) === pct(p.previousToken[1]), `${lang}: ${pct(p.previousToken[0])}`);
    assert.ok(prose.includes(pct(p.previousToken[2])), `${lang}: ${pct(p.previousToken[2])}`);
  }
});

test('scaling-decay: the range within L0 is taken at every whole distance and the shares past it on an even grid, not at the points drawn', async () => {
  const drawn = await data('scaling-decay');
  const counted = drawn.measured.outside;
  assert.equal(counted.insideEvery, 1);
  assert.equal(counted.pastEvery, 3); // 4096 of the 12287 distances past L0
  // the drawn grid (every 17th distance at L0 = 4096) misses g's deepest dips within L0
  const lowestDrawn = Math.min(...drawn.rows.filter((r) => r[0] <= 4096).map((r) => r[1]));
  assert.ok(counted.ones.lo < lowestDrawn - 1, `range from ${counted.ones.lo}, lowest drawn ${lowestDrawn}`);
  assert.match((await setControl('scaling-decay', 'scale', 'log')).readout, /Counting every whole distance up to L₀ and one in 3 past it: past L₀/);
  assert.deepEqual((await data('scaling-decay')).measured.outside, counted, 'the same counts on the log axis');
  await setControl('scaling-decay', 'scale', 'linear');
});

test('the label of a shaded region stays inside the plot at any width and on either axis', async () => {
  await setControl('scaling-decay', 'variant', 'NTK-aware');
  await setControl('scaling-decay', 'factor', 8);
  for (const scale of ['log', 'linear']) {
    await setControl('scaling-decay', 'scale', scale);
    for (const width of [360, 720, 1200]) {
      const drawn = await textDrawn('scaling-decay', async (box, width) => {
        box.style.width = `${width}px`;
        for (const c of Object.values(window.Chart.instances)) if (box.contains(c.canvas)) c.resize();
      }, width);
      const areas = await page.evaluate(() => {
        const box = document.querySelector('[data-chart="scaling-decay"]');
        return Object.values(window.Chart.instances).filter((c) => box.contains(c.canvas)).map((c) => c.chartArea);
      });
      const labels = drawn.filter((t) => t.text.startsWith('beyond L₀'));
      assert.ok(labels.length >= 2, `${scale}, ${width} px: both charts label the shade`);
      for (const l of labels) {
        assert.ok(areas.some((a) => l.left >= a.left && l.right <= a.right + 0.5), `${scale}, ${width} px: "${l.text}" from ${l.left.toFixed(1)} to ${l.right.toFixed(1)}, plots ${JSON.stringify(areas.map((a) => [a.left, a.right]))}`);
      }
    }
  }
  await page.$eval('[data-chart="scaling-decay"]', (b) => (b.style.width = ''));
  for (const [name, value] of [['scale', 'linear'], ['factor', 4], ['variant', 'YaRN']]) await setControl('scaling-decay', name, value);
});

test('dynamic NTK: the cache agrees up to max_position_embeddings and drifts after it', async () => {
  const d = await data('dynamic-kv-cache');
  assert.equal(d.measured.exactUpToMax, true);
  assert.ok(d.measured.lastScoreDiff > 0.1);
  const note = () => page.$eval('[data-chart="dynamic-kv-cache"] .chart-note', (n) => n.textContent);
  assert.ok((await note()).includes(`only the newest, key ${d.rows.at(-1)[0] - 1}, shares the query's base`), await note());
  await setControl('dynamic-kv-cache', 'length', '20'); // shorter than max_position_embeddings = 32
  const e = await data('dynamic-kv-cache');
  assert.equal(e.measured.lastScoreDiff, 0);
  assert.match(await note(), /Every key was cached with the original base/);
  // the same settings draw the same numbers whatever was drawn before: shorter, longer and back,
  // another seed and back
  const T0 = String(d.rows.at(-1)[0]);
  await setControl('dynamic-kv-cache', 'length', '300');
  await setControl('dynamic-kv-cache', 'length', T0);
  assert.deepEqual((await data('dynamic-kv-cache')).rows, d.rows);
  await setControl('dynamic-kv-cache', 'seed', '5');
  assert.notDeepEqual((await data('dynamic-kv-cache')).rows, d.rows);
  await setControl('dynamic-kv-cache', 'seed', '0');
  assert.deepEqual((await data('dynamic-kv-cache')).rows, d.rows);
});

// ---- the page on a phone, and the API in the browser ----

test('lab-order trains in slices: the redraw shows the axes and says so, the page redraws other charts meanwhile, then the result', async () => {
  const r = await page.evaluate(async () => {
    const box = document.querySelector('[data-chart="lab-order"]'), host = window.posencPage.charts.get('lab-order');
    const drawn = () => new Promise((resolve) => box.addEventListener('posenc:drawn', resolve, { once: true }));
    const select = box.querySelector('.controls [name="steps"]');
    let next = drawn();
    const t0 = performance.now();
    select.value = '100';
    select.dispatchEvent(new Event('input', { bubbles: true }));
    await next;
    const training = { ms: performance.now() - t0, readout: box.querySelector('.readout').textContent, rows: host.data.rows.length };
    // another chart redraws while the model trains
    const other = document.querySelector('[data-chart="rope-periods"]');
    const otherDrawn = new Promise((resolve) => other.addEventListener('posenc:drawn', resolve, { once: true }));
    const input = [...other.querySelectorAll('.controls input')].at(-1);
    input.value = String(Number(input.value) + 2);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    next = drawn();
    const otherFirst = await Promise.race([otherDrawn.then(() => true), next.then(() => false)]);
    await next;
    return { training, otherFirst, readout: box.querySelector('.readout').textContent, rows: host.data.rows.length };
  });
  assert.match(r.training.readout, /training 100 steps/);
  assert.equal(r.training.rows, 0);
  assert.ok(r.otherFirst, 'another chart redrew before the training ended');
  assert.match(r.readout, /100 training steps, seed 1: token ids/);
  assert.equal(r.rows, 3 * 24);
});

test('reads on a phone: nothing wider than 360 px, no section scrolls sideways, charts first and their settings folded, nothing logged', async () => {
  const phone = await b.open('', { viewport: { width: 360, height: 740 } });
  await pageReady(phone.page);
  const { wide, sections } = await phone.page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    return {
      wide: [...document.querySelectorAll('main *')]
        .filter((e) => e.getBoundingClientRect().right > w + 1 && !e.closest('.table-scroll'))
        .map((e) => `${e.closest('[data-chart]')?.dataset.chart ?? e.closest('section')?.id}: <${e.tagName.toLowerCase()} class="${e.className}">`)
        .slice(0, 10),
      sections: [...document.querySelectorAll('main > section')].filter((s) => s.scrollWidth > s.clientWidth + 1).map((s) => s.id),
    };
  });
  assert.deepEqual(wide, []);
  assert.deepEqual(sections, [], 'sections wider than the phone');

  // Charts first: scrolled to, every chart's plot starts within the first screen, its main
  // control right under it (above the readout) and the rest folded behind Settings, which
  // remembers being opened.
  const late = await phone.page.evaluate(() => {
    const out = [];
    for (const [kind, host] of window.posencPage.charts) {
      const box = document.querySelector(`.chart[data-kind="${kind}"]`);
      box.scrollIntoView({ block: 'start' });
      const body = box.querySelector('.chart-body').getBoundingClientRect();
      const form = box.querySelector('.controls:not(.phone-main)');
      const shown = host.controls.filter((c) => c.wrap.getClientRects().length).map((c) => c.param.name);
      const main = host.controls.find((c) => c.wrap.classList.contains('main'))?.param.name;
      const toggle = form.querySelector('.settings-toggle');
      const problems = [];
      if (body.top > innerHeight - 200) problems.push(`plot starts at ${Math.round(body.top)} px`);
      if (box.querySelector('.chart-body').nextElementSibling !== form) problems.push('controls not right under the chart');
      if (host.controls.length && (shown.length !== 1 || shown[0] !== main)) problems.push(`controls shown: ${shown}`);
      if (host.controls.length > 1 && !toggle?.getClientRects().length) problems.push('no Settings toggle');
      if (problems.length) out.push(`${kind}: ${problems.join('; ')}`);
    }
    return out;
  });
  assert.deepEqual(late, []);
  const lengthLab = async () => phone.page.evaluate(() => {
    const box = document.querySelector('.chart[data-kind="length-lab"]');
    box.scrollIntoView({ block: 'start' });
    const toggle = box.querySelector('.settings-toggle');
    return {
      expanded: toggle.getAttribute('aria-expanded'),
      // (its main control sits under the accuracy plot, in a box of its own)
      shown: [...box.querySelectorAll('.controls .control')].filter((c) => c.getClientRects().length).length,
      all: box.querySelectorAll('.controls .control').length,
      plotTop: Math.round(box.querySelector('.chart-body canvas').getBoundingClientRect().top),
      main: box.querySelector('.control.main input, .control.main select')?.name,
    };
  });
  const shut = await lengthLab();
  assert.equal(shut.expanded, 'false');
  assert.equal(shut.shown, 1);
  assert.ok(shut.plotTop < 200, `length-lab's plot starts ${shut.plotTop} px below the top of the chart`);
  await phone.page.locator('.chart[data-kind="length-lab"] .settings-toggle').click();
  const open = await lengthLab();
  assert.equal(open.expanded, 'true');
  assert.ok(open.all >= 7);
  assert.equal(open.shown, open.all);
  // remembered for this page: a reload opens it again, and only this chart's
  await phone.page.reload();
  await pageReady(phone.page);
  assert.equal((await lengthLab()).expanded, 'true');
  assert.equal(await phone.page.locator('.chart[data-kind="rope-decay"] .settings-toggle').getAttribute('aria-expanded'), 'false');
  // wider than a phone, the controls are above the chart again, all of them, no toggle
  await phone.page.setViewportSize({ width: 900, height: 740 });
  // the media query's change is reported at the next frame
  await phone.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const wideLayout = await phone.page.evaluate(() => {
    const box = document.querySelector('.chart[data-kind="length-lab"]');
    const form = box.querySelector('.controls:not(.phone-main)');
    return {
      before: !!(form.compareDocumentPosition(box.querySelector('figure')) & Node.DOCUMENT_POSITION_FOLLOWING),
      shown: [...form.querySelectorAll('.control')].filter((c) => c.getClientRects().length).length,
      toggle: form.querySelector('.settings-toggle').getClientRects().length,
    };
  });
  assert.deepEqual(wideLayout, { before: true, shown: open.all, toggle: 0 });
  assert.deepEqual(phone.problems, { console: [], failed: [], external: [], pageErrors: [] });
  await phone.context.close();
});

test('on a phone, a link that sets a folded control opens Settings; a slider may span less than its number box', async () => {
  // a URL that sets rope-decay's d (folded) opens its Settings; one that sets only the main control does not
  const at = await b.open('?rope-decay.preset=4&unit-circle.position=1000#decay', { viewport: { width: 360, height: 740 } });
  await pageReady(at.page);
  const state = () => at.page.evaluate(() => Object.fromEntries(['rope-decay', 'rope-decay-random', 'unit-circle'].map((k) => {
    const box = document.querySelector(`.chart[data-kind="${k}"]`);
    const shown = [...box.querySelectorAll('.controls:not(.phone-main) .control')].filter((c) => c.getClientRects().length).length;
    return [k, { expanded: box.querySelector('.settings-toggle').getAttribute('aria-expanded'), shown }];
  })));
  let r = await state();
  assert.equal(r['rope-decay'].expanded, 'true');
  assert.ok(r['rope-decay'].shown > 1, 'rope-decay: the control the link set is shown');
  assert.equal(r['unit-circle'].expanded, 'false', 'unit-circle: the link set only its main control');
  // unit-circle's slider steps through the first positions; the box and the link still reach 1000
  const circle = await at.page.evaluate(() => {
    const [range, box] = document.querySelectorAll('.chart[data-kind="unit-circle"] .control.main input');
    return { rangeMax: range.max, boxMax: box.max, box: box.value, position: window.posencPage.charts.get('unit-circle').params().position };
  });
  assert.deepEqual(circle, { rangeMax: '64', boxMax: '1000', box: '1000', position: 1000 });
  // an exercise's link opens the fold of the chart it sets, without remembering it
  await at.page.evaluate(() => document.querySelector('a.scene-link[href*="relative-rotation.pos"]').click());
  await at.page.waitForFunction(() => document.querySelector('.chart[data-kind="relative-rotation"] .settings-toggle').getAttribute('aria-expanded') === 'true');
  assert.equal(await at.page.evaluate(() => localStorage.getItem(`posenc-settings:${location.pathname}`)), null);
  assert.deepEqual(at.problems, { console: [], failed: [], external: [], pageErrors: [] });
  await at.context.close();
});

test('the API in Chromium gives exactly what it gives in Node, both builds', async () => {
  // a blank page of the server's origin: only posenc.js is needed, not the page's 28 charts
  const context = await b.browser.newContext();
  const page = await context.newPage();
  await page.route(`${b.url}blank.html`, (r) => r.fulfill({ body: '<!doctype html><title>API</title>', contentType: 'text/html' }));
  await page.goto(`${b.url}blank.html`);
  const inBrowser = await page.evaluate(async () => {
    const { loadPosenc } = await import('./lib/posenc.js');
    const out = {};
    for (const simd of [true, false]) {
      const pe = await loadPosenc({ simd });
      out[simd] = {
        simd: pe.simd,
        table: Array.from(pe.sinusoidal(3, 8, { start: 999_999 })),
        rope: Array.from(pe.applyRope([1, 2, 3, 4], { heads: 1, headDim: 4, positions: [123456], style: 'half' })),
        decay: Array.from(pe.ropeDecay([0, 10, 1000], { dim: 256, kind: 'bound' })),
        normal: Array.from(pe.randomNormal(5, 7)),
      };
    }
    return out;
  });
  for (const simd of [true, false]) {
    const pe = await loadPosenc({ simd });
    assert.deepEqual(inBrowser[simd], {
      simd,
      table: Array.from(pe.sinusoidal(3, 8, { start: 999_999 })),
      rope: Array.from(pe.applyRope([1, 2, 3, 4], { heads: 1, headDim: 4, positions: [123456], style: 'half' })),
      decay: Array.from(pe.ropeDecay([0, 10, 1000], { dim: 256, kind: 'bound' })),
      normal: Array.from(pe.randomNormal(5, 7)),
    });
  }
  await context.close();
});

test('no console message, failed or external request on the shared page', () => {
  // (Chromium's hint on reading one canvas's pixels many times is about these tests' own reads)
  const console = problems.console.filter((m) => !/Multiple readback operations using getImageData/.test(m));
  assert.deepEqual({ ...problems, console }, { console: [], failed: [], external: [], pageErrors: [] });
});
