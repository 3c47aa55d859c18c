// The writes of the content API and the MCP tools (docs/api.md §15), one function each, shared by
// both doors: the body is checked shape by shape with the shared schema, then the whole write is
// checked against the board and made as one change (Integrations.write). Refusals are
// ContentError / BoardFullError; each door turns them into its own answer with the same sentence.
import {
  type AddPageAnswer,
  type AddPageBody,
  type ArrowEnd,
  addPageEntry,
  type ColorName,
  checkShapes,
  defaultShapeSize,
  integrationLimits,
  MAX_PAGES,
  newPageId,
  SHAPES_KEY,
  ShapeInput,
  ShapePatch,
  type ShapeRecord,
  withThousands,
} from '@tandem/shared';
import * as Y from 'yjs';
import type { z } from 'zod';
import {
  applyAdd,
  applyDelete,
  applyPatch,
  ContentError,
  extentOf,
  focusOf,
  holdUnplaced,
  insideFrame,
  pagesOf,
  placeUnplaced,
  planAdd,
  planDelete,
  planPatch,
} from './content.ts';
import type { Integrations, Writer } from './integrations.ts';

/**
 * Who writes where: the board and the document key of the page written (docs/api.md §17; the
 * board id for its first page), the writer's identity, and the frame its key is limited to.
 */
export interface Actor {
  boardId: string;
  pageKey: string;
  writer: Writer;
  frameId: string | null;
}

/** Over the per-call limit: refused whatever else is wrong with the write. */
export function refuseOverLimit(list: unknown): void {
  if (Array.isArray(list) && list.length > integrationLimits.shapesPerCall) {
    throw new ContentError(
      'TOO_MANY',
      `At most ${withThousands(integrationLimits.shapesPerCall)} shapes in one call. Split the write into several.`,
    );
  }
}

function checked<S>(schema: z.ZodType<S>, list: unknown): S[] {
  refuseOverLimit(list);
  if (!Array.isArray(list) || list.length === 0)
    throw new ContentError('VALIDATION', 'Some fields need attention.', {
      shapes: 'Send at least one shape.',
    });
  const result = checkShapes(schema, list);
  if (!result.ok) throw new ContentError('VALIDATION', 'Some shapes need attention.', result.fields);
  return result.shapes;
}

export async function addShapes(
  integrations: Integrations,
  actor: Actor,
  list: unknown,
): Promise<ShapeRecord[]> {
  const held = Array.isArray(list) ? holdUnplaced(list) : { list, unplaced: [] };
  const shapes = checked(ShapeInput, held.list);
  return integrations.write(actor.pageKey, actor.writer, JSON.stringify(shapes).length, (doc) => {
    // Found before the plan: the frame scope is checked where the arrow really goes.
    placeUnplaced(doc, shapes, held.unplaced);
    planAdd(doc, shapes, actor.frameId);
    const records = applyAdd(doc, shapes, actor.writer.userId);
    return { result: records, touched: records.map((r) => r.id) };
  });
}

export async function updateShapes(
  integrations: Integrations,
  actor: Actor,
  list: unknown,
): Promise<ShapeRecord[]> {
  const shapes = checked(ShapePatch, list);
  return integrations.write(actor.pageKey, actor.writer, JSON.stringify(shapes).length, (doc) => {
    const carried = planPatch(doc, shapes, actor.frameId);
    const records = applyPatch(doc, shapes, carried);
    return { result: records, touched: records.map((r) => r.id) };
  });
}

export async function deleteShapes(integrations: Integrations, actor: Actor, ids: string[]): Promise<void> {
  refuseOverLimit(ids);
  await integrations.write(actor.pageKey, actor.writer, 0, (doc) => {
    planDelete(doc, ids, actor.frameId);
    // Where the bot worked, read before the shapes are gone.
    const focus = focusOf(doc, ids);
    applyDelete(doc, ids);
    return { result: undefined, touched: [], focus };
  });
}

/** An arrow from one shape to another, its ends bound to them (they follow when the shapes move), and its label if given. */
export async function connectShapes(
  integrations: Integrations,
  actor: Actor,
  link: { from: string; to: string; text?: string | undefined; color?: ColorName | undefined },
): Promise<ShapeRecord> {
  const [arrow] = await integrations.write(actor.pageKey, actor.writer, 400, (doc) => {
    const shapes = doc.getMap<Y.Map<unknown>>(SHAPES_KEY);
    const end = (id: string, field: 'from' | 'to'): ArrowEnd => {
      const centre = shapes.get(id) instanceof Y.Map ? focusOf(doc, [id]) : null;
      if (!centre)
        throw new ContentError('VALIDATION', 'Some fields need attention.', { [field]: 'No such shape.' });
      return { shapeId: id, ...centre };
    };
    const from = end(link.from, 'from');
    const to = end(link.to, 'to');
    const input: ShapeInput = {
      type: 'arrow',
      x: from.x,
      y: from.y,
      from,
      to,
      ...(link.text ? { text: link.text } : {}),
      ...(link.color ? { color: link.color } : {}),
    };
    planAdd(doc, [input], actor.frameId);
    const records = applyAdd(doc, [input], actor.writer.userId);
    return { result: records, touched: records.map((r) => r.id) };
  });
  return arrow as ShapeRecord;
}

const GRID_STEP = 220;
const GRID_MARGIN = 40;
/** Between what is on the board and a grid placed beside it. */
const GRID_GAP = 100;

/** A grid of stickies to add (the MCP tool add_sticky_grid): their texts, and where. */
export interface StickyGrid {
  texts: string[];
  frameId?: string | undefined;
  x?: number | undefined;
  y?: number | undefined;
  columns?: number | undefined;
  color?: ColorName | undefined;
}

/**
 * Stickies laid out in a grid, in one change: inside a frame (from its top-left corner, or below
 * the shapes it already holds; as many columns as fit unless given) or from a point. Given neither, a frame-scoped key fills its
 * frame, and any other starts right of everything on the board, level with its top, so the
 * grid never lands on what is there (an agent that did not say where should not bury the
 * board's content under its notes).
 */
export async function addStickyGrid(
  integrations: Integrations,
  actor: Actor,
  grid: StickyGrid,
): Promise<ShapeRecord[]> {
  refuseOverLimit(grid.texts);
  return integrations.write(
    actor.pageKey,
    actor.writer,
    JSON.stringify(grid.texts).length + grid.texts.length * 200,
    (doc) => {
      const shapes = doc.getMap<Y.Map<unknown>>(SHAPES_KEY);
      const placed = grid.x !== undefined || grid.y !== undefined;
      const frameId = grid.frameId ?? (placed ? null : actor.frameId);
      const content = placed || frameId !== null ? null : extentOf(doc, shapes.keys());
      let originX = grid.x ?? (content ? content.x + content.w + GRID_GAP : 0);
      let originY = grid.y ?? (content ? content.y : 0);
      let columns = grid.columns ?? Math.ceil(Math.sqrt(grid.texts.length));
      if (frameId !== null) {
        const frame = shapes.get(frameId);
        if (!(frame instanceof Y.Map) || frame.get('type') !== 'frame')
          throw new ContentError('VALIDATION', 'Some fields need attention.', {
            frameId: 'No such frame on this board.',
          });
        originX = Number(frame.get('x')) + GRID_MARGIN;
        originY = Number(frame.get('y')) + GRID_MARGIN;
        // Below what the frame already holds, so a second grid (clustering in several calls)
        // does not land on the first one's stickies.
        const held = [...shapes.entries()].filter(
          ([id, m]) => id !== frameId && m instanceof Y.Map && insideFrame(m, frame),
        );
        const below = extentOf(
          doc,
          held.map(([id]) => id),
        );
        if (below) originY = Math.max(originY, below.y + below.h + GRID_STEP - defaultShapeSize.sticky.h);
        if (grid.columns === undefined)
          columns = Math.max(1, Math.floor((Number(frame.get('w')) - GRID_MARGIN) / GRID_STEP));
      }
      const inputs: ShapeInput[] = grid.texts.map((text, i) => ({
        type: 'sticky',
        x: originX + (i % columns) * GRID_STEP,
        y: originY + Math.floor(i / columns) * GRID_STEP,
        text,
        ...(grid.color ? { color: grid.color } : {}),
      }));
      planAdd(doc, inputs, actor.frameId);
      const records = applyAdd(doc, inputs, actor.writer.userId);
      return { result: records, touched: records.map((r) => r.id) };
    },
  );
}

/**
 * Adds a page to the board (docs/api.md §17), after `after` or at the end, named `name` or "Page
 * N": one change of the first page's document, which lists the pages, attributed like any other.
 * A key limited to a frame works inside that frame only, so it adds no page.
 */
export async function addPage(
  integrations: Integrations,
  actor: Actor,
  body: AddPageBody,
): Promise<AddPageAnswer> {
  if (actor.frameId !== null)
    throw new ContentError(
      'OUT_OF_SCOPE',
      'This key may only change shapes inside its frame; it cannot add pages.',
    );
  return integrations.write(actor.boardId, actor.writer, (body.name?.length ?? 0) + 100, (doc) => {
    const pages = pagesOf(doc);
    if (body.after !== undefined && !pages.some((p) => p.id === body.after))
      throw new ContentError('VALIDATION', 'Some fields need attention.', {
        after: 'No such page on this board.',
      });
    const id = newPageId();
    // addPageEntry holds the limit (the editor's Pages panel goes through it too); a fresh id
    // never collides, so false means the board is full: 422 with the sentence (TOO_MANY is 413,
    // a call too big; this call is fine and the board has no room).
    if (!addPageEntry(doc, id, body.name ?? '', body.after))
      throw new ContentError(
        'VALIDATION',
        `A board has at most ${MAX_PAGES} pages. Delete one to add another.`,
      );
    const now = pagesOf(doc);
    return { result: { page: now.find((p) => p.id === id)!, pages: now }, touched: [] };
  });
}
