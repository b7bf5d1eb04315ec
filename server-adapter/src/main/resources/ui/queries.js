// From a tile's config to chart queries (POST /api/v2/charts/series) and from their rows to what
// the tiles draw: time series per (select item, group), or one value per (select item, group) over
// the whole range.
import { api } from './api.js';
import { granularityMs } from './time.js';

const MAX_SERIES_PER_QUERY = 5; // the chart API's limit
export const MAX_DRAWN_SERIES = 20;
const COUNTING = new Set(['count', 'count_distinct', 'sum']);

/** Splits a comma-separated list at its top level (not inside brackets or quotes). */
export function splitList(text) {
  const out = [];
  let depth = 0;
  let quote = null;
  let cur = '';
  for (const ch of text || '') {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"' || ch === '`') {
      quote = ch;
    } else if (ch === '(' || ch === '[') {
      depth++;
    } else if (ch === ')' || ch === ']') {
      depth--;
    } else if (ch === ',' && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** A group-by expression as the chart API's field names. */
export function groupFields(groupBy) {
  return splitList(groupBy).map((f) => f.replace(/^`(.*)`$/, '$1').replace(/^(\w+)\['([^']*)'\]$/, '$1.$2'));
}

function label(s) {
  if (s.alias) return s.alias;
  if (s.aggFn === 'count') return 'count';
  const fn = s.aggFn === 'quantile' ? `p${Math.round(Number(s.level ?? 0.5) * 100)}` : s.aggFn;
  return `${fn}(${s.valueExpression || s.metricName || ''})`;
}

/**
 * @returns {{items: {label: string, aggFn: string, series: object, format: object}[], groupBy: string[]}}
 */
export function seriesOf(cfg) {
  const groupBy = groupFields(cfg.groupBy);
  const items = (cfg.select || [])
    .filter((s) => s.aggFn && s.aggFn !== 'none')
    .map((s) => {
      const series = { sourceId: cfg.sourceId, aggFn: s.aggFn, where: s.where || '', whereLanguage: s.whereLanguage || 'lucene', groupBy };
      if (s.valueExpression) series.field = s.valueExpression;
      if (s.level != null) series.level = Number(s.level);
      if (s.metricName) {
        series.metricName = s.metricName;
        if (s.metricType) series.metricDataType = s.metricType;
      }
      return { label: label(s), aggFn: s.aggFn, series, format: s.numberFormat || cfg.numberFormat };
    });
  return { items, groupBy };
}

/**
 * Runs the items' series (five per request, the API's limit) and joins the answers.
 * @returns {Promise<{ts: number, group: string[], values: (number|undefined)[]}[]>}
 */
export async function run(sid, items, start, end, granularity, signal) {
  const chunks = [];
  for (let i = 0; i < items.length; i += MAX_SERIES_PER_QUERY) chunks.push(items.slice(i, i + MAX_SERIES_PER_QUERY));
  const answers = await Promise.all(
    chunks.map((c) => api.chart(sid, { startTime: Math.floor(start), endTime: Math.floor(end), granularity, series: c.map((x) => x.series) }, signal)),
  );
  const rows = new Map();
  answers.forEach((data, ci) => {
    for (const r of data) {
      const key = `${r.ts_bucket}\u0000${JSON.stringify(r.group)}`;
      let row = rows.get(key);
      if (!row) rows.set(key, (row = { ts: r.ts_bucket, group: r.group, values: [] }));
      for (let j = 0; j < chunks[ci].length; j++) {
        const v = r[`series_${j}.data`];
        if (v !== undefined) row.values[ci * MAX_SERIES_PER_QUERY + j] = v;
      }
    }
  });
  return [...rows.values()];
}

/**
 * Time series for line and bar charts: one per (item, group), every bucket of the range present
 * (counts filled with 0, other aggregates left empty), at most MAX_DRAWN_SERIES (the largest).
 */
export function timeSeries(rows, items, start, end, granularity) {
  const g = granularityMs(granularity);
  const xs = [];
  for (let t = Math.floor(start / g) * g; t <= end; t += g) xs.push(t);
  const index = new Map(xs.map((t, i) => [t, i]));
  const lines = new Map();
  const multi = items.length > 1;
  for (const r of rows) {
    const i = index.get(r.ts);
    if (i === undefined) continue;
    r.values.forEach((v, k) => {
      if (v === undefined || v === null) return;
      const gl = r.group.length ? r.group.join(', ') : '';
      const key = `${k}\u0000${gl}`;
      let line = lines.get(key);
      if (!line) {
        const name = gl ? (multi ? `${items[k].label} · ${gl}` : gl) : items[k].label;
        const fill = COUNTING.has(items[k].aggFn) ? 0 : null;
        line = { label: name, item: k, values: new Array(xs.length).fill(fill), total: 0 };
        lines.set(key, line);
      }
      line.values[i] = v;
      line.total += Math.abs(v);
    });
  }
  const all = [...lines.values()].sort((a, b) => b.total - a.total || a.label.localeCompare(b.label));
  return { xs, lines: all.slice(0, MAX_DRAWN_SERIES), hidden: Math.max(0, all.length - MAX_DRAWN_SERIES) };
}

const MERGEABLE = new Set(['count', 'sum', 'min', 'max', 'last_value', 'avg']);

/**
 * One value per (item, group) over the whole range. The chart API buckets by granularity; the
 * longest one (30 days, epoch-aligned) holds the range whole unless the range crosses a bucket
 * boundary. Then count, sum, min, max and last_value are combined exactly and avg through an added
 * count series; count_distinct, quantile and any cannot be combined, and the answer says so.
 * @returns {Promise<{groups: {group: string[], values: (number|null)[]}[], approximate: boolean}>}
 */
export async function totals(sid, items, start, end, signal) {
  const all = [...items];
  const weights = items.map((it) => {
    if (it.aggFn !== 'avg') return -1;
    all.push({ ...it, aggFn: 'count', series: { ...it.series, aggFn: 'count', field: undefined, level: undefined } });
    return all.length - 1;
  });
  const rows = await run(sid, all, start, end, '30d', signal);
  rows.sort((a, b) => a.ts - b.ts);
  const groups = new Map();
  const buckets = new Set();
  let approximate = false;
  for (const r of rows) {
    buckets.add(r.ts);
    const key = JSON.stringify(r.group);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { group: r.group, acc: items.map(() => null), n: items.map(() => 0), w: items.map(() => 0) }));
    items.forEach((it, k) => {
      const v = r.values[k];
      if (v === undefined || v === null) return;
      const prev = g.acc[k];
      g.n[k]++;
      switch (it.aggFn) {
        case 'count':
        case 'sum':
          g.acc[k] = (prev ?? 0) + v;
          break;
        case 'min':
          g.acc[k] = prev === null ? v : Math.min(prev, v);
          break;
        case 'max':
          g.acc[k] = prev === null ? v : Math.max(prev, v);
          break;
        case 'avg': {
          const w = r.values[weights[k]] ?? 0;
          g.acc[k] = (prev ?? 0) + v * w;
          g.w[k] += w;
          break;
        }
        default: // last_value, and the last bucket's value of what cannot be combined
          g.acc[k] = v;
      }
    });
  }
  const out = [];
  for (const g of groups.values()) {
    const values = items.map((it, k) => {
      if (!MERGEABLE.has(it.aggFn) && g.n[k] > 1) approximate = true;
      if (it.aggFn === 'avg') return g.w[k] > 0 ? g.acc[k] / g.w[k] : null;
      return g.acc[k];
    });
    out.push({ group: g.group, values });
  }
  return { groups: out, approximate: approximate && buckets.size > 1 };
}
