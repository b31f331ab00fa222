// page-a.test.js: sections 1–7 of the page in real Chromium: every chart mounted and drew,
// one control of each changes the data behind it, the seed's numbers are on the page, and the
// order experiment's claims hold in the numbers it drew.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageReady } from './browser.js';

const KINDS = ['order', 'binary', 'single-frequency', 'three-frequencies', 'wavelengths', 'sin-heatmap',
  'exact-table', 'frequency-curves', 'unit-circle', 'helix'];
const CANVAS_KINDS = KINDS.filter((k) => k !== 'order' && k !== 'exact-table');

let browser, page, problems;

before(async () => {
  browser = await startBrowser();
  ({ page, problems } = await browser.open());
  await pageReady(page);
});
after(() => browser?.close());

/** Sets control `name` of chart `kind` and resolves with { changed, data } once it redrew. */
function setControl(kind, name, value) {
  return page.evaluate(async ({ kind, name, value }) => {
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

test('every chart of sections 1-7 mounted, with its data and a readout', async () => {
  const info = await page.evaluate((kinds) => kinds.map((k) => {
    const host = window.posencPage.charts.get(k);
    const box = document.querySelector(`[data-chart="${k}"]`);
    return { k, mounted: !!host, rows: host?.data?.rows?.length ?? 0, readout: box.querySelector('.readout')?.textContent ?? '' };
  }), KINDS);
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
        return { ink, area: c.width * c.height, role: c.getAttribute('role'), label: c.getAttribute('aria-label') ?? '' };
      }),
    };
  }), CANVAS_KINDS);
  for (const { k, canvases } of res) {
    assert.ok(canvases.length > 0, `${k} has a visible canvas`);
    for (const c of canvases) {
      assert.ok(c.ink > c.area * 0.005, `${k}: ${c.ink} inked pixels of ${c.area}`);
      assert.equal(c.role, 'img', `${k} canvas role`);
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
  assert.match(hover, /^\(pos \d+, dim \d+\) = -?\d\.\d{6}/);
  await canvas.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowUp');
  assert.match(await page.locator('[data-chart="sin-heatmap"] .heatmap-hover').textContent(), /, dim 0\) = /);
});

test('the exact table shows the seed values in float64', async () => {
  const text = await page.locator('[data-chart="exact-table"] table').textContent();
  for (const v of ['0.84147098', '0.54030231', '0.00999983', '0.99995']) assert.ok(text.includes(v), v);
  const row0 = await page.locator('[data-chart="exact-table"] tbody tr').first().locator('td').allTextContents();
  assert.deepEqual(row0.map((t) => t.trim()), ['0', '1', '0', '1']);
});

test('section 3 numbers match seed 002', async () => {
  const three = await page.evaluate(() => window.posencPage.charts.get('three-frequencies').data.rows);
  assert.deepEqual(three.map((r) => r[2].toFixed(3)), ['0.909', '0.199', '0.020']);
  assert.deepEqual(three.map((r) => r[3].toFixed(3)), ['0.989', '0.717', '0.080']);
  const one = await page.evaluate(() => window.posencPage.charts.get('single-frequency').data.rows);
  assert.equal(one[2][1].toFixed(3), '0.909');
  assert.equal(one[8][1].toFixed(3), '0.989');
});

test('order: the readout claims hold in the numbers drawn', async () => {
  // rows: [tokens, position, token, ...10 outputs]; the same token compared across the two orders.
  const gaps = (rows) => Object.fromEntries([1, 2, 3].map((t) => {
    const [a, b] = [rows.find((r) => r[0] === '1 2 3' && r[2] === t), rows.find((r) => r[0] === '2 1 3' && r[2] === t)];
    return [t, Math.max(...a.slice(3).map((v, i) => Math.abs(v - b[3 + i])))];
  }));
  const none = gaps(await page.evaluate(() => window.posencPage.charts.get('order').data.rows));
  assert.deepEqual(none, { 1: 0, 2: 0, 3: 0 }, 'no encoding: token 3 identical, tokens 1 and 2 just swapped');
  let r = await setControl('order', 'causal', true);
  let g = gaps(r.data.rows);
  assert.equal(g[3], 0, 'causal: token 3 still identical');
  assert.ok(g[1] > 0.1 && g[2] > 0.1, 'causal: tokens 1 and 2 no longer a swap');
  assert.match(r.readout, /Token 3's output: max \|difference\| = 0 \(identical\)/);
  await setControl('order', 'causal', false);
  for (const encoding of ['sinusoidal', 'rope']) {
    r = await setControl('order', 'encoding', encoding);
    g = gaps(r.data.rows);
    assert.ok(g[3] > 0.01, `${encoding}: token 3 changed (${g[3]})`);
    assert.match(r.readout, /Token 3's output: max \|difference\| = [\d.]+ \(changed\)/);
  }
  r = await setControl('order', 'encoding', 'none');
  assert.match(r.readout, /= 0 \(identical\).*: 0 \(just swapped\).*: 0 \(just swapped\)/);
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

test('no errors from these charts and nothing requested off this machine', () => {
  const mine = (s) => KINDS.some((k) => s.includes(`/charts/${k}.js`) || s.includes(`chart ${k}:`));
  assert.deepEqual(problems.pageErrors, []);
  assert.deepEqual(problems.external, []);
  assert.deepEqual(problems.console.filter((m) => mine(m) || !/chart [\w-]+:/.test(m)), []);
  assert.deepEqual(problems.failed.filter(mine), []);
});
