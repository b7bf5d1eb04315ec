// The time range and granularity shared by a dashboard's tiles and the explorer, kept in the URL
// (?range=1h or ?from=&to=, &granularity=, &live=1) so that a view can be bookmarked.
import { localTime, toLocalInput } from './format.js';

export const PRESETS = [
  ['15m', 'Last 15 minutes', 15 * 60e3],
  ['1h', 'Last hour', 3600e3],
  ['6h', 'Last 6 hours', 6 * 3600e3],
  ['24h', 'Last 24 hours', 24 * 3600e3],
  ['7d', 'Last 7 days', 7 * 86400e3],
];
const UNIT = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3 };
export const GRANULARITIES = ['30s', '1m', '5m', '10m', '15m', '30m', '1h', '2h', '6h', '12h', '1d', '2d', '7d', '30d'];
const AUTO_STEPS = ['15s', '30s', '1m', '5m', '15m', '30m', '1h', '2h', '6h', '12h', '1d', '2d', '7d', '30d'];
export const LIVE_MS = 10_000;

/** The length of a granularity such as '5m', in milliseconds. */
export function granularityMs(g) {
  return Number(g.slice(0, -1)) * UNIT[g.slice(-1)];
}

/** The granularity the server picks for 'auto' (the chart API's rule). */
export function autoGranularity(start, end) {
  const need = Math.ceil(Math.floor((end - start) / 1000) / 60) * 1000;
  return AUTO_STEPS.find((g) => granularityMs(g) >= need) || '30d';
}

/** Reads the time state from the URL. */
export function readTime(params, defaultPreset = '1h') {
  const from = Number(params.get('from'));
  const to = Number(params.get('to'));
  const custom = from > 0 && to > from;
  const preset = PRESETS.some((p) => p[0] === params.get('range')) ? params.get('range') : defaultPreset;
  const g = params.get('granularity');
  return {
    preset: custom ? 'custom' : preset,
    from: custom ? from : 0,
    to: custom ? to : 0,
    granularity: GRANULARITIES.includes(g) ? g : 'auto',
    live: !custom && params.get('live') === '1',
  };
}

/** Writes the time state into URL parameters. */
export function writeTime(params, t) {
  for (const k of ['range', 'from', 'to', 'granularity', 'live']) params.delete(k);
  if (t.preset === 'custom') {
    params.set('from', String(t.from));
    params.set('to', String(t.to));
  } else {
    params.set('range', t.preset);
  }
  if (t.granularity !== 'auto') params.set('granularity', t.granularity);
  if (t.live) params.set('live', '1');
}

/** @returns {{start: number, end: number}} the range in epoch milliseconds, now for presets */
export function resolve(t) {
  if (t.preset === 'custom') return { start: t.from, end: t.to };
  const ms = PRESETS.find((p) => p[0] === t.preset)[2];
  const end = Date.now();
  return { start: end - ms, end };
}

let ids = 0;

/**
 * The range picker, granularity picker, refresh button and live toggle.
 * @param {object} t the time state (changed in place)
 * @param {(t: object) => void} onChange called after every change
 * @param {{granularity?: boolean}} options
 */
export function timeControls(t, onChange, { granularity = true } = {}) {
  const n = ++ids;
  const box = document.createElement('div');
  box.className = 'toolbar-group custom-range';
  box.innerHTML = `
    <div class="field"><label for="range-${n}">Time range</label>
      <select id="range-${n}" name="range">
        ${PRESETS.map((p) => `<option value="${p[0]}">${p[1]}</option>`).join('')}
        <option value="custom">Custom…</option>
      </select></div>
    <div class="field custom" hidden><label for="from-${n}">From</label><input id="from-${n}" type="datetime-local"></div>
    <div class="field custom" hidden><label for="to-${n}">To</label><input id="to-${n}" type="datetime-local"></div>
    <button type="button" class="quiet custom apply" hidden>Apply</button>
    ${granularity ? `<div class="field"><label for="gran-${n}">Granularity</label>
      <select id="gran-${n}" name="granularity"><option value="auto">Auto</option>
        ${GRANULARITIES.map((g) => `<option value="${g}">${g}</option>`).join('')}</select></div>` : ''}
    <button type="button" class="quiet refresh">Refresh</button>
    <button type="button" class="quiet live" aria-pressed="false" title="Refresh every 10 seconds">Live</button>
    <span class="range-text" aria-live="polite"></span>`;
  const range = box.querySelector(`#range-${n}`);
  const from = box.querySelector(`#from-${n}`);
  const to = box.querySelector(`#to-${n}`);
  const gran = box.querySelector(`#gran-${n}`);
  const live = box.querySelector('.live');
  const text = box.querySelector('.range-text');

  function sync() {
    range.value = t.preset;
    const custom = t.preset === 'custom';
    box.querySelectorAll('.custom').forEach((e) => (e.hidden = !custom));
    const r = resolve(t);
    if (custom) {
      from.value = toLocalInput(t.from);
      to.value = toLocalInput(t.to);
    }
    if (gran) gran.value = t.granularity;
    live.disabled = custom;
    live.setAttribute('aria-pressed', String(t.live));
    text.textContent = `${localTime(r.start)} – ${localTime(r.end)}`;
  }
  range.addEventListener('change', () => {
    if (range.value === 'custom') {
      const r = resolve(t);
      Object.assign(t, { preset: 'custom', from: r.start, to: r.end, live: false });
    } else {
      t.preset = range.value;
    }
    sync();
    onChange(t);
  });
  box.querySelector('.apply').addEventListener('click', () => {
    const a = new Date(from.value).getTime();
    const b = new Date(to.value).getTime();
    if (!(a < b)) {
      text.textContent = 'From must be before To';
      return;
    }
    Object.assign(t, { preset: 'custom', from: a, to: b, live: false });
    sync();
    onChange(t);
  });
  if (gran) {
    gran.addEventListener('change', () => {
      t.granularity = gran.value;
      onChange(t);
    });
  }
  box.querySelector('.refresh').addEventListener('click', () => {
    sync();
    onChange(t);
  });
  live.addEventListener('click', () => {
    t.live = !t.live;
    sync();
    onChange(t);
  });
  sync();
  box.sync = sync;
  return box;
}
