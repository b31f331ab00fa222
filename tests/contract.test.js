// The contract between the C header and what uses it: the status codes the JS wrapper explains
// are exactly posenc.h's, exports.txt lists exactly the header's functions in its order (and the
// lab's, from c/lab/lab.h), and both .wasm builds export every one of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { STATUS, instantiate } from '../web/lib/heap.js';

const read = (p) => readFileSync(new URL(p, import.meta.url), 'utf8');
const header = read('../c/posenc.h');
const labHeader = existsSync(new URL('../c/lab/lab.h', import.meta.url)) ? read('../c/lab/lab.h') : '';
const declared = (h) => [...h.matchAll(/^(?:int|int32_t|void|double|float|lab_real) \*?(posenc_\w+)\(/gm)].map((m) => m[1]);

test('the JS wrapper explains exactly the status codes of posenc.h', () => {
  const block = header.slice(header.indexOf('typedef enum {'), header.indexOf('} posenc_status;'));
  const codes = Object.fromEntries([...block.matchAll(/(POSENC_\w+) = (-?\d+)/g)].map((m) => [m[1], Number(m[2])]));
  assert.equal(codes.POSENC_OK, 0);
  const negative = Object.values(codes).filter((c) => c < 0).sort((a, b) => a - b);
  assert.deepEqual(Object.keys(STATUS).map(Number).sort((a, b) => a - b), negative);
});

test('exports.txt: the header\'s functions in the header\'s order, then the lab\'s, malloc and free', () => {
  const exports = read('../c/exports.txt').trim().split('\n');
  const core = declared(header), lab = declared(labHeader);
  assert.deepEqual(exports.filter((e) => core.includes(e)), core, 'every posenc.h function, in order');
  const rest = exports.filter((e) => !core.includes(e));
  for (const e of rest) assert.ok(lab.includes(e) || e === 'malloc' || e === 'free', `${e} is declared in a header`);
  assert.ok(rest.includes('malloc') && rest.includes('free'));
  assert.equal(new Set(exports).size, exports.length, 'no export twice');
});

test('both builds export every function exports.txt lists', async () => {
  const exports = read('../c/exports.txt').trim().split('\n');
  for (const file of ['posenc.wasm', 'posenc-scalar.wasm']) {
    const heap = await instantiate(new URL(`../web/build/${file}`, import.meta.url));
    for (const e of exports) assert.equal(typeof heap.fn[e], 'function', `${file} exports ${e}`);
  }
});
