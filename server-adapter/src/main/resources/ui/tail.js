// Live tail: the events matching the explorer's where as they are ingested, streamed by
// POST /api/v2/tail and put on top of a table. Scrolling down pauses it (new events wait, counted,
// until the reader scrolls back to the top or clicks "resume").
import { api } from './api.js';
import { eventsTable, appendRows } from './events.js';

const MAX_ROWS = 500;

/**
 * Starts a tail drawn into box; returns a function that stops it.
 * @param {HTMLElement} box where the table goes
 * @param {HTMLElement} note where the state is said ("live", "paused, 3 new", ...)
 * @param {{sid: string, query: object, columns: object[], rowOptions: object}} o
 */
export function liveTail(box, note, { sid, query, columns, rowOptions }) {
  const abort = new AbortController();
  box.innerHTML = '';
  box.dataset.state = 'live';
  const table = eventsTable(box, columns, [], rowOptions);
  const waiting = [];
  let received = 0;
  let skipped = 0;
  const say = (text) => { note.textContent = text; };
  const paused = () => box.scrollTop > 4;
  const resume = document.createElement('button');
  resume.type = 'button';
  resume.className = 'quiet tail-resume';
  resume.hidden = true;
  box.before(resume);

  function put(rows) {
    const scratch = document.createElement('table');
    scratch.appendChild(document.createElement('tbody'));
    appendRows(scratch, columns, rows, rowOptions);
    const tbody = table.tBodies[0];
    // Each row was sent oldest first: putting each on top leaves the newest first.
    for (const tr of [...scratch.tBodies[0].rows]) tbody.prepend(tr);
    while (tbody.rows.length > MAX_ROWS) tbody.lastElementChild.remove();
    box.dataset.rows = String(tbody.querySelectorAll('tr.event').length);
  }

  function state() {
    const extra = skipped ? ` · ${skipped.toLocaleString()} skipped by the rate limit` : '';
    if (waiting.length) {
      box.dataset.state = 'paused';
      resume.hidden = false;
      resume.textContent = `Paused, ${waiting.length} new: resume`;
      say(`paused, ${waiting.length} new${extra}`);
    } else {
      box.dataset.state = 'live';
      resume.hidden = true;
      say(`live · ${received.toLocaleString()} received${extra}`);
    }
  }

  function flush() {
    box.scrollTop = 0;
    put(waiting.splice(0));
    state();
  }
  resume.addEventListener('click', flush);
  box.addEventListener('scroll', () => {
    if (!paused() && waiting.length) flush();
  });

  (async () => {
    try {
      say('connecting…');
      for await (const line of api.tail(sid, query, abort.signal)) {
        if (line.type === 'event') {
          received++;
          if (paused()) waiting.push(line.data);
          else put([line.data]);
        } else if (line.type === 'skipped') {
          skipped += line.count;
        } else if (line.type === 'end') {
          say(`ended: ${line.reason}${line.message ? ` (${line.message})` : ''}`);
          box.dataset.state = 'ended';
          return;
        }
        state();
      }
    } catch (e) {
      if (abort.signal.aborted) return;
      box.dataset.state = 'error';
      say(`live tail stopped: ${e.message || e}`);
    }
  })();
  return () => {
    abort.abort();
    resume.remove();
  };
}
