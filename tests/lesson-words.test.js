// lesson-words.test.js: the lesson's words at the places they must be exact: section 7's exercises set the
// chart before the answer and say which chart, the skip in section 13 is a link, the scaling table's
// ramps say between what, the contents names section 24 as it is titled, each thing is defined
// once; and the charts' own words and labels: "position 4" alone, one rounding for the gaps,
// 2π·base whole, the random-decay chart's length control, labels kept apart at pair 10 and at θ = 180°.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startBrowser } from './browser.js';

const html = readFileSync(new URL('../web/index.html', import.meta.url), 'utf8');
const text = (s) => s.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');

/** The exercises of one section: { summary, href, answer } with the English texts. */
function exercises(id) {
  const section = html.match(new RegExp(`<section id="${id}"[\\s\\S]*?</section>`))[0];
  return [...section.matchAll(/<details class="exercise">([\s\S]*?)<\/details>\s*<\/details>/g)].map(([, body]) => ({
    summary: text(body.match(/<summary><span lang="en">([\s\S]*?)<\/span>/)[1]),
    summaryZh: text(body.match(/<span lang="zh-CN">([\s\S]*?)<\/span><\/summary>/)[1]),
    href: body.match(/class="scene-link" href="([^"]*)"/)[1].replace(/&amp;/g, '&'),
    answer: text(body.match(/<p lang="en">([\s\S]*?)<\/p>/)[1]),
    answerZh: text(body.match(/<p lang="zh-CN">([\s\S]*?)<\/p>/)[1]),
  }));
}

test('section 7: the first link leaves the position to step, the second names the circle and shows the answer', () => {
  const [first, second] = exercises('circle');
  const set = new URLSearchParams(first.href.split('#')[0]);
  assert.match(first.answer, /^Position 6:/);
  assert.ok(Number(set.get('unit-circle.position')) < 2, `the link sets the position the reader steps from, not the answer: ${first.href}`);
  assert.match(second.summary, /circle chart/);
  assert.match(second.summary, /Settings/);
  assert.match(second.summaryZh, /单位圆/);
  assert.match(second.href, /unit-circle\.pair=10/);
  // the answer is computed from the readout's θ and seen at a position the reader types
  for (const a of [second.answer, second.answerZh]) {
    assert.match(a, /0\.05623/);
    assert.match(a, /111\.7/);
    assert.match(a, /112/);
  }
});

test('section 13: "The proof does not show" is a link, in each language to its own paragraph', () => {
  for (const [lang, id] of [['en', 'bound-behaviour'], ['zh-CN', 'bound-behaviour-zh']]) {
    const skip = [...html.matchAll(new RegExp(`<p class="skip" lang="${lang}">([\\s\\S]*?)</p>`, 'g'))].map((m) => m[1]).find((p) => /RoFormer/.test(p));
    assert.ok(skip.includes(`<a href="#${id}">`), `${lang}: ${skip}`);
    assert.match(html, new RegExp(`<p lang="${lang}" id="${id}">`));
  }
});

test('section 16: the YaRN and llama3 ramps say between what and from what to what', () => {
  const rows = [...html.matchAll(/<tr><th scope="row">(YaRN|llama3)<\/th><td>([\s\S]*?)<\/td>/g)];
  assert.equal(rows.length, 4);
  for (const [, name, cell] of rows) {
    const t = text(cell);
    assert.doesNotMatch(t, /between$/, `${name}: ${t}`);
    assert.ok(/between the two (thresholds|limits), .* from divided by s to kept$/.test(t) || /介于两个(阈值|界限)之间的.*从除以 s 过渡到不变$/.test(t), `${name}: ${t}`);
  }
});

test('contents: section 24 as titled, and head and Vaswani\'s unnamed frequency each told once', () => {
  const title = text(html.match(/<section id="other-encodings">\s*<h2>([\s\S]*?)<\/h2>/)[1]);
  const entry = text(html.match(/<li><a href="#other-encodings">([\s\S]*?)<\/a><\/li>/)[1]);
  assert.equal(entry, title.replace(/24\. /g, ''));
  const en = text(html.replace(/<[^>]+lang="zh-CN"[^>]*>[\s\S]*?<\/(p|span|li|dd|ol|dl)>/g, ''));
  assert.equal(html.match(/<dfn>head<\/dfn>/g).length, 1);
  assert.equal(html.match(/<dfn>注意力头<\/dfn>|<dfn>头<\/dfn>/g).length, 1);
  assert.equal(en.match(/Vaswani et al\. write the formula out/g).length, 1);
  assert.equal(html.match(/没有给(频率|它)起名/g).length, 1);
});

let b;
/** A section's own text before its first exercise, tags dropped. */
const prose = (id, lang) => {
  const section = html.match(new RegExp(`<section id="${id}"[\\s\\S]*?</section>`))[0].split('<details class="exercise">')[0];
  return text([...section.matchAll(new RegExp(`<(?:p|li|dd)[^>]*lang="${lang}"[^>]*>([\\s\\S]*?)</(?:p|li|dd)>`, 'g'))].map((m) => m[1]).join(' '));
};

test('section 13: the log-axis answer counts the pairs that drop out by index, as θ_i = base^(−2i/d) gives them at d = 256', () => {
  const theta = Array.from({ length: 128 }, (_, i) => 10000 ** (-i / 128));
  const inStep = (x) => theta.filter((t) => x * t <= 1 + 1e-12).length;
  const g = (x) => Math.round(theta.reduce((a, t) => a + 2 * Math.cos(x * t), 0));
  assert.deepEqual([10, 100, 1000].map(inStep), [96, 64, 32]);
  const log = exercises('decay').find((e) => /log axis/.test(e.summary));
  for (const a of [log.answer, log.answerZh]) {
    for (const n of ['0–31', '32–95', '96–127', String(g(10)), String(g(100)), String(g(1000))]) assert.ok(a.includes(n), `${n} in: ${a}`);
  }
  assert.match(log.answer, /^Pairs 0–31, the 32 fastest\./);
  assert.match(log.answerZh, /^第 0–31 对，即最快的 32 对。/);
});

test('sections 13 and 16: the text before an exercise does not answer it', () => {
  const [en13, zh13] = [prose('decay', 'en'), prose('decay', 'zh-CN')];
  // the log-axis exercise asks how much a tenfold distance removes
  assert.doesNotMatch(en13, /tenfold/);
  assert.doesNotMatch(zh13, /十倍/);
  // the text says the average of independent q and k; the exercise asks about one draw
  assert.match(en13, /drawn independently with mean zero, the expected score is 0/);
  const independent = exercises('decay').find((e) => /independent/.test(e.summary));
  assert.match(independent.summary, /one draw/);
  assert.match(independent.summaryZh, /单独抽取一次/);
  // section 16's s = 1 exercise: the text does not give the factor at s = 1
  const s1 = exercises('scaling').find((e) => /s to 1/.test(e.summary));
  assert.ok(s1);
  for (const t of [prose('scaling', 'en'), prose('scaling', 'zh-CN')]) {
    assert.doesNotMatch(t, /s = 1/);
    assert.doesNotMatch(t, /exercise below|下面的练习/);
  }
});

test('section 13 says what T_max and geometric frequencies are where it uses them; section 16 names llama3\'s limits in a sentence', () => {
  const tmax = '<math><msub><mi>T</mi><mi>max</mi></msub><mo>=</mo><mn>2</mn><mi>π</mi><mo>/</mo><msub><mi>θ</mi><mi>min</mi></msub></math>';
  const decay = html.match(/<section id="decay"[\s\S]*?<\/section>/)[0];
  for (const lang of ['en', 'zh-CN']) {
    const paras = [...decay.matchAll(new RegExp(`<p lang="${lang}">([\\s\\S]*?)</p>`, 'g'))].map((m) => m[1]);
    const first = paras.findIndex((p) => p.includes('<mi>max</mi>'));
    assert.ok(paras[first].includes(tmax), `${lang}: the first T_max in §13 is defined there`);
  }
  assert.match(prose('decay', 'en'), /geometric frequencies, each pair’s θi a fixed ratio of the one before/);
  assert.match(prose('decay', 'zh-CN'), /按等比数列排列的频率（每个维度对的 θi 都是前一对的固定倍数）/);
  assert.match(prose('scaling', 'en'), /llama3 divides L₀ by its high_freq_factor and by its low_freq_factor \(4 and 1 in Llama 3\.1\) to get two wavelength limits\./);
  assert.match(prose('scaling', 'zh-CN'), /llama3 用 L₀ 分别除以 high_freq_factor 和 low_freq_factor（Llama 3\.1 取 4 和 1），得到两个波长界限。/);
});

test('primer: its example sentence is section 1\'s chart\'s, with the chart\'s number of tokens; it says what a pair is and which d', () => {
  const order = readFileSync(new URL('../web/charts/order.js', import.meta.url), 'utf8');
  const [en, zh] = [...order.matchAll(/title: '[^“]*“([^”]+)”/g)].map((m) => m[1]);
  const primerHtml = html.match(/<section id="primer"[\s\S]*?<\/section>/)[0];
  const primer = (lang) => prose('primer', lang) + text([...primerHtml.matchAll(new RegExp(`<[uo]l lang="${lang}">([\\s\\S]*?)</[uo]l>`, 'g'))].map((m) => m[1]).join(' '));
  assert.equal(en.split(' ').length, 4);
  assert.equal(zh.split(' ').length, 4);
  assert.ok(primer('en').includes(`“${en}” is four tokens`), en);
  assert.ok(primer('zh-CN').includes(`“${zh}”算作四个 token`), zh);
  assert.match(primer('en'), /here d is the head dim; in section 3’s sinusoidal PE, d is dmodel\) two at a time: pair i is dimensions/);
  assert.match(primer('zh-CN'), /这里 d 是头维度；第 3 节的正弦位置编码里 d 是 dmodel）：第 i 个维度对由第 2i、2i\+1 维组成/);
});

test('Chinese wording: one word for a learned table or matrix, decoder-only named, the lesson\'s term in the guide', () => {
  const guide = readFileSync(new URL('../web/teaching.html', import.meta.url), 'utf8');
  for (const page of [html, guide]) {
    for (const w of ['仅解码器', '训练出来', '被编码的向量', '用手指点按', '依次错开']) assert.ok(!page.includes(w), w);
  }
  assert.match(html, /纯解码器（decoder-only）/);
  assert.match(prose('primer', 'zh-CN'), /一张可学习的表/);
  assert.match(html, /一个注意力头的三个可学习的矩阵/);
  assert.match(html, /<dd>所编码向量的维数：/);
  assert.match(guide, /依次失去同步/);
});

test('2π·base is 62832 wherever the lesson and the guide give it, as the wavelength readout does', () => {
  const guide = readFileSync(new URL('../web/teaching.html', import.meta.url), 'utf8');
  assert.equal(Math.round(2 * Math.PI * 10000), 62832);
  for (const page of [html, guide]) assert.ok(!page.includes('62830'));
  const d64 = exercises('frequencies').find((e) => /64/.test(e.summary));
  assert.ok(d64 && d64.answer.includes('62832') && d64.answerZh.includes('62832'), 'the d_model = 64 answer');
  assert.equal(guide.match(/62832/g).length, 2);
});

before(async () => {
  b = await startBrowser();
});
after(async () => {
  await b?.close();
});

/** Opens one chart in embed.html and returns what `read` computes from its host. */
async function chart(page, query, read, lang = 'en') {
  await page.goto(`${b.url}embed.html?${query}&lang=${lang}`);
  await page.waitForFunction(() => window.posencEmbed?.host?.data);
  return page.evaluate(read);
}

test('charts: their readouts and controls where the learner read them', async () => {
  const context = await b.browser.newContext({ viewport: { width: 360, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const readout = () => window.posencEmbed.host.view.readout;

  // binary: one lifted position is "position 4", several are "positions 4–7"
  assert.match(await chart(page, 'chart=binary', readout), /bit 2 lifts position 4 off the xy plane, to \(0, 0, 1\)/);
  assert.match(await chart(page, 'chart=binary', readout, 'zh'), /第 2 位把位置 4 抬离 xy 平面，抬到 \(0, 0, 1\)/);
  assert.match(await chart(page, 'chart=binary&length=8', readout), /lifts positions 4–7 off/);

  // three frequencies: every gap to three decimals, as the vectors are
  const gaps = (await chart(page, 'chart=three-frequencies', readout)).match(/differ by (.*)\.$/)[1].split(', ');
  assert.deepEqual(gaps, ['0.080', '0.518', '0.060']);

  // wavelengths: 2π·10000 written whole
  assert.match(await chart(page, 'chart=wavelengths', readout), /2π·base = 62832\./);

  // the random-decay chart's length control reads as a count of distances
  const label = await chart(page, 'chart=rope-decay-random', () => document.querySelector('input[name="length"]').closest('.control, label, div').textContent);
  assert.match(label, /number of distances/);
  assert.doesNotMatch(label, /\+ 1/);

  await context.close();
});

test('labels: apart at pair 10 on the unit circle, off the axis numbers at θ = 180° in 2D RoPE', async () => {
  const context = await b.browser.newContext({ viewport: { width: 360, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  // unit circle at pair 10: seven close dots, every label clear of the others by 5 px, the crowded ones left out
  const circle = await chart(page, 'chart=unit-circle&pair=10', () => window.posencEmbed.host.view.drawnLabels);
  assert.ok(circle.labels.length >= 4 && circle.labels[0].text === "pos 7", circle.labels.map((l) => l.text).join(" "));
  for (const [i, a] of circle.labels.entries()) {
    for (const c of circle.labels.slice(i + 1)) {
      const apart = Math.max(a.left - c.right, c.left - a.right, a.top - c.bottom, c.top - a.bottom);
      assert.ok(apart >= 5, `"${a.text}" and "${c.text}" ${apart.toFixed(1)} px apart`);
    }
  }

  // RoPE in 2D at θ = 180°: q@1's label off the y axis's numbers, inside the canvas
  const drawn = await chart(page, 'chart=rope-2d&theta=180', () => window.posencEmbed.host.view.drawnLabels);
  assert.ok(drawn.some((l) => l.text === 'q@1'));
  for (const l of drawn) assert.ok(l.left >= l.area.left && l.bottom <= l.area.bottom, `"${l.text}" at ${JSON.stringify(l)}`);
  await context.close();
});

test('sections 5, 6, 9 and 12: the words a reader stumbled on', () => {
  const sec = (id) => html.match(new RegExp(`<section id="${id}"[\\s\\S]*?</section>`))[0];
  // §5: one Chinese word for tapping a cell, the exact-table chart's 点按
  assert.doesNotMatch(sec('exact'), /轻触/);
  assert.match(sec('exact'), /点按某个单元格或用键盘选中它/);
  // §6: the 64 positions the answer counts in are part of the instruction, in both languages
  const [, faster] = exercises('curves');
  assert.match(faster.href, /frequency-curves\.length=64/);
  assert.match(faster.summary, /set d_model = 512, and show only 64 positions/);
  assert.match(faster.summaryZh, /并把位置数减到 64/);
  assert.doesNotMatch(faster.summary, /the link/);
  // §9: one word vector with one position vector, not a "pair"; the split is by a linear map; the Table holds 29.2
  const adding = text(sec('adding'));
  assert.match(adding, /the angle between a single word vector and a single position vector does not answer/);
  assert.match(adding, /exactly by a linear map only when/);
  assert.match(adding, /用线性映射精确地拆回/);
  const [, four] = exercises('adding');
  assert.match(four.answer, /29\.2 .*the chart’s Table lists each term/);
  assert.match(four.answerZh, /29\.2.*“数据表”/);
  // §12: which models the slower pairs hold for, what "over" means, who LLaMA is, one name for T_i
  const periods = text(sec('rope-periods'));
  assert.match(periods, /in a model with several heads, where the head dim is smaller than d_model, every pair after pair 0/);
  assert.match(periods, /在有多个头的模型里（头维度小于 d_model）/);
  const g = (D) => 2 * Array.from({ length: 128 }, (_, i) => Math.cos(D * 10000 ** (-2 * i / 256))).reduce((a, b) => a + b);
  assert.ok(g(2652) > 0 && g(2653) < 0, 'section 13: g first turns negative at 2653');
  assert.match(periods, /falls from 256 at distance 0 to 0 at Δ = 2653/);
  assert.match(periods, /降到 Δ = 2653 处的 0/);
  assert.match(periods, /LLaMA \(Meta’s family of open models\)/);
  assert.match(periods, /LLaMA（Meta 的开源模型系列）/);
  assert.doesNotMatch(periods, /page's usual 128|全文常用的 128/);
  assert.match(periods, /its period \(section 3’s wavelength\)/);
  assert.match(periods, /它的周期（第 3 节的波长）/);
});
