// Paint order by fractional index (docs/api.md §10): a reorder rewrites only the moved shapes' `z`, so
// two people reordering at once never collide on a shared list.
import { generateKeyBetween } from 'fractional-indexing';
import type * as Y from 'yjs';
import { shapesOf } from './doc.ts';
import { byZ } from './read.ts';

interface Zed {
  id: string;
  z: string;
}

/** Every shape's id and z, sorted; records with a malformed z are left out. */
export function zOrder(doc: Y.Doc): Zed[] {
  const out: Zed[] = [];
  for (const [id, m] of shapesOf(doc).entries()) {
    const z = m.get('z');
    if (typeof z === 'string' && z.length > 0) out.push({ id, z });
  }
  return out.sort(byZ);
}

/** A key between two neighbours; falls back to an open end when a stored key is not one we can parse. */
export function keyBetween(a: string | null, b: string | null): string {
  try {
    return generateKeyBetween(a, b);
  } catch {
    try {
      return generateKeyBetween(a, null);
    } catch {
      return generateKeyBetween(null, b);
    }
  }
}

export const topKey = (doc: Y.Doc): string => keyBetween(zOrder(doc).at(-1)?.z ?? null, null);

/** Moves `ids` one step up: each selected run jumps over the next unselected shape above it. */
export function bringForward(doc: Y.Doc, ids: Iterable<string>): void {
  step(doc, new Set(ids), 1);
}
/** Moves `ids` one step down. */
export function sendBackward(doc: Y.Doc, ids: Iterable<string>): void {
  step(doc, new Set(ids), -1);
}

function step(doc: Y.Doc, sel: Set<string>, dir: 1 | -1): void {
  const order = zOrder(doc);
  const list = dir === 1 ? order : [...order].reverse();
  // Walk from the far end so moved shapes keep their relative order.
  for (let i = list.length - 2; i >= 0; i--) {
    const cur = list[i]!;
    if (!sel.has(cur.id)) continue;
    const j = list.findIndex((o, k) => k > i && !sel.has(o.id));
    if (j < 0) continue;
    const over = list[j]!;
    const beyond = list[j + 1] ?? null;
    const z = dir === 1 ? keyBetween(over.z, beyond?.z ?? null) : keyBetween(beyond?.z ?? null, over.z);
    shapesOf(doc).get(cur.id)?.set('z', z);
    list.splice(i, 1);
    list.splice(j, 0, { id: cur.id, z });
  }
}

/** Puts `ids` above everything, keeping their relative order. */
export function bringToFront(doc: Y.Doc, ids: Iterable<string>): void {
  const sel = new Set(ids);
  const order = zOrder(doc);
  let last = order.at(-1)?.z ?? null;
  for (const o of order) {
    if (!sel.has(o.id)) continue;
    last = keyBetween(last, null);
    shapesOf(doc).get(o.id)?.set('z', last);
  }
}

/** Puts `ids` below everything, keeping their relative order. */
export function sendToBack(doc: Y.Doc, ids: Iterable<string>): void {
  const sel = new Set(ids);
  const order = zOrder(doc);
  let first = order[0]?.z ?? null;
  for (const o of [...order].reverse()) {
    if (!sel.has(o.id)) continue;
    first = keyBetween(null, first);
    shapesOf(doc).get(o.id)?.set('z', first);
  }
}
