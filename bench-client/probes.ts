// Code that runs inside the page. Kept as plain-JavaScript strings, not functions, because tsx
// rewrites functions it compiles (adding helpers such as __name) and those would not exist in the
// page once Playwright serialises them.

/**
 * Injected before any of the app's scripts on every navigation. It watches, once per animation
 * frame, for the first full render of the board:
 *   - the connection status (role="status") says data-status="live",
 *   - the canvas has indexed every shape (data-shape-count === expected), and
 *   - the SVG holds exactly the shapes the canvas decided are in view
 *     (number of [data-shape-id] elements === data-rendered-count > 0).
 * Times are performance.now(), i.e. milliseconds since this navigation started.
 */
export function firstRenderProbe(expected: number): string {
  return `(() => {
  const out = { expected: ${expected}, firstShape: null, live: null, indexed: null, full: null, nextFrame: null,
    rendered: null, zoom: null, longFrames: [], wsOpen: null, syncMessage: null, syncBytes: 0 };
  window.__tandemBench = out;
  // When the document socket opened, and when its largest early message (the server's sync
  // answer with the whole board) arrived, to split the load into network and client work.
  const NativeWS = window.WebSocket;
  window.WebSocket = class extends NativeWS {
    constructor(url, protocols) {
      super(url, protocols);
      if (!String(url).includes('/yjs/')) return;
      this.addEventListener('open', () => { if (out.wsOpen === null) out.wsOpen = performance.now(); });
      this.addEventListener('message', (e) => {
        const size = e.data && (e.data.byteLength || e.data.size || e.data.length || 0);
        if (out.full === null && size > out.syncBytes) { out.syncBytes = size; out.syncMessage = performance.now(); }
      });
    }
  };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) out.longFrames.push({ start: e.startTime, duration: e.duration,
        blocking: e.blockingDuration, render: e.renderStart ? e.startTime + e.duration - e.renderStart : null });
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {}
  const frame = () => {
    const now = performance.now();
    if (out.full !== null) { out.nextFrame = now; return; }
    const status = document.querySelector('[role="status"]');
    const canvas = document.querySelector('svg[aria-label="Board canvas"]');
    if (status && status.getAttribute('data-status') === 'live' && out.live === null) out.live = now;
    if (canvas) {
      if (out.firstShape === null && canvas.querySelector('[data-shape-id]')) out.firstShape = now;
      const count = Number(canvas.getAttribute('data-shape-count'));
      if (count === out.expected && out.indexed === null) out.indexed = now;
      const rendered = Number(canvas.getAttribute('data-rendered-count'));
      if (out.live !== null && out.indexed !== null && rendered > 0 &&
          canvas.querySelectorAll('[data-shape-id]').length === rendered) {
        out.full = now;
        out.rendered = rendered;
        const zoom = document.querySelector('button[aria-label="Reset zoom"]');
        out.zoom = zoom ? zoom.textContent : null;
      }
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;
}

/** Starts recording the interval between consecutive animation frames (and long animation frames). */
export const startFrameRecorder = `(() => {
  const rec = { deltas: [], last: null, running: true, longFrames: [] };
  window.__tandemFrames = rec;
  try {
    rec.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) rec.longFrames.push({ duration: e.duration, blocking: e.blockingDuration,
        render: e.renderStart ? e.startTime + e.duration - e.renderStart : null,
        scripts: e.scripts ? e.scripts.reduce((s, x) => s + x.duration, 0) : null });
    });
    rec.observer.observe({ type: 'long-animation-frame' });
  } catch {}
  const tick = (t) => {
    if (!rec.running) return;
    if (rec.last !== null) rec.deltas.push(t - rec.last);
    rec.last = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

/** Stops the recorder and answers what it saw. */
export const stopFrameRecorder = `(() => {
  const rec = window.__tandemFrames;
  rec.running = false;
  if (rec.observer) { for (const e of rec.observer.takeRecords()) rec.longFrames.push({ duration: e.duration }); rec.observer.disconnect(); }
  const canvas = document.querySelector('svg[aria-label="Board canvas"]');
  const zoom = document.querySelector('button[aria-label="Reset zoom"]');
  return { deltas: rec.deltas, longFrames: rec.longFrames,
    rendered: canvas ? Number(canvas.getAttribute('data-rendered-count')) : null,
    zoom: zoom ? zoom.textContent : null };
})()`;

/** What is on screen now: zoom label and how many shapes the canvas draws. */
export const viewState = `(() => {
  const canvas = document.querySelector('svg[aria-label="Board canvas"]');
  const zoom = document.querySelector('button[aria-label="Reset zoom"]');
  return { rendered: canvas ? Number(canvas.getAttribute('data-rendered-count')) : null,
    zoom: zoom ? zoom.textContent : null };
})()`;
