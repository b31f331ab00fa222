// Sections 16-20 in Chromium: each chart mounts, draws, and redraws when a control changes;
// the config.json box reads a real config and reports a broken one without a page error; the
// precision lab shows the reported cases; the convention lab's permuted scores match.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageReady } from './browser.js';

const KINDS = ['scaling-variants', 'scaling-decay', 'dynamic-kv-cache', 'precision-lab', 'precision-heatmap', 'convention-lab', 'sinusoidal-layouts'];
// One control per chart to change, and its new value.
const CHANGE = {
  'scaling-variants': ['factor', '4'],
  'scaling-decay': ['variant', 'linear (PI)'],
  'dynamic-kv-cache': ['length', '100'],
  'precision-lab': ['base', '500000'],
  'precision-heatmap': ['type', 'float16'],
  'convention-lab': ['input', 'random q, k'],
  'sinusoidal-layouts': ['dim', '32'],
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

/** Sets a control of `kind` (the number box of a slider), fires 'input', waits for the redraw. */
function setControl(kind, name, value) {
  return page.evaluate(async ({ kind, name, value }) => {
    const el = document.querySelector(`[data-chart="${kind}"]`);
    const inputs = el.querySelectorAll(`.controls [name="${name}"]`);
    const input = inputs[inputs.length - 1];
    const drawn = new Promise((r) => el.addEventListener('posenc:drawn', r, { once: true }));
    input.value = value;
    input.dispatchEvent(new Event('input'));
    await drawn;
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
    return { text: msg.textContent, error: msg.classList.contains('error'), visible: msg.getBoundingClientRect().height > 0 && getComputedStyle(msg).visibility === 'visible' };
  }, text);
}

const data = (kind) => page.evaluate((kind) => JSON.parse(JSON.stringify(window.posencPage.charts.get(kind).data)), kind);

test('each chart of sections 16-20 mounts, paints, labels its canvases, and redraws on a control', async () => {
  const sections = await page.$$eval('main > section', (s) => s.map((x) => [x.id, x.querySelector('h2').textContent]));
  const ids = sections.map(([id]) => id);
  assert.deepEqual(ids.slice(-5), ['scaling', 'beyond', 'dynamic-cache', 'precision', 'conventions']);
  assert.match(sections[sections.length - 5][1], /^16\. Scaling variants/);
  assert.match(sections[sections.length - 1][1], /^20\. Convention lab/);
  for (const kind of KINDS) {
    const state = await page.evaluate((kind) => {
      const host = window.posencPage.charts.get(kind);
      const canvases = [...document.querySelectorAll(`[data-chart="${kind}"] canvas`)];
      const painted = canvases.map((c) => {
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) return true;
        return false;
      });
      return {
        mounted: !!host, rows: host?.data?.rows?.length ?? 0, readout: document.querySelector(`[data-chart="${kind}"] .readout`).textContent,
        canvases: canvases.length, painted, labelled: canvases.every((c) => c.getAttribute('role') === 'img' && c.getAttribute('aria-label')),
      };
    }, kind);
    assert.ok(state.mounted, `${kind} mounted`);
    assert.ok(state.rows > 0, `${kind} drew data`);
    assert.ok(state.readout.length > 40, `${kind} readout`);
    assert.ok(state.canvases > 0 && state.painted.every(Boolean), `${kind}: every canvas painted (${state.painted})`);
    assert.ok(state.labelled, `${kind}: canvases have role img and aria-label`);
    const before = JSON.stringify(await data(kind));
    await setControl(kind, ...CHANGE[kind]);
    assert.notEqual(JSON.stringify(await data(kind)), before, `${kind}: changing ${CHANGE[kind][0]} changed the data`);
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

  const broken = await setConfig('{"rope_scaling": {"rope_type": "llama3", "factor": 8');
  assert.ok(broken.error && broken.visible, 'a visible error message');
  assert.match(broken.text, /JSON/);
  assert.ok((await data('scaling-variants')).measured.config.error);
  const unknown = await setConfig('{"rope_scaling": {"rope_type": "superrope", "factor": 2}}');
  assert.ok(unknown.error);
  assert.match(unknown.text, /RangeError: .*superrope/);
  const invalid = await setConfig(JSON.stringify({ ...LLAMA31, rope_scaling: { ...LLAMA31.rope_scaling, low_freq_factor: 4, high_freq_factor: 1 } }));
  assert.match(invalid.text, /highFreqFactor/);
  // and back: the message clears
  assert.equal((await setConfig(JSON.stringify(LLAMA31))).error, false);
  assert.deepEqual(problems.pageErrors, []);
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
  await setControl('precision-lab', 'measure', 'score q·k/√d, k one position back');
  const s = await data('precision-lab');
  // in a score a frequency error shared by q and k costs one position's worth; rounded positions do not cancel
  assert.ok(s.measured.worstF16Past2048 > 0.1 && s.measured.cases['early@4095'] < 1e-3 && s.measured.f64At1e6 < 1e-3, JSON.stringify(s.measured));
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
});

test('dynamic NTK: the cache agrees up to max_position_embeddings and drifts after it', async () => {
  const d = await data('dynamic-kv-cache');
  assert.equal(d.measured.exactUpToMax, true);
  assert.ok(d.measured.lastScoreDiff > 0.1);
  await setControl('dynamic-kv-cache', 'length', '20'); // shorter than max_position_embeddings = 32
  const e = await data('dynamic-kv-cache');
  assert.equal(e.measured.lastScoreDiff, 0);
});

test('no console message, failed or external request', () => {
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
});
