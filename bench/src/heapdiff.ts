// `npm run bench -- heapdiff <before.heapsnapshot> <after.heapsnapshot> <connections> [rows]`:
// what the objects that are in the second V8 heap snapshot and not in the first (node ids are
// stable within one process) cost, per connection, grouped by kind. Plain objects are told apart
// by their property names and closures by where their function is written (script id, line,
// column, 0-based, of the bundle), so a closure kept per connection can be found in the source.
// Snapshots: run the server with `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=DIR` and send it
// SIGUSR2 before and after connecting (a snapshot collects garbage first: what is left is live).
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
      location_fields?: string[];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
  locations?: number[];
}

function nodeIds(snap: Snapshot): Set<number> {
  const fields = snap.snapshot.meta.node_fields;
  const stride = fields.length;
  const id = fields.indexOf('id');
  const out = new Set<number>();
  for (let i = 0; i < snap.nodes.length; i += stride) out.add(snap.nodes[i + id] as number);
  return out;
}

export interface HeapRow {
  key: string;
  bytesPerConnection: number;
  countPerConnection: number;
}

/** The new objects of `after` (not in `before`), grouped, largest first. */
export function heapDiff(before: Snapshot, after: Snapshot, connections: number): HeapRow[] {
  const old = nodeIds(before);
  const { meta } = after.snapshot;
  const f = meta.node_fields;
  const stride = f.length;
  const [type, name, size, id, edgeCount] = ['type', 'name', 'self_size', 'id', 'edge_count'].map((k) =>
    f.indexOf(k),
  ) as [number, number, number, number, number];
  const edgeStride = meta.edge_fields.length;
  const types = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const { nodes, edges, strings } = after;
  const locations = new Map<number, string>();
  const loc = after.locations ?? [];
  const locStride = meta.location_fields?.length ?? 4;
  for (let i = 0; i < loc.length; i += locStride)
    locations.set(loc[i] as number, `${loc[i + 1]}:${loc[i + 2]}:${loc[i + 3]}`);

  const groups = new Map<string, { bytes: number; count: number }>();
  let edge = 0;
  for (let i = 0; i < nodes.length; i += stride) {
    const edgesHere = (nodes[i + edgeCount] as number) * edgeStride;
    if (!old.has(nodes[i + id] as number)) {
      const t = types[nodes[i + type] as number] as string;
      const n = strings[nodes[i + name] as number] as string;
      let key: string;
      if (t === 'string' || t === 'concatenated string' || t === 'sliced string') key = '(strings)';
      else if (t === 'closure') key = `closure ${n || '(anonymous)'} @${locations.get(i) ?? '?'}`;
      else if (t === 'object' && (n === 'Object' || n === 'system / Context')) {
        const props: string[] = [];
        for (let e = edge; e < edge + edgesHere; e += edgeStride) {
          const et = edgeTypes[edges[e] as number];
          if (et === 'property' || et === 'context') props.push(strings[edges[e + 1] as number] as string);
        }
        key = `${n} {${props.slice(0, 10).join(',')}}`;
      } else key = `${t}: ${n.slice(0, 60)}`;
      const g = groups.get(key) ?? { bytes: 0, count: 0 };
      g.bytes += nodes[i + size] as number;
      g.count += 1;
      groups.set(key, g);
    }
    edge += edgesHere;
  }
  return [...groups.entries()]
    .map(([key, g]) => ({
      key,
      bytesPerConnection: g.bytes / connections,
      countPerConnection: g.count / connections,
    }))
    .sort((a, b) => b.bytesPerConnection - a.bytesPerConnection);
}

export function formatHeapDiff(
  beforePath: string,
  afterPath: string,
  connections: number,
  rows = 40,
): string {
  const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const diff = heapDiff(read(beforePath), read(afterPath), connections);
  const total = diff.reduce((sum, r) => sum + r.bytesPerConnection, 0);
  const lines = [`new objects: ${total.toFixed(0)} B per connection (${connections} connections)`];
  for (const r of diff.slice(0, rows))
    lines.push(
      `${r.bytesPerConnection.toFixed(1).padStart(8)} B  ${r.countPerConnection.toFixed(2).padStart(6)}×  ${r.key}`,
    );
  return lines.join('\n');
}
