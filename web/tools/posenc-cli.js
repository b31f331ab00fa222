#!/usr/bin/env node
// posenc-cli.js: the `posenc` command (package.json bin).
//
//   posenc inspect <config.json | model.gguf | hub:owner/name[/file.gguf]> [llama.cpp flags] [--json]
//   posenc compare <config.json | hub:owner/name> <model.gguf | hub:owner/name/file.gguf> [--ctx N] [llama.cpp flags] [--positions a,b,...] [--json]
//   posenc vectors <config.json | hub:owner/name> [--positions a,b,...] [--seq-len N] [--out file.json [--json]]
//   posenc help
//
// A config.json given as - is read from standard input. Every command exits 2 on an error; compare
// exits 1 when llama.cpp and the config disagree (a finding of severity 'differs'; notes leave it at 0).
// A GGUF is read at its front only: a local file through a Blob over the file, a Hub file with
// HTTP Range requests (progress on stderr). HF_TOKEN, when set, is sent to the Hub for gated
// models; POSENC_HUB points hub: at another host (the tests' local server).
import { existsSync, openAsBlob } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import { loadPosenc, readGguf } from '../lib/posenc.js';
import { FLAG_NAMES } from '../lib/llamacpp.js';
import { MAX_CONFIG_BYTES } from '../lib/config-json.js';
import { ggmlPairing, runs, showRun } from '../lib/runtimes.js';

const HUB = process.env.POSENC_HUB ?? 'https://huggingface.co';
const USAGE = `usage:
  posenc inspect <config.json | model.gguf | hub:owner/name[/file.gguf]> [llama.cpp flags] [--json]
  posenc compare <config.json | hub:owner/name> <model.gguf | hub:owner/name/file.gguf> [--ctx N] [llama.cpp flags] [--positions a,b,...] [--json]
  posenc vectors <config.json | hub:owner/name> [--positions a,b,...] [--seq-len N] [--out file.json [--json]]
  posenc help
A config.json given as - is read from standard input.
llama.cpp flags (a GGUF's): -c/--ctx-size/--ctx N, --rope-scaling {none,linear,yarn}, --rope-scale N, --rope-freq-base N,
  --rope-freq-scale N, --yarn-orig-ctx N, --yarn-ext-factor N, --yarn-attn-factor N, --yarn-beta-fast N, --yarn-beta-slow N
inspect and vectors exit 0, or 2 on an error; compare exits 0 when llama.cpp computes what the config means, 1 when it
does not, 2 on an error.`;

// The options of each command besides llama.cpp's flags (inspect of a GGUF and compare take those):
// any other is refused, not ignored.
const TAKES = { inspect: ['--json'], compare: ['--json', '--positions'], vectors: ['--positions', '--seq-len', '--out', '--json'] };
const LONG_NAMES = { '--json': '--json', '--positions': '--positions', '--seq-len': '--seq-len', '--out': '--out', '-o': '--out' };

// llama.cpp's flags as typed → the option each fills (and back, for messages)
const FLAGS = Object.fromEntries(Object.entries(FLAG_NAMES).map(([key, flag]) => [flag, key]));

class UsageError extends Error {}

function parseArgs(argv) {
  // (given: each option as typed, by its long name, for the commands that do not take it)
  const out = { files: [], flags: {}, json: false, ctx: undefined, positions: undefined, seqLen: undefined, out: undefined, given: new Map() };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i], v;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) (v = a.slice(eq + 1)), (a = a.slice(0, eq));
    const value = () => {
      if (v !== undefined) return v;
      if (i + 1 >= argv.length) throw new UsageError(`${a} needs a value`);
      return argv[++i];
    };
    const number = (s) => {
      const n = Number(s);
      if (s === '' || !Number.isFinite(n)) throw new UsageError(`${a} needs a number, got ${JSON.stringify(s)}`);
      return n;
    };
    if (Object.hasOwn(LONG_NAMES, a)) out.given.set(LONG_NAMES[a], a);
    if (a === '--json') out.json = true;
    else if (a === '-h' || a === '--help') out.help = true;
    else if (a === '-c' || a === '--ctx-size' || a === '--ctx') out.ctx = number(value());
    else if (a === '--positions') out.positions = value().split(',').map((s) => number(s.trim()));
    else if (a === '--seq-len') out.seqLen = number(value());
    else if (a === '--out' || a === '-o') out.out = value();
    else if (Object.hasOwn(FLAGS, a)) out.flags[FLAGS[a]] = a === '--rope-scaling' ? value() : number(value());
    else if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
    else out.files.push(a);
  }
  return out;
}

/** hub:owner/name[/path] → { repo, file } */
function hubRef(s) {
  const m = /^hub:([\w.-]+\/[\w.-]+)(?:\/(.+))?$/.exec(s);
  if (!m) throw new UsageError(`${s}: a Hub reference is hub:owner/name or hub:owner/name/file.gguf`);
  return { repo: m[1], file: m[2] ?? null };
}

/** Why fetch failed: the system's code (ENOTFOUND, ECONNREFUSED) where it gives one. */
const unreached = (e) => e?.cause?.code ?? e?.cause?.message ?? e?.message;

function hubFetch(url, init = {}) {
  const headers = { ...(init.headers ?? {}) };
  if (process.env.HF_TOKEN) headers.Authorization = `Bearer ${process.env.HF_TOKEN}`;
  return fetch(url, { ...init, headers });
}

async function hubText(repo, file) {
  const url = `${HUB}/${repo}/resolve/main/${file}`;
  let res;
  try {
    res = await hubFetch(url);
  } catch (e) {
    throw new Error(`cannot reach the Hub for ${repo} (${unreached(e)}); offline? Give a local ${file} instead`);
  }
  if (res.status === 401 || res.status === 403) throw new Error(`${repo} is gated or private (HTTP ${res.status}): accept its licence on the Hub and set HF_TOKEN`);
  if (res.status === 404) throw new Error(`${repo} has no ${file} (HTTP 404)`);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.text();
}

/** The GGUF files of a Hub repo (the model API's sibling list). */
async function hubGgufs(repo) {
  try {
    const res = await hubFetch(`${HUB}/api/models/${repo}`);
    if (!res.ok) return [];
    const info = await res.json();
    return (info.siblings ?? []).map((s) => s.rfilename).filter((f) => typeof f === 'string' && f.endsWith('.gguf'));
  } catch {
    return [];
  }
}

const mib = (n) => `${(n / 2 ** 20).toFixed(1)} MiB`;

async function loadGguf(ref) {
  if (ref === '-') throw new UsageError('a GGUF is read from its file, whose front alone posenc reads; - (standard input) is for a config.json');
  if (ref.startsWith('hub:')) {
    const { repo, file } = hubRef(ref);
    if (!file) throw new UsageError(`${ref}: name the GGUF file, as hub:${repo}/file.gguf`);
    const url = `${HUB}/${repo}/resolve/main/${file}`;
    const onProgress = (n, total) => process.stderr.write(`reading ${repo}/${file}: ${mib(n)}${total ? ` of ${mib(total)}` : ''}\n`);
    try {
      return await readGguf(url, { fetch: hubFetch, onProgress });
    } catch (e) {
      if (e.code === 'gated') throw new Error(`${repo} is gated or private: accept its licence on the Hub and set HF_TOKEN`);
      if (e.code === 'not-found') throw new Error(`${repo} has no ${file} (HTTP 404)`);
      if (e.code === 'network') throw new Error(`cannot reach the Hub for ${repo} (${unreached(e.cause)}); offline? Give a local GGUF file instead`);
      throw e;
    }
  }
  try {
    if (!(await stat(ref)).isFile()) throw new Error('not a file');
  } catch (e) {
    throw new Error(`cannot open ${ref}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
  // a Blob over the file: readGguf slices its front, the weights are never read
  try {
    return await readGguf(await openAsBlob(ref));
  } catch (e) {
    if (/^not a GGUF file: it starts with "\{/.test(e.message)) throw new UsageError(`${ref} is not a GGUF file: it starts with "{", as a config.json does`);
    const cut = /^the file ends at byte|lies past the end of the file/.test(e.message) ? '; is the file cut short (an unfinished download or copy)?' : '';
    throw new Error(`${ref}: ${e.message}${cut}`);
  }
}

/**
 * Standard input's text (a config.json given as -). A GGUF is refused at its first bytes, and
 * anything longer than any config.json is stopped there, rather than read whole into memory.
 */
async function readStdin() {
  const chunks = [];
  let bytes = 0;
  for await (const chunk of process.stdin) {
    const first = bytes < 4;
    chunks.push(chunk);
    bytes += chunk.length;
    if (first && bytes >= 4 && Buffer.concat(chunks).subarray(0, 4).toString('latin1') === 'GGUF') {
      throw new UsageError('standard input is a GGUF file; give a GGUF by its path (posenc reads its front alone), a config.json as -');
    }
    if (bytes > MAX_CONFIG_BYTES) throw new Error(`standard input: config text must be at most ${MAX_CONFIG_BYTES} bytes`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A config.json's text and the name to say it by: a file, standard input (-) or the Hub. */
async function loadConfig(ref) {
  if (ref.startsWith('hub:')) {
    const { repo, file } = hubRef(ref);
    return { text: await hubText(repo, file ?? 'config.json'), repo, name: ref };
  }
  const name = ref === '-' ? 'standard input' : ref;
  let text;
  try {
    text = ref === '-' ? await readStdin() : await readFile(ref, 'utf8');
  } catch (e) {
    if (ref === '-') throw e;
    throw new Error(`cannot read ${ref}: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'it is a directory; give the config.json in it' : e.message}`);
  }
  if (text.startsWith('GGUF')) throw new UsageError(`${name} is a GGUF file; a config.json is wanted here`);
  // bytes that are not UTF-8 text (a NUL, or what decoding replaced) in its first KiB: not a JSON file
  if (/[\0\uFFFD]/.test(text.slice(0, 1024))) throw new UsageError(`${name} is neither a GGUF file (no "GGUF" at its start) nor a JSON text file; a config.json is wanted here`);
  return { text, name };
}

/** pe.ropeConfig of a config's text; what is wrong with it is said with its file's name (compare reads two files). */
function readConfig(pe, text, ref) {
  try {
    return pe.ropeConfig(text);
  } catch (e) {
    e.message = `${ref}: ${e.message}`;
    throw e;
  }
}

const isGguf = (ref) => /\.gguf$/i.test(ref);
const fmt = (x) => (typeof x !== 'number' ? String(x) : Number.isInteger(x) ? String(x) : Number(x.toPrecision(6)).toString());

/** JSON with typed arrays as arrays and bigints as strings. */
function toJson(v) {
  return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? String(x) : ArrayBuffer.isView(x) ? Array.from(x) : x), 2);
}

function describeScaling(s) {
  if (!s) return 'none';
  const lists = !s.shortFactor ? '' : s.shortFactor.length === s.longFactor.length ? `, ${s.shortFactor.length} short/long factors`
    : `, ${s.shortFactor.length} short and ${s.longFactor.length} long factors`;
  return Object.entries(s).filter(([k]) => k !== 'shortFactor' && k !== 'longFactor').map(([k, v]) => `${k} ${fmt(v)}`).join(', ') + lists;
}

/** transformers' attention_factor, or why there is none (LongRoPE lists the kernel refuses). */
const magnitude = (lt) => `magnitude (attention_factor) ${lt.attentionFactor === null ? 'unknown: the factor lists do not fit the rotary width (see the warning)' : fmt(lt.attentionFactor)}`;

/** The pairs ggml rotates, in the GGUF's weights and in the checkpoint's (the converter permutes Q/K for some architectures). */
function pairsLabel(arch, mode) {
  const checkpoint = ggmlPairing(arch, mode), gguf = mode === 'norm' ? 'interleaved' : 'half';
  const words = { half: 'half-split (i, i + d/2)', interleaved: 'adjacent (2i, 2i + 1)' };
  return checkpoint === gguf ? `pairs ${words[gguf]}, in the GGUF's weights as in the HF checkpoint's`
    : `pairs ${words[gguf]} in the GGUF's weights = ${words[checkpoint]} in the HF checkpoint's, whose q/k convert_hf_to_gguf.py permuted`;
}

/** Layer indices, runs as a–b; a long list shortened to its pattern or its ends. */
function layerList(layers) {
  const r = runs(layers), show = showRun;
  if (r.length <= 8) return r.map(show).join(', ');
  const step = r[1][0] - r[0][0];
  if (r.every(([a, b], i) => b - a === r[0][1] - r[0][0] && (i === 0 || a - r[i - 1][0] === step))) {
    return `${show(r[0])}, ${show(r[1])}, …, ${show(r[r.length - 1])} (every ${step})`;
  }
  return `${r.slice(0, 4).map(show).join(', ')}, …, ${r.slice(-2).map(show).join(', ')}`;
}

/** The context length the config is for: one where its layer types agree, else each type's. */
function contextWords(cfg) {
  const max = cfg.maxPositionEmbeddings, types = Object.entries(cfg.layerTypes);
  const length = (lt) => {
    const n = lt.contextLength;
    if (n === null) return 'unknown (no max_position_embeddings)';
    // (past max only through a scaling: its factor × its original length)
    return n === max ? String(n) : `${n} (scaling factor ${fmt(lt.scaling.factor)} × ${fmt(n / lt.scaling.factor)}; max_position_embeddings ${max ?? 'not given'})`;
  };
  if (new Set(types.map(([, lt]) => lt.contextLength)).size === 1) return `context length ${length(types[0][1])}`;
  return `context length ${types.map(([t, lt]) => `${length(lt)} for ${t}`).join(', ')}`;
}

function printConfig(cfg, name) {
  const lines = [`${name}: positions as transformers reads them, ${contextWords(cfg)}`];
  const several = Object.keys(cfg.layerTypes).length > 1;
  for (const [t, lt] of Object.entries(cfg.layerTypes)) {
    const n = lt.layers ? `${lt.layers.length} layers${several ? `: ${layerList(lt.layers)}` : ''}` : 'layers unknown';
    const softmax = lt.softmaxScale !== 1 ? `, softmax scale ${fmt(lt.softmaxScale)} (× 1/√d, d the whole q·k width)` : '';
    if (lt.nope) lines.push(`  ${t} (${n}): no position encoding (NoPE)${softmax}`);
    else lines.push(`  ${t} (${n}): base ${fmt(lt.base)}, head ${lt.headDim}, rotary ${lt.rotaryDim}, pairs ${lt.style}, scaling ${describeScaling(lt.scaling)}, ${magnitude(lt)}${softmax}`);
  }
  for (const w of cfg.warnings) lines.push(`  warning (${w.code}): ${w.message}`);
  return lines.join('\n');
}

function printLlama(rt, name) {
  const lines = [`${name}: ${rt.arch}, what llama.cpp ${rt.llamaCpp} passes to ggml_rope_ext (context ${rt.nCtx})`];
  for (const [t, p] of Object.entries(rt.layerTypes)) {
    const n = p.layers ? `${p.layers.length} layers` : 'layers unknown';
    lines.push(`  ${t} (${n}): n_dims ${p.nDims}, mode ${p.mode} (${pairsLabel(rt.arch, p.mode)}), freq_base ${fmt(p.freqBase)}, freq_scale ${fmt(p.freqScale)}, ext_factor ${fmt(p.extFactor)}, attn_factor ${fmt(p.attnFactor)}, beta ${fmt(p.betaFast)}/${fmt(p.betaSlow)}, n_ctx_orig ${p.nCtxOrig}, factors ${p.factorsName ?? 'none'}${p.sections ? `, sections [${p.sections.join(', ')}]` : ''}; cos/sin magnitude ${fmt(p.magnitude)}`);
  }
  for (const n of rt.notes) lines.push(`  ${n.code}: ${n.message}`);
  return lines.join('\n');
}

function printCompare(r, cfgName, ggufName) {
  const lines = [`${ggufName} in llama.cpp ${r.llamaCpp} (${r.arch}, context ${r.nCtx}) against ${cfgName}, positions up to ${r.float32.position}, as a sequence of ${r.seqLens.join(' and as a prompt of ')} tokens`];
  for (const [t, lt] of Object.entries(r.layerTypes)) {
    lines.push(`  ${t}: base ${fmt(lt.base.llamaCpp)} (config ${fmt(lt.base.config)}), rotary ${lt.rotaryDim.llamaCpp} (${lt.rotaryDim.config}), pairs ${lt.pairing.llamaCpp} (${lt.pairing.config}) in the HF checkpoint's layout${lt.pairing.gguf !== lt.pairing.llamaCpp ? ` (${lt.pairing.gguf === 'interleaved' ? 'adjacent' : 'half-split'} in the GGUF's weights)` : ''}, magnitude ${fmt(lt.magnitude.llamaCpp)} (${fmt(lt.magnitude.config)}), θ differs on ${lt.differingPairs.length} of ${lt.relDiff.length} pairs`);
  }
  lines.push('findings:');
  for (const f of r.findings) {
    lines.push(`  ${f.code}${f.severity === 'note' && f.code !== 'none' ? ' (a note: llama.cpp still computes what the config means)' : ''}: ${f.message}`);
    if (f.fix) lines.push(`    fix: ${f.fix}`);
  }
  for (const w of r.configWarnings) lines.push(`  config warning (${w.code}): ${w.message}`);
  lines.push(`float32 rounding at position ${r.float32.position} (not a finding): the largest |Δ| of a cos or sin from its float64 value is ${fmt(r.float32.llamaCpp)} in llama.cpp (ggml's float32 code), ${fmt(r.float32.transformers)} with θ_i, angles and cos/sin each rounded once to float32, the type transformers computes in (its own recipe rounds θ_i twice, in pow and 1/x, and can stray further)`);
  lines.push(r.agree ? 'agree: llama.cpp computes what the config means (exit 0)' : 'differ: llama.cpp does not compute what the config means (exit 1)');
  return lines.join('\n');
}

/** llama.cpp's flags and -c act on a GGUF: elsewhere they would be ignored without a word. */
function noRuntimeFlags(a, what) {
  const given = [...Object.keys(a.flags).map((k) => FLAG_NAMES[k]), ...(a.ctx !== undefined ? ['-c'] : [])];
  if (given.length) throw new UsageError(`${given.join(', ')}: llama.cpp's flags apply to a GGUF; ${what} takes none`);
}

const ordinal = (n) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;

/** An API error in the words of the command line: the flags the user typed, not the options they fill. */
function cliWords(message) {
  return message
    .replace(/\b(?:options\.)?flags\.(\w+)/g, (m, k) => FLAG_NAMES[k] ?? m)
    .replace(/\boptions\.ctx\b/g, '-c')
    .replace(/(?<![.\w])seqLen\b/g, '--seq-len')
    .replace(/\b(?:options\.)?positions\[(\d+)\]/g, (_, i) => `the ${ordinal(Number(i) + 1)} value of --positions`);
}

async function main(argv) {
  const [command, ...rest] = argv;
  const a = parseArgs(rest);
  if (!command || command === '-h' || command === '--help' || command === 'help' || a.help) {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  if (!Object.hasOwn(TAKES, command)) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  for (const [option, typed] of a.given) {
    if (TAKES[command].includes(option)) continue;
    const takers = Object.keys(TAKES).filter((c) => TAKES[c].includes(option));
    throw new UsageError(`${typed} applies to ${takers.join(' and ')} only`);
  }
  // (vectors writes JSON already: --json is for its report of a file written)
  if (command === 'vectors' && a.json && a.out === undefined) throw new UsageError('--json applies to vectors with --out only: the vectors are JSON already');
  const pe = await loadPosenc().catch((e) => {
    // a clone after `npm install` has no kernels yet: build them once (the package ships them built)
    const root = fileURLToPath(new URL('../../', import.meta.url));
    if (existsSync(`${root}web/build/posenc.wasm`) || !existsSync(`${root}build.sh`)) throw e;
    process.stderr.write('posenc: building the kernels first (bash build.sh)\n');
    if (spawnSync('bash', ['build.sh'], { cwd: root, stdio: ['ignore', 2, 2] }).status !== 0) throw new Error('build.sh failed; see above');
    return loadPosenc();
  });
  const say = (text, data) => process.stdout.write(`${a.json ? toJson(data) : text}\n`);
  if (command === 'inspect') {
    if (a.files.length !== 1) throw new UsageError('inspect takes one file: config.json, model.gguf or hub:owner/name');
    const ref = a.files[0];
    const hubGguf = ref.startsWith('hub:') && hubRef(ref).file && isGguf(ref);
    if (isGguf(ref) || hubGguf) {
      const g = await loadGguf(ref);
      const rt = pe.llamaCppRope(g, { flags: a.flags, ctx: a.ctx });
      say(printLlama(rt, ref), { file: ref, metadata: ropeMetadata(g), llamaCpp: rt });
      return 0;
    }
    noRuntimeFlags(a, 'inspect of a config.json');
    const { text, repo, name } = await loadConfig(ref);
    const cfg = readConfig(pe, text, name);
    const ggufs = repo ? await hubGgufs(repo) : [];
    let out = printConfig(cfg, name);
    if (ggufs.length) out += `\n  GGUF files in ${repo}: ${ggufs.join(', ')}`;
    say(out, { file: ref, config: cfg, ggufFiles: ggufs });
    return 0;
  }
  if (command === 'compare') {
    if (a.files.length !== 2) throw new UsageError('compare takes two files: the config.json and the GGUF');
    const [cref, gref] = a.files;
    if (isGguf(cref) && !isGguf(gref)) throw new UsageError(`compare takes the config first, then the GGUF: posenc compare ${gref} ${cref}`);
    const [{ text, name }, g] = await Promise.all([loadConfig(cref), loadGguf(gref)]);
    readConfig(pe, text, name);
    const r = pe.compareRuntimes(text, g, { flags: a.flags, ctx: a.ctx, ...(a.positions ? { positions: a.positions } : {}) });
    say(printCompare(r, name, gref), r);
    return r.agree ? 0 : 1;
  }
  if (command === 'vectors') {
    if (a.files.length !== 1) throw new UsageError('vectors takes one config.json');
    noRuntimeFlags(a, 'vectors');
    const { text, name } = await loadConfig(a.files[0]);
    readConfig(pe, text, name);
    const v = pe.ropeVectors(text, { positions: a.positions, seqLen: a.seqLen });
    // the vectors go to stdout or a file; what to beware of in them goes where a reader sees it
    for (const w of v.warnings) process.stderr.write(`posenc: warning (${w.code}): ${w.message}\n`);
    const json = JSON.stringify(v);
    if (a.out) {
      await writeFile(a.out, `${json}\n`).catch((e) => {
        throw new Error(`--out ${a.out}: ${e.code === 'ENOENT' ? `no directory ${dirname(a.out)}; create it first` : e.message}`);
      });
      const types = Object.keys(v.layerTypes);
      if (!a.json) process.stdout.write(`wrote ${a.out}: ${types.length === 1 ? `the layer type ${types[0]}` : `${types.length} layer types (${types.join(', ')})`}\n`);
      else process.stdout.write(`${toJson({ wrote: a.out, layerTypes: types })}\n`);
    } else process.stdout.write(`${json}\n`);
    return 0;
  }
}

/** The RoPE-related keys of a GGUF's metadata (the rest is weights' bookkeeping and the tokenizer). */
function ropeMetadata(g) {
  const out = {};
  for (const [k, v] of Object.entries(g.metadata)) {
    if (/^general\.(architecture|name)$|\.(context_length|rope\..*|attention\.(head_count|head_count_kv|key_length|sliding_window.*)|block_count|embedding_length)$/.test(k)) out[k] = v;
  }
  out.ropeTensors = Object.keys(g.ropeTensors);
  return out;
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, (e) => {
  process.stderr.write(`posenc: ${cliWords(e.message)}\n${e instanceof UsageError ? `${USAGE}\n` : ''}`);
  process.exitCode = 2;
});
