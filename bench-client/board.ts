// The benchmark board: 5,000 shapes of every kind the editor draws, written into a real board on
// the real server by a Node Yjs client (y-websocket over the document channel, as any client
// would), so a browser that opens the board afterwards syncs all of it from the server.

import type { ColorName, ShapeType } from '@tandem/shared';
import { colorNames, mulberry32 } from '@tandem/shared';
import { generateNKeysBetween } from 'fractional-indexing';
import * as Y from 'yjs';
import { connectDoc, waitSynced } from '../testing/clients.ts';

export const SPACING = 260;

const words =
  'plan ship review idea sketch user flow test launch ask why metric goal risk note todo done blocked design copy data api'.split(
    ' ',
  );

/**
 * `hand-drawn`: every shape and arrow with the artist sloppiness (roughjs strokes, docs/api.md §10),
 * and the rectangles with a hatched fill besides; `plain`: no style fields, as boards were before.
 */
export type BoardLook = 'plain' | 'hand-drawn';

export interface BoardMix {
  total: number;
  counts: Record<string, number>;
  columns: number;
  rows: number;
}

/**
 * Writes `total` shapes: 40 % sticky notes with a few words of text, 15 % rectangles (with a
 * label), 15 % ellipses, 15 % freehand strokes (24–64 points) and 15 % arrows bound to two
 * neighbouring shapes. Non-arrow shapes sit on a grid, SPACING board units apart.
 */
export function fillBoard(
  doc: Y.Doc,
  total: number,
  createdBy: string,
  seed = 1,
  look: BoardLook = 'plain',
): BoardMix {
  const rnd = mulberry32(seed);
  const arrows = Math.round(total * 0.15);
  const placed = total - arrows;
  const columns = Math.ceil(Math.sqrt(placed * 1.7));
  const rows = Math.ceil(placed / columns);
  const keys = generateNKeysBetween(null, null, total);
  const counts: Record<string, number> = {};
  const shapes = doc.getMap<Y.Map<unknown>>('shapes');
  const color = (): ColorName => colorNames[Math.floor(rnd() * colorNames.length)]!;
  const text = (n: number) =>
    Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ');
  const kinds: ShapeType[] = [];
  for (let i = 0; i < placed; i++) {
    const r = i % 17;
    kinds.push(r < 8 ? 'sticky' : r < 11 ? 'rect' : r < 14 ? 'ellipse' : 'freehand');
  }
  const ids: string[] = [];
  const batch = 250; // one transaction (one websocket message) per 250 shapes, well under MAX_MESSAGE_BYTES
  for (let start = 0; start < placed; start += batch) {
    doc.transact(() => {
      for (let i = start; i < Math.min(placed, start + batch); i++) {
        const type = kinds[i]!;
        const m = new Y.Map<unknown>();
        const x = (i % columns) * SPACING + Math.round(rnd() * 20);
        const y = Math.floor(i / columns) * SPACING + Math.round(rnd() * 20);
        const id = `b${String(i).padStart(5, '0')}`;
        m.set('type', type);
        m.set('x', x);
        m.set('y', y);
        m.set('rotation', 0);
        m.set('color', type === 'sticky' ? 'yellow' : color());
        m.set('z', keys[i]!);
        m.set('createdBy', createdBy);
        if (type === 'freehand') {
          const n = 24 + Math.floor(rnd() * 40);
          const pts: number[] = [];
          for (let k = 0; k < n; k++) {
            const t = k / (n - 1);
            pts.push(
              Math.round(t * 180 * 100) / 100,
              Math.round((90 + 70 * Math.sin(t * 6 + rnd())) * 100) / 100,
            );
          }
          m.set('w', 180);
          m.set('h', 180);
          m.set('points', pts);
        } else {
          const w = 200;
          const h = type === 'sticky' ? 200 : 120;
          m.set('w', w);
          m.set('h', h);
          m.set(
            'text',
            new Y.Text(type === 'sticky' ? text(3 + Math.floor(rnd() * 8)) : type === 'rect' ? text(2) : ''),
          );
        }
        if (look === 'hand-drawn' && type !== 'freehand') {
          m.set('sloppiness', 'artist');
          if (type === 'rect') m.set('fillStyle', 'hatched');
        }
        shapes.set(id, m);
        ids.push(id);
        counts[type] = (counts[type] ?? 0) + 1;
      }
    });
  }
  for (let start = 0; start < arrows; start += batch) {
    doc.transact(() => {
      for (let i = start; i < Math.min(arrows, start + batch); i++) {
        // From a shape to its right-hand neighbour (or the one below at the row's end).
        const a = (i * 7) % placed;
        const b = (a + 1) % columns === 0 ? Math.min(placed - 1, a + columns) : a + 1;
        const pa = { x: (a % columns) * SPACING + 100, y: Math.floor(a / columns) * SPACING + 60 };
        const pb = { x: (b % columns) * SPACING + 100, y: Math.floor(b / columns) * SPACING + 60 };
        const m = new Y.Map<unknown>();
        m.set('type', 'arrow');
        m.set('x', Math.min(pa.x, pb.x));
        m.set('y', Math.min(pa.y, pb.y));
        m.set('w', Math.abs(pb.x - pa.x));
        m.set('h', Math.abs(pb.y - pa.y));
        m.set('rotation', 0);
        m.set('color', 'grey');
        m.set('z', keys[placed + i]!);
        m.set('createdBy', createdBy);
        m.set('from', { shapeId: ids[a], ...pa });
        m.set('to', { shapeId: ids[b], ...pb });
        if (look === 'hand-drawn') m.set('sloppiness', 'artist');
        shapes.set(`a${String(i).padStart(5, '0')}`, m);
        counts.arrow = (counts.arrow ?? 0) + 1;
      }
    });
  }
  return { total, counts, columns, rows };
}

/** Seeds a board over the document channel and waits until the server holds every shape. */
export async function seedBoard(
  server: { url: string; wsUrl: string; origin: string },
  auth: { cookie: string; userId: string },
  boardId: string,
  total: number,
  look: BoardLook = 'plain',
): Promise<BoardMix> {
  const client = connectDoc(server.wsUrl, boardId, { cookie: auth.cookie, origin: server.origin });
  try {
    await waitSynced(client, 15_000);
    const mix = fillBoard(client.doc, total, auth.userId, 1, look);
    // The server's own view of the board (its JSON export) must list every shape.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const r = await fetch(`${server.url}/api/boards/${boardId}/export.json`, {
        headers: { cookie: auth.cookie },
      });
      const body = (await r.json()) as { shapes?: unknown[] };
      if (body.shapes?.length === total) break;
      if (Date.now() > deadline)
        throw new Error(`server holds ${body.shapes?.length ?? 0} of ${total} shapes`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return mix;
  } finally {
    client.destroy();
  }
}
