// serve.js answers one-range Range requests (how the page reads the lab's model, and how a
// safetensors file is read a tensor at a time): 206 with Content-Range, suffix ranges, 416 past
// the end, and the whole file (200) without a Range header.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve } from '../web/tools/serve.js';

const server = await serve({ port: 0 });
after(() => server.close());
const FILE = 'build/lab-model/model.safetensors';
const bytes = readFileSync(new URL(`../web/${FILE}`, import.meta.url));
const get = (range) => fetch(server.url + FILE, range ? { headers: { Range: range } } : {});

test('a byte range: 206, Content-Range, exactly those bytes', async () => {
  const res = await get('bytes=8-27');
  assert.equal(res.status, 206);
  assert.equal(res.headers.get('content-range'), `bytes 8-27/${bytes.length}`);
  assert.equal(res.headers.get('accept-ranges'), 'bytes');
  assert.deepEqual(new Uint8Array(await res.arrayBuffer()), new Uint8Array(bytes.subarray(8, 28)));
});

test('open and suffix ranges, a range past the end clipped, and 416 when it starts past the end', async () => {
  let res = await get(`bytes=${bytes.length - 5}-`);
  assert.equal(res.status, 206);
  assert.deepEqual(new Uint8Array(await res.arrayBuffer()), new Uint8Array(bytes.subarray(bytes.length - 5)));
  res = await get('bytes=-3');
  assert.equal(res.headers.get('content-range'), `bytes ${bytes.length - 3}-${bytes.length - 1}/${bytes.length}`);
  assert.equal((await res.arrayBuffer()).byteLength, 3);
  res = await get(`bytes=0-${bytes.length + 100}`);
  assert.equal(res.status, 206);
  assert.equal((await res.arrayBuffer()).byteLength, bytes.length);
  for (const bad of [`bytes=${bytes.length}-`, 'bytes=9-3', 'bytes=0-1,4-5', 'items=0-3']) {
    res = await get(bad);
    assert.equal(res.status, 416, bad);
    assert.equal(res.headers.get('content-range'), `bytes */${bytes.length}`);
    await res.arrayBuffer();
  }
});

test('no Range header: the whole file, 200', async () => {
  const res = await get(null);
  assert.equal(res.status, 200);
  assert.equal((await res.arrayBuffer()).byteLength, bytes.length);
});
