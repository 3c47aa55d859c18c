// A version's board as a read-only Y.Doc for the canvas. The records arrive as export JSON and
// are written into the preview doc a slice per frame, so a board of thousands of shapes never
// blocks the live board's tab for long: the canvas fills in as the slices land.
import type { BoardExport } from '@tandem/shared';
import * as Y from 'yjs';

/** Shapes written per slice: small enough to stay well inside one frame. */
const SLICE = 300;

export interface Preview {
  doc: Y.Doc;
  /** Resolves once every shape is in the doc (or the preview was closed). */
  done: Promise<void>;
  close(): void;
}

const nextFrame = () =>
  new Promise<void>((resolve) => {
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => resolve());
    else setTimeout(resolve, 0);
  });

function toY(value: unknown, key: string): unknown {
  // Text fields are Y.Text in a live board (docs/api.md §10); the renderer reads them the same way.
  if ((key === 'text' || key === 'name') && typeof value === 'string') return new Y.Text(value);
  return value;
}

export function buildPreview(board: BoardExport): Preview {
  const doc = new Y.Doc();
  let closed = false;
  const done = (async () => {
    const shapes = doc.getMap<Y.Map<unknown>>('shapes');
    doc.transact(() => {
      const meta = doc.getMap('meta');
      for (const [k, v] of Object.entries(board.meta ?? {})) meta.set(k, v);
    });
    for (let i = 0; i < board.shapes.length && !closed; i += SLICE) {
      doc.transact(() => {
        for (const record of board.shapes.slice(i, i + SLICE)) {
          const { id, ...fields } = record as { id: string } & Record<string, unknown>;
          const m = new Y.Map<unknown>();
          for (const [k, v] of Object.entries(fields)) if (v !== undefined) m.set(k, toY(v, k));
          shapes.set(id, m);
        }
      });
      if (i + SLICE < board.shapes.length) await nextFrame();
    }
  })();
  return {
    doc,
    done,
    close() {
      closed = true;
      doc.destroy();
    },
  };
}
