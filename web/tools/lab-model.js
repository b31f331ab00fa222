// lab-model.js: writes web/build/lab-model/ — the lab's default RoPE run (the k-back task, 400
// steps, seed 1, trained at 16 tokens), exported as a model in transformers' layout: model.safetensors,
// config.json, and a tokenizer.json of its own. "Inside a real model" opens it when no other model
// is loaded, so the section works offline. build.sh runs this; the files are generated, not kept.
import { mkdir, writeFile, rename } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { loadPosenc } from '../lib/posenc.js';

const OUT = fileURLToPath(new URL('../build/lab-model/', import.meta.url));

/**
 * The lab's 16 symbols as English words (the last one stands for any other word), and its two
 * special tokens: a word-level tokenizer.json that @huggingface/tokenizers reads (WordPiece with
 * no sub-word pieces: one word, one token).
 */
export const LAB_WORDS = ['the', 'dog', 'bites', 'man', 'cat', 'sees', 'a', 'bird', 'and', 'then', 'back', 'big', 'small', 'runs', 'eats', '[UNK]'];

export function labTokenizer() {
  const vocab = Object.fromEntries([...LAB_WORDS, '<bos>', '<sep>'].map((w, i) => [w, i]));
  const special = (content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: '1.0', truncation: null, padding: null,
    added_tokens: [special('[UNK]', 15), special('<bos>', 16), special('<sep>', 17)],
    normalizer: { type: 'Lowercase' },
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: null,
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}

export async function writeLabModel(dir = OUT) {
  const pe = await loadPosenc();
  const run = pe.train({ encoding: 'rope', style: 'half', task: 'kback', steps: 400, seed: 1 });
  try {
    const { safetensors, config } = run.exportSafetensors();
    await mkdir(dir, { recursive: true });
    const put = async (name, data) => {
      await writeFile(`${dir}.${name}.tmp`, data);
      await rename(`${dir}.${name}.tmp`, dir + name);
    };
    await put('config.json', JSON.stringify(config, null, 2) + '\n');
    await put('tokenizer.json', JSON.stringify(labTokenizer()) + '\n');
    await put('tokenizer_config.json', JSON.stringify({ tokenizer_class: 'PreTrainedTokenizerFast', unk_token: '[UNK]', bos_token: '<bos>', model_max_length: 16 }) + '\n');
    await put('model.safetensors', safetensors);
    return { bytes: safetensors.length, config };
  } finally {
    run.free();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { bytes } = await writeLabModel();
  console.error(`lab-model.js: wrote web/build/lab-model/ (model.safetensors ${bytes} B)`);
}
