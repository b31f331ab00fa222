// llamaCppRope resolves a GGUF and llama.cpp's flags as llama.cpp does; llamaCppCache computes
// ggml's float32 cos/sin. The cache is checked against a reference of ggml's rope_yarn written
// here in float32 steps (Math.fround), and that reference against ggml's own outputs
// (tests/fixtures/ggml-rope.json, recorded from a gcc build of ggml's CPU rope).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readGguf } from '../web/lib/posenc.js';
import { builds, ulp32 } from './reference.js';
import { gguf } from './fixtures/gguf-writer.js';

const [[, simd], [, scalar]] = await builds;
const pe = simd;
const FIXTURE = JSON.parse(readFileSync(new URL('./fixtures/ggml-rope.json', import.meta.url), 'utf8'));
const f = Math.fround;

/**
 * ggml's cos/sin per pair in float32 steps (ggml-cpu/ops.cpp rope_yarn, ggml.c
 * ggml_rope_yarn_corr_dims): [cos, sin] arrays [n][d/2], and per pair whether it lies on YaRN's ramp.
 */
function ggmlReference(p, positions) {
  const d = p.nDims, half = d / 2;
  const thetaScale = f(Math.pow(p.freqBase, f(-2 / d)));
  const corr = (beta) => f(f(d * f(Math.log(f(p.nCtxOrig / f(f(beta * 2) * f(Math.PI)))))) / f(2 * f(Math.log(p.freqBase))));
  const low = Math.max(0, Math.floor(corr(p.betaFast))), high = Math.min(d - 1, Math.ceil(corr(p.betaSlow)));
  const sum = p.sections ? p.sections.reduce((a, b) => a + b, 0) : 0;
  const eStream = (i) => {
    if (!p.sections) return false;
    const s = p.sections, sector = i % sum;
    if (p.mode === 'imrope') return !((sector % 3 === 1 && sector < 3 * s[1]) || (sector % 3 === 2 && sector < 3 * s[2]) || (sector % 3 === 0 && sector < 3 * s[0]));
    return sector >= s[0] + s[1] + s[2];
  };
  const cos = new Float32Array(positions.length * half), sin = new Float32Array(positions.length * half);
  const ramp = new Array(half).fill(false);
  positions.forEach((pos, r) => {
    let theta = f(pos);
    for (let i = 0; i < half; i++) {
      const ff = p.freqFactors ? f(p.freqFactors[i]) : 1;
      const ext = f((eStream(i) ? 0 : theta) / ff);
      const int = f(p.freqScale * ext);
      let t = int, mag = f(p.attnFactor);
      if (p.extFactor !== 0) {
        const y = f(f(i - low) / f(Math.max(0.001, f(high - low))));
        const rmp = f(1 - Math.min(1, Math.max(0, y)));
        const mix = f(rmp * p.extFactor);
        t = f(f(int * f(1 - mix)) + f(ext * mix));
        mag = f(mag * f(1 + f(f(0.1) * f(Math.log(f(1 / p.freqScale))))));
        ramp[i] = mix > 0 && mix < 1;
      }
      cos[r * half + i] = f(f(Math.cos(t)) * mag);
      sin[r * half + i] = f(f(Math.sin(t)) * mag);
      theta = f(theta * thetaScale);
    }
  });
  return { cos, sin, ramp };
}

/** Worst |a - b| over the allowed error: 2e-7 × magnitude, plus (on ramp pairs) 1 ulp of the angle. */
function worst(got, want, p, positions, ramp, angleUlps = 0) {
  const half = p.nDims / 2, mag = Math.abs(p.extFactor !== 0 ? p.attnFactor * (1 + 0.1 * Math.log(1 / p.freqScale)) : p.attnFactor);
  let w = 0, at = null;
  for (let k = 0; k < got.length; k++) {
    const i = k % half, r = Math.floor(k / half);
    // the angle at pair i is at most p·θ_i; one ulp of it moves cos and sin by up to that much
    const angle = positions[r] * Math.pow(p.freqBase, -2 * i / p.nDims) / (p.freqFactors ? p.freqFactors[i] : 1);
    const tol = 2e-7 * mag + (ramp?.[i] || angleUlps ? Math.max(1, angleUlps) * ulp32(angle) * mag : 0);
    const e = Math.abs(got[k] - want[k]) / tol;
    if (e > w) (w = e), (at = { r, i, got: got[k], want: want[k] });
  }
  return { w, at };
}

test('the reference of ggml\'s rope_yarn matches ggml\'s own outputs (fixture recorded from ggml d99724f)', () => {
  assert.match(FIXTURE.ggml, /^ggml-org\/ggml [0-9a-f]{40}$/);
  assert.ok(FIXTURE.cases.length >= 8);
  for (const c of FIXTURE.cases) {
    const ref = ggmlReference(c.params, c.positions);
    for (const k of ['cos', 'sin']) {
      const { w, at } = worst(Float32Array.from(c[k]), ref[k], c.params, c.positions, ref.ramp);
      assert.ok(w <= 1, `${c.name} ${k}: ${JSON.stringify(at)} (${w.toFixed(2)} × the tolerance)`);
    }
  }
  // the cases cover every mode, factor tensors, YaRN ramps and the IMROPE pairs that read the e stream
  const modes = new Set(FIXTURE.cases.map((c) => c.params.mode));
  assert.deepEqual([...modes].sort(), ['imrope', 'mrope', 'neox', 'norm']);
  assert.ok(FIXTURE.cases.some((c) => c.params.freqFactors) && FIXTURE.cases.some((c) => c.params.extFactor !== 0));
  const im = FIXTURE.cases.find((c) => c.params.mode === 'imrope');
  // pairs 61 and 62 of Qwen3-VL's [24, 20, 20, 0] read the e stream: unrotated at every position
  const last = im.positions.length - 1;
  assert.equal(im.cos[last * 64 + 61], 1);
  assert.equal(im.sin[last * 64 + 62], 0);
  assert.notEqual(im.sin[last * 64 + 60], 0);
});

test('llamaCppCache matches the float32 reference on every fixture model and case, both builds the same bits', () => {
  for (const c of FIXTURE.cases) {
    const ref = ggmlReference(c.params, c.positions);
    const got = pe.llamaCppCache(c.params, c.positions);
    for (const k of ['cos', 'sin']) {
      const { w, at } = worst(got[k], ref[k], c.params, c.positions, ref.ramp);
      assert.ok(w <= 1, `${c.name} ${k}: ${JSON.stringify(at)}`);
    }
    const other = scalar.llamaCppCache(c.params, c.positions);
    assert.deepEqual(other, got, `${c.name}: SIMD and scalar builds`);
  }
});

test('llamaCppCache on random parameters and positions: within the tolerance of the reference', () => {
  let s = 12345;
  const rand = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
  for (let k = 0; k < 60; k++) {
    const d = 2 * (1 + Math.floor(rand() * 96));
    const mode = ['norm', 'neox', 'mrope', 'imrope'][Math.floor(rand() * 4)];
    const yarn = rand() < 0.5;
    const p = {
      nDims: d, mode, nCtxOrig: 256 + Math.floor(rand() * 200000), freqBase: f(100 + rand() * 5e6),
      freqScale: yarn ? f(1 / (1 + rand() * 63)) : 1, extFactor: yarn ? 1 : 0, attnFactor: f(0.5 + rand()),
      betaFast: f(8 + rand() * 40), betaSlow: f(0.5 + rand() * 2),
      freqFactors: rand() < 0.3 ? Array.from({ length: d / 2 }, () => f(1 + rand() * 40)) : null,
      sections: mode === 'mrope' || mode === 'imrope' ? [1 + Math.floor(rand() * 8), Math.floor(rand() * 8), Math.floor(rand() * 8), Math.floor(rand() * 3)] : null,
    };
    const positions = Array.from({ length: 5 }, () => Math.floor(rand() * 2 ** (rand() * 21)));
    const ref = ggmlReference(p, positions), got = pe.llamaCppCache(p, positions);
    for (const key of ['cos', 'sin']) {
      const { w, at } = worst(got[key], ref[key], p, positions, ref.ramp);
      assert.ok(w <= 1, `case ${k} ${key}: ${JSON.stringify(p)} ${JSON.stringify(at)}`);
    }
  }
});

test('llamaCppCache refuses bad parameters by name and leaves the heap as it was', () => {
  const good = { nDims: 8, mode: 'neox', nCtxOrig: 4096, freqBase: 10000, freqScale: 1, extFactor: 0, attnFactor: 1, betaFast: 32, betaSlow: 1, freqFactors: null, sections: null };
  const before = pe.heapBytes().inUse;
  const bad = [
    [{ ...good, nDims: 7 }, [0], RangeError, /nDims must be even/],
    [{ ...good, mode: 'rope' }, [0], RangeError, /params.mode/],
    [{ ...good, freqBase: 1 }, [0], RangeError, /freqBase/],
    [{ ...good, freqScale: 0 }, [0], RangeError, /freqScale/],
    [{ ...good, attnFactor: NaN }, [0], RangeError, /attnFactor/],
    [{ ...good, freqFactors: [1, 2, 3] }, [0], RangeError, /freqFactors must have length 4/],
    [{ ...good, freqFactors: [1, 2, 0, 1] }, [0], RangeError, /freqFactors\[2\]/],
    [{ ...good, mode: 'mrope' }, [0], TypeError, /sections/],
    [{ ...good, mode: 'mrope', sections: [0, 0, 0, 0] }, [0], RangeError, /sections/],
    [good, [1.5], TypeError, /positions\[0\] must be an integer/],
    [good, [-1], RangeError, /positions\[0\]/],
    [{ ...good, zzz: 1 }, [0], TypeError, /"zzz"/],
  ];
  for (const [p, pos, E, re] of bad) assert.throws(() => pe.llamaCppCache(p, pos), (e) => e instanceof E && re.test(e.message), re.source);
  assert.equal(pe.heapBytes().inUse, before);
  const out = { cos: new Float32Array(8), sin: new Float32Array(8) };
  assert.equal(pe.llamaCppCache(good, [3, 4], { out }).cos, out.cos);
});

const read = async (name, o) => readGguf(gguf(name, o));
const close = (a, b, rel = 1e-6) => Math.abs(a - b) <= rel * Math.abs(b);

test('resolution: the worked cases of llama.cpp\'s rules (freq scale, ext, attn factor, magnitude)', async () => {
  const llama = pe.llamaCppRope(await read('llama-3.1-8b'));
  assert.equal(llama.llamaCpp, 'ec98e2002');
  assert.deepEqual(Object.keys(llama.layerTypes), ['full_attention']);
  const L = llama.layerTypes.full_attention;
  assert.deepEqual([L.mode, L.nDims, L.freqBase, L.freqScale, L.extFactor, L.attnFactor, L.factorsName], ['norm', 128, 500000, 1, 0, 1, 'rope_freqs']);
  assert.equal(L.layers.length, 32);

  const phi = pe.llamaCppRope(await read('phi-3.5-mini')).layerTypes.full_attention;
  assert.ok(close(phi.attnFactor, 1.19024, 1e-5) && phi.extFactor === 0 && phi.magnitude === phi.attnFactor);

  const gemma = pe.llamaCppRope(await read('gemma-3-4b')).layerTypes;
  assert.deepEqual([gemma.full_attention.freqBase, gemma.full_attention.freqScale], [1e6, 0.125]);
  assert.deepEqual([gemma.sliding_attention.freqBase, gemma.sliding_attention.freqScale], [10000, 1]);
  assert.deepEqual(gemma.full_attention.layers, [5, 11, 17, 23, 29]);
  assert.equal(gemma.sliding_attention.layers.length, 29);
  // a GGUF from before freq_base_swa: llama.cpp's Gemma 3 loader still assumes 10000
  const old = pe.llamaCppRope(await read('gemma-3-4b', { drop: ['gemma3.rope.freq_base_swa'] })).layerTypes;
  assert.equal(old.sliding_attention.freqBase, 10000);
  const odd = pe.llamaCppRope(await read('gemma-3-4b', { set: [['gemma3.rope.freq_base_swa', 'f32', 20000]] })).layerTypes;
  assert.equal(odd.sliding_attention.freqBase, 20000);

  // DeepSeek-V3: yarn_log_multiplier 0.1 is divided by 0.1 again; A = 1/1.36889, magnitude 1
  const ds = pe.llamaCppRope(await read('deepseek-v3')).layerTypes.full_attention;
  assert.ok(close(ds.freqScale, 0.025) && ds.extFactor === 1);
  assert.ok(close(ds.attnFactor, 1 / 1.36889, 1e-5), `${ds.attnFactor}`);
  assert.ok(close(ds.magnitude, 1, 1e-6));

  // gpt-oss: both layer types take the context's values (its graph calls no get_rope_freq_base)
  const oss = pe.llamaCppRope(await read('gpt-oss-20b')).layerTypes;
  assert.ok(close(oss.full_attention.magnitude, 1.34657, 1e-5) && oss.full_attention.attnFactor === 1);
  assert.deepEqual({ ...oss.sliding_attention, layers: null }, { ...oss.full_attention, layers: null });
  assert.deepEqual(oss.sliding_attention.layers, [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22]);

  const vl = pe.llamaCppRope(await read('qwen2-vl-7b')).layerTypes.full_attention;
  assert.deepEqual([vl.mode, vl.sections], ['mrope', [16, 24, 24, 0]]);
  await assert.rejects(async () => pe.llamaCppRope(await read('qwen2-vl-7b', { drop: ['qwen2vl.rope.dimension_sections'] })), /dimension_sections is required/);
});

test('flags: Qwen YaRN from the command line, and the flags llama.cpp overwrites or ignores', async () => {
  const plain = await read('qwen2-7b-yarn', { drop: ['qwen2.rope.scaling.type', 'qwen2.rope.scaling.factor', 'qwen2.rope.scaling.original_context_length'] });
  const none = pe.llamaCppRope(plain).layerTypes.full_attention;
  assert.deepEqual([none.freqScale, none.extFactor, none.magnitude], [1, 0, 1]);
  const yarn = pe.llamaCppRope(plain, { flags: { ropeScaling: 'yarn', ropeScale: 4, yarnOrigCtx: 32768 } });
  const Y = yarn.layerTypes.full_attention;
  assert.deepEqual([Y.freqScale, Y.extFactor, Y.nCtxOrig, Y.attnFactor], [0.25, 1, 32768, 1]);
  assert.ok(close(Y.magnitude, 1.13863, 1e-5));
  assert.deepEqual(yarn.notes, []);
  // the same values as the GGUF with YaRN keys
  const keyed = pe.llamaCppRope(await read('qwen2-7b-yarn')).layerTypes.full_attention;
  assert.deepEqual({ ...keyed, layers: null }, { ...Y, layers: null });

  // --yarn-attn-factor is overwritten whenever YaRN is active, used when it is not
  const over = pe.llamaCppRope(plain, { flags: { ropeScaling: 'yarn', ropeScale: 4, yarnAttnFactor: 2 } });
  assert.equal(over.layerTypes.full_attention.attnFactor, 1);
  assert.deepEqual(over.notes.map((n) => n.code), ['flag-overridden']);
  assert.match(over.notes[0].message, /--yarn-attn-factor 2 is overwritten/);
  assert.equal(over.notes[0].flag, '--yarn-attn-factor 2');
  const used = pe.llamaCppRope(plain, { flags: { yarnAttnFactor: 2 } });
  assert.equal(used.layerTypes.full_attention.attnFactor, 2);
  assert.deepEqual(used.notes, []);

  // --rope-scaling yarn without --rope-scale: scale 1, an exact no-op
  const noop = pe.llamaCppRope(plain, { flags: { ropeScaling: 'yarn' } });
  assert.deepEqual(noop.notes.map((n) => n.code), ['flag-no-op']);
  // (the same angles up to the rounding of t(1 - mix) + t·mix: an ulp of the angle)
  const at = [0, 5, 30000], a = pe.llamaCppCache(noop.layerTypes.full_attention, at), b = pe.llamaCppCache(none, at);
  for (const k of ['cos', 'sin']) assert.ok(worst(a[k], b[k], none, at, null, 1).w <= 1, k);
  // YaRN-only flags without YaRN; --rope-scale with --rope-scaling none
  const ramp = pe.llamaCppRope(plain, { flags: { yarnBetaFast: 16, yarnOrigCtx: 8192 } }).notes;
  assert.deepEqual(ramp.map((n) => [n.code, n.flag]), [['flag-no-op', '--yarn-orig-ctx 8192'], ['flag-no-op', '--yarn-beta-fast 16']]);
  assert.ok(ramp.every((n) => n.message.startsWith(`${n.flag} does nothing without YaRN`)));
  const forced = pe.llamaCppRope(plain, { flags: { ropeScaling: 'none', ropeScale: 4 } });
  assert.equal(forced.layerTypes.full_attention.freqScale, 1);
  assert.deepEqual(forced.notes.map((n) => n.code), ['flag-no-op']);

  // --rope-freq-base and --rope-scale reach Gemma 3's global layers only
  const g = pe.llamaCppRope(await read('gemma-3-4b'), { flags: { ropeFreqBase: 2e6, ropeScale: 16 } });
  assert.deepEqual([g.layerTypes.full_attention.freqBase, g.layerTypes.full_attention.freqScale], [2e6, 1 / 16]);
  assert.deepEqual([g.layerTypes.sliding_attention.freqBase, g.layerTypes.sliding_attention.freqScale], [10000, 1]);
  assert.deepEqual(g.notes.map((n) => n.code), ['flag-no-op', 'flag-no-op']);
  assert.match(g.notes[0].message, /sliding-window layers/);

  assert.throws(() => pe.llamaCppRope(plain, { flags: { ropeScale: 4, ropeFreqScale: 0.25 } }), /give one/);
  assert.throws(() => pe.llamaCppRope(plain, { flags: { rope_scale: 4 } }), /did you mean "ropeScale"/);
  assert.throws(() => pe.llamaCppRope(plain, { flags: { ropeScaling: 'longrope' } }), RangeError);
  assert.throws(() => pe.llamaCppRope({}), /gguf must be what readGguf returns/);
});

test('LongRoPE factors follow the allocated context (-c), not the prompt: long past 4096 after padding to 256', async () => {
  const g = await read('phi-3.5-mini');
  const pick = (ctx) => pe.llamaCppRope(g, ctx === undefined ? {} : { ctx }).layerTypes.full_attention.factorsName;
  assert.equal(pick(), 'rope_factors_long'); // -c 0: context_length 131072
  assert.equal(pick(4096), 'rope_factors_short');
  assert.equal(pick(2000), 'rope_factors_short');
  assert.equal(pick(4097), 'rope_factors_long'); // padded to 4352
  assert.equal(pick(8192), 'rope_factors_long');
  const p = pe.llamaCppRope(g, { ctx: 4096 }).layerTypes.full_attention;
  assert.equal(p.freqFactors[47], Math.fround(2.3599987030029297));
});

test('Gemma 4 as llama.cpp#21309 loads it: p-RoPE through rope_freqs on the full layers, the sliding layers\' own width and base', async () => {
  const g4 = pe.llamaCppRope(await read('gemma-4-e2b'));
  assert.equal(g4.arch, 'gemma4');
  const F = g4.layerTypes.full_attention, S = g4.layerTypes.sliding_attention;
  assert.deepEqual([F.mode, F.nDims, F.freqBase, F.freqScale, F.extFactor, F.attnFactor, F.factorsName], ['neox', 512, 1e6, 1, 0, 1, 'rope_freqs']);
  assert.deepEqual([S.mode, S.nDims, S.freqBase, S.freqScale, S.extFactor, S.attnFactor, S.factorsName, S.freqFactors], ['neox', 256, 10000, 1, 0, 1, null, null]);
  assert.deepEqual(F.layers, [4, 9, 14, 19, 24, 29, 34]);
  assert.equal(S.layers.length, 28);
  // the factors ggml divides θ_i by: 1 for pairs 0–63, 1e30 (as float32) for 64–255
  assert.equal(F.freqFactors.length, 256);
  for (let i = 0; i < 256; i++) assert.equal(F.freqFactors[i], i < 64 ? 1 : Math.fround(1e30), `pair ${i}`);
  // ggml's float32 cos/sin: pairs 64–255 stand still to the last bit at position 131071
  const c = pe.llamaCppCache(F, [131071]);
  for (let i = 64; i < 256; i++) assert.ok(c.cos[i] === 1 && Math.abs(c.sin[i]) < 1e-25, `pair ${i}: ${c.cos[i]}, ${c.sin[i]}`);
  assert.ok(Math.abs(c.sin[63]) > 0.01);

  // --rope-freq-base and --rope-scale reach the full layers only, as for Gemma 3
  const flagged = pe.llamaCppRope(await read('gemma-4-e2b'), { flags: { ropeFreqBase: 2e6 } });
  assert.equal(flagged.layerTypes.full_attention.freqBase, 2e6);
  assert.equal(flagged.layerTypes.sliding_attention.freqBase, 10000);
  assert.deepEqual(flagged.notes.map((n) => [n.code, n.flag]), [['flag-no-op', '--rope-freq-base 2000000']]);
  assert.match(flagged.notes[0].message, /does not reach the sliding-window layers/);
  // without freq_base_swa llama.cpp's Gemma 4 loader assumes 10000 (no converter wrote such a file)
  assert.equal(pe.llamaCppRope(await read('gemma-4-e2b', { drop: ['gemma4.rope.freq_base_swa'] })).layerTypes.sliding_attention.freqBase, 10000);
  // one value for the pattern: every layer takes it (get_key_or_arr)
  const allFull = pe.llamaCppRope(await read('gemma-4-e2b', { set: [['gemma4.attention.sliding_window_pattern', 'bool', false]] }));
  assert.deepEqual(Object.keys(allFull.layerTypes), ['full_attention']);
  assert.equal(allFull.layerTypes.full_attention.layers.length, 35);
});

test('Gemma 4 files llama.cpp refuses or aborts on throw, naming the key or tensor and the fix', async () => {
  const fails = async (o, re, type) => {
    const g = await read('gemma-4-e2b', o);
    assert.throws(() => pe.llamaCppRope(g), (e) => e instanceof type && re.test(e.message) && /llama\.cpp#21309/.test(e.message), JSON.stringify(o));
  };
  // required keys (load_hparams's gemma4 case)
  await fails({ drop: ['gemma4.attention.sliding_window_pattern'] }, /GGUF key gemma4\.attention\.sliding_window_pattern is missing: llama\.cpp requires it/, TypeError);
  await fails({ drop: ['gemma4.attention.key_length_swa'] }, /gemma4\.attention\.key_length_swa is missing/, TypeError);
  await fails({ drop: ['gemma4.attention.sliding_window'] }, /gemma4\.attention\.sliding_window is missing/, TypeError);
  await fails({ set: [['gemma4.attention.sliding_window_pattern', 'array:bool', [true, false]]] }, /has 2 entries, not one per layer \(35\)/, RangeError);
  // rope_freqs is a required tensor of the full layers: llama.cpp will not load the file without it
  await fails({ drop: ['rope_freqs.weight'] }, /no rope_freqs\.weight.*refuses to load the file/, TypeError);
  // without rope.dimension_count_swa n_rot_swa is n_rot = 512 > the 256-wide sliding head: ggml's rope asserts
  await fails({ drop: ['gemma4.rope.dimension_count_swa'] }, /n_rot_swa = 512 \(gemma4\.rope\.dimension_count_swa is missing, so llama\.cpp takes gemma4\.rope\.dimension_count\) exceeds their head width 256.*n_dims <= ne0/, RangeError);
});
