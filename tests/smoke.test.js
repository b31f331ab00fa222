import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc } from '../web/lib/posenc.js';

test('both builds load and report which they are', async () => {
  assert.equal((await loadPosenc({ simd: true })).simd, true);
  assert.equal((await loadPosenc({ simd: false })).simd, false);
});
