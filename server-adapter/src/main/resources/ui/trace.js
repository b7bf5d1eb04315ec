// The trace view: every span of one trace as a waterfall. A collapsible tree (one row per span,
// indented by depth, a bar per span on the trace's time axis), the critical path marked, a span's
// details on click, and links to the logs of the trace or of one span. Only the rows in view are
// in the page, so a trace of 10,000 spans draws as fast as one of 50.
import { api } from './api.js';
import { esc, duration, localTime, color } from './format.js';

const ROW = 24; // px, one span row (style.css .wf-row)
const OVERSCAN = 20;

/** The spans as a tree: children by parent (oldest first), the roots, and each span's depth. */
export function spanTree(spans) {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const children = new Map();
  const roots = [];
  for (const s of spans) {
    if (s.parentSpanId && byId.has(s.parentSpanId) && s.parentSpanId !== s.spanId) {
      if (!children.has(s.parentSpanId)) children.set(s.parentSpanId, []);
      children.get(s.parentSpanId).push(s);
    } else {
      roots.push(s);
    }
  }
  const byStart = (a, b) => a.startOffsetNs - b.startOffsetNs;
  roots.sort(byStart);
  for (const list of children.values()) list.sort(byStart);
  return { byId, children, roots };
}

/**
 * The critical path: from each root, the child that finished last before the cursor, then the
 * one before that child started, and so on down (what the root's duration waited for).
 * @returns {Set<string>} span ids on it
 */
export function criticalPath(tree) {
  const on = new Set();
  const stack = tree.roots.map((r) => r);
  while (stack.length) {
    const span = stack.pop();
    on.add(span.spanId);
    const kids = (tree.children.get(span.spanId) || []).slice().sort((a, b) => end(b) - end(a));
    let cursor = end(span);
    for (const k of kids) {
      if (end(k) <= cursor || k.startOffsetNs < cursor) {
        stack.push(k);
        cursor = k.startOffsetNs;
      }
    }
  }
  return on;
}

const end = (s) => s.startOffsetNs + s.durationNs;

/** The rows to show: a depth-first walk that skips the children of collapsed spans. */
function visibleRows(tree, collapsed) {
  const out = [];
  const stack = tree.roots.slice().reverse().map((s) => [s, 0]);
  while (stack.length) {
    const [s, depth] = stack.pop();
    out.push({ span: s, depth });
    if (collapsed.has(s.spanId)) continue;
    const kids = tree.children.get(s.spanId) || [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], depth + 1]);
  }
  return out;
}

function logsHref(sid, logSource, spanIdValue, traceId, startMs, endMs) {
  const traceField = logSource.traceIdExpression || 'TraceId';
  const spanField = logSource.spanIdExpression || 'SpanId';
  let where = `${traceField}:"${traceId}"`;
  if (spanIdValue) where += ` ${spanField}:"${spanIdValue}"`;
  const p = new URLSearchParams({ where, from: String(startMs - 60_000), to: String(endMs + 60_000) });
  return `/explore/${encodeURIComponent(sid)}/${encodeURIComponent(logSource.id)}?${p}`;
}

export async function traceView(main, sid, sourceId, traceId, { signal, sources }) {
  main.innerHTML = `<h1>Trace <code>${esc(traceId)}</code></h1><p class="state" aria-busy="true">Loading the trace…</p>`;
  const fetched = performance.now();
  let trace;
  try {
    trace = await api.trace(sid, sourceId, traceId, signal);
  } catch (e) {
    if (signal.aborted) return;
    main.innerHTML = `<h1>Trace <code>${esc(traceId)}</code></h1><p class="error" role="alert">${esc(e.message || String(e))}</p>`;
    return;
  }
  if (signal.aborted) return;
  const received = performance.now();
  const all = await sources(sid);
  const logSource = trace.logSourceId ? all.find((s) => s.id === trace.logSourceId) : null;
  const startMs = Date.parse(trace.startTime);
  const endMs = startMs + trace.durationNs / 1e6;
  const tree = spanTree(trace.spans);
  const critical = criticalPath(tree);
  const services = [...new Set(trace.spans.map((s) => s.service || ''))];
  const collapsed = new Set();
  const total = Math.max(1, trace.durationNs);

  main.innerHTML = `<h1>Trace <code>${esc(traceId)}</code></h1>
    <p class="trace-summary">${trace.spanCount.toLocaleString()} spans · ${esc(duration(trace.durationNs / 1e9))} ·
      ${services.length} services · started ${esc(localTime(startMs))}
      ${trace.truncated ? '<strong>· only the oldest 10,000 spans are shown</strong>' : ''}
      ${logSource ? ` · <a class="trace-logs" data-link href="${esc(logsHref(sid, logSource, null, traceId, startMs, endMs))}">Logs of this trace</a>` : ''}</p>
    <p class="hint">Bars on the <span class="wf-legend-critical">critical path</span> are outlined. Click a span for its details; ▸/▾ collapses its children.</p>
    <div class="waterfall-wrap">
      <div class="waterfall" role="tree" aria-label="Spans of trace ${esc(traceId)}" tabindex="0"
        data-span-count="${trace.spanCount}"><div class="wf-spacer"></div></div>
      <aside class="span-details panel" aria-live="polite"><p class="state">Select a span.</p></aside>
    </div>`;
  const box = main.querySelector('.waterfall');
  const spacer = box.querySelector('.wf-spacer');
  const details = main.querySelector('.span-details');
  let rows = [];
  let selected = null;

  function layout() {
    rows = visibleRows(tree, collapsed);
    spacer.style.height = `${rows.length * ROW}px`;
    box.dataset.visibleCount = String(rows.length);
    draw();
  }

  function draw() {
    const first = Math.max(0, Math.floor(box.scrollTop / ROW) - OVERSCAN);
    const last = Math.min(rows.length, Math.ceil((box.scrollTop + box.clientHeight) / ROW) + OVERSCAN);
    spacer.replaceChildren();
    for (let i = first; i < last; i++) spacer.appendChild(row(rows[i], i));
  }

  function row({ span, depth }, i) {
    const kids = tree.children.get(span.spanId) || [];
    const div = document.createElement('div');
    div.className = 'wf-row';
    div.setAttribute('role', 'treeitem');
    div.setAttribute('aria-level', String(depth + 1));
    div.setAttribute('aria-selected', String(selected === span.spanId));
    div.dataset.spanId = span.spanId;
    div.dataset.depth = String(depth);
    if (kids.length) div.setAttribute('aria-expanded', String(!collapsed.has(span.spanId)));
    if (span.statusCode === 'STATUS_CODE_ERROR') div.classList.add('wf-error');
    div.style.top = `${i * ROW}px`;
    const toggle = kids.length
      ? `<button type="button" class="wf-toggle" aria-label="${collapsed.has(span.spanId) ? 'Expand' : 'Collapse'} ${kids.length} children">${collapsed.has(span.spanId) ? '▸' : '▾'}</button>`
      : '<span class="wf-toggle-space"></span>';
    div.innerHTML = `<div class="wf-label">${toggle}<span class="wf-service">${esc(span.service || '')}</span>
      <span class="wf-name">${esc(span.name || span.spanId)}</span></div>
      <span class="wf-duration">${esc(duration(span.durationNs / 1e9))}</span>
      <div class="wf-track"><div class="wf-bar${critical.has(span.spanId) ? ' wf-critical' : ''}"></div></div>`;
    div.querySelector('.wf-label').style.paddingLeft = `${depth * 14}px`;
    const bar = div.querySelector('.wf-bar');
    bar.style.left = `${(span.startOffsetNs / total) * 100}%`;
    bar.style.width = `max(2px, ${(span.durationNs / total) * 100}%)`;
    bar.style.background = color(services.indexOf(span.service || ''));
    return div;
  }

  function show(span) {
    selected = span.spanId;
    const kv = (o) => Object.keys(o || {}).sort().map((k) => `<dt>${esc(k)}</dt><dd>${esc(typeof o[k] === 'object' ? JSON.stringify(o[k]) : String(o[k]))}</dd>`).join('');
    details.dataset.spanId = span.spanId;
    details.innerHTML = `<h2>${esc(span.name || span.spanId)}</h2>
      <dl class="fields">
        <dt>Service</dt><dd>${esc(span.service || '')}</dd>
        <dt>Span ID</dt><dd>${esc(span.spanId)}</dd>
        <dt>Parent</dt><dd>${esc(span.parentSpanId || '(root)')}</dd>
        <dt>Kind</dt><dd>${esc(span.kind || '')}</dd>
        <dt>Status</dt><dd>${esc(span.statusCode || '')}${span.statusMessage ? `: ${esc(span.statusMessage)}` : ''}</dd>
        <dt>Start</dt><dd>${esc(span.startTime)} (+${esc(duration(span.startOffsetNs / 1e9))})</dd>
        <dt>Duration</dt><dd>${esc(duration(span.durationNs / 1e9))}</dd>
      </dl>
      ${logSource ? `<p><a class="span-logs" data-link href="${esc(logsHref(sid, logSource, span.spanId, traceId, startMs, endMs))}">Logs of this span</a></p>` : ''}
      <h3>Attributes</h3><dl class="fields span-attributes">${kv(span.attributes)}</dl>
      <h3>Resource</h3><dl class="fields">${kv(span.resource)}</dl>
      <h3>Events (${span.events.length})</h3>${span.events.map((e) => `<div class="span-event"><strong>${esc(e.name)}</strong>
        ${e.offsetNs !== undefined ? ` +${esc(duration(e.offsetNs / 1e9))}` : ''}<dl class="fields">${kv(e.attributes)}</dl></div>`).join('')}`;
    draw();
  }

  box.addEventListener('scroll', () => requestAnimationFrame(draw));
  box.addEventListener('click', (e) => {
    const r = e.target.closest('.wf-row');
    if (!r) return;
    const span = tree.byId.get(r.dataset.spanId);
    if (e.target.closest('.wf-toggle')) {
      if (collapsed.has(span.spanId)) collapsed.delete(span.spanId);
      else collapsed.add(span.spanId);
      layout();
      return;
    }
    show(span);
  });
  layout();
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  // How long the drawing took once the answer was in, for whoever measures (the browser test).
  box.dataset.renderMs = String(Math.round(performance.now() - received));
  box.dataset.fetchMs = String(Math.round(received - fetched));
  box.dataset.state = 'ready';
}
