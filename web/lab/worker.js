// worker.js: one of the lab's training workers (pool.js starts them). Message in: trainAll's
// settings (run.js), one encoding a message; out: { type: 'progress', … } after every slice of
// steps, then { type: 'done', runs }, or { type: 'error', message }. The page cancels by
// terminating the worker.
import { loadPosenc } from '../lib/posenc.js';
import { trainer } from './run.js';

const train = trainer(loadPosenc, (m) => self.postMessage(m));
self.onmessage = (e) => train(e.data);
