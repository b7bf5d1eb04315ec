// The explorer: pick a source, filter with a where (Lucene or SQL), see the count over time and
// the matching events, newest first. A click on a bar zooms the range to that bucket.
import { api } from './api.js';
import { esc, formatter } from './format.js';
import { readTime, writeTime, resolve, timeControls, autoGranularity, granularityMs, LIVE_MS } from './time.js';
import { run, timeSeries, splitList } from './queries.js';
import { timeChart } from './charts.js';
import { eventsTable, appendRows, selectColumns } from './events.js';
import { facetsPanel } from './facets.js';
import { clause, and } from './where.js';
import { contextActions, showContext } from './context.js';
import { patternsPanel } from './patterns.js';
import { liveTail } from './tail.js';

const PAGE = 100;
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_.@-]*$/;

/** The search's select: the source's default columns, then every other column of its table. */
function selectFor(source, schema) {
  const defaults = source.defaultTableSelectExpression || '';
  const named = new Set(splitList(defaults).map((c) => c.replace(/\s+AS\s+.*$/i, '').replace(/^`(.*)`$/, '$1')));
  const parts = defaults ? [defaults] : [];
  let length = defaults.length;
  for (const c of schema) {
    if (named.has(c.name)) continue;
    const item = PLAIN_NAME.test(c.name) ? c.name : `\`${c.name}\` AS \`${c.name}\``;
    if (length + item.length + 2 > 4000) break; // the search's select limit is 4096 characters
    parts.push(item);
    length += item.length + 2;
  }
  return parts.join(', ');
}

/** Where an error names a column of the where text, the text with a caret under that column. */
function errorBox(message, where) {
  const m = /column (\d+)/.exec(message);
  let caret = '';
  if (m && where && /where/i.test(message)) {
    const col = Number(m[1]);
    caret = `<pre class="where-caret" aria-label="Position of the error">${esc(where)}\n${' '.repeat(Math.max(0, col - 1))}^</pre>`;
  }
  return `<div class="error" role="alert"><strong>The query was refused.</strong> ${esc(message)}${caret}</div>`;
}

export async function explorer(main, sid, sourceId, { signal, sources }) {
  main.innerHTML = `<p class="state" aria-busy="true">Loading sources…</p>`;
  const all = await sources(sid);
  if (signal.aborted) return;
  const searchable = all.filter((s) => s.kind === 'log' || s.kind === 'trace');
  if (!searchable.length) {
    main.innerHTML = `<h1>Explorer</h1><p class="state">This service has no log or trace source to search.</p>`;
    return;
  }
  const params = new URLSearchParams(location.search);
  let source = searchable.find((s) => s.id === sourceId) || searchable[0];
  const time = readTime(params, '15m');
  const state = {
    where: params.get('where') || '',
    lang: params.get('lang') === 'sql' ? 'sql' : 'lucene',
    facets: (params.get('facets') || '').split(',').filter(Boolean),
    view: params.get('view') === 'patterns' ? 'patterns' : 'events',
  };

  main.innerHTML = `<h1>Explorer</h1>
    <form class="explorer-form" role="search">
      <div class="field"><label for="x-source">Source</label><select id="x-source">${searchable
        .map((s) => `<option value="${esc(s.id)}">${esc(s.name)}</option>`)
        .join('')}</select></div>
      <div class="field"><label for="x-where">Where</label>
        <input id="x-where" type="text" autocomplete="off" spellcheck="false" placeholder="SeverityText:error ServiceName:api"></div>
      <div class="field"><label for="x-lang">Language</label><select id="x-lang">
        <option value="lucene">Lucene</option><option value="sql">SQL</option></select></div>
      <button type="submit">Search</button>
    </form>
    <div class="toolbar x-time"></div>
    <div class="x-error"></div>
    <section class="panel" aria-labelledby="x-chart-title"><div class="tile-head"><h2 id="x-chart-title">Events over time</h2>
      <span class="tile-note x-chart-note"></span></div><div class="count-chart" data-state="loading"></div></section>
    <div class="x-body">
    <section class="panel x-facets-panel" aria-labelledby="x-facets-title"><div class="tile-head"><h2 id="x-facets-title">Top values</h2></div>
      <div class="x-facets" data-state="loading"></div></section>
    <section class="panel" aria-labelledby="x-events-title"><div class="tile-head"><h2 id="x-events-title">Events</h2>
      <span class="x-views" role="group" aria-label="Show"><button type="button" class="quiet x-view" data-view="events">Events</button><button
        type="button" class="quiet x-view" data-view="patterns">Patterns</button></span>
      <span class="tile-note x-events-note"></span>
      <button type="button" class="quiet x-live" aria-pressed="false">Live tail</button></div>
      <div class="x-events" data-state="loading"></div><div class="x-tail" hidden></div>
      <div class="x-patterns" data-state="idle" hidden></div></section>
    </div>
    <section class="panel x-context-panel" aria-labelledby="x-context-title" hidden></section>`;
  const form = main.querySelector('form');
  const select = main.querySelector('#x-source');
  const whereInput = main.querySelector('#x-where');
  const lang = main.querySelector('#x-lang');
  const errorSlot = main.querySelector('.x-error');
  const chartBox = main.querySelector('.count-chart');
  const eventsBox = main.querySelector('.x-events');
  select.value = source.id;
  whereInput.value = state.where;
  lang.value = state.lang;

  let schemas = new Map();
  let lastQuery = null;
  const facets = facetsPanel(main.querySelector('.x-facets'), {
    sid,
    fields: state.facets,
    onFilter: (field, value, exclude) => {
      state.where = and(state.lang, state.where, clause(state.lang, field, value, exclude));
      whereInput.value = state.where;
      search();
    },
    onFields: async (fields) => {
      state.facets = fields;
      remember();
      if (lastQuery) facets.refresh(lastQuery, (await schemaOf(source)).map((c) => c.name));
    },
  });
  const patterns = patternsPanel(main.querySelector('.x-patterns'), {
    sid,
    onPick: (where, language, at) => {
      Object.assign(state, { where, lang: language });
      if (at !== undefined) {
        Object.assign(time, { preset: 'custom', from: at - 1000, to: at + 1000, live: false });
        controls.sync();
        schedule();
      }
      whereInput.value = where;
      lang.value = language;
      showView('events');
      search();
    },
  });
  /** Shows the events or their patterns (fetched for the last search when first shown). */
  function showView(view) {
    if (view !== 'events' && stopTail) tail(false); // the tail lives in the events view
    state.view = view;
    main.querySelector('.x-events').hidden = view !== 'events';
    main.querySelector('.x-events-note').hidden = view !== 'events';
    main.querySelector('.x-patterns').hidden = view !== 'patterns';
    main.querySelectorAll('.x-view').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.view === view)));
    remember();
  }
  main.querySelectorAll('.x-view').forEach((b) => b.addEventListener('click', () => {
    showView(b.dataset.view);
    if (b.dataset.view === 'patterns' && lastQuery) patterns.refresh(lastQuery);
  }));
  let stopChart = null;
  let inflight = null;
  let timer = null;

  const controls = timeControls(time, () => {
    schedule();
    search();
  });
  main.querySelector('.x-time').appendChild(controls);

  async function schemaOf(s) {
    if (!schemas.has(s.id)) {
      const from = s.from || {};
      const table = await api.table(sid, from.databaseName || 'default', from.tableName);
      schemas.set(s.id, table.schema || []);
    }
    return schemas.get(s.id);
  }

  function remember() {
    const p = new URLSearchParams();
    writeTime(p, time);
    if (state.where) p.set('where', state.where);
    if (state.lang !== 'lucene') p.set('lang', state.lang);
    if (state.facets.length) p.set('facets', state.facets.join(','));
    if (state.view === 'patterns') p.set('view', 'patterns');
    history.replaceState(null, '', `/explore/${encodeURIComponent(sid)}/${encodeURIComponent(source.id)}?${p}`);
  }

  async function search() {
    if (inflight) inflight.abort();
    const abort = new AbortController();
    inflight = abort;
    remember();
    errorSlot.innerHTML = '';
    const { start, end } = resolve(time);
    const g = time.granularity === 'auto' ? autoGranularity(start, end) : time.granularity;
    chartBox.dataset.state = 'loading';
    eventsBox.dataset.state = 'loading';
    chartBox.setAttribute('aria-busy', 'true');
    eventsBox.setAttribute('aria-busy', 'true');
    const item = { label: 'events', aggFn: 'count', series: { sourceId: source.id, aggFn: 'count', where: state.where, whereLanguage: state.lang, groupBy: [] } };
    const query = {
      sourceId: source.id, startTime: new Date(start).toISOString(), endTime: new Date(end).toISOString(),
      where: state.where, whereLanguage: state.lang, maxResults: PAGE,
    };
    try {
      const schema = await schemaOf(source);
      query.select = selectFor(source, schema);
      lastQuery = query;
      facets.refresh(query, schema.map((c) => c.name));
      if (state.view === 'patterns') patterns.refresh(query);
      const [rows, events] = await Promise.all([
        run(sid, [item], start, end, time.granularity, abort.signal),
        api.search(sid, query, abort.signal),
      ]);
      if (abort.signal.aborted) return;
      drawChart(timeSeries(rows, [item], start, end, g), g);
      drawEvents(events, query);
      // What the shown results answer, for whoever reads the page (and the browser tests).
      eventsBox.dataset.where = state.where;
      eventsBox.dataset.start = String(start);
    } catch (e) {
      if (abort.signal.aborted) return;
      errorSlot.innerHTML = errorBox(e.message || String(e), state.where);
      for (const box of [chartBox, eventsBox]) {
        box.dataset.state = 'error';
        box.setAttribute('aria-busy', 'false');
      }
      if (stopChart) stopChart();
      stopChart = null;
      chartBox.innerHTML = '';
      eventsBox.innerHTML = '<p class="state">No results: see the error above.</p>';
    }
  }

  function drawChart(data, g) {
    if (stopChart) stopChart();
    stopChart = null;
    chartBox.innerHTML = '';
    chartBox.setAttribute('aria-busy', 'false');
    const total = data.lines.length ? data.lines[0].values.reduce((s, v) => s + (v || 0), 0) : 0;
    main.querySelector('.x-chart-note').textContent = `${total.toLocaleString()} events · ${g} buckets · click a bar to zoom`;
    if (!total) {
      chartBox.dataset.state = 'empty';
      chartBox.innerHTML = '<p class="state">No events match in this time range.</p>';
      return;
    }
    chartBox.dataset.state = 'ready';
    const step = granularityMs(g);
    stopChart = timeChart(chartBox, data, {
      format: formatter(),
      bars: true,
      label: 'Matching events over time',
      onPick: (i) => {
        const from = data.xs[i];
        Object.assign(time, { preset: 'custom', from, to: from + step - 1, live: false });
        controls.sync();
        schedule();
        search();
      },
    });
  }

  /** How rows are drawn: the timestamp column; an expanded event's trace and surrounding events. */
  function rowOptions() {
    const traceSource = source.kind === 'trace'
      ? source
      : all.find((s) => s.id === source.traceSourceId) || all.find((s) => s.kind === 'trace');
    const traceField = source.traceIdExpression;
    return {
      timestamp: source.timestampValueExpression || 'Timestamp',
      actions: (row) => {
        const id = traceField && row[traceField];
        const around = contextActions(source, row);
        if (!traceSource || !id) return around;
        const href = `/traces/${encodeURIComponent(sid)}/${encodeURIComponent(traceSource.id)}/${encodeURIComponent(id)}`;
        return `<a class="open-trace" data-link href="${esc(href)}">Open trace ${esc(id)}</a>${around}`;
      },
    };
  }

  function drawEvents(rows, query) {
    eventsBox.innerHTML = '';
    eventsBox.setAttribute('aria-busy', 'false');
    const note = main.querySelector('.x-events-note');
    if (!rows.length) {
      eventsBox.dataset.state = 'empty';
      eventsBox.innerHTML = '<p class="state">No events match in this time range.</p>';
      note.textContent = '';
      return;
    }
    eventsBox.dataset.state = 'ready';
    const columns = eventColumns(rows);
    const table = eventsTable(eventsBox, columns, rows, rowOptions());
    let shown = rows.length;
    note.textContent = `newest first · ${shown} shown`;
    if (rows.length === PAGE) {
      const more = document.createElement('button');
      more.type = 'button';
      more.className = 'quiet more';
      more.textContent = 'Load more events';
      more.addEventListener('click', async () => {
        more.disabled = true;
        try {
          const next = await api.search(sid, { ...query, offset: shown });
          appendRows(table, columns, next, rowOptions());
          shown += next.length;
          note.textContent = `newest first · ${shown} shown`;
          if (next.length < PAGE || shown >= 10000) more.remove();
          else more.disabled = false;
        } catch (e) {
          errorSlot.innerHTML = errorBox(e.message || String(e), state.where);
          more.disabled = false;
        }
      });
      eventsBox.appendChild(more);
    }
  }

  function schedule() {
    clearInterval(timer);
    timer = time.live ? setInterval(() => {
      controls.sync();
      search();
    }, LIVE_MS) : null;
  }

  function eventColumns(rows) {
    return source.defaultTableSelectExpression
      ? selectColumns(source.defaultTableSelectExpression)
      : Object.keys(rows[0] || {}).slice(0, 6).map((k) => ({ key: k, title: k }));
  }

  // The view's own elements (not main, which outlives the view) hear the "surrounding" buttons.
  const contextPanel = main.querySelector('.x-context-panel');
  const onSurround = (e) => {
    const b = e.target.closest('button.surround');
    if (!b) return;
    showContext(contextPanel, {
      sid, sourceId: source.id, by: b.dataset.by, value: b.dataset.value, time: b.dataset.time, n: 10,
      columns: eventColumns([]), rowOptions: rowOptions(),
    });
  };
  main.querySelector('.x-body').addEventListener('click', onSurround);
  contextPanel.addEventListener('click', onSurround);

  // Live tail: the events panel shows the stream instead of the search's page while it is on.
  const liveButton = main.querySelector('.x-live');
  const tailBox = main.querySelector('.x-tail');
  let stopTail = null;
  async function tail(on) {
    if (stopTail) stopTail();
    stopTail = null;
    if (on && state.view !== 'events') showView('events');
    liveButton.setAttribute('aria-pressed', String(on));
    eventsBox.hidden = on;
    tailBox.hidden = !on;
    if (!on) return;
    const columnsText = selectFor(source, await schemaOf(source));
    stopTail = liveTail(tailBox, main.querySelector('.x-events-note'), {
      sid, columns: eventColumns([]), rowOptions: rowOptions(),
      query: { sourceId: source.id, where: state.where, whereLanguage: state.lang, ...(columnsText ? { select: columnsText } : {}) },
    });
  }
  liveButton.addEventListener('click', () => tail(liveButton.getAttribute('aria-pressed') !== 'true'));

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    state.where = whereInput.value.trim();
    state.lang = lang.value;
    search();
    if (stopTail) tail(true);
  });
  select.addEventListener('change', () => {
    source = searchable.find((s) => s.id === select.value);
    search();
    if (stopTail) tail(true);
  });
  signal.addEventListener('abort', () => {
    clearInterval(timer);
    if (inflight) inflight.abort();
    if (stopTail) stopTail();
    facets.abort();
    patterns.abort();
    if (stopChart) stopChart();
  });
  showView(state.view);
  schedule();
  search();
}
