// readme-sizes.test.js: the sizes README.md gives of what the build writes, in MB of 10^6 bytes
// (as the GIF panel and upload limits count), against the files themselves: within 0.06 MB, so a
// figure rounded to one decimal stays right as the build changes by a little, and a figure in
// MiB (1.6 for 1.69 MB) does not pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Bytes under a path, a folder summed. */
function bytes(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((n, f) => n + bytes(join(path, f)), 0);
}

const said = (re) => {
  const m = re.exec(readme);
  assert.ok(m, `README says ${re}`);
  return Number(m[1]);
};

test('README gives the light embed\'s and the one-script build\'s sizes in MB of 10^6 bytes', () => {
  for (const [re, path] of [[/`dist\/module\/` folder \(the light embed, ([\d.]+) MB\)/, 'dist/module'],
    [/every chart in one classic script \(([\d.]+) MB\)/, 'dist/posenc.js']]) {
    const mb = bytes(join(ROOT, path)) / 1e6;
    assert.ok(Math.abs(said(re) - mb) <= 0.06, `${path}: README ${said(re)} MB, the build ${mb.toFixed(3)} MB`);
  }
});

test('README names both single files a teacher opens without a server, and the build writes them', () => {
  for (const f of ['standalone.html', 'standalone-teaching.html']) {
    assert.ok(readme.includes(`dist/${f}`), `README names dist/${f}`);
    assert.ok(bytes(join(ROOT, 'dist', f)) > 10_000, `dist/${f} is built`);
  }
});
