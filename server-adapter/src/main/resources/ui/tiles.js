// One dashboard tile: its frame on the 24-column grid, its states (loading, empty, error, ready,
// as data-state and as visible text) and its drawing by display type.
import { esc, formatter } from './format.js';
import { markdown } from './markdown.js';
import { api } from './api.js';
import { seriesOf, run, timeSeries, totals, MAX_DRAWN_SERIES } from './queries.js';
import { autoGranularity } from './time.js';
import { timeChart, pie, sparkline } from './charts.js';
import { eventsTable, selectColumns } from './events.js';

/** The tile's frame, placed by x, y, w, h. */
export function tileFrame(tile) {
  const el = document.createElement('section');
  const cfg = tile.config || {};
  el.className = 'tile';
  el.dataset.tileId = tile.id;
  el.dataset.displayType = cfg.displayType || 'line';
  el.dataset.state = 'loading';
  el.tabIndex = 0;
  el.setAttribute('aria-labelledby', `t-${tile.id}`);
  el.style.gridColumn = `${(tile.x ?? 0) + 1} / span ${Math.min(24, tile.w ?? 12)}`;
  el.style.gridRow = `${(tile.y ?? 0) + 1} / span ${tile.h ?? 6}`;
  el.innerHTML = `<div class="tile-head"><h2 id="t-${esc(tile.id)}">${esc(tile.name || 'Untitled')}</h2><span class="tile-note"></span></div>
    <div class="tile-body" aria-busy="true"></div>`;
  return el;
}

const charts = new WeakMap(); // a tile frame -> how to free the chart it shows

/** Empties a tile's body, freeing the chart it showed; the old drawing stays until then. */
function clearBody(el) {
  const free = charts.get(el);
  if (free) free();
  charts.delete(el);
  const body = el.querySelector('.tile-body');
  body.innerHTML = '';
  return body;
}

/** Frees what a tile shows (when its view goes away). */
export function disposeTile(el) {
  clearBody(el);
}

function setState(el, state, text) {
  el.dataset.state = state;
  if (state === 'empty' || state === 'error') clearBody(el);
  const body = el.querySelector('.tile-body');
  body.setAttribute('aria-busy', String(state === 'loading'));
  if (state === 'empty') body.innerHTML = `<p class="state">${esc(text || 'No data in this time range')}</p>`;
  if (state === 'error') body.innerHTML = `<p class="error" role="alert">${esc(text)}</p>`;
}

const DRAWERS = {
  line: (el, tile, ctx, signal) => drawTime(el, tile, ctx, signal, false),
  stacked_bar: (el, tile, ctx, signal) => drawTime(el, tile, ctx, signal, true),
  bar: drawTable,
  number: drawNumber,
  pie: drawPie,
  table: drawTable,
  search: drawSearch,
  markdown: async (el, tile) => {
    clearBody(el).innerHTML = `<div class="markdown">${markdown(tile.config.markdown)}</div>`;
    return ready(el);
  },
};

function ready(el, note = '') {
  el.dataset.state = 'ready';
  el.querySelector('.tile-body').setAttribute('aria-busy', 'false');
  el.querySelector('.tile-note').textContent = note;
  return null;
}

/**
 * Draws (or redraws) a tile. What it showed stays visible until the new answer replaces it.
 * @param {HTMLElement} el the frame
 * @param {object} tile the dashboard tile
 * @param {{sid: string, start: number, end: number, granularity: string, sources: Map}} ctx
 * @returns {{cancel: () => void}} stops its requests
 */
export function drawTile(el, tile, ctx) {
  const abort = new AbortController();
  const type = (tile.config || {}).displayType || 'line';
  const draw = DRAWERS[type];
  el.dataset.state = 'loading';
  el.querySelector('.tile-body').setAttribute('aria-busy', 'true');
  if (!draw) {
    setState(el, 'error', `The display type '${type}' is not drawn by this UI`);
  } else {
    Promise.resolve()
      .then(() => draw(el, tile, ctx, abort.signal))
      .catch((e) => {
        if (!abort.signal.aborted) setState(el, 'error', e.message || String(e));
      });
  }
  return { cancel: () => abort.abort() };
}

async function drawTime(el, tile, ctx, signal, stacked) {
  const { items } = seriesOf(tile.config);
  if (!items.length) throw new Error('This tile has no series to draw');
  const g = ctx.granularity === 'auto' ? autoGranularity(ctx.start, ctx.end) : ctx.granularity;
  const rows = await run(ctx.sid, items, ctx.start, ctx.end, ctx.granularity, signal);
  if (signal.aborted) return null;
  const data = timeSeries(rows, items, ctx.start, ctx.end, g);
  if (!data.lines.length) {
    setState(el, 'empty');
    return null;
  }
  const body = clearBody(el);
  const format = formatter(items[0].format);
  charts.set(el, timeChart(body, data, { format, stacked, label: tile.name }));
  ready(el, `${g}${data.hidden ? ` · top ${MAX_DRAWN_SERIES} of ${data.lines.length + data.hidden}` : ''}`);
  return null;
}

async function drawNumber(el, tile, ctx, signal) {
  const { items } = seriesOf(tile.config);
  if (!items.length) throw new Error('This tile has no series to draw');
  const item = { ...items[0], series: { ...items[0].series, groupBy: [] } };
  const g = autoGranularity(ctx.start, ctx.end);
  const [total, rows] = await Promise.all([
    totals(ctx.sid, [item], ctx.start, ctx.end, signal),
    run(ctx.sid, [item], ctx.start, ctx.end, 'auto', signal),
  ]);
  if (signal.aborted) return null;
  const value = total.groups.length ? total.groups[0].values[0] : null;
  if (value === null || value === undefined) {
    setState(el, 'empty');
    return null;
  }
  const body = clearBody(el);
  const box = document.createElement('div');
  box.className = 'number';
  const v = document.createElement('div');
  v.className = 'value';
  v.textContent = formatter(item.format)(value);
  box.appendChild(v);
  box.appendChild(sparkline(timeSeries(rows, [item], ctx.start, ctx.end, g).lines[0]?.values || []));
  body.appendChild(box);
  ready(el, total.approximate ? '≈ last 30-day bucket only' : item.label);
  return null;
}

async function drawPie(el, tile, ctx, signal) {
  const { items } = seriesOf(tile.config);
  if (!items.length) throw new Error('This tile has no series to draw');
  const total = await totals(ctx.sid, [items[0]], ctx.start, ctx.end, signal);
  if (signal.aborted) return null;
  const slices = total.groups
    .filter((g) => g.values[0] != null)
    .map((g) => ({ label: g.group.join(', ') || items[0].label, value: g.values[0] }))
    .sort((a, b) => b.value - a.value);
  if (!slices.length) {
    setState(el, 'empty');
    return null;
  }
  const shown = slices.slice(0, 12);
  if (slices.length > 12) shown.push({ label: `${slices.length - 12} others`, value: slices.slice(12).reduce((s, x) => s + x.value, 0) });
  const body = clearBody(el);
  pie(body, shown, formatter(items[0].format));
  ready(el, total.approximate ? '≈ last 30-day bucket only' : items[0].label);
  return null;
}

async function drawTable(el, tile, ctx, signal) {
  const { items, groupBy } = seriesOf(tile.config);
  if (!items.length) throw new Error('This tile has no series to draw');
  const total = await totals(ctx.sid, items, ctx.start, ctx.end, signal);
  if (signal.aborted) return null;
  if (!total.groups.length) {
    setState(el, 'empty');
    return null;
  }
  const rows = total.groups.sort((a, b) => (b.values[0] ?? -Infinity) - (a.values[0] ?? -Infinity));
  const formats = items.map((it) => formatter(it.format));
  const body = clearBody(el);
  body.innerHTML = `<table class="data"><thead><tr>${groupBy.map((g) => `<th scope="col">${esc(g)}</th>`).join('')}${items
    .map((it) => `<th scope="col" class="num">${esc(it.label)}</th>`)
    .join('')}</tr></thead><tbody>${rows
    .slice(0, 500)
    .map((r) => `<tr>${groupBy.map((_, i) => `<td class="text">${esc(r.group[i] ?? '')}</td>`).join('')}${r.values
      .map((v, k) => `<td class="num">${esc(formats[k](v))}</td>`)
      .join('')}</tr>`)
    .join('')}</tbody></table>`;
  ready(el, `${rows.length} row${rows.length === 1 ? '' : 's'}${total.approximate ? ' · ≈' : ''}`);
  return null;
}

async function drawSearch(el, tile, ctx, signal) {
  const cfg = tile.config;
  const query = {
    sourceId: cfg.sourceId,
    startTime: new Date(ctx.start).toISOString(),
    endTime: new Date(ctx.end).toISOString(),
    where: cfg.where || '',
    whereLanguage: cfg.whereLanguage || 'lucene',
    maxResults: 50,
  };
  if (cfg.select && cfg.select.trim()) query.select = cfg.select;
  const rows = await api.search(ctx.sid, query, signal);
  if (signal.aborted) return null;
  if (!rows.length) {
    setState(el, 'empty', 'No events in this time range');
    return null;
  }
  const columns = cfg.select && cfg.select.trim() ? selectColumns(cfg.select) : Object.keys(rows[0]).map((k) => ({ key: k, title: k }));
  const body = clearBody(el);
  const source = ctx.sources.get(cfg.sourceId);
  eventsTable(body, columns, rows, { timestamp: source ? source.timestampValueExpression : 'Timestamp' });
  ready(el, `newest ${rows.length}`);
  return null;
}
