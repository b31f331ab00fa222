// gguf.js: readGguf() reads the front of a GGUF file (the format of llama.cpp, ollama and LM Studio):
// its metadata, its tensor infos, and the data of the tensors RoPE reads (rope_freqs,
// rope_factors_long, rope_factors_short). A multi-GB file is never read whole: the front comes in
// chunks (Blob slices or HTTP Range requests), and nothing past `maxBytes` is ever read.
//
// Layout (ggml docs/gguf.md, src/gguf.cpp): magic "GGUF", version u32, tensor count and KV count
// (u64), the KV pairs (key string, value type u32, value), the tensor infos (name, n_dims u32,
// n_dims × u64 dims, type u32, offset u64), padding to general.alignment (default 32), the data.
// A string is a u64 byte length and UTF-8 bytes. v3 files may be big-endian; nothing but the
// version says so (a byte-swapped version reads with its low 16 bits zero).

/** Default most bytes readGguf reads from one file (64 MiB: the largest tokenizers take ~15). */
export const GGUF_MAX_BYTES = 64 * 2 ** 20;
const FIRST_CHUNK = 256 * 1024;
const MAX_KEY_BYTES = 65535; // gguf.cpp refuses longer keys
const MAX_DIMS = 4; // GGML_MAX_DIMS
const MAX_KEPT = 65536; // arrays longer than this are summarised, as tokenizer arrays always are
export const ROPE_TENSORS = ['rope_freqs.weight', 'rope_factors_long.weight', 'rope_factors_short.weight'];

/** An error in the file or in reaching it: code 'malformed', 'unsupported', 'too-large', 'not-found', 'gated', 'http', 'network'. */
export class GgufError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.name = 'GgufError';
    this.code = code;
  }
}

// value types (gguf_type) → [name, bytes, DataView getter]
const TYPES = [
  ['u8', 1, 'getUint8'], ['i8', 1, 'getInt8'], ['u16', 2, 'getUint16'], ['i16', 2, 'getInt16'],
  ['u32', 4, 'getUint32'], ['i32', 4, 'getInt32'], ['f32', 4, 'getFloat32'], ['bool', 1, 'getUint8'],
  ['string', 0, null], ['array', 0, null], ['u64', 8, 'getBigUint64'], ['i64', 8, 'getBigInt64'], ['f64', 8, 'getFloat64'],
];
// ggml_type numbers of the tensor types a RoPE tensor may be stored as (only F32 is read)
const F32 = 0;

/** Raised by the parser when the bytes read so far end inside a value: read more and retry. */
class Short {
  constructor(need) {
    this.need = need;
  }
}

/**
 * Reads a GGUF file's metadata, tensor infos and RoPE tensors.
 * source: an ArrayBuffer, a typed array, a Blob/File, or a URL (string or URL object, read with
 * HTTP Range requests through options.fetch, default globalThis.fetch); not a file path (a TypeError
 * says to pass the file's bytes or a Blob over it).
 * options.maxBytes: the most bytes to read (default GGUF_MAX_BYTES); options.onProgress(read, total).
 * Resolves to { version, littleEndian, metadata, tensors, dataOffset, ropeTensors, bytesRead }.
 */
export async function readGguf(source, options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${String(options)}`);
  for (const k of Object.keys(options)) {
    if (!['fetch', 'maxBytes', 'onProgress'].includes(k)) throw new TypeError(`readGguf's options has no key ${JSON.stringify(k)} (expected "fetch", "maxBytes", "onProgress")`);
  }
  const maxBytes = options.maxBytes ?? GGUF_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 32) throw new RangeError(`maxBytes must be an integer >= 32, got ${maxBytes}`);
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') throw new TypeError('onProgress must be a function');
  const src = openSource(source, options.fetch);
  const file = new Reader(src, maxBytes, options.onProgress);
  const header = await file.parse(0, readHeader);
  let at = header.end;
  const metadata = {};
  for (let i = 0; i < header.kvCount; i++) {
    const kv = await file.parse(at, (v, p) => readKv(v, p, header));
    if (Object.hasOwn(metadata, kv.key)) throw new GgufError('malformed', `metadata key ${JSON.stringify(kv.key)} appears twice (ggml refuses such files)`);
    Object.defineProperty(metadata, kv.key, { value: kv.value, enumerable: true });
    at = kv.end;
  }
  const alignment = metadata['general.alignment'] ?? 32;
  if (!Number.isInteger(alignment) || alignment < 1 || (alignment & (alignment - 1)) !== 0 || alignment > 2 ** 30) {
    throw new GgufError('malformed', `general.alignment must be a power of two, got ${String(alignment)}`);
  }
  const tensors = [];
  const names = new Set();
  for (let i = 0; i < header.tensorCount; i++) {
    const t = await file.parse(at, (v, p) => readTensorInfo(v, p, header.le));
    if (names.has(t.name)) throw new GgufError('malformed', `tensor ${JSON.stringify(t.name)} appears twice`);
    if (t.offset % alignment !== 0) throw new GgufError('malformed', `tensor ${JSON.stringify(t.name)} has offset ${t.offset}, not a multiple of the alignment ${alignment}`);
    names.add(t.name);
    tensors.push(Object.freeze({ name: t.name, shape: Object.freeze(t.shape), type: t.type, offset: t.offset }));
    at = t.end;
  }
  const dataOffset = header.tensorCount > 0 ? Math.ceil(at / alignment) * alignment : at;
  const ropeTensors = {};
  for (const name of ROPE_TENSORS) {
    const t = tensors.find((x) => x.name === name);
    if (!t) continue;
    if (t.type !== F32 || t.shape.length !== 1 || t.shape[0] < 1 || t.shape[0] > 65536) {
      throw new GgufError('unsupported', `${name} must be a 1-D F32 tensor of at most 65536 values (as the converter writes it), got type ${t.type} shape [${t.shape.join(', ')}]`);
    }
    const bytes = await file.bytes(dataOffset + t.offset, 4 * t.shape[0], name);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const values = new Float32Array(t.shape[0]);
    for (let i = 0; i < values.length; i++) values[i] = view.getFloat32(4 * i, header.le);
    ropeTensors[name.replace(/\.weight$/, '')] = values;
  }
  return Object.freeze({
    version: header.version,
    littleEndian: header.le,
    metadata: Object.freeze(metadata),
    tensors: Object.freeze(tensors),
    dataOffset,
    ropeTensors: Object.freeze(ropeTensors),
    bytesRead: file.bytesRead,
  });
}

function readHeader(v, p) {
  need(v, p, 8);
  if (v.getUint32(p) !== 0x47475546) {
    throw new GgufError('malformed', `not a GGUF file: it starts with ${JSON.stringify(String.fromCharCode(...new Uint8Array(v.buffer, v.byteOffset, 4)))}, not "GGUF"`);
  }
  let version = v.getUint32(p + 4, true), le = true;
  if ((version & 0xffff) === 0) {
    version = v.getUint32(p + 4, false);
    le = false;
  }
  if (version === 1) throw new GgufError('unsupported', 'GGUF version 1 (before October 2023) is not read: llama.cpp refuses it too; convert the model again');
  if (version !== 2 && version !== 3) throw new GgufError('unsupported', `GGUF version ${version} is not known (2 and 3 are)`);
  if (!le && version !== 3) throw new GgufError('malformed', 'a big-endian GGUF must be version 3');
  need(v, p, 24);
  const tensorCount = u64(v, p + 8, le, 'tensor count');
  const kvCount = u64(v, p + 16, le, 'metadata count');
  return { version, le, tensorCount, kvCount, end: p + 24 };
}

function readKv(v, p, h) {
  const key = string(v, p, h.le, 'a metadata key', MAX_KEY_BYTES);
  if (key.value === '') throw new GgufError('malformed', `metadata key at byte ${p} is empty`);
  let q = key.end;
  need(v, q, 4);
  const type = v.getUint32(q, h.le);
  q += 4;
  if (type === 9) {
    need(v, q, 12);
    const itemType = v.getUint32(q, h.le);
    const count = u64(v, q + 4, h.le, `the length of ${key.value}`);
    q += 12;
    if (itemType === 9) throw new GgufError('unsupported', `${key.value} is an array of arrays, which ggml refuses`);
    if (!(itemType in TYPES)) throw new GgufError('malformed', `${key.value} is an array of unknown type ${itemType}`);
    const [name, size] = TYPES[itemType];
    const keep = !key.value.startsWith('tokenizer.') && count <= MAX_KEPT;
    const items = keep ? [] : null;
    if (name === 'string') {
      for (let i = 0; i < count; i++) {
        const s = string(v, q, h.le, `${key.value}[${i}]`, Infinity, !keep);
        if (keep) items.push(s.value);
        q = s.end;
      }
    } else {
      need(v, q, count * size);
      if (keep) for (let i = 0; i < count; i++) items.push(scalarValue(v, q + i * size, itemType, h.le, `${key.value}[${i}]`));
      q += count * size;
    }
    const value = keep ? Object.freeze(items) : Object.freeze({ itemType: name, count });
    return { key: key.value, value, end: q };
  }
  if (!(type in TYPES)) throw new GgufError('malformed', `${key.value} has unknown value type ${type}`);
  if (type === 8) {
    const s = string(v, q, h.le, key.value);
    return { key: key.value, value: s.value, end: s.end };
  }
  const size = TYPES[type][1];
  need(v, q, size);
  return { key: key.value, value: scalarValue(v, q, type, h.le, key.value), end: q + size };
}

function readTensorInfo(v, p, le) {
  const name = string(v, p, le, 'a tensor name', 63);
  let q = name.end;
  need(v, q, 4);
  const nDims = v.getUint32(q, le);
  q += 4;
  if (nDims < 1 || nDims > MAX_DIMS) throw new GgufError('malformed', `tensor ${JSON.stringify(name.value)} has ${nDims} dimensions (1 to ${MAX_DIMS})`);
  need(v, q, 8 * nDims + 12);
  const shape = [];
  for (let d = 0; d < nDims; d++) shape.push(u64(v, q + 8 * d, le, `dimension ${d} of ${name.value}`));
  q += 8 * nDims;
  const type = v.getUint32(q, le);
  const offset = u64(v, q + 4, le, `the offset of ${name.value}`);
  return { name: name.value, shape, type, offset, end: q + 12 };
}

function need(v, p, n) {
  if (p + n > v.byteLength) throw new Short(p + n);
}

/** A u64 as a Number; past 2^53 no count or offset of a real file goes, so it is an error. */
function u64(v, p, le, what) {
  const n = v.getBigUint64(p, le);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new GgufError('malformed', `${what} is ${n}, past any real file`);
  return Number(n);
}

/**
 * A metadata value `name` as a key holds it: 64-bit integers as numbers where they are safe, a bool
 * (type 7) holding 0 or 1 as a boolean, alone or in an array.
 */
function scalarValue(v, p, type, le, name) {
  const x = v[TYPES[type][2]](p, le);
  if (typeof x === 'bigint') return x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x;
  if (type !== 7) return x;
  if (x !== 0 && x !== 1) throw new GgufError('malformed', `${name} is a bool holding ${x}`);
  return x === 1;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function string(v, p, le, what, maxLen = Infinity, skip = false) {
  need(v, p, 8);
  const n = u64(v, p, le, `the length of ${what}`);
  if (n > maxLen) throw new GgufError('malformed', `${what} is ${n} bytes long; at most ${maxLen} are allowed`);
  need(v, p + 8, n);
  if (skip) return { value: null, end: p + 8 + n };
  let value;
  try {
    value = UTF8.decode(new Uint8Array(v.buffer, v.byteOffset + p + 8, n));
  } catch {
    throw new GgufError('malformed', `${what} is not valid UTF-8`);
  }
  return { value, end: p + 8 + n };
}

/**
 * The bytes of the file read so far (always a prefix [0, length)) and how to get more: parse(at,
 * fn) runs fn on a view from `at`, and when fn runs past the end reads more (at least double) and
 * runs it again, up to maxBytes in all.
 */
class Reader {
  constructor(src, maxBytes, onProgress) {
    this.src = src;
    this.maxBytes = maxBytes;
    this.onProgress = onProgress;
    this.buf = new Uint8Array(0);
    this.bytesRead = 0;
  }

  async parse(at, fn) {
    for (;;) {
      const v = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
      try {
        return fn(v, at);
      } catch (e) {
        if (!(e instanceof Short)) throw e;
        await this.grow(e.need);
      }
    }
  }

  async grow(need) {
    if (this.src.size !== undefined && need > this.src.size) {
      throw new GgufError('malformed', `the file ends at byte ${this.src.size} inside its metadata (a value needs bytes up to ${need})`);
    }
    if (need > this.maxBytes) {
      throw new GgufError('too-large', `the metadata runs past ${this.maxBytes} bytes (maxBytes); a value needs bytes up to ${need}`);
    }
    let end = Math.min(this.maxBytes, Math.max(need, 2 * this.buf.length, FIRST_CHUNK));
    if (this.src.size !== undefined) end = Math.min(end, this.src.size);
    const more = await this.src.read(this.buf.length, end);
    this.count(more.length);
    if (more.length === 0) throw new GgufError('malformed', `the file ends at byte ${this.buf.length} inside its metadata`);
    const next = new Uint8Array(this.buf.length + more.length);
    next.set(this.buf);
    next.set(more, this.buf.length);
    this.buf = next;
  }

  /** n bytes at `at` (a tensor's data), read on their own: they may lie gigabytes further on. */
  async bytes(at, n, what) {
    if (this.src.size !== undefined && at + n > this.src.size) {
      throw new GgufError('malformed', `the data of ${what} (bytes ${at} to ${at + n}) lies past the end of the file (${this.src.size} bytes)`);
    }
    if (at + n <= this.buf.length) return this.buf.subarray(at, at + n);
    if (this.bytesRead + n > this.maxBytes) throw new GgufError('too-large', `reading ${what} would pass maxBytes (${this.maxBytes})`);
    const b = await this.src.read(at, at + n);
    this.count(b.length);
    if (b.length !== n) throw new GgufError('malformed', `the data of ${what} (bytes ${at} to ${at + n}) lies past the end of the file`);
    return b;
  }

  count(n) {
    this.bytesRead += n;
    this.onProgress?.(this.bytesRead, this.src.size);
  }
}

/** { read(start, end) → Promise<Uint8Array> of bytes [start, end) or fewer at the end, size } */
function openSource(source, fetchFn) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const all = source instanceof ArrayBuffer ? new Uint8Array(source) : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    return { size: all.length, read: async (a, b) => all.slice(a, Math.min(b, all.length)) };
  }
  if (typeof Blob === 'function' && source instanceof Blob) {
    return { size: source.size, read: async (a, b) => new Uint8Array(await source.slice(a, b).arrayBuffer()) };
  }
  if (typeof source === 'string' || source instanceof URL) return httpSource(urlOf(source), fetchFn ?? globalThis.fetch);
  throw new TypeError(`source must be an ArrayBuffer, a typed array, a Blob or File, or a URL, got ${source === null ? 'null' : typeof source}`);
}

/**
 * A string source as a URL (relative ones against the page). A file path is refused: fetch cannot
 * read one in Node, and a browser has no paths, so the bytes are asked for, in every runtime alike.
 */
function urlOf(source) {
  let url = null;
  try {
    url = new URL(String(source), globalThis.location?.href);
  } catch { /* not a URL: said below */ }
  // (a Windows path's drive letter, like hub: or localhost:, parses as a scheme of its own)
  if (url === null || !/^https?:$/.test(url.protocol)) {
    throw new TypeError(`source ${JSON.stringify(String(source))} is not an http(s) URL; to read a local file, pass its bytes or a Blob over it (in Node: fs.readFileSync(path), or await fs.openAsBlob(path), which reads only the front)`);
  }
  return url.href;
}

function httpSource(url, fetchFn) {
  if (typeof fetchFn !== 'function') throw new TypeError('reading a URL needs a fetch function (options.fetch)');
  const src = {
    size: undefined,
    async read(a, b) {
      let res;
      try {
        res = await fetchFn(url, { headers: { Range: `bytes=${a}-${b - 1}` } });
      } catch (e) {
        throw new GgufError('network', `cannot reach ${url}: ${e.message}`, { cause: e });
      }
      if (res.status === 401 || res.status === 403) {
        throw new GgufError('gated', `${url} answered ${res.status}: the model is gated or private (accept its licence on the Hub and use an access token)`);
      }
      if (res.status === 404) throw new GgufError('not-found', `${url} answered 404: no such file`);
      if (res.status === 416) return new Uint8Array(0);
      if (res.status !== 206 && res.status !== 200) throw new GgufError('http', `${url} answered HTTP ${res.status}`);
      const range = /\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '');
      if (range) src.size = Number(range[1]);
      if (res.status === 200) {
        // the server ignores Range: take what is asked from the start of the body, then stop reading
        return takeFromStream(res, a, b, url);
      }
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (bytes.length > b - a) throw new GgufError('http', `${url} sent ${bytes.length} bytes for a range of ${b - a}`);
      return bytes;
    },
  };
  return src;
}

async function takeFromStream(res, a, b, url) {
  const len = Number(res.headers.get('content-length'));
  if (Number.isFinite(len) && len > 0) return res.body ? streamSlice(res.body, a, b) : new Uint8Array(await res.arrayBuffer()).slice(a, b);
  if (!res.body) throw new GgufError('http', `${url} ignores Range requests and sends no length`);
  return streamSlice(res.body, a, b);
}

async function streamSlice(body, a, b) {
  const reader = body.getReader();
  const out = new Uint8Array(b - a);
  let pos = 0, got = 0;
  try {
    while (pos < b) {
      const { done, value } = await reader.read();
      if (done) break;
      const from = Math.max(a - pos, 0), to = Math.min(value.length, b - pos);
      if (to > from) {
        out.set(value.subarray(from, to), got);
        got += to - from;
      }
      pos += value.length;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return out.subarray(0, got);
}
