// The lab's chart in Chromium (embed.html?chart=length-lab): the default run is drawn from
// web/lab/results.json as soon as it has come; Train runs its runs in a pool of Web Workers, one per core (the page is
// told how many cores it has), and draws what it trained; a pool of any size trains the bits of
// one worker; Cancel stops every worker; a page without Worker trains in slices on its own
// thread; while it trains the status says the time so far and, once measured, the time left; a
// run of the default settings is said to be one seed of the three the text quotes; both
// languages. The longest main-thread task while the workers train is printed (a diagnostic,
// not an assertion).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageReady } from './browser.js';

let b;
before(async () => (b = await startBrowser()));
after(async () => b?.close());

async function open(query, { noWorker = false, cores = 0 } = {}) {
  const context = await b.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  if (noWorker) await page.addInitScript(() => delete window.Worker);
  if (cores) await page.addInitScript((n) => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n }), cores);
  await page.addInitScript(() => {
    window.longest = 0;
    new PerformanceObserver((l) => l.getEntries().forEach((e) => (window.longest = Math.max(window.longest, e.duration))))
      .observe({ type: 'longtask', buffered: false });
  });
  await page.goto(`${b.url}embed.html?chart=length-lab&${query}`);
  await page.evaluate(() => window.posencEmbed.ready);
  // the default run's results come after the chart has mounted
  await page.waitForFunction(() => window.posencEmbed.host.data?.rows?.length);
  return { page, context, errors };
}

const status = (page) => page.locator('.lab-panel [role="status"]').textContent();
const lossNote = (page) => page.locator('.lab-panel + .chart-note').textContent();
const button = (page) => page.locator('.lab-panel button');

// One embed of the chart at its defaults, loaded once, serves the tests that read it or set its
// controls and put them back: a load of this chart costs about 2 s of CPU (its module, Chart.js,
// the results file).
let shared = null;
const sharedEmbed = async () => (shared ??= await open(''));
/** Sets the chart's controls by param name (as a link does) and resolves once it has redrawn. */
const set = (page, values) => page.evaluate((v) => new Promise((resolve) => {
  const { host } = window.posencEmbed;
  host.container.addEventListener('posenc:drawn', () => resolve(), { once: true });
  host.set(v);
}), values);
/** Switches the page's language (i18n.js's setLang: the chart relabels and redraws at once). */
const setLang = (page, lang) => page.evaluate((l) => window.posencEmbed.setLang(l), lang);

test('the default run is drawn from the results file', async () => {
  const { page, errors } = await sharedEmbed();
  const data = await page.evaluate(() => window.posencEmbed.host.data);
  assert.ok(data.rows.length >= 10 * 4, 'every encoding (and RoPE scaled) at four lengths');
  assert.match(await status(page), /trained ahead of time \(400 steps, seeds 1, 2, 3: each line is their mean/);
  assert.match(await lossNote(page), /^Below: the loss of each model above on its training batch, every 5th step, for seed 1 alone, the only seed whose losses are stored\. Each step/);
  assert.equal(await button(page).textContent(), 'Train');
  assert.deepEqual(errors, []);
});

test('a tie at the digits shown is named alike in every view, and Chinese puts no space beside a full-width bracket', async () => {
  // the copy task at 1×: RoPE and xPos both read 0.88 by token and 0.12 by whole sequence
  const { page, errors } = await sharedEmbed();
  try {
    for (const [metric, value] of [['token', '0.88'], ['sequence', '0.12']]) {
      await set(page, { task: 'copy', metric });
      const readout = await page.locator('.readout').textContent();
      assert.match(readout, new RegExp(`the best gets ${value.replace('.', '\\.')} \\(RoPE, xPos\\)`), readout);
    }
    await set(page, { metric: 'token' });
    await setLang(page, 'zh');
    const readout = await page.locator('.readout').textContent();
    assert.match(readout, /最好的也只有 0\.88（RoPE、xPos）/);
    assert.match(readout, /无位置编码（NoPE）0\.33 \//);
  } finally {
    await setLang(page, 'en');
    await set(page, { task: 'kback', metric: 'token' });
  }
  assert.deepEqual(errors, []);
});

test('a line hidden under another says so in the legend, the loss chart\'s too; RoPE looks alike in the lab\'s two accuracy charts', async () => {
  const looks = (page, k = 0) => page.evaluate((k) => window.Chart.getChart(document.querySelectorAll('canvas')[k]).data.datasets
    .filter((d) => d.label).map((d) => [d.label, d.borderColor, d.borderDash.join(',')]), k);
  const { page, errors } = await sharedEmbed();
  try {
    await set(page, { task: 'copy' });
    const lab = await looks(page);
    assert.deepEqual(lab.filter(([label]) => /hidden/.test(label)).map(([label]) => label), ['xPos (hidden under RoPE)']);
    // the loss chart below too: xPos's loss within 0.02 of RoPE's at every point
    assert.deepEqual((await looks(page, 1)).filter(([label]) => /hidden/.test(label)).map(([label]) => label), ['xPos (hidden under RoPE)']);
    await setLang(page, 'zh');
    assert.ok((await looks(page)).some(([label]) => label === 'xPos（被“RoPE”遮住）'));
    const scaling = await b.browser.newContext();
    const other = await scaling.newPage();
    await other.goto(`${b.url}embed.html?chart=lab-scaling`);
    await other.evaluate(() => window.posencEmbed.ready);
    await other.waitForFunction(() => window.posencEmbed.host.data?.rows?.length);
    const rope = lab.find(([label]) => label === 'RoPE'), xpos = lab.find(([label]) => label.startsWith('xPos'));
    const [plain, ...rest] = await looks(other);
    assert.deepEqual(plain, ['RoPE, unscaled', rope[1], rope[2]]);
    // RoPE + PI at evaluation is the first chart's RoPE + PI, and nothing is drawn in xPos's colour
    assert.deepEqual(rest[0].slice(1), lab.find(([label]) => label === 'RoPE + PI').slice(1));
    assert.ok(rest.every(([, colour]) => colour !== xpos[1]), JSON.stringify(rest));
    await scaling.close();
  } finally {
    await setLang(page, 'en');
    await set(page, { task: 'kback' });
  }
  assert.deepEqual(errors, []);
});

// 'Train' in a pool and training without Worker train the smallest model (d_model 16, one layer)
// at the default training length: what they check is the page's part (the pool, the slices, what
// is said and drawn), the same code at any size, for a third of the arithmetic. The model of the
// default size is trained on the lesson page below (and in Node by tests/lab-results.test.js).
const SMALL = 'dModel=16&layers=1';

test('Train: a pool of Web Workers, one per core, trains every encoding and the chart draws what it trained', async (t) => {
  const { page, context, errors } = await open(`steps=50&seed=2&${SMALL}`, { cores: 3 });
  assert.match(await status(page), /Press Train/);
  const before = await page.evaluate(() => JSON.stringify(window.posencEmbed.host.data.rows));
  await page.evaluate(() => (window.longest = 0));
  // what a screen reader is given to say, against what the panel shows: a run started or done and
  // the result, not every slice's progress
  await page.evaluate(() => {
    window.told = { spoken: [], shown: [] };
    const spoken = document.querySelector('.lab-panel [role="status"]'), shown = document.querySelector('.lab-panel .chart-note');
    new MutationObserver(() => window.told.spoken.push(spoken.textContent)).observe(spoken, { childList: true, characterData: true, subtree: true });
    new MutationObserver(() => window.told.shown.push(shown.textContent)).observe(shown, { childList: true, characterData: true, subtree: true });
  });
  await button(page).click();
  await page.waitForFunction(() => /Training in 3 Web Workers/.test(document.querySelector('.lab-panel [role="status"]').textContent), null, { timeout: 60_000 });
  await page.waitForFunction(() => /trained here/.test(document.querySelector('.lab-panel [role="status"]').textContent), null, { timeout: 240_000 });
  assert.match(await status(page), /50 steps, seed 2, in 3 Web Workers at once/);
  const told = await page.evaluate(() => window.told);
  const done = told.spoken.map((text) => text.match(/(\d) of 7 done/)?.[1]).filter(Boolean);
  assert.deepEqual(done, [...new Set(done)], `one announcement per run done: ${told.spoken.join(' | ')}`);
  assert.ok(told.spoken.length <= 9 && told.shown.length > told.spoken.length, `${told.spoken.length} announced of ${told.shown.length} shown`);
  // the time so far from the first slice; the time left once a run has trained 30 steps, its speed measured
  const training = told.shown.filter((text) => text.startsWith('Training'));
  assert.match(training[0], /step 10 of 50.*… \d+ s so far\.$/);
  assert.ok(training.some((text) => /… \d+ s so far, about \d+ s left\.$/.test(text)), training.join(' | '));
  assert.ok(!training.some((text) => /step [3-9]\d of 50/.test(text) && !/left\.$/.test(text)), 'an estimate once a run has trained 30 steps');
  assert.match(await lossNote(page), /^Below: the loss of each model trained here on its training batch, every 5th step, seed 2\./);
  const after = await page.evaluate(() => JSON.stringify(window.posencEmbed.host.data.rows));
  assert.notEqual(after, before, 'the chart shows the new runs');
  t.diagnostic(`longest main-thread task while the workers trained: ${(await page.evaluate(() => window.longest)).toFixed(0)} ms`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('one worker is said as one, in both languages', async () => {
  const { page, context, errors } = await open(`encoding=alibi&steps=50&${SMALL}`, { cores: 1 });
  try {
    // every text the panel shows, a run's progress included, however fast it goes
    await page.evaluate(() => {
      window.shown = [];
      const note = document.querySelector('.lab-panel .chart-note');
      new MutationObserver(() => window.shown.push(note.textContent)).observe(note, { childList: true, characterData: true, subtree: true });
    });
    const trained = (pattern) => page.waitForFunction((source) => new RegExp(source).test(document.querySelector('.lab-panel [role="status"]').textContent),
      pattern.source, { timeout: 240_000 });
    await button(page).click();
    await trained(/trained here/);
    assert.match(await status(page), /seed 1, in a Web Worker\.$/);
    await setLang(page, 'zh');
    await set(page, { seed: 2 });
    await button(page).click();
    await trained(/在这里训练/);
    assert.match(await status(page), /种子 2，在 Web Worker 中。$/);
    const shown = await page.evaluate(() => window.shown);
    assert.ok(shown.some((text) => /^Training in a Web Worker, 0 of 1 done: ALiBi step \d+ of 50… \d+ s so far/.test(text)), shown.join(' | '));
    assert.ok(shown.some((text) => /^正在一个 Web Worker 中训练，已完成 0 个，共 1 个：ALiBi 第 \d+ 步，共 50 步……已用 \d+ 秒/.test(text)), shown.join(' | '));
    assert.ok(!shown.some((text) => /\b1 Web Workers|1 个 Web Worker|同时/.test(text)), shown.join(' | '));
  } finally {
    await context.close();
  }
  assert.deepEqual(errors, []);
});

test('a run of the default settings is said to be one seed of the three the text quotes, in both languages', async () => {
  const { page, context, errors } = await open('encoding=alibi', { cores: 1 });
  try {
    await button(page).click();
    await page.waitForFunction(() => /trained here/.test(document.querySelector('.lab-panel [role="status"]').textContent), null, { timeout: 240_000 });
    assert.equal(await status(page), 'Shown: trained here, 400 steps, seed 1, in a Web Worker. That is one seed; the text quotes the mean of seeds 1, 2, 3, drawn before Train, so its figures can differ from these.');
    assert.match(await lossNote(page), /^Below: the loss of each model trained here on its training batch, every 5th step, seed 1\./);
    await setLang(page, 'zh');
    assert.equal(await status(page), '当前显示：在这里训练的结果，400 步，种子 1，在 Web Worker 中。这只是一个种子的结果；正文引用的是种子 1、2、3 的平均值，也就是按“训练”之前图中画的曲线，所以数字可能与这里不同。');
    assert.match(await lossNote(page), /^下图是在这里训练的各模型在训练批上的损失，每 5 步画一个点，种子 1。每一步的那批序列都换一个随机长度/);
    // a run of other settings is no seed of the default run
    await set(page, { steps: 50, dModel: 16, layers: 1 });
    await button(page).click();
    await page.waitForFunction(() => /在这里训练/.test(document.querySelector('.lab-panel [role="status"]').textContent), null, { timeout: 240_000 });
    assert.doesNotMatch(await status(page), /一个种子/);
  } finally {
    await context.close();
  }
  assert.deepEqual(errors, []);
});

test('the reader\'s settings: one encoding, another training length and size, trained and drawn at their lengths', async () => {
  const { page, errors } = await sharedEmbed();
  try {
    await set(page, { encoding: 'rope', trainLength: 8, dModel: 16, layers: 1, steps: 50 });
    const shown = await page.evaluate(() => window.posencEmbed.host.data.rows);
    assert.deepEqual([...new Set(shown.map((r) => r[0]))], ['rope', 'rope + pi', 'rope + ntk', 'rope + yarn'], 'one encoding of the default run meanwhile');
    await button(page).click();
    await page.waitForFunction(() => /trained here/.test(document.querySelector('.lab-panel [role="status"]').textContent), null, { timeout: 120_000 });
    const rows = await page.evaluate(() => window.posencEmbed.host.data.rows);
    assert.deepEqual([...new Set(rows.map((r) => r[1]))], [8, 16, 32, 64], 'tested at 1x to 8x of length 8');
    assert.deepEqual([...new Set(rows.map((r) => r[0]))], ['rope', 'rope + pi', 'rope + ntk', 'rope + yarn']);
  } finally {
    await set(page, await page.evaluate(() => window.posencEmbed.host.defaults()));
  }
  assert.deepEqual(errors, []);
});

test('on the page, the position and attention charts show the runs just trained', async () => {
  const { page, problems } = await b.open('');
  await pageReady(page);
  const readout = (kind) => page.locator(`[data-chart="${kind}"] .readout`).textContent();
  assert.match(await readout('lab-attention'), /RoPE on “repeat the token 2 places back”: the weight/);
  assert.doesNotMatch(await readout('lab-attention'), /Trained on this page/);
  await page.evaluate(() => {
    const input = document.querySelector('[data-chart="length-lab"] .controls input[type="number"][name="steps"]');
    input.value = '50';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.locator('[data-chart="length-lab"] .lab-panel button').click();
  await page.waitForFunction(() => /trained here/.test(document.querySelector('[data-chart="length-lab"] .lab-panel [role="status"]').textContent), null, { timeout: 240_000 });
  await page.evaluate(() => { // lab-positions opens on copy; the run trained k-back
    const select = document.querySelector('[data-chart="lab-positions"] .controls select[name="task"]');
    select.value = 'kback';
    select.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction(() => /trained on this page/.test(document.querySelector('[data-chart="lab-positions"] .readout').textContent));
  assert.match(await readout('lab-positions'), /trained on this page \(50 steps, seed 1, training length 16\)/);
  await page.waitForFunction(() => /Trained on this page/.test(document.querySelector('[data-chart="lab-attention"] .readout').textContent));
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
  await page.context().close();
});

// a page's dedicated workers as Chromium lists them, until one has closed
const workers = (page) => page.workers().filter((w) => w.url().endsWith('/lab/worker.js'));

test('Cancel stops every worker of the pool and says so', async () => {
  const { page, context, errors } = await open('steps=2000&seed=3', { cores: 3 });
  await button(page).click();
  await page.waitForFunction(() => /Training in 3 Web Workers/.test(document.querySelector('.lab-panel [role="status"]').textContent), null, { timeout: 60_000 });
  assert.equal(workers(page).length, 3, 'three workers train');
  assert.equal(await button(page).textContent(), 'Cancel');
  await button(page).click();
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('.lab-panel [role="status"]').textContent));
  assert.equal(await button(page).textContent(), 'Train');
  for (let i = 0; i < 100 && workers(page).length; i++) await page.waitForTimeout(50);
  assert.equal(workers(page).length, 0, 'every worker ended');
  const text = await status(page);
  await page.waitForTimeout(500);
  assert.equal(await status(page), text, 'no progress after Cancel');
  assert.deepEqual(errors, []);
  await context.close();
});

// Small runs of every encoding (RoPE with its scalings), in pools of 1 and of 3 workers: the same
// runs, in the same order, to the bit.
test('a pool of three workers trains the bits of one worker', async () => {
  const { page, errors } = await sharedEmbed();
  const runs = await page.evaluate(async () => {
    const { trainPool } = await import('/lab/pool.js');
    const spawn = () => new Worker(new URL('/lab/worker.js', location.href), { type: 'module' });
    const settings = { task: 'kback', steps: 20, seed: 5, trainLength: 8, dModel: 16, layers: 1 };
    const bits = (a) => Array.from(new Uint32Array(Float32Array.from(a).buffer));
    const f64 = (x) => Array.from(new Uint32Array(Float64Array.of(x).buffer));
    const flat = (runs) => runs.map((r) => ({
      encoding: r.encoding, loss: bits(r.loss),
      evaluation: [r.evaluation, ...Object.values(r.scaled ?? {})].flat().map((e) => [e.length, ...f64(e.tokenAccuracy), ...f64(e.loss)]),
      positions: r.details.evaluation.flatMap((e) => e.positions.map((q) => f64(q.loss))),
    }));
    const one = trainPool(settings, { spawn, size: 1 }), three = trainPool(settings, { spawn, size: 3 });
    return { workers: [one.workers, three.workers], one: flat(await one.done), three: flat(await three.done) };
  });
  assert.deepEqual(runs.workers, [1, 3]);
  assert.deepEqual(runs.one.map((r) => r.encoding), ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5', 'xpos']);
  assert.equal(runs.one[0].loss.length, 20);
  assert.deepEqual(runs.three, runs.one);
  assert.deepEqual(errors, []);
});

test('without Worker, training runs in slices on the page; in Chinese', async () => {
  const { page, context, errors } = await open(`steps=50&seed=4&task=copy&${SMALL}&lang=zh`, { noWorker: true });
  assert.equal(await button(page).textContent(), '训练');
  await button(page).click();
  await page.waitForFunction(() => /在这里训练/.test(document.querySelector('.lab-panel [role="status"]').textContent), null, { timeout: 240_000 });
  assert.match(await status(page), /在本页面上分片运行/);
  assert.deepEqual(errors, []);
  await context.close();
});
