// The UI's shell: sign-in, the service picker, navigation between the dashboards and the
// explorer (history API; every view has a bookmarkable path), and errors no view caught.
import { api, credentials, signIn, signOut, ApiError } from './api.js';
import { esc } from './format.js';
import { dashboardList, dashboardView } from './dashboard.js';
import { explorer } from './explorer.js';
import { traceView } from './trace.js';

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const slot = document.getElementById('service-slot');
const signOutButton = document.getElementById('sign-out');
const status = document.getElementById('status');
const SERVICE_KEY = 'chartwell.service';

let current = null; // the view's AbortController
let services = null;
const sourceCache = new Map();

function sources(sid) {
  if (!sourceCache.has(sid)) {
    sourceCache.set(sid, api.sources(sid).catch((e) => {
      sourceCache.delete(sid);
      throw e;
    }));
  }
  return sourceCache.get(sid);
}

export function navigate(path) {
  history.pushState(null, '', path);
  render();
}

function showSignIn(message) {
  nav.hidden = true;
  signOutButton.hidden = true;
  slot.innerHTML = '';
  document.title = 'Sign in · Chartwell';
  main.innerHTML = `<div class="card sign-in">
    <h1>Sign in</h1>
    <p class="hint">Use an API key of your organization (its key id and secret). They stay in this browser tab only.</p>
    <form novalidate>
      <label for="key-id">Key ID</label>
      <input id="key-id" name="keyId" type="text" autocomplete="username" required>
      <label for="key-secret">Key secret</label>
      <input id="key-secret" name="keySecret" type="password" autocomplete="current-password" required>
      <div class="sign-in-error" aria-live="assertive">${message ? `<p class="error" role="alert">${esc(message)}</p>` : ''}</div>
      <button type="submit">Sign in</button>
    </form></div>`;
  const form = main.querySelector('form');
  main.querySelector('#key-id').focus();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const keyId = form.keyId.value.trim();
    const secret = form.keySecret.value;
    const out = main.querySelector('.sign-in-error');
    if (!keyId || !secret) {
      out.innerHTML = '<p class="error" role="alert">Enter the key id and its secret.</p>';
      return;
    }
    form.querySelector('button').disabled = true;
    try {
      await signIn(keyId, secret);
      services = null;
      const here = location.pathname === '/' ? '/dashboards' : location.pathname + location.search;
      navigate(here);
    } catch (err) {
      form.querySelector('button').disabled = false;
      const text = err instanceof ApiError && err.status === 401 ? 'The key id or secret is wrong, or the key is disabled or expired.' : err.message;
      out.innerHTML = `<p class="error" role="alert">${esc(text)}</p>`;
    }
  });
}

async function servicePicker(section, sid) {
  if (!services) services = await api.services();
  slot.innerHTML = '';
  if (!services.length) return null;
  const chosen = services.find((s) => s.id === sid) || services.find((s) => s.id === sessionStorage.getItem(SERVICE_KEY)) || services[0];
  sessionStorage.setItem(SERVICE_KEY, chosen.id);
  slot.innerHTML = `<label for="service">Service</label><select id="service">${services
    .map((s) => `<option value="${esc(s.id)}">${esc(s.name)}${s.state === 'running' ? '' : ` (${esc(s.state)})`}</option>`)
    .join('')}</select>`;
  const select = slot.querySelector('select');
  select.value = chosen.id;
  select.addEventListener('change', () => navigate(`/${section}/${encodeURIComponent(select.value)}`));
  return chosen.id;
}

async function render() {
  if (current) current.abort();
  current = new AbortController();
  sourceCache.clear(); // one fetch per view: a source created meanwhile shows on the next one
  const signal = current.signal;
  if (!credentials()) {
    showSignIn();
    return;
  }
  nav.hidden = false;
  signOutButton.hidden = false;
  const parts = location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const section = parts[0] === 'explore' || parts[0] === 'traces' ? parts[0] : 'dashboards';
  const navSection = section === 'traces' ? 'explore' : section;
  nav.querySelectorAll('a').forEach((a) => (a.dataset.section === navSection ? a.setAttribute('aria-current', 'page') : a.removeAttribute('aria-current')));
  try {
    const sid = await servicePicker(navSection, parts[1]);
    if (signal.aborted) return;
    if (!sid) {
      main.innerHTML = '<h1>No services</h1><p class="state">This organization has no services yet.</p>';
      return;
    }
    if (section === 'traces' && parts[2] && parts[3]) {
      document.title = `Trace ${parts[3]} · Chartwell`;
      await traceView(main, sid, parts[2], parts[3], { signal, sources });
    } else if (section === 'explore' || section === 'traces') {
      document.title = 'Explorer · Chartwell';
      await explorer(main, sid, parts[2], { signal, sources });
    } else if (parts[2]) {
      await dashboardView(main, sid, parts[2], { signal, sources });
      document.title = `${main.querySelector('h1')?.textContent || 'Dashboard'} · Chartwell`;
    } else {
      document.title = 'Dashboards · Chartwell';
      await dashboardList(main, sid, { signal });
    }
    status.textContent = document.title;
  } catch (e) {
    if (signal.aborted) return;
    if (e instanceof ApiError && e.status === 401) {
      signOut();
      showSignIn('Your key is no longer accepted; sign in again.');
      return;
    }
    main.innerHTML = `<h1>Something went wrong</h1><p class="error" role="alert">${esc(e.message || String(e))}</p>`;
  }
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a[data-link]');
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(a.getAttribute('href'));
});
signOutButton.addEventListener('click', () => {
  signOut();
  services = null;
  sourceCache.clear();
  history.pushState(null, '', '/');
  render();
});
window.addEventListener('popstate', render);
render();
