// Inserting a template (docs/api.md §19): its JSON is read as an import is (each record checked
// by the shared schema, bad ones skipped), centred where the user is looking (moved right or down
// when that spot overlaps frames or shapes already there), and goes in as
// one Undo step (importInPieces). The view widens when the template is larger than the screen,
// down to a zoom it can be read at (TEMPLATE_MIN_ZOOM), its top left in sight.
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { parseShapes } from '../model/clipboard.ts';
import { contains, unionRect } from '../model/geometry.ts';
import { fitToRead, TEMPLATE_MIN_ZOOM, useEditor, visibleRect } from '../store.ts';
import type { BoardSession } from '../sync/provider.ts';
import { importInPieces } from '../ui/importInPieces.ts';
import { placeTemplate } from './templates.ts';

/** Answers a sentence saying what happened, for the board's notice. */
export async function insertTemplate(
  session: BoardSession,
  index: ShapeIndex,
  template: { name: string; content: unknown },
  userId: string,
): Promise<string> {
  const parsed = parseShapes(template.content);
  if (!parsed || parsed.shapes.length === 0)
    return `The template “${template.name}” has no shapes to insert.`;
  const st = useEditor.getState();
  const view = visibleRect(st.viewport, st.screen);
  const at = { x: view.x + view.w / 2, y: view.y + view.h / 2 };
  // Clear of what is on the page: centred if that spot is free, else moved right or down to the
  // nearest free one (placeTemplate).
  const occupied = index.getSnapshot().list.map((e) => e.bounds);
  const ids = await importInPieces(
    session,
    parsed.shapes,
    userId,
    placeTemplate(parsed.shapes, at, occupied),
  );
  const set = new Set(ids);
  const inserted = index.getSnapshot().list.filter((e) => set.has(e.rec.id));
  const box = unionRect(inserted.map((e) => e.bounds));
  if (box && !contains(visibleRect(st.viewport, st.screen), box))
    st.setViewport(fitToRead(box, st.screen, TEMPLATE_MIN_ZOOM));
  st.select([]);
  return `Inserted “${template.name}”${parsed.skipped ? `; skipped ${parsed.skipped} shapes that did not match the format` : ''}. Undo removes it.`;
}
