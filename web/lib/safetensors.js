// safetensors.js: reads tensors out of a safetensors file (Hugging Face's weight format) without
// reading the rest of it: from memory, from a File/Blob the user dropped, or over HTTP with Range
// requests (so a browser fetches 0.9 MB of a 269 MB model to get one layer's q and k).
//
// The format: bytes 0-7 hold N, an unsigned 64-bit little-endian integer; bytes 8..8+N-1 a UTF-8
// JSON object { name: { dtype, shape, data_offsets: [begin, end] }, __metadata__?: { string:
// string } }; then the data buffer, row-major, little-endian, where a tensor's bytes are
// [8 + N + begin, 8 + N + end). Tensors tile the buffer from 0 with no gap and no overlap.
// A sharded model lists its tensors in model.safetensors.index.json: { weight_map: { name: file } }.
//
// Every header is checked before any tensor is read: a hostile file gets a TypeError (wrong kind
// of value) or RangeError (bad size or offset) saying what is wrong, and nothing else happens.
import * as A from './args.js';

/** Longest header accepted (safetensors' own reader refuses more than 100 MB). */
export const MAX_HEADER_BYTES = 100_000_000;
/** Most bytes taken whole from a server that answers a Range request with the whole file. */
export const MAX_WHOLE_BYTES = 2 ** 28;
/** Most shards an index may name. */
export const MAX_SHARDS = 1000;
/** Longest index.json accepted. */
export const MAX_INDEX_BYTES = 2 ** 26;
/** Bytes asked for first over HTTP: the length and, for most models, the whole header. */
export const FIRST_READ = 2 ** 16;

// Bits per element of every dtype of the format (safetensors Dtype::bitsize); DECODERS lists
// those this reader turns into float32.
const BITS = {
  BOOL: 8, F4: 4, F6_E2M3: 6, F6_E3M2: 6, U8: 8, I8: 8, F8_E5M2: 8, F8_E4M3: 8, F8_E8M0: 8, F8_E4M3FNUZ: 8,
  F8_E5M2FNUZ: 8, I16: 16, U16: 16, F16: 16, BF16: 16, I32: 32, U32: 32, F32: 32, C64: 64, F64: 64, I64: 64, U64: 64,
};
const DECODED = ['F32', 'F16', 'BF16'];
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const ENTRY_KEYS = ['dtype', 'shape', 'data_offsets'];
const READ_KEYS = A.optionKeys('readSafetensors', ['fetch']);
const TENSOR_KEYS = A.optionKeys('tensor', ['rows']);
const LITTLE = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * Opens a safetensors file and reads its header (and, for a sharded model, every shard's).
 *
 * source: an ArrayBuffer (or a view of one), a Blob or File, a URL (string or URL object) of a
 * .safetensors file, or the URL of a sharded model's model.safetensors.index.json (its shards
 * are fetched from beside it). options.fetch: the fetch function for URLs (default
 * globalThis.fetch).
 *
 * Resolves to a SafetensorsFile: names, metadata, info(name), tensor(name, { rows }),
 * bytesRead. HTTP failures reject with an Error carrying `status` (401 or 403: gated or
 * private; 404: missing) and `url`; no network rejects with an Error whose `cause` is fetch's.
 */
export async function readSafetensors(source, options) {
  const o = A.options('options', options, READ_KEYS, 'readSafetensors');
  const fetchFn = o.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function' && (typeof source === 'string' || source instanceof URL)) {
    throw new TypeError(`options.fetch must be a function (there is no global fetch here), got ${A.show(o.fetch)}`);
  }
  const counter = { bytes: 0 };
  if (typeof source === 'string' || source instanceof URL) {
    let url;
    try {
      url = new URL(source, globalThis.location?.href);
    } catch {
      throw new TypeError(`source is not a valid URL: ${A.show(String(source))}`);
    }
    if (/\.safetensors\.index\.json$/.test(url.pathname)) return openSharded(url, fetchFn, counter);
    return new SafetensorsFile(await openBytes(await httpSource(url, fetchFn, counter)), counter);
  }
  return new SafetensorsFile(await openBytes(localSource(source, counter)), counter);
}

/** A source of bytes: { size (null when unknown), read(begin, end) → Promise<Uint8Array>, name }. */
function localSource(source, counter) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const u8 = source instanceof ArrayBuffer ? new Uint8Array(source) : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    return { name: 'the buffer', size: u8.length, read: async (b, e) => ((counter.bytes += e - b), u8.subarray(b, e)) };
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    const name = typeof source.name === 'string' ? JSON.stringify(source.name) : 'the blob';
    return {
      name, size: source.size,
      read: async (b, e) => {
        const u8 = new Uint8Array(await source.slice(b, e).arrayBuffer());
        counter.bytes += u8.length;
        return u8;
      },
    };
  }
  throw new TypeError(`source must be an ArrayBuffer, a Blob or File, or a URL, got ${A.show(source)}`);
}

function httpError(url, res) {
  const why = res.status === 401 || res.status === 403 ? 'gated or private (sign-in or access needed)'
    : res.status === 404 ? 'not found' : `HTTP ${res.status}`;
  const err = new Error(`${url.href}: ${why} (${res.status})`);
  err.status = res.status;
  err.url = url.href;
  return err;
}

async function get(fetchFn, url, headers) {
  try {
    return await fetchFn(url.href, { headers });
  } catch (cause) {
    const err = new Error(`could not reach ${url.href}: ${cause?.message ?? cause}`, { cause });
    err.url = url.href;
    throw err;
  }
}

/**
 * A URL as a source of bytes, read with Range requests. The first read learns the file's size
 * from Content-Range; a server that ignores Range (status 200) has sent the whole file, which is
 * kept (up to MAX_WHOLE_BYTES) and read from memory after that.
 */
async function httpSource(url, fetchFn, counter) {
  const src = { name: url.href, size: null, whole: null };
  src.read = async (b, e) => {
    if (src.whole) return src.whole.subarray(b, e);
    const res = await get(fetchFn, url, { Range: `bytes=${b}-${e - 1}` });
    if (res.status === 200) {
      const len = Number(res.headers.get('content-length'));
      if (len > MAX_WHOLE_BYTES) {
        await res.body?.cancel?.();
        throw new RangeError(`${url.href}: the server ignores Range requests and the file is ${len} bytes; at most ${MAX_WHOLE_BYTES} are read whole`);
      }
      const all = new Uint8Array(await res.arrayBuffer());
      counter.bytes += all.length;
      if (all.length > MAX_WHOLE_BYTES) throw new RangeError(`${url.href}: the server ignores Range requests and sent ${all.length} bytes; at most ${MAX_WHOLE_BYTES} are read whole`);
      src.whole = all;
      src.size = all.length;
      return all.subarray(b, e);
    }
    if (res.status !== 206) throw httpError(url, res);
    // Content-Range gives the file's size; a cross-origin server that does not expose it leaves
    // the body's length, which is short only at the end of the file
    const cr = res.headers.get('content-range');
    const m = cr === null ? null : /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(cr);
    if (cr !== null && (!m || Number(m[1]) !== b)) {
      await res.body?.cancel?.();
      throw new RangeError(`${url.href}: the server answered bytes=${b}-${e - 1} with Content-Range ${A.show(cr)}`);
    }
    if (m && m[3] !== '*') src.size = Number(m[3]);
    const u8 = new Uint8Array(await res.arrayBuffer());
    counter.bytes += u8.length;
    if (u8.length > e - b) throw new RangeError(`${url.href}: asked for bytes ${b}-${e - 1}, got ${u8.length} bytes`);
    if (src.size === null && u8.length < e - b) src.size = b + u8.length;
    // (a file shorter than asked ends the range early: only the first read may ask past the end)
    if (u8.length !== Math.min(e, src.size ?? e) - b) {
      throw new RangeError(`${url.href}: asked for bytes ${b}-${e - 1}, got ${u8.length} bytes`);
    }
    return u8;
  };
  return src;
}

/** Reads and checks the header of one file: { src, entries: Map, metadata, dataStart }. */
async function openBytes(src) {
  const first = await src.read(0, src.size === null ? FIRST_READ : Math.min(FIRST_READ, src.size));
  if (first.length < 8) throw new RangeError(`${src.name} is ${first.length} bytes long: too short for a safetensors file (8 bytes of header length first)`);
  const n = new DataView(first.buffer, first.byteOffset, 8).getBigUint64(0, true);
  if (n > BigInt(MAX_HEADER_BYTES)) throw new RangeError(`${src.name}: header length ${n} is past the limit of ${MAX_HEADER_BYTES} bytes`);
  const len = Number(n);
  if (src.size !== null && 8 + len > src.size) throw new RangeError(`${src.name}: header length ${len} runs past the end of the file (${src.size} bytes)`);
  let bytes = first.subarray(8, 8 + len);
  if (bytes.length < len) {
    const rest = await src.read(first.length, 8 + len);
    bytes = new Uint8Array(len);
    bytes.set(first.subarray(8));
    bytes.set(rest, first.length - 8);
  }
  const dataSize = src.size === null ? null : src.size - 8 - len;
  const parsed = parseHeader(bytes, dataSize, src.name);
  // tensors within the first read (a small file's, or the first tensors after the header) need no request
  const read = src.read;
  const reader = { ...src, read: (b, e) => (e <= first.length ? Promise.resolve(first.subarray(b, e)) : read(b, e)) };
  return { src: reader, dataStart: 8 + len, ...parsed };
}

/**
 * Parses and checks header bytes (the JSON after the 8-byte length). dataSize: bytes after the
 * header, when known. Returns { entries: Map(name → { dtype, shape, begin, end }), metadata }.
 */
export function parseHeader(bytes, dataSize = null, where = 'header') {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`bytes must be a Uint8Array, got ${A.show(bytes)}`);
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new TypeError(`${where}: the header is not valid UTF-8`);
  }
  if (text.trimStart()[0] !== '{') throw new TypeError(`${where}: the header must be a JSON object, starting with "{"`);
  let json;
  try {
    json = JSON.parse(text);
  } catch (e) {
    if (e instanceof SyntaxError) throw new TypeError(`${where}: the header is not valid JSON: ${e.message}`);
    throw new RangeError(`${where}: the header nests too deeply to parse`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new TypeError(`${where}: the header must be a JSON object`);
  const entries = new Map();
  const metadata = Object.create(null);
  for (const name of Object.keys(json)) {
    const v = json[name];
    if (FORBIDDEN.has(name)) throw new RangeError(`${where}: the name ${JSON.stringify(name)} is not allowed`);
    if (name === '__metadata__') {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${where}: __metadata__ must be an object of strings`);
      for (const k of Object.keys(v)) {
        if (FORBIDDEN.has(k)) throw new RangeError(`${where}: the __metadata__ key ${JSON.stringify(k)} is not allowed`);
        if (typeof v[k] !== 'string') throw new TypeError(`${where}: __metadata__.${k} must be a string, got ${A.show(v[k])}`);
        metadata[k] = v[k];
      }
      continue;
    }
    entries.set(name, entry(v, `${where}: tensor ${JSON.stringify(name)}`));
  }
  // the tensors must tile the data buffer: from 0, each starting where the previous ended
  const spans = [...entries].sort((a, b) => a[1].begin - b[1].begin || a[1].end - b[1].end);
  let at = 0;
  for (const [name, e] of spans) {
    if (e.begin < at) throw new RangeError(`${where}: tensor ${JSON.stringify(name)} (bytes ${e.begin}-${e.end}) overlaps the tensor before it (which ends at ${at})`);
    if (e.begin > at) throw new RangeError(`${where}: bytes ${at}-${e.begin} of the data belong to no tensor (before ${JSON.stringify(name)})`);
    at = e.end;
  }
  if (dataSize !== null && at > dataSize) throw new RangeError(`${where}: the tensors end at byte ${at} of the data, past the end of the file (${dataSize} bytes of data)`);
  if (dataSize !== null && at < dataSize) throw new RangeError(`${where}: the file has ${dataSize - at} bytes after the last tensor`);
  return { entries, metadata: Object.freeze(metadata) };
}

function entry(v, where) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${where} must be an object { dtype, shape, data_offsets }`);
  for (const k of Object.keys(v)) {
    if (!ENTRY_KEYS.includes(k)) throw new TypeError(`${where} has an unknown key ${JSON.stringify(k).slice(0, 60)}`);
  }
  const { dtype, shape, data_offsets: offs } = v;
  if (typeof dtype !== 'string' || !Object.hasOwn(BITS, dtype)) throw new TypeError(`${where}: unknown dtype ${A.show(dtype)}`);
  if (!Array.isArray(shape)) throw new TypeError(`${where}: shape must be an array of integers, got ${A.show(shape)}`);
  if (shape.length > 64) throw new RangeError(`${where}: shape has ${shape.length} dimensions; at most 64`);
  let numel = 1;
  for (const d of shape) {
    if (!Number.isSafeInteger(d) || d < 0) throw new TypeError(`${where}: shape must hold non-negative integers, got ${A.show(d)}`);
    numel *= d;
    if (numel > Number.MAX_SAFE_INTEGER) throw new RangeError(`${where}: shape [${shape}] overflows (more than 2^53 elements)`);
  }
  const bits = numel * BITS[dtype];
  if (!Number.isSafeInteger(bits)) throw new RangeError(`${where}: shape [${shape}] overflows (more than 2^53 bits)`);
  if (bits % 8) throw new RangeError(`${where}: ${numel} elements of ${dtype} do not fill whole bytes`);
  if (!Array.isArray(offs) || offs.length !== 2) throw new TypeError(`${where}: data_offsets must be [begin, end], got ${A.show(offs)}`);
  const [begin, end] = offs;
  if (!Number.isSafeInteger(begin) || !Number.isSafeInteger(end) || begin < 0 || end < begin) {
    throw new RangeError(`${where}: data_offsets [${offs}] must be integers with 0 <= begin <= end`);
  }
  if (end - begin !== bits / 8) throw new RangeError(`${where}: data_offsets span ${end - begin} bytes but shape [${shape}] of ${dtype} needs ${bits / 8}`);
  return Object.freeze({ dtype, shape: Object.freeze(shape.slice()), begin, end });
}

/** The index of a sharded model: every shard named in weight_map opened, and each tensor found in its shard. */
async function openSharded(url, fetchFn, counter) {
  const res = await get(fetchFn, url);
  if (!res.ok) throw httpError(url, res);
  const len = Number(res.headers.get('content-length'));
  if (len > MAX_INDEX_BYTES) throw new RangeError(`${url.href}: the index is ${len} bytes; at most ${MAX_INDEX_BYTES}`);
  const buf = new Uint8Array(await res.arrayBuffer());
  counter.bytes += buf.length;
  if (buf.length > MAX_INDEX_BYTES) throw new RangeError(`${url.href}: the index is ${buf.length} bytes; at most ${MAX_INDEX_BYTES}`);
  let index;
  try {
    index = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(buf));
  } catch {
    throw new TypeError(`${url.href}: the index is not valid UTF-8 JSON`);
  }
  const map = index?.weight_map;
  if (map === null || typeof map !== 'object' || Array.isArray(map)) throw new TypeError(`${url.href}: the index has no weight_map object`);
  const files = new Map();
  for (const name of Object.keys(map)) {
    if (FORBIDDEN.has(name)) throw new RangeError(`${url.href}: the name ${JSON.stringify(name)} is not allowed`);
    const file = map[name];
    if (typeof file !== 'string' || !/^[\w.-]+\.safetensors$/.test(file) || file.startsWith('.')) {
      throw new TypeError(`${url.href}: weight_map[${JSON.stringify(name)}] must be a file name beside the index ending in .safetensors, got ${A.show(file)}`);
    }
    if (!files.has(file)) {
      if (files.size >= MAX_SHARDS) throw new RangeError(`${url.href}: the index names more than ${MAX_SHARDS} shards`);
      files.set(file, true);
    }
  }
  const shards = new Map();
  await Promise.all([...files.keys()].map(async (file) => {
    shards.set(file, await openBytes(await httpSource(new URL(file, url), fetchFn, counter)));
  }));
  const entries = new Map();
  for (const name of Object.keys(map)) {
    const file = map[name], s = shards.get(file), e = s.entries.get(name);
    if (!e) throw new RangeError(`${url.href}: the index puts ${JSON.stringify(name)} in ${file}, whose header does not hold it`);
    entries.set(name, { ...e, shard: s, file });
  }
  const first = shards.get(files.keys().next().value);
  return new SafetensorsFile({ entries, metadata: first ? first.metadata : Object.freeze(Object.create(null)) }, counter, [...files.keys()]);
}

let F16 = null;
/** float16 bits → float32, for all 65536 patterns (built on first use). */
function f16Table() {
  if (F16) return F16;
  F16 = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 31, m = h & 1023;
    F16[h] = e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
  }
  return F16;
}

/** Little-endian bytes of `dtype` → Float32Array (into out at `at`). */
function decode(dtype, u8, out, at) {
  const n = u8.length / (BITS[dtype] / 8);
  // a copy gives an aligned buffer for the typed views; a big-endian host reads through DataView
  const aligned = LITTLE ? u8.slice().buffer : null;
  if (dtype === 'F32') {
    if (aligned) out.set(new Float32Array(aligned), at);
    else for (let i = 0, dv = new DataView(u8.buffer, u8.byteOffset); i < n; i++) out[at + i] = dv.getFloat32(4 * i, true);
    return;
  }
  const u16 = aligned ? new Uint16Array(aligned) : Uint16Array.from({ length: n }, (_, i) => u8[2 * i] | (u8[2 * i + 1] << 8));
  if (dtype === 'BF16') {
    const bits = new Uint32Array(out.buffer, out.byteOffset + 4 * at, n);
    for (let i = 0; i < n; i++) bits[i] = u16[i] << 16;
    return;
  }
  const t = f16Table();
  for (let i = 0; i < n; i++) out[at + i] = t[u16[i]];
}

/** An opened safetensors file (or a sharded model's files): its header, and reads of its tensors. */
class SafetensorsFile {
  #entries;
  #counter;

  constructor({ src, entries, metadata, dataStart }, counter, shards = null) {
    this.#entries = new Map([...entries].map(([k, e]) => [k, e.shard ? e : { ...e, shard: { src, dataStart } }]));
    this.#counter = counter;
    /** the tensor names, in the header's order */
    this.names = Object.freeze([...entries.keys()]);
    /** the header's __metadata__ (the first shard's, for a sharded model): string → string */
    this.metadata = metadata;
    /** the shard files of a sharded model, else null */
    this.shards = shards && Object.freeze(shards);
    Object.freeze(this);
  }

  /** Bytes read so far, headers included (over HTTP: bytes received). */
  get bytesRead() {
    return this.#counter.bytes;
  }

  #entry(name) {
    if (typeof name !== 'string') throw new TypeError(`name must be a tensor name (a string), got ${A.show(name)}`);
    const e = this.#entries.get(name);
    if (!e) throw new RangeError(`no tensor named ${JSON.stringify(name).slice(0, 120)} in this file`);
    return e;
  }

  /** { dtype, shape, byteLength, file } of one tensor (file: its shard, or null). */
  info(name) {
    const e = this.#entry(name);
    return Object.freeze({ dtype: e.dtype, shape: e.shape, byteLength: e.end - e.begin, file: e.file ?? null });
  }

  /** Whether the file holds a tensor of this name. */
  has(name) {
    return typeof name === 'string' && this.#entries.has(name);
  }

  /**
   * One tensor as a Float32Array (row-major, shape as info(name).shape), reading only its bytes.
   * options.rows: indices along the first dimension (repeats allowed, any order): only those rows
   * are read (runs of consecutive rows in one read each) and returned in that order.
   */
  async tensor(name, options) {
    const e = this.#entry(name);
    const o = A.options('options', options, TENSOR_KEYS, 'tensor');
    if (!DECODED.includes(e.dtype)) throw new TypeError(`tensor ${JSON.stringify(name)} is ${e.dtype}; this reader decodes ${DECODED.join(', ')}`);
    const esize = BITS[e.dtype] / 8;
    const numel = (e.end - e.begin) / esize;
    const { src, dataStart } = e.shard;
    const at = dataStart + e.begin;
    if (o.rows === undefined) {
      if (numel > A.MAX_ELEMENTS) throw new RangeError(`tensor ${JSON.stringify(name)} has ${numel} elements; at most ${A.MAX_ELEMENTS} are read at once (ask for rows)`);
      const out = new Float32Array(numel);
      if (numel) decode(e.dtype, await src.read(at, at + numel * esize), out, 0);
      return out;
    }
    if (e.shape.length === 0) throw new RangeError(`rows: tensor ${JSON.stringify(name)} is a scalar; it has no rows`);
    const nRows = e.shape[0], rowLen = nRows ? numel / nRows : 0;
    const rows = o.rows;
    if (!Array.isArray(rows) && !(ArrayBuffer.isView(rows) && !(rows instanceof DataView))) throw new TypeError(`rows must be an array of integers, got ${A.show(rows)}`);
    A.elements('rows', rows.length, rowLen);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      if (typeof r !== 'number' || !Number.isInteger(r)) throw new TypeError(`rows[${i}] must be an integer, got ${A.show(r)}`);
      if (r < 0 || r >= nRows) throw new RangeError(`rows[${i}] must be in [0, ${nRows - 1}] (tensor ${JSON.stringify(name)} has ${nRows} rows), got ${r}`);
    }
    const out = new Float32Array(rows.length * rowLen);
    // distinct rows in order, grouped into runs of consecutive rows: one read per run
    const sorted = [...new Set(rows)].sort((a, b) => a - b);
    const runs = [];
    for (const r of sorted) {
      const last = runs.at(-1);
      if (last && last[1] === r) last[1] = r + 1;
      else runs.push([r, r + 1]);
    }
    const rowBytes = rowLen * esize;
    const got = new Map();
    await Promise.all(runs.map(async ([r0, r1]) => {
      const buf = new Float32Array((r1 - r0) * rowLen);
      if (rowBytes) decode(e.dtype, await src.read(at + r0 * rowBytes, at + r1 * rowBytes), buf, 0);
      for (let r = r0; r < r1; r++) got.set(r, buf.subarray((r - r0) * rowLen, (r - r0 + 1) * rowLen));
    }));
    rows.forEach((r, i) => out.set(got.get(r), i * rowLen));
    return out;
  }
}
