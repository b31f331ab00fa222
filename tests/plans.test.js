// plans.test.js: a class's plan from the guide, on paper and on the projector: print= and present=
// name tracks as the contents do, in either language; a plan's question sheet holds its sections'
// exercises and the charts they set, the primer's and the recap's question, and no lesson text, in
// under half the pages of the sections' full text, its contents saying what it prints; present=
// steps through the plan's figures alone and ends on the recap; §16's slide shows the factor s;
// the guide links each plan's slides and sheet and gives each slot what it names.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startBrowser, pageReady, switchLang } from './browser.js';

const PLAN = '1,3,7-9,11-13,15-16';
let b;
before(async () => (b = await startBrowser()));
after(() => b?.close());

const ready = async (page) => {
  await pageReady(page);
  await page.waitForFunction(() => 'uiReady' in document.documentElement.dataset);
};
const pdfPages = async (page) => ((await page.pdf({ format: 'A4' })).toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length;

test('print= takes the tracks\' names in either language and any case; a part that names nothing is said on screen and on paper', async () => {
  const { page, context, problems } = await b.open('?lang=en&print=Experts');
  await ready(page);
  const r = await page.evaluate(async () => {
    const { handoutSections } = await import('/page/tracks.js');
    const ids = (v) => { const { ids, note } = handoutSections(v); return ids ? [...ids].sort().join(' ') : note; };
    return {
      practice: ['practice', 'Practitioner', 'PRACTITIONER', '工程实践'].map(ids),
      lab: ['lab', 'Experiments', '实验'].map(ids),
      core: ['core', 'Core', '核心'].map(ids),
      note: document.getElementById('page-notes')?.textContent ?? '',
      onScreen: document.getElementById('page-notes')?.getBoundingClientRect().top,
    };
  });
  for (const [key, names] of Object.entries({ practice: r.practice, lab: r.lab, core: r.core })) {
    assert.ok(names[0].includes('recap') && !names[0].includes('“'), `${key}: ${names[0]}`);
    assert.ok(names.every((n) => n === names[0]), `${key}: every name selects the same sections: ${names}`);
  }
  assert.ok(r.lab[0].includes('other-encodings'), 'Experiments is sections 23 and 24, not §23 alone');
  assert.match(r.note, /print = “Experts”: “Experts” is neither a track \(core or Core, practice or Practitioner/);
  assert.ok(r.onScreen < 900, 'the note is in the first screen');
  await page.emulateMedia({ media: 'print' });
  assert.ok(await page.evaluate(() => document.getElementById('page-notes').checkVisibility()), 'and on paper');
  assert.deepEqual(problems.pageErrors, []);
  await context.close();
});

test('a plan\'s question sheet: its exercises with the charts they set, the primer\'s and the recap\'s question, no lesson text, under half the pages', async () => {
  // The page reads print= and answers once, at load, and marks what prints with markHandout
  // (print.js); the rest is the print stylesheet and the print media query's change event. The
  // students' sheet is loaded; the full text, the teacher's copy and the whole lesson's sheet go
  // through that same markHandout on the same page, in the language the page's switch sets.
  const { page, context } = await b.open(`?lang=en&print=questions,${PLAN}`);
  await ready(page);
  // pdf: whether to count the printed pages (a PDF of the page costs seconds; two sheets' are compared)
  const sheet = async (lang, query, { pdf = false } = {}) => {
    if (query !== null) {
      await switchLang(page, lang);
      await page.evaluate(async (q) => (await import('/page/print.js')).markHandout(new URLSearchParams(q)), query);
    }
    await page.emulateMedia({ media: 'print' });
    await page.waitForFunction(() => document.querySelector('nav .tracks + p:not(.toc-extra)'));
    const r = await page.evaluate(() => {
      const shown = (el) => el.checkVisibility();
      const numbered = [...document.querySelectorAll('main > section')].filter(shown).filter((s) => /^\d+\./.test(s.querySelector('h2').textContent.trim()));
      return {
        sections: numbered.map((s) => s.id),
        // what a numbered section prints besides its title, its exercises and its charts
        prose: numbered.flatMap((s) => [...s.children].filter(shown).filter((c) => !c.matches('h2, details.exercise, [data-chart]')).map((c) => `${s.id}: ${c.tagName}.${c.className}`)),
        charts: [...document.querySelectorAll('main [data-chart]')].filter(shown).map((c) => c.dataset.chart),
        // a chart printed though no exercise of its section sets it
        unasked: [...document.querySelectorAll('main [data-chart]')].filter(shown).map((c) => c.dataset.chart)
          .filter((k) => ![...document.querySelectorAll(`[data-chart="${k}"]`)[0].closest('section').querySelectorAll('details.exercise a.scene-link')]
            .some((a) => [...new URL(a.href).searchParams.keys()].some((key) => key.startsWith(`${k}.`)))),
        readouts: [...document.querySelectorAll('main [data-chart] .readout')].filter(shown).length,
        primer: [...document.querySelectorAll('#primer > *')].filter(shown).map((c) => c.tagName.toLowerCase()),
        recap: [...document.querySelectorAll('#recap > *')].filter(shown).map((c) => c.tagName.toLowerCase()),
        // a section besides the primer and the recap printed with nothing to ask (the sources, say)
        idle: [...document.querySelectorAll('main > section')].filter(shown)
          .filter((s) => !['primer', 'recap'].includes(s.id) && !s.querySelector(':scope > details.exercise')).map((s) => s.id),
        asked: [...document.querySelectorAll('#primer details.exercise > summary, #recap details.exercise > summary')].filter(shown).map((s) => s.textContent),
        answers: [...document.querySelectorAll('details.exercise details.answer > p')].filter(shown).length,
        questions: [...document.querySelectorAll('details.exercise > summary')].filter(shown).length,
        headings: [...document.querySelectorAll('.tracks h3')].filter(shown).map((h) => h.innerText),
      };
    });
    const pages = pdf ? await pdfPages(page) : null;
    await page.emulateMedia({ media: 'screen' });
    const after = await page.evaluate(() => ({
      headings: [...document.querySelectorAll('.tracks h3')].map((h) => h.innerText),
      asked: document.querySelectorAll('.print-question').length,
    }));
    return { ...r, pages, after };
  };
  const students = await sheet('en', null, { pdf: true });
  const text = await sheet('en', `print=${PLAN}`, { pdf: true });
  assert.deepEqual(students.sections, text.sections, 'the same sections');
  assert.deepEqual(students.prose, [], 'no lesson text');
  assert.ok(text.prose.length > 20, `the full text has it: ${text.prose.length}`);
  assert.deepEqual(students.unasked, [], 'only the charts the exercises set');
  assert.ok(text.unasked.length > 0, `the full text prints the others: ${text.unasked}`);
  assert.ok(students.charts.length >= 8 && students.charts.length < text.charts.length, `the charts the exercises set: ${students.charts}`);
  assert.ok(students.charts.includes('scaling-variants') && students.charts.includes('rope-decay'));
  assert.equal(students.readouts, 0, 'no readout, which says what a question asks');
  assert.deepEqual(students.primer, ['h2', 'details'], 'the primer: its question, without the diagram that answers it');
  assert.deepEqual(students.recap, ['h2', 'details'], 'the recap: its question, without the table that answers it or its prose');
  assert.deepEqual(students.asked, ['Which vectors does RoPE turn, and where?', 'Where does a token’s position enter a RoPE score?']);
  assert.equal(students.questions, text.questions + 2);
  assert.equal(students.answers, 0);
  assert.deepEqual(students.headings, ['Core: sections 1, 3, 7–9, 11–13, 15', 'Practitioner: section 16'], 'the contents say what prints');
  assert.ok(students.pages * 2 <= text.pages, `${students.pages} pages against ${text.pages}`);
  assert.ok(students.after.headings[0].startsWith('Core: the lesson, sections 1–15'), 'the contents are whole again after printing');
  assert.equal(students.after.asked, 0, 'the questions printing added go');
  const teacher = await sheet('zh', `print=questions,${PLAN}&answers`);
  assert.equal(teacher.answers, teacher.questions, 'the teacher\'s copy answers every question');
  assert.ok(teacher.asked.includes('RoPE 旋转的是哪些向量？在哪里旋转？'));
  assert.deepEqual(teacher.headings, ['核心：第 1、3、7–9、11–13、15 节', '工程实践：第 16 节']);
  assert.deepEqual([teacher.primer.includes('svg'), teacher.recap.includes('div')], [true, true], 'the teacher\'s copy shows the diagram and the table');
  // a sheet of the whole lesson: the sections that ask something
  const whole = await sheet('en', 'print=questions');
  assert.deepEqual(whole.idle, []);
  assert.ok(whole.sections.length >= 20, `${whole.sections.length} sections`);
  await context.close();
});

test('present= follows a plan: its figures alone, from the section the hash names, the recap\'s table last; §16\'s slide shows the factor s', async () => {
  const { page, context, problems } = await b.open(`?lang=en&present=${PLAN}#relative`, { viewport: { width: 1280, height: 720 } });
  await ready(page);
  const slide = () => page.evaluate(() => ({
    title: document.getElementById('present-title').textContent,
    kind: document.querySelector('.present-slot [data-chart]')?.dataset.chart,
    controls: [...document.querySelectorAll('.present-slot .control')].filter((c) => c.checkVisibility()).map((c) => c.querySelector('input')?.name ?? c.textContent),
    table: document.querySelector('.present-slot table.recap-table')?.checkVisibility() ?? false,
    count: document.querySelector('.present-count').textContent,
  }));
  const p = await page.evaluate(() => ({ count: window.posencPage.presenter.count, index: window.posencPage.presenter.index }));
  // the plan's sections by their numbers, as the contents number them (counted with every chart back on the page)
  const planCharts = () => page.evaluate((plan) => {
    const numbers = plan.split(',').flatMap((r) => { const [a, z = a] = r.split('-').map(Number); return Array.from({ length: z - a + 1 }, (_, k) => a + k); });
    return [...document.querySelectorAll('main > section')].filter((s) => numbers.includes(Number(/^(\d+)\./.exec(s.querySelector('h2').textContent.trim())?.[1])))
      .reduce((n, s) => n + s.querySelectorAll('[data-chart]').length, 0);
  }, PLAN);
  assert.match((await slide()).title, /^8\. /, 'it starts at the section the hash names');
  const kinds = [];
  await page.evaluate(() => window.posencPage.presenter.go(0));
  for (let i = 0; i < p.count; i++) {
    const s = await slide();
    kinds.push(s.kind ?? (s.table ? 'recap' : 'primer'));
    if (s.kind === 'scaling-variants') assert.match(s.controls.join(' '), /factor/i, `§16's slide shows the factor: ${s.controls}`);
    if (i === p.count - 1) {
      assert.ok(s.table, 'the last slide is the recap\'s table');
      assert.equal(s.count, `Figure ${p.count} of ${p.count}`);
    }
    await page.keyboard.press('ArrowRight');
  }
  assert.equal(kinds[0], 'primer');
  assert.ok(!kinds.includes('binary') && !kinds.includes('length-lab'), `only the plan's sections: ${kinds}`);
  assert.ok(kinds.includes('scaling-variants'));
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => document.querySelectorAll('#recap > .table-scroll').length), 2, 'the recap\'s tables go back');
  assert.equal(p.count, 1 + await planCharts() + 1, 'the primer\'s diagram, the plan\'s charts and the recap');
  // a part that names nothing: every figure, and the view says why
  const note = await page.evaluate(() => {
    const note = window.posencPage.presenter.follow('core,Expert');
    window.posencPage.presenter.open(0);
    return { note, count: window.posencPage.presenter.count, shown: document.querySelector('.present-plan-note').checkVisibility() };
  });
  assert.match(note.note, /present = “core,Expert”: “Expert” is neither a track/);
  assert.ok(note.shown);
  assert.equal(note.count, 1 + await page.evaluate(() => document.querySelectorAll('main [data-chart]').length));
  // the note follows a language switch
  // (the page's switch, under the view: as a key press on it would)
  await switchLang(page, 'zh');
  assert.match(await page.locator('.present-plan-note').textContent(), /[\u4e00-\u9fff]/, 'the note in Chinese');
  await switchLang(page, 'en');
  const every = await page.evaluate(() => document.querySelectorAll('main [data-chart]').length + 1);
  const again = await page.evaluate(({ plan, every }) => {
    const p = window.posencPage.presenter;
    // followed while open: the plan's first figure, not one outside it
    p.follow(plan);
    const open = { index: p.index, count: p.count };
    // closed on its third figure (a teacher goes to the page), the Present button comes back to it, in the plan
    p.go(2);
    p.close();
    const address = location.search;
    document.querySelector('.present-open').click();
    const reopened = { count: p.count, index: p.index, address: location.search };
    p.close();
    // ?present=lab: section 23's id, a place to start in the whole deck (though "lab" is also a track)
    p.start(new URLSearchParams('present=lab'));
    const lab = { count: p.count, kind: document.querySelector('.present-slot [data-chart]')?.dataset.chart };
    p.close();
    p.start(new URLSearchParams('present=practice'));
    const practice = p.count;
    p.close();
    return { open, reopened, address, lab, practice, every };
  }, { plan: PLAN, every });
  assert.deepEqual(again.open.index, 0);
  assert.ok(again.open.count < every, `the plan: ${again.open.count} figures`);
  assert.deepEqual({ ...again.reopened, address: new URLSearchParams(again.reopened.address).get('present') },
    { count: again.open.count, index: 2, address: PLAN }, 'the plan again, at the figure it was closed on, as its address says');
  assert.doesNotMatch(again.address, /present/, 'closed, the address is the page\'s');
  assert.deepEqual(again.lab, { count: every, kind: 'length-lab' });
  // a slide shows the main control and the changed ones; All settings shows the rest, for a question
  // that turns another (§8's m), until the next slide
  const settings = await page.evaluate(async () => {
    const p = window.posencPage.presenter, more = document.querySelector('.present-more');
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const shown = () => [...document.querySelectorAll('.present-slot .controls .control')].filter((c) => c.checkVisibility()).map((c) => c.querySelector('input, select').name);
    p.start(new URLSearchParams('present=relative'));
    await frame();
    const before = { shown: shown(), more: more.checkVisibility() };
    more.click();
    await frame();
    const after = { shown: shown(), pressed: more.getAttribute('aria-pressed') };
    p.go(p.index + 1);
    await frame();
    const next = { pressed: more.getAttribute('aria-pressed'), shown: shown().length };
    p.close();
    return { before, after, next };
  });
  assert.deepEqual(settings.before, { shown: ['k'], more: true });
  assert.deepEqual(settings.after, { shown: ['pos', 'k', 'dim', 'base'], pressed: 'true' });
  assert.deepEqual(settings.next, { pressed: 'false', shown: 1 });
  assert.ok(again.practice < every, 'a track by its key is a plan');
  assert.deepEqual(problems.pageErrors, []);
  await context.close();
});

test('the guide: each plan links its slides and its question sheet; the 45-minute plan gives §3 and §16 their links; the Chinese reads as a lecturer writes it', () => {
  const guide = readFileSync(new URL('../web/teaching.html', import.meta.url), 'utf8');
  for (const id of ['plan-45', 'plan-90', 'plan-graduate']) {
    const plan = guide.slice(guide.indexOf(`<section id="${id}">`), guide.indexOf('</section>', guide.indexOf(`<section id="${id}">`)));
    for (const lang of ['en', 'zh-CN']) {
      const links = plan.slice(plan.lastIndexOf(`<p lang="${lang}">`)).match(/href="index\.html\?[^"]+"/g) ?? [];
      const present = links.find((l) => l.includes('?present='))?.match(/present=([\d,-]+)/)[1];
      assert.ok(present, `${id} ${lang}: its slides`);
      assert.ok(links.includes(`href="index.html?print=questions,${present}"`), `${id} ${lang}: its question sheet, for the same sections`);
      assert.ok(links.includes(`href="index.html?print=questions,${present}&amp;answers"`), `${id} ${lang}: and the teacher's copy`);
    }
  }
  const slots = (lang) => guide.slice(guide.indexOf('<section id="plan-45">')).split(`<ol lang="${lang}">`)[1].split('</ol>')[0].split('<li>').slice(1);
  for (const lang of ['en', 'zh-CN']) {
    const [, , third, , , sixth] = slots(lang);
    assert.match(third, /href="index\.html#frequencies"/, `${lang}: §3 has its chart`);
    assert.equal((third.match(/<i>(Ask|提问)/g) ?? []).length, 2, `${lang}: and its question`);
    assert.match(sixth, /scaling-variants\.factor=1#scaling/, `${lang}: §16 has its scene`);
  }
  for (const words of ['预期回答', '滚到图', '已报告的故障', '通往长上下文', '在训练长度上', '四个词都看得到']) assert.ok(!guide.includes(words), words);
  const zh = guide.match(/<ol lang="zh-CN">[^]*?<\/ol>/g).join('');
  assert.deepEqual(zh.match(/<li>[^<]*(?:<(?!\/li>)[^<]*)*<\/li>/g).filter((li) => li.includes('\n')), [], 'no line break inside Chinese text');
  // ask first: the guide says some slides show the answer, in both languages
  assert.match(guide, /Ask each question of a plan before you step to its slide or open its scene/);
  assert.match(guide, /每道题都要先提问，再翻到下一张或打开场景/);
});

test('the guide lays out every section at once, so a capture shows its lower plans', async () => {
  const { page, context } = await b.open('teaching.html?lang=zh');
  await page.waitForFunction(() => 'uiReady' in document.documentElement.dataset);
  const r = await page.evaluate(() => [...document.querySelectorAll('main section')].map((s) => [s.id, getComputedStyle(s).contentVisibility]));
  assert.ok(r.length >= 6);
  assert.deepEqual(r.filter(([, cv]) => cv !== 'visible'), []);
  await context.close();
});

test('the guide: one number is a figure, a list, range or track is sections; example links for one section and a question sheet; §15\'s question names d and L₀', () => {
  const guide = readFileSync(new URL('../web/teaching.html', import.meta.url), 'utf8');
  const howTo = (lang) => guide.match(new RegExp(`<ul lang="${lang}">[\\s\\S]*?</ul>`))[0];
  for (const lang of ['en', 'zh-CN']) {
    const list = howTo(lang);
    assert.ok(list.includes('href="index.html?present=13-13"'), `${lang}: §13 alone`);
    assert.ok(list.includes('href="index.html?print=questions,11-17"'), `${lang}: a question sheet`);
    assert.ok(list.includes('href="index.html?print=questions,11-17&amp;answers"'), `${lang}: and the teacher's copy`);
  }
  assert.match(howTo('en'), /\?present=12<\/code> at the twelfth figure \(one number alone counts figures\)/);
  assert.match(howTo('en'), /a list, a range or a track name counts sections/);
  assert.match(howTo('zh-CN'), /单独一个数字数的是图/);
  assert.match(howTo('zh-CN'), /写列表、范围或学习路线名称，数的就是节/);
  assert.ok(!guide.includes('A part that names nothing'));
  assert.match(howTo('en'), /is reported at the top of the page and on the paper, and the whole page prints/);
  assert.match(guide, /d = 128 and training length L₀ = 4096, how many of the 64 pairs/);
  assert.match(guide, /头维度 d = 128、训练长度 L₀ = 4096，训练时把底数从 10000 换成 500000，64 个维度对/);
  // the expected 32 and 18, counted: pair i stays short of a turn while L₀·θ_i < 2π
  const short = (base) => Array.from({ length: 64 }, (_, i) => base ** (-i / 64)).filter((t) => 4096 * t < 2 * Math.PI).length;
  assert.deepEqual([short(500000), short(10000)], [32, 18]);
  assert.match(guide, /<i>Expect:<\/i> 32 \(pairs 32 to 63\) instead of 18/);
});
