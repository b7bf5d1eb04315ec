// Event rows from the search endpoint: a table of chosen columns, newest first, each row
// expandable (a button, keyboard operable) to show every field of the event.
import { esc, eventTime } from './format.js';
import { splitList } from './queries.js';

/** The columns of a select list: [{key, title}] where key is how the search answer names it. */
export function selectColumns(select) {
  return splitList(select).map((item) => {
    const m = /^(.*?)\s+AS\s+(.+)$/i.exec(item);
    const key = m ? m[2].trim().replace(/^`(.*)`$/, '$1') : item;
    return { key, title: key.replace(/^`(.*)`$/, '$1') };
  });
}

function cell(v) {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/**
 * @param {HTMLElement} box
 * @param {{key: string, title: string}[]} columns
 * @param {object[]} rows
 * @param {{timestamp?: string, expandable?: boolean, hiddenKeys?: Set<string>,
 *   actions?: (row: object) => string}} o actions: the HTML of links shown above an expanded
 *   row's fields (for example to its trace)
 */
export function eventsTable(box, columns, rows, o = {}) {
  const table = document.createElement('table');
  table.className = 'data events';
  const expandable = o.expandable !== false;
  table.innerHTML = `<thead><tr>${expandable ? '<th><span class="visually-hidden">Details</span></th>' : ''}${columns
    .map((c) => `<th scope="col">${esc(c.title)}</th>`)
    .join('')}</tr></thead><tbody></tbody>`;
  appendRows(table, columns, rows, o);
  box.appendChild(table);
  return table;
}

/** Adds rows to an events table (a further page). */
export function appendRows(table, columns, rows, o = {}) {
  const tbody = table.tBodies[0];
  const expandable = o.expandable !== false;
  for (const row of rows) {
    const tr = document.createElement('tr');
    tr.className = 'event';
    let html = '';
    if (expandable) html += '<td><button type="button" class="expand" aria-expanded="false" aria-label="Show all fields">▸</button></td>';
    for (const c of columns) {
      const v = row[c.key];
      const isTime = c.key === o.timestamp;
      html += `<td class="${isTime ? 'when' : 'text'}" title="${esc(cell(v))}">${esc(isTime && v ? eventTime(v) : cell(v))}</td>`;
    }
    tr.innerHTML = html;
    tbody.appendChild(tr);
    if (!expandable) continue;
    const button = tr.querySelector('button.expand');
    button.addEventListener('click', () => {
      const open = button.getAttribute('aria-expanded') === 'true';
      if (open) {
        tr.nextElementSibling.remove();
      } else {
        const detail = document.createElement('tr');
        detail.className = 'detail';
        const keys = Object.keys(row).filter((k) => !(o.hiddenKeys && o.hiddenKeys.has(k)) && row[k] !== null && row[k] !== undefined);
        const actions = o.actions ? o.actions(row) : '';
        detail.innerHTML = `<td></td><td colspan="${columns.length}">${actions ? `<p class="row-actions">${actions}</p>` : ''}<dl class="fields">${keys
          .sort()
          .map((k) => `<dt>${esc(k)}</dt><dd>${esc(cell(row[k]))}</dd>`)
          .join('')}</dl></td>`;
        tr.after(detail);
      }
      button.setAttribute('aria-expanded', String(!open));
      button.textContent = open ? '▸' : '▾';
    });
  }
}
