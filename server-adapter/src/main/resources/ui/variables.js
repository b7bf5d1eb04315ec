// Dashboard variables: a dashboard filter with isVariableEnabled and a variableName is a dropdown
// above the tiles, its values the top values of the filter's expression (POST /api/v2/facets).
// Tiles name it in their where as $name; before a tile is queried each reference is replaced:
//   chosen value: `field:$name` becomes `field:"value"` (Lucene), `field = '$name'` becomes
//     `field = 'value'` (SQL: the reference is written quoted, so that the where parses as it is
//     stored), the value quoted and escaped for the where's language;
//   "All" (no value chosen): the clause holding the reference is dropped, with the AND/OR that
//     joined it, so the tile is not narrowed by it.
// A $name that no variable of the dashboard defines is left as written (the tile then says why its
// where was refused). The chosen values live in the URL as ?var-<name>=<value>.
import { api } from './api.js';
import { esc } from './format.js';

const quoteLucene = (v) => `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`;
const quoteSql = (v) => `'${String(v).replace(/[\\']/g, (c) => `\\${c}`)}'`;
const FIELD = String.raw`(?:\x60[^\x60]+\x60|[\w.@\[\]'"-]+)`;

/** The variables a dashboard defines: [{name, field, sourceId, label}]. */
export function variablesOf(dashboard) {
  return (dashboard.filters || [])
    .filter((f) => f.isVariableEnabled && f.variableName)
    .map((f) => ({ name: f.variableName, field: f.expression, sourceId: f.sourceId, label: f.name }));
}

/** Drops the boolean operators and parentheses a removed clause left dangling. */
function tidy(where) {
  let w = where;
  for (let before = ''; before !== w;) {
    before = w;
    w = w
      .replace(/\(\s*\)/g, ' ')
      .replace(/\b(AND|OR)\s+(?=(AND|OR)\b)/gi, '')
      .replace(/\b(NOT)\s*(?=\)|$)/gi, '')
      .replace(/^\s*(AND|OR)\b/i, '')
      .replace(/\b(AND|OR)\s*$/i, '')
      .replace(/\(\s*(AND|OR)\b/gi, '(')
      .replace(/\b(AND|OR)\s*\)/gi, ')');
  }
  return w.replace(/\s+/g, ' ').trim();
}

/**
 * A where with the dashboard's variables put in.
 * @param {string} where the tile's where
 * @param {string} lang 'lucene' or 'sql'
 * @param {Map<string, string|null>} values each variable's chosen value, null for "All"
 */
export function substitute(where, lang, values) {
  if (!where || !where.includes('$')) return where || '';
  let w = where;
  for (const [name, value] of values) {
    const ref = lang === 'sql' ? String.raw`'\$${name}'` : String.raw`\$${name}(?![\w])`;
    const term = lang === 'sql'
      ? new RegExp(String.raw`(${FIELD})\s*(=|!=|<>)\s*${ref}`, 'g')
      : new RegExp(String.raw`((?:-|NOT\s+)?${FIELD}):${ref}`, 'g');
    if (value === null || value === undefined) {
      w = tidy(w.replace(term, ' '));
    } else {
      const quoted = lang === 'sql' ? quoteSql(value) : quoteLucene(value);
      w = w.replace(new RegExp(ref, 'g'), () => quoted);
    }
  }
  return w;
}

/** A tile with its wheres substituted (a copy; the dashboard's own tile is left alone). */
export function tileWith(tile, values) {
  if (!values.size) return tile;
  const t = JSON.parse(JSON.stringify(tile));
  const cfg = t.config || {};
  if (typeof cfg.where === 'string') cfg.where = substitute(cfg.where, cfg.whereLanguage || 'lucene', values);
  for (const s of Array.isArray(cfg.select) ? cfg.select : []) {
    if (typeof s.where === 'string') s.where = substitute(s.where, s.whereLanguage || 'lucene', values);
  }
  return t;
}

/** The chosen values read from the URL: ?var-<name>=<value> (absent: All). */
export function readValues(vars, params) {
  return new Map(vars.map((v) => [v.name, params.has(`var-${v.name}`) ? params.get(`var-${v.name}`) : null]));
}

/**
 * The dropdowns of the variables; onChange(values) when one changes (the URL is updated already).
 * @returns {HTMLElement}
 */
export function variableBar(vars, values, { sid, start, end, onChange }) {
  const bar = document.createElement('div');
  bar.className = 'toolbar variables';
  bar.setAttribute('aria-label', 'Dashboard variables');
  bar.innerHTML = vars
    .map((v, i) => `<div class="field"><label for="var-${i}">${esc(v.label || v.name)} <code>$${esc(v.name)}</code></label>
      <select id="var-${i}" data-variable="${esc(v.name)}"><option value="">All</option></select></div>`)
    .join('');
  vars.forEach(async (v, i) => {
    const select = bar.querySelector(`#var-${i}`);
    const chosen = values.get(v.name);
    const known = new Set();
    const add = (value) => {
      if (known.has(value)) return;
      known.add(value);
      const o = document.createElement('option');
      o.value = value;
      o.textContent = value;
      select.appendChild(o);
    };
    if (chosen !== null) add(chosen);
    select.value = chosen ?? '';
    try {
      const answer = await api.facets(sid, {
        sourceId: v.sourceId, fields: [v.field], limit: 100,
        startTime: new Date(start).toISOString(), endTime: new Date(end).toISOString(),
      });
      const facet = (answer.fields || [])[0] || {};
      for (const x of facet.values || []) add(String(x.value));
      select.dataset.state = facet.error ? 'error' : 'ready';
      if (facet.error) select.title = facet.error;
    } catch (e) {
      select.dataset.state = 'error';
      select.title = e.message || String(e);
    }
  });
  bar.addEventListener('change', (e) => {
    const name = e.target.dataset.variable;
    if (!name) return;
    values.set(name, e.target.value === '' ? null : e.target.value);
    const p = new URLSearchParams(location.search);
    if (values.get(name) === null) p.delete(`var-${name}`);
    else p.set(`var-${name}`, values.get(name));
    history.replaceState(null, '', `${location.pathname}?${p}`);
    onChange(values);
  });
  return bar;
}
