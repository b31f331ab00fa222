// safetensors-write.js: tensors → the bytes of a safetensors file, laid out as safetensors' own
// writer lays them out (web/lib/safetensors.js describes the format and reads it back).
import * as A from './args.js';

const DTYPES = ['F32', 'F16', 'BF16'];
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype', '__metadata__']);

/**
 * Writes tensors as a safetensors file: tensors { name: { dtype: 'F32' | 'BF16' | 'F16', shape,
 * data (numbers, row-major) } }, optional metadata { string: string }. Tensors are laid out in
 * name order and the header padded with spaces to a multiple of 8 bytes, as safetensors' own
 * writer does. BF16 and F16 round to nearest even. Returns a Uint8Array.
 */
export function writeSafetensors(tensors, metadata) {
  if (tensors === null || typeof tensors !== 'object') throw new TypeError(`tensors must be an object { name: { dtype, shape, data } }, got ${A.show(tensors)}`);
  const header = {};
  if (metadata !== undefined) {
    if (metadata === null || typeof metadata !== 'object') throw new TypeError(`metadata must be an object of strings, got ${A.show(metadata)}`);
    for (const [k, v] of Object.entries(metadata)) if (typeof v !== 'string') throw new TypeError(`metadata.${k} must be a string, got ${A.show(v)}`);
    header.__metadata__ = { ...metadata };
  }
  const names = Object.keys(tensors).sort();
  let at = 0;
  const parts = [];
  for (const name of names) {
    if (FORBIDDEN.has(name)) throw new RangeError(`the tensor name ${JSON.stringify(name)} is not allowed`);
    const { dtype, shape, data } = tensors[name];
    if (!DTYPES.includes(dtype)) throw new RangeError(`tensors[${JSON.stringify(name)}].dtype must be one of ${DTYPES.join(', ')}, got ${A.show(dtype)}`);
    if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
      throw new TypeError(`tensors[${JSON.stringify(name)}].shape must be an array of non-negative integers, got ${A.show(shape)}`);
    }
    if (!Array.isArray(data) && !ArrayBuffer.isView(data)) throw new TypeError(`tensors[${JSON.stringify(name)}].data must be an array of numbers, got ${A.show(data)}`);
    const numel = shape.reduce((p, d) => p * d, 1);
    if (data.length !== numel) throw new RangeError(`tensors[${JSON.stringify(name)}].data has ${data.length} values; shape [${shape}] needs ${numel}`);
    const bytes = encode(dtype, data);
    header[name] = { dtype, shape: [...shape], data_offsets: [at, at + bytes.length] };
    parts.push(bytes);
    at += bytes.length;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((new TextEncoder().encode(json).length) % 8)) % 8);
  const hb = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + hb.length + at);
  new DataView(out.buffer).setBigUint64(0, BigInt(hb.length), true);
  out.set(hb, 8);
  let p = 8 + hb.length;
  for (const b of parts) out.set(b, p), (p += b.length);
  return out;
}

function encode(dtype, data) {
  const f = Float32Array.from(data);
  const bits = new Uint32Array(f.buffer);
  const out = new Uint8Array(f.length * (dtype === 'F32' ? 4 : 2));
  const dv = new DataView(out.buffer);
  for (let i = 0; i < f.length; i++) {
    if (dtype === 'F32') dv.setFloat32(4 * i, f[i], true);
    else if (dtype === 'BF16') {
      const b = bits[i];
      // round to nearest even on the dropped 16 bits (NaN stays NaN)
      const r = (b & 0x7fffffff) > 0x7f800000 ? (b >>> 16) | 0x40 : (b + 0x7fff + ((b >>> 16) & 1)) >>> 16;
      dv.setUint16(2 * i, r, true);
    } else dv.setUint16(2 * i, toF16(f[i]), true);
  }
  return out;
}

/** float → float16 bits, round to nearest even. */
function toF16(x) {
  if (Number.isNaN(x)) return 0x7e00;
  const s = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a >= 65520) return s | 0x7c00;
  if (a < 2 ** -14) return s | roundEven(a * 2 ** 24); // subnormal (may round up to the smallest normal)
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--; else if (2 ** (e + 1) <= a) e++;
  const m = roundEven((a / 2 ** e - 1) * 1024);
  return s | (((e + 15) << 10) + m); // a mantissa that rounds to 1024 carries into the exponent
}

function roundEven(v) {
  const f = Math.floor(v), d = v - f;
  return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
}
