// runtime-page.test.js: section 21's runtime-compare chart in Chromium, as a llama.cpp user meets
// it: offline at its defaults (a simulated old conversion of Llama 3.1 8B), a GGUF file chosen
// from the computer, and the Hugging Face Hub answered by local routes (a public model with
// config.json and GGUF files served only by Range, a gated one, a missing one, no network).
// Every GGUF is built here with the test's writer, as convert_hf_to_gguf.py writes it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { startBrowser, pageReady, switchLang } from './browser.js';
import { stubHub } from './fixtures/hub-stub.js';
import { gguf, MODELS } from './fixtures/gguf-writer.js';
import { loadPosenc, readGguf, MODELS as GALLERY } from '../web/lib/posenc.js';
import { convertedGguf } from '../web/charts/shared/gguf-convert.js';
import { parseHubUrl, checkHubId } from '../web/charts/shared/hub.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const KIND = 'runtime-compare';
const OLD = gguf('llama-3.1-8b', { drop: ['rope_freqs.weight'] });
const NEW = gguf('llama-3.1-8b');
// a Hub GGUF as large as a real one's front is small: 32 MiB of weights behind the metadata
const BIG = new Uint8Array(OLD.length + 32 * 2 ** 20);
BIG.set(OLD);
const CONFIG = JSON.stringify(MODELS['llama-3.1-8b'].config);
const GGUF_NAME = 'Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf';

// ---- in Node: the simulated conversion and the Hub address parser ----

test('the page\'s simulated conversion gives llama.cpp exactly the parameters of the files convert_hf_to_gguf.py writes (with and without the keys old converters left out)', async () => {
  const pe = await loadPosenc();
  const params = (g) => {
    const r = pe.llamaCppRope(g, {});
    return { arch: r.arch, nCtx: r.nCtx, layerTypes: Object.fromEntries(Object.entries(r.layerTypes).map(([k, v]) => [k, { ...v, freqFactors: v.freqFactors && Array.from(v.freqFactors) }])) };
  };
  const cases = Object.keys(MODELS).map((name) => [name, null, []]).concat([
    ['llama-3.1-8b', 'rope_freqs', ['rope_freqs.weight']], ['gemma-3-4b', 'freq_base_swa', ['gemma3.rope.freq_base_swa']]]);
  for (const [name, omit, drop] of cases) {
    const { config } = MODELS[name];
    const sim = convertedGguf(config, pe.ropeConfig(config), omit);
    assert.equal(sim.omitted, omit !== null, name);
    assert.deepEqual(params(sim.gguf), params(await readGguf(gguf(name, { drop }))), `${name} without ${omit}`);
  }
  // nothing to leave out: today's file, and said so
  const qwen = MODELS['qwen2-7b-yarn'].config;
  assert.equal(convertedGguf(qwen, pe.ropeConfig(qwen), 'rope_freqs').omitted, false);
  assert.deepEqual(convertedGguf({ model_type: 'mamba' }, { layerTypes: {} }), { error: 'unsupported', type: 'mamba' });
});

test('the simulated Gemma 4 GGUF holds the keys and rope_freqs Gemma4Model writes for the gallery\'s config, and llama.cpp reads it as the config means', async () => {
  const pe = await loadPosenc();
  const { config } = GALLERY.find((m) => m.id === 'gemma-4');
  const sim = convertedGguf(config, pe.ropeConfig(config), null);
  assert.equal(sim.arch, 'gemma4');
  const m = sim.gguf.metadata;
  const want = {
    'gemma4.context_length': 131072, 'gemma4.block_count': 35, 'gemma4.attention.head_count': 8,
    'gemma4.rope.freq_base': 1e6, 'gemma4.rope.freq_base_swa': 10000,
    'gemma4.attention.key_length': 512, 'gemma4.attention.value_length': 512,
    'gemma4.attention.key_length_swa': 256, 'gemma4.attention.value_length_swa': 256,
    'gemma4.rope.dimension_count': 512, 'gemma4.rope.dimension_count_swa': 256, 'gemma4.attention.sliding_window': 512,
  };
  for (const [k, v] of Object.entries(want)) assert.equal(m[k], v, k);
  assert.deepEqual(m['gemma4.attention.sliding_window_pattern'], Array.from({ length: 35 }, (_, i) => i % 5 !== 4));
  // no rope.scaling.* key: the converter knows no "proportional"
  assert.deepEqual(Object.keys(m).filter((k) => k.includes('scaling')), []);
  const ff = sim.gguf.ropeTensors.rope_freqs;
  assert.equal(ff.length, 256);
  for (let i = 0; i < 256; i++) assert.equal(ff[i], i < 64 ? 1 : Math.fround(1e30), `rope_freqs[${i}]`);
  assert.deepEqual(sim.gguf.tensors.map((t) => [t.name, t.shape]), [['rope_freqs.weight', [256]]]);
  // older converters had no Gemma 4: nothing to leave out
  for (const omit of ['rope_freqs', 'freq_base_swa']) assert.equal(convertedGguf(config, pe.ropeConfig(config), omit).omitted, false);
  assert.deepEqual(pe.compareRuntimes(config, sim.gguf).findings.map((f) => f.code), ['none']);
  // a config the converter stops on (no partial_rotary_factor in the proportional block)
  const broken = structuredClone(config);
  delete broken.text_config.rope_parameters.full_attention.partial_rotary_factor;
  const b = convertedGguf(broken, pe.ropeConfig(broken), null);
  assert.deepEqual([b.error, b.type], ['converter-fails', 'gemma4_text']);
  assert.match(b.message, /Gemma4Model/);
});

test('Hub addresses: a file copied from the Hub gives its model and path; other hosts, schemes and path tricks give null', () => {
  assert.deepEqual(parseHubUrl('https://huggingface.co/bartowski/Llama-3.1-8B-GGUF/blob/main/Llama-3.1-8B-Q4_K_M.gguf'), { id: 'bartowski/Llama-3.1-8B-GGUF', file: 'Llama-3.1-8B-Q4_K_M.gguf' });
  assert.deepEqual(parseHubUrl('https://hf.co/a/b/resolve/main/sub/x%20y.gguf?download=true'), { id: 'a/b', file: 'sub/x y.gguf' });
  for (const bad of ['a/b', 'http://huggingface.co/a/b/blob/main/x.gguf', 'https://evil.example/a/b/blob/main/x.gguf',
    'https://huggingface.co.evil.example/a/b/blob/main/x.gguf', 'https://huggingface.co/a/b/blob/main/../../x.gguf',
    'https://huggingface.co/a/b/tree/main', 'https://huggingface.co/a/b/blob/main/', 'javascript:alert(1)']) {
    assert.equal(parseHubUrl(bad), null, bad);
  }
  // dot segments, even encoded, are resolved by the URL itself: they never leave the model's folder
  assert.deepEqual(parseHubUrl('https://huggingface.co/a/b/blob/main/sub/%2e%2e/x.gguf'), { id: 'a/b', file: 'x.gguf' });
  assert.equal(checkHubId('Qwen/Qwen2.5-0.5B'), 'Qwen/Qwen2.5-0.5B');
  for (const bad of ['', 'a', 'a/b/c', '../a', 'a/..', 'a/b?x', ' a/b', 'https://huggingface.co/a/b']) assert.throws(() => checkHubId(bad), { code: 'bad-id' }, bad);
});

// ---- in Chromium ----

let env, shared;
before(async () => {
  env = await startBrowser();
  shared = await open('en');
});
after(() => env?.close());

/** The page at #your-model with huggingface.co answered here; log: every Hub request. */
async function open(lang, options = {}) {
  const { page, problems, context } = await env.open(`?lang=${lang}#your-model`, options);
  const G = `/meta/llama-gguf/resolve/main/${GGUF_NAME}`;
  const log = await stubHub(page, {
    '/api/models/meta/llama-gguf': JSON.stringify({ id: 'meta/llama-gguf', siblings: [{ rfilename: 'README.md' }, { rfilename: 'config.json' }, { rfilename: GGUF_NAME }, { rfilename: 'sub/other-Q8_0.gguf' }] }),
    '/meta/llama-gguf/resolve/main/config.json': CONFIG,
    [G]: BIG,
  }, { rangeOnly: [G] });
  await pageReady(page);
  await page.locator(`[data-chart="${KIND}"]`).scrollIntoViewIfNeeded();
  await page.waitForFunction((k) => window.posencPage.charts.get(k)?.data, KIND);
  return { page, problems, context, log };
}

const fig = (page) => page.locator(`.chart[data-kind="${KIND}"]`);
const findings = (page) => fig(page).locator('li[data-code]').evaluateAll((l) => l.map((x) => ({ code: x.dataset.code, text: x.textContent })));
const readout = (page) => page.$eval(`[data-chart="${KIND}"] .readout`, (e) => e.textContent);
const status = (page) => fig(page).locator('.runtime-inputs [role="status"]').evaluate((e) => ({ text: e.textContent, error: e.classList.contains('posenc-error') }));
const control = (page, name) => fig(page).locator(`.controls [name="${name}"]`).first();
async function waitStatus(page, re) {
  await page.waitForFunction(([k, src]) => new RegExp(src).test(document.querySelector(`.chart[data-kind="${k}"] .runtime-inputs [role="status"]`)?.textContent ?? ''), [KIND, re.source], { timeout: 30000 });
  await page.waitForTimeout(150); // a frame for the redraw
}
async function hub(page, id, re) {
  await fig(page).locator('.runtime-inputs input[placeholder="owner/name"]').fill(id);
  await fig(page).locator('.runtime-inputs button').first().click();
  await waitStatus(page, re);
}

test('offline at its defaults: a simulated Llama 3.1 8B GGUF without rope_freqs shows rope-freqs-missing and its fix, said to be simulated', async () => {
  const { page, problems, log } = shared;
  const f = await findings(page);
  assert.deepEqual(f.map((x) => x.code), ['rope-freqs-missing']);
  assert.match(f[0].text, /b3472/);
  assert.match(f[0].text, /Fix: /);
  const r = await readout(page);
  assert.match(r, /The llama3 scaling is missing/);
  assert.match(r, /Simulated file: .*Llama 3\.1 8B, without rope_freqs/);
  assert.match(r, /35 of 64 pairs differ/);
  // which pair first reaches the largest ratio, said so that it parses
  assert.match(r, /up to 8× as far as the config does \(pair 35 is the first to reach 8×\)/);
  // the numbers the prose quotes at the defaults
  assert.match(r, /up to 8× as far.* first passes 1 % of \|q\|·\|k\| at distance 286\./);
  const prose = await page.$eval('#your-model', (e) => e.textContent);
  assert.match(prose, /35 of the 64 pairs \(pairs 29 to 63\) up to 8 times/);
  assert.match(prose, /first passes 1 % at distance 286/);
  assert.match(f[0].text, /pairs 29–63 of 64/);
  // the angles drawn are the comparison's: config and llama.cpp differ by 8 in the slowest pair
  const d = await page.evaluate((k) => window.posencPage.charts.get(k).data, KIND);
  const last = d.rows.at(-1);
  assert.ok(Math.abs(last[2] / last[1] - 8) < 1e-5, `angle ratio ${last[2] / last[1]}`);
  assert.ok(Math.abs(d.rows[0][1] - 32768) < 1e-9 && Math.abs(d.rows[0][2] - 32768) < 1e-3);
  // today's conversion agrees; a gallery model with nothing to leave out says so
  await control(page, 'file').selectOption('converted');
  await page.waitForTimeout(200);
  assert.deepEqual((await findings(page)).map((x) => x.code), ['none']);
  assert.match(await readout(page), /agree/);
  await control(page, 'model').selectOption('gemma-3-4b');
  await control(page, 'file').selectOption('no-freq-base-swa');
  await page.waitForTimeout(200);
  assert.ok((await findings(page)).some((x) => x.code === 'swa-base-missing'));
  // a flag typed in the panel reaches llama.cpp's reading: a wrong base is found, with its fix
  await control(page, 'model').selectOption('llama-3.1-8b');
  await control(page, 'file').selectOption('converted');
  await fig(page).locator('.runtime-inputs input.mono').fill('--rope-freq-base 10000');
  await page.waitForFunction((k) => document.querySelector(`.chart[data-kind="${k}"] li[data-code="base-differs"]`), KIND);
  // the file's base is the config's: the fix is to leave the wrapper's default out (llama-cpp-python#765)
  assert.match((await findings(page)).find((x) => x.code === 'base-differs').text, /leave out --rope-freq-base 10000/);
  await fig(page).locator('.runtime-inputs input.mono').fill('');
  await control(page, 'file').selectOption('no-rope-freqs');
  await page.waitForTimeout(300);
  assert.deepEqual(log, []);
  assert.deepEqual(problems.external, []);
  assert.deepEqual(problems.pageErrors, []);
});

test('the exercises hold: Gemma 3 without freq_base_swa rotates right in llama.cpp; Phi-3.5 at m = 1000 agrees only with -c 4096', async () => {
  const { page } = shared;
  await page.evaluate((k) => window.posencPage.charts.get(k).set({ model: 'gemma-3-4b', file: 'no-freq-base-swa' }), KIND);
  await page.waitForTimeout(200);
  assert.deepEqual((await findings(page)).map((x) => x.code), ['swa-base-missing']);
  assert.match(await readout(page), /The angles agree.*sliding_attention: all 128 pairs agree/);
  // the headline says why nothing needs fixing in llama.cpp, and the empty-looking error plot is named
  assert.match((await findings(page))[0].text, /^The sliding-window layers’ base is not in the file \(no freq_base_swa\); llama\.cpp’s fallback, 10000, is right for this model\./);
  assert.match(await readout(page), /The score error is 0 at every distance/);
  await page.evaluate((k) => window.posencPage.charts.get(k).set({ model: 'phi-3.5-mini', file: 'converted', position: 1000 }), KIND);
  await page.waitForTimeout(200);
  const f = await findings(page);
  assert.deepEqual(f.map((x) => x.code), ['longrope-factors-by-context']);
  assert.match(f[0].text, /Fix: -c 4096/);
  assert.match(await readout(page), /48 of 48 pairs differently from the config, down to 1\/31\.5 of its angle, and the score error first passes 1 % of \|q\|·\|k\| at distance 3\./);
  assert.match(await readout(page), /48 of 48 pairs differ; at m = 1000 llama\.cpp turns them as little as 1\/31\.5 of the config’s angle \(pair \d+ is the first to reach 1\/31\.5\)/);
  await page.evaluate((k) => window.posencPage.charts.get(k).set({ ctx: 4096 }), KIND);
  await page.waitForTimeout(200);
  assert.deepEqual((await findings(page)).map((x) => x.code), ['none']);
  await page.evaluate((k) => window.posencPage.charts.get(k).reset(), KIND);
  await page.waitForTimeout(200);
  assert.deepEqual((await findings(page)).map((x) => x.code), ['rope-freqs-missing']);
});

test('Gemma 4: the simulated conversion agrees with the config, its standing pairs left off the log axis; a base flag reaches the global layers only', async () => {
  const { page, problems } = shared;
  try {
    await page.evaluate((k) => window.posencPage.charts.get(k).set({ model: 'gemma-4', file: 'converted', position: 32768, ctx: 0 }), KIND);
    await page.waitForTimeout(300);
    const f = await findings(page);
    assert.deepEqual(f.map((x) => x.code), ['none']);
    assert.match(f[0].text, /for the pairs that stand still \(full_attention: pairs 64–255\)/);
    const r = await readout(page);
    assert.match(r, /llama\.cpp and the config agree here/);
    assert.match(r, /Simulated file: .*Gemma 4 E2B\./);
    assert.match(r, /Pairs 64–255 stand still in both: θᵢ is 0 in the config, and llama\.cpp’s factor of 1e30 leaves it at 3\.2e-32 rad a position or less/);
    assert.match(r, /Layer type full_attention: all 256 pairs agree/);
    // both lines drawn for the 64 pairs that turn, neither for the 192 that stand
    const sets = await page.evaluate((k) => {
      const c = window.Chart.getChart(document.querySelector(`.chart[data-kind="${k}"] canvas`));
      return c.data.datasets.map((d) => d.data.map((p) => p.y));
    }, KIND);
    assert.equal(sets.length, 2);
    for (const ys of sets) {
      assert.equal(ys.length, 256);
      assert.ok(ys.slice(0, 64).every((y) => y > 0) && ys.slice(64).every((y) => y === null));
      assert.ok(Math.abs(ys[0] - 32768) < 1e-3);
    }
    // an older converter's file: there was none for Gemma 4, so it is today's, and said so
    await control(page, 'file').selectOption('no-rope-freqs');
    await page.waitForTimeout(200);
    assert.deepEqual((await findings(page)).map((x) => x.code), ['none']);
    assert.match(await readout(page), /every converter of this model writes the same here/);
    await control(page, 'file').selectOption('converted');
    await fig(page).locator('.runtime-inputs input.mono').fill('--rope-freq-base 10000');
    await page.waitForFunction((k) => document.querySelector(`.chart[data-kind="${k}"] li[data-code="base-differs"]`), KIND);
    const g = await findings(page);
    assert.deepEqual(g.map((x) => x.code).sort(), ['base-differs', 'flag-no-op']);
    assert.match(g.find((x) => x.code === 'base-differs').text, /Full_attention layers: .*pairs 1–63 of 256 differ.*Fix: leave out --rope-freq-base 10000/);
  } finally {
    // the next tests start from the defaults
    await fig(page).locator('.runtime-inputs input.mono').fill('');
    await page.evaluate((k) => window.posencPage.charts.get(k).reset(), KIND);
    await page.waitForTimeout(200);
  }
  assert.deepEqual(problems.pageErrors, []);
});

test('a GGUF chosen from the computer is read in the page: without rope_freqs the finding and fix show, with it none', async () => {
  const { page } = shared;
  const input = fig(page).locator('.runtime-inputs input[type="file"]');
  await input.setInputFiles({ name: 'llama-3.1-8b-old.gguf', mimeType: 'application/octet-stream', buffer: Buffer.from(OLD) });
  await waitStatus(page, /llama-3\.1-8b-old\.gguf: read \d+ of \d+ bytes/);
  assert.equal(await control(page, 'file').inputValue(), 'yours');
  const f = await findings(page);
  assert.deepEqual(f.map((x) => x.code), ['rope-freqs-missing']);
  assert.match(f[0].text, /convert_hf_to_gguf\.py from llama\.cpp b3472 or later/);
  assert.match(await readout(page), /Read from llama-3\.1-8b-old\.gguf/);
  await input.setInputFiles({ name: 'llama-3.1-8b.gguf', mimeType: 'application/octet-stream', buffer: Buffer.from(NEW) });
  await waitStatus(page, /llama-3\.1-8b\.gguf: read/);
  assert.deepEqual((await findings(page)).map((x) => x.code), ['none']);
  // dropped on the chart's drop zone, as a file manager drops it
  await page.evaluate(([k, bytes]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(bytes)], 'dropped-old.gguf'));
    document.querySelector(`.chart[data-kind="${k}"] .runtime-drop`).dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [KIND, [...OLD]]);
  await waitStatus(page, /dropped-old\.gguf: read/);
  assert.deepEqual((await findings(page)).map((x) => x.code), ['rope-freqs-missing']);
  // llama.cpp's -c typed with the other flags sets the context, and the finding reads as posenc compare prints it
  const flags = fig(page).locator('.runtime-inputs input.mono');
  await flags.fill('-c 8192');
  await page.waitForTimeout(600); // the flags box waits 250 ms for typing to stop
  const pe = await loadPosenc();
  const cli = pe.compareRuntimes(JSON.stringify(MODELS['llama-3.1-8b'].config), await readGguf(OLD), { ctx: 8192 });
  const said = cli.findings[0].message; // the page starts it as a sentence
  assert.equal((await findings(page))[0].text.includes(said[0].toUpperCase() + said.slice(1)), true, said);
  assert.match(await readout(page), /Position m is kept below the context \(8192\)/);
  // a flag half typed: said under the flags, the comparison before it kept on the charts and in the readout
  const before = await readout(page);
  await flags.fill('-c');
  await page.waitForTimeout(600);
  const flagError = fig(page).locator('.runtime-inputs [role="alert"]');
  assert.match(await flagError.textContent(), /Not a RoPE flag of llama\.cpp, or no value after it: “-c”/);
  assert.ok(await flagError.isVisible());
  assert.equal(await readout(page), before);
  assert.deepEqual((await findings(page)).map((x) => x.code), ['rope-freqs-missing']);
  await flags.fill('');
  await page.waitForTimeout(600);
  assert.equal(await flagError.isVisible(), false, 'gone once the flags read again');
  // a GGUF of another model than the config: said so before anything else
  await input.setInputFiles({ name: 'qwen.gguf', mimeType: 'application/octet-stream', buffer: Buffer.from(gguf('qwen2-7b-yarn')) });
  await waitStatus(page, /qwen\.gguf: read/);
  assert.match(await readout(page), /^This GGUF is a “qwen2” model, but a conversion of this config would be “llama”/);
  // and the findings say it first, with no fix for the rest but that
  const other = await findings(page);
  assert.equal(other[0].code, 'architecture-differs');
  assert.match(other[0].text, /^This GGUF is of another model than the config\./);
  for (const x of other.slice(1)) assert.match(x.text, /Fix: no flag helps: the GGUF is of another model/, x.code);
  await input.setInputFiles({ name: 'llama-3.1-8b.gguf', mimeType: 'application/octet-stream', buffer: Buffer.from(NEW) });
  await waitStatus(page, /llama-3\.1-8b\.gguf: read/);
  // not a GGUF: a clear message, the chart keeps the last file
  await input.setInputFiles({ name: 'notes.gguf', mimeType: 'text/plain', buffer: Buffer.from('hello, not a model') });
  await waitStatus(page, /Could not read notes\.gguf as a GGUF: not a GGUF file/);
  assert.equal((await status(page)).error, true);
  assert.deepEqual((await findings(page)).map((x) => x.code), ['none']);
});

test('a public Hub model: config.json read into the config, its GGUF files listed, one read by Range requests only', async () => {
  const { page, log } = shared;
  log.length = 0;
  await hub(page, 'meta/llama-gguf', /config\.json read/);
  assert.match((await status(page)).text, /2 GGUF files listed/);
  assert.equal(await control(page, 'model').inputValue(), 'config');
  assert.equal(JSON.parse(await fig(page).locator('textarea.config-text').inputValue()).rope_scaling.rope_type, 'llama3');
  assert.deepEqual(await fig(page).locator('.runtime-inputs select option').allTextContents(), [GGUF_NAME, 'sub/other-Q8_0.gguf']);
  await fig(page).locator('.runtime-inputs select').selectOption(GGUF_NAME);
  await fig(page).locator('.runtime-inputs button', { hasText: 'Read this GGUF' }).click();
  await waitStatus(page, /Read from meta\/llama-gguf/);
  assert.deepEqual((await findings(page)).map((x) => x.code), ['rope-freqs-missing']);
  const reads = log.filter((x) => x.path.endsWith('.gguf'));
  assert.ok(reads.length >= 1);
  assert.ok(reads.every((x) => x.range && x.status === 206), JSON.stringify(reads));
  const bytes = reads.reduce((s, x) => s + x.bytes, 0);
  assert.ok(bytes < 2 * 2 ** 20 && bytes < BIG.length / 8, `read ${bytes} of ${BIG.length} bytes`);
});

test('a GGUF address copied from the Hub (…/blob/main/x.gguf) reads that file, by Range requests', async () => {
  const { page, log } = shared;
  log.length = 0;
  await hub(page, `https://huggingface.co/meta/llama-gguf/blob/main/${GGUF_NAME}`, /Read from meta\/llama-gguf\//);
  assert.deepEqual((await findings(page)).map((x) => x.code), ['rope-freqs-missing']);
  const reads = log.filter((x) => x.path.endsWith('.gguf'));
  assert.ok(reads.length >= 1 && reads.every((x) => x.range && x.status === 206), JSON.stringify(reads));
});

test('gated, missing, malformed id and no network each give their own message, and the chart keeps drawing', async () => {
  const { page } = shared;
  await hub(page, 'gated/llama', /gated or private \(HTTP 401\)/);
  assert.equal((await status(page)).error, true);
  await hub(page, 'nobody/nothing', /not on the Hub \(404\)/);
  await hub(page, '../etc', /is not a Hub model id/);
  await hub(page, 'https://huggingface.co/meta/llama-gguf/blob/main/gone.gguf', /meta\/llama-gguf\/gone\.gguf is not on the Hub \(404\): check the file’s name/);
  assert.equal((await status(page)).error, true);
  await hub(page, 'offline/model', /cannot be reached/);
  assert.equal((await status(page)).error, true);
  assert.ok((await findings(page)).length > 0);
  assert.deepEqual(await audit(page), [], 'axe, English, after the Hub\'s errors');
});

test('Chinese: the notice, the findings and the Hub messages are in Chinese; the fix names no flag where none exists', async () => {
  // the shared page back at its defaults, switched to Chinese by its own switch: what the chart
  // writes follows the language the page is in (a load in Chinese would cost as much again)
  const { page } = shared;
  await fig(page).locator('.runtime-inputs input.mono').fill('');
  await page.evaluate((k) => window.posencPage.charts.get(k).reset(), KIND);
  await switchLang(page, 'zh');
  try {
    const f = await findings(page);
    assert.deepEqual(f.map((x) => x.code), ['rope-freqs-missing']);
    assert.match(f[0].text, /缺少 llama3 缩放/);
    // the converter that fixes it is named in Chinese, not only in the English quote
    assert.match(f[0].text, /修正：没有哪个 llama\.cpp 命令行参数能补上每个维度对的除数；请下载或自行转换一个用 llama\.cpp b3472 及以后版本（llama\.cpp#8676）的 convert_hf_to_gguf\.py 生成的 GGUF。/);
    // the English original is set off as posenc compare's output, verbatim, not as a sentence of the page
    const quote = await fig(page).locator('li[data-code="rope-freqs-missing"] details blockquote[lang="en"]').evaluate((el) => [...el.querySelectorAll('code')].map((c) => c.textContent));
    assert.equal(quote.length, 2);
    assert.match(quote[0], /^rope-freqs-missing: this GGUF has no rope_freqs tensor/);
    assert.match(quote[1], /^fix: /);
    assert.equal(await fig(page).locator('li[data-code="rope-freqs-missing"] details summary').textContent(), 'posenc compare 命令输出的英文原文');
    // Gemma 3 without freq_base_swa: right in llama.cpp; the fix for other readers names its converter in Chinese too
    await control(page, 'model').selectOption('gemma-3-4b');
    await control(page, 'file').selectOption('no-freq-base-swa');
    await page.waitForFunction((k) => document.querySelector(`.chart[data-kind="${k}"] li[data-code="swa-base-missing"]`), KIND);
    assert.match(await fig(page).locator('li[data-code="swa-base-missing"] .runtime-fix').textContent(),
      /^修正：llama\.cpp 本身不需要修正；为了让其他读取程序也读对，请换用由会写入 rope\.freq_base_swa 的 convert_hf_to_gguf\.py（llama\.cpp#18553）重新转换的 GGUF。$/);
    await control(page, 'model').selectOption('llama-3.1-8b');
    // a flag to leave out is named as such, not offered as the fix (the file's base is the config's)
    await control(page, 'file').selectOption('converted');
    const input = fig(page).locator('.runtime-inputs input.mono');
    await input.fill('--rope-freq-base 10000');
    await page.waitForFunction((k) => document.querySelector(`.chart[data-kind="${k}"] li[data-code="base-differs"]`), KIND);
    const fix = await fig(page).locator('li[data-code="base-differs"] .runtime-fix').evaluate((el) => [el.textContent, el.querySelector('code')?.textContent]);
    assert.deepEqual(fix, ['修正：去掉 --rope-freq-base 10000。', '--rope-freq-base 10000']);
    // a scale the file does not need (README's example): leave it out, not a reconversion
    await input.fill('-c 8192 --rope-scale 4');
    await page.waitForFunction((k) => document.querySelector(`.chart[data-kind="${k}"] li[data-code="scaling-differs"]`), KIND);
    const drop = await fig(page).locator('li[data-code="scaling-differs"] .runtime-fix').evaluate((el) => [el.textContent, el.querySelector('code')?.textContent]);
    assert.deepEqual(drop, ['修正：去掉 --rope-scale 4。', '--rope-scale 4']);
    if (process.env.POSENC_SHOT) await fig(page).screenshot({ path: process.env.POSENC_SHOT });
    await input.fill('');
    await control(page, 'file').selectOption('no-rope-freqs');
    await page.waitForFunction((k) => document.querySelector(`.chart[data-kind="${k}"] li[data-code="rope-freqs-missing"]`), KIND);
    assert.match(await readout(page), /模拟的文件/);
    // Gemma 4 in Chinese: agreement, the standing pairs said in Chinese
    await page.evaluate((k) => window.posencPage.charts.get(k).set({ model: 'gemma-4', file: 'converted' }), KIND);
    await page.waitForFunction((k) => document.querySelector(`.chart[data-kind="${k}"] li[data-code="none"]`), KIND);
    assert.match(await fig(page).locator('li[data-code="none"]').textContent(), /llama\.cpp 与配置一致/);
    assert.match(await readout(page), /第 64–255 对在两边都不转/);
    await page.evaluate((k) => window.posencPage.charts.get(k).set({ model: 'llama-3.1-8b', file: 'no-rope-freqs' }), KIND);
    await hub(page, 'gated/llama', /受限或私有模型/);
    await hub(page, 'nobody/nothing', /Hub 上没有/);
    assert.deepEqual(await audit(page), [], 'axe, Chinese, after a Hub error');
  } finally {
    await switchLang(page, 'en');
    await page.evaluate((k) => window.posencPage.charts.get(k).reset(), KIND);
  }
});

/** Serious and critical axe violations in section 21 as it is now (axe evaluated through the
 * debugger protocol, which the page's CSP does not govern). */
async function audit(page) {
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() => window.axe.run('#your-model', { resultTypes: ['violations'] }));
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}
