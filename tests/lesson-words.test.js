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
