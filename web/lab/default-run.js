// default-run.js: the options of the lab's default run, what the page shows before the reader
// changes anything. `npm run lab` (web/tools/lab-results.js) trains it into web/lab/results.json,
// which stores them as its `options` (tests/lab-results.test.js holds the two equal); the lab's
// charts read their defaults here, without waiting for that file.
export const DEFAULT_RUN = Object.freeze({
  tasks: ['kback', 'copy'],
  encodings: [
    { encoding: 'none' }, { encoding: 'learned' }, { encoding: 'sinusoidal' }, { encoding: 'rope', style: 'half' },
    { encoding: 'alibi' }, { encoding: 't5' }, { encoding: 'xpos', style: 'half' },
  ],
  scalings: ['pi', 'ntk', 'yarn'], // evaluated on the rope model at each multiple, factor = the multiple
  train: { trainLength: 16, steps: 400, seed: 1 }, // every other option: pe.train's default
  multiples: [1, 2, 4, 8],
  evaluate: { sequences: 128, seed: 1 },
  attention: { multiples: [1, 4], seed: 1 },
  // the rope model fine-tuned at `multiple` x the training length with each scaling at factor
  // `multiple`, then evaluated with that scaling at every multiple (the same model retrained
  // from the same seed for each: training is deterministic)
  fineTune: { multiple: 4, steps: 100 },
  seeds: [2, 3], // more seeds of every model (RoPE's fine-tunes too): the evaluation summaries
});
