// Drawing with uPlot (vendored, global `uPlot`): time series as lines or stacked bars, with local
// time axes and a legend per series; a pie and a sparkline as SVG.
import { color, esc } from './format.js';

const SVG = 'http://www.w3.org/2000/svg';

/** Keeps a uPlot chart the size of its box. */
function fit(u, box) {
  let gone = false;
  const size = () => {
    if (gone) return;
    const legend = u.root.querySelector('.u-legend');
    const h = Math.max(60, box.clientHeight - (legend ? legend.offsetHeight : 0) - 4);
    const w = Math.max(100, box.clientWidth);
    if (w !== u.width || h !== u.height) u.setSize({ width: w, height: h });
  };
  // uPlot applies a new size in a microtask; a new width can wrap the legend onto more (or fewer)
  // lines, so the height is measured again once the size is applied (it settles: the same width
  // gives the same legend).
  (u.hooks.setSize = u.hooks.setSize || []).push(() => requestAnimationFrame(size));
  const ro = new ResizeObserver(size);
  ro.observe(box);
  size();
  return () => {
    gone = true;
    ro.disconnect();
    u.destroy();
    box.remove();
  };
}

/**
 * A time chart.
 * @param {HTMLElement} box where to draw (its size is followed)
 * @param {{xs: number[], lines: {label: string, values: (number|null)[]}[]}} data
 * @param {{format: (v: number) => string, stacked?: boolean, bars?: boolean, onPick?: (i: number) => void, label?: string}} o
 * @returns {() => void} removes the chart
 */
export function timeChart(parent, data, o) {
  const uPlot = globalThis.uPlot;
  const box = document.createElement('div');
  box.className = 'chart';
  parent.appendChild(box);
  const n = data.lines.length;
  let ys = data.lines.map((l) => l.values);
  let order = data.lines.map((_, i) => i);
  if (o.stacked) {
    // Cumulative sums, drawn from the total down so that each group's bar shows on top of the
    // ones below it; the legend and cursor show each group's own value.
    const sums = [];
    let acc = new Array(data.xs.length).fill(0);
    for (const l of data.lines) {
      acc = acc.map((a, i) => a + (l.values[i] ?? 0));
      sums.push(acc);
    }
    ys = sums;
    order = [...order].reverse();
  }
  const bars = o.stacked || o.bars;
  const series = [{ label: 'Time' }];
  for (const i of order) {
    const raw = data.lines[i].values;
    series.push({
      label: data.lines[i].label,
      stroke: color(i),
      fill: bars ? color(i) + 'cc' : undefined,
      width: bars ? 0 : 1.5,
      points: { show: false },
      spanGaps: !bars,
      paths: bars ? uPlot.paths.bars({ size: [0.8, 64], gap: 1 }) : undefined,
      value: (u, v, si, idx) => (idx == null ? '—' : o.format(raw[idx])),
    });
  }
  const opts = {
    width: Math.max(100, box.clientWidth),
    height: Math.max(60, box.clientHeight - 30),
    series,
    scales: { x: { time: true }, y: { range: (u, min, max) => [Math.min(0, min), max > 0 ? max * 1.05 : 1] } },
    axes: [
      { stroke: '#5b6475', grid: { stroke: '#eceef2' } },
      { stroke: '#5b6475', grid: { stroke: '#eceef2' }, size: 70, values: (u, vals) => vals.map((v) => o.format(v)) },
    ],
    legend: { show: true, live: true },
    cursor: { drag: { x: false, y: false }, points: { show: !bars } },
  };
  const aligned = [data.xs.map((t) => t / 1000), ...order.map((i) => ys[i])];
  const u = new uPlot(opts, aligned, box);
  u.root.setAttribute('role', 'img');
  u.root.setAttribute('aria-label', `${o.label || 'Chart'}: ${n} series`);
  if (o.onPick) {
    u.over.style.cursor = 'zoom-in';
    u.over.addEventListener('click', () => {
      if (u.cursor.idx != null) o.onPick(u.cursor.idx);
    });
    // The keyboard's way: focus the plot, pick a bucket with the arrow keys, Enter zooms to it.
    u.over.tabIndex = 0;
    u.over.setAttribute('role', 'button');
    u.over.setAttribute('aria-label', 'Buckets: Left and Right arrows pick one, Enter zooms to it');
    let idx = null;
    u.over.addEventListener('keydown', (e) => {
      const last = data.xs.length - 1;
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        idx = idx === null ? (e.key === 'ArrowLeft' ? last : 0) : Math.max(0, Math.min(last, idx + (e.key === 'ArrowLeft' ? -1 : 1)));
        u.setCursor({ left: u.valToPos(data.xs[idx] / 1000, 'x'), top: u.over.clientHeight / 2 });
        e.preventDefault();
      } else if (e.key === 'Enter' && idx !== null) {
        o.onPick(idx);
        e.preventDefault();
      }
    });
  }
  return fit(u, box);
}

function arc(cx, cy, r, a0, a1) {
  const p = (a) => [cx + r * Math.sin(a), cy - r * Math.cos(a)];
  const [x0, y0] = p(a0);
  const [x1, y1] = p(a1);
  return `M${cx},${cy} L${x0.toFixed(2)},${y0.toFixed(2)} A${r},${r} 0 ${a1 - a0 > Math.PI ? 1 : 0} 1 ${x1.toFixed(2)},${y1.toFixed(2)} Z`;
}

/**
 * A pie with its legend (label, value, share).
 * @param {{label: string, value: number}[]} slices, largest first
 */
export function pie(box, slices, format) {
  const total = slices.reduce((s, x) => s + Math.max(0, x.value), 0);
  const wrap = document.createElement('div');
  wrap.className = 'pie';
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 200 200');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', slices.map((s) => `${s.label}: ${format(s.value)}`).join('; '));
  let a = 0;
  slices.forEach((s, i) => {
    const share = total > 0 ? Math.max(0, s.value) / total : 0;
    if (share <= 0) return;
    const el = document.createElementNS(SVG, share >= 0.9999 ? 'circle' : 'path');
    if (share >= 0.9999) {
      el.setAttribute('cx', '100');
      el.setAttribute('cy', '100');
      el.setAttribute('r', '96');
    } else {
      el.setAttribute('d', arc(100, 100, 96, a, a + share * 2 * Math.PI));
    }
    el.setAttribute('fill', color(i));
    el.setAttribute('stroke', '#fff');
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${s.label}: ${format(s.value)} (${(share * 100).toFixed(1)}%)`;
    el.appendChild(title);
    svg.appendChild(el);
    a += share * 2 * Math.PI;
  });
  const legend = document.createElement('ul');
  legend.className = 'legend';
  legend.innerHTML = slices
    .map((s) => `<li><span class="swatch"></span><span>${esc(s.label)}</span>` +
      `<span class="num">${esc(format(s.value))} · ${total > 0 ? ((Math.max(0, s.value) / total) * 100).toFixed(1) : 0}%</span></li>`)
    .join('');
  // Through the CSSOM: the content security policy refuses style attributes in markup.
  legend.querySelectorAll('.swatch').forEach((sw, i) => { sw.style.background = color(i); });
  wrap.append(svg, legend);
  box.appendChild(wrap);
}

/** A small line behind a number: its values over the range. */
export function sparkline(values) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 100 30');
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('aria-hidden', 'true');
  const vs = values.map((v) => v ?? 0);
  const max = Math.max(...vs, 0);
  const min = Math.min(...vs, 0);
  const span = max - min || 1;
  const pts = vs.map((v, i) => `${((i / Math.max(1, vs.length - 1)) * 100).toFixed(2)},${(30 - ((v - min) / span) * 28).toFixed(2)}`);
  const area = document.createElementNS(SVG, 'path');
  area.setAttribute('d', `M0,30 L${pts.join(' L')} L100,30 Z`);
  area.setAttribute('fill', '#1f5fd122');
  const line = document.createElementNS(SVG, 'polyline');
  line.setAttribute('points', pts.join(' '));
  line.setAttribute('fill', 'none');
  line.setAttribute('stroke', '#1f5fd1');
  line.setAttribute('stroke-width', '0.8');
  line.setAttribute('vector-effect', 'non-scaling-stroke');
  svg.append(area, line);
  return svg;
}
