// The API's fast paths give the right numbers (correctness only; nothing here is timed), on
// both builds: caller-owned `out` arrays, applyRope with a cos/sin table, and the calls that
// stream their arguments through the heap in blocks of rows (x past 256 KiB) or make a table
// block by block (sinusoidal past 2 MiB). References are float64, written here: cos/sin of
// position × theta_i, theta_i = base^(-2i/rotaryDim), each pair turned by the paper's sign
// (x0, x1) -> (x0 cos - x1 sin, x0 sin + x1 cos), pairs (2i, 2i+1) or (i, i + rotaryDim/2).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builds } from './reference.js';
import { instantiate, SCRATCH_BYTES } from '../web/lib/heap.js';

const WASM = { simd: '../web/build/posenc.wasm', scalar: '../web/build/posenc-scalar.wasm' };

/** Values in [-1, 1], the same on every run. */
function values(n, seed = 1) {
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = ((Math.imul(i + seed, 2654435761) >>> 0) % 2001) / 1000 - 1;
  return x;
}

const theta = (i, rot, base) => Math.pow(base, (-2 * i) / rot);

/** float64 RoPE of x [seq][heads][headDim] (dims past rotaryDim pass through). */
function ropeF64(x, { heads, headDim, positions, style, rotaryDim = headDim, base = 10000 }) {
  const y = Float64Array.from(x), half = rotaryDim / 2;
  positions.forEach((p, s) => {
    for (let h = 0; h < heads; h++) {
      const row = (s * heads + h) * headDim;
      for (let i = 0; i < half; i++) {
        const [a, b] = style === 'interleaved' ? [row + 2 * i, row + 2 * i + 1] : [row + i, row + i + half];
        const t = p * theta(i, rotaryDim, base), c = Math.cos(t), sn = Math.sin(t);
        y[a] = x[a] * c - x[b] * sn;
        y[b] = x[a] * sn + x[b] * c;
      }
    }
  });
  return y;
}

function maxAbs(a, b) {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

// positions up to 10^6: small ones, powers of two, a progression ending at 10^6, and the same permuted
const PROGRESSION = Array.from({ length: 300 }, (_, i) => 1e6 - 299 + i);
const PERMUTED = PROGRESSION.map((_, i) => PROGRESSION[(i * 7919) % 300]);
const MIXED = [0, 1, 2, 3, 17, 1023, 1024, 65535, 65536, 123457, 524288, 999983, 1e6];

for (const [name, pe] of await builds) {
  describe(`fast paths (${name})`, () => {
    test('ropeCache: cos/sin within 2e-7 of float64 at positions up to 1e6, with and without out', () => {
      for (const positions of [MIXED, PROGRESSION, PERMUTED]) {
        for (const [rot, base] of [[128, 10000], [64, 500000], [6, 10000]]) {
          const half = rot / 2, n = positions.length * half;
          const { cos, sin } = pe.ropeCache(positions, rot, { base });
          const rc = new Float64Array(n), rs = new Float64Array(n);
          positions.forEach((p, r) => {
            for (let i = 0; i < half; i++) (rc[r * half + i] = Math.cos(p * theta(i, rot, base))), (rs[r * half + i] = Math.sin(p * theta(i, rot, base)));
          });
          assert.ok(maxAbs(cos, rc) <= 2e-7, `cos rot ${rot}: ${maxAbs(cos, rc)}`);
          assert.ok(maxAbs(sin, rs) <= 2e-7, `sin rot ${rot}: ${maxAbs(sin, rs)}`);
          const out = { cos: new Float32Array(n), sin: new Float32Array(n) };
          const got = pe.ropeCache(positions, rot, { base, out });
          assert.equal(got.cos, out.cos);
          assert.equal(got.sin, out.sin);
          assert.deepEqual(out, { cos, sin });
        }
      }
    });

    test('applyRope: within 4e-7 of float64 for both styles, positions to 1e6, one block and several', () => {
      // 300 rows × 4 heads × 64 = 300 KiB of x: more than one block of the heap's row streaming
      for (const [heads, headDim, rotaryDim] of [[4, 64, 64], [32, 128, 128], [3, 10, 6]]) {
        for (const positions of [PROGRESSION, PERMUTED, MIXED]) {
          const x = values(positions.length * heads * headDim);
          for (const style of ['interleaved', 'half']) {
            for (const base of [10000, 500]) {
              const o = { heads, headDim, rotaryDim, style, positions, base };
              const err = maxAbs(pe.applyRope(x, o), ropeF64(x, o));
              assert.ok(err <= 4e-7, `${heads}×${headDim} rot ${rotaryDim} ${style} base ${base}: ${err}`);
            }
          }
        }
      }
    });

    test('the table path gives exactly what the fused path gives for the same positions; out gives exactly the copying result', () => {
      for (const [heads, headDim] of [[4, 64], [1, 64], [32, 128], [2, 6]]) {
        for (const positions of [PROGRESSION, PERMUTED, MIXED, [7]]) {
          const x = values(positions.length * heads * headDim, heads);
          for (const style of ['interleaved', 'half']) {
            const fused = pe.applyRope(x, { heads, headDim, style, positions });
            const { cos, sin } = pe.ropeCache(positions, headDim);
            const table = pe.applyRope(x, { heads, headDim, style, cos, sin });
            assert.deepEqual(table, fused, `${heads}×${headDim} ${style}, ${positions.length} positions`);
            const out = new Float32Array(x.length).fill(9);
            assert.equal(pe.applyRope(x, { heads, headDim, style, positions, out }), out);
            assert.deepEqual(out, fused);
            out.fill(9);
            assert.equal(pe.applyRope(x, { heads, headDim, style, cos, sin, out }), out);
            assert.deepEqual(out, fused);
            // out may be x itself: rotated where it lies
            const y = x.slice();
            assert.equal(pe.applyRope(y, { heads, headDim, style, positions, out: y }), y);
            assert.deepEqual(y, fused);
            // tensors, rotated in place, agree too
            const t = pe.tensor(x), tc = pe.tensor(cos), ts = pe.tensor(sin);
            try {
              assert.deepEqual(pe.applyRopeInPlace(t, { heads, headDim, style, positions }).array.slice(), fused);
              t.array.set(x);
              assert.deepEqual(pe.applyRopeInPlace(t, { heads, headDim, style, cos: tc, sin: ts }).array.slice(), fused);
            } finally {
              for (const v of [t, tc, ts]) v.free();
            }
          }
        }
      }
    });

    test('a wrong out is refused (TypeError for its type, RangeError for its length) and nothing changes', () => {
      const positions = PROGRESSION, heads = 4, headDim = 64, n = positions.length * heads * headDim;
      const x = values(n), { cos, sin } = pe.ropeCache(positions, headDim);
      const before = pe.heapBytes().inUse;
      const calls = {
        applyRope: (out) => pe.applyRope(x, { heads, headDim, style: 'half', positions, out }),
        'applyRope (table)': (out) => pe.applyRope(x, { heads, headDim, style: 'half', cos, sin, out }),
        sinusoidal: (out) => pe.sinusoidal(positions.length, 256, { out }),
      };
      for (const [method, call] of Object.entries(calls)) {
        for (const [bad, Err] of [[new Float64Array(n), TypeError], [new Float32Array(n - 1), RangeError], [new Float32Array(n + 4), RangeError],
          [Array.from({ length: n }, () => 0), TypeError], [new Float32Array(n).subarray(1), RangeError]]) {
          const copy = bad.slice();
          assert.throws(() => call(bad), (e) => e instanceof Err && /^out must/.test(e.message), `${method}: ${bad.constructor.name}(${bad.length})`);
          assert.deepEqual(bad, copy, `${method}: out changed`);
        }
      }
      assert.deepEqual(x, values(n), 'x changed');
      assert.equal(pe.heapBytes().inUse, before);
    });

    test('a bad value anywhere, even in the last block, is refused with its index before out is written', () => {
      const positions = PROGRESSION, heads = 4, headDim = 64, n = positions.length * heads * headDim;
      const { cos, sin } = pe.ropeCache(positions, headDim);
      for (const at of [0, n - 1, 70000]) {
        for (const bad of [NaN, Infinity]) {
          const x = values(n);
          x[at] = bad;
          for (const o of [{ positions }, { cos, sin }]) {
            const out = new Float32Array(n).fill(5);
            assert.throws(() => pe.applyRope(x, { heads, headDim, style: 'interleaved', ...o, out }),
              (e) => e instanceof RangeError && e.message.startsWith(`x[${at}] must be finite`), `x[${at}] = ${bad}`);
            assert.ok(out.every((v) => v === 5), 'out was written');
          }
        }
      }
      const sinBad = sin.slice();
      sinBad[sinBad.length - 1] = NaN;
      const out = new Float32Array(n).fill(5);
      assert.throws(() => pe.applyRope(values(n), { heads, headDim, style: 'half', cos, sin: sinBad, out }), /^RangeError: sin\[9599\] must be finite/);
      assert.ok(out.every((v) => v === 5), 'out was written');
      const posBad = Float64Array.from(positions);
      posBad[299] = -1;
      assert.throws(() => pe.applyRope(values(n), { heads, headDim, style: 'half', positions: posBad, out }), /^RangeError: positions\[299\] must be finite and in \[0, /);
      assert.ok(out.every((v) => v === 5), 'out was written');
    });

    test('out may be x itself or overlap it, past one block: the result is the copying one', () => {
      const positions = PROGRESSION, heads = 4, headDim = 64, row = heads * headDim, n = positions.length * row;
      const { cos, sin } = pe.ropeCache(positions, headDim);
      for (const o of [{ positions }, { cos, sin }]) {
        const opts = { heads, headDim, style: 'half', ...o };
        const want = pe.applyRope(values(n), opts);
        const x = values(n);
        assert.equal(pe.applyRope(x, { ...opts, out: x }), x);
        assert.deepEqual(x, want, 'out === x');
        // out one row further on in the same buffer: every row of x is read before out is written
        const buf = new Float32Array(n + row);
        buf.set(values(n));
        pe.applyRope(buf.subarray(0, n), { ...opts, out: buf.subarray(row) });
        assert.deepEqual(buf.subarray(row), want, 'out overlapping x');
      }
    });

    test('bad positions are named before a bad x, wherever each is', () => {
      const heads = 4, headDim = 64, n = PROGRESSION.length * heads * headDim;
      const x = values(n);
      x[n - 1] = NaN;
      x[0] = Infinity;
      const positions = Float64Array.from(PROGRESSION);
      positions[299] = -1;
      for (const out of [undefined, new Float32Array(n).fill(5)]) {
        assert.throws(() => pe.applyRope(x, { heads, headDim, style: 'half', positions, out }), /^RangeError: positions\[299\] must be finite and in \[0, /);
        if (out) assert.ok(out.every((v) => v === 5), 'out was written');
      }
    });

    test('sinusoidal: made in blocks, the same bits as the kernel in one call; out gives exactly the copying result', async () => {
      const heap = await instantiate(new URL(WASM[name], import.meta.url));
      // 700 rows of 1024 floats (2.7 MiB): more than one 2 MiB block; starts at 0 and near 1e6
      for (const [length, dim, start, layout] of [[700, 1024, 0, 'interleaved'], [700, 1024, 999000, 'concat'], [130, 4096, 5, 'interleaved'], [9, 6, 0.5, 'interleaved']]) {
        const n = length * dim;
        const p = heap.fn.malloc(4 * n);
        assert.equal(heap.fn.posenc_sinusoidal(p, length, dim, 10000, start, layout === 'concat' ? 1 : 0), 0);
        const whole = new Float32Array(heap.memory.buffer, p, n).slice();
        heap.fn.free(p);
        const got = pe.sinusoidal(length, dim, { start, layout });
        assert.deepEqual(got, whole, `${length}×${dim} from ${start}`);
        const out = new Float32Array(n).fill(3);
        assert.equal(pe.sinusoidal(length, dim, { start, layout, out }), out);
        assert.deepEqual(out, whole);
        // and the float64 values they round
        let err = 0;
        for (let r = 0; r < length; r += 37) {
          for (let i = 0; i < dim / 2; i++) {
            const a = (start + r) * Math.pow(10000, (-2 * i) / dim);
            const [si, ci] = layout === 'concat' ? [i, dim / 2 + i] : [2 * i, 2 * i + 1];
            err = Math.max(err, Math.abs(got[r * dim + si] - Math.sin(a)), Math.abs(got[r * dim + ci] - Math.cos(a)));
          }
        }
        assert.ok(err <= 2e-7, `${length}×${dim} from ${start}: ${err}`);
      }
      for (const [precision, layout] of [['f64', 'interleaved'], ['f32', 'tensor2tensor']]) {
        const a = pe.sinusoidal(600, 1024, { precision, layout, start: 12 });
        const b = new (precision === 'f64' ? Float64Array : Float32Array)(a.length);
        assert.deepEqual(pe.sinusoidal(600, 1024, { precision, layout, start: 12, out: b }), a);
        assert.deepEqual(pe.sinusoidal(3, 1024, { precision, layout, start: 609 }), a.subarray(597 * 1024));
      }
    });
  });
}

test('scopes take the scratch region as a stack: nested ones get disjoint memory, a throwing one gives its part back', async () => {
  const heap = await instantiate(new URL(WASM.simd, import.meta.url));
  const inUse = heap.fn.posenc_heap_in_use();
  const span = (p, bytes) => [p, p + bytes];
  const disjoint = ([a, b], [c, d]) => b <= c || d <= a;
  heap.scoped((outer) => {
    const a = outer.alloc(Float32Array, 1000), b = outer.alloc(Float64Array, 3);
    assert.ok(a % 16 === 0 && b % 16 === 0, 'v128-aligned');
    assert.ok(disjoint(span(a, 4000), span(b, 24)));
    assert.ok(a >= heap.scratch && b + 24 <= heap.scratch + SCRATCH_BYTES, 'small allocations come from the scratch region');
    heap.view(Float32Array).fill(7, a / 4, a / 4 + 1000);
    assert.throws(() => heap.scoped((inner) => {
      const c = inner.alloc(Float32Array, 2000);
      assert.ok(disjoint(span(a, 4000), span(c, 8000)) && disjoint(span(b, 24), span(c, 8000)), 'an inner scope does not reuse the outer one\'s memory');
      heap.view(Float32Array).fill(-1, c / 4, c / 4 + 2000);
      throw new Error('refused');
    }), /refused/);
    assert.ok(heap.view(Float32Array).subarray(a / 4, a / 4 + 1000).every((v) => v === 7), 'the inner scope left the outer one\'s memory alone');
    const big = outer.alloc(Float32Array, SCRATCH_BYTES); // past what is left: malloc
    assert.ok(big + 4 * SCRATCH_BYTES <= heap.scratch || big >= heap.scratch + SCRATCH_BYTES);
    assert.ok(heap.fn.posenc_heap_in_use() > inUse);
  });
  assert.equal(heap.scratchTop, 0, 'every scope gave its part back');
  assert.equal(heap.fn.posenc_heap_in_use(), inUse, 'what did not fit was freed');
  // the next scope starts at the region's start again
  heap.scoped((h) => assert.equal(h.alloc(Uint8Array, 1), heap.scratch));
});

// Every method of the API that returns typed arrays (alone or in an object) takes `out`: called
// with arrays of its own, it returns them, filled with exactly what it returns without them.
// Methods returning something else are listed apart, so that a new method must be placed.
const OUT_CALLS = {
  sinusoidal: (pe, o) => pe.sinusoidal(6, 8, o),
  binary: (pe, o) => pe.binary(5, 3, o),
  shiftSinusoidal: (pe, o) => pe.shiftSinusoidal(values(16), 3, { dim: 8, ...o }),
  ropeInvFreq: (pe, o) => pe.ropeInvFreq(16, { base: 500, ...o }),
  attentionTemperature: (pe, o) => pe.attentionTemperature([0, 9000, 1e6], o),
  ropeCache: (pe, o) => pe.ropeCache([0, 3, 7], 8, o),
  applyRope: (pe, o) => pe.applyRope(values(2 * 2 * 8), { heads: 2, headDim: 8, style: 'half', positions: [4, 9], ...o }),
  attention: (pe, o) => pe.attention(values(2 * 8), values(3 * 8, 2), values(3 * 8, 3), { heads: 2, headDim: 4, ...o }),
  dynamicKvCache: (pe, o) => pe.dynamicKvCache(values(6 * 8), values(6 * 8, 2), { headDim: 8, style: 'half', factor: 2, maxPositionEmbeddings: 3, ...o }),
  gram: (pe, o) => pe.gram(values(8), values(12, 2), 4, o),
  rowDots: (pe, o) => pe.rowDots(values(8), values(8, 2), 4, o),
  rowCosines: (pe, o) => pe.rowCosines(values(8), values(8, 2), 4, o),
  orderDemo: (pe, o) => pe.orderDemo([1, 2, 3], { encoding: 'rope', ...o }),
  ropeDecay: (pe, o) => pe.ropeDecay([0, 5, 50], { dim: 8, ...o }),
  sinusoidalDecay: (pe, o) => pe.sinusoidalDecay([0, 5, 50], { dim: 8, ...o }),
  alibiSlopes: (pe, o) => pe.alibiSlopes(6, o),
  alibiBias: (pe, o) => pe.alibiBias(3, 4, o),
  randomNormal: (pe, o) => pe.randomNormal(7, 1, o),
  t5Bucket: (pe, o) => pe.t5Bucket([-40, -1, 0, 2, 300], o),
  xposScale: (pe, o) => pe.xposScale([0, 10, -3], { dim: 8, ...o }),
  pairEnergy: (pe, o) => pe.pairEnergy(values(2 * 4 * 3), { heads: 2, headDim: 4, style: 'half', ...o }),
  llamaCppCache: (pe, o) => pe.llamaCppCache({ nDims: 8, mode: 'neox', nCtxOrig: 4096, freqBase: 10000, freqScale: 0.25, extFactor: 1,
    attnFactor: 1, betaFast: 32, betaSlow: 1 }, [0, 3, 7], o),
};
const NO_TYPED_RESULT = ['ropeAttentionFactor', 'ropeScaling', 'ropeConfig', 'ropeVectors', 'tensor', 'applyRopeInPlace', 'heapBytes', 'train',
  'layerAttention', 'llamaCppRope', 'compareRuntimes'];

test('every method that returns typed arrays fills the caller\'s out instead, with the same values', async () => {
  const [[, pe]] = await builds;
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(pe)).filter((m) => m !== 'constructor');
  assert.deepEqual(methods.filter((m) => !(m in OUT_CALLS) && !NO_TYPED_RESULT.includes(m)), [], 'methods not placed in either list');
  for (const [method, call] of Object.entries(OUT_CALLS)) {
    const want = call(pe, {});
    const fresh = (a) => new a.constructor(a.length).fill(7);
    const out = ArrayBuffer.isView(want) ? fresh(want) : Object.fromEntries(Object.entries(want).map(([k, a]) => [k, fresh(a)]));
    const got = call(pe, { out });
    if (ArrayBuffer.isView(want)) assert.equal(got, out, `${method} returns out`);
    else for (const k in want) assert.equal(got[k], out[k], `${method} returns out.${k}`);
    assert.deepEqual(got, want, `${method}: out holds what the copying call returns`);
  }
});

test('ropeDecay takes what ropeScaling returns, and names the pair style for q·R(x)k', async () => {
  const [[, pe]] = await builds;
  const config = { rope_theta: 500000, head_dim: 64, rope_scaling: { rope_type: 'linear', factor: 4 } };
  const s = pe.ropeScaling(config);
  assert.deepEqual(pe.ropeDecay([0, 10, 1000], s), pe.ropeDecay([0, 10, 1000], { dim: 64, base: 500000, scaling: s.scaling }));
  assert.throws(() => pe.ropeDecay([0], { ...s, dim: 32 }), /^RangeError: options.rotaryDim \(64\) differs from options.dim \(32\)/);
  assert.throws(() => pe.ropeDecay([0, 1], { dim: 4, kind: 'vectors', q: [1, 0, 0, 1], k: [0, 1, 1, 0] }), /^TypeError: style is required/);
});

test('ropeDecay refuses q, k and style where the curve does not read them', async () => {
  const [[, pe]] = await builds;
  for (const kind of ['ones', 'bound']) {
    assert.throws(() => pe.ropeDecay([0, 1], { dim: 4, kind, q: [1, 0, 0, 1], k: [0, 1, 1, 0] }), /^TypeError: q applies to kind 'vectors' only/);
    assert.throws(() => pe.ropeDecay([0, 1], { dim: 4, kind, style: 'half' }), /^TypeError: style applies to kind 'vectors' only/);
  }
  assert.throws(() => pe.ropeDecay([0, 1], { invFreq: [1, 0.1], base: 500 }), /^TypeError: base has no effect with invFreq/);
});
