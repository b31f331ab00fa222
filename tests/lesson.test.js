// lesson.test.js: the page as a lesson, in both languages: a primer with its pipeline diagram
// before section 1, one notation box, a "you are here" strip on every numbered section, every
// formula of the prose as MathML that Chromium lays out (a box of non-zero size), the same
// formulas in the English and the Chinese text, the sources named and linked, no calques
// in the Chinese text, RoFormer's bound drawn as a bound, lines named by the pattern their chart
// draws, §13's notation and exercise complete, and a pasted config drawn unlike every method.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startBrowser, pageReady } from './browser.js';

const HTML = readFileSync(new URL('../web/index.html', import.meta.url), 'utf8');
let b;
const pages = {};

before(async () => {
  b = await startBrowser();
  for (const lang of ['en', 'zh']) {
    const p = await b.open(`?lang=${lang}`);
    await pageReady(p.page);
    pages[lang] = p;
  }
});
after(() => b?.close());

test('formulas in the prose are MathML, not ASCII with ^ and _ in code', () => {
  const prose = HTML.replace(/<script[\s\S]*?<\/script>/g, '');
  const maths = prose.match(/<math[\s>]/g) ?? [];
  assert.ok(maths.length >= 150, `only ${maths.length} formulas are MathML`);
  // <code> holds code identifiers only: a sub- or superscript inside one is an ASCII formula
  const ascii = [...prose.matchAll(/<code>([^<]*)<\/code>/g)].map((m) => m[1]).filter((c) => /[\^]|_\{|_\(|Σ|√/.test(c));
  assert.deepEqual(ascii, [], 'ASCII formulas in <code>');
});

for (const lang of ['en', 'zh']) {
  test(`${lang}: every formula the reader sees is laid out with a non-zero box`, async () => {
    const { page } = pages[lang];
    const { shown, empty } = await page.evaluate(() => {
      const all = [...document.querySelectorAll('main math')].filter((m) => m.checkVisibility());
      return {
        shown: all.length,
        empty: all.filter((m) => {
          const r = m.getBoundingClientRect();
          return !(r.width > 0 && r.height > 0);
        }).map((m) => `${m.closest('section')?.id}: ${m.textContent}`),
      };
    });
    assert.ok(shown >= 75, `${lang}: only ${shown} visible formulas`);
    assert.deepEqual(empty, [], 'formulas with an empty box');
  });

  test(`${lang}: the primer, the notation box and a stage strip on every numbered section`, async () => {
    const { page, problems } = pages[lang];
    const r = await page.evaluate(() => {
      const sections = [...document.querySelectorAll('main > section')];
      const numbered = sections.filter((s) => /^\d+\./.test(s.querySelector('h2').textContent.trim()));
      return {
        first: sections.slice(0, 2).map((s) => s.id),
        last: sections.at(-1).id,
        numbered: numbered.length,
        stages: [...document.querySelectorAll('svg.pipeline .stage')].map((g) => g.dataset.stage),
        svgBox: document.querySelector('svg.pipeline').getBoundingClientRect().width,
        withoutStrip: numbered.filter((s) => !s.querySelector(':scope > .here li[aria-current="step"]')).map((s) => s.id),
        stripLabels: [...document.querySelector('#decay .here').querySelectorAll('li')].map((li) => li.textContent),
        dashed: [...document.querySelectorAll('#decay .here li')].map((li) => getComputedStyle(li).borderTopStyle),
      };
    });
    assert.deepEqual(r.first, ['primer', 'notation']);
    assert.equal(r.last, 'sources');
    assert.equal(r.numbered, 24);
    assert.deepEqual(r.stages, ['embed', 'pe', 'qkv', 'rope', 'score', 'softmax']);
    assert.ok(r.svgBox > 300, 'the pipeline diagram is drawn');
    assert.deepEqual(r.withoutStrip, [], 'sections without a "you are here" strip');
    assert.equal(r.stripLabels.length, 6);
    assert.equal(/[\u4e00-\u9fff]/.test(r.stripLabels.join('')), lang === 'zh', 'the strip speaks the page language');
    // a model takes position in by PE or by RoPE, not both: the strip says so and dashes those two
    const [either, or] = lang === 'zh' ? [/^要么 x \+ /, /^要么 RoPE/] : [/^either x \+ PE$/, /^or RoPE turns q, k$/];
    assert.match(r.stripLabels[1], either);
    assert.match(r.stripLabels[3], or);
    assert.deepEqual(r.dashed, ['solid', 'dashed', 'solid', 'dashed', 'solid', 'solid']);
    assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
  });
}

test('each section has the same formulas in English and in Chinese', async () => {
  const { page } = pages.en;
  const diff = await page.evaluate(() => {
    const out = [];
    for (const s of document.querySelectorAll('main > section')) {
      const count = (l) => [...s.querySelectorAll(`:scope [lang="${l}"] math`)].map((m) => m.textContent.replace(/\s+/g, '')).sort();
      const en = count('en'), zh = count('zh-CN');
      if (JSON.stringify(en) !== JSON.stringify(zh)) out.push({ id: s.id, en: en.filter((x) => !zh.includes(x)), zh: zh.filter((x) => !en.includes(x)) });
    }
    return out;
  });
  assert.deepEqual(diff, [], 'formulas in one language only');
});

test('every English paragraph, list and heading of the prose has its Chinese sibling', () => {
  // index.html writes its prose twice: an element with lang="en" is followed by one with lang="zh-CN"
  // (either may come first, as in a title quoted in its own language before its translation)
  const tags = [...HTML.matchAll(/<(p|ol|ul|dl|span)\b[^>]*\blang="(en|zh-CN)"/g)].map((m) => [m[1], m[2]]);
  const pending = [];
  for (const [tag, lang] of tags) {
    const j = pending.findIndex(([t, l]) => t === tag && l !== lang);
    if (j === 0) pending.shift();
    else pending.unshift([tag, lang]);
  }
  assert.deepEqual(pending, [], 'English elements without a Chinese sibling');
});

test('the sources are named and linked: the five posts, the papers and the reference code', async () => {
  const { page } = pages.en;
  const r = await page.evaluate(() => ({
    posts: document.querySelectorAll('#sources .posts li[id^="source-"]').length,
    links: [...document.querySelectorAll('#sources a[href^="https://"]')].map((a) => a.href),
    toPosts: document.querySelectorAll('main a[href^="#source-"], main a[href="#sources"], header a[href="#sources"]').length,
  }));
  assert.equal(r.posts, 5);
  for (const id of ['1706.03762', '2104.09864', '2306.15595', '2309.00071', '2108.12409', '1910.10683', '2212.10554',
    '2305.19466', '2305.16843', '2410.06205', '2402.13753']) {
    assert.ok(r.links.some((u) => u.endsWith(`arxiv.org/abs/${id}`)), `arXiv ${id} is not linked`);
  }
  assert.ok(r.links.some((u) => u.endsWith('modeling_rope_utils.py')), 'HF modeling_rope_utils.py');
  assert.ok(r.links.some((u) => /ggml-org\/llama\.cpp/.test(u)), 'ggml rope');
  assert.ok(r.toPosts >= 3, 'the prose points at the source posts');
});

test('zh: no calques (帖子, 读数, 两头) in the text or the charts, RoPE named 旋转位置编码', async () => {
  const { page } = pages.zh;
  const text = await page.evaluate(() => {
    // innerText is layout's text: every section is laid out, also those out of view
    // (content-visibility), and every folded answer is opened (then folded again)
    for (const s of document.querySelectorAll('main > section')) s.style.contentVisibility = 'visible';
    const folded = [...document.querySelectorAll('details:not([open])')];
    for (const d of folded) d.open = true;
    const all = document.body.innerText;
    for (const d of folded) d.open = false;
    return all;
  });
  for (const w of ['帖子', '读数', '两头']) assert.ok(!text.includes(w), `“${w}” on the Chinese page`);
  assert.match(text, /旋转位置编码（RoPE[）；，]/);
  // ASCII commas and colons between Chinese characters glue clauses (10000,64)
  const glued = text.match(/[\u4e00-\u9fff][,:;][\u4e00-\u9fff\d]|\d,[\u4e00-\u9fff]/g) ?? [];
  assert.deepEqual(glued, [], 'half-width punctuation between Chinese clauses');
});

test('zh: the prose and the guide keep one term for each idea, as the charts do', () => {
  const GUIDE = readFileSync(new URL('../web/teaching.html', import.meta.url), 'utf8');
  for (const [name, src] of [['index.html', HTML], ['teaching.html', GUIDE]]) {
    // 快对/慢对 clip 维度对; 瞎猜 is slang; 打分 is 计算得分; scaling applied only when the model runs is 推理时
    for (const w of ['快对', '慢对', '瞎猜', '打分', '评估时', '单位映射', '几何级数', '可学习位置编码', '用在哪里']) {
      assert.ok(!src.includes(w), `“${w}” in ${name}`);
    }
    // Chinese cites sections as 第 n 节; a § inside Chinese text or heading a Chinese table reads as a calque
    const zh = [...src.matchAll(/<(\w+)[^>]*\blang="zh-CN"[^>]*>([\s\S]*?)<\/\1>/g)].map((m) => m[2]).join('\n');
    assert.deepEqual(zh.match(/.{0,12}(§|128k|\d \d{3} \d{3}).{0,12}/g) ?? [], [], `${name}: § or a spaced or lower-case number in Chinese text`);
    // an expected answer says yes or no and then why: one colon, not two chained
    assert.deepEqual(src.match(/参考答案：<\/i>[^。！？<]*：/g) ?? [], [], `${name}: chained colons in an expected answer`);
  }
  // T5's groups of distances are 桶, named once in the primer before any section uses the word
  const primer = HTML.split('<section id="primer"')[1].split('</section>')[0];
  assert.match(primer, /每组称为一个桶/);
});

test('zh: no space after full-width punctuation in the prose, the readouts or the teacher\'s guide (a line break in the source would show as one)', async () => {
  const gaps = async (page) => page.evaluate(() => {
    for (const s of document.querySelectorAll('main > section')) s.style.contentVisibility = 'visible';
    const folded = [...document.querySelectorAll('details:not([open])')];
    for (const d of folded) d.open = true;
    // the prose and the charts' readouts, notes and tables
    const text = [...document.querySelectorAll('main p, main li, main td, main th, main dd, main summary, main aside, main h2, main h3')]
      .map((e) => e.innerText).join('\n');
    for (const d of folded) d.open = false;
    return text.match(/.{0,8}[，。、；：？！）》] .{0,8}/g) ?? [];
  });
  assert.deepEqual(await gaps(pages.zh.page), [], 'index.html');
  const guide = await b.open('teaching.html?lang=zh');
  assert.deepEqual(await gaps(guide.page), [], 'teaching.html');
});

test('rope-decay: the data carries RoFormer\'s bound on |g|, above |g| at every distance drawn', async () => {
  const { page } = pages.en;
  const set = async (values) => page.evaluate(async (v) => {
    const host = window.posencPage.charts.get('rope-decay');
    host.set(v);
    host.update();
    return host.data;
  }, values);
  for (const theta of ['θ_i = base^(−2i/d)', 'θ_i = 1', 'θ_i = 0']) {
    for (const preset of ['4', '256', '4096']) {
      for (const scale of ['linear', 'log']) {
        const data = await set({ theta, preset, scale, bound: true, maxDist: 10000 });
        const g = data.columns.indexOf('g(Δ)');
        const bound = data.columns.findIndex((c) => c.startsWith('bound on |g|'));
        assert.ok(g >= 0 && bound >= 0, `columns ${data.columns}`);
        for (const row of data.rows) {
          assert.ok(row[bound] >= Math.abs(row[g]) - 1e-9 * row[bound], `${theta}, d = ${preset}, ${scale}: bound ${row[bound]} < |g(${row[0]})| = ${Math.abs(row[g])}`);
        }
      }
    }
  }
  const data = await set({ theta: 'θ_i = base^(−2i/d)', preset: '256', scale: 'linear', bound: true, maxDist: 10000 });
  assert.equal(data.rows[0][data.columns.findIndex((c) => c.startsWith('bound on |g|'))], 256 * 64.5);
});

test('rope-decay: the bound the prose quotes is the chart\'s, and it falls only on the whole', async () => {
  const { page } = pages.en;
  const data = await page.evaluate(() => {
    const host = window.posencPage.charts.get('rope-decay');
    host.set({ theta: 'θ_i = base^(−2i/d)', preset: '256', scale: 'linear', bound: true, maxDist: 10000, base: 10000 });
    host.update();
    return host.data;
  });
  const col = data.columns.findIndex((c) => c.startsWith('bound on |g|'));
  const at = (x) => data.rows.find((r) => r[0] === x)[col];
  const quoted = [500, 1000, 5000, 10000].map((x) => String(Math.round(at(x))));
  assert.deepEqual(quoted, ['2699', '2881', '1995', '2099']);
  assert.ok(at(1000) > at(500) && at(10000) > at(5000), 'the bound rises again between the distances quoted');
  let rises = 0;
  for (let j = 1; j < data.rows.length; j++) if (data.rows[j][col] > data.rows[j - 1][col]) rises++;
  assert.ok(rises > 0.4 * (data.rows.length - 1) && rises < 0.6 * (data.rows.length - 1), `rises at ${rises} of ${data.rows.length - 1} steps`);
  for (const lang of ['en', 'zh-CN']) {
    const prose = HTML.match(new RegExp(`<p lang="${lang}"[^>]*>[^<]*(?:<(?!/p>)[^<]*)*?64\\.5[\\s\\S]*?</p>`))[0];
    for (const n of quoted) assert.ok(prose.includes(n), `${lang}: ${n} not in the prose`);
  }
});

test('rope-decay: g\'s lowest value is taken at every whole distance, not at the points drawn', async () => {
  const { page } = pages.en;
  const state = async (values) => page.evaluate((v) => {
    const host = window.posencPage.charts.get('rope-decay');
    host.set(v);
    host.update();
    return { data: host.data, readout: document.querySelector('[data-chart="rope-decay"] .readout').textContent };
  }, values);
  // the same sum in plain double precision over every whole distance 0 … 10000 (d = 256)
  const theta = Array.from({ length: 128 }, (_, i) => 10000 ** (-i / 128));
  let x = 0, y = Infinity;
  for (let t = 0; t <= 10000; t++) {
    let g = 0;
    for (const w of theta) g += 2 * Math.cos(t * w);
    if (g < y) (x = t), (y = g);
  }
  for (const scale of ['linear', 'log']) {
    const { data, readout } = await state({ theta: 'θ_i = base^(−2i/d)', preset: '256', scale, bound: true, maxDist: 10000, base: 10000 });
    const low = data.measured.lowest;
    assert.equal(low.every, 1);
    assert.equal(low.x, x);
    assert.ok(Math.abs(low.y - y) < 1e-9, `${low.y} against ${y}`);
    const lowestDrawn = Math.min(...data.rows.map((r) => r[1]));
    assert.ok(low.y < lowestDrawn - 1, `${scale}: lowest ${low.y}, lowest drawn ${lowestDrawn}`);
    assert.match(readout, new RegExp(`over every whole distance up to 10000, g is lowest at Δ = ${x}: ${y.toPrecision(4).replace('-', '−')}`));
  }
  // past LOWEST_WORK terms it counts one distance in k, and says so
  const { data, readout } = await state({ preset: '4096', scale: 'linear', maxDist: 100000 });
  assert.ok(data.measured.lowest.every > 1);
  assert.match(readout, new RegExp(`over one whole distance in ${data.measured.lowest.every} up to 100000`));
  await state({ preset: '256', maxDist: 10000 });
});

test('rope-decay: the notice explains the decay by pairs falling out of step, and says when g comes back', async () => {
  const { page } = pages.en;
  const notice = async (values) => page.evaluate(async (v) => {
    const el = document.querySelector('[data-chart="rope-decay"]');
    const host = window.posencPage.charts.get('rope-decay');
    host.set(v);
    host.update();
    return el.querySelector('.readout .notice').textContent;
  }, values);
  assert.match(await notice({ theta: 'θ_i = base^(−2i/d)', preset: '256', scale: 'linear', maxDist: 10000 }),
    /at Δ = 1000, 32 of the 128 pairs have turned by at most 1 radian \(they are still in step\), and g = 49\.3/);
  assert.match(await notice({ preset: '4' }), /comes back up/);
  assert.match(await notice({ theta: 'θ_i = 1' }), /repeats for ever/);
  await notice({ theta: 'θ_i = base^(−2i/d)', preset: '256' });
});

test('§12 and §13 call the Tₘₐₓ/4 line dotted, as both charts draw it', async () => {
  const { page } = pages.en;
  const dashes = await page.evaluate(() => {
    const decay = window.posencPage.charts.get('rope-decay');
    decay.set({ theta: 'θ_i = base^(−2i/d)', preset: '4', maxDist: 1000 });
    decay.update();
    const quarter = (kind) => window.Chart.getChart(document.querySelector(`[data-chart="${kind}"] canvas`))
      .data.datasets.find((d) => d.label.includes('Tₘₐₓ/4'))?.borderDash;
    const out = { periods: quarter('rope-periods'), decay: quarter('rope-decay') };
    decay.set({ preset: '256', maxDist: 10000 });
    decay.update();
    return out;
  });
  for (const [kind, dash] of Object.entries(dashes)) {
    assert.ok(dash?.length === 2 && dash[0] <= 2, `${kind}: the Tₘₐₓ/4 line is drawn with dash ${JSON.stringify(dash)}, not dotted`);
  }
  const prose = (id, lang) => [...HTML.split(`<section id="${id}">`)[1].split('</section>')[0]
    .matchAll(new RegExp(`<(p|span) lang="${lang}"[^>]*>([\\s\\S]*?)</\\1>`, 'g'))].map((m) => m[2]).join(' ');
  assert.match(prose('rope-periods', 'en'), /the dotted line runs level at\s*<math>/);
  assert.match(prose('rope-periods', 'zh-CN'), /点线水平地画在 <math>/);
  assert.match(prose('decay', 'en'), /\(the dotted line of section 12\)/);
  assert.match(prose('decay', 'en'), /crosses 0 at the dotted line (?:<span class="nobr">)?<math>/);
  assert.match(prose('decay', 'zh-CN'), /节的点线）/);
  assert.match(prose('decay', 'zh-CN'), /它在点线 (?:<span class="nobr">)?<math>/);
});

test('§13: #{i : …} is defined in the text before the formula that uses it, in both languages', () => {
  const decay = HTML.split('<section id="decay">')[1].split('</section>')[0];
  const first = decay.indexOf('<mo>#</mo>');
  assert.ok(first > 0);
  for (const lang of ['en', 'zh-CN']) {
    const p = [...decay.matchAll(new RegExp(`<p lang="${lang}">([\\s\\S]*?)</p>`, 'g'))].find((m) => m[1].includes('<mo>#</mo>'));
    assert.ok(p, `${lang}: no paragraph of §13 names #{i : …}`);
    assert.ok(decay.indexOf(p[0]) < decay.search(/<math display="block"><mtable><mtr><mtd><mrow><mi>g<\/mi><mo[^>]*>\(<\/mo><mi>Δ<\/mi><mo[^>]*>\)<\/mo><mo>≈<\/mo>/),
      `${lang}: #{i : …} is defined only after the formula that uses it`);
    assert.match(p[1], lang === 'en' ? /the number of pairs <math><mi>i<\/mi><\/math>/ : /的维度对 <math><mi>i<\/mi><\/math> 的个数/);
  }
});

test('§13: the d = 4 exercise asks for the largest distance its link and its answer use', () => {
  const exercise = HTML.split('<details class="exercise">').find((e) => e.includes('rope-decay.preset=4&amp;rope-decay.maxDist=1000'));
  assert.ok(exercise);
  const summary = exercise.split('</summary>')[0];
  assert.match(summary, /<span lang="en">[^<]*largest distance to 1000/);
  assert.match(summary, /<span lang="zh-CN">[^<]*最大距离设为 1000/);
});

test('§16: a pasted config is the one wide solid line, unlike every method\'s dashes, and its box says so', async () => {
  for (const lang of ['en', 'zh']) {
    const { page } = pages[lang];
    const { sets, label } = await page.evaluate(() => {
      const el = document.querySelector('[data-chart="scaling-variants"]');
      const chart = window.Chart.getChart(el.querySelector('canvas'));
      return {
        sets: chart.data.datasets.map((d) => ({ label: d.label, dash: d.borderDash, width: d.borderWidth, colour: d.borderColor })),
        label: el.querySelector('.config-label').textContent,
      };
    });
    const config = sets.find((d) => /your config|你的配置/.test(d.label));
    assert.ok(config, `${lang}: the default config is drawn`);
    const others = sets.filter((d) => d !== config);
    assert.deepEqual(config.dash, [], `${lang}: the config line is solid`);
    assert.ok(others.every((d) => config.width >= 2 * d.width), `${lang}: the config line is at least twice as wide as the others`);
    assert.ok(others.every((d) => d.colour !== config.colour), `${lang}: no other curve shares the config's colour`);
    assert.match(label, lang === 'en' ? /thick grey line/ : /粗的灰色实线/);
  }
});

test('each track that states a total of minutes states the sum of its sections\' minutes, in both languages', () => {
  const tracks = [...HTML.matchAll(/<div class="track" data-track="([a-z]+)">([\s\S]*?)<\/ol>/g)];
  assert.ok(tracks.length >= 3, 'the tracks are found');
  let stated = 0;
  for (const [, name, body] of tracks) {
    for (const [lang, total, each] of [['en', /about (\d+) minutes/, /· (\d+) min</g], ['zh-CN', /约 (\d+) 分钟/, /· (\d+) 分钟</g]]) {
      const heading = body.match(new RegExp(`<h3>[\\s\\S]*?<span lang="${lang}">([^<]*)</span>`))?.[1] ?? '';
      const sum = [...body.matchAll(each)].reduce((a, m) => a + Number(m[1]), 0);
      const said = heading.match(total);
      if (!said) { assert.equal(sum, 0, `${name} (${lang}): sections give minutes but the heading no total`); continue; }
      stated++;
      assert.equal(Number(said[1]), sum, `${name} (${lang}): the heading says ${said[1]} minutes, its sections add up to ${sum}`);
    }
  }
  assert.ok(stated >= 2, 'the core track states its total in both languages');
});

test('R_m and section 8\'s R(Δ): the notation box and §11 say which way each turns and that R(Δ) is R_m at m = −Δ', () => {
  for (const id of ['notation', 'rope-2d']) {
    const body = HTML.match(new RegExp(`<section id="${id}"[\\s\\S]*?</section>`))[0];
    for (const [lang, ccw, cw] of [['en', /counter-clockwise/, /[^-]clockwise/], ['zh-CN', /逆时针/, /顺时针/]]) {
      const text = [...body.matchAll(new RegExp(`<(p|dl) lang="${lang}">([\\s\\S]*?)</\\1>`, 'g'))].map((m) => m[2]).join(' ');
      assert.match(text, /<mi>R<\/mi><mo>\(<\/mo><mi>Δ<\/mi><mo>\)<\/mo>/, `#${id} (${lang}) names R(Δ)`);
      assert.match(text, /<mi>m<\/mi><mo>=<\/mo><mrow><mo>−<\/mo><mi>Δ<\/mi><\/mrow>/, `#${id} (${lang}) relates R(Δ) to R_m at m = −Δ`);
      assert.match(text, ccw, `#${id} (${lang}) says R_m turns counter-clockwise`);
      assert.match(text, cw, `#${id} (${lang}) says R(Δ) turns clockwise`);
    }
  }
});
