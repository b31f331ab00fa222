// hub.js: what the page's charts need of the Hugging Face Hub, read in the reader's browser with
// no credentials: the address of a model's files, the check of a model id, and the reasons a
// request fails (gated, missing, offline), each as a code the chart turns into its own sentence.

/** The Hub's address for a file of a model: resolve/ follows to its storage hosts. */
export const HUB = 'https://huggingface.co';
/** owner/name, as the Hub spells model ids (no path tricks: one slash, no '..' start). */
export const HUB_ID = /^[A-Za-z0-9][\w.-]{0,95}\/[A-Za-z0-9][\w.-]{0,95}$/;

/** The address of `file` of model `id` on its main branch. */
export const hubFile = (id, file) => `${HUB}/${id}/resolve/main/${file.split('/').map(encodeURIComponent).join('/')}`;

/**
 * An Error of a Hub request: code 'bad-id' | 'gated' (401/403) | 'missing' (404) | 'offline'
 * (no answer at all) | 'http' (any other status), with status when the Hub answered.
 */
export class HubError extends Error {
  constructor(code, message, status = null) {
    super(message);
    this.name = 'HubError';
    this.code = code;
    this.status = status;
  }
}

/** The HubError a status means, or null for a 2xx. */
export function hubFailure(status, what) {
  if (status >= 200 && status < 300) return null;
  if (status === 401 || status === 403) return new HubError('gated', `${what}: HTTP ${status} (gated or private)`, status);
  if (status === 404) return new HubError('missing', `${what}: HTTP 404`, status);
  return new HubError('http', `${what}: HTTP ${status}`, status);
}

/** fetch without cookies or referrer; a request that gets no answer is a HubError 'offline'. */
async function get(url, fetchFn) {
  try {
    return await fetchFn(url, { credentials: 'omit', referrerPolicy: 'no-referrer' });
  } catch (cause) {
    throw Object.assign(new HubError('offline', `${url}: no answer (${cause?.message ?? cause})`), { cause });
  }
}

/** Checks a model id; throws HubError 'bad-id'. */
export function checkHubId(id) {
  if (typeof id !== 'string' || !HUB_ID.test(id)) throw new HubError('bad-id', `not a Hub model id (owner/name): ${JSON.stringify(id)}`);
  return id;
}

/** A JSON file of a model (config.json, ...), parsed. */
export async function hubJson(id, file, fetchFn = globalThis.fetch) {
  const res = await get(hubFile(checkHubId(id), file), fetchFn);
  const fail = hubFailure(res.status, `${id}/${file}`);
  if (fail) throw fail;
  return res.json();
}

/**
 * The files of a model whose names end in `ext` (e.g. '.gguf'), from the Hub's model API
 * (siblings[].rfilename), sorted by name.
 */
export async function hubFiles(id, ext, fetchFn = globalThis.fetch) {
  const res = await get(`${HUB}/api/models/${checkHubId(id)}`, fetchFn);
  const fail = hubFailure(res.status, `${id} (model API)`);
  if (fail) throw fail;
  const info = await res.json();
  const names = Array.isArray(info?.siblings) ? info.siblings.map((s) => s?.rfilename).filter((n) => typeof n === 'string') : [];
  return names.filter((n) => n.toLowerCase().endsWith(ext)).sort();
}

/**
 * A Hub file's address as a reader copies it (https://huggingface.co/owner/name/blob/main/x.gguf,
 * .../resolve/<rev>/x.gguf, hf.co likewise) → { id, file }, or null for anything else.
 */
export function parseHubUrl(text) {
  let u;
  try {
    u = new URL(text);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' || !['huggingface.co', 'hf.co', 'www.huggingface.co'].includes(u.hostname)) return null;
  const m = /^\/([^/]+\/[^/]+)\/(?:blob|resolve)\/main\/(.+)$/.exec(u.pathname);
  if (!m || !HUB_ID.test(m[1])) return null;
  const file = m[2].split('/').map(decodeURIComponent).join('/');
  if (file.split('/').some((p) => p === '' || p === '.' || p === '..')) return null;
  return { id: m[1], file };
}
