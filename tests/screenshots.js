// screenshots.js: `node tests/screenshots.js [sectionId ...] [--width=360] [--lang=zh] [--theme=dark]` saves a PNG of
// each section (default: all) to tests/artifacts/, for looking at what the page shows.
import { mkdirSync } from 'node:fs';
import { startBrowser, pageReady } from './browser.js';

const args = process.argv.slice(2);
const width = Number(args.find((a) => a.startsWith('--width='))?.slice(8) ?? 1200);
const lang = args.find((a) => a.startsWith('--lang='))?.slice(7);
const theme = args.find((a) => a.startsWith('--theme='))?.slice(8);
const query = new URLSearchParams({ ...(lang && { lang }), ...(theme && { theme }) }).toString();
const suffix = [lang, theme].filter(Boolean).map((x) => `-${x}`).join('');
const ids = args.filter((a) => !a.startsWith('--'));
const dir = new URL('./artifacts/', import.meta.url);
mkdirSync(dir, { recursive: true });

const b = await startBrowser();
try {
  const { page, problems } = await b.open(query ? `?${query}` : '', { viewport: { width, height: 900 } });
  await pageReady(page);
  // every section laid out at its true height: one out of view has a stand-in height until the
  // reader nears it (content-visibility), and the shot would be cut to that
  await page.evaluate(() => {
    for (const s of document.querySelectorAll('main > section')) s.style.contentVisibility = 'visible';
  });
  const sections = ids.length ? ids : await page.$$eval('main > section', (s) => s.map((x) => x.id));
  for (const id of sections) {
    const file = new URL(`${id}-${width}${suffix}.png`, dir);
    await page.locator(`#${id}`).screenshot({ path: file.pathname });
    console.log(file.pathname);
  }
  console.log(JSON.stringify(problems, null, 1));
} finally {
  await b.close();
}
