// posenc.d.ts: hand-written types for web/lib/posenc.js, the JS API over posenc's C kernels
// (package entry "posenc"). Every method checks its arguments and throws a TypeError (wrong
// kind of value) or RangeError (right kind, bad value) naming the parameter; an options key it
// does not know is a TypeError naming it (the types below list every key). Conventions
// (layouts, pair styles, positions) are described in README.md.

/** Anything posenc reads as a list of numbers: an array or a typed array (not a DataView). */
export type Numbers = readonly number[] | Float32Array | Float64Array | Int32Array | Uint32Array | Int16Array |
  Uint16Array | Int8Array | Uint8Array | Uint8ClampedArray;

/** Largest element count of any one array a call may create or accept (2^26). */
export declare const MAX_ELEMENTS: number;
/** Most bytes of wasm heap one call may use (its inputs, outputs and work buffers together). */
export declare const MAX_CALL_BYTES: number;
/** Most bytes the wasm heap may hold live at once (tensors included). */
export declare const MAX_HEAP_BYTES: number;

/** Whether this engine validates WebAssembly SIMD (then loadPosenc() picks the SIMD build). */
export declare function simdSupported(): boolean;

export interface LoadOptions {
  /** 'auto' (default): SIMD where the engine has it; true: SIMD or throw; false: the scalar build. */
  simd?: 'auto' | boolean;
  /** The .wasm as bytes, a compiled module or an absolute URL (a relative string is an invalid URL), for hosts that serve it elsewhere. */
  source?: BufferSource | WebAssembly.Module | URL | string;
  /** lower the per-call memory limit (default and maximum MAX_CALL_BYTES) */
  maxCallBytes?: number;
  /** lower the live-heap limit (default and maximum MAX_HEAP_BYTES) */
  maxHeapBytes?: number;
}

/** Loads the kernels; resolves to an instance whose methods are synchronous. */
export declare function loadPosenc(options?: LoadOptions): Promise<Posenc>;

/** Sinusoidal layouts: sin at 2i and cos at 2i+1; all sines then all cosines; tensor2tensor's [sin | cos] with base^(-i/(d/2-1)). */
export type Layout = 'interleaved' | 'concat' | 'tensor2tensor';
/** RoPE pairings: (2i, 2i+1) as in RoFormer and Meta's LLaMA; (i, i + d/2) as Hugging Face's rotate_half. */
export type RopeStyle = 'interleaved' | 'half';
export type Precision = 'f64' | 'f32' | 'bf16' | 'f16';

/** A RoPE scaling variant (Hugging Face transformers' definitions; see README "Long context"). */
export type Scaling =
  | { type: 'linear'; factor: number; attentionFactor?: number }
  | { type: 'ntk'; factor: number; attentionFactor?: number }
  /**
   * seqLen (dynamic and longrope): the length of the sequence being rotated, which transformers
   * takes from the sequence itself. Left out, dynamic uses max (θ_i unscaled) and longrope 0
   * (shortFactor): pass it for positions past the training length.
   */
  | { type: 'dynamic'; factor: number; maxPositionEmbeddings: number; seqLen?: number; attentionFactor?: number }
  | {
    type: 'yarn'; factor: number; originalMaxPositionEmbeddings: number; betaFast?: number; betaSlow?: number;
    mscale?: number; mscaleAllDim?: number; truncate?: boolean; attentionFactor?: number;
  }
  | {
    type: 'llama3'; factor?: number; lowFreqFactor?: number; highFreqFactor?: number;
    originalMaxPositionEmbeddings?: number; attentionFactor?: number;
  }
  | {
    type: 'longrope'; shortFactor: Numbers; longFactor: Numbers; originalMaxPositionEmbeddings: number;
    maxPositionEmbeddings?: number; seqLen?: number; factor?: number; attentionFactor?: number;
  }
  /**
   * Gemma 4's p-RoPE over the whole head (rotaryDim = head dim D): pairs i < floor(p·D/2) turn with
   * base^(-2i/D), the rest have θ = 0; all θ divided by factor (default 1). Attention factor 1.
   */
  | { type: 'proportional'; partialRotaryFactor: number; factor?: number };

/**
 * mRoPE: sections [t, h, w] of the rotaryDim/2 pairs (three, sum = rotaryDim/2; ropeConfig's
 * layer.mrope passes as is); interleaved: Qwen3-VL's layout (default false: Qwen2-VL's chunks).
 */
export interface MropeOptions {
  section: readonly number[];
  interleaved?: boolean;
}

/** mRoPE positions: one array per stream, all of one length (text tokens: t = h = w). */
export interface MropePositions {
  t: Numbers;
  h: Numbers;
  w: Numbers;
}

/** Llama 4's NoPE-layer query temperature: 1 + scale·ln(⌊(p + offset)/floorScale⌋ + 1). */
export interface TemperatureOptions extends Out<Float64Array> {
  /** default 0.1 (attn_scale; Ministral 3: llama_4_scaling_beta) */
  scale?: number;
  /** default 8192 (floor_scale; Ministral 3: original_max_position_embeddings), >= 1 */
  floorScale?: number;
  /** default 1 (Llama 4 adds 1 to the position; Ministral 3: 0) */
  offset?: number;
}

/** One row of conformance vectors (ropeVectors): values per rotated pair, float64 and rounded to float32. */
export interface VectorRow {
  position: number;
  cos: number[]; sin: number[]; cos32: number[]; sin32: number[];
  /** dynamic and longrope: the sequence length the row is computed at (p + 1, or the seqLen option), and its θ_i */
  seqLen?: number; invFreq?: number[];
  /** layers with a query temperature: its value at this position */
  temperature?: number;
}

/** Conformance vectors of one layer type (ropeVectors): what ropeConfig reads of it, then its vectors. */
export type LayerVectors = (Omit<RopeLayerPositions, 'mrope'> | Omit<NopeLayerPositions, 'mrope'>) & {
  mrope: { section: number[]; interleaved: boolean; streams: ('t' | 'h' | 'w')[] } | null;
  invFreq: number[]; invFreq32: number[];
  positions: VectorRow[];
  pair: {
    qPosition: number; kPosition: number; q: number[]; k: number[];
    qRotated: number[]; kRotated: number[]; qRotated32: number[]; kRotated32: number[];
    score: number; score32: number;
  };
};

/** pe.ropeVectors's result: plain JSON-serialisable data, format 'posenc-rope-vectors/1' (web/lib/vectors.js). */
export interface RopeVectors {
  format: 'posenc-rope-vectors/1';
  maxPositionEmbeddings: number | null;
  /** the seqLen option (one sequence: every row and the pair at it); null: each row at its own p + 1 */
  seqLen: number | null;
  /** pe.ropeConfig's warnings, then one 'position-past-context' per layer type for asked positions at or past the context it is for */
  warnings: { code: string; message: string }[];
  q_k: string;
  layerTypes: Record<string, LayerVectors>;
}

/**
 * What ropeScaling() gives, as options of the RoPE methods. For a whole config.json: exactly
 * ropeConfig's base, rotaryDim and scaling of its full_attention layers (or of its one RoPE layer
 * type; with several and no full_attention it throws). Other layer types' bases, the pair style
 * and mRoPE come from ropeConfig. For RoPE keys alone (a rope_scaling block, maybe with
 * rope_theta and max_position_embeddings beside it, no head width): base (rope_theta, if given)
 * and scaling, with the same checks.
 */
export interface RopeConfig {
  base?: number;
  rotaryDim?: number;
  /** null when the config has no scaling */
  scaling: Scaling | null;
}

/** What every layer type of ropeConfig has, with RoPE or without. */
interface LayerCommon {
  readonly headDim: number;
  /** the factor the model applies to the 1/√d softmax scale (DeepSeek MLA: mscale²; Gemma 4: √headDim, as it does not scale; Granite: attention_multiplier·√headDim) */
  readonly softmaxScale: number;
  /** query temperature by position (Llama 4's NoPE layers, Ministral's llama_4_scaling_beta), or null */
  readonly temperature: { scale: number; floorScale: number; offset: 0 | 1; beta?: number } | null;
  /** the layer indices of this type, or null when the config does not say */
  readonly layers: readonly number[] | null;
  /**
   * The context length this layer type is for: max_position_embeddings, or the scaling's factor ×
   * its original length when larger (Qwen2.5's YaRN ×4 with both at 32768: 131072; llama3's factor
   * is no length ratio); null when the config gives neither.
   */
  readonly contextLength: number | null;
}

/**
 * A layer type with RoPE (ropeConfig; frozen, as the whole result is). Its base, rotaryDim,
 * scaling and style are applyRope's options, mrope too where it is not null:
 * const { base, rotaryDim, scaling, style } = layer;
 * pe.applyRope(x, { heads, headDim, base, rotaryDim, scaling, style, positions })
 * (with layer.mrope: also mrope: layer.mrope and positions { t, h, w }).
 */
export interface RopeLayerPositions extends LayerCommon {
  readonly nope: false;
  /** rope_theta for this layer type */
  readonly base: number;
  /** dims rotated */
  readonly rotaryDim: number;
  /**
   * The checkpoint's pairing as Hugging Face's code applies it to its q/k weights ('half':
   * rotate_half; 'interleaved': adjacent pairs, e.g. GPT-J, Llama 4, DeepSeek MLA).
   */
  readonly style: RopeStyle;
  /** posenc's scaling option for this layer type, or null */
  readonly scaling: Scaling | null;
  /** mRoPE: the (t, h, w) sections over the rotated pairs */
  readonly mrope: { readonly section: readonly number[]; readonly interleaved: boolean } | null;
  /** the factor on cos and sin (YaRN, LongRoPE); null when the config cannot give it */
  readonly attentionFactor: number | null;
}

/** A layer type without any position encoding (NoPE: Llama 4's every fourth layer, SmolLM3's). */
export interface NopeLayerPositions extends LayerCommon {
  readonly nope: true;
  readonly base: null;
  readonly rotaryDim: 0;
  readonly style: null;
  readonly scaling: null;
  readonly mrope: null;
  readonly attentionFactor: 1;
}

/** How one kind of layer encodes positions: test `nope` to tell the two apart. */
export type LayerPositions = RopeLayerPositions | NopeLayerPositions;

export interface ModelPositions {
  readonly layerTypes: Readonly<Record<string, LayerPositions>>;
  readonly maxPositionEmbeddings: number | null;
  /** the known ambiguities found, each with a stable code */
  readonly warnings: readonly { readonly code: string; readonly message: string }[];
}

/** Real models' position-relevant config keys, with the public file each number comes from. */
export declare const MODELS: readonly {
  id: string; name: string; family: string; year: number;
  /** the one Hugging Face checkpoint (owner/name) whose config and source numbers the entry holds */
  checkpoint: string;
  config: object; source: string; note?: string;
}[];

/** A model's config.json (object or JSON text), or its RoPE keys alone, as RoPE options: see RopeConfig. */
export declare function ropeScaling(config: object | string): RopeConfig;

// ---- real weights: safetensors files and one attention layer (web/lib/safetensors.js, layer.js) ----

/** An opened safetensors file, or a sharded model's files through its index. */
export interface SafetensorsFile {
  /** tensor names, in the header's order (for a sharded model: the index's) */
  readonly names: readonly string[];
  /** the header's __metadata__ (a sharded model: its first shard's) */
  readonly metadata: Readonly<Record<string, string>>;
  /** a sharded model's shard files, else null */
  readonly shards: readonly string[] | null;
  /** bytes read so far, headers included (over HTTP: bytes received) */
  readonly bytesRead: number;
  /** dtype (any of the format's), shape, bytes, and the shard file holding it (or null) */
  info(name: string): { readonly dtype: string; readonly shape: readonly number[]; readonly byteLength: number; readonly file: string | null };
  has(name: string): boolean;
  /**
   * an F32, F16 or BF16 tensor as float32, row-major, reading only its bytes; `rows`: indices
   * along the first dimension (any order, repeats allowed), only those read and returned in order
   */
  tensor(name: string, options?: { rows?: Numbers }): Promise<Float32Array>;
}

/**
 * Opens a safetensors file: an ArrayBuffer (or view), a Blob/File, a URL (read with HTTP Range
 * requests), or the URL of a sharded model's model.safetensors.index.json. Checks the whole
 * header first (TypeError/RangeError saying what is wrong). HTTP failures reject with an Error
 * carrying `status` (401/403 gated or private, 404 missing) and `url`; no network: an Error
 * whose `cause` is fetch's.
 */
export declare function readSafetensors(source: ArrayBuffer | ArrayBufferView | Blob | string | URL, options?: { fetch?: typeof fetch }): Promise<SafetensorsFile>;

/** Tensors (laid out in name order, header padded to 8 bytes, as safetensors writes) → file bytes. BF16 and F16 round to nearest even. */
export declare function writeSafetensors(tensors: Record<string, { dtype: 'F32' | 'BF16' | 'F16'; shape: number[]; data: Numbers }>, metadata?: Record<string, string>): Uint8Array;

/** The weights of one attention layer, transformers' tensors of model.layers.{i}. (float32 values). */
export interface LayerWeights {
  /** input_layernorm.weight [hidden] */
  inputNorm: Numbers;
  /** input_layernorm.bias [hidden]: LayerNorm models only (posenc_lab) */
  inputNormBias?: Numbers;
  /** self_attn.q_proj.weight [heads·headDim][hidden] (nn.Linear: [out][in]) */
  q: Numbers;
  /** self_attn.k_proj.weight [kvHeads·headDim][hidden] */
  k: Numbers;
  /** self_attn.q_proj.bias, k_proj.bias: required for qwen2 and configs with attention_bias, refused otherwise */
  qBias?: Numbers;
  kBias?: Numbers;
  /** self_attn.q_norm.weight, k_norm.weight [headDim]: required for qwen3 (RMSNorm of each head's q, k before RoPE), refused otherwise */
  qNorm?: Numbers;
  kNorm?: Numbers;
}

/** Model types layerAttention computes: llama, mistral, qwen2, qwen3, posenc_lab (the lab's exports). */
export declare const LAYER_MODEL_TYPES: readonly string[];

/** The embedding rows of `tokens` (x) and layer `layer`'s weights (default 0) from a file in transformers' names; reads only those bytes. */
export declare function readLayer(file: SafetensorsFile, options?: { tokens?: Numbers; layer?: number; prefix?: string }): Promise<{ x?: Float32Array; weights: LayerWeights }>;

export interface LayerAttentionOptions {
  /** the model's config.json (object or text) */
  config: object | string;
  /** token embeddings [tokens][hidden_size] (for layer 0: embed_tokens rows; deeper: that layer's input) */
  x: Numbers;
  weights: LayerWeights;
  /** each token's position (default 0, 1, …) */
  positions?: Numbers;
  /** RoPE scaling in posenc's format (what ropeScaling returns): default the config's; null: none */
  scaling?: object | null;
}

export interface LayerAttention {
  /** queries and keys after the norms and RoPE: [tokens][heads][headDim], [tokens][kvHeads][headDim] */
  q: Float32Array;
  k: Float32Array;
  /** q·k·scale [heads][query][key] (scale 1/√headDim, Gemma-style configs aside); -Infinity above the diagonal (masked) */
  scores: Float32Array;
  /** the softmax of each row [heads][query][key]; 0 above the diagonal */
  weights: Float32Array;
  /** ‖q_t^(h,i)‖, ‖k_t^(h,i)‖ of rotated pair i: [heads][rotaryDim/2][tokens], [kvHeads][rotaryDim/2][tokens] */
  pairNorms: { q: Float32Array; k: Float32Array };
  heads: number;
  kvHeads: number;
  headDim: number;
  rotaryDim: number;
  /** the pair layout ('half' for transformers' Llama and Qwen: rows i and i + rotaryDim/2 of a head rotate together) */
  style: RopeStyle;
  base: number;
  scaling: object | null;
  /** tokens */
  length: number;
}

export interface PairEnergyOptions {
  heads: number;
  headDim: number;
  /** which rows of a head rotate together: 'half' (i, i + rotaryDim/2; transformers' layout) or 'interleaved' (2i, 2i + 1) */
  style: RopeStyle;
  /** default headDim (rounded down to even) */
  rotaryDim?: number;
  out?: Float64Array;
}
/** A metadata value of a GGUF file: numbers (64-bit ones past 2^53 as bigint), strings, booleans, arrays;
 * tokenizer arrays (and any array longer than 65536) as a summary. */
export type GgufValue = number | bigint | string | boolean | readonly (number | bigint | string | boolean)[] |
  { readonly itemType: string; readonly count: number };

/** readGguf's result (frozen): the front of a GGUF file. */
export interface Gguf {
  readonly version: 2 | 3;
  readonly littleEndian: boolean;
  readonly metadata: Readonly<Record<string, GgufValue>>;
  /** tensor infos: shape ne[0] first (ggml's order), type a ggml_type number, offset from dataOffset */
  readonly tensors: readonly { readonly name: string; readonly shape: readonly number[]; readonly type: number; readonly offset: number }[];
  readonly dataOffset: number;
  /** the data of rope_freqs, rope_factors_long and rope_factors_short, where the file has them */
  readonly ropeTensors: { readonly rope_freqs?: Float32Array; readonly rope_factors_long?: Float32Array; readonly rope_factors_short?: Float32Array };
  readonly bytesRead: number;
}

/** An unreadable GGUF or an unreachable one: code 'malformed' | 'unsupported' | 'too-large' | 'not-found' | 'gated' | 'http' | 'network'. */
export interface GgufError extends Error {
  readonly code: string;
}
export declare const GgufError: new (code: string, message: string) => GgufError;
/** readGguf's default maxBytes (64 MiB). */
export declare const GGUF_MAX_BYTES: number;

/**
 * Reads a GGUF file's metadata, tensor infos and RoPE tensors, and nothing past them: a Blob or
 * File is sliced, a URL is read with HTTP Range requests. Never reads more than maxBytes.
 */
export declare function readGguf(source: ArrayBuffer | ArrayBufferView | Blob | URL | string, options?: {
  fetch?: typeof fetch;
  maxBytes?: number;
  /** called after each read with the bytes read so far and the file size (undefined until known) */
  onProgress?: (bytesRead: number, size: number | undefined) => void;
}): Promise<Gguf>;


/** `out`: a caller-owned array of exactly the result's type and length, filled and returned instead of a new one. */
export interface Out<T> {
  out?: T;
}

export interface FrequencyOptions {
  /** default 10000 (>= 1), also for null */
  base?: number | null;
  /** null: none, as ropeScaling and ropeConfig give it */
  scaling?: Scaling | null;
  /** what ropeScaling() returns may come along: it must equal the rotaryDim argument */
  rotaryDim?: number;
}

export interface SinusoidalOptions {
  /** default 10000 (>= 1) */
  base?: number;
  /** default 'interleaved' */
  layout?: Layout;
  /** 'f32' (default): Float32Array; 'f64': Float64Array of the values before rounding (not for tensor2tensor) */
  precision?: 'f32' | 'f64';
  /** the first row's position, default 0 */
  start?: number;
}

/** Per-step types for ropeCache's emulation: each step rounded to nearest-even into its type (each default 'f64'). */
export interface PrecisionSteps {
  position?: Precision;
  invFreq?: Precision;
  angle?: Precision;
  output?: Precision;
}

export interface RopeCacheOptions extends FrequencyOptions {
  /** mRoPE: positions are then { t, h, w } (not with precision) */
  mrope?: MropeOptions;
  /** emulate an implementation working in these types; the result is then Float64Array */
  precision?: Precision | PrecisionSteps;
  /** caller-owned { cos, sin } to fill (Float32Array, or Float64Array with precision) */
  out?: { cos?: Float32Array | Float64Array; sin?: Float32Array | Float64Array };
}

type Float32Pair = { cos?: Float32Array; sin?: Float32Array };
type Float64Pair = { cos?: Float64Array; sin?: Float64Array };

interface RopeShape {
  heads: number;
  headDim: number;
  /** required: which dims form a pair */
  style: RopeStyle;
  /** even, <= headDim; default headDim rounded down to even (the rest of each head is left as is) */
  rotaryDim?: number;
}

// applyRope and applyRopeInPlace take one of three forms. A key of another form is refused at run
// time (positions with cos, base with a table), so it is `never` here. The methods take each form
// as an overload, plain positions last, so that a missing style or a misspelt key in the common
// call is reported against that form rather than against mRoPE's.
interface NoTable {
  /** not with positions: give either positions or cos and sin */
  cos?: never;
  sin?: never;
}

/** Positions: cos/sin formed from position × θ_i in float64. */
interface PositionsForm extends RopeShape, FrequencyOptions, NoTable {
  /** one position per row of x (x.length = positions.length × heads × headDim) */
  positions: Numbers;
  /** mRoPE takes positions { t, h, w } */
  mrope?: never;
}

/** mRoPE: each pair's angle from its stream of positions. */
interface MropeForm extends RopeShape, FrequencyOptions, NoTable {
  positions: MropePositions;
  mrope: MropeOptions;
}

/** A cos/sin table, as ropeCache returns it: [seq][rotaryDim/2] each (base and scaling are in the table). */
interface TableForm<T> extends RopeShape {
  cos: T;
  sin: T;
  /** not with a table: give either positions or cos and sin */
  positions?: never;
  /** in the table already */
  base?: never;
  scaling?: never;
  mrope?: never;
}

/** applyRope with positions. */
export interface RopePositionOptions extends PositionsForm, Out<Float32Array> {}
/** applyRope with mRoPE. */
export interface RopeMropeOptions extends MropeForm, Out<Float32Array> {}
/** applyRope with a cos/sin table. */
export interface RopeTableOptions extends TableForm<Numbers>, Out<Float32Array> {}
export type RopeOptions = RopePositionOptions | RopeMropeOptions | RopeTableOptions;

/** applyRopeInPlace with positions. */
export interface RopeInPlacePositionOptions extends PositionsForm {}
/** applyRopeInPlace with mRoPE. */
export interface RopeInPlaceMropeOptions extends MropeForm {}
/** applyRopeInPlace with a table of tensors [seq][rotaryDim/2] (e.g. pe.tensor(pe.ropeCache(...).cos)): no trigonometry. */
export interface RopeInPlaceTableOptions extends TableForm<Tensor> {}
export type RopeInPlaceOptions = RopeInPlacePositionOptions | RopeInPlaceMropeOptions | RopeInPlaceTableOptions;

export interface AttentionOptions {
  heads: number;
  headDim: number;
  /** default false; query row i sees keys j <= i + seqK - seqQ */
  causal?: boolean;
  out?: { output?: Float32Array; weights?: Float32Array };
}

export interface ShiftOptions extends Out<Float32Array> {
  dim: number;
  base?: number;
  /** default 'interleaved' (tensor2tensor's frequencies are not shifted by a rotation of this form) */
  layout?: 'interleaved' | 'concat';
}

export interface OrderDemoOptions {
  /** default 5 (1..4096) */
  vocab?: number;
  /** default 10 (2..4096) */
  dim?: number;
  /** default 2; divides dim */
  heads?: number;
  /** default 'none' */
  encoding?: 'none' | 'sinusoidal' | 'rope';
  causal?: boolean;
  /** default 0 */
  seed?: number;
  base?: number;
  out?: { output?: Float32Array; weights?: Float32Array };
}

export interface RopeDecayOptions extends Out<Float64Array> {
  /** 'ones' (default): g(x) = 2 Σ cos(x θ_i); 'bound': RoFormer's relative upper bound; 'vectors': q · R(x) k */
  kind?: 'ones' | 'bound' | 'vectors';
  /** even; required unless invFreq is given */
  dim?: number;
  /** the same as dim (what ropeScaling returns passes on); must agree with dim when both are given */
  rotaryDim?: number;
  /** as FrequencyOptions (null: the default, and no scaling) */
  base?: number | null;
  scaling?: Scaling | null;
  /** θ_i given outright (dim/2 of them), instead of base and scaling (which are then refused) */
  invFreq?: Numbers;
  /** kind 'vectors' only (refused for the others): q and k of length dim, and their pair style (required) */
  q?: Numbers;
  k?: Numbers;
  style?: RopeStyle;
}

export interface SinusoidalDecayOptions extends Out<Float64Array> {
  dim: number;
  base?: number;
  /** give both or neither: (q + PE(0)) · (k + PE(x)) instead of PE(0) · PE(x) */
  q?: Numbers;
  k?: Numbers;
}

export interface DynamicKvCacheOptions {
  /** even, >= 4 */
  headDim: number;
  /** the RoPE pair layout: required */
  style: RopeStyle;
  /** dynamic NTK's factor s */
  factor: number;
  maxPositionEmbeddings: number;
  base?: number;
  /** the steps t (1..length) to report; default every step */
  steps?: Numbers;
  out?: { scoreDiff?: Float64Array; weightDiff?: Float64Array; cachedScores?: Float64Array; freshScores?: Float64Array };
}

/** A Float32Array that lives in the wasm heap (pe.tensor()): the zero-copy path. */
export interface Tensor {
  readonly length: number;
  /** a view of the heap; re-read it after any posenc call (memory growth detaches old views) */
  readonly array: Float32Array;
  readonly freed: boolean;
  /** returns the memory; a freed tensor throws on use; freeing twice is harmless */
  free(): void;
}

/** llama.cpp's RoPE flags (llama-cli, llama-server), camelCase: --rope-scaling → ropeScaling, and so on. */
export interface LlamaCppFlags {
  ropeScaling?: 'none' | 'linear' | 'yarn';
  /** --rope-scale N: freq_scale = 1/N (give this or ropeFreqScale) */
  ropeScale?: number;
  ropeFreqScale?: number;
  ropeFreqBase?: number;
  yarnOrigCtx?: number;
  yarnExtFactor?: number;
  yarnAttnFactor?: number;
  yarnBetaFast?: number;
  yarnBetaSlow?: number;
}

/** What llama.cpp passes to ggml_rope_ext for one layer type (float32 values, as llama.cpp keeps them). */
export interface LlamaCppRopeParams {
  readonly nDims: number;
  readonly mode: 'norm' | 'neox' | 'mrope' | 'imrope';
  readonly nCtxOrig: number;
  readonly freqBase: number;
  readonly freqScale: number;
  readonly extFactor: number;
  readonly attnFactor: number;
  readonly betaFast: number;
  readonly betaSlow: number;
  /** the divisors per pair: rope_freqs (Gemma 4: its full layers only, 1e30 for the pairs that stand still), or LongRoPE's long or short factors (picked by the context), else null */
  readonly freqFactors: Float32Array | null;
  readonly factorsName: 'rope_freqs' | 'rope_factors_long' | 'rope_factors_short' | null;
  /** mRoPE sections [t, h, w, e] */
  readonly sections: readonly number[] | null;
  /** what cos and sin end up multiplied by: attnFactor, times YaRN's 1 + 0.1 ln(1/freqScale) when extFactor != 0 */
  readonly magnitude: number;
  readonly layers: readonly number[] | null;
}

/**
 * pe.llamaCppRope's result (frozen). A file llama.cpp refuses to load, or one whose rope ggml would
 * abort on (a Gemma 4 GGUF without rope_freqs, its sliding pattern, or rope.dimension_count_swa where
 * n_rot exceeds the sliding heads), throws instead, with the reason and the fix.
 */
export interface LlamaCppRope {
  /** the llama.cpp commit whose rules are followed (Gemma 4, added after it, as llama.cpp#21309 loads it) */
  readonly llamaCpp: string;
  readonly arch: string;
  readonly mode: 'norm' | 'neox' | 'mrope' | 'imrope';
  readonly nCtxTrain: number;
  /** the context of one sequence: -c (or context_length) padded to 256 */
  readonly nCtx: number;
  readonly layerTypes: { readonly full_attention: LlamaCppRopeParams; readonly sliding_attention?: LlamaCppRopeParams };
  /** flags llama.cpp overwrites ('flag-overridden') or that change nothing ('flag-no-op') */
  readonly notes: readonly { readonly code: string; /** the flag as given, with its value */ readonly flag: string; readonly message: string }[];
}

/** One finding of compareRuntimes. */
export interface RuntimeFinding {
  readonly code: 'none' | 'architecture-differs' | 'layers-not-compared' | 'rope-freqs-missing' | 'longrope-factors-by-context' | 'swa-base-missing' |
    'flag-overridden' | 'flag-no-op' | 'base-differs' | 'scaling-differs' | 'pairing-differs' | 'attn-factor-differs';
  readonly message: string;
  /** the llama.cpp flags that fix it, or what to do where no flag can; null for 'none' */
  readonly fix: string | null;
  /**
   * the kind of fix, checked by comparing again: flags to pass ('flags'), flags to leave out
   * ('drop-flag'), converting the model again ('reconvert'), or none at all; a finding that
   * another finding's fix clears too takes that fix
   */
  readonly fixKind: 'flags' | 'drop-flag' | 'reconvert' | 'none' | null;
  /** the flags to pass ('flags') or to leave out ('drop-flag'); null otherwise */
  readonly fixFlags: string | null;
  readonly layerTypes: readonly string[];
  /**
   * 'differs' where llama.cpp does not compute what the config means; 'note' where it does (a flag
   * that changes nothing, a GGUF only other readers misread, and 'none')
   */
  readonly severity: 'differs' | 'note';
}

/** pe.compareRuntimes's result (frozen): per layer type, in float64. */
export interface RuntimeComparison {
  readonly llamaCpp: string;
  readonly arch: string;
  readonly nCtx: number;
  readonly positions: readonly number[];
  /**
   * the sequence lengths compared: max(positions) + 1, and, for LongRoPE when that passes
   * original_max_position_embeddings (L0) in a context past it, L0 too (a prompt within it)
   */
  readonly seqLens: readonly number[];
  /** true when no finding is of severity 'differs' (the CLI's exit 0) */
  readonly agree: boolean;
  readonly layerTypes: Readonly<Record<string, {
    readonly llamaCppLayerType: string;
    readonly layers: readonly number[] | null;
    readonly llamaCppLayers: readonly number[] | null;
    readonly rotaryDim: { readonly config: number; readonly llamaCpp: number };
    /** config and llamaCpp in the HF checkpoint's weight layout; gguf in the GGUF's (adjacent where the converter permuted Q/K) */
    readonly pairing: { readonly config: RopeStyle; readonly llamaCpp: RopeStyle; readonly gguf: RopeStyle };
    readonly magnitude: { readonly config: number | null; readonly llamaCpp: number };
    readonly base: { readonly config: number; readonly llamaCpp: number };
    readonly factors: string | null;
    /** θ_i per pair as each runtime means it, their relative difference, the largest |Δcos|, |Δsin| per pair over the positions */
    readonly thetaConfig: Float64Array;
    readonly thetaLlamaCpp: Float64Array;
    readonly relDiff: Float64Array;
    readonly maxDcos: Float64Array;
    readonly maxDsin: Float64Array;
    /**
     * the pairs whose θ_i differ: relDiff above 1e-6 and |Δθ_i| above 1e-6 / (2^31 − 1) rad, so that a
     * pair standing still on both sides (Gemma 4's p-RoPE: 0 in the config, ~1e-32 through llama.cpp's
     * 1e30 factors, relDiff 1) agrees, being under 1e-6 rad apart at any position ggml takes
     */
    readonly differingPairs: readonly number[];
    /** the pairs that agree only by standing still on both sides (relDiff above 1e-6, θ_i within that bound) */
    readonly stillPairs: readonly number[];
  }>>;
  readonly maxDcos: number;
  readonly maxDsin: number;
  readonly findings: readonly RuntimeFinding[];
  /**
   * not a finding: float32 rounding at the largest position, the largest |Δ| of cos/sin from each side's
   * float64 values: llama.cpp's as ggml computes them; transformers' with θ_i, angle and cos/sin each
   * rounded once to float32 (transformers' own recipe rounds θ_i twice, and can stray further)
   */
  readonly float32: { readonly position: number; readonly llamaCpp: number; readonly transformers: number };
  readonly configWarnings: readonly { readonly code: string; readonly message: string }[];
}

export interface Posenc {
  /** true when the loaded module is the WASM SIMD build */
  readonly simd: boolean;
  /** the memory limits this instance enforces (see LoadOptions) */
  readonly limits: { readonly callBytes: number; readonly heapBytes: number };
  /**
   * wasm heap use: bytes malloc has handed out (64 KiB of them from load on: the scratch region
   * calls take small buffers from), bytes of wasm memory, and the part of inUse kept between calls
   * (applyRope's cos/sin table memo, at most 1 MiB; freed when the heap limit needs room)
   */
  heapBytes(): { inUse: number; total: number; cached: number };
  /** the sinusoidal table [length][dim], row r is position start + r */
  sinusoidal(length: number, dim: number, options?: SinusoidalOptions & { precision?: 'f32' } & Out<Float32Array>): Float32Array;
  sinusoidal(length: number, dim: number, options: SinusoidalOptions & { precision: 'f64' } & Out<Float64Array>): Float64Array;
  /** binary codes [length][bits], column j is bit j (least significant first); bits 1..31 */
  binary(length: number, bits: number, options?: Out<Float32Array>): Float32Array;
  /** θ_i for i < rotaryDim/2 (float64): base^(-2i/rotaryDim), or a scaling variant's */
  ropeInvFreq(rotaryDim: number, options?: FrequencyOptions & Out<Float64Array>): Float64Array;
  /** the factor a scaling variant multiplies cos and sin by (1 without scaling) */
  ropeAttentionFactor(rotaryDim: number, options?: FrequencyOptions): number;
  /** a config.json's (or its RoPE keys') RoPE options, as the top-level ropeScaling: see RopeConfig */
  ropeScaling(config: object | string): RopeConfig;
  /** A whole config.json (object or JSON text, v4 or v5 format, text_config looked into), read per layer type; the result is frozen. */
  ropeConfig(config: object | string): ModelPositions;
  /** conformance vectors per layer type of a config.json (format 'posenc-rope-vectors/1'); positions: more rows to list;
   * seqLen: one sequence of that length for every row and the pair (past every position asked for; default: p + 1 per row) */
  ropeVectors(config: object | string, options?: { positions?: Numbers; seqLen?: number }): RopeVectors;
  /** What llama.cpp passes to ggml_rope_ext per layer type for a GGUF (readGguf) under its flags; ctx: -c of one sequence (0: context_length) */
  llamaCppRope(gguf: Gguf, options?: { flags?: LlamaCppFlags; ctx?: number }): LlamaCppRope;
  /** ggml's float32 cos and sin per pair, each [positions.length][nDims/2], the magnitude in (integer positions, as ggml's int32) */
  llamaCppCache(params: Omit<LlamaCppRopeParams, 'factorsName' | 'magnitude' | 'layers' | 'freqFactors' | 'sections'> &
    { freqFactors?: Numbers | null; sections?: readonly number[] | null }, positions: Numbers,
    options?: { out?: { cos?: Float32Array; sin?: Float32Array } }): { cos: Float32Array; sin: Float32Array };
  /** A config.json against a GGUF of it in llama.cpp: θ_i, magnitudes and pairing per layer type in float64, and the findings */
  compareRuntimes(config: object | string, gguf: Gguf, options?: { positions?: Numbers; flags?: LlamaCppFlags; ctx?: number }): RuntimeComparison;
  /** Llama 4's query temperature per position: 1 + scale·ln(⌊(p + offset)/floorScale⌋ + 1), float64 */
  attentionTemperature(positions: Numbers, options?: TemperatureOptions): Float64Array;
  /** mRoPE cos and sin, each [positions.t.length][rotaryDim/2] */
  ropeCache(positions: MropePositions, rotaryDim: number, options: FrequencyOptions & { mrope: MropeOptions; out?: Float32Pair }): { cos: Float32Array; sin: Float32Array };
  /** cos and sin of position × θ_i, each [positions.length][rotaryDim/2] */
  ropeCache(positions: Numbers, rotaryDim: number, options?: FrequencyOptions & { out?: Float32Pair }): { cos: Float32Array; sin: Float32Array };
  ropeCache(positions: Numbers, rotaryDim: number, options: FrequencyOptions & { precision: Precision | PrecisionSteps; out?: Float64Pair }): { cos: Float64Array; sin: Float64Array };
  /** rotates x [seq][heads][headDim] by mRoPE streams, a cos/sin table or positions; returns a new array */
  applyRope(x: Numbers, options: RopeOptions): Float32Array;
  applyRope(x: Numbers, options: RopeMropeOptions): Float32Array;
  applyRope(x: Numbers, options: RopeTableOptions): Float32Array;
  applyRope(x: Numbers, options: RopePositionOptions): Float32Array;
  /** a heap tensor: zero-filled of this length, or a copy of data */
  tensor(lengthOrData: number | Numbers): Tensor;
  /** RoPE in place on a heap tensor, in the same three forms; returns x */
  applyRopeInPlace(x: Tensor, options: RopeInPlaceOptions): Tensor;
  applyRopeInPlace(x: Tensor, options: RopeInPlaceMropeOptions): Tensor;
  applyRopeInPlace(x: Tensor, options: RopeInPlaceTableOptions): Tensor;
  applyRopeInPlace(x: Tensor, options: RopeInPlacePositionOptions): Tensor;
  /** attention of q [seqQ][heads][headDim] over k, v [seqK][heads][headDim] (seqQ <= seqK) */
  attention(q: Numbers, k: Numbers, v: Numbers, options: AttentionOptions): { output: Float32Array; weights: Float32Array };
  /**
   * dynamic NTK with a KV cache: key j cached at step j + 1 with the base of length j + 1, the
   * query of step t (q row t − 1) with the base of length t; per step, the largest score and
   * weight differences between cached and recomputed keys, and the last step's scores
   */
  dynamicKvCache(q: Numbers, k: Numbers, options: DynamicKvCacheOptions): {
    scoreDiff: Float64Array; weightDiff: Float64Array; cachedScores: Float64Array; freshScores: Float64Array;
  };
  /** dot products of every row of a [n][dim] with every row of b [m][dim]: Float64Array(n × m) */
  gram(a: Numbers, b: Numbers, dim: number, options?: Out<Float64Array>): Float64Array;
  /** dot product of row i of a with row i of b (both [n][dim]) */
  rowDots(a: Numbers, b: Numbers, dim: number, options?: Out<Float64Array>): Float64Array;
  /** cosine between row i of a and row i of b (both [n][dim]) */
  rowCosines(a: Numbers, b: Numbers, dim: number, options?: Out<Float64Array>): Float64Array;
  /** R(k) on sinusoidal vectors: R(k) PE(pos) = PE(pos + k) */
  shiftSinusoidal(vectors: Numbers, k: number, options: ShiftOptions): Float32Array;
  /** token ids -> embedding -> optional PE -> Q/K/V -> optional RoPE -> attention, seeded */
  orderDemo(tokens: Numbers, options?: OrderDemoOptions): { output: Float32Array; weights: Float32Array };
  /** the RoPE score against distance x */
  ropeDecay(distances: Numbers, options: RopeDecayOptions): Float64Array;
  /** (q + PE(0)) · (k + PE(x)), or PE(0) · PE(x) without q and k */
  sinusoidalDecay(distances: Numbers, options: SinusoidalDecayOptions): Float64Array;
  /** ALiBi slopes m_h for each head (1..1024 heads) */
  alibiSlopes(heads: number, options?: Out<Float64Array>): Float64Array;
  /** ALiBi bias [heads][seq][seq]: -(i - j) m_h for j <= i, 0 above the diagonal */
  alibiBias(heads: number, seq: number, options?: Out<Float32Array>): Float32Array;
  /** n samples of N(0, 1) from an integer seed; the same numbers in every engine */
  randomNormal(n: number, seed: number, options?: Out<Float32Array>): Float32Array;
  /** T5's bucket of each relative position (memory − query), as Hugging Face's _relative_position_bucket */
  t5Bucket(relativePositions: Numbers, options?: T5BucketOptions): Int32Array;
  /** xPos scales [positions.length][dim/2]: ζ_i^(p / scaleBase), ζ_i = (2i + 0.4 dim)/(1.4 dim); centre p yourself */
  xposScale(positions: Numbers, options: XposScaleOptions): Float64Array;
  /** the length-generalisation lab: builds a tiny transformer in the wasm heap and trains it */
  train(options: TrainOptions): LabRun;
  /**
   * one attention layer of a real model from token embeddings and its weights, as transformers
   * computes it (float32, sums in float64): RMSNorm (LayerNorm for posenc_lab), q/k projections
   * and biases, Qwen3's per-head norms, RoPE as ropeConfig reads the config, GQA, causal softmax.
   * BF16 weights are decoded exactly and computed on in float32; a model run in bfloat16 rounds
   * every intermediate to 8 significant bits (steps of 2^-8 relative), so its numbers differ more.
   */
  layerAttention(options: LayerAttentionOptions): LayerAttention;
  /**
   * per head and rotation pair, ‖W[h·d + u]‖² + ‖W[h·d + v]‖² over the two rows (u, v) of a q or k
   * projection W [heads·headDim][in] that rotate together: Float64Array [heads][rotaryDim/2].
   * A proxy from the weights alone: real q, k depend on the tokens too (layerAttention's pairNorms).
   */
  pairEnergy(W: Numbers, options: PairEnergyOptions): Float64Array;
}

export interface T5BucketOptions extends Out<Int32Array> {
  /** default true: memory after the query takes the upper half of the buckets */
  bidirectional?: boolean;
  /** default 32; 2..65536 (>= 4 when bidirectional) */
  numBuckets?: number;
  /** default 128; > the exact range, <= 2^30 */
  maxDistance?: number;
}

export interface XposScaleOptions extends Out<Float64Array> {
  /** head dimension (even) */
  dim: number;
  /** default 512 */
  scaleBase?: number;
}

export type LabTask = 'kback' | 'copy' | 'reverse' | 'recall';
export type LabEncoding = 'none' | 'learned' | 'sinusoidal' | 'rope' | 'alibi' | 't5' | 'xpos';

/** pe.train's options (c/lab/lab.h describes the model, tasks and encodings). Caps in brackets. */
export interface TrainOptions {
  encoding: LabEncoding;
  /** required for rope and xpos; refused for the others */
  style?: RopeStyle;
  /** default 'kback' */
  task?: LabTask;
  /** kback's offset (default 3) [1..64, <= trainLength]; kback only */
  k?: number;
  /** rope, xpos and sinusoidal base (default 10000, > 1); refused for the others */
  base?: number;
  /** xpos only (default 512) [1e-3..1e9, and >= (T/2 + 1)·ln 3.5 / 15 for T the longest sequence: smaller ones would leave float32] */
  scaleBase?: number;
  /** default 18 [18..64] */
  vocab?: number;
  /** default 32 [2..256] */
  dModel?: number;
  /** default 4 [1..16]; dModel a multiple, dModel/heads even for rope and xpos */
  heads?: number;
  /** default 2 [1..8] */
  layers?: number;
  /** MLP width (default 4 dModel) [1..1024] */
  dFF?: number;
  /** learned table rows (default max(512, the longest sequence)) [..4096]; learned only */
  maxPositions?: number;
  /** training draws each batch's task length uniformly from those up to trainLength that carry loss: k..trainLength for kback, 1..trainLength otherwise (default 16) [1..256] */
  trainLength?: number;
  /** the longest task length evaluate and attention take (default min(8 trainLength, 1024)) [1..1024] */
  maxEvalLength?: number;
  /** default 32 [1..256] */
  batch?: number;
  /** AdamW: lr 3e-3, 100 warm-up steps, constant schedule, weight decay 0.01, betas 0.9 / 0.999, eps 1e-8 */
  lr?: number;
  warmupSteps?: number;
  schedule?: 'constant' | 'cosine';
  /** the cosine's length (default steps); cosine only */
  totalSteps?: number;
  weightDecay?: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
  /** global gradient-norm clip (default 0: off) */
  clipNorm?: number;
  /** the longest fine-tuning task length whose batches still hold `batch` sequences (default trainLength) [..maxEvalLength]; it sizes the model's buffers */
  fineTuneLength?: number;
  /** integer seed of the initialisation and the training data (default 1) */
  seed?: number;
  /** steps to train now (default 400) [0..10000] */
  steps?: number;
}

export interface LabScaling {
  /** 'pi' (or 'linear'): positions / factor; 'ntk'; 'yarn' (c/lab/lab.h) */
  type: 'pi' | 'linear' | 'ntk' | 'yarn';
  /** >= 1; default max(1, length / trainLength) at each length */
  factor?: number;
}

export interface LabEvaluation {
  length: number;
  /** the scaling factor used, with scaling */
  factor?: number;
  tokenAccuracy: number;
  sequenceAccuracy: number;
  loss: number;
  /** per token position; NaN where no position carries loss */
  positionAccuracy: Float64Array;
  positionLoss: Float64Array;
}

export interface LabAttention {
  tokens: Int32Array;
  /** the example's targets (-1: no loss), when made from { length, seed } */
  targets?: Int32Array;
  /** [layers][heads][length][length], row = query */
  weights: Float32Array;
  layers: number;
  heads: number;
  /** tokens in the sequence */
  length: number;
  factor?: number;
}

/** A model in the wasm heap: free() it when done (its memory counts against the heap limit). */
export interface LabRun {
  /** the options with every default filled in */
  readonly options: Readonly<Required<Pick<TrainOptions, 'task' | 'encoding' | 'vocab' | 'dModel' | 'heads' | 'layers' | 'dFF' |
    'trainLength' | 'maxEvalLength' | 'batch' | 'lr' | 'warmupSteps' | 'schedule' | 'weightDecay' | 'beta1' | 'beta2' | 'eps' |
    'clipNorm' | 'seed' | 'steps'>> & TrainOptions>;
  readonly layers: number;
  readonly heads: number;
  /** every step's loss so far (a copy; still readable after free); every step scored at least one token, so none is an empty step's 0 */
  readonly loss: Float32Array;
  readonly steps: number;
  readonly freed: boolean;
  /**
   * n more steps [1..10000]; returns their losses. With `length` and/or `scaling`, fine-tuning:
   * task lengths drawn as training draws them with `length` in place of trainLength
   * [1..maxEvalLength; k.. for kback], RoPE scaled as evaluate scales it (factor default
   * max(1, length / trainLength)), batches of fineTuneBatch(length) sequences.
   */
  step(n: number, options?: { length?: number; scaling?: LabScaling }): Float32Array;
  /** sequences per fine-tuning batch at a task length: what the buffers hold, at most `batch` */
  fineTuneBatch(length: number): number;
  /** task lengths (default [trainLength]), 256 sequences, seed 1 by default */
  evaluate(options?: { lengths?: Numbers; sequences?: number; seed?: number; scaling?: LabScaling }): LabEvaluation[];
  /** one sequence: its tokens, or an example of the task at task length `length` from `seed` (defaults trainLength, 1) */
  attention(input?: Numbers | { tokens: Numbers; scaling?: LabScaling } | { length?: number; seed?: number; scaling?: LabScaling }): LabAttention;
  /** the residual stream of one sequence (input as for attention, no scaling) */
  hidden(input?: Numbers | { tokens: Numbers } | { length?: number; seed?: number }): LabHidden;
  /** copies of the parameters by group name (tok_emb, pos_emb, t5_bias, wqkv.0, …; c/lab/lab.h) */
  parameters(): Record<string, Float32Array>;
  /**
   * a RoPE run as a model: safetensors bytes (float32, transformers' names and [out][in] Linear
   * layout, q/k rows in the half pair layout) and its config.json (model_type "posenc_lab"), for
   * readSafetensors + readLayer + layerAttention. Encoding 'rope' only.
   */
  exportSafetensors(): { safetensors: Uint8Array; config: Record<string, unknown> };
  /** returns the model's memory; the run then throws a TypeError on use */
  free(): void;
}

export interface LabHidden {
  tokens: Int32Array;
  targets?: Int32Array;
  /** [layers + 1][length][dModel]: the embedding (with any added position encoding), then each layer's output */
  hidden: Float32Array;
  layers: number;
  dModel: number;
  length: number;
}
