// compareRuntimes: each fixture model, converted as convert_hf_to_gguf.py converts it, against
// its config.json: the finding the field's record says each case gives, with the fix; the
// comparison itself checked against θ_i computed here from the formulas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc, readGguf } from '../web/lib/posenc.js';
import { MODELS, gguf } from './fixtures/gguf-writer.js';

const pe = await loadPosenc();
const read = (name, o) => readGguf(gguf(name, o));
const codes = (r) => r.findings.map((f) => f.code);
const compare = async (name, o = {}, g = {}) => pe.compareRuntimes(MODELS[name].config, await read(name, g), o);

test('every fixture model as converted agrees with its config, but gpt-oss (truncate: false has no llama.cpp form)', async () => {
  for (const name of ['llama-3.1-8b', 'qwen2-7b-yarn', 'phi-3.5-mini', 'gemma-3-4b', 'deepseek-v3', 'qwen2-vl-7b']) {
    // (Phi-3.5 in its file's context of 131072 agrees on the long factors, and differs for a prompt
    // within 4096 tokens: llama.cpp#8995, which no file fixes)
    const r = await compare(name, name === 'phi-3.5-mini' ? { positions: [0, 5000, 100000] } : {});
    assert.deepEqual(codes(r), name === 'phi-3.5-mini' ? ['longrope-factors-by-context'] : ['none'], `${name}: ${r.findings.map((f) => f.message).join(' / ')}`);
    assert.equal(r.llamaCpp, 'ec98e2002');
    for (const lt of Object.values(r.layerTypes)) assert.ok(Math.max(...lt.relDiff) <= 1e-6, name);
  }
  const oss = await compare('gpt-oss-20b');
  assert.deepEqual(codes(oss), ['scaling-differs']);
  const f = oss.findings[0];
  assert.deepEqual(f.layerTypes, ['sliding_attention', 'full_attention']);
  assert.match(f.message, /truncate false/);
  assert.match(f.fix, /^no flag: ggml always rounds/);
  assert.deepEqual([f.fixKind, f.fixFlags], ['none', null]);
  // the ramp pairs only: transformers' bounds 8.09 and 17.4, ggml's 8 and 18
  assert.deepEqual(oss.layerTypes.full_attention.differingPairs, [9, 10, 11, 12, 13, 14, 15, 16, 17]);
});

test('rope-freqs-missing: a Llama 3.1 GGUF from before llama.cpp#8676, with the fix', async () => {
  const r = await compare('llama-3.1-8b', {}, { drop: ['rope_freqs.weight'] });
  assert.deepEqual(codes(r), ['rope-freqs-missing']);
  assert.match(r.findings[0].message, /no rope_freqs tensor.*pairs 29–63 of 64 turn up to 8× faster/);
  assert.match(r.findings[0].fix, /llama.cpp#8676/);
  assert.deepEqual([r.findings[0].fixKind, r.findings[0].fixFlags], ['reconvert', null]);
  const lt = r.layerTypes.full_attention;
  assert.deepEqual([lt.factors, lt.pairing.config, lt.pairing.llamaCpp], [null, 'half', 'half']);
  // θ_i here from the formula: llama.cpp's are plain 500000^(-2i/128); the config's divided by the llama3 factors
  for (const i of [0, 28, 35, 63]) {
    assert.ok(Math.abs(lt.thetaLlamaCpp[i] - 500000 ** (-2 * i / 128)) <= 1e-15 * lt.thetaLlamaCpp[i] + 1e-300);
  }
  assert.ok(Math.abs(lt.thetaLlamaCpp[63] / lt.thetaConfig[63] - 8) < 1e-12);
  assert.ok(r.maxDcos > 1);
});

test('longrope-factors-by-context: Phi-3.5 picks the long factors for a short prompt unless -c is at most 4096', async () => {
  const short = { positions: [0, 1, 100, 2000] };
  const r = await compare('phi-3.5-mini', short);
  assert.deepEqual(codes(r), ['longrope-factors-by-context']);
  assert.match(r.findings[0].message, /long factors from the allocated context \(-c 131072 > 4096\), transformers the short ones from the sequence \(2001 tokens\)/);
  assert.match(r.findings[0].fix, /^-c 4096/);
  assert.deepEqual([r.findings[0].fixKind, r.findings[0].fixFlags], ['flags', '-c 4096']);
  assert.deepEqual(codes(await compare('phi-3.5-mini', { ...short, ctx: 4096 })), ['none']);
  // a long prompt in a small context: the other way round
  const small = await compare('phi-3.5-mini', { positions: [0, 6000], ctx: 4096 });
  assert.deepEqual(codes(small), ['longrope-factors-by-context']);
  assert.match(small.findings[0].fix, /^-c 4352 or more/);
  assert.equal(small.findings[0].fixFlags, '-c 4352');
  // the attention factor 1.19024 is the file's in both runtimes
  assert.ok(Math.abs(r.layerTypes.full_attention.magnitude.llamaCpp / r.layerTypes.full_attention.magnitude.config - 1) < 1e-6);
});

test('swa-base-missing: Gemma 3 without freq_base_swa, and a reader that falls back to the global base', async () => {
  const r = await compare('gemma-3-4b', {}, { drop: ['gemma3.rope.freq_base_swa'] });
  assert.deepEqual(codes(r), ['swa-base-missing']);
  assert.deepEqual(r.findings[0].layerTypes, ['sliding_attention']);
  assert.match(r.findings[0].message, /right for this model.*candle#2891/);
  // a note for other readers: llama.cpp computes what the config means
  assert.equal(r.findings[0].severity, 'note');
  assert.equal(r.agree, true);
  // an SWA base that differs from the config's (written wrong by a converter): a misread llama.cpp makes
  const wrong = await compare('gemma-3-4b', {}, { set: [['gemma3.rope.freq_base_swa', 'f32', 1e6]] });
  assert.deepEqual(codes(wrong), ['base-differs']);
  assert.deepEqual([wrong.findings[0].severity, wrong.agree], ['differs', false]);
  assert.match(wrong.findings[0].fix, /^reconvert/);
  assert.equal(wrong.findings[0].fixKind, 'reconvert');
  assert.deepEqual(wrong.findings[0].layerTypes, ['sliding_attention']);
});

test('flags: Qwen YaRN given on the command line agrees; left out it differs, with the flags that fix it', async () => {
  const noKeys = { drop: ['qwen2.rope.scaling.type', 'qwen2.rope.scaling.factor', 'qwen2.rope.scaling.original_context_length'] };
  const bare = await compare('qwen2-7b-yarn', {}, noKeys);
  assert.deepEqual(codes(bare), ['scaling-differs', 'attn-factor-differs']);
  assert.equal(bare.findings[0].fix, '--rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768');
  assert.deepEqual([bare.findings[0].fixKind, bare.findings[0].fixFlags], ['flags', bare.findings[0].fix]);
  // YaRN's factor comes with its scaling: the same flags, said to fix both
  assert.equal(bare.findings[1].fix, 'follows from the scaling: --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768 fixes both');
  assert.deepEqual([bare.findings[1].fixKind, bare.findings[1].fixFlags], ['flags', bare.findings[0].fix]);
  assert.deepEqual(codes(await compare('qwen2-7b-yarn', { flags: { ropeScaling: 'yarn', ropeScale: 4, yarnOrigCtx: 32768 } }, noKeys)), ['none']);
  // --rope-scaling yarn alone: a no-op, and the model still differs
  const half = await compare('qwen2-7b-yarn', { flags: { ropeScaling: 'yarn' } }, noKeys);
  assert.deepEqual(codes(half), ['flag-no-op', 'scaling-differs', 'attn-factor-differs']);
  assert.deepEqual([half.findings[0].fixKind, half.findings[0].fixFlags], ['drop-flag', '--rope-scaling yarn']);
  // --yarn-attn-factor with YaRN active: overwritten (and harmless here)
  const over = await compare('qwen2-7b-yarn', { flags: { yarnAttnFactor: 1.5 } });
  assert.deepEqual(codes(over), ['flag-overridden']);
  assert.deepEqual([over.findings[0].fixKind, over.findings[0].fixFlags], ['drop-flag', '--yarn-attn-factor 1.5']);
  // a wrapper's default base over the file's (llama-cpp-python#765)
  const base = await compare('qwen2-7b-yarn', { flags: { ropeFreqBase: 10000 } });
  assert.deepEqual(codes(base), ['base-differs']);
  assert.match(base.findings[0].fix, /^leave out --rope-freq-base 10000/);
  assert.deepEqual([base.findings[0].fixKind, base.findings[0].fixFlags], ['drop-flag', '--rope-freq-base 10000']);
  // a wrong --rope-scale over the file's: the angles and YaRN's magnitude both differ, and both
  // agree without it, so leaving it out fixes each
  const scale = await compare('qwen2-7b-yarn', { flags: { ropeScale: 8 } });
  assert.deepEqual(codes(scale), ['scaling-differs', 'attn-factor-differs']);
  for (const f of scale.findings) assert.deepEqual([f.fixKind, f.fixFlags], ['drop-flag', '--rope-scale 8'], f.fix);
  assert.match(scale.findings[0].fix, /^leave out --rope-scale 8: without it llama.cpp reads this from the file/);
});

test('attn-factor-differs: Phi-3.5 without its attn_factor key, fixed by --yarn-attn-factor', async () => {
  // (and, at a position past 4096, the prompt within it that llama.cpp gives the long factors)
  const r = await compare('phi-3.5-mini', { positions: [0, 100000] }, { drop: ['phi3.rope.scaling.attn_factor'] });
  assert.deepEqual(codes(r), ['attn-factor-differs', 'longrope-factors-by-context']);
  assert.match(r.findings[0].fix, /^--yarn-attn-factor 1\.1902/);
  assert.equal(r.findings[0].fixKind, 'flags');
  assert.match(r.findings[0].fixFlags, /^--yarn-attn-factor 1\.1902\d*$/);
  // the factor as the fix prints it fixes it (1.19024, six digits, missed by 1.6e-6)
  const typed = Number(r.findings[0].fixFlags.split(' ')[1]);
  const fixed = await compare('phi-3.5-mini', { positions: [0, 100000], flags: { yarnAttnFactor: typed } }, { drop: ['phi3.rope.scaling.attn_factor'] });
  assert.deepEqual(codes(fixed), ['longrope-factors-by-context']);
});

test('pairing-differs: a GPT-J-style config (adjacent pairs) against a Llama GGUF (rotate_half after the permute)', async () => {
  // rotary_dim given: without it GPTJConfig's default (64) would rotate half of each head
  const cfg = { ...MODELS['llama-3.1-8b'].config, model_type: 'gptj', rotary_dim: 128 };
  const r = pe.compareRuntimes(cfg, await read('llama-3.1-8b'));
  // GPT-J converts to gptj, not llama: two models, and no fix for the pairing between them
  assert.deepEqual(codes(r), ['architecture-differs', 'pairing-differs']);
  assert.equal(r.findings[1].fixKind, 'none');
  // within one architecture: a config rotating half of each head, a Qwen2 GGUF rotating all of it
  const q = pe.compareRuntimes({ ...MODELS['qwen2-7b-yarn'].config, partial_rotary_factor: 0.5 }, await read('qwen2-7b-yarn'));
  assert.equal(q.findings[0].code, 'pairing-differs');
  assert.match(q.findings[0].message, /llama.cpp rotates 128 dims per head \(n_rot\), the config 64/);
  assert.equal(q.findings[0].fixKind, 'reconvert');
  // DeepSeek's NORM without a permute is the config's interleaved pairing: no finding
  assert.equal((await compare('deepseek-v3')).layerTypes.full_attention.pairing.llamaCpp, 'interleaved');
});

test('float32 rounding at the largest position is reported apart: ~1e-3 to 1e-2 at p = 131071, tiny at p = 100', async () => {
  const r = await compare('llama-3.1-8b');
  assert.equal(r.float32.position, 131071);
  for (const k of ['llamaCpp', 'transformers']) assert.ok(r.float32[k] > 1e-4 && r.float32[k] < 5e-2, `${k} ${r.float32[k]}`);
  const near = await compare('llama-3.1-8b', { positions: [0, 100] });
  for (const k of ['llamaCpp', 'transformers']) assert.ok(near.float32[k] < 1e-5, `${k} ${near.float32[k]}`);
  assert.deepEqual(codes(r), ['none']);
});

test('bad arguments are refused by name', async () => {
  const g = await read('qwen2-7b-yarn');
  const cfg = MODELS['qwen2-7b-yarn'].config;
  assert.throws(() => pe.compareRuntimes(cfg, g, { positions: [1.5] }), /positions\[0\] must be an integer/);
  assert.throws(() => pe.compareRuntimes(cfg, g, { positions: [-1] }), RangeError);
  assert.throws(() => pe.compareRuntimes(cfg, g, { position: [1] }), /no key "position"/);
  assert.throws(() => pe.compareRuntimes(cfg, g, { flags: { ropeScale: -1 } }), /flags.ropeScale/);
  assert.throws(() => pe.compareRuntimes('{', g), /config is not valid JSON/);
  assert.throws(() => pe.compareRuntimes(cfg, null), /gguf must be what readGguf returns/);
});

test('Gemma 4 as converted agrees: θ_i from the formula on both sides, the 192 pairs that stand still counted as agreeing', async () => {
  const r = await compare('gemma-4-e2b');
  assert.deepEqual(codes(r), ['none'], r.findings.map((f) => f.message).join(' / '));
  assert.equal(r.arch, 'gemma4');
  assert.match(r.findings[0].message, /for the pairs that stand still \(full_attention: pairs 64–255\), to 4\.66e-16 rad a position, under 1e-6 rad at any position/);
  const F = r.layerTypes.full_attention, S = r.layerTypes.sliding_attention;
  assert.deepEqual([F.rotaryDim.config, F.rotaryDim.llamaCpp, F.pairing.config, F.pairing.llamaCpp, F.factors], [512, 512, 'half', 'half', 'rope_freqs']);
  assert.deepEqual([S.rotaryDim.config, S.rotaryDim.llamaCpp, S.factors, S.base.llamaCpp], [256, 256, null, 10000]);
  assert.deepEqual([F.differingPairs, S.differingPairs], [[], []]);
  // the config: p-RoPE, 1e6^(-2i/512) for the first int(0.25·512/2) = 64 pairs, 0 past them;
  // llama.cpp: the same divided by rope_freqs, 1 then 1e30 as float32
  for (let i = 0; i < 256; i++) {
    const turning = 1e6 ** (-2 * i / 512);
    const want = i < 64 ? turning : 0, wantL = i < 64 ? turning : turning / Math.fround(1e30);
    assert.ok(Math.abs(F.thetaConfig[i] - want) <= 1e-15 * want, `config pair ${i}: ${F.thetaConfig[i]}`);
    assert.ok(Math.abs(F.thetaLlamaCpp[i] - wantL) <= 1e-15 * wantL, `llama.cpp pair ${i}: ${F.thetaLlamaCpp[i]}`);
    // relative difference 1 past pair 63 (0 against ~1e-32), yet agreement: the angle at 2^31 is under 1e-6 rad
    if (i >= 64) assert.ok(F.relDiff[i] === 1 && F.thetaLlamaCpp[i] * 2 ** 31 < 1e-6 && F.thetaLlamaCpp[i] < 1e-30);
  }
  for (let i = 0; i < 128; i++) assert.ok(Math.abs(S.thetaLlamaCpp[i] - 10000 ** (-2 * i / 256)) <= 1e-15 * 10000 ** (-2 * i / 256), `sliding pair ${i}`);
  assert.ok(Math.max(...S.relDiff) <= 1e-6);
  assert.ok(r.maxDcos < 1e-9 && r.maxDsin < 1e-9);
});

test('Gemma 4 misreads: a base that differs is found on the full layers; --rope-freq-base reaches them only', async () => {
  // a flag over the file's base: the full layers' turning pairs differ (pair 0 turns by 1 in both), the frozen ones still stand
  const r = await compare('gemma-4-e2b', { flags: { ropeFreqBase: 10000 } });
  assert.deepEqual(codes(r).sort(), ['base-differs', 'flag-no-op']);
  const base = r.findings.find((f) => f.code === 'base-differs');
  assert.deepEqual(base.layerTypes, ['full_attention']);
  assert.match(base.message, /base 10000, the config 1000000: pairs 1–63 of 256 differ/);
  assert.deepEqual([base.fixKind, base.fixFlags], ['drop-flag', '--rope-freq-base 10000']);
  const noop = r.findings.find((f) => f.code === 'flag-no-op');
  assert.match(noop.message, /--rope-freq-base 10000 does not reach the sliding-window layers/);
  assert.deepEqual([noop.fixKind, noop.fixFlags], ['drop-flag', '--rope-freq-base 10000']);
  // a file whose SWA base is wrong: the sliding layers, fixed only by converting again
  const swa = await compare('gemma-4-e2b', {}, { set: [['gemma4.rope.freq_base_swa', 'f32', 1e6]] });
  assert.deepEqual(codes(swa), ['base-differs']);
  assert.deepEqual([swa.findings[0].layerTypes, swa.findings[0].fixKind], [['sliding_attention'], 'reconvert']);
  // files llama.cpp refuses or aborts on: the comparison throws llama.cpp's reason
  await assert.rejects(compare('gemma-4-e2b', {}, { drop: ['rope_freqs.weight'] }), /no rope_freqs\.weight/);
  await assert.rejects(compare('gemma-4-e2b', {}, { drop: ['gemma4.rope.dimension_count_swa'] }), /n_rot_swa = 512/);
  await assert.rejects(compare('gemma-4-e2b', {}, { drop: ['gemma4.attention.sliding_window_pattern'] }), /sliding_window_pattern is missing/);
});

test('a flag that makes a point differ where the file agrees is fixed by leaving it out, named as given', async () => {
  // README's example: Llama 3.1 with -c 8192 --rope-scale 4; the file alone agrees
  assert.deepEqual(codes(await compare('llama-3.1-8b', { ctx: 8192 })), ['none']);
  for (const [flags, named] of [[{ ropeScale: 4 }, '--rope-scale 4'], [{ ropeFreqScale: 0.25 }, '--rope-freq-scale 0.25'],
    // of two flags, the one whose leaving out clears it (linear without a scale is the file's own reading)
    [{ ropeScaling: 'linear', ropeScale: 4 }, '--rope-scale 4']]) {
    const r = await compare('llama-3.1-8b', { ctx: 8192, flags });
    assert.deepEqual(codes(r), ['scaling-differs'], named);
    const f = r.findings[0];
    assert.deepEqual([f.fixKind, f.fixFlags], ['drop-flag', named]);
    assert.equal(f.fix, `leave out ${named}: without it llama.cpp reads this from the file, which agrees with the config`);
    assert.doesNotMatch(f.fix, /reconvert/);
    const left = Object.fromEntries(Object.entries(flags).filter(([k]) => !named.startsWith({ ropeScale: '--rope-scale ', ropeFreqScale: '--rope-freq-scale', ropeScaling: '--rope-scaling' }[k])));
    assert.deepEqual(codes(await compare('llama-3.1-8b', { ctx: 8192, flags: left })), ['none'], named);
  }
  // the file's own misreading is not the flag's: a GGUF without rope_freqs under --rope-scale 4 still wants another file
  const old = await compare('llama-3.1-8b', { ctx: 8192, flags: { ropeScale: 4 } }, { drop: ['rope_freqs.weight'] });
  assert.deepEqual([old.findings[0].code, old.findings[0].fixKind], ['rope-freqs-missing', 'reconvert']);
});

test('a finding another fix clears too says so, with that fix, checked by comparing again', async () => {
  // Qwen2 without YaRN in its config, a GGUF converted with it: --rope-scaling none clears both
  const cfg = structuredClone(MODELS['qwen2-7b-yarn'].config);
  delete cfg.rope_scaling;
  const g = await read('qwen2-7b-yarn');
  const r = pe.compareRuntimes(cfg, g);
  assert.deepEqual(codes(r), ['scaling-differs', 'attn-factor-differs']);
  assert.deepEqual([r.findings[0].fixKind, r.findings[0].fixFlags], ['flags', '--rope-scaling none']);
  const a = r.findings[1];
  assert.deepEqual([a.fixKind, a.fixFlags, a.fix], ['flags', '--rope-scaling none', 'follows from the scaling: --rope-scaling none fixes both']);
  assert.doesNotMatch(a.fix, /no flag/);
  assert.deepEqual(codes(pe.compareRuntimes(cfg, g, { flags: { ropeScaling: 'none' } })), ['none']);
  // where no other fix clears it, the factor keeps its own reason: YaRN's truncate: false has no flag
  const oss = await compare('gpt-oss-20b', { flags: { ropeScale: 64 } });
  assert.ok(oss.findings.every((f) => !/^follows from/.test(f.fix ?? '')), oss.findings.map((f) => f.fix).join(' / '));
});

test('architecture-differs: a config against the GGUF of another model is said first, and no fix is offered that cannot help', async () => {
  const r = pe.compareRuntimes(MODELS['llama-3.1-8b'].config, await read('gemma-3-4b'));
  assert.equal(codes(r)[0], 'architecture-differs');
  const first = r.findings[0];
  assert.match(first.message, /^this GGUF is of another model: its general.architecture is gemma3, but convert_hf_to_gguf.py converts a config of model_type llama to llama/);
  // the GGUF's sliding layers, which the config has none of, are named as left out
  assert.match(first.message, /the GGUF's sliding_attention layers \(29 of its 34\) have no counterpart in the config and are not compared/);
  assert.deepEqual([first.fixKind, first.fixFlags, first.layerTypes], ['none', null, []]);
  for (const f of r.findings.slice(1)) {
    assert.deepEqual([f.fixKind, f.fixFlags], ['none', null], f.code);
    assert.doesNotMatch(f.fix, /reconvert|b3472|download/, f.code);
  }
  assert.ok(codes(r).includes('rope-freqs-missing'));
  // the other way round, and the gallery's own pairs stay as they were
  assert.equal(codes(pe.compareRuntimes(MODELS['gemma-3-4b'].config, await read('llama-3.1-8b')))[0], 'architecture-differs');
  // a model_type the converter table lacks is not judged
  assert.deepEqual(codes(pe.compareRuntimes({ ...MODELS['llama-3.1-8b'].config, model_type: 'my_llama' }, await read('llama-3.1-8b'))), ['none']);
});

test('flags that leave a finding as it was are no fix: the fix says none helps, and why when the rotary widths differ', async () => {
  // the config turns half the head, the file the whole: YaRN's ramp is taken over other pairs,
  // and the YaRN flags scalingFix would offer are what the file already holds
  const config = { ...MODELS['qwen2-7b-yarn'].config, partial_rotary_factor: 0.5 };
  const r = pe.compareRuntimes(config, await read('qwen2-7b-yarn'));
  assert.deepEqual(codes(r), ['pairing-differs', 'scaling-differs']);
  const s = r.findings[1];
  assert.equal(s.fixKind, 'none');
  assert.equal(s.fixFlags, null);
  assert.equal(s.fix, 'no flag makes them agree: with --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768 a difference remains, since the rotary widths differ (pairing-differs)');
  // and the flags were checked: passing them leaves the finding
  const again = pe.compareRuntimes(config, await read('qwen2-7b-yarn'), { flags: { ropeScaling: 'yarn', ropeScale: 4, yarnOrigCtx: 32768 } });
  assert.ok(codes(again).includes('scaling-differs'));
  // a config whose scaling the flags do reach keeps its flags fix
  const eight = { ...MODELS['qwen2-7b-yarn'].config, rope_scaling: { type: 'yarn', factor: 8, original_max_position_embeddings: 32768 } };
  const ok = pe.compareRuntimes(eight, await read('qwen2-7b-yarn'));
  assert.equal(ok.findings[0].fixKind, 'flags');
  assert.deepEqual(codes(pe.compareRuntimes(eight, await read('qwen2-7b-yarn'), { flags: { ropeScaling: 'yarn', ropeScale: 8, yarnOrigCtx: 32768 } })), ['none']);
});

test('layers-not-compared: layers the GGUF rotates apart that the config counts as another layer type are named, not passed over', async () => {
  // a Gemma 3 config whose layer_types call every layer full attention, against the GGUF whose
  // sliding layers llama.cpp rotates with base 10000: those layers were compared with nothing
  const config = structuredClone(MODELS['gemma-3-4b'].config);
  config.text_config.layer_types = Array(34).fill('full_attention');
  delete config.text_config.sliding_window_pattern;
  const r = pe.compareRuntimes(config, await read('gemma-3-4b'));
  assert.deepEqual(codes(r), ['layers-not-compared']);
  assert.equal(r.findings[0].message, "the GGUF's sliding_attention layers (29 of its 34) have no layer type of their own in the config (the config counts them among its full_attention layers, base 1000000), so they are not compared: llama.cpp rotates them with base 10000.");
  assert.deepEqual([r.findings[0].fixKind, r.findings[0].fixFlags, r.findings[0].layerTypes], ['none', null, []]);
  assert.deepEqual(Object.keys(r.layerTypes), ['full_attention']);
  // the model's own config compares every layer type and finds none left
  assert.deepEqual(codes(await compare('gemma-3-4b')), ['none']);
});

test('longrope-factors-by-context: positions past L0 in a context past it are compared as that sequence and as a prompt within L0', async () => {
  const r = await compare('phi-3.5-mini');
  assert.deepEqual(r.seqLens, [131072, 4096]);
  assert.deepEqual(codes(r), ['longrope-factors-by-context']);
  assert.equal(r.agree, false);
  assert.match(r.findings[0].message, /^a prompt of at most 4096 tokens \(the rows above assume 131072\): llama.cpp picks LongRoPE's long factors/);
  assert.deepEqual([r.findings[0].fixKind, r.findings[0].fixFlags], ['flags', '-c 4096']);
  // the whole-context rows agree: both runtimes take the long factors there
  assert.deepEqual(r.layerTypes.full_attention.differingPairs, []);
  // -c 4096: one sequence length, and it agrees; positions given past L0 (the page's chart gives
  // its m): that sequence and a prompt within L0, whose finding it would hide; within L0: that one
  const fits = await compare('phi-3.5-mini', { ctx: 4096 });
  assert.deepEqual([fits.seqLens, codes(fits), fits.agree], [[4096], ['none'], true]);
  const asked = await compare('phi-3.5-mini', { positions: [0, 32768] });
  assert.deepEqual([asked.seqLens, codes(asked), asked.agree], [[32769, 4096], ['longrope-factors-by-context'], false]);
  const short = await compare('phi-3.5-mini', { positions: [0, 1000] });
  assert.deepEqual([short.seqLens, codes(short)], [[1001], ['longrope-factors-by-context']]);
  // a flag that does nothing is a note: the numbers agree
  const noop = await compare('llama-3.1-8b', { flags: { ropeScaling: 'yarn' } });
  assert.deepEqual([codes(noop), noop.findings[0].severity, noop.agree], [['flag-no-op'], 'note', true]);
});

test('float32: transformers\' own recipe (inv_freq = 1 / base ** (2i/d) and the angles in float32) strays as far from float64 as README says, further than compare\'s once-rounded figure', async () => {
  const { readFileSync } = await import('node:fs');
  const f = Math.fround, base = 1e6, d = 128, p = 131071;
  let own = 0;
  for (let i = 0; i < d / 2; i++) {
    const angle = f(f(1 / f(Math.pow(base, f(f(2 * i) / d)))) * f(p)), exact = p * Math.pow(base, -2 * i / d);
    own = Math.max(own, Math.abs(f(Math.cos(angle)) - Math.cos(exact)), Math.abs(f(Math.sin(angle)) - Math.sin(exact)));
  }
  assert.equal(own.toPrecision(2), '0.0048');
  assert.match(readFileSync(new URL('../README.md', import.meta.url), 'utf8'), /up to 4\.8e-3 at position 131071 \(base 1e6,\s+d 128/);
  const once = pe.ropeCache([p], d, { base, precision: 'f32' });
  let rounded = 0;
  for (let i = 0; i < d / 2; i++) rounded = Math.max(rounded, Math.abs(once.cos[i] - Math.cos(p * base ** (-2 * i / d))));
  assert.ok(rounded < own, `${rounded} < ${own}`);
});
