// lab.js: the length-generalisation lab's JS API: pe.train(options) builds a tiny decoder-only
// transformer (c/lab, documented in c/lab/lab.h) in the wasm heap, trains it on a synthetic task
// and returns a LabRun: its losses, more steps, evaluation at any length (with RoPE scaling),
// attention maps, free(). The model's memory lives in the heap for the run's life and counts
// against the heap budget; free() returns it. Training is deterministic: the same options give
// the same bits.
import * as A from './args.js';
import { writeSafetensors } from './safetensors-write.js';

export const TASKS = Object.freeze(['kback', 'copy', 'reverse', 'recall']);
export const ENCODINGS = Object.freeze(['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5', 'xpos']);
const STYLES = { interleaved: 0, half: 1 };
const SCALINGS = { pi: 1, linear: 1, ntk: 2, yarn: 4 }; // c/posenc.h POSENC_SCALING_*
const SCHEDULES = { constant: 0, cosine: 1 };

/** Caps of pe.train's sizes (c/lab/lab.h's, with steps per call lower than C's 100000). */
export const LAB_LIMITS = Object.freeze({
  vocab: 64, dModel: 256, heads: 16, layers: 8, dFF: 1024, batch: 256, trainLength: 256,
  maxEvalLength: 1024, maxPositions: 4096, stepsPerCall: 10000, sequences: 65536,
});

/** pe.train's defaults: the lab's default model (c/lab/lab.h posenc_lab_config_default). */
export const LAB_DEFAULTS = Object.freeze({
  task: 'kback', k: 3, base: 10000, scaleBase: 512, vocab: 18, dModel: 32, heads: 4, layers: 2,
  maxPositions: 512, trainLength: 16, batch: 32, lr: 3e-3, warmupSteps: 100, schedule: 'constant',
  weightDecay: 0.01, beta1: 0.9, beta2: 0.999, eps: 1e-8, clipNorm: 0, seed: 1, steps: 400,
});

const TRAIN_KEYS = A.optionKeys('train', ['task', 'k', 'encoding', 'style', 'base', 'scaleBase', 'vocab', 'dModel',
  'heads', 'layers', 'dFF', 'maxPositions', 'trainLength', 'maxEvalLength', 'batch', 'lr', 'warmupSteps', 'schedule',
  'totalSteps', 'weightDecay', 'beta1', 'beta2', 'eps', 'clipNorm', 'fineTuneLength', 'seed', 'steps']);
const EVAL_KEYS = A.optionKeys('evaluate', ['lengths', 'sequences', 'seed', 'scaling']);
const ATTENTION_KEYS = A.optionKeys('attention', ['tokens', 'length', 'seed', 'scaling']);
const HIDDEN_KEYS = A.optionKeys('hidden', ['tokens', 'length', 'seed']);
const STEP_KEYS = A.optionKeys('step', ['length', 'scaling']);
const SCALING_KEYS = ['type', 'factor'];
const CONFIG_FIELDS = 26; // posenc_lab_config: 26 doubles

/** Tokens of one sequence of `task` at task length n (c/lab/lab.h "Tasks"). */
export function sequenceLength(task, n) {
  return task === 'kback' ? n : task === 'recall' ? 2 * n + 3 : 2 * n + 1;
}

/** Checks options and fills the defaults; returns the resolved options (a frozen object). */
export function trainOptions(opts) {
  const o = A.options('options', opts, TRAIN_KEYS, 'train');
  const task = A.oneOf('task', o.task ?? LAB_DEFAULTS.task, TASKS);
  if (o.encoding === undefined) throw new TypeError(`encoding is required: one of ${ENCODINGS.map((e) => JSON.stringify(e)).join(', ')}`);
  const encoding = A.oneOf('encoding', o.encoding, ENCODINGS);
  const rotary = encoding === 'rope' || encoding === 'xpos';
  const only = (key, when, what) => {
    if (o[key] !== undefined && !when) throw new RangeError(`${key} applies only to ${what}; got encoding ${JSON.stringify(encoding)}, task ${JSON.stringify(task)}`);
  };
  only('style', rotary, "encodings 'rope' and 'xpos'");
  only('base', rotary || encoding === 'sinusoidal', "encodings 'rope', 'xpos' and 'sinusoidal'");
  only('scaleBase', encoding === 'xpos', "encoding 'xpos'");
  only('maxPositions', encoding === 'learned', "encoding 'learned'");
  only('k', task === 'kback', "task 'kback'");
  let style;
  if (rotary) {
    if (o.style === undefined) throw new TypeError(`style is required for encoding ${JSON.stringify(encoding)}: "interleaved" or "half"`);
    style = A.oneOf('style', o.style, Object.keys(STYLES));
  }
  const L = LAB_LIMITS;
  const r = { task, encoding };
  if (style) r.style = style;
  if (task === 'kback') r.k = A.int('k', o.k ?? LAB_DEFAULTS.k, 1, 64);
  if (rotary || encoding === 'sinusoidal') {
    r.base = A.num('base', o.base ?? LAB_DEFAULTS.base, 1, 1e12);
    if (r.base <= 1) throw new RangeError(`base must be > 1, got ${r.base}`);
  }
  if (encoding === 'xpos') r.scaleBase = A.num('scaleBase', o.scaleBase ?? LAB_DEFAULTS.scaleBase, 1e-3, 1e9);
  r.vocab = A.int('vocab', o.vocab ?? LAB_DEFAULTS.vocab, 18, L.vocab);
  r.dModel = A.int('dModel', o.dModel ?? LAB_DEFAULTS.dModel, 2, L.dModel);
  r.heads = A.int('heads', o.heads ?? LAB_DEFAULTS.heads, 1, L.heads);
  if (r.dModel % r.heads) throw new RangeError(`dModel (${r.dModel}) must be a multiple of heads (${r.heads})`);
  if (rotary && (r.dModel / r.heads) % 2) throw new RangeError(`dModel / heads (${r.dModel / r.heads}) must be even for encoding ${JSON.stringify(encoding)}`);
  if (encoding === 'sinusoidal' && r.dModel % 2) throw new RangeError(`dModel must be even for encoding "sinusoidal", got ${r.dModel}`);
  r.layers = A.int('layers', o.layers ?? LAB_DEFAULTS.layers, 1, L.layers);
  r.dFF = A.int('dFF', o.dFF ?? Math.min(4 * r.dModel, L.dFF), 1, L.dFF);
  r.trainLength = A.int('trainLength', o.trainLength ?? LAB_DEFAULTS.trainLength, 1, L.trainLength);
  if (task === 'kback' && r.k > r.trainLength) throw new RangeError(`k (${r.k}) must be <= trainLength (${r.trainLength}): k-back sequences shorter than k have no token to predict, so no step could train`);
  r.maxEvalLength = A.int('maxEvalLength', o.maxEvalLength ?? Math.min(8 * r.trainLength, L.maxEvalLength), 1, L.maxEvalLength);
  const longest = sequenceLength(task, Math.max(r.trainLength, r.maxEvalLength));
  if (encoding === 'xpos') {
    // xPos scales q and k by ζ^(±(p − T/2)/scaleBase), ζ ≥ 2/7: past e^15 training leaves float32's range
    const least = ((Math.floor(longest / 2) + 1) * Math.log(3.5)) / 15;
    if (r.scaleBase < least) throw new RangeError(`scaleBase must be >= ${least.toPrecision(4)} for sequences of ${longest} tokens (xPos's factors would leave float32), got ${r.scaleBase}`);
  }
  if (encoding === 'learned') {
    r.maxPositions = A.int('maxPositions', o.maxPositions ?? Math.max(LAB_DEFAULTS.maxPositions, longest), 1, L.maxPositions);
    if (r.maxPositions < longest) throw new RangeError(`maxPositions must be >= ${longest} (the longest sequence evaluate may see), got ${r.maxPositions}`);
  }
  r.batch = A.int('batch', o.batch ?? LAB_DEFAULTS.batch, 1, L.batch);
  r.lr = A.num('lr', o.lr ?? LAB_DEFAULTS.lr, 0, 10);
  r.warmupSteps = A.int('warmupSteps', o.warmupSteps ?? LAB_DEFAULTS.warmupSteps, 0, 1e9);
  r.schedule = A.oneOf('schedule', o.schedule ?? LAB_DEFAULTS.schedule, Object.keys(SCHEDULES));
  r.weightDecay = A.num('weightDecay', o.weightDecay ?? LAB_DEFAULTS.weightDecay, 0, 10);
  r.beta1 = A.num('beta1', o.beta1 ?? LAB_DEFAULTS.beta1, 0, 0.999999);
  r.beta2 = A.num('beta2', o.beta2 ?? LAB_DEFAULTS.beta2, 0, 0.999999999);
  r.eps = A.num('eps', o.eps ?? LAB_DEFAULTS.eps, 1e-30, 1);
  r.clipNorm = A.num('clipNorm', o.clipNorm ?? LAB_DEFAULTS.clipNorm, 0, 1e9);
  if (o.fineTuneLength !== undefined) r.fineTuneLength = A.int('fineTuneLength', o.fineTuneLength, 1, r.maxEvalLength);
  r.seed = A.int('seed', o.seed ?? LAB_DEFAULTS.seed, 0, Number.MAX_SAFE_INTEGER);
  r.steps = A.int('steps', o.steps ?? LAB_DEFAULTS.steps, 0, L.stepsPerCall);
  if (r.schedule === 'cosine') r.totalSteps = A.int('totalSteps', o.totalSteps ?? r.steps, 1, 1e9);
  else if (o.totalSteps !== undefined) throw new RangeError(`totalSteps applies only to schedule "cosine"`);
  return Object.freeze(r);
}

function configArray(r) {
  return Float64Array.of(r.seed, TASKS.indexOf(r.task), r.k ?? 0, ENCODINGS.indexOf(r.encoding), STYLES[r.style ?? 'half'],
    r.base ?? 0, r.scaleBase ?? 0, r.vocab, r.dModel, r.heads, r.layers, r.dFF, r.maxPositions ?? 0, r.trainLength,
    r.maxEvalLength, r.batch, r.lr, r.warmupSteps, SCHEDULES[r.schedule], r.totalSteps ?? 0, r.weightDecay, r.beta1,
    r.beta2, r.eps, r.clipNorm, r.fineTuneLength ?? 0);
}

export function train(heap, opts) {
  const r = trainOptions(opts);
  const cfg = configArray(r);
  if (cfg.length !== CONFIG_FIELDS) throw new Error('posenc: lab config layout');
  const model = heap.scoped((h) => {
    const c = h.copyIn(cfg), bytes = h.alloc(Float64Array, 1), out = h.alloc(Int32Array, 1);
    heap.call('posenc_lab_model_bytes', c, bytes);
    heap.budget(new Float64Array(heap.memory.buffer, bytes, 1)[0]);
    heap.call('posenc_lab_create', c, out);
    return new Int32Array(heap.memory.buffer, out, 1)[0];
  });
  const run = new LabRun(heap, model, r);
  try {
    if (r.steps) run.step(r.steps);
  } catch (err) {
    run.free();
    throw err;
  }
  return run;
}

/** A trained (or training) model in the wasm heap. */
export class LabRun {
  #heap;
  #model;
  #loss = new Float32Array(0);
  #steps = 0;

  constructor(heap, model, options) {
    this.#heap = heap;
    this.#model = model;
    /** the resolved options (every default filled in) */
    this.options = options;
    this.layers = options.layers;
    this.heads = options.heads;
  }

  #live(method) {
    if (!this.#model) throw new TypeError(`posenc: LabRun.${method}: this run was freed`);
    this.#heap.usable();
    return this.#model;
  }

  /** Whether free() has run. */
  get freed() {
    return this.#model === 0;
  }

  /** The loss of every step so far (a copy; readable after free()). */
  get loss() {
    return this.#loss.slice(0, this.#steps);
  }

  /** Steps trained so far. */
  get steps() {
    return this.#steps;
  }

  /**
   * Trains n more steps (1..10000); returns their losses. Every step scores tokens: training
   * draws only task lengths that carry loss (k..trainLength for kback, 1..trainLength otherwise). With `{ length, scaling }` the steps
   * fine-tune at a longer task length: lengths drawn likewise up to length (default trainLength,
   * k..maxEvalLength for kback), RoPE scaling { type, factor } (factor default max(1, length / trainLength))
   * applied as evaluate applies it, batches of `fineTuneBatch(length)` sequences.
   */
  step(n, opts) {
    const model = this.#live('step');
    A.int('n', n, 1, LAB_LIMITS.stepsPerCall);
    const r = this.options;
    const o = opts === undefined ? {} : A.options('options', opts, STEP_KEYS, 'step');
    const length = o.length === undefined ? null : A.int('length', o.length, r.k ?? 1, r.maxEvalLength);
    const scaling = this.#scaling(o.scaling, 'scaling', 'step');
    const heap = this.#heap;
    const fresh = heap.scoped((h) => {
      const p = h.alloc(Float32Array, n);
      if (length === null && !scaling) heap.call('posenc_lab_train_steps', model, n, p);
      else {
        const len = length ?? r.trainLength;
        const factor = scaling ? scaling.factor ?? Math.max(1, len / r.trainLength) : 1;
        heap.call('posenc_lab_finetune_steps', model, n, len, scaling ? scaling.kind : 0, factor, p);
      }
      return h.copyOut(Float32Array, p, n);
    });
    if (this.#steps + n > this.#loss.length) {
      const grown = new Float32Array(Math.max(2 * this.#loss.length, this.#steps + n));
      grown.set(this.#loss.subarray(0, this.#steps));
      this.#loss = grown;
    }
    this.#loss.set(fresh, this.#steps);
    this.#steps += n;
    return fresh;
  }

  /** Sequences per fine-tuning batch at task length `length` (what the model's buffers hold, at most batch). */
  fineTuneBatch(length) {
    const model = this.#live('fineTuneBatch');
    const n = A.int('length', length, 1, this.options.maxEvalLength);
    const heap = this.#heap;
    return heap.scoped((h) => {
      const b = h.alloc(Int32Array, 1);
      heap.call('posenc_lab_finetune_batch', model, n, b);
      return h.copyOut(Int32Array, b, 1)[0];
    });
  }

  #scaling(o, name, method) {
    if (o === undefined) return null;
    const s = A.options(name, o, SCALING_KEYS, method);
    const type = A.oneOf(`${name}.type`, s.type, Object.keys(SCALINGS));
    const enc = this.options.encoding;
    if (enc !== 'rope' && enc !== 'xpos') throw new RangeError(`${name} applies only to encodings 'rope' and 'xpos'; this run's is ${JSON.stringify(enc)}`);
    const factor = s.factor === undefined ? undefined : A.num(`${name}.factor`, s.factor, 1, 1e6);
    return { kind: SCALINGS[type], factor };
  }

  /**
   * Accuracy and loss on `sequences` fresh sequences at each task length in `lengths`
   * (1..maxEvalLength), from `seed` (default 1), optionally with RoPE scaling { type: 'pi' |
   * 'ntk' | 'yarn', factor } (factor default: max(1, length / trainLength) at each length).
   */
  evaluate(opts) {
    const model = this.#live('evaluate');
    const o = A.options('options', opts, EVAL_KEYS, 'evaluate');
    const r = this.options;
    const lengths = o.lengths ?? [r.trainLength];
    if (!Array.isArray(lengths) && !ArrayBuffer.isView(lengths)) throw new TypeError(`lengths must be an array of integers, got ${A.show(lengths)}`);
    if (lengths.length < 1 || lengths.length > 1024) throw new RangeError(`lengths must have 1..1024 entries, got ${lengths.length}`);
    for (let i = 0; i < lengths.length; i++) A.int(`lengths[${i}]`, lengths[i], 1, r.maxEvalLength);
    const sequences = A.int('sequences', o.sequences ?? 256, 1, LAB_LIMITS.sequences);
    const seed = A.int('seed', o.seed ?? 1, 0, Number.MAX_SAFE_INTEGER);
    const scaling = this.#scaling(o.scaling, 'scaling', 'evaluate');
    const heap = this.#heap;
    return Array.from(lengths, (n) => {
      const T = sequenceLength(r.task, n);
      const factor = scaling ? scaling.factor ?? Math.max(1, n / r.trainLength) : 1;
      return heap.scoped((h) => {
        const sum = h.alloc(Float64Array, 3), acc = h.alloc(Float64Array, T), loss = h.alloc(Float64Array, T);
        heap.call('posenc_lab_evaluate', model, n, sequences, seed, scaling ? scaling.kind : 0, factor, sum, acc, loss);
        const s = h.copyOut(Float64Array, sum, 3);
        const out = { length: n, tokenAccuracy: s[0], sequenceAccuracy: s[1], loss: s[2],
          positionAccuracy: h.copyOut(Float64Array, acc, T), positionLoss: h.copyOut(Float64Array, loss, T) };
        if (scaling) out.factor = factor;
        return out;
      });
    });
  }

  /**
   * Attention weights of every layer and head for one sequence: `input` is its tokens (an array,
   * or { tokens }), or { length, seed } for an example of the task at task length `length`
   * (defaults trainLength, 1); scaling as in evaluate (factor default max(1, length /
   * trainLength), or for given tokens max(1, tokens / the longest training sequence's)). Returns { tokens,
   * targets (for an example), weights: Float32Array [layers][heads][T][T] (row = query), layers,
   * heads, length: T (tokens) }.
   */
  attention(input) {
    const model = this.#live('attention');
    const r = this.options;
    const o = this.#input(input, ATTENTION_KEYS, 'attention');
    const { tokens, targets, n } = o;
    const scaling = this.#scaling(o.scaling, 'scaling', 'attention');
    const T = tokens.length;
    const factor = scaling ? scaling.factor ?? Math.max(1, (n ?? T) / (n === undefined ? sequenceLength(r.task, r.trainLength) : r.trainLength)) : 1;
    const count = A.elements('attention weights', r.layers, r.heads, T, T);
    const heap = this.#heap;
    const weights = heap.scoped((h) => {
      const tk = h.copyIn(tokens), w = h.alloc(Float32Array, count);
      heap.call('posenc_lab_attention', model, tk, T, scaling ? scaling.kind : 0, factor, w);
      return h.copyOut(Float32Array, w, count);
    });
    const out = { tokens, weights, layers: r.layers, heads: r.heads, length: T };
    if (targets) out.targets = targets;
    if (scaling) out.factor = factor;
    return out;
  }

  /**
   * The residual stream for one sequence (input as in attention, without scaling): { tokens,
   * targets (for an example), hidden: Float32Array [layers + 1][T][dModel] (the embedding with
   * any added position encoding, then each layer's output), layers, dModel, length: T }.
   */
  hidden(input) {
    const model = this.#live('hidden');
    const r = this.options;
    const { tokens, targets } = this.#input(input, HIDDEN_KEYS, 'hidden');
    const T = tokens.length;
    const count = A.elements('hidden states', r.layers + 1, T, r.dModel);
    const heap = this.#heap;
    const hidden = heap.scoped((h) => {
      const tk = h.copyIn(tokens), w = h.alloc(Float32Array, count);
      heap.call('posenc_lab_hidden', model, tk, T, w);
      return h.copyOut(Float32Array, w, count);
    });
    const out = { tokens, hidden, layers: r.layers, dModel: r.dModel, length: T };
    if (targets) out.targets = targets;
    return out;
  }

  /**
   * Copies of the model's parameters by group, in the flat vector's order (c/lab/lab.h): e.g.
   * tok_emb [vocab][dModel], pos_emb [maxPositions][dModel] (learned), t5_bias [32][heads],
   * wqkv.0 [dModel][3 dModel]; each a Float32Array.
   */
  parameters() {
    const model = this.#live('parameters');
    const heap = this.#heap;
    const fn = heap.fn;
    const groups = fn.posenc_lab_n_groups(model), base = fn.posenc_lab_params(model);
    const out = {};
    heap.scoped((h) => {
      const name = h.alloc(Int32Array, 1), off = h.alloc(Int32Array, 1), size = h.alloc(Int32Array, 1), decay = h.alloc(Int32Array, 1);
      for (let g = 0; g < groups; g++) {
        heap.call('posenc_lab_group', model, g, name, off, size, decay);
        const i32 = new Int32Array(heap.memory.buffer);
        const bytes = new Uint8Array(heap.memory.buffer, i32[name >> 2]);
        const key = String.fromCharCode(...bytes.subarray(0, bytes.indexOf(0)));
        out[key] = h.copyOut(Float32Array, base + 4 * i32[off >> 2], i32[size >> 2]);
      }
    });
    return out;
  }

  /**
   * The run as a model file: { safetensors: Uint8Array, config } where config is the config.json
   * that goes with it (model_type "posenc_lab"), for readSafetensors + readLayer + layerAttention
   * like any model. Encoding 'rope' only. Names and layout (float32, Linear weights [out][in] as
   * transformers stores them; README "Inside a real model"): model.embed_tokens.weight [vocab][D];
   * per layer l, model.layers.l.input_layernorm.weight/.bias (LayerNorm), self_attn.{q,k,v,o}_proj
   * .weight/.bias, post_attention_layernorm.weight/.bias, mlp.up_proj.weight [dFF][D]/.bias,
   * mlp.down_proj.weight [D][dFF]/.bias (exact-erf GELU between); model.norm.weight/.bias,
   * lm_head.weight [vocab][D]/.bias. q and k rows are in the half pair layout (pair i = rows
   * h·hd + i and h·hd + i + hd/2); a run trained interleaved has them permuted so, which changes
   * no score.
   */
  exportSafetensors() {
    this.#live('exportSafetensors');
    const r = this.options;
    if (r.encoding !== 'rope') throw new RangeError(`exportSafetensors: only runs with encoding 'rope' can be written as a RoPE model; this run's is ${JSON.stringify(r.encoding)}`);
    const P = this.parameters();
    const D = r.dModel, H = r.heads, hd = D / H, F = r.dFF, V = r.vocab;
    // y = x W (W [in][out]) -> nn.Linear's [out][in]; `rows` picks the output columns in order
    const linear = (W, inDim, outDim, rows = null, col0 = 0) => {
      const n = rows ? rows.length : outDim, out = new Float32Array(n * inDim);
      for (let o = 0; o < n; o++) {
        const c = col0 + (rows ? rows[o] : o);
        for (let j = 0; j < inDim; j++) out[o * inDim + j] = W[j * outDim + c];
      }
      return out;
    };
    // half layout: pair i of each head is its rows (i, i + hd/2); an interleaved run's pair i is (2i, 2i + 1)
    const order = Array.from({ length: D }, (_, o) => {
      const h = Math.floor(o / hd), d = o % hd;
      return r.style === 'half' ? o : h * hd + (d < hd / 2 ? 2 * d : 2 * (d - hd / 2) + 1);
    });
    const t = {};
    const put = (name, shape, data) => (t[name] = { dtype: 'F32', shape, data });
    put('model.embed_tokens.weight', [V, D], P.tok_emb);
    for (let l = 0; l < r.layers; l++) {
      const p = `model.layers.${l}.`, wqkv = P[`wqkv.${l}`], b = P[`bqkv.${l}`];
      put(`${p}input_layernorm.weight`, [D], P[`ln1_g.${l}`]);
      put(`${p}input_layernorm.bias`, [D], P[`ln1_b.${l}`]);
      ['q', 'k', 'v'].forEach((n, i) => {
        const rows = n === 'v' ? null : order;
        put(`${p}self_attn.${n}_proj.weight`, [D, D], linear(wqkv, D, 3 * D, rows ?? Array.from({ length: D }, (_, o) => o), i * D));
        put(`${p}self_attn.${n}_proj.bias`, [D], Float32Array.from({ length: D }, (_, o) => b[i * D + (rows ? rows[o] : o)]));
      });
      put(`${p}self_attn.o_proj.weight`, [D, D], linear(P[`wo.${l}`], D, D));
      put(`${p}self_attn.o_proj.bias`, [D], P[`bo.${l}`]);
      put(`${p}post_attention_layernorm.weight`, [D], P[`ln2_g.${l}`]);
      put(`${p}post_attention_layernorm.bias`, [D], P[`ln2_b.${l}`]);
      put(`${p}mlp.up_proj.weight`, [F, D], linear(P[`w1.${l}`], D, F));
      put(`${p}mlp.up_proj.bias`, [F], P[`b1.${l}`]);
      put(`${p}mlp.down_proj.weight`, [D, F], linear(P[`w2.${l}`], F, D));
      put(`${p}mlp.down_proj.bias`, [D], P[`b2.${l}`]);
    }
    put('model.norm.weight', [D], P.lnf_g);
    put('model.norm.bias', [D], P.lnf_b);
    put('lm_head.weight', [V, D], linear(P.wh, D, V));
    put('lm_head.bias', [V], P.bh);
    const config = {
      architectures: ['PosencLabForCausalLM'], model_type: 'posenc_lab', torch_dtype: 'float32',
      vocab_size: V, hidden_size: D, intermediate_size: F, num_hidden_layers: r.layers, num_attention_heads: H,
      num_key_value_heads: H, head_dim: hd, hidden_act: 'gelu', layer_norm_eps: 1e-5, attention_bias: true,
      rope_theta: r.base, max_position_embeddings: sequenceLength(r.task, r.trainLength), tie_word_embeddings: false,
      posenc_lab: { task: r.task, ...(r.k === undefined ? {} : { k: r.k }), trainLength: r.trainLength, trainedStyle: r.style, steps: this.#steps, seed: r.seed },
    };
    return { safetensors: writeSafetensors(t, { format: 'pt', source: 'posenc lab' }), config };
  }

  /** Checks a sequence input of attention or hidden: its tokens (an array or { tokens }), or { length, seed } for an example. */
  #input(input, keys, method) {
    const r = this.options;
    const o = Array.isArray(input) || ArrayBuffer.isView(input) ? { tokens: input } : A.options('input', input, keys, method);
    const longest = sequenceLength(r.task, Math.max(r.trainLength, r.maxEvalLength));
    if (o.tokens !== undefined) {
      if (o.length !== undefined || o.seed !== undefined) throw new TypeError(`${method} takes tokens, or length and seed, not both`);
      const tokens = A.numbers('tokens', ArrayBuffer.isView(o.tokens) ? Array.from(o.tokens) : o.tokens, Int32Array, { min: 0, max: r.vocab - 1 });
      tokens.forEach((t, i) => {
        if (!Number.isInteger(Number(o.tokens[i]))) throw new RangeError(`tokens[${i}] must be an integer, got ${o.tokens[i]}`);
      });
      if (tokens.length > longest) throw new RangeError(`tokens must have at most ${longest} entries (this run's longest sequence), got ${tokens.length}`);
      return { tokens, scaling: o.scaling };
    }
    const n = A.int('length', o.length ?? r.trainLength, 1, r.maxEvalLength);
    const seed = A.int('seed', o.seed ?? 1, 0, Number.MAX_SAFE_INTEGER);
    const T = sequenceLength(r.task, n);
    const heap = this.#heap, model = this.#model;
    const [tokens, targets] = heap.scoped((h) => {
      const tk = h.alloc(Int32Array, T), tg = h.alloc(Int32Array, T);
      heap.call('posenc_lab_example', model, n, seed, tk, tg);
      return [h.copyOut(Int32Array, tk, T), h.copyOut(Int32Array, tg, T)];
    });
    return { tokens, targets, n, scaling: o.scaling };
  }

  /** Returns the model's memory to the heap; the run then throws on use. Twice is harmless. */
  free() {
    if (!this.#model) return;
    if (!this.#heap.trapped) this.#heap.fn.posenc_lab_free(this.#model);
    this.#model = 0;
  }
}
