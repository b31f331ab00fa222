// The zero-copy path: pe.tensor() allocations in the wasm heap and applyRopeInPlace on them
// must give the copying API's results bit for bit, survive memory growth (views re-taken),
// refuse use after free(), and reject misuse with errors naming the parameter.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc } from '../web/lib/posenc.js';
import { builds, randomFloats, rope } from './reference.js';

for (const [name, pe] of await builds) {
  describe(`tensors (${name})`, () => {
    test('tensor(n) is zero-filled, tensor(data) a copy, both views of the heap', () => {
      const z = pe.tensor(5);
      assert.equal(z.length, 5);
      assert.deepEqual(Array.from(z.array), [0, 0, 0, 0, 0]);
      const src = [1, -2.5, 3];
      const t = pe.tensor(src);
      assert.deepEqual(Array.from(t.array), src);
      t.array[1] = 7; // writes go to the heap and stay there
      assert.equal(t.array[1], 7);
      assert.equal(src[1], -2.5);
      z.free();
      t.free();
    });

    // shapes around the vector widths: 1..9 pairs, many heads (the expanded interleaved path), partial rotary
    const shapes = [
      [3, 1, 2, 2], [5, 2, 8, 8], [4, 3, 10, 6], [2, 8, 18, 18], [6, 5, 130, 128], [3, 32, 128, 128], [2, 4, 16, 14],
      [2, 4, 1100, 1100], [1, 4, 2100, 2098], // past 256 pairs (expansion chunks) and 1024 (fused chunks)
      [7, 1, 10, 10], [5, 1, 64, 64], [3, 1, 6, 6], [4, 1, 16, 12], // one head: rows as one run (table given)
    ];
    for (const style of ['interleaved', 'half']) {
      test(`applyRopeInPlace matches applyRope bit for bit, fused and table given (${style})`, () => {
        for (const [seq, heads, headDim, rotaryDim] of shapes) {
          const x = randomFloats(seq * heads * headDim, seq * 31 + headDim);
          const positions = Array.from({ length: seq }, (_, i) => i * 977 + (i % 2 ? 1e6 - 5000 : 3));
          const o = { heads, headDim, rotaryDim, style, base: 500000 };
          const want = pe.applyRope(x, { ...o, positions });

          const t = pe.tensor(x);
          assert.equal(pe.applyRopeInPlace(t, { ...o, positions }), t);
          assert.deepEqual(t.array, want, `fused ${seq}×${heads}×${headDim} rot ${rotaryDim}`);

          // and against float64 (many heads take the SIMD build's expanded interleaved path)
          const ref = rope(x, { heads, headDim, rotaryDim, positions, style, base: 500000 });
          let err = 0;
          for (let i = 0; i < ref.length; i++) err = Math.max(err, Math.abs(want[i] - ref[i]));
          assert.ok(err <= 1e-6, `${seq}×${heads}×${headDim} rot ${rotaryDim}: ${err}`);

          const cache = pe.ropeCache(positions, rotaryDim, { base: 500000 });
          const cos = pe.tensor(cache.cos), sin = pe.tensor(cache.sin);
          t.array.set(x);
          pe.applyRopeInPlace(t, { heads, headDim, rotaryDim, style, cos, sin });
          assert.deepEqual(t.array, want, `table ${seq}×${heads}×${headDim} rot ${rotaryDim}`);
          for (const v of [t, cos, sin]) v.free();
        }
      });
    }

    test('memory growth detaches old views; t.array is re-taken and keeps the data', async () => {
      const own = await loadPosenc({ simd: name === 'simd' }); // a fresh heap, so growth is certain
      const x = randomFloats(2 * 4 * 16, 9);
      const t = own.tensor(x);
      const before = t.array;
      assert.equal(t.array, before, 'the same view while memory is unchanged');
      const big = own.tensor(1 << 23); // 32 MiB: past the 4 MiB initial heap
      assert.equal(before.length, 0, 'a view taken before growth is detached');
      assert.notEqual(t.array, before);
      assert.deepEqual(t.array, x);
      own.applyRopeInPlace(t, { heads: 4, headDim: 16, style: 'half', positions: [0, 1] });
      assert.deepEqual(t.array, own.applyRope(x, { heads: 4, headDim: 16, style: 'half', positions: [0, 1] }));
      big.free();
      t.free();
    });

    test('free() releases the bytes; a freed tensor throws on use; freeing twice is harmless', () => {
      const t = pe.tensor(8);
      assert.equal(t.freed, false);
      t.free();
      assert.equal(t.freed, true);
      t.free();
      assert.throws(() => t.array, { name: 'TypeError', message: /freed/ });
      assert.throws(() => pe.applyRopeInPlace(t, { heads: 1, headDim: 8, style: 'half', positions: [0] }),
        { name: 'TypeError', message: /^x was freed/ });
      const c = pe.tensor(4), s = pe.tensor(4), x = pe.tensor(8);
      s.free();
      assert.throws(() => pe.applyRopeInPlace(x, { heads: 1, headDim: 8, style: 'half', cos: c, sin: s }),
        { name: 'TypeError', message: /^sin was freed/ });
      // the heap reuses freed bytes: many allocate/free rounds do not grow it without bound
      for (let i = 0; i < 200; i++) pe.tensor(1 << 16).free();
      c.free();
      x.free();
    });

    test('misuse names the parameter', () => {
      const x = pe.tensor(2 * 3 * 8), cos = pe.tensor(2 * 4), sin = pe.tensor(2 * 4);
      const o = { heads: 3, headDim: 8, style: 'interleaved' };
      const bad = [
        [() => pe.tensor(0), RangeError, /^length/],
        [() => pe.tensor(1.5), TypeError, /^length/],
        [() => pe.tensor('8'), TypeError, /^data/],
        [() => pe.tensor([1, NaN]), RangeError, /^data\[1\]/],
        [() => pe.applyRopeInPlace(new Float32Array(48), { ...o, positions: [0, 1] }), TypeError, /^x must be a tensor/],
        [() => pe.applyRopeInPlace(x, { ...o, style: undefined, positions: [0, 1] }), TypeError, /^style/],
        [() => pe.applyRopeInPlace(x, { ...o, style: 'neox', positions: [0, 1] }), RangeError, /^style/],
        [() => pe.applyRopeInPlace(x, { ...o, heads: 5, positions: [0, 1] }), RangeError, /^x\.length/],
        [() => pe.applyRopeInPlace(x, { ...o, positions: [0, 1, 2] }), RangeError, /^positions/],
        [() => pe.applyRopeInPlace(x, { ...o, positions: [0, -1] }), RangeError, /^positions\[1\]/],
        [() => pe.applyRopeInPlace(x, { ...o, rotaryDim: 9, positions: [0, 1] }), RangeError, /^rotaryDim/],
        [() => pe.applyRopeInPlace(x, { ...o, positions: [0, 1], cos, sin }), TypeError, /positions or cos and sin/],
        [() => pe.applyRopeInPlace(x, { ...o, cos }), TypeError, /^sin must be a tensor/],
        [() => pe.applyRopeInPlace(x, { ...o, cos, sin: cache().sin }), TypeError, /^sin must be a tensor/],
        [() => pe.applyRopeInPlace(x, { ...o, cos, sin, base: 10 }), TypeError, /^base/],
        [() => pe.applyRopeInPlace(x, { ...o, rotaryDim: 4, cos, sin }), RangeError, /^cos must have length 4 \(x's 2 rows × rotaryDim\/2 = 2\), got 8: 4 pairs a row, a table for rotaryDim 8$/],
        [() => pe.applyRopeInPlace(x, 'fast'), TypeError, /^options/],
      ];
      for (const [fn, type, message] of bad) assert.throws(fn, { name: type.name, message }, String(fn));
      for (const v of [x, cos, sin]) v.free();
    });
  });
}

function cache() {
  return { cos: new Float32Array(8), sin: new Float32Array(8) };
}

test('a tensor from one instance is refused by another', async () => {
  const [[, a], [, b]] = await builds;
  const t = a.tensor(8);
  assert.throws(() => b.applyRopeInPlace(t, { heads: 1, headDim: 8, style: 'half', positions: [0] }),
    { name: 'TypeError', message: /^x is a tensor of another posenc instance/ });
  t.free();
});
