// "Surrounding events": the N events before and after one event from the same service or host,
// merged oldest first (POST /api/v2/surrounding), the event itself marked.
import { api } from './api.js';
import { esc } from './format.js';
import { eventsTable } from './events.js';

/** The button(s) offered in an expanded event for the fields it has (service, host). */
export function contextActions(source, row) {
  const time = row[source.timestampValueExpression || 'Timestamp'];
  if (!time) return '';
  const resource = source.resourceAttributesExpression;
  const options = [
    ['service', source.serviceNameExpression],
    ['host', resource ? `${resource}.host.name` : 'host.name'],
  ];
  return options
    .filter(([, field]) => field && row[field] !== null && row[field] !== undefined && row[field] !== '')
    .map(([by, field]) => `<button type="button" class="quiet surround" data-by="${esc(by)}" data-value="${esc(row[field])}"
      data-time="${esc(time)}">Surrounding events (same ${esc(by)})</button>`)
    .join('');
}

/**
 * Draws the surrounding events into `box` (a section) and shows it.
 * @param {{sid: string, sourceId: string, by: string, value: string, time: string, n: number,
 *   columns: {key: string, title: string}[], rowOptions: object}} o
 */
export async function showContext(box, o) {
  box.hidden = false;
  box.innerHTML = `<div class="tile-head"><h2 id="x-context-title">Surrounding events</h2>
      <span class="tile-note"></span>
      <label for="x-context-n">Each side</label><select id="x-context-n">${[5, 10, 25, 50]
        .map((n) => `<option value="${n}"${n === o.n ? ' selected' : ''}>${n}</option>`).join('')}</select>
      <button type="button" class="quiet x-context-close">Close</button></div>
    <div class="x-context" data-state="loading" aria-busy="true"></div>`;
  const body = box.querySelector('.x-context');
  box.querySelector('.x-context-close').addEventListener('click', () => {
    box.hidden = true;
    box.innerHTML = '';
  });
  box.querySelector('select').addEventListener('change', (e) => showContext(box, { ...o, n: Number(e.target.value) }));
  box.scrollIntoView({ block: 'start' });
  try {
    const answer = await api.surrounding(o.sid, {
      sourceId: o.sourceId, time: o.time, by: o.by, value: o.value, before: o.n, after: o.n,
    });
    box.querySelector('.tile-note').textContent = `${answer.field} = ${answer.value} · oldest first`;
    body.setAttribute('aria-busy', 'false');
    body.dataset.state = 'ready';
    body.dataset.field = answer.field;
    const table = eventsTable(body, o.columns, answer.events, { ...o.rowOptions, hiddenKeys: new Set(['_position']) });
    const trs = table.querySelectorAll('tbody tr.event');
    answer.events.forEach((e, i) => {
      trs[i].dataset.position = e._position;
      if (e._position === 'at') trs[i].classList.add('anchor');
    });
  } catch (e) {
    body.dataset.state = 'error';
    body.innerHTML = `<p class="error" role="alert">${esc(e.message || String(e))}</p>`;
  }
}
