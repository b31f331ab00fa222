// practice-prose.test.js: what sections 20 to 24 and the recap say against what their charts show, in both
// languages: each number the prose or an answer quotes is read from the chart at the settings it names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedLesson, switchLang } from './browser.js';

// one English lesson serves the tests in order
const lesson = sharedLesson();

const text = (sel) => lesson.page.$eval(sel, (e) => e.textContent.replace(/\s+/g, ' '));
const readout = (kind) => lesson.page.$eval(`.chart[data-kind="${kind}"] .readout`, (e) => e.textContent);
const set = async (kind, values) => {
  await lesson.page.evaluate(([k, v]) => window.posencPage.charts.get(k).set(v), [kind, values]);
  await lesson.page.waitForTimeout(300);
};

test('§20: with random q and k the previous token gets about a fifth of the attention at seed 0, a sixth by chance', async () => {
  await set('convention-lab', { input: 'random q, k' });
  const m = /The previous token gets ([\d.]+) % of each query's attention as trained, [\d.]+ % converted and ([\d.]+) % with the wrong pairing/.exec(await readout('convention-lab'));
  const [trained, wrong] = [Number(m[1]), Number(m[2])];
  for (const v of [trained, wrong]) assert.ok(v > 17 && v < 23.5, String(v));
  assert.ok(wrong > trained, 'slightly more with the wrong pairing');
  assert.match(await text('#conventions p[lang="en"] ~ details .answer p[lang="en"]'), /at this seed the previous token gets about a fifth/);
  // the fifth is seed 0's: other seeds spread from about 6 % to 25 % around chance's sixth
  const shares = [];
  for (let seed = 0; seed < 8; seed++) {
    await set('convention-lab', { seed });
    shares.push(Number(/The previous token gets ([\d.]+) % of each query's attention as trained/.exec(await readout('convention-lab'))[1]));
  }
  assert.ok(Math.min(...shares) > 5 && Math.min(...shares) < 7.5 && Math.max(...shares) > 23 && Math.max(...shares) < 26, String(shares));
  const mean = shares.reduce((a, x) => a + x, 0) / shares.length;
  assert.ok(Math.abs(mean - 100 / 6) < 3, String(mean));
  assert.match(await text('#conventions p[lang="en"] ~ details .answer p[lang="en"]'), /other seeds give from about 6 % to 25 %/);
  await lesson.page.evaluate(() => window.posencPage.charts.get('convention-lab').reset());
});

test('the transformers library is named as one where a sentence could read it as the architecture', async () => {
  assert.match(await text('#scaling p.skip[lang="en"]'), /Hugging Face's transformers library/);
  assert.match(await text('#scaling p.skip[lang="zh-CN"]'), /Hugging Face 的 transformers 库/);
  const en = await text('#conventions');
  assert.doesNotMatch(en, /In transformers,/);
  assert.match(en, /In the transformers library, Llama 1 to 3/);
  assert.doesNotMatch(await text('#your-model'), /\. transformers v5 gathers/);
});

test('§21: Llama 4 Scout: the full-attention layers have no RoPE and scale their queries as the answer says; the recap says so too', async () => {
  await set('model-positions', { model: 'llama-4-scout' });
  const r = await readout('model-positions');
  assert.match(r, /chunked_attention \(36 layers\)/);
  assert.match(r, /full_attention \(12 layers\): no position encoding; queries scaled by 1\.069 at position 8191, 1\.481 at 10⁶/);
  const answer = await text('#your-model details.exercise .answer p[lang="en"]');
  assert.match(answer, /whole context \(full_attention, 12 of its 48\) have no RoPE/);
  assert.match(answer, /1 up to position 8190, 1\.069 at 8191, 1\.481 at 10⁶/);
  // the question does not ask what the sentence before it says
  assert.doesNotMatch(await text('#your-model details.exercise summary'), /Which of its layers have no RoPE/);
  assert.match(await text('#recap tr:last-child td:last-child'), /query temperature that grows with position/);
  await lesson.page.evaluate(() => window.posencPage.charts.get('model-positions').reset());
});

test('§21: Phi-3.5 mini\'s LongRoPE misread first shows at distance 4095, a sequence of exactly L0 tokens', async () => {
  await set('model-misreads', { model: 'phi-3.5-mini' });
  assert.match(await readout('model-misreads'), /long factors from L₀, not L₀ \+ 1.*first past 1% at distance 4095\./);
  const p = await lesson.page.$eval('#your-model', (s) => [...s.querySelectorAll('p[lang="en"]')].find((e) => e.textContent.includes('Pick Phi-3.5 mini')).textContent.replace(/\s+/g, ' '));
  // the misread is one of the sequence's length, which the chart's distance only stands for
  assert.match(p, /depends on the sequence's length, not on the distance/);
  assert.match(p, /distance m stands for a sequence of m \+ 1 tokens, and 4095 is the first of exactly 4096/);
  await lesson.page.evaluate(() => window.posencPage.charts.get('model-misreads').reset());
  // the default chart stops at the config's context, which the prose says is L0
  assert.match(await readout('model-misreads'), /distances from 1 to 32768\./);
  assert.match(p, /the chart runs to the context its config names, 32768, which is also its L₀/);
  // the exercise's answer: past L0 transformers takes the long factors too, so without -c the two agree
  await set('runtime-compare', { model: 'phi-3.5-mini', file: 'converted', position: 5000 });
  assert.match(await readout('runtime-compare'), /The angles agree; read the finding below\..*Layer type full_attention: all 48 pairs agree\./);
  // and the finding is the prompt within L0, which still differs
  assert.match(await lesson.page.$eval('[data-chart="runtime-compare"]', (c) => c.textContent), /a prompt of at most 4096 tokens \(the rows above assume 5001\)/i);
  await set('runtime-compare', { position: 1000 });
  assert.match(await readout('runtime-compare'), /the score error first passes 1 % of \|q\|·\|k\| at distance 3\./);
  await lesson.page.evaluate(() => window.posencPage.charts.get('runtime-compare').reset());
});

test('§22: the exercise keeps pair 0 alone: head 0 keeps 0.45 on Δ = −2, not given in the paragraph above', async () => {
  await set('real-attention', { drop: 'slow', share: '75' });
  assert.match(await readout('real-attention'), /h0 \(Δ = −2\) 0\.45,/);
  assert.ok(!/0\.45/.test(await lesson.page.$eval('#real-model', (s) => [...s.querySelectorAll(':scope > p[lang="en"]')].map((p) => p.textContent).join(' '))), 'the prose above the exercise does not give its answer');
  assert.match(await text('#real-model details.exercise .answer p[lang="en"]'), /0\.45, against 0\.52/);
  await lesson.page.evaluate(() => window.posencPage.charts.get('real-attention').reset());
});

test('§22: the prose gives YaRN\'s reason for keeping pair 0 and does not lean on section 23 for it', async () => {
  const en = await text('#real-model');
  assert.doesNotMatch(en, /section 23 says why/);
  assert.match(en, /the YaRN paper ramps linearly in the number of turns, by which pair 0, turning only about 2\.5 times within L₀, would be mostly divided/);
  assert.match(en, /ramps linearly in the pair index instead, with the ramp's two ends rounded outward to whole pairs, here pairs 0 and 1, so pair 0 sits at the kept end/);
  assert.match(en, /applied only when the model is run and not in training/);
});

test('§24: xPos halves pair 0 at about 283 places, whatever d; the learned table\'s baseline says whom it counts', async () => {
  await set('xpos-scale', { dim: 8, maxDist: 283 });
  assert.match(await readout('xpos-scale'), /at distance 283 pair 0's part of the score is scaled by 0\.5 and the slowest pair's by 0\.897/);
  assert.match(await text('#other-encodings details.exercise:nth-of-type(2) .answer p[lang="en"]'), /About 283 places back/);
  await lesson.page.evaluate(() => window.posencPage.charts.get('xpos-scale').reset());
  await set('lab-order', { encoding: 'rope' });
  // the answer says "about a fortieth of their norm"
  const first = Number(/after the first layer the stream moved by ([\d.]+) of its norm at most/.exec(await readout('lab-order'))[1]);
  assert.ok(1 / first > 35 && 1 / first < 48, String(first));
  assert.match(await text('#other-encodings details.exercise:nth-of-type(3) .answer p[lang="en"]'), /about a fortieth of their norm/);
  await lesson.page.evaluate(() => window.posencPage.charts.get('lab-order').reset());
  assert.match(await readout('lab-order'), /after the first layer the stream moved by 1\.4e-7 of its norm at most/);
  assert.doesNotMatch(await text('#other-encodings'), /with any other encoding, the first layer already differs/);
  assert.match(await readout('lab-learned'), /for comparison, the largest cosine of a random 32-dimensional vector with 16 other random ones, one per reached row, is 0\.\d+ on average\./);
  assert.match(await text('#other-encodings'), /Source post 2 \(“Why does a transformer need a position encoding\?”/);
});

test('Chinese: the same terms and quotes', async () => {
  await switchLang(lesson.page, 'zh');
  await lesson.page.waitForFunction(() => /随机向量/.test(document.querySelector('.chart[data-kind="lab-learned"] .readout')?.textContent));
  const zh = await lesson.page.$eval('#real-model', (s) => s.textContent);
  assert.doesNotMatch(zh, /假设实验|消融（反事实）|旋转偏移特征/);
  assert.match(zh, /消融实验/);
  assert.match(zh, /rotary offset features/);
  assert.match(await readout('lab-learned'), /一个随机的 32 维向量与 16 个随机向量（每个到达过的行一个）的最大余弦平均为 0\.\d+。/);
  assert.match(await lesson.page.$eval('#recap', (s) => s.textContent), /LongChat（代码中称 condensed rotary）/);
  assert.match(await lesson.page.$eval('#other-encodings', (s) => s.textContent), /《鹅厂面试官：Transformer为何需要位置编码？》/);
  await switchLang(lesson.page, 'en');
});
