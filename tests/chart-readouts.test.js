// chart-readouts.test.js: what five charts say matches what they draw, at settings beyond their
// defaults, in English and Chinese: binary names every position at the lifted point once the code
// wraps; single-frequency calls two values nearly equal only when B − A is close to a whole number
// of periods; precision-heatmap leads with the pair that goes wrong first; the concat line of the
// sinusoidal layouts is drawn over the interleaved one it equals; Llama 4's temperature panel
// says which layers it belongs to.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageReady } from './browser.js';

let b, en, zh;
before(async () => {
  b = await startBrowser();
  en = (await b.open()).page;
  zh = (await b.open('?lang=zh')).page;
  await Promise.all([pageReady(en), pageReady(zh)]);
});
after(async () => b?.close());

/** Sets control `name` of chart `kind` on `page`; resolves with { readout, data } once it redrew. */
function set(page, kind, name, value) {
  return page.evaluate(async ({ kind, name, value }) => {
    const box = document.querySelector(`[data-chart="${kind}"]`);
    const inputs = box.querySelectorAll(`.controls [name="${name}"]`);
    const input = inputs[inputs.length - 1];
    if (input.value === String(value)) return { readout: box.querySelector('.readout').textContent, data: JSON.parse(JSON.stringify(window.posencPage.charts.get(kind).data)) };
    const drawn = new Promise((resolve) => box.addEventListener('posenc:drawn', resolve, { once: true }));
    input.value = String(value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await drawn;
    return { readout: box.querySelector('.readout').textContent, data: JSON.parse(JSON.stringify(window.posencPage.charts.get(kind).data)) };
  }, { kind, name, value });
}

test('binary: the lift names every position bit 2 lifts, and every one at (0, 0, 1), and says the code repeats once it does', async () => {
  await set(en, 'binary', 'bits', 3);
  const runs = (ps) => ps.reduce((rs, p) => (rs.at(-1)?.[1] === p - 1 ? (rs.at(-1)[1] = p) : rs.push([p, p]), rs), [])
    .map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(' and ');
  for (let length = 5; length <= 16; length++) {
    const { readout, data } = await set(en, 'binary', 'length', length);
    const at = data.rows.filter((r) => r[1] === 0 && r[2] === 0 && r[3] === 1).map((r) => r[0]);
    const up = runs(data.rows.filter((r) => r[3] === 1).map((r) => r[0]));
    if (up === '4') assert.ok(readout.includes('bit 2 lifts position 4 off the xy plane, to (0, 0, 1), and '), `length ${length}: ${readout}`);
    else if (at.length === 1) assert.ok(readout.includes(`bit 2 lifts positions ${up} off the xy plane (position 4 to (0, 0, 1)), and `), `length ${length}: ${readout}`);
    else assert.ok(readout.includes(`bit 2 lifts positions ${up} off the xy plane (positions ${at.join(' and ')} to (0, 0, 1): the code repeats every 8 positions)`), `length ${length}: ${readout}`);
  }
  await set(zh, 'binary', 'bits', 3);
  const { readout } = await set(zh, 'binary', 'length', 16);
  assert.match(readout, /第 2 位把位置 4–7 和 12–15 抬离 xy 平面（位置 4 和 12 抬到 \(0, 0, 1\)：编码每隔 8 个位置重复一次），/);
  await set(en, 'binary', 'length', 5);
});

test('single-frequency: "nearly coincide" only near a whole number of periods; otherwise the gap and how far from one', async () => {
  const cases = [
    // [A, B, what the readout must say]
    [2, 8, /^sin 2 = 0\.909 and sin 8 = 0\.989 differ by only 0\.0801: 8 − 2 = 6 is 0\.283 short of one period \(2π ≈ 6\.283\), so the two nearly coincide\.$/],
    [2, 5, /^sin 2 = 0\.909 and sin 5 = −0\.959 differ by 1\.87: 5 − 2 = 3 is less than half a period \(2π ≈ 6\.283\)\.$/],
    [2, 13, /^sin 2 = 0\.909 and sin 13 = 0\.420 differ by 0\.489: 13 − 2 = 11 is 1\.57 short of 2 periods \(2·2π ≈ 12\.57\)\.$/],
    [0, 19, /differ by only 0\.15: 19 − 0 = 19 is 0\.15 more than 3 periods \(3·2π ≈ 18\.85\), so the two nearly coincide\.$/],
    [1, 2, /differ by 0\.0678: .* They are close only because a sine takes each value twice a period/],
    [3, 3, /^A and B are the same position: sin 3 = 0\.141\.$/],
  ];
  const readout = async (page, a, bb) => {
    await set(page, 'single-frequency', 'a', a);
    return (await set(page, 'single-frequency', 'b', bb)).readout;
  };
  for (const [a, bb, want] of cases) {
    const text = await readout(en, a, bb);
    const notice = a === 2 && bb === 8 || a === 0 && bb === 19 ? 'Positions' : 'One sine repeats';
    assert.ok(text.startsWith(notice), `${a}, ${bb}: ${text}`);
    assert.match(text.slice(text.indexOf('. ') + 2), want, `${a}, ${bb}`);
  }
  // over a sweep: "only" and "nearly coincide" exactly where |B − A| is within 0.35 of k·2π (k ≥ 1) and the gap within 0.2
  for (let bb = 0; bb <= 40; bb += 3) {
    const text = await readout(en, 4, bb);
    const d = Math.abs(bb - 4), k = Math.round(d / (2 * Math.PI)), gap = Math.abs(Math.sin(4) - Math.sin(bb));
    const near = k > 0 && Math.abs(d - 2 * Math.PI * k) <= 0.35 && gap <= 0.2;
    assert.equal(/nearly coincide/.test(text), near, `4, ${bb}: ${text}`);
    assert.equal(/differ by only/.test(text), near, `4, ${bb}: ${text}`);
  }
  assert.match(await readout(zh, 2, 5), /sin 2 = 0\.909 与 sin 5 = −0\.959 相差 1\.87：5 − 2 = 3，还不到半个周期（2π ≈ 6\.283）。$/);
  assert.match(await readout(zh, 2, 13), /相差 0\.489：13 − 2 = 11，比 2 个周期（2·2π ≈ 12\.57）少 1\.57。$/);
  assert.match(await readout(zh, 2, 8), /^位置 2 和 8 相隔约一个周期：.*只相差 0\.0801：8 − 2 = 6，比一个周期（2π ≈ 6\.283）少 0\.283，所以两个值几乎重合。$/);
  await readout(en, 2, 8);
});

test('precision-heatmap: the notice leads with the pair that goes wrong first, at every type, in both languages', async () => {
  for (const type of ['bfloat16', 'float16', 'inv_freq bf16 early', 'float32']) {
    const { readout, data } = await set(en, 'precision-heatmap', 'type', type);
    const m = data.measured;
    assert.doesNotMatch(readout, /fast pairs go wrong first/i, type);
    assert.match(readout, new RegExp(`^Pair ${m.firstPair} is the first off by more than 0\\.01, at position ${m.firstAt}[.;] `), type);
    // the rough rule only where the map bears it out
    const wrong = data.columns.slice(1).filter((_, i) => data.rows.some((r) => r[1 + i] > 0.01)).length;
    assert.equal(/Across the map, faster pairs go wrong earlier/.test(readout), m.inOrder >= 0.75 && wrong >= 8, `${type}: ${m.inOrder}, ${wrong} pairs go wrong`);
    const z = (await set(zh, 'precision-heatmap', 'type', type)).readout;
    assert.match(z, new RegExp(`^第 ${m.firstPair} 对最先出错，在位置 ${m.firstAt} 处误差超过 0\\.01[。；]`), type);
    assert.doesNotMatch(z, /^快的维度对先出错/, type);
  }
  // d = 4: two pairs, no pair pairs to order, so no rule
  const { readout, data } = await set(en, 'precision-heatmap', 'dim', 4);
  if (data.measured.firstPair >= 0) assert.doesNotMatch(readout, /Across the map/);
  await set(en, 'precision-heatmap', 'dim', 64);
  await set(en, 'precision-heatmap', 'type', 'bfloat16');
});

test('sinusoidal-layouts: the concat line is drawn over the interleaved one, the legend keeps the layouts\' order, the readout says they coincide', async () => {
  for (const [page, coincide] of [[en, /\(the dashed concat line lies on the interleaved one\)/], [zh, /（拼接的虚线与交错的实线重合）/]]) {
    const drawn = await page.evaluate(() => {
      const box = document.querySelector('[data-chart="sinusoidal-layouts"]');
      const c = Object.values(window.Chart.instances).find((x) => box.contains(x.canvas));
      // Chart.js draws the sorted datasets last to first: the first one is on top
      return { top: c.getSortedVisibleDatasetMetas()[0].index, legend: c.legend.legendItems.map((it) => it.datasetIndex), dash: c.legend.legendItems[1].lineDash };
    });
    assert.deepEqual(drawn, { top: 1, legend: [0, 1, 2], dash: [6, 4] });
    assert.match(await page.$eval('[data-chart="sinusoidal-layouts"] .readout', (e) => e.textContent), coincide);
  }
});

test('model-positions: Llama 4 Scout\'s temperature panel names its layers, the ones without RoPE', async () => {
  const title = (page) => page.evaluate(() => {
    const box = document.querySelector('[data-chart="model-positions"]');
    const c = Object.values(window.Chart.instances).filter((x) => box.contains(x.canvas))[1];
    return { shown: c.canvas.parentElement.style.display !== 'none', text: [].concat(c.titleBlock.options.text), x: c.scales.x.options.title.text, y: c.scales.y.options.title.text };
  });
  await set(en, 'model-positions', 'model', 'llama-4-scout');
  await set(zh, 'model-positions', 'model', 'llama-4-scout');
  assert.deepEqual(await title(en), {
    shown: true,
    text: ['The full_attention layers (12 layers), which have no RoPE: query temperature', 'the factor each query is multiplied by; it grows with the position'],
    x: 'query position (log scale)', y: 'query temperature',
  });
  assert.deepEqual(await title(zh), {
    shown: true, text: ['不用 RoPE 的 full_attention 层（12 层）：query 温度', '每个 query 都要乘上的系数，随位置增大'],
    x: 'query 位置（对数坐标）', y: 'query 温度',
  });
  await set(en, 'model-positions', 'model', 'gemma-4');
  assert.equal((await title(en)).shown, false, 'no temperature, no panel');
});

test('model-positions: a YaRN ×4 config is for 4 × L0 tokens: its context line and its cache are for 131072 positions', async () => {
  const { readout } = await set(en, 'model-positions', 'model', 'qwen2-7b-yarn4');
  // 131072 positions × 64 pairs × cos and sin × 4 bytes
  assert.match(readout, /cos\/sin cache for 131072 positions: 64 MiB/);
  assert.match(readout, /complete a turn within L₀ = 32768/);
  const lines = await en.evaluate(() => {
    const box = document.querySelector('[data-chart="model-positions"]');
    const c = Object.values(window.Chart.instances).find((x) => box.contains(x.canvas));
    return c.data.datasets.map((d) => d.label);
  });
  assert.ok(lines.includes('context = 131072') && lines.some((l) => /L₀ = 32768/.test(l)), lines.join(' | '));
  await set(en, 'model-positions', 'model', 'gemma-4');
});
