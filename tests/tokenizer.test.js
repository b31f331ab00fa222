// The tokenizer posenc relies on for "Inside a real model" (@huggingface/tokenizers, pure JS, no
// dependencies) runs offline on a tokenizer.json built here: a tiny byte-level BPE in the layout
// of SmolLM2's (GPT-2 style), and the same vocabulary behind Qwen2's pre-tokenizer regex (the part
// that differs from Oniguruma's in JS). The ids are worked out by hand from the merges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer } from '@huggingface/tokenizers';

const TOKENS = ['t', 'h', 'e', 'Ġ', 'c', 'a', 's', 'o', 'n', 'm', 'at', 'th', 'the', 'Ġc', 'Ġcat', 'Ġthe', 'Ġs', 'Ġsat', '2', '0', '6', '20'];
const vocab = Object.fromEntries(TOKENS.map((t, i) => [t, i]));
const EOS = TOKENS.length;
// ranks: 'a t' first, so "Ġmat" ends as Ġ m at
const merges = [['a', 't'], ['t', 'h'], ['th', 'e'], ['Ġ', 'c'], ['Ġc', 'at'], ['Ġ', 'the'], ['Ġ', 's'], ['Ġs', 'at'], ['2', '0']];

function tokenizerJson(preTokenizer) {
  return {
    version: '1.0', truncation: null, padding: null,
    added_tokens: [{ id: EOS, content: '<|endoftext|>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
    normalizer: null,
    pre_tokenizer: preTokenizer,
    post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, ignore_merges: false, vocab, merges },
  };
}
const config = { tokenizer_class: 'GPT2Tokenizer', add_bos_token: false, eos_token: '<|endoftext|>' };
const id = (...t) => t.map((x) => vocab[x]);

test('a byte-level BPE tokenizer.json (SmolLM2\'s layout) encodes and decodes offline, as the merges say', () => {
  const tk = new Tokenizer(tokenizerJson({ type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true }), config);
  const text = 'the cat sat on the mat<|endoftext|>';
  const e = tk.encode(text);
  assert.deepEqual(e.ids, [...id('the', 'Ġcat', 'Ġsat', 'Ġ', 'o', 'n', 'Ġthe', 'Ġ', 'm', 'at'), EOS]);
  assert.deepEqual(e.tokens.slice(0, 3), ['the', 'Ġcat', 'Ġsat']);
  assert.equal(tk.decode(e.ids), text);
  // GPT-2's regex keeps " 2026" as one piece, inside which "2 0" merges
  assert.deepEqual(tk.encode(' 2026').ids, id('Ġ', '20', '2', '6'));
});

test('Qwen2\'s pre-tokenizer (a Split on its regex, then byte-level) splits digits one by one: no merge across them', () => {
  const QWEN2_SPLIT = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
  const tk = new Tokenizer(tokenizerJson({
    type: 'Sequence',
    pretokenizers: [
      { type: 'Split', pattern: { Regex: QWEN2_SPLIT }, behavior: 'Isolated', invert: false },
      { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
    ],
  }), config);
  assert.deepEqual(tk.encode('the cat 2026').ids, [...id('the', 'Ġcat', 'Ġ'), ...id('2', '0', '2', '6')]);
  assert.equal(tk.decode(tk.encode('the cat 2026').ids), 'the cat 2026');
});
