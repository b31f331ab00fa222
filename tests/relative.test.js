// pe.t5Bucket and pe.xposScale (c/relative.c, the rules the lab's T5 and xPos models use) against
// float64 transcriptions written here from their sources: Hugging Face transformers'
// modeling_t5.py T5Attention._relative_position_bucket and lucidrains rotary-embedding-torch's
// xPos scale (use_xpos). Both builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builds } from './reference.js';

// _relative_position_bucket, line by line (torch ops on one number; .to(torch.long) truncates)
function hfBucket(relativePosition, bidirectional = true, numBuckets = 32, maxDistance = 128) {
  let relativeBuckets = 0;
  if (bidirectional) {
    numBuckets = Math.floor(numBuckets / 2);
    relativeBuckets += (relativePosition > 0 ? 1 : 0) * numBuckets;
    relativePosition = Math.abs(relativePosition);
  } else {
    relativePosition = -Math.min(relativePosition, 0);
  }
  const maxExact = Math.floor(numBuckets / 2);
  const isSmall = relativePosition < maxExact;
  let large = maxExact + Math.trunc(Math.log(relativePosition / maxExact) / Math.log(maxDistance / maxExact) * (numBuckets - maxExact));
  large = Math.min(large, numBuckets - 1);
  return relativeBuckets + (isSmall ? relativePosition : large);
}

// scale = (arange(0, dim, 2) + 0.4 dim) / (1.4 dim); power = (t - centre) / scale_base; scale ** power
function xpos(positions, dim, scaleBase = 512) {
  const out = [];
  for (const p of positions) for (let i = 0; i < dim / 2; i++) out.push(((2 * i + 0.4 * dim) / (1.4 * dim)) ** (p / scaleBase));
  return out;
}

const rel = Array.from({ length: 601 }, (_, i) => i - 300);

for (const [name, pe] of await builds) {
  test(`t5Bucket equals the transcription for -300..300, both directions, several shapes (${name})`, () => {
    for (const bidirectional of [true, false])
      for (const [numBuckets, maxDistance] of [[32, 128], [16, 64], [64, 256], [8, 20], [33, 100], [6, 1000], [128, 128]]) {
        if (bidirectional && numBuckets < 4) continue;
        const got = pe.t5Bucket(rel, { bidirectional, numBuckets, maxDistance });
        const want = Int32Array.from(rel, (r) => hfBucket(r, bidirectional, numBuckets, maxDistance));
        assert.deepEqual(got, want, `bidirectional ${bidirectional}, ${numBuckets} buckets, max distance ${maxDistance}`);
      }
    // defaults (bidirectional, 32, 128) and hand values
    assert.deepEqual(pe.t5Bucket(rel), Int32Array.from(rel, (r) => hfBucket(r)));
    assert.deepEqual(pe.t5Bucket([5, -15, -16, -128, -300], { bidirectional: false }), Int32Array.of(0, 15, 16, 31, 31));
    assert.deepEqual(pe.t5Bucket([3, -3, 0, 7, 8]), Int32Array.of(19, 3, 0, 23, 24));
    assert.deepEqual(pe.t5Bucket(Int32Array.of(-1, 1)), Int32Array.of(1, 17));
  });

  test(`xposScale equals the transcription within 4e-16 relative (${name})`, () => {
    const positions = [-1000, -64, -8.5, -1, 0, 1, 3, 63.25, 512, 4096];
    for (const [dim, scaleBase] of [[2, 512], [8, 512], [64, 512], [130, 8], [16, 1e4]]) {
      const got = pe.xposScale(positions, { dim, scaleBase }), want = xpos(positions, dim, scaleBase);
      assert.equal(got.length, want.length);
      got.forEach((g, i) => assert.ok(Math.abs(g - want[i]) <= 4e-16 * want[i], `dim ${dim} [${i}]: ${g} vs ${want[i]}`));
    }
    assert.deepEqual(pe.xposScale([0], { dim: 6 }), Float64Array.of(1, 1, 1));
    assert.deepEqual(pe.xposScale(Float64Array.of(512), { dim: 2 }), Float64Array.of(0.4 / 1.4));
  });

  test(`t5Bucket and xposScale refuse bad arguments, naming them (${name})`, () => {
    const before = pe.heapBytes().inUse;
    assert.throws(() => pe.t5Bucket([1.5]), /^TypeError: relativePositions\[0\] must be an integer/);
    assert.throws(() => pe.t5Bucket([2 ** 30]), RangeError);
    assert.throws(() => pe.t5Bucket(Int32Array.of(-(2 ** 30))), /relativePositions\[0\]/);
    assert.throws(() => pe.t5Bucket([1], { numBuckets: 3 }), /numBuckets must be in \[4, 65536\]/);
    assert.throws(() => pe.t5Bucket([1], { numBuckets: 32, maxDistance: 8 }), /maxDistance must be in \[9,/);
    assert.throws(() => pe.t5Bucket([1], { bidirectional: 1 }), /bidirectional must be true or false/);
    assert.throws(() => pe.t5Bucket([1], { num_buckets: 8 }), /did you mean "numBuckets"/);
    assert.throws(() => pe.xposScale([0]), /dim must be an integer/);
    assert.throws(() => pe.xposScale([0], { dim: 3 }), /dim must be even/);
    assert.throws(() => pe.xposScale([0], { dim: 4, scaleBase: 0 }), /scaleBase must be in \[0.001, 1000000000\]/);
    assert.throws(() => pe.xposScale([NaN], { dim: 4 }), /positions\[0\] must be finite/);
    assert.throws(() => pe.xposScale(Float64Array.of(1, Infinity), { dim: 4 }), /positions\[1\] must be finite/);
    assert.equal(pe.heapBytes().inUse, before);
  });
}
