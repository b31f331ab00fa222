// real-model.js: what the "Inside a real model" charts share: one model (a Hub model read by
// Range requests, files the reader chose, or the lab's model served with the page), one sentence
// tokenised by the model's own tokenizer.json, layer 0 computed on it, and the panel that picks
// them, with a progress bar per download. Nothing is uploaded; only the tensors a chart needs
// are read.
import { cjkSpacing, messages, onLang } from '../../host/i18n.js';
import { readSafetensors } from '../../lib/safetensors.js';
import { readLayer, LAYER_MODEL_TYPES } from '../../lib/layer.js';
import { labModelFiles } from '../../host/runtime.js';
import { HUB, HUB_ID } from './hub.js';

export { HUB };
export const PRESETS = Object.freeze(['HuggingFaceTB/SmolLM2-135M', 'Qwen/Qwen2.5-0.5B', 'Qwen/Qwen3-0.6B']);
/**
 * MB of each preset's weights file that layer 0 takes (BF16 W_Q, W_K, their biases or norms, the
 * input norm), what Load reads of it besides the header and one embedding row per token; the
 * tokenizer files come on top. SmolLM2-135M: 2 × (576·576 + 192·576 + 576) B = 0.89 MB;
 * Qwen2.5-0.5B: 2 × (896·896 + 128·896 + 1024 + 896) B = 1.84 MB; Qwen3-0.6B:
 * 2 × (2048·1024 + 1024·1024 + 2·128 + 1024) B = 6.29 MB.
 */
const PRESET_LAYER0_MB = Object.freeze({ 'HuggingFaceTB/SmolLM2-135M': '0.9', 'Qwen/Qwen2.5-0.5B': '1.8', 'Qwen/Qwen3-0.6B': '6.3' });
export const DEFAULT_SENTENCE = 'The dog bites the man, and then the man bites the dog back.';
/** At most this many tokens of the sentence are read (the charts draw one cell per token pair). */
export const MAX_TOKENS = 64;

export const RM = messages({
  en: {
    panel: 'Model and sentence',
    model: 'model',
    lab: "the lab's model (on this page, offline)",
    labShort: 'lab',
    hub: 'another Hub model (owner/name)',
    files: 'files from your computer',
    hubId: 'Hub model id',
    load: 'Load',
    filesLabel: 'model.safetensors, config.json and tokenizer.json (read here, never uploaded)',
    sentence: 'sentence',
    using: 'Showing {name}: layer 0, {tokens} tokens.',
    loading: 'Reading {name}…',
    loadHint: ' The charts show the lab\'s model until you press Load; then reading {name}\'s layer 0 from the Hugging Face Hub downloads only about {mb} MB of its weights, plus its tokenizer file, never the whole model.',
    labFiles: 'The lab\'s model, read from this page (no network):',
    labWords: ' Its tokens are the words {words}; any other word or punctuation mark is [UNK].',
    wordSep: ', ',
    truncated: ' Only the first {max} tokens are used.',
    gated: '{name} is gated or private ({status}): the Hub wants a sign-in and accepted terms, which this page cannot give. Pick another model, or choose its files from your computer.',
    missing: '{name} has no {file} on the Hub (404): check the id, or the model has no safetensors weights.',
    offline: 'The Hub cannot be reached (offline or blocked): the charts show the lab\'s model instead.',
    unsupported: 'The config.json of {name} says model_type “{type}”; this section reads the layouts of {types}.',
    stillShown: ' The charts still show {name}.',
    badId: '“{id}” is not a Hub model id (owner/name).',
    needFiles: 'Choose a .safetensors file, its config.json and its tokenizer.json.',
    sharded: 'This model is split into several safetensors files; choose the one that holds layer 0 and the embeddings ({file}).',
    failed: 'Could not read {name}: {message}',
    noTokens: 'The sentence has no tokens.',
    download: '{label}: {size}',
    unknownSize: 'size unknown',
    // what Load read to find the header: its first 64 KiB, or the whole file from a server that ignores Range
    header: '(bytes read for its header)',
    layer0: 'layer 0 (q, k, norms) and {rows} embedding rows',
    layers: 'Wq and Wk of all {layers} layers',
  },
  zh: {
    panel: '模型与句子',
    model: '模型',
    lab: '实验台上的模型（在本页上，离线可用）',
    labShort: '实验台模型',
    hub: '其他 Hub 模型（owner/name）',
    files: '你电脑上的文件',
    hubId: 'Hub 模型 id',
    load: '读取',
    filesLabel: 'model.safetensors、config.json 和 tokenizer.json（只在本地读取，从不上传）',
    sentence: '句子',
    using: '当前：{name}，第 0 层，{tokens} 个 token。',
    loading: '正在读取 {name}…',
    loadHint: '按“读取”之前，图中显示的是实验台上的模型；按下后，从 Hugging Face Hub 读取 {name} 的第 0 层只需下载约 {mb} MB 权重和分词器文件，而不是整个模型。',
    labFiles: '实验台模型，从本页读取（无需联网）：',
    labWords: '它的 token 就是这些单词：{words}；其他单词和标点一律记作 [UNK]。',
    wordSep: '、',
    truncated: '只用前 {max} 个 token。',
    gated: '{name} 是受限或私有模型（{status}）：Hub 要求登录并同意条款，本页做不到。请换一个模型，或从你的电脑选择它的文件。',
    missing: 'Hub 上的 {name} 没有 {file}（404）：请检查 id，或者这个模型没有 safetensors 权重。',
    offline: '无法连接 Hub（离线或被拦截）：图中改为显示实验台上的模型。',
    unsupported: '{name} 的 config.json 写的是 model_type “{type}”；本节读取的结构是 {types}。',
    stillShown: '图中仍显示 {name}。',
    badId: '“{id}”不是 Hub 模型 id（owner/name）。',
    needFiles: '请选择一个 .safetensors 文件，以及它的 config.json 和 tokenizer.json。',
    sharded: '这个模型分成了多个 safetensors 文件；请选择含有第 0 层和词嵌入的那个（{file}）。',
    failed: '无法读取 {name}：{message}',
    noTokens: '句子中没有 token。',
    download: '{label}：{size}',
    unknownSize: '大小未知',
    header: '为读取文件头而读入的字节',
    layer0: '第 0 层（q、k、归一化）和 {rows} 行词嵌入',
    layers: '全部 {layers} 层的 Wq 和 Wk',
  },
});

/** Bytes as kB or MB. */
export const size = (n) => (n == null ? String(RM.unknownSize) : n < 1e6 ? `${(n / 1e3).toFixed(1)} kB` : `${(n / 1e6).toFixed(2)} MB`);

/** The lab model's folder: beside the page's build/ (a module URL when there is one). */
function labBase() {
  try {
    return new URL('../../build/lab-model/', import.meta.url).href;
  } catch {
    return new URL('build/lab-model/', globalThis.document?.baseURI ?? 'http://localhost/').href;
  }
}

/** Where the lab's model is read from: its files inlined in a single-file build, else beside the page. */
function labWhere(name) {
  const inlined = labModelFiles();
  if (!inlined) return { kind: 'lab', name, base: labBase() };
  if (typeof inlined === 'string') return { kind: 'lab', name, base: inlined };
  const files = Object.entries(inlined).map(([n, v]) => new File([v], n));
  return { kind: 'lab', name, files };
}

let tokenizers = null;
const loadTokenizers = () => (tokenizers ??= import('../../vendor/tokenizers.js'));

// ---- the shared state ----

const S = {
  pe: null,
  choice: PRESETS[0], // what the panel's menu says
  model: null, // { name, kind: 'lab' | 'hub' | 'files', config, rope, st, tokenizer, L0 }
  sentence: DEFAULT_SENTENCE,
  layer0: null, // { ids, tokens, att (RoPE at 0…T−1), raw (q, k before RoPE), energy: { q, k } }
  all: null, // null, 'loading', or [{ q, k }] per layer: pair energy of every layer
  message: null, // { kind: 'error' | 'info', text: () => string }
  downloads: [], // [{ label: () => string, total, done }]
  downloadsOf: null, // the kind of model the downloads belong to
  busy: false,
  version: 0,
};
const listeners = new Set();
let started = null;
const changed = () => {
  S.version++;
  for (const f of listeners) f();
};

/** The shared state (read-only for charts). */
export const state = () => S;

/** What a chart of the section draws while no model is loaded: nothing, `waiting` as its notice, and its table's headers (CSV `columns`, shown `heads`). */
export function noModel(view, clear, waiting, columns, heads) {
  clear();
  view.notice = String(waiting);
  view.readout = '';
  return { columns, heads: heads.map(String), rows: [] };
}

/**
 * A chart's subscription: fn runs after every change; the first subscriber opens the lab's model.
 * Returns the unsubscribe function.
 */
export function subscribe(pe, fn) {
  S.pe ??= pe;
  listeners.add(fn);
  started ??= open({ kind: 'lab' });
  return () => listeners.delete(fn);
}

/** A fetch that counts each response's bytes into the download bar `into` (files are read side by side). */
function trackedFetch(into, fetchFn = globalThis.fetch) {
  return async (url, init = {}) => {
    const res = await fetchFn(url, { ...init, referrerPolicy: 'no-referrer', credentials: 'omit' });
    if (!res.body) return res;
    const reader = res.body.getReader();
    const body = new ReadableStream({
      async pull(c) {
        const { done, value } = await reader.read();
        if (done) return c.close();
        into.done += value.length;
        changed();
        c.enqueue(value);
      },
      cancel: (why) => reader.cancel(why),
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

const bar = (label, total) => {
  const b = { label, total, done: 0 };
  S.downloads.push(b);
  changed();
  return b;
};

/** An Error with the panel's message for it. */
const told = (text, cause) => Object.assign(new Error('told'), { told: text, cause });

async function getJson(where, name, file) {
  const b = bar(() => name, null);
  if (where.files) {
    const f = where.files.find((x) => x.name === name);
    if (!f) {
      // (a file not given has nothing to wait for)
      S.downloads.splice(S.downloads.indexOf(b), 1);
      if (file === 'optional') return null;
      throw told(() => RM.needFiles);
    }
    b.total = b.done = f.size;
    return JSON.parse(await f.text());
  }
  let res;
  try {
    res = await trackedFetch(b)(where.base + name);
  } catch (cause) {
    throw Object.assign(told(() => RM.offline, cause), { offline: true });
  }
  if (res.status === 404 && file === 'optional') return (S.downloads.splice(S.downloads.indexOf(b), 1), null);
  failOn(res.status, where.name, name);
  const len = res.headers.get('content-length');
  b.total = len === null ? null : Number(len);
  const text = await res.text();
  b.total ??= text.length;
  b.done = b.total;
  return JSON.parse(text);
}

function failOn(status, name, file) {
  if (status === 401 || status === 403) throw told(() => RM.gated.format({ name, status }));
  if (status === 404) throw told(() => RM.missing.format({ name, file }));
  if (status < 200 || status >= 300) throw told(() => RM.failed.format({ name, message: `HTTP ${status}` }));
}

/** Opens the safetensors file of `where` (a Hub model: model.safetensors, else its index). */
async function openWeights(where) {
  const b = bar(() => `model.safetensors ${RM.header}`, null);
  if (where.files) {
    const f = where.files.find((x) => /\.safetensors$/.test(x.name));
    if (!f) throw told(() => RM.needFiles);
    const st = await readSafetensors(f);
    b.total = b.done = st.bytesRead;
    return st;
  }
  const fetch = trackedFetch(b);
  try {
    return await readSafetensors(where.base + 'model.safetensors', { fetch });
  } catch (err) {
    if (err.status !== 404 || where.kind !== 'hub') throw err;
    return readSafetensors(where.base + 'model.safetensors.index.json', { fetch });
  } finally {
    b.total = b.done;
  }
}

/** The values of `promises` once all have settled; else the first failure in their order (not in time). */
async function settledInOrder(promises) {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => r.value);
}

/** Opens a model: { kind: 'lab' } or { kind: 'hub', id } or { kind: 'files', files }. */
export async function open(spec) {
  S.busy = true;
  S.downloads = [];
  S.downloadsOf = spec.kind;
  const name = spec.kind === 'hub' ? spec.id : spec.kind === 'lab' ? String(RM.lab) : spec.files.find((f) => /\.safetensors$/.test(f.name))?.name ?? '?';
  S.message = { kind: 'info', text: () => RM.loading.format({ name: spec.kind === 'lab' ? String(RM.lab) : name }) };
  changed();
  try {
    if (spec.kind === 'hub' && !HUB_ID.test(spec.id)) throw told(() => RM.badId.format({ id: spec.id }));
    const where = spec.kind === 'hub' ? { kind: 'hub', name, base: `${HUB}/${spec.id}/resolve/main/` }
      : spec.kind === 'lab' ? labWhere(name) : { kind: 'files', name, files: spec.files };
    // the tokenizer, its code and the weights' header, together: one round trip rather than four.
    // A Hub model's are asked for once its config is one posenc reads (nothing is downloaded for
    // a model it cannot read); the lab's model and a reader's files come with the config, since
    // each step of a reading waits for the charts mounting meanwhile to let the page go on.
    const rest = () => settledInOrder([getJson(where, 'tokenizer.json'), getJson(where, 'tokenizer_config.json', 'optional'),
      loadTokenizers(), openWeights(where)]);
    const configRead = getJson(where, 'config.json');
    const early = spec.kind === 'hub' ? null : rest();
    early?.catch(() => {}); // (awaited below, unless the config fails first)
    const config = await configRead;
    const type = config?.text_config?.model_type ?? config?.model_type;
    if (!LAYER_MODEL_TYPES.includes(type)) {
      throw told(() => RM.unsupported.format({ name, type: String(type), types: LAYER_MODEL_TYPES.filter((t) => t !== 'posenc_lab').join(', ') }));
    }
    const rope = S.pe.ropeConfig(config);
    const [tokJson, tokConfig, { Tokenizer }, st] = await (early ?? rest());
    const tokenizer = new Tokenizer(tokJson, tokConfig ?? {});
    // the lab's model: its vocabulary is a few words, named in the panel (special tokens aside)
    const special = new Set((tokJson.added_tokens ?? []).map((t) => t.content));
    const words = spec.kind === 'lab' ? Object.keys(tokJson.model?.vocab ?? {}).filter((w) => !special.has(w)) : null;
    if (!st.has('model.embed_tokens.weight') || !st.has('model.layers.0.self_attn.q_proj.weight')) {
      throw told(() => RM.sharded.format({ file: 'model.embed_tokens.weight, model.layers.0.*' }));
    }
    const lt = Object.values(rope.layerTypes).find((t) => t.layers?.includes(0)) ?? Object.values(rope.layerTypes)[0];
    const L0 = lt.scaling?.originalMaxPositionEmbeddings ?? rope.maxPositionEmbeddings ?? null;
    const model = { name: spec.kind === 'lab' ? 'lab' : name, kind: spec.kind, config, rope, lt, st, tokenizer, L0, words };
    const layer0 = await computeLayer0(model, S.sentence);
    Object.assign(S, { model, layer0, all: null, message: null });
  } catch (err) {
    const offline = err.offline || (err.status === undefined && err.cause && !err.told);
    // (a reader's message often names its file already: "model.safetensors": the tensors end …)
    const own = `"${name}": `, message = err.message.startsWith(own) ? err.message.slice(own.length) : err.message;
    const said = err.told ?? (offline ? () => RM.offline : () => RM.failed.format({ name, message }));
    // what the charts show meanwhile: the model they showed, said unless the message says it
    const shown = S.model && !offline ? (S.model.kind === 'lab' ? String(RM.lab) : S.model.name) : null;
    S.message = { kind: 'error', text: shown ? () => cjkSpacing(said() + RM.stillShown.format({ name: shown })) : said };
    // the reads that failed have nothing more to show
    for (const d of S.downloads) if (d.total === null) d.total = d.done;
    if (!S.model && spec.kind !== 'lab') {
      // nothing on screen yet: the lab's model keeps the charts drawn
      const msg = S.message;
      await open({ kind: 'lab' });
      S.message = msg;
    }
  } finally {
    S.busy = false;
    changed();
  }
}

/** Tokenises `text` and computes layer 0 on it (embeddings rows and layer-0 weights only). */
async function computeLayer0(model, text) {
  const ids0 = Array.from(model.tokenizer.encode(text).ids);
  const tokens0 = model.tokenizer.encode(text).tokens;
  if (!ids0.length) throw told(() => RM.noTokens);
  const ids = ids0.slice(0, MAX_TOKENS), tokens = tokens0.slice(0, MAX_TOKENS);
  const { st } = model;
  const p = 'model.layers.0.';
  const want = ['input_layernorm.weight', 'input_layernorm.bias', 'self_attn.q_proj.weight', 'self_attn.k_proj.weight', 'self_attn.q_proj.bias', 'self_attn.k_proj.bias', 'self_attn.q_norm.weight', 'self_attn.k_norm.weight']
    .filter((n) => st.has(p + n)).reduce((s, n) => s + st.info(p + n).byteLength, 0);
  const emb = st.info('model.embed_tokens.weight');
  const rowBytes = emb.byteLength / emb.shape[0];
  const b = bar(() => RM.layer0.format({ rows: new Set(ids).size }), want + new Set(ids).size * rowBytes);
  const before = st.bytesRead;
  const { x, weights } = await readLayer(st, { tokens: ids });
  b.done = b.total = st.bytesRead - before || b.total;
  const { pe } = S;
  const att = pe.layerAttention({ config: model.config, x, weights });
  const raw = pe.layerAttention({ config: model.config, x, weights, positions: new Array(ids.length).fill(0) });
  const opts = (heads) => ({ heads, headDim: att.headDim, rotaryDim: att.rotaryDim, style: att.style });
  const energy = { q: pe.pairEnergy(weights.q, opts(att.heads)), k: pe.pairEnergy(weights.k, opts(att.kvHeads)) };
  return { ids, tokens, truncated: ids0.length > MAX_TOKENS, att, raw, energy, weights, text };
}

/** A new sentence: recomputed on the current model. */
export async function setSentence(text) {
  S.sentence = text;
  if (!S.model) return;
  try {
    S.layer0 = await computeLayer0(S.model, text);
    if (S.message?.kind === 'error') S.message = null;
  } catch (err) {
    S.message = { kind: 'error', text: err.told ?? (() => RM.failed.format({ name: S.model.name, message: err.message })) };
  }
  changed();
}

/** Reads W_q and W_k of every layer (for the pair-energy chart), once per model. */
export async function readAllLayers() {
  const model = S.model;
  if (!model || S.all) return;
  S.all = 'loading';
  const n = Number(model.config.num_hidden_layers ?? model.config.text_config?.num_hidden_layers);
  const names = Array.from({ length: n }, (_, l) => [`model.layers.${l}.self_attn.q_proj.weight`, `model.layers.${l}.self_attn.k_proj.weight`]);
  const b = bar(() => RM.layers.format({ layers: n }), names.flat().reduce((s, x) => s + (model.st.has(x) ? model.st.info(x).byteLength : 0), 0));
  const { att } = S.layer0;
  const opts = (heads) => ({ heads, headDim: att.headDim, rotaryDim: att.rotaryDim, style: att.style });
  try {
    const out = [];
    for (const [q, k] of names) {
      const before = model.st.bytesRead;
      const [wq, wk] = await Promise.all([model.st.tensor(q), model.st.tensor(k)]);
      if (model.kind !== 'hub') b.done += model.st.bytesRead - before;
      out.push({ q: S.pe.pairEnergy(wq, opts(att.heads)), k: S.pe.pairEnergy(wk, opts(att.kvHeads)) });
      changed();
    }
    b.done = b.total;
    if (S.model === model) S.all = out;
  } catch (err) {
    S.all = null;
    S.message = { kind: 'error', text: err.told ?? (() => RM.failed.format({ name: model.name, message: err.message })) };
  }
  changed();
}

// ---- the panel ----

let panel = null;

/**
 * The model panel, placed once before the first chart that asks for it and shows its controls
 * (an embed's controls="0" shows the model as it is, with nothing to change it). Returns its remover.
 */
export function modelPanel(el) {
  if (panel || !globalThis.document || el.closest('.no-controls')) return () => {};
  const at = el.closest('.chart') ?? el;
  const box = document.createElement('div');
  box.className = 'config-panel real-model-panel';
  const uid = Math.random().toString(36).slice(2, 8);
  const h = document.createElement('p');
  h.className = 'real-model-title';
  const row = document.createElement('div');
  row.className = 'config-row';
  const mk = (tag, id, props = {}) => Object.assign(document.createElement(tag), { id: `rm-${id}-${uid}` }, props);
  const label = (forEl) => Object.assign(document.createElement('label'), { htmlFor: forEl.id, className: 'control' });
  const select = mk('select', 'model');
  for (const v of [...PRESETS, 'lab', 'hub', 'files']) select.append(Object.assign(document.createElement('option'), { value: v, textContent: v }));
  select.value = S.choice;
  const selectLabel = label(select), selectName = document.createElement('span');
  selectLabel.append(selectName, select);
  const idInput = mk('input', 'id', { type: 'text', spellcheck: false, autocomplete: 'off', placeholder: 'owner/name' });
  const idLabel = label(idInput), idName = document.createElement('span');
  idLabel.append(idName, idInput);
  const files = mk('input', 'files', { type: 'file', multiple: true, accept: '.safetensors,.json' });
  const filesLabel = label(files), filesName = document.createElement('span');
  filesLabel.append(filesName, files);
  const load = mk('button', 'load', { type: 'button' });
  row.append(selectLabel, idLabel, filesLabel, load);
  const sentence = mk('input', 'sentence', { type: 'text', value: S.sentence, spellcheck: false, className: 'real-model-sentence' });
  const sentenceLabel = label(sentence), sentenceName = document.createElement('span');
  sentenceLabel.append(sentenceName, sentence);
  sentenceLabel.classList.add('wide');
  const bars = document.createElement('div');
  bars.className = 'real-model-downloads';
  const status = document.createElement('p');
  status.className = 'chart-note';
  status.setAttribute('role', 'status');
  box.append(h, row, sentenceLabel, bars, status);
  at.before(box);
  panel = box;

  const show = () => {
    const v = select.value;
    idLabel.hidden = v !== 'hub';
    filesLabel.hidden = v !== 'files';
    load.hidden = v === 'files';
    load.disabled = S.busy;
    files.disabled = S.busy;
  };
  const relabel = () => {
    h.textContent = RM.panel;
    selectName.textContent = RM.model;
    for (const o of select.options) if (!PRESETS.includes(o.value)) o.textContent = RM[o.value];
    idName.textContent = RM.hubId;
    filesName.textContent = RM.filesLabel;
    load.textContent = RM.load;
    sentenceName.textContent = RM.sentence;
    render();
  };
  const render = () => {
    show();
    const labNote = S.downloadsOf === 'lab' && S.downloads.length ? [Object.assign(document.createElement('span'), { textContent: String(RM.labFiles) })] : [];
    bars.replaceChildren(...labNote, ...S.downloads.map((d, n) => {
      const wrap = document.createElement('label');
      wrap.className = 'real-model-bar';
      const p = Object.assign(document.createElement('progress'), { id: `rm-bar-${uid}-${n}` });
      // (no total yet: a read under way, drawn moving; a read that failed has one)
      if (d.total != null) (p.max = Math.max(1, d.total)), (p.value = Math.min(d.done, p.max));
      const text = document.createElement('span');
      text.textContent = RM.download.format({ label: d.label(), size: size(d.total ?? (d.done || null)) });
      wrap.append(text, p);
      return wrap;
    }));
    const m = S.model, l = S.layer0;
    // the menu holds the model to read next; a printed chart names the one it was drawn with (page/print.js)
    select.dataset.drawn = m ? (m.kind === 'lab' ? String(RM.lab) : m.name) : '';
    // the status: text, and the lab's words as code (they are tokens, in any language)
    const parts = [];
    if (S.message) parts.push(S.message.text());
    else if (m && l) {
      parts.push(RM.using.format({ name: m.kind === 'lab' ? String(RM.lab) : m.name, tokens: l.ids.length }) + (l.truncated ? RM.truncated.format({ max: MAX_TOKENS }) : ''));
      if (m.words?.length) {
        const [before, after] = String(RM.labWords).split('{words}');
        parts.push(before, Object.assign(document.createElement('code'), { textContent: m.words.join(RM.wordSep) }), after);
      }
      if (m.kind === 'lab' && PRESETS.includes(select.value)) parts.push(RM.loadHint.format({ name: select.value, mb: PRESET_LAYER0_MB[select.value] }));
    }
    status.replaceChildren(...parts.map((x) => (x instanceof Node ? x : String(x))));
    status.classList.toggle('posenc-error', S.message?.kind === 'error');
  };
  select.addEventListener('input', () => {
    S.choice = select.value;
    if (select.value === 'lab') open({ kind: 'lab' });
    render();
  });
  load.addEventListener('click', () => {
    const v = select.value;
    if (v === 'lab') open({ kind: 'lab' });
    else if (v === 'hub') open({ kind: 'hub', id: idInput.value.trim() });
    else if (PRESETS.includes(v)) open({ kind: 'hub', id: v });
  });
  files.addEventListener('change', () => files.files.length && open({ kind: 'files', files: [...files.files] }));
  let typing = 0;
  sentence.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => setSentence(sentence.value), 250);
  });
  listeners.add(render);
  const stopLang = onLang(relabel);
  relabel();
  return () => {
    listeners.delete(render);
    stopLang();
    box.remove();
    panel = null;
  };
}

/**
 * Head h's mean query and the mean key of its key head over the sentence's tokens, before RoPE
 * (rotary dims only): q̄ · R(Δ) k̄ is the mean of q_m · R(Δ) k_n over every pair of tokens.
 */
export function meanQK(l0, h) {
  const { raw } = l0, a = l0.att, T = a.length, hd = a.headDim, r = a.rotaryDim;
  const g = Math.floor(h / (a.heads / a.kvHeads));
  const q = new Float64Array(r), k = new Float64Array(r);
  for (let t = 0; t < T; t++)
    for (let j = 0; j < r; j++) {
      q[j] += raw.q[(t * a.heads + h) * hd + j] / T;
      k[j] += raw.k[(t * a.kvHeads + g) * hd + j] / T;
    }
  return { q, k };
}

/** A model's name as the charts' readouts give it: the lab's model is "lab". */
export const modelName = (m) => (m.kind === 'lab' ? String(RM.labShort) : m.name);

/** The head control of the distance charts: every head averaged, or one; fitHeads shows only the model's. */
export const HEAD_OPTIONS = ['all', ...Array.from({ length: 64 }, (_, h) => String(h))];

/**
 * Offers in the head control of the chart around `el` only the heads the shown model has (a model
 * with more than 64 is clamped to head 63); a head past them moves to the last one, as drawn.
 */
export function fitHeads(el, heads) {
  const select = (el.closest('.chart') ?? el).querySelector('.controls select[name="head"]');
  if (!select) return;
  for (const o of select.options) if (o.value !== 'all') o.hidden = o.disabled = Number(o.value) >= heads;
  if (select.value !== 'all' && Number(select.value) >= heads) select.value = String(heads - 1);
}
