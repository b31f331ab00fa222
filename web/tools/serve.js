// serve.js: a zero-dependency static server for web/ on 127.0.0.1.
// `node web/tools/serve.js` (npm start) prints the URL; tests import serve() and use port 0.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { basename, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.wasm', '.json', '.svg']);
const gzipped = new Map(); // path -> [mtime, bytes]: each file compressed once while unchanged

async function handle(root, req, res, gzip) {
  const url = new URL(req.url, 'http://localhost');
  let path;
  try {
    path = normalize(join(root, decodeURIComponent(url.pathname)));
  } catch {
    path = null;
  }
  if (!path || (path !== root.replace(/[\\/]$/, '') && !path.startsWith(root.endsWith(sep) ? root : root + sep))) {
    res.writeHead(403).end('forbidden');
    return;
  }
  try {
    if ((await stat(path)).isDirectory()) path = join(path, 'index.html');
    let body = await readFile(path);
    const headers = {
      'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    };
    // embed.html is made to be framed by any page; a <meta> policy cannot say so, a header can.
    // (Its script, style and connect rules are in its own <meta> policy, as on index.html.)
    if (basename(path) === 'embed.html') headers['Content-Security-Policy'] = 'frame-ancestors *';
    // the light embed (build/module/) is a module script with chunks and wasm: a post on another
    // site loads them only with CORS, which public static files can always allow
    if (url.pathname.startsWith('/build/')) headers['Access-Control-Allow-Origin'] = '*';
    headers['Accept-Ranges'] = 'bytes';
    // one byte range (bytes=a-b, a-, -n): how a safetensors file is read a tensor at a time
    const range = req.headers.range;
    if (range !== undefined) {
      const m = /^bytes=(\d*)-(\d*)$/.exec(range);
      let a = m && m[1] !== '' ? Number(m[1]) : null, b = m && m[2] !== '' ? Number(m[2]) : null;
      if (m && a === null && b !== null) (a = Math.max(0, body.length - b)), (b = body.length - 1);
      if (!m || a === null || a >= body.length || (b !== null && b < a)) {
        res.writeHead(416, { ...headers, 'Content-Range': `bytes */${body.length}` }).end();
        return;
      }
      b = Math.min(b ?? body.length - 1, body.length - 1);
      res.writeHead(206, { ...headers, 'Content-Range': `bytes ${a}-${b}/${body.length}`, 'Content-Length': b - a + 1 });
      res.end(req.method === 'HEAD' ? undefined : body.subarray(a, b + 1));
      return;
    }
    if (gzip && COMPRESSIBLE.has(extname(path)) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      const mtime = (await stat(path)).mtimeMs;
      const cached = gzipped.get(path);
      if (!cached || cached[0] !== mtime) gzipped.set(path, [mtime, gzipSync(body, { level: 9 })]);
      body = gzipped.get(path)[1];
      headers['Content-Encoding'] = 'gzip';
      headers.Vary = 'Accept-Encoding';
    }
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
  }
}

/** Starts the server (gzip: compress what the browser accepts, as a web host would); resolves to { url, close }. */
export function serve({ port = 0, root = ROOT, gzip = false } = {}) {
  const server = createServer((req, res) => {
    handle(root, req, res, gzip).catch(() => res.writeHead(500).end());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: p } = server.address();
      resolve({ url: `http://127.0.0.1:${p}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const wanted = Number(process.env.PORT ?? 8080);
  const { url } = await serve({ port: wanted }).catch((e) => {
    if (e.code !== 'EADDRINUSE') throw e;
    console.error(`port ${wanted} is busy; using a free one`);
    return serve({ port: 0 });
  });
  console.log(`posenc is serving web/ at ${url}  (Ctrl+C to stop)`);
}
