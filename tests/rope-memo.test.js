// RoPE calls with positions keep the cos/sin table of the last key seen twice in a row (rope.js
// RopeMemo): positions, theta_i (base, rotaryDim, scaling) and the attention factor. Here: a
// memoised call gives the unmemoised bits (the first call with a key runs the fused kernel; a
// fresh instance is the reference), any change of a key part recomputes, a failing call leaves
// the memo as it was, and the table stays bounded and is freed when the key changes or the heap
// limit needs room.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc } from '../web/lib/posenc.js';
import { randomFloats } from './reference.js';

const range = (n, start = 0) => Array.from({ length: n }, (_, r) => start + r);
const bits = (a) => new Uint32Array(a.buffer, a.byteOffset, a.length);
const sameBits = (a, b, what) => assert.deepEqual(bits(a), bits(b), what);
const live = (pe) => pe.heapBytes().inUse - pe.heapBytes().cached;
// what `cached` holds besides a table: the kept copy of theta_i (rotaryDim/2 doubles and
// malloc's own word), here at most rotaryDim 128
const THETA = 8 * 64 + 16;

/** applyRope on an instance that has seen nothing: the fused kernel, no memo. */
async function fresh(simd, x, o) {
  return (await loadPosenc({ simd })).applyRope(x, o);
}

for (const simd of [true, false]) {
  const name = simd ? 'simd' : 'scalar';
  describe(`the RoPE table memo (${name})`, () => {
    test('the first, second (table built) and later calls with a key give the fused bits', async () => {
      const cases = [
        { heads: 1, headDim: 64, style: 'half', positions: range(512) },
        { heads: 4, headDim: 40, rotaryDim: 24, style: 'interleaved', positions: range(300, 1000) },
        { heads: 2, headDim: 128, style: 'half', positions: range(70, 262000), base: 500000 },
        { heads: 3, headDim: 64, style: 'half', positions: range(200, 5), scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 64 } },
        { heads: 1, headDim: 8, style: 'interleaved', positions: [7, 3, 3, 1e6, 0.5] },
      ];
      for (const o of cases) {
        const pe = await loadPosenc({ simd });
        const x = randomFloats(o.positions.length * o.heads * o.headDim, 3);
        const want = await fresh(simd, x, o);
        sameBits(pe.applyRope(x, o), want, 'first call');
        assert.equal(pe.heapBytes().cached, 0, 'no table after one call');
        sameBits(pe.applyRope(x, o), want, 'second call (builds the table)');
        assert.ok(pe.heapBytes().cached >= 8 * o.positions.length * ((o.rotaryDim ?? o.headDim) / 2), 'the table is kept');
        for (let i = 0; i < 2; i++) sameBits(pe.applyRope(x, o), want, `call ${i + 3}`);
        const out = new Float32Array(x.length);
        sameBits(pe.applyRope(x, { ...o, out }), want, 'with out');
        sameBits(pe.applyRope(x, { ...o, positions: Float64Array.from(o.positions) }), want, 'positions as a Float64Array');
        const t = pe.tensor(x);
        try {
          sameBits(pe.applyRopeInPlace(t, o).array, want, 'in place');
        } finally {
          t.free();
        }
      }
    });

    test('a change of any key part recomputes', async () => {
      const pe = await loadPosenc({ simd });
      const base = { heads: 2, headDim: 64, style: 'half', positions: range(100, 10) };
      const x = randomFloats(100 * 2 * 64, 4);
      const variants = [
        ['base', { base: 20000 }],
        ['rotaryDim', { rotaryDim: 32 }],
        ['scaling', { scaling: { type: 'linear', factor: 2 } }],
        ['attention factor', { scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 64, attentionFactor: 1.5 } }],
        ['attention factor only', { scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 64, attentionFactor: 1.25 } }],
        ['start', { positions: range(100, 11) }],
        ['one position', { positions: [...range(99, 10), 500] }],
        ['-0 for 0', { positions: [-0, ...range(99, 1)] }],
        ['+0 again', { positions: range(100) }],
      ];
      for (const [what, change] of [['the key itself', {}], ...variants, ['the key again', {}]]) {
        const o = { ...base, ...change };
        const want = await fresh(simd, x, o);
        for (let i = 0; i < 3; i++) sameBits(pe.applyRope(x, o), want, `${what}, call ${i + 1}`);
      }
      // n: fewer rows of the same positions
      const o = { ...base, positions: range(60, 10) }, xs = x.subarray(0, 60 * 2 * 64);
      const want = await fresh(simd, xs, o);
      for (let i = 0; i < 3; i++) sameBits(pe.applyRope(xs, o), want, `n, call ${i + 1}`);
      // a caller's positions array changed after a call: its new values are the key
      const p = Float64Array.from(range(100, 10)), q = { ...base, positions: p };
      pe.applyRope(x, q);
      pe.applyRope(x, q);
      p[50] = 7;
      sameBits(pe.applyRope(x, q), await fresh(simd, x, q), 'positions written to in between');
    });

    test('a failing call leaves the memo as it was', async () => {
      const pe = await loadPosenc({ simd });
      const o = { heads: 1, headDim: 64, style: 'half', positions: range(256) };
      const x = randomFloats(256 * 64, 5), want = await fresh(simd, x, o);
      pe.applyRope(x, o);
      pe.applyRope(x, o);
      const cached = pe.heapBytes().cached, inUse = pe.heapBytes().inUse;
      assert.ok(cached > 0);
      const bad = x.slice();
      bad[1000] = NaN;
      const badPos = Float64Array.from(o.positions);
      badPos[9] = Infinity;
      const failing = [
        [() => pe.applyRope(bad, o), /x\[1000\]/],
        [() => pe.applyRope(bad, { ...o, out: new Float32Array(x.length) }), /x\[1000\]/],
        [() => pe.applyRope(bad, { ...o, base: 77 }), /x\[1000\]/],
        [() => pe.applyRope(x, { ...o, positions: badPos }), /positions\[9\]/],
        [() => pe.applyRope(x, { ...o, positions: [...o.positions.slice(0, 255), -1] }), /positions\[255\]/],
        [() => pe.applyRope(x.subarray(1), o), /^x /],
        [() => pe.applyRope(x, { ...o, base: 0.5 }), /base/],
      ];
      for (const [call, re] of failing) {
        assert.throws(call, (e) => e instanceof RangeError && re.test(e.message), `${call}`);
        assert.deepEqual([pe.heapBytes().cached, pe.heapBytes().inUse], [cached, inUse], `${call}: the memo changed`);
        sameBits(pe.applyRope(x, o), want, `${call}: the next call`);
      }
      // a failing call on the key's second sighting (the kernel's check of x refuses it after the
      // table is built): no table kept, and the next call builds it right
      const q = { ...o, positions: range(256, 3) }, wantQ = await fresh(simd, x, q);
      pe.applyRope(x, q);
      const afterFirst = pe.heapBytes();
      assert.throws(() => pe.applyRope(bad, q), /x\[1000\]/);
      assert.deepEqual(pe.heapBytes(), afterFirst, 'the failing second sighting left a table');
      sameBits(pe.applyRope(x, q), wantQ, 'after a failing second sighting');
    });

    test('bounded, freed when the key changes or the heap needs room, and no leak', async () => {
      const pe = await loadPosenc({ simd });
      const before = pe.heapBytes().inUse;
      const big = { heads: 1, headDim: 128, style: 'half', positions: range(4096) }; // a 2 MiB table: never kept
      const xb = randomFloats(4096 * 128, 6);
      for (let i = 0; i < 3; i++) pe.applyRope(xb, big);
      assert.ok(pe.heapBytes().cached <= THETA, 'a table past 1 MiB is not kept');
      const max = { ...big, positions: range(2048) }; // exactly 1 MiB
      for (let i = 0; i < 3; i++) pe.applyRope(xb.subarray(0, 2048 * 128), max);
      assert.ok(pe.heapBytes().cached >= 2 ** 20 && pe.heapBytes().cached < 2 ** 20 + 64 + THETA);
      const small = { heads: 1, headDim: 8, style: 'half', positions: range(30) }, xs = randomFloats(240, 7);
      pe.applyRope(xs, small);
      assert.ok(pe.heapBytes().cached <= THETA, 'the old table goes when the key changes');
      // 10^4 calls over three keys, failing ones included
      const x = randomFloats(64 * 2 * 16, 8), bad = x.slice();
      bad[5] = NaN;
      const keys = [0, 1, 2].map((k) => ({ heads: 2, headDim: 16, style: 'interleaved', positions: range(64, k) }));
      for (let i = 0; i < 10000; i++) {
        const o = keys[Math.floor(i / 3) % 3];
        if (i % 7 === 0) assert.throws(() => pe.applyRope(bad, o), RangeError);
        else pe.applyRope(x, o);
        assert.ok(pe.heapBytes().cached <= 8 * 64 * 8 + 64 + THETA);
      }
      assert.equal(live(pe), before, 'bytes in use besides the memo');
      // the heap limit frees the table before it refuses a call
      const tight = await loadPosenc({ simd, maxHeapBytes: 6 * 2 ** 20 });
      for (let i = 0; i < 2; i++) tight.applyRope(xb.subarray(0, 2048 * 128), max);
      assert.ok(tight.heapBytes().cached >= 2 ** 20);
      const t = tight.tensor(5 * 2 ** 18); // 5 MiB: fits only without the table
      assert.ok(tight.heapBytes().cached <= THETA);
      t.free();
      sameBits(tight.applyRope(xb.subarray(0, 2048 * 128), max), await fresh(simd, xb.subarray(0, 2048 * 128), max), 'after the drop');
    });
  });
}
