// Every call the UI makes, through the server's public APIs with the signed-in API key (HTTP
// Basic). The key id and secret live in sessionStorage only: they are gone when the tab closes.
const KEY = 'chartwell.credentials';

/** An answer other than 2xx, with the server's error text. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** @returns {{keyId: string, secret: string, orgId: string} | null} */
export function credentials() {
  try {
    return JSON.parse(sessionStorage.getItem(KEY));
  } catch {
    return null;
  }
}

export function signOut() {
  sessionStorage.removeItem(KEY);
}

function basic(keyId, secret) {
  const bytes = new TextEncoder().encode(`${keyId}:${secret}`);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return 'Basic ' + btoa(bin);
}

async function call(method, path, { body, headers = {}, auth, signal } = {}) {
  const c = auth || credentials();
  if (!c) throw new ApiError(401, 'not signed in');
  const h = { Authorization: basic(c.keyId, c.secret), Accept: 'application/json', ...headers };
  if (body !== undefined) h['Content-Type'] = 'application/json';
  // credentials 'omit': a 401 must not make the browser show its own password dialog.
  const r = await fetch(path, {
    method, headers: h, credentials: 'omit', signal,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!r.ok) {
    const message = (json && (json.error || json.message)) || `HTTP ${r.status}`;
    throw new ApiError(r.status, message);
  }
  return json;
}

/**
 * Checks a key and keeps it for the session.
 * @returns {Promise<object>} the key's organization
 */
export async function signIn(keyId, secret) {
  const answer = await call('GET', '/v1/organizations', { auth: { keyId, secret } });
  const org = answer.result[0];
  sessionStorage.setItem(KEY, JSON.stringify({ keyId, secret, orgId: org.id }));
  return org;
}

const org = () => `/v1/organizations/${encodeURIComponent(credentials().orgId)}`;
const svc = (id) => `${org()}/services/${encodeURIComponent(id)}`;
const scoped = (serviceId) => ({ 'X-Service-Id': serviceId });

/**
 * A streamed NDJSON answer read with fetch, so that the Authorization header is sent and no
 * secret goes into a URL: yields each line's object until the server ends the stream.
 */
async function* lines(path, body, headers, signal) {
  const c = credentials();
  if (!c) throw new ApiError(401, 'not signed in');
  const r = await fetch(path, {
    method: 'POST', credentials: 'omit', signal, body: JSON.stringify(body),
    headers: { Authorization: basic(c.keyId, c.secret), 'Content-Type': 'application/json', ...headers },
  });
  if (!r.ok) {
    let message = `HTTP ${r.status}`;
    try {
      const j = await r.json();
      message = j.error || j.message || message;
    } catch { /* not JSON */ }
    throw new ApiError(r.status, message);
  }
  const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    rest += value;
    let nl;
    while ((nl = rest.indexOf('\n')) >= 0) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (line.trim()) yield JSON.parse(line);
    }
  }
}

export const api = {
  services: () => call('GET', `${org()}/services`).then((j) => j.result),
  dashboards: (sid) => call('GET', `${svc(sid)}/clickstack/dashboards`).then((j) => j.result),
  // One dashboard through HyperDX's API: the only one whose document has its variables.
  dashboardV2: (sid, id) =>
    call('GET', `/api/v2/dashboards/${encodeURIComponent(id)}`, { headers: scoped(sid) }).then((j) => j.data),
  sources: (sid) => call('GET', `${svc(sid)}/clickstack/sources`).then((j) => j.result),
  table: (sid, db, table) =>
    call('GET', `/api/v2/tables/${encodeURIComponent(db)}/${encodeURIComponent(table)}`, {
      headers: scoped(sid),
    }).then((j) => j.data),
  chart: (sid, query, signal) =>
    call('POST', '/api/v2/charts/series', { body: query, headers: scoped(sid), signal }).then((j) => j.data),
  trace: (sid, sourceId, traceId, signal) =>
    call('GET', `/api/v2/traces/${encodeURIComponent(traceId)}?sourceId=${encodeURIComponent(sourceId)}`, {
      headers: scoped(sid), signal,
    }).then((j) => j.data),
  facets: (sid, query, signal) =>
    call('POST', '/api/v2/facets', { body: query, headers: scoped(sid), signal }).then((j) => j.data),
  patterns: (sid, query, signal) =>
    call('POST', '/api/v2/patterns', { body: query, headers: scoped(sid), signal }).then((j) => j.data),
  surrounding: (sid, query, signal) =>
    call('POST', '/api/v2/surrounding', { body: query, headers: scoped(sid), signal }).then((j) => j.data),
  tail: (sid, query, signal) => lines('/api/v2/tail', query, scoped(sid), signal),
  search: (sid, query, signal) =>
    call('POST', '/api/v2/search', { body: query, headers: scoped(sid), signal }).then((j) => j.data),
};
