// lab-pool-worker.js: web/lab/worker.js for Node's worker_threads (the bench's pool of the lab's
// runs): the same trainer, its messages through parentPort.
import { parentPort } from 'node:worker_threads';
import { loadPosenc } from '../../web/lib/posenc.js';
import { trainer } from '../../web/lab/run.js';

parentPort.on('message', trainer(loadPosenc, (m) => parentPort.postMessage(m)));
