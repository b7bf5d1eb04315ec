// Number and time formatting: a tile's numberFormat (HyperDX's fields) and local times.

const BYTES_1024 = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
const BYTES_1000 = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

function plain(v, mantissa, thousands) {
  const abs = Math.abs(v);
  const digits = mantissa ?? (abs >= 100 || Number.isInteger(v) ? 0 : abs >= 1 ? 2 : 3);
  return v.toLocaleString(undefined, {
    minimumFractionDigits: mantissa ?? 0,
    maximumFractionDigits: digits,
    useGrouping: thousands !== false,
  });
}

function compact(v, mantissa) {
  return v.toLocaleString(undefined, {
    notation: 'compact',
    maximumFractionDigits: mantissa ?? 1,
  });
}

function bytes(v, decimal, mantissa) {
  const base = decimal ? 1000 : 1024;
  const units = decimal ? BYTES_1000 : BYTES_1024;
  let i = 0;
  let x = Math.abs(v);
  while (x >= base && i < units.length - 1) {
    x /= base;
    i++;
  }
  return `${v < 0 ? '-' : ''}${plain(x, mantissa ?? (i === 0 ? 0 : 1))} ${units[i]}`;
}

/** A duration given in seconds, in the largest unit that keeps it readable. */
export function duration(seconds, mantissa) {
  const s = Math.abs(seconds);
  const sign = seconds < 0 ? '-' : '';
  if (s === 0) return '0 s';
  if (s < 1e-3) return `${sign}${plain(s * 1e6, mantissa ?? 1)} µs`;
  if (s < 1) return `${sign}${plain(s * 1e3, mantissa ?? 1)} ms`;
  if (s < 60) return `${sign}${plain(s, mantissa ?? 2)} s`;
  if (s < 3600) return `${sign}${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  if (s < 86400) return `${sign}${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
  return `${sign}${Math.floor(s / 86400)} d ${Math.round((s % 86400) / 3600)} h`;
}

/**
 * @param {object|undefined} nf a numberFormat ({output, mantissa, thousandSeparated, average,
 *   decimalBytes, factor, currencySymbol, unit})
 * @returns {(v: number|null|undefined) => string}
 */
export function formatter(nf) {
  const f = nf || {};
  const factor = typeof f.factor === 'number' ? f.factor : 1;
  const m = f.mantissa;
  const unit = f.unit ? ` ${f.unit}` : '';
  let fmt;
  switch (f.output) {
    case 'percent':
      fmt = (v) => `${plain(v * factor * 100, m ?? 1, f.thousandSeparated)}%`;
      break;
    case 'byte':
      fmt = (v) => bytes(v * factor, f.decimalBytes, m);
      break;
    case 'data_rate':
      fmt = (v) => `${bytes(v * factor, f.decimalBytes, m)}/s`;
      break;
    case 'throughput':
      fmt = (v) => `${f.average ? compact(v * factor, m) : plain(v * factor, m, f.thousandSeparated)}/s`;
      break;
    case 'currency':
      fmt = (v) => `${f.currencySymbol ?? '$'}${plain(v * factor, m ?? 2, f.thousandSeparated)}`;
      break;
    case 'time':
    case 'duration':
      // factor turns the stored value into seconds (0.001 for milliseconds), as in HyperDX.
      fmt = (v) => duration(v * factor, m);
      break;
    default:
      fmt = (v) => (f.average ? compact(v * factor, m) : plain(v * factor, m, f.thousandSeparated));
  }
  return (v) => (v == null || Number.isNaN(v) ? '—' : fmt(v) + unit);
}

/** A local date and time, to the second. */
export function localTime(ms) {
  return new Date(ms).toLocaleString(undefined, {
    year: 'numeric', month: 'short', day: '2-digit',
    hour: '2-digit', minute: '2-digit', second: '2-digit',
  });
}

/** A local time with milliseconds, for event rows. */
export function eventTime(value) {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  const p = (n, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** The value of a datetime-local input for a time. */
export function toLocalInput(ms) {
  const d = new Date(ms);
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

export const PALETTE = [
  '#1f5fd1', '#e8710a', '#0d9488', '#c2185b', '#7b1fa2', '#2e7d32', '#d32f2f', '#5d4037',
  '#0288d1', '#9e9d24', '#455a64', '#f06292', '#6d4c41', '#00838f', '#8e24aa', '#558b2f',
];
export const color = (i) => PALETTE[i % PALETTE.length];

/** Escapes text for HTML. */
export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}
