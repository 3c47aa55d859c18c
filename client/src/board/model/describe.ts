// The board in words and in reading order, for people who use a screen reader or the keyboard
// alone: each shape's accessible name, the sentence a selection change is announced with, and
// the order Tab and Shift+Tab move the selection through the shapes. Pure, so tested in Node.
import type { ShapeRecord, ShapeType } from '@tandem/shared';
import { frameLabel } from '@tandem/shared/render/frames.ts';
import type { Rect } from './geometry.ts';
import { unitsOf } from './layout.ts';

/** What each kind of shape is called: the names the tool palette gives the tools that make them. */
export const shapeKindNames: Record<ShapeType, string> = {
  sticky: 'Sticky note',
  rect: 'Rectangle',
  ellipse: 'Ellipse',
  diamond: 'Diamond',
  text: 'Text',
  arrow: 'Arrow',
  freehand: 'Drawing',
  image: 'Image',
  frame: 'Frame',
};

/** Longer text is cut here: a name is for finding the shape, not for reading a whole page out. */
const MAX_SPOKEN = 200;

/** A shape's words on one line (line breaks read as pauses anyway), cut at MAX_SPOKEN. */
function spoken(text: string | undefined): string {
  const one = (text ?? '').replace(/\s+/g, ' ').trim();
  return one.length > MAX_SPOKEN ? `${one.slice(0, MAX_SPOKEN - 1)}…` : one;
}

/**
 * What a shape says: a frame its name as the board shows it ("Untitled frame" when stored blank,
 * frameLabel), an image its alt text, an arrow its label, the others their text.
 */
function wordsOf(s: ShapeRecord): string {
  return spoken(s.type === 'frame' ? frameLabel(s) : s.type === 'image' ? s.alt : s.text);
}

/** How an arrow's end is named: the words of the shape it is bound to, else that shape's kind. */
function endName(end: ShapeRecord['from'], byId: ReadonlyMap<string, ShapeRecord>): string | null {
  const bound = end?.shapeId ? byId.get(end.shapeId) : undefined;
  if (!bound) return null;
  return wordsOf(bound) || shapeKindNames[bound.type];
}

/**
 * A shape's accessible name: its kind, then what it says ("Sticky note: Ship it", "Frame: Sprint
 * 3", "Image: a whiteboard photo"); an arrow names the shapes it joins ("Arrow from Start to End", then its label). A locked
 * shape says so, since it will not move or change when asked.
 */
export function shapeLabel(s: ShapeRecord, byId: ReadonlyMap<string, ShapeRecord>): string {
  let name: string = shapeKindNames[s.type];
  if (s.type === 'arrow') {
    const from = endName(s.from, byId);
    const to = endName(s.to, byId);
    if (from) name += ` from ${from}`;
    if (to) name += ` to ${to}`;
  }
  const words = wordsOf(s);
  if (words) name += `: ${words}`;
  return s.locked ? `${name} (locked)` : name;
}

/**
 * The sentence the selection's live region says when the selection changes: "Selected: Sticky
 * note: Ship it, 2 of 5", "Selected: a group of 3 shapes, 4 of 5", "3 shapes selected", or
 * "Selection cleared". One unit (a shape, or a whole group, as Tab selects) says its place in
 * reading order among `records` (the shapes on the canvas), so someone listening knows when Tab
 * has gone round the board; without `records` the place is left out. Reading order is computed
 * only here, once the selection has rested, never per pointer move. Ids of shapes that are gone
 * are not counted.
 */
export function selectionAnnouncement(
  ids: readonly string[],
  byId: ReadonlyMap<string, ShapeRecord>,
  records?: readonly ShapeRecord[],
): string {
  const recs = ids.map((id) => byId.get(id)).filter((r): r is ShapeRecord => !!r);
  if (recs.length === 0) return 'Selection cleared';
  const group = recs[0]!.groupId;
  const one = recs.length === 1 || (!!group && recs.every((r) => r.groupId === group));
  if (!one) return `${recs.length} shapes selected`;
  const what = recs.length === 1 ? shapeLabel(recs[0]!, byId) : `a group of ${recs.length} shapes`;
  return `Selected: ${what}${records ? placeOf(recs[0]!.id, records) : ''}`;
}

/** ", 2 of 5": where the unit holding `id` comes in reading order; empty when it is not there. */
function placeOf(id: string, records: readonly ShapeRecord[]): string {
  const order = readingOrder(records);
  const at = order.findIndex((u) => u.ids.includes(id));
  return at < 0 ? '' : `, ${at + 1} of ${order.length}`;
}

/** The canvas's description: how many shapes the board holds ("Empty", "1 shape", "12 shapes"). */
export function shapeCountText(n: number): string {
  return n === 0 ? 'Empty' : n === 1 ? '1 shape' : `${n} shapes`;
}

/**
 * Units (a group counts as one, as a click selects it) in reading order: rows from top to
 * bottom, and left to right within a row, as a page of text is read. A unit starts a new row
 * when its top is below the middle of the row's first unit, so notes laid out roughly in a line
 * read as one line even when they are not exactly level. The board's z-order is not used: it is
 * the order shapes were made or arranged in, which means nothing to someone listening.
 */
export function readingOrder(records: readonly ShapeRecord[]): { ids: string[]; box: Rect }[] {
  const units = unitsOf(
    [...records],
    records.map((r) => r.id),
  );
  const byTop = units.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x || cmp(a.ids[0]!, b.ids[0]!));
  const rows: (typeof units)[] = [];
  let bandEnd = Number.NEGATIVE_INFINITY;
  for (const u of byTop) {
    if (u.box.y < bandEnd) rows[rows.length - 1]!.push(u);
    else {
      rows.push([u]);
      bandEnd = u.box.y + u.box.h / 2;
    }
  }
  return rows.flatMap((row) =>
    row.sort((a, b) => a.box.x - b.box.x || a.box.y - b.box.y || cmp(a.ids[0]!, b.ids[0]!)),
  );
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What Tab (`step` 1) or Shift+Tab (-1) selects: the unit after the last selected one in reading
 * order, or before the first, wrapping round at the ends (as tldraw does). With nothing selected,
 * the first (or last) unit. Locked shapes are included, unlike tldraw: the keyboard is the only
 * way a screen-reader user finds them, and selecting one is how they unlock it (Shift+L).
 * Answers the ids to select, with the unit's box to bring into view; null on an empty board.
 */
export function nextInReadingOrder(
  records: readonly ShapeRecord[],
  selection: readonly string[],
  step: 1 | -1,
): { ids: string[]; box: Rect } | null {
  const order = readingOrder(records);
  if (order.length === 0) return null;
  const chosen = new Set(selection);
  const at = order.flatMap((u, i) => (u.ids.some((id) => chosen.has(id)) ? [i] : []));
  if (at.length === 0) return step === 1 ? order[0]! : order[order.length - 1]!;
  const from = step === 1 ? at[at.length - 1]! : at[0]!;
  return order[(from + step + order.length) % order.length]!;
}
