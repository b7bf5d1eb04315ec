// The dashboard list of a service, and one dashboard: its tiles on the 24-column grid under a
// shared time range, granularity, refresh and live mode.
import { api } from './api.js';
import { esc } from './format.js';
import { readTime, writeTime, resolve, timeControls, LIVE_MS } from './time.js';
import { tileFrame, drawTile, disposeTile } from './tiles.js';
import { variablesOf, readValues, variableBar, tileWith } from './variables.js';

/** Lists the dashboards of a service. */
export async function dashboardList(main, sid, { signal }) {
  main.innerHTML = `<h1>Dashboards</h1><p class="state" aria-busy="true">Loading dashboards…</p>`;
  const list = await api.dashboards(sid);
  if (signal.aborted) return;
  if (!list.length) {
    main.innerHTML = `<h1>Dashboards</h1><p class="state">This service has no dashboards yet. Create one through the
      ClickStack API (<code>POST …/clickstack/dashboards</code>) or HyperDX's <code>POST /api/v2/dashboards</code>;
      it shows here at once.</p>`;
    return;
  }
  list.sort((a, b) => a.name.localeCompare(b.name));
  main.innerHTML = `<h1>Dashboards</h1><ul class="list">${list
    .map((d) => `<li><a href="/dashboards/${esc(sid)}/${esc(d.id)}" data-link>${esc(d.name)}
      <div class="meta">${d.tiles.length} tile${d.tiles.length === 1 ? '' : 's'}${d.tags && d.tags.length ? ' · ' + d.tags.map(esc).join(', ') : ''}</div></a></li>`)
    .join('')}</ul>`;
}

/** Shows one dashboard; returns when it is laid out (tiles draw on their own). */
export async function dashboardView(main, sid, id, { signal, sources }) {
  main.innerHTML = `<p class="state" aria-busy="true">Loading dashboard…</p>`;
  const [dashboard, list] = await Promise.all([api.dashboardV2(sid, id), sources(sid)]);
  if (signal.aborted) return;
  const srcs = new Map(list.map((s) => [s.id, s]));
  const params = new URLSearchParams(location.search);
  const time = readTime(params, '1h');
  const vars = variablesOf(dashboard);
  const values = readValues(vars, params);
  main.innerHTML = '';
  const bar = document.createElement('div');
  bar.className = 'toolbar';
  bar.innerHTML = `<div class="title"><h1>${esc(dashboard.name)}</h1>
    <a href="/dashboards/${esc(sid)}" data-link class="hint">All dashboards</a></div>`;
  const grid = document.createElement('div');
  grid.className = 'grid';
  grid.setAttribute('aria-label', 'Tiles');
  const tiles = [...dashboard.tiles].sort((a, b) => a.y - b.y || a.x - b.x);
  const frames = tiles.map((t) => {
    const f = tileFrame(t);
    grid.appendChild(f);
    return f;
  });
  let running = [];
  let timer = null;
  const drawAll = () => {
    running.forEach((r) => r.cancel());
    const { start, end } = resolve(time);
    running = tiles.map((t, i) => drawTile(frames[i], tileWith(t, values), { sid, start, end, granularity: time.granularity, sources: srcs }));
  };
  const schedule = () => {
    clearInterval(timer);
    timer = time.live ? setInterval(() => {
      controls.sync();
      drawAll();
    }, LIVE_MS) : null;
  };
  const controls = timeControls(time, () => {
    const p = new URLSearchParams(location.search);
    writeTime(p, time);
    history.replaceState(null, '', `${location.pathname}?${p}`);
    schedule();
    drawAll();
  });
  bar.appendChild(controls);
  main.append(bar);
  if (vars.length) {
    const { start, end } = resolve(time);
    main.append(variableBar(vars, values, { sid, start, end, onChange: drawAll }));
  }
  main.append(grid);
  if (!tiles.length) grid.outerHTML = '<p class="state">This dashboard has no tiles.</p>';
  drawAll();
  schedule();
  signal.addEventListener('abort', () => {
    clearInterval(timer);
    running.forEach((r) => r.cancel());
    frames.forEach(disposeTile);
  });
}
