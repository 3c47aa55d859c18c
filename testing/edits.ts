// Random board edits for the convergence fuzz tests.
import { colorNames } from '@tandem/shared';
import * as Y from 'yjs';
import { addShape } from './clients.ts';
import type { Random } from './random.ts';

/** One random edit on a client's doc: create, move, recolour, delete, or type. */
export function randomEdit(random: Random, doc: Y.Doc, label: string, step: number): void {
  const shapes = doc.getMap('shapes');
  const ids = [...shapes.keys()];
  const roll = random.next();
  if (ids.length === 0 || roll < 0.25) {
    addShape(
      doc,
      `${label}-${step}`,
      {
        type: random.pick(['sticky', 'rect', 'ellipse']),
        x: random.int(1000),
        y: random.int(1000),
        color: 'yellow',
      },
      '',
    );
    return;
  }
  const shape = shapes.get(random.pick(ids)) as Y.Map<unknown>;
  if (roll < 0.5) {
    doc.transact(() => {
      shape.set('x', random.int(1000));
      shape.set('y', random.int(1000));
    });
  } else if (roll < 0.65) {
    shape.set('color', random.pick(colorNames));
  } else if (roll < 0.72) {
    shapes.delete(random.pick(ids));
  } else {
    const text = shape.get('text') as Y.Text | undefined;
    if (!text) return;
    if (text.length > 0 && random.chance(0.3)) text.delete(random.int(text.length), 1);
    else text.insert(random.int(text.length + 1), random.pick(['a', 'b', 'c', ' ', 'é', '🙂']));
  }
}

/**
 * A client (id 11) that makes shapes s0–s5 and then deletes s3, s1 and s4, one update each: the
 * later updates delete older items than the first, which a joined update once wrote out of clock
 * order (documents/updates.ts, joinedDeletes). `created` is the board before the deletions.
 */
export function deletionsBackInClockOrder(): {
  author: Y.Doc;
  shapes: Y.Map<unknown>;
  created: Uint8Array;
  deletions: Uint8Array[];
} {
  const author = new Y.Doc();
  author.clientID = 11;
  const shapes = author.getMap<unknown>('shapes');
  for (let i = 0; i < 6; i++) shapes.set(`s${i}`, i);
  const created = Y.encodeStateAsUpdate(author);
  const deletions: Uint8Array[] = [];
  const take = (update: Uint8Array) => deletions.push(update);
  author.on('update', take);
  for (const key of ['s3', 's1', 's4']) shapes.delete(key);
  author.off('update', take);
  return { author, shapes, created, deletions };
}
