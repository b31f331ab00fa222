// "Inside a real model" (section 22) in Chromium: with no network the section draws the lab's
// exported model (served beside the page, read by Range requests); with the Hub stubbed by local
// routes (huggingface.co answered here, with CORS and Range: a public Llama-layout model built in
// this test with a byte-level BPE tokenizer.json, a gated one, a missing one, an unsupported
// architecture) the panel reads only the bytes it needs and the charts equal what Node computes
// through the same tokenizer and pe.layerAttention; the messages in both languages; axe clean.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { Tokenizer } from '@huggingface/tokenizers';
import { startBrowser, pageReady, switchLang } from './browser.js';
import { stubHub } from './fixtures/hub-stub.js';
import { layerModel, buildSafetensors } from './weights-fixtures.js';
import { loadPosenc } from '../web/lib/posenc.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const pe = await loadPosenc();

// a tiny byte-level BPE (GPT-2 layout, as SmolLM2's), ids below the model's vocabulary of 40
const TOKENS = ['t', 'h', 'e', 'Ġ', 'c', 'a', 's', 'o', 'n', 'm', 'at', 'th', 'the', 'Ġc', 'Ġcat', 'Ġthe', 'Ġs', 'Ġsat', 'Ġo', 'Ġon', 'Ġm', 'Ġmat'];
const merges = [['a', 't'], ['t', 'h'], ['th', 'e'], ['Ġ', 'c'], ['Ġc', 'at'], ['Ġ', 'the'], ['Ġ', 's'], ['Ġs', 'at'], ['Ġ', 'o'], ['Ġo', 'n'], ['Ġ', 'm'], ['Ġm', 'at']];
const TOKENIZER = {
  version: '1.0', truncation: null, padding: null, added_tokens: [], normalizer: null,
  pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
  post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
  decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
  model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, ignore_merges: false, vocab: Object.fromEntries(TOKENS.map((t, i) => [t, i])), merges },
};
const SENTENCE = 'the cat sat on the mat then the cat sat';
const model = layerModel('llama', { dtype: 'BF16', seed: 7, vocab: 4000, dims: { num_hidden_layers: 1 } });
const weights = buildSafetensors(model.tensors).bytes;
const enc = (s) => new TextEncoder().encode(s);
const FILES = {
  '/pub/tiny-llama/resolve/main/config.json': enc(JSON.stringify(model.config)),
  '/pub/tiny-llama/resolve/main/tokenizer.json': enc(JSON.stringify(TOKENIZER)),
  '/pub/tiny-llama/resolve/main/model.safetensors': weights,
  '/pub/gpt2-like/resolve/main/config.json': enc(JSON.stringify({ model_type: 'gpt2', n_embd: 48 })),
};

// one English page serves the tests in order (each page load of the whole page costs seconds)
let env, shared;
before(async () => {
  env = await startBrowser();
  shared = await open('en');
});
after(() => env?.close());

/** The page at #real-model with huggingface.co answered by local routes; log: every Hub request. */
async function open(lang) {
  const { page, problems, context } = await env.open(`?lang=${lang}#real-model`, { init: recordSpoken });
  const log = await stubHub(page, FILES);
  await pageReady(page);
  await ready(page);
  return { page, problems, context, log };
}

/**
 * In the page: every text a chart's spoken readout (mount.js's polite region) is given, with its
 * chart; and each fetch() of a file, as called and as answered, in order.
 */
function recordSpoken() {
  window.__fetches = [];
  const fetch = window.fetch;
  window.fetch = function (input, init) {
    const file = String(input instanceof Request ? input.url : input).split('/').pop();
    window.__fetches.push(`called ${file}`);
    const res = fetch.call(this, input, init);
    res.then(() => window.__fetches.push(`answered ${file}`), () => {});
    return res;
  };
  window.__spoken = [];
  new MutationObserver((changes) => {
    for (const c of changes) {
      const el = c.target.nodeType === 1 ? c.target : c.target.parentElement;
      if (el?.classList.contains('readout-spoken') && el.textContent) window.__spoken.push([el.closest('[data-chart]')?.dataset.chart, el.textContent]);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

const status = (page) => page.$eval('.real-model-panel [role="status"]', (e) => ({ text: e.textContent, error: e.classList.contains('posenc-error') }));
const data = (page, kind) => page.evaluate((k) => window.posencPage.charts.get(k).data, kind);
const readout = (page, kind) => page.$eval(`[data-chart="${kind}"] .readout`, (e) => e.textContent);
/** Waits until the panel is idle and its status matches `re`. */
async function ready(page, re = /./) {
  await page.waitForFunction((src) => {
    const s = document.querySelector('.real-model-panel [role="status"]')?.textContent ?? '';
    const busy = document.querySelector('.real-model-panel button')?.disabled;
    return !busy && new RegExp(src).test(s) && !/Reading|正在读取/.test(s);
  }, re.source, { timeout: 30000 });
}
async function load(page, id, re) {
  if (id === 'lab') await page.selectOption('.real-model-panel select', 'lab');
  else {
    await page.selectOption('.real-model-panel select', 'hub');
    await page.fill('.real-model-panel input[placeholder="owner/name"]', id);
    await page.click('.real-model-panel button');
  }
  await ready(page, re);
  await page.waitForTimeout(100); // one frame for the charts' redraw
}

test('a page load announces no readout: §22\'s charts redraw quietly when their model arrives; a reader\'s change is announced', async () => {
  const { page } = shared;
  // (mount.js speaks a readout 500 ms after the last change)
  await page.waitForTimeout(800);
  assert.deepEqual(await page.evaluate(() => window.__spoken), [], 'nothing is read out while the page loads');
  await page.selectOption('[data-chart="real-decay"] select[name="head"]', '0');
  await page.waitForFunction(() => window.__spoken.length > 0, null, { timeout: 5000 });
  await page.waitForTimeout(800);
  const spoken = await page.evaluate(() => window.__spoken.splice(0));
  assert.equal(spoken.length, 1, JSON.stringify(spoken));
  assert.equal(spoken[0][0], 'real-decay');
  assert.equal(spoken[0][1], await readout(page, 'real-decay'));
  await page.selectOption('[data-chart="real-decay"] select[name="head"]', 'all');
});

test('offline, the section draws the lab\'s exported model through its own tokenizer.json, and no request leaves the machine', async () => {
  const { page, problems, log } = shared;
  try {
    const s = await status(page);
    assert.equal(s.error, false, s.text);
    assert.match(s.text, /Showing the lab's model .*layer 0, 15 tokens/);
    // the lab's files are asked for together: its tokenizer and the weights' header do not wait
    // for its config to be answered
    const fetches = await page.evaluate(() => window.__fetches);
    for (const f of ['tokenizer.json', 'model.safetensors']) {
      assert.ok(fetches.indexOf(`called ${f}`) >= 0 && fetches.indexOf(`called ${f}`) < fetches.indexOf('answered config.json'),
        `${f} asked for before config.json was answered: ${fetches}`);
    }
    // the panel names the lab's words (its 16 symbols, [UNK] aside), and what Load of the chosen preset reads
    assert.equal(await page.$eval('.real-model-panel [role="status"] code', (e) => e.textContent), 'the, dog, bites, man, cat, sees, a, bird, and, then, back, big, small, runs, eats');
    assert.match(s.text, /any other word or punctuation mark is \[UNK\]/);
    assert.match(s.text, /reading HuggingFaceTB\/SmolLM2-135M's layer 0 .* about 0\.9 MB of its weights, plus its tokenizer file/);
    await page.selectOption('.real-model-panel select', 'Qwen/Qwen3-0.6B');
    assert.match((await status(page)).text, /Qwen\/Qwen3-0\.6B's layer 0 .* about 6\.3 MB of its weights/);
    await page.selectOption('.real-model-panel select', 'HuggingFaceTB/SmolLM2-135M');
    // the head controls offer the lab's 4 heads, and a head past them is shown as the last one
    for (const kind of ['real-decay', 'real-beyond']) {
      const sel = `[data-chart="${kind}"] select[name="head"]`;
      assert.deepEqual(await page.$$eval(`${sel} option`, (os) => os.filter((o) => !o.hidden && !o.disabled).map((o) => o.value)), ['all', '0', '1', '2', '3']);
      await page.evaluate((k) => window.posencPage.charts.get(k).set({ head: '12' }), kind);
      await page.waitForFunction((s) => document.querySelector(s).value === '3', sel);
      assert.match(await readout(page, kind), /lab, head 3/);
      await page.evaluate((k) => window.posencPage.charts.get(k).set({ head: 'all' }), kind);
      await page.waitForFunction((k) => /every head/.test(document.querySelector(`[data-chart="${k}"] .readout`).textContent), kind);
    }
    // the lab's tokenizer: 15 words of the default sentence, unknown ones as [UNK] (id 15)
    const labTok = new Tokenizer(JSON.parse(readFileSync(new URL('../web/build/lab-model/tokenizer.json', import.meta.url))), {});
    assert.deepEqual(Array.from(labTok.encode('The dog bites the man, and then the man bites the dog back.').ids), [0, 1, 2, 0, 3, 15, 8, 9, 0, 3, 2, 0, 1, 10, 15]);
    for (const kind of ['real-pair-energy', 'real-pair-norms', 'real-attention', 'real-decay', 'real-beyond']) {
      const d = await data(page, kind);
      assert.ok(d.rows.length > 0, `${kind} drew rows`);
      assert.match(await readout(page, kind), /lab/);
    }
    // the lab model: d = 8, 4 pairs; L0 = 16, so only pair 0 (T = 2π) turns in training
    assert.match(await readout(page, 'real-pair-energy'), /pairs 1–3 have Tᵢ > L₀ = 16/);
    // the numbers the prose quotes at the defaults
    assert.match(await readout(page, 'real-pair-energy'), /largest share is pair 0 \(38\.5 %\)/);
    assert.match(await readout(page, 'real-pair-norms'), /mean ‖q‖ and ‖k‖ are both largest in pair 0 \(2\.37 and 2\.03\)/);
    const norms = (await data(page, 'real-pair-norms')).rows;
    assert.equal(norms[1][2].toFixed(2), '0.98');
    assert.match(await readout(page, 'real-attention'), /h0 \(Δ = −2\) 0\.52/);
    assert.match(await readout(page, 'real-decay'), /at distance 0 the score is −0\.786.*real 0\.162/);
    // the real curve peaks at distance 2 (the offset of the lab's task)
    const decay = (await data(page, 'real-decay')).rows;
    assert.equal(decay.slice(0, 6).reduce((b, r) => (r[1] > b[1] ? r : b))[0], 2);
    assert.match(await readout(page, 'real-beyond'), /NTK-aware \(larger base\) 0\.0564, YaRN 0\.366, PI \(θᵢ ÷ s\) 1\.5;/);
    // the prose on the last chart: NTK multiplies the base by 4^(8/6) ≈ 6.35 and keeps θ_0; YaRN keeps θ_0 and
    // divides θ_1…θ_3 by s; YaRN's peaks stay at distances 2 and 8 and are taller, PI's first peak moves off 2
    const theta = (scaling) => Array.from(pe.ropeInvFreq(8, { base: 10000, scaling }));
    assert.equal((4 ** (8 / 6)).toFixed(2), '6.35');
    assert.deepEqual(theta({ type: 'ntk', factor: 4 }).map((t) => +t.toPrecision(6)), [1, 0.0629961, 0.00396850, 0.00025]);
    assert.deepEqual(theta({ type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 16 }).map((t) => +t.toPrecision(6)), [1, 0.025, 0.0025, 0.00025]);
    const beyond = (await data(page, 'real-beyond')).rows; // distance, none, pi, ntk, yarn
    const peakNear = (col, from, to) => beyond.slice(from, to + 1).reduce((b, r) => (r[col] > b[col] ? r : b))[0];
    assert.deepEqual([peakNear(1, 0, 5), peakNear(4, 0, 5), peakNear(1, 6, 10), peakNear(4, 6, 10)], [2, 2, 8, 8]);
    assert.ok(beyond[2][4] > beyond[2][1] && beyond[8][4] > beyond[8][1], 'YaRN\'s peaks are taller');
    assert.notEqual(peakNear(2, 0, 5), 2, 'PI no longer peaks at distance 2');
    // the real curve's later peaks (about every six positions) are a little lower than the first, not gone
    assert.ok(decay[8][1] < decay[2][1] && decay[8][1] > 0.75 * decay[2][1] && decay[15][1] > 0.75 * decay[2][1]);
    // the pairs the prose calls slow turn by at most (L0 − 1) θ_i within L0: 1.5, 0.15, 0.015 radians
    assert.deepEqual([1, 2, 3].map((i) => +(15 * 10000 ** (-i / 4)).toPrecision(2)), [1.5, 0.15, 0.015]);
    assert.deepEqual(log, []);
    assert.deepEqual(problems.external, []);
    assert.deepEqual(problems.pageErrors, []);
  } finally {
    await shared.page.selectOption('.real-model-panel select', 'lab');
    await ready(shared.page, /Showing the lab's model/);
  }
});

test('the what-if switch: leaving out the fast pairs of the lab model turns its positional head off; a scene link sets it', async () => {
  const { page } = shared;
  try {
    assert.match(await readout(page, 'real-attention'), /h0 \(Δ = −2\) 0\.52/);
    // the prose: leave out the fastest quarter (pair 0) and no offset keeps more than 0.15; the slowest half, 0.51
    await page.selectOption('[data-chart="real-attention"] select[name="drop"]', 'fast');
    await page.selectOption('[data-chart="real-attention"] select[name="share"]', '25');
    await page.waitForTimeout(200);
    const best = [...(await readout(page, 'real-attention')).matchAll(/h0 \(Δ = \S+\) (\d\.\d\d)/g)].map((x) => Number(x[1]));
    assert.ok(best.length === 1 && best[0] <= 0.15, String(best));
    await page.selectOption('[data-chart="real-attention"] select[name="drop"]', 'slow');
    await page.selectOption('[data-chart="real-attention"] select[name="share"]', '50');
    await page.waitForTimeout(200);
    assert.match(await readout(page, 'real-attention'), /h0 \(Δ = −2\) 0\.51,/);
    assert.match(await page.$eval('[data-chart="real-attention"] .readout .notice', (e) => e.textContent), /the only positional head \(head 0\) keeps its offset\./);
    await page.selectOption('[data-chart="real-attention"] select[name="drop"]', 'fast');
    await page.waitForTimeout(200);
    const notice = await page.$eval('[data-chart="real-attention"] .readout .notice', (e) => e.textContent);
    // one positional head: the notice speaks of it alone, not of "1 of 1 heads"
    assert.match(notice, /With the fastest pairs \(50 % of them\) left out, the only positional head \(head 0\) loses its offset\./);
    await page.selectOption('[data-chart="real-attention"] select[name="drop"]', 'none');
    await page.waitForTimeout(100);
    await page.click('#real-model details.exercise summary');
    await page.click('#real-model a.scene-link');
    await page.waitForTimeout(300);
    assert.equal(await page.$eval('[data-chart="real-attention"] select[name="drop"]', (e) => e.value), 'slow');
    // the answer's numbers: pair 0 alone keeps 0.45 of head 0's weight on Δ = −2, still its most-used offset, no
    // longer over half; pairs 2 and 3 left out keep 0.51 (the paragraph above the chart)
    assert.equal(await page.$eval('[data-chart="real-attention"] select[name="share"]', (e) => e.value), '75');
    assert.match(await readout(page, 'real-attention'), /h0 \(Δ = −2\) 0\.45,/);
    assert.match(await page.$eval('[data-chart="real-attention"] .readout .notice', (e) => e.textContent), /the only positional head \(head 0\) loses its offset\./);
  } finally {
    await shared.page.selectOption('[data-chart="real-attention"] select[name="drop"]', 'none');
    await shared.page.selectOption('[data-chart="real-attention"] select[name="share"]', '50');
    await shared.page.selectOption('.real-model-panel select', 'lab');
    await ready(shared.page, /Showing the lab's model/);
  }
});

test('no positional head on a sentence past L0: the notice names the closest head and advises a shorter sentence, which works', async () => {
  const { page } = shared;
  const notice = () => page.$eval('[data-chart="real-attention"] .readout .notice', (e) => e.textContent);
  try {
    await page.fill('.real-model-panel .real-model-sentence', 'the small cat runs and the big dog runs then a bird eats the man back again');
    await ready(page, /17 tokens/);
    await page.waitForTimeout(300);
    const n = await notice();
    assert.match(n, /the closest is head 0, with 0\.42 on Δ = −2\./);
    assert.match(n, /a shorter sentence can push it past half\. This sentence is also longer than the 16 tokens/);
    await page.fill('.real-model-panel .real-model-sentence', 'the small cat runs and the big dog runs');
    await ready(page, /9 tokens/);
    await page.waitForTimeout(300);
    assert.match(await notice(), /^Positional heads .*head 0 \(Δ = −2\)/);
  } finally {
    await page.fill('.real-model-panel .real-model-sentence', 'The dog bites the man, and then the man bites the dog back.');
    await ready(page, /15 tokens/);
  }
});

test('a public Hub model: only config, tokenizer, the header and layer 0\'s bytes are read, and the charts equal Node\'s layer 0', async () => {
  const { page, problems, log } = shared;
  try {
    await page.fill('.real-model-panel .real-model-sentence', SENTENCE);
    await page.waitForTimeout(400);
    await load(page, 'pub/tiny-llama', /Showing pub\/tiny-llama/);
    const s = await status(page);
    assert.equal(s.error, false, s.text);
    // Node: the same tokenizer, the same rows, pe.layerAttention
    const ids = Array.from(new Tokenizer(TOKENIZER, {}).encode(SENTENCE).ids);
    assert.equal(ids.length, 11); // "then" is Ġthe n
    assert.match(s.text, /11 tokens/);
    // a Hub model's heads (6 here) are what the head controls offer
    assert.deepEqual(await page.$$eval('[data-chart="real-decay"] select[name="head"] option', (os) => os.filter((o) => !o.hidden).map((o) => o.value)), ['all', '0', '1', '2', '3', '4', '5']);
    const by = model.byName, H = model.config.hidden_size;
    const x = new Float32Array(ids.length * H);
    ids.forEach((id, t) => x.set(by['model.embed_tokens.weight'].data.subarray(id * H, (id + 1) * H), t * H));
    const p = 'model.layers.0.';
    const want = pe.layerAttention({ config: model.config, x, weights: { inputNorm: by[`${p}input_layernorm.weight`].data, q: by[`${p}self_attn.q_proj.weight`].data, k: by[`${p}self_attn.k_proj.weight`].data } });
    const got = await data(page, 'real-attention');
    const T = ids.length;
    assert.equal(got.rows.length, want.heads * T * (T + 1) / 2);
    let worst = 0;
    for (const [h, m, n, w] of got.rows) worst = Math.max(worst, Math.abs(w - want.weights[(h * T + m) * T + n]));
    assert.ok(worst < 1e-6, `attention weights differ by ${worst}`);
    // the distance chart: at |Δ| = 3 the mean over every pair of tokens (m, n) of q_m · R(−3) k_n / √d, heads averaged
    const raw = pe.layerAttention({ config: model.config, x, weights: { inputNorm: by[`${p}input_layernorm.weight`].data, q: by[`${p}self_attn.q_proj.weight`].data, k: by[`${p}self_attn.k_proj.weight`].data }, positions: new Array(T).fill(0) });
    let direct = 0;
    for (let h = 0; h < 6; h++) {
      const g = Math.floor(h / 3);
      for (let m = 0; m < T; m++) for (let n = 0; n < T; n++) for (let i = 0; i < 4; i++) {
        const th = -3 * 100000 ** (-2 * i / 8), c = Math.cos(th), sn = Math.sin(th);
        const qa = raw.q[(m * 6 + h) * 8 + i], qb = raw.q[(m * 6 + h) * 8 + i + 4], ka = raw.k[(n * 2 + g) * 8 + i], kb = raw.k[(n * 2 + g) * 8 + i + 4];
        direct += (qa * (ka * c - kb * sn) + qb * (ka * sn + kb * c)) / Math.sqrt(8) / (6 * T * T);
      }
    }
    const decay = (await data(page, 'real-decay')).rows;
    assert.equal(decay[3][0], 3);
    assert.ok(Math.abs(decay[3][1] - direct) < 1e-5 * Math.max(1, Math.abs(direct)), `${decay[3][1]} vs ${direct}`);
    // bytes: never the whole file; the tensors read are layer 0's q, k, norm and the distinct rows
    const st = log.filter((e) => e.path.endsWith('model.safetensors'));
    assert.ok(st.every((e) => e.status === 206), JSON.stringify(st));
    const read = st.reduce((a, e) => a + e.bytes, 0);
    const need = ['q_proj', 'k_proj'].reduce((a, n) => a + by[`${p}self_attn.${n}.weight`].data.length * 2, 0);
    assert.ok(read < weights.length, `read ${read} of ${weights.length}`);
    assert.ok(read >= need, `read ${read}, layer 0 needs ${need}`);
    // the embedding table (4000 rows) is read only at the tokens' rows: no read spans it whole
    const emb = 4000 * H * 2;
    assert.ok(st.every((e) => e.bytes < emb), 'no read of the whole embedding table');
    // the progress bars name each download with its size
    const bars = await page.$$eval('.real-model-bar', (b) => b.map((x) => ({ text: x.textContent, max: x.querySelector('progress').max, value: x.querySelector('progress').value })));
    assert.ok(bars.some((b) => /^config\.json: .*kB/.test(b.text)), JSON.stringify(bars));
    assert.ok(bars.some((b) => /layer 0 .* (kB|MB)/.test(b.text) && b.value === b.max), JSON.stringify(bars));
    // each bar counts its own file's bytes, though the tokenizer and the header are read side by side
    const headerBar = bars.find((b) => /^model\.safetensors \(bytes read for its header\)/.test(b.text));
    assert.equal(headerBar?.value, st[0].bytes, JSON.stringify({ bars, first: st[0] }));
    // every layer's W_q and W_k (one layer here) for the energy chart
    await page.selectOption('[data-chart="real-pair-energy"] select[name="layers"]', 'all');
    await page.waitForFunction(() => /every layer|所有层/.test(document.querySelector('[data-chart="real-pair-energy"] .readout')?.textContent) && !/Reading/.test(document.querySelector('[data-chart="real-pair-energy"] .readout').textContent));
    const energy = await data(page, 'real-pair-energy');
    const eq = pe.pairEnergy(by[`${p}self_attn.q_proj.weight`].data, { heads: 6, headDim: 8, style: 'half' });
    const tot0 = eq.slice(0, 4).reduce((a, v) => a + v, 0);
    assert.ok(Math.abs(energy.rows[0][3] - eq[0] / tot0) < 1e-9);
    assert.deepEqual(problems.external, []);
    assert.deepEqual(problems.pageErrors, []);
  } finally {
    await shared.page.selectOption('.real-model-panel select', 'lab');
    await ready(shared.page, /Showing the lab's model/);
  }
});

test('files chosen from the computer (safetensors, config.json, tokenizer.json) are read in place, with no request', async () => {
  const { page, log, problems } = shared;
  const before = log.length;
  try {
    await page.fill('.real-model-panel .real-model-sentence', SENTENCE);
    await page.waitForTimeout(400);
    await page.selectOption('.real-model-panel select', 'files');
    const file = (name, bytes, mimeType) => ({ name, mimeType, buffer: Buffer.from(bytes) });
    await page.setInputFiles('.real-model-panel input[type="file"]', [
      file('model.safetensors', weights, 'application/octet-stream'),
      file('config.json', FILES['/pub/tiny-llama/resolve/main/config.json'], 'application/json'),
      file('tokenizer.json', FILES['/pub/tiny-llama/resolve/main/tokenizer.json'], 'application/json'),
    ]);
    await ready(page, /Showing model\.safetensors: layer 0, 11 tokens/);
    await page.waitForTimeout(100);
    assert.match(await readout(page, 'real-attention'), /model\.safetensors, 11 tokens, 6 heads/);
    // a file cut short: said once by its name, the charts keep the model they showed, no read left running
    await page.setInputFiles('.real-model-panel input[type="file"]', [
      file('model.safetensors', weights.subarray(0, Math.floor(weights.length / 2)), 'application/octet-stream'),
      file('config.json', FILES['/pub/tiny-llama/resolve/main/config.json'], 'application/json'),
      file('tokenizer.json', FILES['/pub/tiny-llama/resolve/main/tokenizer.json'], 'application/json'),
    ]);
    await page.waitForFunction(() => document.querySelector('.real-model-panel [role="status"]')?.textContent.startsWith('Could not read'));
    const cut = await status(page);
    assert.ok(cut.error);
    assert.match(cut.text, /^Could not read model\.safetensors: the tensors end at byte \d+.* The charts still show model\.safetensors\.$/);
    assert.equal(await page.locator('.real-model-panel progress:not([value])').count(), 0, 'no read left running');
    assert.match(await readout(page, 'real-attention'), /model\.safetensors, 11 tokens, 6 heads/);
    assert.equal(log.length, before, 'no request');
    assert.deepEqual(problems.pageErrors, []);
  } finally {
    await shared.page.selectOption('.real-model-panel select', 'lab');
    await ready(shared.page, /Showing the lab's model/);
  }
});

// The panel writes its messages in the language the page is in when it reads a model, so the
// shared page switched to Chinese shows them as a page loaded in Chinese would.
for (const lang of ['en', 'zh']) {
  test(`gated, missing, unsupported and malformed models, and no network, give clear messages and keep the charts drawn (${lang})`, async () => {
    const { page, problems } = shared;
    try {
      await switchLang(page, lang);
      const expect = lang === 'en'
        ? { gated: /gated or private \(401\)/, missing: /no config\.json on the Hub \(404\)/, unsupported: /config\.json of pub\/gpt2-like says model_type “gpt2”; this section reads the layouts of llama, mistral, qwen2, qwen3\. The charts still show the lab's model/, bad: /not a Hub model id/, offline: /The Hub cannot be reached/ }
        : { gated: /受限或私有模型（401）/, missing: /没有 config\.json（404）/, unsupported: /pub\/gpt2-like 的 config\.json 写的是 model_type “gpt2”；本节读取的结构是 llama, mistral, qwen2, qwen3。图中仍显示实验台上的模型/, bad: /不是 Hub 模型 id/, offline: /无法连接 Hub/ };
      for (const [id, re] of [['gated/model', expect.gated], ['nobody/nothing', expect.missing], ['pub/gpt2-like', expect.unsupported], ['../etc', expect.bad], ['offline/model', expect.offline]]) {
        await load(page, id, re);
        const s = await status(page);
        assert.ok(s.error, `${id}: shown as an error`);
        // the lab's model stays on the charts
        assert.ok((await data(page, 'real-attention')).rows.length > 0);
      }
      await load(page, 'lab', lang === 'en' ? /Showing the lab's model/ : /当前：实验台上的模型/);
      assert.deepEqual(problems.pageErrors, []);
    } finally {
      await switchLang(page, 'en');
      await page.selectOption('.real-model-panel select', 'lab');
      await ready(page, /Showing the lab's model/);
    }
  });
}

test('section 22 has no serious axe violation in either language', async () => {
  // (axe is injected, so this page bypasses the CSP; the page's own switch gives the other language)
  const context = await env.browser.newContext({ bypassCSP: true, viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${env.url}?lang=en#real-model`);
  await pageReady(page);
  await page.addScriptTag({ path: AXE });
  for (const lang of ['en', 'zh']) {
    await switchLang(page, lang);
    await ready(page);
    const v = await page.evaluate(() => window.axe.run('#real-model', { resultTypes: ['violations'] }));
    const bad = v.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical').map((x) => `${x.id}: ${x.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
    assert.deepEqual(bad, [], lang);
  }
  await context.close();
});
