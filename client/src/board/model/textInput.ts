// Text that arrives without a tool: a double-click on empty canvas and a paste of plain text.
// Pure: each answers the shape to create, which the editor then creates, selects and edits.

import * as Y from 'yjs';
import { shapesOf } from './doc.ts';
import type { Point } from './geometry.ts';
import { defaultSize, type NewShape } from './shapes.ts';
import { MIN_TEXT_H, MIN_TEXT_W } from './textFit.ts';

/** The most characters one pasted shape holds (the shape schema allows more; a note would not). */
export const PASTE_MAX_CHARS = 5_000;
/** Up to this many characters on one line, pasted text is a text shape; past it, a sticky note. */
export const PASTE_TEXT_SHAPE_MAX = 80;

/**
 * A text shape for a click of the Text tool or a double-click at `p`: its first line where the
 * pointer is, and as narrow as an empty text is, growing as it is typed (model/textFit.ts).
 */
export function textShapeAt(p: Point): NewShape & { w: number; h: number } {
  const w = MIN_TEXT_W;
  const h = MIN_TEXT_H;
  return { type: 'text', x: p.x - 12, y: p.y - h / 2, w, h, text: '' };
}

/**
 * The shape for pasted plain text centred on `at`, or null when there is nothing to show: a short
 * single line becomes a text shape sized to it, anything longer a sticky note (which fits its text
 * by shrinking the font, then growing). Line ends are normalised; the text is cut to PASTE_MAX_CHARS.
 */
export function shapeForPastedText(raw: string, at: Point): NewShape | null {
  const text = raw
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+$/gm, '')
    .replace(/^\n+|\n+$/g, '')
    .slice(0, PASTE_MAX_CHARS);
  if (text.trim() === '') return null;
  if (!text.includes('\n') && text.length <= PASTE_TEXT_SHAPE_MAX) {
    // About 9 board units a character at the text shape's size, plus its padding.
    const w = Math.min(720, Math.max(80, Math.round(text.length * 9.5 + 24)));
    const h = defaultSize.text.h;
    return { type: 'text', x: at.x - w / 2, y: at.y - h / 2, w, h, text };
  }
  const { w, h } = defaultSize.sticky;
  return { type: 'sticky', x: at.x - w / 2, y: at.y - h / 2, w, h, text };
}

/** Origin of the removal of an empty text shape: not this user's edit, so no undo step records it. */
const EMPTY_TEXT_ORIGIN = Symbol('tandem-empty-text');

/**
 * Removes the text shape `id` when its editing ended with no words in it (a click of the Text
 * tool, then Escape), as Excalidraw and tldraw do: it was an invisible 24×40 box left stored,
 * found by nobody but the selection's marquee. Answers whether it did. Other shapes (a blank
 * sticky note is still a note) and text with words stay.
 *
 * It leaves no undo step: the removal is not made as this user's edit, and when the newest step
 * of `undo` only made things now gone (the click that made the box), that step goes too. Yjs
 * would skip such a step on Ctrl+Z anyway, but the stack would still count it (an Undo offered
 * with nothing to undo).
 */
export function dropEmptyText(doc: Y.Doc, undo: Y.UndoManager | null, id: string): boolean {
  const shape = shapesOf(doc).get(id);
  if (shape?.get('type') !== 'text') return false;
  const text = shape.get('text');
  if ((text instanceof Y.Text ? text.toString() : String(text ?? '')).trim() !== '') return false;
  doc.transact(() => shapesOf(doc).delete(id), EMPTY_TEXT_ORIGIN);
  const top = undo?.undoStack.at(-1);
  if (top && top.deletions.clients.size === 0 && allGone(doc, top.insertions)) undo?.undoStack.pop();
  return true;
}

/** Whether everything `inserted` names has been deleted from `doc` since. */
function allGone(doc: Y.Doc, inserted: Y.UndoManager['undoStack'][number]['insertions']): boolean {
  const deleted = Y.createDeleteSetFromStructStore(doc.store);
  for (const [client, ranges] of inserted.clients)
    for (const { clock, len } of ranges)
      for (let c = clock; c < clock + len; c++)
        if (!Y.isDeleted(deleted, Y.createID(client, c))) return false;
  return true;
}
