// The explorer's Patterns view: the matching events' text grouped into patterns (variable parts as
// placeholders, POST /api/v2/patterns), each with its count, a sparkline over the range and a
// sample. A click on a pattern searches for its events (its where, in the where's language); a
// click on its sample's time shows that event (the same where, within a second of it).
import { api } from './api.js';
import { esc, eventTime } from './format.js';

/** A sparkline of counts as a tiny inline SVG of bars, tallest bar full height. */
export function sparkline(values, width = 120, height = 24) {
  const max = Math.max(1, ...values);
  const w = width / Math.max(1, values.length);
  const bars = values.map((v, i) => {
    const h = v ? Math.max(1, Math.round((v / max) * height)) : 0;
    return h ? `<rect x="${(i * w).toFixed(1)}" y="${height - h}" width="${Math.max(1, w - 1).toFixed(1)}" height="${h}"/>` : '';
  }).join('');
  return `<svg class="spark" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img"
    aria-label="counts over the range: ${values.join(', ')}">${bars}</svg>`;
}

/** The pattern's text with its placeholders marked. */
function patternHtml(text) {
  return esc(text).replace(/&lt;([A-Z]+|\*)&gt;/g, '<span class="ph">&lt;$1&gt;</span>');
}

/**
 * @param {HTMLElement} box where the patterns are drawn
 * @param {{sid: string, onPick: (where: string, lang: string, at?: number) => void}} o onPick: a
 *   pattern was chosen; its where (with the search's where in front) should be searched, within a
 *   second of `at` when its sample was chosen
 */
export function patternsPanel(box, o) {
  let inflight = null;

  async function refresh(query) {
    if (inflight) inflight.abort();
    const abort = new AbortController();
    inflight = abort;
    box.dataset.state = 'loading';
    box.setAttribute('aria-busy', 'true');
    const body = { sourceId: query.sourceId, startTime: query.startTime, endTime: query.endTime,
      where: query.where, whereLanguage: query.whereLanguage, limit: 50 };
    try {
      const answer = await api.patterns(o.sid, body, abort.signal);
      if (abort.signal.aborted) return;
      draw(answer);
    } catch (e) {
      if (abort.signal.aborted) return;
      box.dataset.state = 'error';
      box.setAttribute('aria-busy', 'false');
      box.innerHTML = `<p class="error" role="alert">${esc(e.message || String(e))}</p>`;
    }
  }

  function draw(a) {
    box.setAttribute('aria-busy', 'false');
    if (!a.patterns.length) {
      box.dataset.state = 'empty';
      box.innerHTML = '<p class="state">No events match in this time range.</p>';
      return;
    }
    const about = a.sampled ? '≈' : '';
    const note = a.sampled
      ? `${a.patternCount} patterns in a sample of ${a.eventsConsidered.toLocaleString()} of ${a.eventsMatched.toLocaleString()} events; counts estimated`
      : `${a.patternCount} patterns in ${a.eventsMatched.toLocaleString()} events`;
    const rows = a.patterns.map((p, i) => `<tr class="pattern" data-index="${i}">
        <td class="num" data-count="${p.count}">${about}${p.count.toLocaleString()}</td>
        <td>${sparkline(p.sparkline)}</td>
        <td><button type="button" class="link pattern-pick" data-index="${i}" title="Search: ${esc(p.where)}">${patternHtml(p.pattern)}</button>
          <div class="hint">${p.otherMatches ? `its where also matches ${p.otherMatches.toLocaleString()} other events · ` : ''}sample <button type="button" class="link pattern-sample" data-index="${i}"
            aria-label="Show the sample event of ${esc(eventTime(p.sample.time))}">${esc(eventTime(p.sample.time))}</button>:
            <span class="sample">${esc(p.sample.text)}</span></div></td>
      </tr>`).join('');
    box.innerHTML = `<p class="hint x-patterns-note">${esc(note)} · ${esc(a.field)} · click a pattern to search its events</p>
      <table class="data patterns"><thead><tr><th scope="col">Count</th><th scope="col">Over time</th>
      <th scope="col">Pattern</th></tr></thead><tbody>${rows}</tbody></table>`;
    box.dataset.state = 'ready';
    box.querySelectorAll('button.pattern-pick, button.pattern-sample').forEach((b) => b.addEventListener('click', () => {
      const p = a.patterns[Number(b.dataset.index)];
      o.onPick(p.where, p.whereLanguage, b.classList.contains('pattern-sample') ? Date.parse(p.sample.time) : undefined);
    }));
  }

  return { refresh, abort: () => inflight && inflight.abort() };
}
