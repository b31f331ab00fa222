// results.js: the lab's default run as web/lab/results.json holds it (made by `npm run lab`),
// fetched beside this module when a lab chart first asks for it, once for every chart of the
// page: 286 KB (166 KB gzipped) that the page's script does not carry, so that a reader who
// never reaches the lab does not wait for it. The single-file builds, which cannot fetch, and the
// light embed, which loads its pieces as chunks, put their own module here (web/tools/bundle.js).
let loaded = null;

/** The results, parsed: one promise for every caller. A fetch that failed is tried again at the next call. */
export function labResults() {
  loaded ??= fetchResults().catch((err) => {
    loaded = null;
    throw err;
  });
  return loaded;
}

async function fetchResults() {
  const res = await fetch(new URL('results.json', import.meta.url)).catch((err) => {
    throw new Error(`results.json: ${err.message}`);
  });
  if (!res.ok) throw new Error(`results.json: HTTP ${res.status}`);
  return res.json();
}
