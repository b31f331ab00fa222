// keyboard.test.js: the page by keyboard in real Chromium: a skip link is the first Tab stop, a
// table box that scrolls is one (in a section not yet laid out too),
// heading levels go down one at a time, §19's heatmap is read cell by cell as §4's is, the toolbar's panels say whether they are open and give
// the focus back to the button that opened them, a phone's Settings reveal their controls right
// after the button, and Tab goes round the presenter's own controls.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageReady, switchLang } from './browser.js';

// One page serves every test of the page (a load costs seconds of CPU; what they check is Tab
// order and what the page shows, not what a load does): each test leaves it in English, at
// 1200×900, with no panel or presenter open. It is loaded in Chinese, which the first test reads
// before it switches the page to English with the page's own switch.
let b, shared;
before(async () => {
  b = await startBrowser();
  shared = await b.open('?lang=zh');
  await pageReady(shared.page);
  await shared.page.waitForFunction(() => 'uiReady' in document.documentElement.dataset);
});
after(() => b?.close());

const NO_PROBLEMS = { console: [], failed: [], external: [], pageErrors: [] };

test('the first Tab stop is a skip link, seen while it has the focus, and the next Tab after it is in the sections', async () => {
  const { page, problems } = shared;
  for (const [lang, text] of [['zh', '跳到正文'], ['en', 'Skip to the sections']]) {
    if (lang !== 'zh') {
      await switchLang(page, lang);
      // Tab starts from the top of the document again, as in a page just loaded: the focus and
      // the point Tab goes on from are put before everything in the body, at the top of the view
      await page.evaluate(() => {
        const start = Object.assign(document.createElement('span'), { tabIndex: -1 });
        document.body.prepend(start);
        start.focus({ preventScroll: true });
        start.remove();
        scrollTo(0, 0);
      });
    }
    const link = page.locator('.skip-link');
    const unfocused = await link.boundingBox();
    assert.ok(unfocused.y + unfocused.height <= 0, `${lang}: out of sight until it has the focus`);
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => {
      const a = document.activeElement, r = a.getBoundingClientRect();
      const title = document.createRange();
      title.selectNodeContents(document.querySelector('h1'));
      return { skip: a.classList.contains('skip-link'), text: a.innerText.trim(), seen: r.width > 0 && r.top >= 0 && r.bottom <= innerHeight,
        clearOfTitle: r.bottom <= title.getBoundingClientRect().top };
    });
    assert.deepEqual(at, { skip: true, text, seen: true, clearOfTitle: true }, lang);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const next = await page.evaluate(() => ({ main: !!document.activeElement.closest('main'), nav: !!document.activeElement.closest('nav') }));
    assert.deepEqual(next, { main: true, nav: false }, `${lang}: the Tab after the skip link`);
    assert.deepEqual(problems, NO_PROBLEMS);
  }
  await page.evaluate(() => (document.activeElement?.blur(), scrollTo(0, 0)));
});

test('a table box that scrolls is a Tab stop, one in a section not yet laid out too; once laid out, only one that scrolls', async () => {
  const { page } = shared; // English, with the sections below the first screens never shown yet
  // a box shown in a section never laid out (still at its 1800 px stand-in, style.css)
  const boxes = () => page.evaluate(() => [...document.querySelectorAll('.table-scroll')].filter((b) => !b.hidden && b.querySelector('table'))
    .map((b) => ({ kind: b.closest('[data-chart]')?.dataset.chart ?? b.parentElement.id, tab: b.getAttribute('tabindex'),
      unseen: b.checkVisibility() && !b.checkVisibility({ contentVisibilityAuto: true }) && b.closest('main > section').getBoundingClientRect().height === 1800 })));
  const unseen = (await boxes()).filter((b) => b.unseen);
  assert.ok(unseen.some((b) => b.kind === 'convention-lab'), `boxes in skipped sections: ${unseen.map((b) => b.kind)}`);
  assert.deepEqual(unseen.filter((b) => b.tab !== '0'), [], 'offered to the keyboard until laid out');
  // each laid out in turn, as a reader scrolls to it: a Tab stop exactly when it scrolls
  const wrong = await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const out = [];
    for (const b of [...document.querySelectorAll('.table-scroll')].filter((x) => !x.hidden && x.checkVisibility() && x.querySelector('table'))) {
      b.scrollIntoView();
      await frame();
      const scrolls = b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1;
      if ((b.getAttribute('tabindex') === '0') !== scrolls) out.push(`${b.closest('[data-chart]')?.dataset.chart}: scrolls ${scrolls}, tabindex ${b.getAttribute('tabindex')}`);
    }
    scrollTo(0, 0);
    return out;
  });
  assert.deepEqual(wrong, []);
});

test('heading levels go down one at a time: nothing under the title is deeper than a section before the first section heading', async () => {
  const { page } = shared; // English
  const levels = await page.evaluate(() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
    .filter((h) => h.checkVisibility()).map((h) => ({ level: Number(h.tagName[1]), text: h.textContent.trim().slice(0, 40) })));
  assert.equal(levels[0].level, 1);
  assert.equal(levels[1].level, 2, `the first heading after the title: ${levels[1].text}`);
  const skips = levels.slice(1).filter((h, i) => h.level > levels[i].level + 1).map((h) => `h${h.level} ${h.text}`);
  assert.deepEqual(skips, []);
});

test('the toolbar\'s Link, Embed and GIF / video say whether their panel is open, and shutting it by Escape or Close gives the focus back to them', async () => {
  const { page, problems } = shared;
  const box = '.chart[data-kind="sin-heatmap"]';
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.evaluate((box) => document.querySelector(box).scrollIntoView(), box);
  const state = (action) => page.evaluate(([box, action]) => {
    const button = document.querySelector(`${box} .posenc-toolbar [data-action="${action}"]`);
    const id = button.getAttribute('aria-controls');
    const panel = id && document.getElementById(id);
    const a = document.activeElement;
    return {
      expanded: button.getAttribute('aria-expanded'),
      open: !!panel && !panel.hidden && !!panel.closest(box),
      focus: a === button ? 'opener' : a === document.body ? 'body' : panel?.contains(a) ? 'panel' : a.dataset.action ?? a.tagName,
    };
  }, [box, action]);
  const panelOf = async (action) => `#${await page.locator(`${box} [data-action="${action}"]`).getAttribute('aria-controls')}`;
  const press = async (action) => {
    await page.locator(`${box} [data-action="${action}"]`).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(([box, action]) => document.querySelector(`${box} [data-action="${action}"]`).getAttribute('aria-expanded') === 'true', [box, action]);
  };
  const shut = { expanded: 'false', open: false, focus: 'opener' };

  for (const action of ['embed', 'link']) {
    assert.equal((await state(action)).expanded, 'false', `${action} before`);
    await press(action);
    assert.equal((await state(action)).open, true, `${action}'s panel open`);
    await page.locator(`${await panelOf(action)} textarea`).focus();
    await page.keyboard.press('Escape');
    assert.deepEqual(await state(action), shut, `${action}: Escape`);
    await press(action);
    await page.locator(`${await panelOf(action)} button.posenc-close:visible`).last().focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await state(action), shut, `${action}: Close`);
  }
  // one panel serves Link and Embed: opening it from Link says Embed's is not open
  await press('embed');
  await press('link');
  assert.equal((await state('embed')).expanded, 'false');
  await page.keyboard.press('Escape');

  assert.equal((await state('animate')).expanded, 'false', 'GIF / video before');
  await press('animate');
  assert.deepEqual(await state('animate'), { expanded: 'true', open: true, focus: 'panel' });
  await page.keyboard.press('Escape');
  assert.deepEqual(await state('animate'), shut, 'GIF / video: Escape');
  await press('animate');
  await page.locator(`${await panelOf('animate')} button.posenc-close`).focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(await state('animate'), shut, 'GIF / video: Close');
  assert.deepEqual(problems, NO_PROBLEMS);
  await page.evaluate(() => (document.activeElement?.blur(), scrollTo(0, 0)));
  await page.setViewportSize({ width: 1200, height: 900 });
});

test('§19\'s precision heatmap reads its cells from the keyboard as §4\'s does: an application, PageUp/PageDown 10 columns, Home/End, the mark from focus', async () => {
  const { page, context, problems } = await b.open('embed.html?chart=precision-heatmap&lang=en');
  await page.waitForFunction(() => document.querySelector('.chart-body canvas')?.getAttribute('aria-label'));
  const canvas = page.locator('.chart-body canvas');
  assert.equal(await canvas.getAttribute('role'), 'application');
  assert.equal(await canvas.getAttribute('aria-roledescription'), 'heatmap');
  const hover = () => page.locator('.cell-hover').textContent();
  await canvas.focus();
  assert.match(await hover(), /^position 1, pair 0 /, 'focus shows the first cell');
  await page.keyboard.press('PageDown');
  const ten = await hover();
  assert.match(ten, /^position \d+, pair 0 /);
  // ten ArrowRights from the first cell reach the same column (the columns are sampled positions)
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await hover(), ten, 'PageDown moves ten columns');
  await page.keyboard.press('PageUp');
  assert.match(await hover(), /^position 1, pair 0 /);
  await page.keyboard.press('Control+ArrowDown');
  assert.match(await hover(), /^position 1, pair 10 /);
  await page.keyboard.press('End');
  assert.match(await hover(), /^position 1000000, pair 10 /, 'End: the row\'s last column, the largest position');
  await page.keyboard.press('Control+End');
  assert.match(await hover(), /^position 1000000, pair 31 /, 'Ctrl+End: the last cell (d = 64: pairs 0 to 31)');
  await page.keyboard.press('Control+Home');
  assert.match(await hover(), /^position 1, pair 0 /);
  assert.equal(await page.evaluate(() => scrollY), 0, 'the keys did not scroll the page');
  assert.deepEqual(problems, NO_PROBLEMS);
  await context.close();
});

test('on a phone, Settings reveals its controls right after the button, on screen and for Tab; a wide screen puts every control back in order', async () => {
  const { page, problems } = shared;
  // the page laid out for a phone: each chart's place() is what runs when a page loads on one
  await page.setViewportSize({ width: 390, height: 800 });
  await page.waitForFunction(() => [...document.querySelectorAll('main .chart[data-kind]')].every((c) => c.classList.contains('phone')));
  await page.evaluate(() => document.getElementById('decay').scrollIntoView());
  const misplaced = await page.evaluate(() => [...window.posencPage.charts].flatMap(([kind, host]) => {
    const toggle = document.querySelector(`.chart[data-kind="${kind}"] .settings-toggle`);
    if (!toggle || host.controls.length < 2) return [];
    const folded = host.controls.filter((c) => !c.wrap.classList.contains('main')).map((c) => c.wrap);
    const wrong = [];
    if (toggle.previousElementSibling && !toggle.previousElementSibling.classList.contains('main')) wrong.push('after a folded control');
    if (folded.some((w) => toggle.compareDocumentPosition(w) & Node.DOCUMENT_POSITION_PRECEDING)) wrong.push('a folded control before it');
    return wrong.length ? [`${kind}: ${wrong.join(', ')}`] : [];
  }));
  assert.deepEqual(misplaced, []);

  const box = '.chart[data-kind="rope-decay"]';
  const toggle = page.locator(`${box} .settings-toggle`);
  await toggle.scrollIntoViewIfNeeded();
  await toggle.focus();
  await page.keyboard.press('Enter');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  await page.keyboard.press('Tab');
  const next = await page.evaluate((box) => {
    const a = document.activeElement, toggle = document.querySelector(`${box} .settings-toggle`);
    const first = document.querySelector(`${box} .controls:not(.phone-main) > .control:not(.main)`);
    return { first: a.closest('.control') === first, below: a.getBoundingClientRect().top >= toggle.getBoundingClientRect().top };
  }, box);
  assert.deepEqual(next, { first: true, below: true }, 'the Tab after Settings');

  await page.setViewportSize({ width: 1200, height: 900 });
  await page.waitForFunction((box) => !document.querySelector(box).classList.contains('phone'), box);
  const order = await page.evaluate(() => [...window.posencPage.charts].flatMap(([kind, host]) => {
    const form = document.querySelector(`.chart[data-kind="${kind}"] .controls:not(.phone-main)`);
    const shown = [...form.querySelectorAll(':scope > .control')];
    return shown.length === host.controls.length && host.controls.every((c, i) => shown[i] === c.wrap) ? [] : [kind];
  }));
  assert.deepEqual(order, [], 'controls out of their order on a wide screen');
  assert.deepEqual(problems, NO_PROBLEMS);
  await page.evaluate(() => (document.activeElement?.blur(), scrollTo(0, 0)));
});

test('in the presenter, Tab and Shift+Tab go round its own controls and never rest on the page', async () => {
  const { page, problems } = shared;
  // what a load of ?present=decay runs (page-ui.js), on the page as it is
  await page.evaluate(() => window.posencPage.presenter.start(new URLSearchParams('present=decay')));
  await page.waitForFunction(() => !document.querySelector('.presenter').hidden);
  const count = await page.evaluate(() => [...document.querySelectorAll('.presenter button, .presenter input, .presenter select, .presenter summary')]
    .filter((e) => !e.disabled && e.checkVisibility()).length);
  assert.ok(count >= 4, `${count} controls in the view`);
  for (const key of ['Tab', 'Shift+Tab']) {
    const seen = [];
    for (let i = 0; i < count + 3; i++) {
      await page.keyboard.press(key);
      seen.push(await page.evaluate(() => {
        const a = document.activeElement;
        return a.closest('.presenter') ? a.className || a.name || a.tagName : `outside: ${a.tagName}`;
      }));
    }
    assert.deepEqual(seen.filter((s) => s.startsWith('outside')), [], `${key}: ${seen.join(' → ')}`);
    assert.ok(seen.filter((s) => s === 'present-exit').length >= 1, `${key} passed the exit button`);
  }
  assert.deepEqual(problems, NO_PROBLEMS);
  await page.keyboard.press('Escape');
});
