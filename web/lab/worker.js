// worker.js: the lab's training off the page's thread. Message in: { task, steps, seed }; out:
// { type: 'progress', … } after every slice of steps, then { type: 'done', runs }, or
// { type: 'error', message }. The page cancels by terminating the worker.
import { loadPosenc } from '../lib/posenc.js';
import { trainAll } from './run.js';

let pe = null;
self.onmessage = async (e) => {
  try {
    pe ??= await loadPosenc();
    const runs = await trainAll(pe, e.data, {
      pause: ({ loss, ...p }) => self.postMessage({ type: 'progress', ...p, lastLoss: loss[loss.length - 1] }),
    });
    self.postMessage({ type: 'done', runs });
  } catch (err) {
    self.postMessage({ type: 'error', message: `${err.name}: ${err.message}` });
  }
};
