// The explorer's facets: for the current source, where and range, the top values of chosen fields
// (by default the source's service, severity, host and status) with their counts, from one
// POST /api/v2/facets. A value narrows the where to it; its "−" excludes it.
import { api } from './api.js';
import { esc } from './format.js';

/**
 * @param {HTMLElement} box where the facets are drawn
 * @param {{sid: string, fields: string[], onFilter: (field: string, value: string, exclude: boolean) => void,
 *   onFields: (fields: string[]) => void}} o fields: the chosen ones ([] for the defaults)
 */
export function facetsPanel(box, o) {
  let inflight = null;
  let fields = o.fields.slice();

  async function refresh(query, columns) {
    if (inflight) inflight.abort();
    const abort = new AbortController();
    inflight = abort;
    box.dataset.state = 'loading';
    const body = { sourceId: query.sourceId, startTime: query.startTime, endTime: query.endTime,
      where: query.where, whereLanguage: query.whereLanguage, limit: 5 };
    if (fields.length) body.fields = fields;
    try {
      const answer = await api.facets(o.sid, body, abort.signal);
      if (abort.signal.aborted) return;
      draw(answer, columns);
    } catch (e) {
      if (abort.signal.aborted) return;
      box.dataset.state = 'error';
      box.innerHTML = `<p class="error" role="alert">${esc(e.message || String(e))}</p>`;
    }
  }

  function draw(answer, columns) {
    const list = answer.fields.map((f) => {
      const head = `<h3>${esc(f.field)}${fields.includes(f.field) ? ` <button type="button" class="quiet facet-remove" data-field="${esc(f.field)}" aria-label="Stop showing ${esc(f.field)}">×</button>` : ''}</h3>`;
      if (f.error) return `<div class="facet" data-field="${esc(f.field)}">${head}<p class="hint">${esc(f.error)}</p></div>`;
      const rows = f.values.map((v) => `<li><button type="button" class="link facet-value" data-field="${esc(f.field)}" data-value="${esc(v.value)}"
          aria-label="Only ${esc(f.field)} ${esc(v.value)}">${esc(v.value)}</button>
        <span class="num">${v.count.toLocaleString()}</span>
        <button type="button" class="quiet facet-exclude" data-field="${esc(f.field)}" data-value="${esc(v.value)}" aria-label="Exclude ${esc(f.field)} ${esc(v.value)}">−</button></li>`).join('');
      const more = f.otherCount ? `<li class="hint">others: ${f.otherCount.toLocaleString()}</li>` : '';
      const missing = f.missingCount ? `<li class="hint">no value: ${f.missingCount.toLocaleString()}</li>` : '';
      return `<div class="facet" data-field="${esc(f.field)}">${head}<ul>${rows || '<li class="hint">no values</li>'}${more}${missing}</ul></div>`;
    }).join('');
    box.innerHTML = `<div class="facet-list">${list}</div>
      <form class="facet-add"><label for="facet-field">Add a field</label>
        <input id="facet-field" type="text" list="facet-columns" autocomplete="off" spellcheck="false">
        <datalist id="facet-columns">${columns.map((c) => `<option value="${esc(c)}">`).join('')}</datalist>
        <button type="submit" class="quiet">Add</button></form>`;
    box.dataset.state = 'ready';
    box.querySelector('form').addEventListener('submit', (e) => {
      e.preventDefault();
      const name = box.querySelector('#facet-field').value.trim();
      if (!name) return;
      const shown = fields.length ? fields : answer.fields.map((f) => f.field);
      fields = [...new Set([...shown, name])].slice(0, 10);
      o.onFields(fields);
    });
  }

  box.addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (!b || !b.dataset.field) return;
    if (b.classList.contains('facet-remove')) {
      fields = fields.filter((f) => f !== b.dataset.field);
      o.onFields(fields);
    } else if (b.classList.contains('facet-value') || b.classList.contains('facet-exclude')) {
      o.onFilter(b.dataset.field, b.dataset.value, b.classList.contains('facet-exclude'));
    }
  });

  return { refresh, abort: () => inflight && inflight.abort(), fields: () => fields };
}
