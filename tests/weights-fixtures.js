// weights-fixtures.js: tiny real-layout models for the safetensors and layer-attention tests,
// written here byte by byte (not by posenc's writer), and a local HTTP server with Range support
// that counts the bytes it serves. Nothing here calls posenc.
import { createServer } from 'node:http';

/** A seeded generator: mulberry32, uniform in [0, 1). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n values uniform in [-scale, scale), as float32. */
export function values(rand, n, scale = 1) {
  return Float32Array.from({ length: n }, () => (2 * rand() - 1) * scale);
}

/**
 * The floats a BF16 file holds for the values of `a`: the top 16 bits of each float32 (truncation:
 * the test's own rule), as a new Float32Array. A whole array at a time: a real model's layer
 * holds millions of values.
 */
export function bf16(a) {
  const bits = new Uint32Array(Float32Array.from(a).buffer);
  for (let i = 0; i < bits.length; i++) bits[i] &= 0xffff0000;
  return new Float32Array(bits.buffer);
}

/**
 * A safetensors file from [{ name, dtype: 'F32' | 'BF16', shape, data }], laid out in the order
 * given (not sorted), header padded with `pad` spaces. Returns { bytes, offsets: { name: [begin,
 * end] }, dataStart }.
 */
export function buildSafetensors(tensors, { metadata, pad = 0 } = {}) {
  const header = {};
  if (metadata) header.__metadata__ = metadata;
  let at = 0;
  const chunks = [];
  const offsets = {};
  for (const { name, dtype, shape, data } of tensors) {
    const size = dtype === 'F32' ? 4 : 2;
    const b = new Uint8Array(data.length * size);
    const dv = new DataView(b.buffer);
    if (dtype === 'F32') data.forEach((x, i) => dv.setFloat32(4 * i, x, true));
    else new Uint32Array(Float32Array.from(data).buffer).forEach((bits, i) => dv.setUint16(2 * i, bits >>> 16, true));
    header[name] = { dtype, shape, data_offsets: [at, at + b.length] };
    offsets[name] = [at, at + b.length];
    chunks.push(b);
    at += b.length;
  }
  const json = new TextEncoder().encode(JSON.stringify(header) + ' '.repeat(pad));
  return { bytes: concat(rawHeader(json), ...chunks), offsets, dataStart: 8 + json.length };
}

/** 8-byte little-endian length + the header bytes. */
export function rawHeader(json, length = json.length) {
  const out = new Uint8Array(8 + json.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(length), true);
  out.set(json, 8);
  return out;
}

export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let p = 0;
  for (const b of parts) out.set(b, p), (p += b.length);
  return out;
}

/**
 * Layer 0 of a small model of each supported layout: config.json, the tensors (HF names) and
 * the float values a file of `dtype` holds (BF16 rounds them). kind: 'llama' (SmolLM2-like),
 * 'qwen2' (q/k biases), 'qwen3' (per-head q_norm/k_norm). GQA everywhere (heads / kvHeads = 2 or 3).
 * dims: config keys that replace the small defaults (a real model's sizes).
 */
export function layerModel(kind, { dtype = 'F32', seed = 1, vocab = 40, dims = {} } = {}) {
  const rand = rng(seed);
  const cfg = {
    llama: { model_type: 'llama', hidden_size: 48, num_attention_heads: 6, num_key_value_heads: 2, head_dim: 8, rope_theta: 100000, rms_norm_eps: 1e-5, max_position_embeddings: 64 },
    qwen2: { model_type: 'qwen2', hidden_size: 32, num_attention_heads: 4, num_key_value_heads: 2, rope_theta: 1000000, rms_norm_eps: 1e-6, max_position_embeddings: 128 },
    qwen3: { model_type: 'qwen3', hidden_size: 32, num_attention_heads: 4, num_key_value_heads: 2, head_dim: 16, rope_theta: 1000000, rms_norm_eps: 1e-6, max_position_embeddings: 40960, attention_bias: false },
  }[kind];
  const config = { architectures: ['X'], num_hidden_layers: 2, vocab_size: vocab, torch_dtype: 'bfloat16', ...cfg, ...dims };
  const H = config.hidden_size, hd = config.head_dim ?? H / config.num_attention_heads;
  const nq = config.num_attention_heads * hd, nk = config.num_key_value_heads * hd;
  const round = (a) => (dtype === 'BF16' ? bf16(a) : a);
  const p = 'model.layers.0.';
  const t = [
    ['model.embed_tokens.weight', [vocab, H], values(rand, vocab * H)],
    [`${p}input_layernorm.weight`, [H], Float32Array.from({ length: H }, () => 0.5 + rand())],
    [`${p}self_attn.q_proj.weight`, [nq, H], values(rand, nq * H, 0.4)],
    [`${p}self_attn.k_proj.weight`, [nk, H], values(rand, nk * H, 0.4)],
  ];
  if (kind === 'qwen2') t.push([`${p}self_attn.q_proj.bias`, [nq], values(rand, nq, 0.5)], [`${p}self_attn.k_proj.bias`, [nk], values(rand, nk, 0.5)]);
  if (kind === 'qwen3') t.push([`${p}self_attn.q_norm.weight`, [hd], Float32Array.from({ length: hd }, () => 0.5 + rand())], [`${p}self_attn.k_norm.weight`, [hd], Float32Array.from({ length: hd }, () => 0.5 + rand())]);
  t.push([`${p}self_attn.v_proj.weight`, [nk, H], values(rand, nk * H, 0.4)]);
  const tensors = t.map(([name, shape, data]) => ({ name, dtype, shape, data: round(data) }));
  return { config, tensors, byName: Object.fromEntries(tensors.map((x) => [x.name, x])) };
}

/**
 * A local HTTP server: files { path: Uint8Array } served with Range support (one range per
 * request); `gated` paths answer 401, unknown ones 404, `noRange` paths ignore Range. log: every
 * request { path, range, status, bytes }. Resolves to { url(path), log, bytes(), close() }.
 */
export async function serveFiles(files, { gated = [], noRange = [] } = {}) {
  const log = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const range = req.headers.range ?? null;
    const send = (status, headers, body) => {
      log.push({ path, range, status, bytes: body.length });
      res.writeHead(status, { 'content-length': body.length, 'accept-ranges': 'bytes', ...headers });
      res.end(body);
    };
    if (gated.includes(path)) return send(401, {}, Buffer.from('Access to model is restricted'));
    const file = files[path];
    if (!file) return send(404, {}, Buffer.from('Entry not found'));
    const m = /^bytes=(\d+)-(\d*)$/.exec(range ?? '');
    if (!m || noRange.includes(path)) return send(200, {}, Buffer.from(file));
    const a = Number(m[1]), b = Math.min(m[2] === '' ? file.length - 1 : Number(m[2]), file.length - 1);
    if (a >= file.length || b < a) return send(416, { 'content-range': `bytes */${file.length}` }, Buffer.alloc(0));
    send(206, { 'content-range': `bytes ${a}-${b}/${file.length}` }, Buffer.from(file.subarray(a, b + 1)));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    url: (path) => base + path,
    log,
    bytes: () => log.reduce((s, e) => s + e.bytes, 0),
    close: () => new Promise((r) => server.close(r)),
  };
}
