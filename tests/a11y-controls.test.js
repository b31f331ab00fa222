// a11y-controls.test.js: the charts' controls and canvases as a keyboard and screen-reader user
// meets them, in embed.html (one chart a page): a base slider that spans orders of magnitude moves
// through round values in log space and speaks the exact value, float sliders step by round
// amounts, the readout is spoken once the changes pause, series-coloured labels reach 4.5:1 on
// the light background, canvas text has the minus sign U+2212, and the sinusoidal heatmap takes
// its keys as an application with a visible mark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser } from './browser.js';
import { isLog, ladder, ladderIndex, roundStep } from '../web/host/slider-scale.js';

// every page of this file in one browser context (b.pages), where a page takes on the renderer of
// one open before it and loads for half the CPU: a first load in a new browser is no part of what
// is checked here
let b;
before(async () => (b = await startBrowser()));
after(() => b?.close());

/** embed.html with `query`, ready to read; records every fillText (text, fillStyle) on chart canvases. */
async function chart(query, { theme = 'light' } = {}) {
  const { page, close, problems } = await b.pages.open(`embed.html?${query}&theme=${theme}`, {
    init: () => {
      window.drawn = [];
      const fill = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
        window.drawn.push({ text: String(text), fill: this.fillStyle, kind: this.canvas.closest?.('.chart')?.dataset.kind });
        return fill.call(this, text, ...rest);
      };
    },
  });
  await page.evaluate(() => window.posencEmbed.ready);
  await page.waitForFunction(() => window.posencEmbed.host?.data);
  return { page, close, problems };
}

const slider = (page, name) => page.evaluate((n) => {
  const r = document.querySelector(`input[type="range"][name="${n}"]`), box = document.querySelector(`input[type="number"][name="${n}"]`);
  return { value: r.value, min: r.min, max: r.max, text: r.getAttribute('aria-valuetext'), box: box.value, read: window.posencEmbed.host.params()[n] };
}, name);

/** A round value: at most two significant digits, or 25 × 10ᵏ. */
const round = (v) => Number(v.toPrecision(2)) === v;

test('slider scale: log for a range over orders of magnitude, round rungs, round linear steps', () => {
  assert.equal(isLog({ type: 'number', min: 1, max: 1e7, step: 'any' }), true);
  assert.equal(isLog({ type: 'number', min: 0, max: 180, step: 'any' }), false);
  assert.equal(isLog({ type: 'number', min: 1, max: 16, step: 'any' }), false);
  assert.equal(isLog({ type: 'int', min: 16, max: 1048576 }), true);
  assert.equal(isLog({ type: 'int', min: 2, max: 8192, step: 2 }), false, 'an int on steps of 2 keeps them');
  assert.equal(isLog({ type: 'int', min: 1, max: 1024 }), false);
  const p = { type: 'number', min: 1, max: 1e7 };
  const steps = ladder(p, 1, 1e7);
  assert.equal(steps[0], 1);
  assert.equal(steps.at(-1), 1e7);
  assert.ok(steps.every(round), steps.join(' '));
  assert.ok(steps.includes(10000) && steps.includes(500000));
  for (let i = 1; i < steps.length; i++) assert.ok(steps[i] / steps[i - 1] <= 1.34, `${steps[i - 1]} → ${steps[i]}`);
  assert.equal(steps[ladderIndex(steps, 10000)], 10000);
  const between = ladderIndex(steps, 11000);
  assert.ok(between > ladderIndex(steps, 10000) && between < ladderIndex(steps, 12000));
  const ints = ladder({ type: 'int' }, 1, 100);
  assert.ok(ints.every(Number.isInteger) && new Set(ints).size === ints.length, ints.join(' '));
  assert.equal(ladder(p, 0.125, 64)[0], 0.125);
  assert.equal(roundStep({ min: 1, max: 128 }), 1);
  assert.equal(roundStep({ min: 0, max: 180 }), 1);
  assert.equal(roundStep({ min: -180, max: 180 }), 2);
  assert.equal(roundStep({ min: 0, max: 4 }), 0.02);
});

test('§12 and §7 base sliders: arrow keys, Home and End give round in-range values; box, chart and links follow exactly', async () => {
  // (helix's pair 0 turns by 1 whatever the base: pair 1 shows it)
  for (const [kind, max, more] of [['rope-decay', 1e7, ''], ['helix', 1e6, '&pair=1']]) {
    const { page, close, problems } = await chart(`chart=${kind}${more}`);
    let s = await slider(page, 'base');
    assert.equal(s.box, '10000', `${kind}: the default as typed`);
    assert.equal(s.read, 10000, `${kind}: the default reads back exactly`);
    assert.equal(s.text, '10000', `${kind}: the slider speaks the value`);
    const thumb = Number(s.value) / Number(s.max);
    assert.ok(thumb > 0.4 && thumb < 0.8, `${kind}: the default thumb at ${thumb} of the track`);
    const readout = () => page.locator('.readout').textContent();
    const first = await readout();
    await page.locator('input[type="range"][name="base"]').focus();
    const seen = [];
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowLeft', 'PageUp', 'PageDown', 'Home', 'End']) {
      await page.keyboard.press(key);
      s = await slider(page, 'base');
      seen.push(s.read);
      assert.equal(String(s.read), s.box, `${kind} ${key}: the box holds the value read`);
      assert.equal(s.text, s.box, `${kind} ${key}: the slider speaks the box's value`);
      assert.ok(round(s.read) && s.read >= 1 && s.read <= max, `${kind} ${key}: ${s.read}`);
    }
    assert.deepEqual(seen.slice(0, 3), [12000, 15000, 12000], `${kind}: ArrowRight multiplies by about 1.25`);
    assert.deepEqual(seen.slice(-2), [1, max], `${kind}: Home and End`);
    await page.waitForFunction((t) => document.querySelector('.readout').textContent !== t, first);
    // an exact value from a link stays exact, in the box, in read() and back out in the link
    await page.goto(`${b.url}embed.html?chart=${kind}${more}&base=12345.678&theme=light`);
    await page.evaluate(() => window.posencEmbed.ready);
    s = await slider(page, 'base');
    assert.equal(s.box, '12345.678');
    assert.equal(s.read, 12345.678);
    assert.equal(s.text, '12345.678');
    assert.equal(s.value, '41', `${kind}: the thumb on the rung nearest in log space (12000)`);
    // a box half-typed (empty to the page) leaves the settings line with the value drawn, not the rung
    await page.locator('input[type="number"][name="base"]').fill('');
    const line = await page.evaluate(async () => (await import('./host/settings-line.js')).settingsLine(document.querySelector('.chart')));
    assert.match(line, /base 12[\s\u00a0\u202f]?345\.7(?!\d)/, `${kind}: ${line}`);
    assert.deepEqual(problems.pageErrors, []);
    await close();
  }
});

test('float sliders with step "any" step by round amounts; a slider short of its box speaks the box', async () => {
  // (a factor up to 128 is a log slider: 8 → 10; one up to 16 steps by 0.1)
  for (const [kind, next] of [['scaling-variants', 10], ['dynamic-kv-cache', 2.1]]) {
    const { page, close } = await chart(`chart=${kind}`);
    await page.locator('input[type="range"][name="factor"]').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal((await slider(page, 'factor')).read, next, `${kind}: factor → ${next}`);
    await close();
  }
  const two = await chart('chart=rope-2d');
  await two.page.locator('input[type="range"][name="theta"]').focus();
  await two.page.keyboard.press('ArrowRight');
  assert.equal((await slider(two.page, 'theta')).read, 31, 'θ 30 → 31');
  await two.page.locator('input[type="number"][name="theta"]').fill('30.5');
  const s = await slider(two.page, 'theta');
  assert.equal(s.read, 30.5);
  assert.equal(s.text, '30.5', 'the slider rounded to its step speaks the exact value');
  await two.close();
});

test('the readout is spoken once the changes pause, by one hidden polite region, and emptied later', async () => {
  const { page, close } = await chart('chart=rope-decay');
  const r = await page.evaluate(async () => {
    const readout = document.querySelector('.readout');
    const live = [...document.querySelectorAll('[aria-live]')].filter((e) => e.closest('figure'));
    const spoken = live.find((e) => e.classList.contains('readout-spoken'));
    const filled = (window.filled = []);
    new MutationObserver(() => spoken.textContent && filled.push(spoken.textContent)).observe(spoken, { childList: true, characterData: true, subtree: true });
    const range = document.querySelector('input[type="range"][name="base"]');
    for (let i = 0; i < 20; i++) {
      range.value = String(Number(range.value) + 1);
      range.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((res) => setTimeout(res, 30));
    }
    const during = filled.length;
    const box = spoken.getBoundingClientRect();
    return { readoutLive: readout.getAttribute('aria-live'), live: live.length, during, polite: spoken.getAttribute('aria-live'), size: [box.width, box.height] };
  });
  assert.equal(r.readoutLive, null, 'the visible readout is not live');
  assert.equal(r.polite, 'polite');
  assert.equal(r.during, 0, 'silent while the slider moves');
  assert.ok(r.size[0] <= 1 && r.size[1] <= 1, 'visually hidden');
  // spoken once the changes pause, and emptied a while later: counted once it is emptied, the
  // whole time it could have been spoken again
  await page.waitForFunction(() => window.filled.length && document.querySelector('.readout-spoken').textContent === '');
  const spoken = await page.evaluate(() => ({ after: window.filled.length, text: window.filled[0], readout: document.querySelector('.readout').textContent }));
  assert.equal(spoken.after, 1, 'spoken once after 20 changes');
  assert.equal(spoken.text, spoken.readout, 'it says the readout');
  await close();
});

test('light theme: labels in a series colour or grey reach 4.5:1 on the background, from the colour functions', async () => {
  // (the colour functions depend on the theme alone: the page of §11's chart below serves them)
  const first = await chart('chart=rope-2d&m=3&n=1');
  const r = await first.page.evaluate(async () => {
    const { textShade, contrast, palette, ink } = await import('./charts/common.js');
    const colours = [...palette, '#9aa3b2'];
    return { bg: ink().bg, shades: colours.map((c) => [c, textShade(c), contrast(textShade(c), ink().bg)]), lines: palette[1] };
  });
  assert.equal(r.bg, '#ffffff');
  for (const [c, shade, ratio] of r.shades) assert.ok(ratio >= 4.5, `${c} → ${shade}: ${ratio.toFixed(2)}:1`);
  assert.equal(r.lines, '#D55E00', 'the lines keep the palette');
  // every text drawn on these charts' canvases, as drawn: q@0, k@1 (§11), pos 7 (§6), pos 0 / pos n (§7), the values (§3)
  for (const query of ['chart=rope-2d&m=3&n=1', 'chart=unit-circle', 'chart=helix', 'chart=three-frequencies']) {
    const one = query === 'chart=rope-2d&m=3&n=1' ? first : await chart(query);
    const low = await one.page.evaluate(async () => {
      const { contrast, ink } = await import('./charts/common.js');
      const bg = ink().bg;
      const css = (fill) => {
        const c = document.createElement('canvas').getContext('2d');
        c.fillStyle = fill;
        return c.fillStyle;
      };
      return window.drawn.filter((d) => d.kind && typeof d.fill === 'string' && /^#/.test(css(d.fill)))
        .map((d) => ({ ...d, ratio: contrast(css(d.fill), bg) })).filter((d) => d.ratio < 4.5).map((d) => `${d.text} ${d.fill} ${d.ratio.toFixed(2)}`);
    });
    assert.deepEqual(low, [], query);
    await one.close();
  }
});

test('canvas labels write a negative number with U+2212, as the readouts do', async () => {
  const { page, close } = await chart('chart=rope-2d&kAngle=-30&m=0&n=0');
  const texts = await page.evaluate(() => window.drawn.filter((d) => d.kind).map((d) => d.text));
  // (the recorder sees the text as the chart's context passed it on: after its minus sign)
  assert.ok(texts.some((t) => /∠\(q, k\) = −30\.0°/.test(t)), texts.join(' | '));
  assert.ok(texts.includes('−1.0') && texts.includes('−0.5'), 'Chart.js ticks too');
  assert.deepEqual(texts.filter((t) => /(^|[\s(=:,])-\.?\d/.test(t)), []);
  await close();
});

test('§4 heatmap: an application that takes its keys, PageUp/PageDown move 10 columns, the mark shows at (0, 0)', async () => {
  const { page, close } = await chart('chart=sin-heatmap');
  const canvas = page.locator('.chart-body canvas');
  assert.equal(await canvas.getAttribute('role'), 'application');
  assert.equal(await canvas.getAttribute('aria-roledescription'), 'heatmap');
  assert.ok((await canvas.getAttribute('aria-label')).length > 20);
  // the mark is pure black inside pure white: neither colour is in coolwarm or the theme's text
  const marked = () => page.evaluate(() => {
    const c = document.querySelector('.chart-body canvas'), r = devicePixelRatio;
    const { data } = c.getContext('2d').getImageData(Math.round(52 * r), Math.round(2 * r), Math.round(24 * r), Math.round(24 * r));
    let black = 0, white = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] < 250) continue;
      if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 0) black++;
      if (data[i] >= 240 && data[i + 1] >= 240 && data[i + 2] >= 240) white++; // (coolwarm is at most 225)
    }
    return { black, white };
  });
  const before = await marked();
  assert.equal(before.black, 0, 'no mark before focus');
  await canvas.focus();
  const hover = () => page.locator('.heatmap-hover').textContent();
  assert.match(await hover(), /^PE\(0, 0\) = /, 'focus shows the first cell');
  const at = await marked();
  assert.ok(at.black >= 20 && at.white >= 20, `the mark at (0, 0): ${JSON.stringify(at)}`);
  await page.keyboard.press('PageDown');
  assert.match(await hover(), /^PE\(0, 10\) = /);
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageUp');
  assert.match(await hover(), /^PE\(0, 10\) = /);
  await page.keyboard.press('Control+ArrowDown');
  assert.match(await hover(), /^PE\(10, 10\) = /);
  await page.keyboard.press('End');
  assert.match(await hover(), /^PE\(10, 511\) = /);
  await page.keyboard.press('Control+Home');
  assert.match(await hover(), /^PE\(0, 0\) = /);
  const scrolled = await page.evaluate(() => scrollY);
  assert.equal(scrolled, 0, 'PageDown did not scroll the page');
  await close();
});
