// Frames (docs/api.md §10, §14): named areas. A shape belongs to a frame when its centre lies inside
// the frame; moving a frame moves its members, resizing it does not scale them. Pure functions
// over a Y.Doc and plain records, tested in Node.
import type { ShapeRecord } from '@tandem/shared';
import { frameLabel, frameMembers, inside, isFrame } from '@tandem/shared/render/frames.ts';
import * as Y from 'yjs';
import { edit, shapesOf } from '../model/doc.ts';
import type { Point, Rect } from '../model/geometry.ts';
import { topmostAt } from '../model/hit.ts';
import { LOCKED_SENTENCE } from '../model/layout.ts';
import { keyBetween, zOrder } from '../model/order.ts';
import { readAll } from '../model/read.ts';
import { createShape, moveShapes } from '../model/shapes.ts';

export { frameLabel, frameMembers, isFrame };

/** Frames whose tops differ by less than this (board units) can share a row. */
const ROW_TOLERANCE = 40;

/**
 * The frames in presentation order (SPEC §14; the Frames list and Present): rows of frames read
 * like a page, top to bottom, each row left to right, ties by id so every client steps through the
 * same sequence. A row starts at the highest frame not yet placed and takes every frame whose top
 * is above that frame's middle (at least ROW_TOLERANCE down). Rows first, then a sort within
 * each: the pairwise "same row if within 40" comparison this replaces was no order at all
 * (A near B, B near C, A not near C), so the sort's answer hung on the frames' order in the
 * document, and a trial's list reshuffled after a few nudges.
 */
export function framesInOrder(shapes: Iterable<ShapeRecord>): ShapeRecord[] {
  const byId = (a: ShapeRecord, b: ShapeRecord) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const frames = [...shapes].filter(isFrame).sort((a, b) => a.y - b.y || a.x - b.x || byId(a, b));
  const out: ShapeRecord[] = [];
  for (let i = 0; i < frames.length; ) {
    const top = frames[i] as ShapeRecord;
    const below = top.y + Math.max(ROW_TOLERANCE, top.h / 2);
    let end = i + 1;
    while (end < frames.length && (frames[end] as ShapeRecord).y < below) end++;
    out.push(...frames.slice(i, end).sort((a, b) => a.x - b.x || byId(a, b)));
    i = end;
  }
  return out;
}

/** "Frame 3" for the next frame made on this board. */
export function nextFrameName(shapes: Iterable<ShapeRecord>): string {
  return `Frame ${[...shapes].filter(isFrame).length + 1}`;
}

/** Creates a frame; its name is a Y.Text so two people can edit it at once. */
export function createFrame(doc: Y.Doc, box: Rect, createdBy: string, name?: string): string {
  return createShape(
    doc,
    {
      type: 'frame',
      ...box,
      name: name ?? nextFrameName(readAll(doc)),
      color: 'grey',
      // Beneath everything already there, so the shapes it frames stay on top and clickable.
      z: keyBetween(null, zOrder(doc)[0]?.z ?? null),
    },
    createdBy,
  );
}

/**
 * The ids `ids` reach through frames, the one expansion behind copy, export, duplicate, moves and
 * Delete: the ids themselves, then the members of each frame among them (`frameMembers`: by
 * centre; frames are never members, so a frame inside a selected frame stays behind while the
 * shapes inside both come along). With `lockedKeepsContents`, a locked frame brings nothing: it
 * keeps its contents, as moves and Delete want (a locked frame and what it holds stay as they
 * are); copy, export and duplicate take a locked frame's contents as any other's. Unknown ids stay
 * in; the callers drop them, and locked shapes, as they need. Pure: `shapes` is the whole board.
 */
export function reachedThroughFrames(
  shapes: readonly ShapeRecord[],
  ids: Iterable<string>,
  { lockedKeepsContents = false }: { lockedKeepsContents?: boolean } = {},
): string[] {
  const reached = new Set(ids);
  const byId = new Map(shapes.map((s) => [s.id, s]));
  for (const id of [...reached]) {
    const s = byId.get(id);
    if (!s || !isFrame(s) || (lockedKeepsContents && s.locked)) continue;
    for (const m of frameMembers(s, shapes)) reached.add(m);
  }
  return [...reached];
}

/**
 * The ids a copy, an export or a duplicate of `ids` takes: each frame among them brings its members.
 * With no frame among them, the ids themselves (once each, in order: what reachedThroughFrames
 * answers then), without reading the whole board to find members there are none of.
 */
export function withFrameMembers(doc: Y.Doc, ids: Iterable<string>): string[] {
  const list = [...ids];
  const shapes = shapesOf(doc);
  // By the stored type alone: a record not read as a shape (readAll leaves it out) is expanded by
  // nothing either way, so only a stored frame needs the board read.
  if (!list.some((id) => shapes.get(id)?.get('type') === 'frame')) return [...new Set(list)];
  return reachedThroughFrames(readAll(doc), list);
}

/**
 * The shapes a move (a drag, an arrow-key nudge) of `ids` moves: each unlocked frame among them
 * brings its members; locked shapes stay. A locked frame stays with its contents, as it does under
 * Delete (deletion): a move used to carry them out of the frame the user had locked.
 */
export function movedWith(doc: Y.Doc, ids: Iterable<string>): string[] {
  const all = readAll(doc);
  const byId = new Map(all.map((s) => [s.id, s]));
  return reachedThroughFrames(all, ids, { lockedKeepsContents: true }).filter((id) => {
    const s = byId.get(id);
    return s !== undefined && !s.locked;
  });
}

/**
 * What Delete does to `selected`: the shapes it removes and the one notice it shows, if any.
 * A frame goes with what is inside it, as in Miro, tldraw and Excalidraw (its notes were left
 * scattered where it had been). Locked shapes stay, selected or inside a frame; and a locked frame
 * stays with its contents: they go only when selected themselves (before, the frame stayed and
 * what it held went, through a frame the user had locked to keep it as it was).
 */
export function deletion(
  doc: Y.Doc,
  selected: readonly string[],
): { deleted: ShapeRecord[]; notice: string | null } {
  const all = readAll(doc);
  const byId = new Map(all.map((s) => [s.id, s]));
  const reached = reachedThroughFrames(all, selected, { lockedKeepsContents: true });
  const records = reached.flatMap((id) => byId.get(id) ?? []);
  const deleted = records.filter((s) => !s.locked);
  const lockedLeft = records.some((s) => s.locked);
  const notice =
    deletedWithFramesNotice(selected, deleted, lockedLeft) ?? (lockedLeft ? LOCKED_SENTENCE : null);
  return { deleted, notice };
}

/**
 * What Delete says when it takes shapes that were not selected: the members of the frames
 * deleted (`deleted`, the records it removed; `selected`, the ids that were selected). Null when
 * it took nothing more than the selection. "Deleted the frame “Ideas” and the 5 shapes in it.
 * Undo (Ctrl+Z) brings them back." A frame and its contents went silently; a user trial did not
 * know the notes had gone with it. `lockedLeft`: locked shapes stayed too; the one notice says
 * both (two notices in a row, the second replaced the first before it could be read).
 */
export function deletedWithFramesNotice(
  selected: Iterable<string>,
  deleted: readonly ShapeRecord[],
  lockedLeft = false,
): string | null {
  const picked = new Set(selected);
  const frames = deleted.filter((s) => isFrame(s) && picked.has(s.id));
  const extra = deleted.filter((s) => !picked.has(s.id)).length;
  if (frames.length === 0 || extra === 0) return null;
  const what =
    frames.length === 1
      ? `the frame “${frameLabel(frames[0]!)}” and ${extra === 1 ? 'the shape' : `the ${extra} shapes`} in it`
      : `${frames.length} frames and ${extra === 1 ? 'the shape in one of them' : `the ${extra} shapes in them`}`;
  if (lockedLeft)
    return `Deleted ${what}; locked shapes stay (Shift+L unlocks them). Undo (Ctrl+Z) brings back what was deleted.`;
  return `Deleted ${what}. Undo (Ctrl+Z) brings them back.`;
}

/** Moves a frame and the shapes inside it, as one edit. */
export function moveFrame(doc: Y.Doc, frameId: string, dx: number, dy: number): void {
  moveShapes(doc, withFrameMembers(doc, [frameId]), dx, dy);
}

export function frameNameOf(doc: Y.Doc, frameId: string): Y.Text | null {
  const t = shapesOf(doc).get(frameId)?.get('name');
  return t instanceof Y.Text ? t : null;
}

/** Renames a frame in place (the Y.Text is edited, not replaced, so concurrent edits merge). */
export function renameFrame(doc: Y.Doc, frameId: string, next: string): void {
  const text = frameNameOf(doc, frameId);
  if (!text || text.toString() === next) return;
  edit(doc, () => {
    text.delete(0, text.length);
    text.insert(0, next.slice(0, 200));
  });
}

/**
 * A frame's title on the canvas is drawn at a constant screen size, as in tldraw and Miro: 16 px
 * semibold, its baseline 10 px above the frame's top edge, whatever the zoom (at 25 % a title
 * scaled with the board was 4 px tall, unreadable). Exports keep these numbers in board units
 * (shared render/svg.ts), which is the same picture at 100 %.
 */
export const FRAME_TITLE_PX = 16;
export const FRAME_TITLE_BASELINE_PX = 10;
/** How far above a frame its title strip reaches, in screen pixels. */
export const FRAME_TITLE_ROOM = 30;

/**
 * `text` cut to fit `maxWidth` (as measured by `width`), ending with an ellipsis when cut: a frame's
 * title on the canvas is no wider than the frame on screen. Nothing at all when not even the
 * ellipsis fits.
 */
export function fitTitle(text: string, maxWidth: number, width: (s: string) => number): string {
  if (width(text) <= maxWidth) return text;
  const chars = [...text];
  // The longest prefix that fits with its ellipsis (binary search: width grows with length).
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (width(`${chars.slice(0, mid).join('').trimEnd()}…`) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) return width('…') <= maxWidth ? '…' : '';
  return `${chars.slice(0, lo).join('').trimEnd()}…`;
}

/**
 * Whether `p` holds the frame itself rather than the board inside it: its title strip or its
 * border (within `tolerance`). Only these move a frame; a press anywhere else inside it starts a
 * marquee, as in Figma and Miro (docs/api.md §14). The title strip is measured on screen
 * (`zoom`), as the title is drawn, so a double-click on the title renames the frame at any zoom.
 */
export function onFrameGrip(frame: ShapeRecord, p: Point, tolerance: number, zoom = 1): boolean {
  const name = frameLabel(frame);
  // The title's width on screen, estimated from its length: 16 px semibold is about 9 px a
  // letter; no wider than the frame on screen (the title is cut to it), but at least 60 px.
  const titleW = Math.min(Math.max(frame.w * zoom, 60), name.length * 9 + 24) / zoom;
  const room = FRAME_TITLE_ROOM / zoom;
  if (p.x >= frame.x && p.x <= frame.x + titleW && p.y >= frame.y - room && p.y <= frame.y) return true;
  const outer = {
    x: frame.x - tolerance,
    y: frame.y - tolerance,
    w: frame.w + 2 * tolerance,
    h: frame.h + 2 * tolerance,
  };
  const inner = {
    x: frame.x + tolerance,
    y: frame.y + tolerance,
    w: frame.w - 2 * tolerance,
    h: frame.h - 2 * tolerance,
  };
  return inside(outer, p) && !(inner.w > 0 && inner.h > 0 && inside(inner, p));
}

/**
 * What a press at `p` takes hold of: the topmost shape under it, where a frame counts only by its
 * title or border (`onFrameGrip`, with a few more pixels for the border), so a press inside a
 * frame is a press on the board there (docs/api.md §14). The Select tool's press and the
 * double-click (rename a frame by its title, as in Figma and Miro) share it.
 */
export function grabbedAt(shapes: ShapeRecord[], p: Point, tolerance: number, zoom = 1): ShapeRecord | null {
  const shape = topmostAt(
    shapes.filter((s) => !isFrame(s)),
    p,
    tolerance,
  );
  if (shape) return shape;
  for (let i = shapes.length - 1; i >= 0; i--) {
    const s = shapes[i]!;
    if (isFrame(s) && onFrameGrip(s, p, tolerance * 2, zoom)) return s;
  }
  return null;
}

export { clippingFrames } from '@tandem/shared/render/frames.ts';
