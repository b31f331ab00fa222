// The RoPE kernels out of place (out != x), which the JS API never calls (its copies are rotated
// in place) but the C API offers: in both builds, the same bits as in place, x left untouched,
// for both styles, partial rotary and every SIMD tail, with a table and fused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instantiate } from '../web/lib/heap.js';
import { randomFloats } from './reference.js';

const STYLE = { interleaved: 0, half: 1 };

for (const file of ['posenc.wasm', 'posenc-scalar.wasm']) {
  test(`${file}: rope apply out of place equals in place and leaves x alone`, async () => {
    const heap = await instantiate(new URL(`../web/build/${file}`, import.meta.url));
    for (const [seq, heads, headDim, rotaryDim] of [[3, 1, 8, 8], [5, 2, 64, 64], [4, 3, 10, 6], [2, 32, 128, 128], [7, 1, 18, 16]]) {
      const n = seq * heads * headDim, half = rotaryDim / 2;
      const x = randomFloats(n, seq + headDim);
      const positions = Float64Array.from({ length: seq }, (_, i) => i * 37 + 5);
      for (const style of Object.keys(STYLE)) {
        heap.scoped((h) => {
          const inv = h.alloc(Float64Array, half);
          heap.call('posenc_rope_inv_freq', inv, rotaryDim, 10000);
          const cos = h.alloc(Float32Array, seq * half), sin = h.alloc(Float32Array, seq * half);
          const pp = h.copyIn(positions);
          heap.call('posenc_rope_cache', cos, sin, pp, seq, inv, half, 1);
          for (const kernel of ['table', 'fused']) {
            const xin = h.copyIn(x), out = h.alloc(Float32Array, n), xip = h.copyIn(x);
            const args = kernel === 'table' ? [cos, sin] : [pp, inv, 1];
            const name = kernel === 'table' ? 'posenc_rope_apply_table' : 'posenc_rope_apply';
            heap.call(name, out, xin, seq, heads, headDim, rotaryDim, STYLE[style], ...args);
            heap.call(name, xip, xip, seq, heads, headDim, rotaryDim, STYLE[style], ...args);
            const what = `${kernel} ${style} ${seq}x${heads}x${headDim}/${rotaryDim}`;
            assert.deepEqual(h.copyOut(Float32Array, out, n), h.copyOut(Float32Array, xip, n), what);
            assert.deepEqual(h.copyOut(Float32Array, xin, n), Float32Array.from(x), `${what}: x untouched`);
          }
        });
      }
    }
  });
}
