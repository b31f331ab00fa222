// The RoPE rotations check x themselves (c/rope.c: a pair's x0 cos - x1 sin is not finite
// whenever x0, x1, cos or sin is not): they return POSENC_NONFINITE after rotating, and the JS
// API turns that into the RangeError a scan gave, naming x, cos or sin and the index, with
// `out`, the table memo and the heap as they were. Here, in both builds: the kernels' status
// for a NaN or an infinity at the first, a middle and the last element (rotated dims and
// passed-through ones, every path: table, fused, progression, SIMD tails), their output bits
// against the rotation computed in JS from the cache, and the API's errors and what a refused
// call leaves.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { instantiate, NONFINITE } from '../web/lib/heap.js';
import { loadPosenc } from '../web/lib/posenc.js';
import { randomFloats } from './reference.js';

const STYLE = { interleaved: 0, half: 1 };
const BAD = [NaN, Infinity, -Infinity];
const bits = (a) => new Uint32Array(a.buffer, a.byteOffset, a.length);

/** x rotated in float32 by the table (cos, sin) [seq][rot/2], as the kernels' scalar form does. */
function rotateJS(x, cos, sin, { seq, heads, headDim, rot, style }) {
  const y = x.slice(), half = rot / 2, f = Math.fround;
  for (let r = 0; r < seq; r++) for (let h = 0; h < heads; h++) {
    const at = (r * heads + h) * headDim;
    for (let i = 0; i < half; i++) {
      const [i0, i1] = style === 'half' ? [i, i + half] : [2 * i, 2 * i + 1];
      const a = x[at + i0], b = x[at + i1], c = cos[r * half + i], s = sin[r * half + i];
      y[at + i0] = f(f(a * c) - f(b * s));
      y[at + i1] = f(f(a * s) + f(b * c));
    }
  }
  return y;
}

// [seq, heads, headDim, rotaryDim]: the decode step, rows of one head (rotate_rows), partial
// rotary (passed-through dims), pairs past the last vector of four, and a progression (seq >= 24)
const SHAPES = [[1, 32, 128, 128], [6, 1, 64, 64], [3, 3, 10, 6], [2, 2, 18, 18], [30, 2, 16, 12]];

for (const file of ['posenc.wasm', 'posenc-scalar.wasm']) {
  test(`${file}: the rotations report a NaN or an infinity anywhere in x, and rotate as before`, async () => {
    const heap = await instantiate(new URL(`../web/build/${file}`, import.meta.url));
    for (const [seq, heads, headDim, rot] of SHAPES) {
      const n = seq * heads * headDim, half = rot / 2;
      const x = randomFloats(n, n + rot);
      const positions = Float64Array.from({ length: seq }, (_, i) => (seq >= 24 ? 100 + i : i * 37 + 5));
      // the first, a middle and the last element, and one that passes through (partial rotary)
      const at = [0, n >> 1, n - 1, ...(rot < headDim ? [headDim - 1] : [])];
      for (const style of Object.keys(STYLE)) {
        heap.scoped((h) => {
          const inv = h.alloc(Float64Array, half), pp = h.copyIn(positions);
          heap.call('posenc_rope_inv_freq', inv, rot, 10000);
          const cos = h.alloc(Float32Array, seq * half), sin = h.alloc(Float32Array, seq * half);
          heap.call('posenc_rope_cache', cos, sin, pp, seq, inv, half, 1);
          const table = [h.copyOut(Float32Array, cos, seq * half), h.copyOut(Float32Array, sin, seq * half)];
          const want = rotateJS(x, ...table, { seq, heads, headDim, rot, style });
          for (const kernel of ['table', 'fused']) {
            const name = kernel === 'table' ? 'posenc_rope_apply_table' : 'posenc_rope_apply';
            const args = kernel === 'table' ? [cos, sin] : [pp, inv, 1];
            const run = (values) => {
              const px = h.copyIn(values);
              const rc = heap.call(name, px, px, seq, heads, headDim, rot, STYLE[style], ...args);
              return { rc, y: h.copyOut(Float32Array, px, n) };
            };
            const what = `${kernel} ${style} ${seq}x${heads}x${headDim}/${rot}`;
            const ok = run(x);
            assert.equal(ok.rc, 0, `${what}: finite x`);
            assert.deepEqual(bits(ok.y), bits(want), `${what}: the rotation's bits`);
            for (const i of at) {
              for (const v of BAD) {
                const xb = x.slice();
                xb[i] = v;
                assert.equal(run(xb).rc, NONFINITE, `${what}: x[${i}] = ${v}`);
              }
            }
            // the table kernel reports a bad cos or sin the same way (x finite)
            for (const [name, ptr] of kernel === 'table' ? [['cos', cos], ['sin', sin]] : []) {
              for (const j of [0, (seq * half) >> 1, seq * half - 1]) {
                const f32 = heap.view(Float32Array), at32 = ptr / 4 + j, keep = f32[at32];
                for (const v of BAD) {
                  heap.view(Float32Array)[at32] = v;
                  assert.equal(run(x).rc, NONFINITE, `${what}: ${name}[${j}] = ${v}`);
                }
                heap.view(Float32Array)[at32] = keep;
              }
            }
          }
        });
      }
    }
  });
}

for (const simd of [true, false]) {
  describe(`applyRope refuses a NaN or an infinity in x through the kernel's check (${simd ? 'simd' : 'scalar'})`, () => {
    test('the RangeError names x and the index; out, the memo and the heap stay as they were', async () => {
      const pe = await loadPosenc({ simd });
      const heads = 32, headDim = 128, n = heads * headDim;
      const x = randomFloats(n, 9);
      const cache = pe.ropeCache([7], headDim);
      const calls = {
        positions: (xx, out) => pe.applyRope(xx, { heads, headDim, style: 'half', positions: [7], out }),
        table: (xx, out) => pe.applyRope(xx, { heads, headDim, style: 'half', cos: cache.cos, sin: cache.sin, out }),
      };
      for (const [kind, call] of Object.entries(calls)) {
        // first sighting of the key, second (the memo builds its table), later ones (it reads it)
        for (let sighting = 0; sighting < 3; sighting++) {
          for (const i of [0, n >> 1, n - 1]) {
            for (const v of BAD) {
              const xb = x.slice();
              xb[i] = v;
              const out = new Float32Array(n).fill(42), before = pe.heapBytes();
              const re = new RegExp(`^x\\[${i}\\] must be finite, got ${v}$`);
              for (const o of [out, undefined]) {
                assert.throws(() => call(xb, o), (e) => e instanceof RangeError && re.test(e.message), `${kind} x[${i}] = ${v}`);
              }
              assert.ok(out.every((y) => y === 42), `${kind} x[${i}] = ${v}: out was written`);
              assert.deepEqual(pe.heapBytes(), before, `${kind} x[${i}] = ${v}: the heap or the memo changed`);
            }
          }
          const want = calls[kind](x);
          const t = pe.tensor(x);
          try {
            if (kind === 'positions') assert.deepEqual(bits(want), bits(pe.applyRopeInPlace(t, { heads, headDim, style: 'half', positions: [7] }).array));
          } finally {
            t.free();
          }
        }
      }
    });

    test('x past one block, a Float64Array value too large for float32, and an overflow that passes', async () => {
      const pe = await loadPosenc({ simd });
      const o = { heads: 1, headDim: 128, style: 'interleaved' };
      const seq = 600, n = seq * 128; // 300 KiB of x: two blocks
      const x = randomFloats(n, 10), positions = Array.from({ length: seq }, (_, i) => i);
      const want = pe.applyRope(x, { ...o, positions });
      for (const i of [0, 300 * 128 - 1, 300 * 128 + 5, n - 1]) {
        const xb = x.slice();
        xb[i] = NaN;
        assert.throws(() => pe.applyRope(xb, { ...o, positions }), new RegExp(`^RangeError: x\\[${i}\\] must be finite`));
        const out = new Float32Array(n).fill(42);
        assert.throws(() => pe.applyRope(xb, { ...o, positions, out }), new RegExp(`^RangeError: x\\[${i}\\] must be finite`));
        assert.ok(out.every((y) => y === 42), 'out was written');
      }
      assert.deepEqual(bits(pe.applyRope(x, { ...o, positions })), bits(want));
      const x64 = Float64Array.from(x.subarray(0, 128));
      x64[77] = 1e39;
      assert.throws(() => pe.applyRope(x64, { ...o, positions: [3] }), /^RangeError: x\[77\] = 1e\+39 does not fit in Float32Array$/);
      // finite values whose rotation overflows float32: the kernel says so, the JS finds x fine
      const big = new Float32Array(128).fill(3e38);
      const y = pe.applyRope(big, { ...o, positions: [1] });
      const t = pe.tensor(big);
      try {
        assert.deepEqual(bits(y), bits(pe.applyRopeInPlace(t, { ...o, positions: [1] }).array));
        assert.ok(y.some((v) => !Number.isFinite(v)), 'the rotation overflowed');
      } finally {
        t.free();
      }
    });

    test('cos and sin are checked by the rotation too: the error names the table, out untouched', async () => {
      const pe = await loadPosenc({ simd });
      // one block, and 600 rows of one 128-dim head (x, cos and sin past one block)
      for (const [seq, heads, headDim, rotaryDim] of [[1, 32, 128, 128], [3, 3, 10, 6], [600, 1, 128, 128]]) {
        const n = seq * heads * headDim, half = rotaryDim / 2, x = randomFloats(n, n);
        const positions = Array.from({ length: seq }, (_, i) => i);
        const { cos, sin } = pe.ropeCache(positions, rotaryDim);
        const o = { heads, headDim, style: 'interleaved', rotaryDim };
        const want = pe.applyRope(x, { ...o, positions });
        assert.deepEqual(bits(pe.applyRope(x, { ...o, cos, sin })), bits(want), `${seq}x${heads}x${headDim}: the table's bits`);
        for (const [name, table] of [['cos', cos], ['sin', sin]]) {
          for (const i of [0, (seq * half) >> 1, seq * half - 1]) {
            for (const v of BAD) {
              const tb = table.slice();
              tb[i] = v;
              const args = name === 'cos' ? { cos: tb, sin } : { cos, sin: tb };
              const re = new RegExp(`^RangeError: ${name}\\[${i}\\] must be finite, got ${v}$`);
              const out = new Float32Array(n).fill(42);
              assert.throws(() => pe.applyRope(x, { ...o, ...args }), re);
              assert.throws(() => pe.applyRope(x, { ...o, ...args, out }), re);
              assert.ok(out.every((y) => y === 42), `${name}[${i}] = ${v}: out was written`);
              // x bad too, in the same row: the table's error, as when it was scanned before the rotation
              const xb = x.slice();
              xb[Math.floor(i / half) * heads * headDim] = NaN;
              assert.throws(() => pe.applyRope(xb, { ...o, ...args }), re);
            }
          }
        }
        // a float64 table value past float32's range: the error says it does not fit
        const c64 = Float64Array.from(cos);
        c64[seq * half - 1] = 1e39;
        assert.throws(() => pe.applyRope(x, { ...o, cos: c64, sin }), new RegExp(`^RangeError: cos\\[${seq * half - 1}\\] = 1e\\+39 does not fit in Float32Array$`));
      }
    });

    test('applyRopeInPlace still rotates a tensor whatever it holds', async () => {
      const pe = await loadPosenc({ simd });
      const t = pe.tensor(randomFloats(256, 11));
      try {
        t.array[5] = NaN;
        pe.applyRopeInPlace(t, { heads: 2, headDim: 64, style: 'half', positions: [1, 2] });
        assert.ok(Number.isNaN(t.array[5]));
      } finally {
        t.free();
      }
    });
  });
}
