// Diagnostics for `--profile`: a Chromium trace summarised as self time per event name on the
// renderer's main thread and on the raster threads, and a V8 CPU profile summarised as self time
// per function (mapped back to the sources through the build's source map when one is found).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

export interface TraceSummary {
  /** Self time (ms) per event name on the renderer main thread, largest first. */
  main: [string, number][];
  mainTotal: number;
  /** Total RasterTask time (ms) on the tile worker threads. */
  raster: number;
  /** Busy time (ms, sum of top-level trace events) per thread name, in every process. */
  threads: [string, number][];
  /** Self time (ms) per event name on the thread-pool workers (where Chromium rasterises). */
  workers: [string, number][];
  windowMs: number;
}

/** Self time of complete ('X') events per name on one thread: each event minus its children. */
function selfTimes(events: TraceEvent[]): Map<string, number> {
  const sorted = events
    .filter((e) => e.ph === 'X' && typeof e.dur === 'number')
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const out = new Map<string, number>();
  const stack: { e: TraceEvent; child: number }[] = [];
  const close = (until: number) => {
    while (stack.length && stack[stack.length - 1]!.e.ts + stack[stack.length - 1]!.e.dur! <= until) {
      const top = stack.pop()!;
      out.set(top.e.name, (out.get(top.e.name) ?? 0) + (top.e.dur! - top.child) / 1000);
      if (stack.length) stack[stack.length - 1]!.child += top.e.dur!;
    }
  };
  for (const e of sorted) {
    close(e.ts);
    stack.push({ e, child: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  return out;
}

export function summariseTrace(json: Buffer): TraceSummary {
  const parsed = JSON.parse(json.toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const names = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    const list = byThread.get(key);
    if (list) list.push(e);
    else byThread.set(key, [e]);
  }
  // The renderer main thread with the most work is the board page's.
  let main: Map<string, number> = new Map();
  let mainTotal = 0;
  let raster = 0;
  const busy = new Map<string, number>();
  const workers = new Map<string, number>();
  for (const [key, list] of byThread) {
    const name = names.get(key) ?? '';
    const label = name.replace(/\d+$/, '');
    const self = selfTimes(list);
    const total = [...self.values()].reduce((a, b) => a + b, 0);
    if (label === 'ThreadPoolForegroundWorker')
      for (const [n, t] of self) workers.set(n, (workers.get(n) ?? 0) + t);
    busy.set(label, (busy.get(label) ?? 0) + total);
    if (name === 'CrRendererMain') {
      const self = selfTimes(list);
      const total = [...self.values()].reduce((a, b) => a + b, 0);
      if (total > mainTotal) {
        main = self;
        mainTotal = total;
      }
    }
    if (name.startsWith('CompositorTileWorker'))
      raster +=
        list.filter((e) => e.ph === 'X' && e.name === 'RasterTask').reduce((s, e) => s + (e.dur ?? 0), 0) /
        1000;
  }
  const threads = [...busy].filter(([, t]) => t >= 1).sort((a, b) => b[1] - a[1]);
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const e of events) {
    if (e.ph !== 'X') continue;
    first = Math.min(first, e.ts);
    last = Math.max(last, e.ts + (e.dur ?? 0));
  }
  const windowMs = last > first ? (last - first) / 1000 : 0;
  return {
    main: [...main].sort((a, b) => b[1] - a[1]),
    mainTotal,
    raster,
    threads,
    workers: [...workers].sort((a, b) => b[1] - a[1]).slice(0, 12),
    windowMs,
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

interface Consumer {
  originalPositionFor(p: { line: number; column: number }): {
    source: string | null;
    line: number | null;
    name: string | null;
  };
}
type ConsumerClass = new (map: unknown) => Consumer;
type Mapper = (url: string, line: number, column: number) => string | null;

/** Maps positions in the built bundle back to sources, with source-map-js when it is installed. */
export async function bundleMapper(distDir: string): Promise<Mapper | null> {
  try {
    // Not a dependency of this repository: used when another package brought it in, else skipped.
    const specifier = 'source-map-js';
    const { SourceMapConsumer } = (await import(specifier)) as { SourceMapConsumer: ConsumerClass };
    const cache = new Map<string, Consumer | null>();
    return (url, line, column) => {
      const m = /\/assets\/([^/?#]+\.js)/.exec(url);
      if (!m) return null;
      let consumer = cache.get(m[1]!);
      if (consumer === undefined) {
        const file = join(distDir, 'assets', `${m[1]}.map`);
        consumer = existsSync(file) ? new SourceMapConsumer(JSON.parse(readFileSync(file, 'utf8'))) : null;
        cache.set(m[1]!, consumer);
      }
      if (!consumer) return null;
      const pos = consumer.originalPositionFor({ line: line + 1, column });
      if (!pos.source) return null;
      const source = pos.source.replace(/^(\.\.\/)+/, '').replace(/^.*node_modules\//, '');
      return `${pos.name ?? '?'} ${source}:${pos.line}`;
    };
  } catch {
    return null;
  }
}

/** Self time (ms) per function, largest first. */
export function summariseProfile(profile: CpuProfile, mapper: Mapper | null, top = 25): [string, number][] {
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    // Each sample's time is the delta to the next one.
    const dt = (deltas[i + 1] ?? 0) / 1000;
    self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + dt);
  }
  const byName = new Map<string, number>();
  for (const node of profile.nodes) {
    const t = self.get(node.id);
    if (!t) continue;
    const f = node.callFrame;
    const where = f.url ? (mapper?.(f.url, f.lineNumber, f.columnNumber) ?? null) : null;
    const label = where
      ? `${f.functionName || '(anonymous)'} → ${where}`
      : f.url
        ? `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}`
        : f.functionName || '(anonymous)';
    byName.set(label, (byName.get(label) ?? 0) + t);
  }
  return [...byName].sort((a, b) => b[1] - a[1]).slice(0, top);
}
