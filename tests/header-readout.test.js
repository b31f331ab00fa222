// header-readout.test.js: section 22's line of what reading the weights' header took. A server
// without Range support (python -m http.server) answers the first 64 KiB asked for with the
// whole file: the line says what was read for the header, never that the file's header is that
// large; and a server with Range support reads less than the file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBrowser } from './browser.js';

const WEB = fileURLToPath(new URL('../web/', import.meta.url));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm' };
const WEIGHTS = join(WEB, 'build', 'lab-model', 'model.safetensors');

let b, plain;
before(async () => {
  b = await startBrowser();
  // a static server that ignores Range: every file whole, status 200
  plain = createServer(async (req, res) => {
    const path = normalize(join(WEB, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
    try {
      const body = await readFile(path);
      res.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream', 'Content-Length': body.length });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => plain.listen(0, '127.0.0.1', resolve));
});
after(async () => {
  await b?.close();
  await new Promise((resolve) => plain?.close(resolve));
});

/** The model panel's line about model.safetensors, read from the real-attention embed at `origin`. */
async function weightsLine(origin, lang) {
  const context = await b.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/embed.html?chart=real-attention&lang=${lang}`);
  const line = page.getByText(/^model\.safetensors [^,、]*\d kB$/);
  await line.waitFor({ timeout: 60_000 });
  const text = (await line.textContent()).trim();
  await context.close();
  return text;
}

test('section 22 says what was read for the weights\' header, also when the server sent the whole file', async () => {
  const whole = (await stat(WEIGHTS)).size;
  const plainOrigin = `http://127.0.0.1:${plain.address().port}`;
  const en = await weightsLine(plainOrigin, 'en');
  const m = /^model\.safetensors \(bytes read for its header\): ([\d.]+) kB$/.exec(en);
  assert.ok(m, en);
  assert.ok(Number(m[1]) * 1000 >= whole - 100, `${en}: the whole file (${whole} bytes) was read`);
  const zh = await weightsLine(plainOrigin, 'zh');
  assert.match(zh, /^model\.safetensors 为读取文件头而读入的字节：[\d.]+ kB$/, zh);
  // with Range: less than the file
  const ranged = /([\d.]+) kB$/.exec(await weightsLine(b.url.replace(/\/$/, ''), 'en'));
  assert.ok(Number(ranged[1]) * 1000 < whole, `${ranged[0]} read of ${whole} bytes`);
});
