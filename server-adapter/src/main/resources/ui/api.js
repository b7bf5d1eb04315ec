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

export const api = {
  services: () => call('GET', `${org()}/services`).then((j) => j.result),
  dashboards: (sid) => call('GET', `${svc(sid)}/clickstack/dashboards`).then((j) => j.result),
  dashboard: (sid, id) =>
    call('GET', `${svc(sid)}/clickstack/dashboards/${encodeURIComponent(id)}`).then((j) => j.result),
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
  search: (sid, query, signal) =>
    call('POST', '/api/v2/search', { body: query, headers: scoped(sid), signal }).then((j) => j.data),
};
