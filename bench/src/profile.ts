// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time by function and by file or package.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  name: string;
  ms: number;
  pct: number;
}

/** Where a script belongs: its npm package, or its path inside the repository. */
function owner(url: string): string {
  if (!url) return '(native / V8)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  const src = url.indexOf('/src/');
  if (src >= 0) {
    const before = url.slice(0, src).split('/').pop();
    return `${before}/src/${url.slice(src + 5)}`;
  }
  return url.split('/').slice(-2).join('/');
}

/** A window of the monotonic clock in µs (V8's profile clock and `nowMicros()` are the same clock). */
export type Window = [number, number];

export function summarizeProfile(
  file: string,
  top = 25,
  window?: Window,
): { total: number; functions: Share[]; owners: Share[]; inclusive: Share[] } {
  const prof = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  for (const n of prof.nodes) byId.set(n.id, n);
  const selfUs = new Map<number, number>();
  let at = prof.startTime;
  for (let i = 0; i < prof.samples.length; i++) {
    const delta = prof.timeDeltas[i] ?? 0;
    at += delta;
    if (window && (at < window[0] || at > window[1])) continue;
    const id = prof.samples[i] as number;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  }
  const fn = new Map<string, number>();
  const own = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    total += us;
    const where = owner(url);
    const key = `${functionName || '(anonymous)'} — ${where}${url ? `:${lineNumber + 1}` : ''}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    own.set(where, (own.get(where) ?? 0) + us);
  }
  // inclusive time of the project's own functions (not node_modules, not node:): where its time goes
  const inclusiveOf = new Map<number, number>();
  const visit = (id: number): number => {
    const known = inclusiveOf.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    let t = selfUs.get(id) ?? 0;
    for (const c of node?.children ?? []) t += visit(c);
    inclusiveOf.set(id, t);
    return t;
  };
  const incl = new Map<string, number>();
  const ownCode = (url: string) =>
    (url.includes('/src/') || url.includes('realtime-server/dist/')) && !url.includes('node_modules/');
  const walk = (id: number, onStack: Set<string>) => {
    const node = byId.get(id);
    if (!node) return;
    const { functionName, url } = node.callFrame;
    const key = `${functionName || '(anonymous)'} — ${owner(url)}`;
    const add = ownCode(url) && !onStack.has(key);
    if (add) {
      incl.set(key, (incl.get(key) ?? 0) + visit(id));
      onStack.add(key);
    }
    for (const c of node.children ?? []) walk(c, onStack);
    if (add) onStack.delete(key);
  };
  const root = prof.nodes[0];
  if (root) walk(root.id, new Set());
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, pct: (us / total) * 100 }));
  return { total: total / 1000, functions: rank(fn), owners: rank(own), inclusive: rank(incl) };
}

/** The summary of the busiest of a run's profiles (a process writes one per thread) inside the window. */
export function formatProfiles(files: string[], window?: Window, top = 25): string {
  const all = files
    .map((f) => ({ f, s: summarizeProfile(f, top, window) }))
    .sort((a, b) => b.s.total - a.s.total);
  const best = all[0];
  if (!best) return 'no profile written';
  const s = best.s;
  const lines = [
    `profile ${best.f}: ${s.total.toFixed(0)} ms busy${window ? ' during the measured window' : ''}`,
    '',
    'self time by file or package:',
  ];
  for (const o of s.owners.slice(0, 15)) lines.push(`  ${o.pct.toFixed(1).padStart(5)}%  ${o.name}`);
  lines.push('', "inclusive time of the project's own functions:");
  for (const f of s.inclusive.slice(0, 20)) lines.push(`  ${f.pct.toFixed(1).padStart(5)}%  ${f.name}`);
  lines.push('', 'self time by function:');
  for (const f of s.functions) lines.push(`  ${f.pct.toFixed(1).padStart(5)}%  ${f.name}`);
  return lines.join('\n');
}
