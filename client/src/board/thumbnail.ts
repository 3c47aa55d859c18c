// Keeps the board's dashboard thumbnail up to date: after this person's own edits (not
// everyone's, so one editor uploads rather than all of them), at most every few seconds and once
// more on leaving, the board is painted small (canvas/miniature.ts) and PUT to the server, which
// re-encodes and stores it with the board.
import { apiPaths, thumbnailLimits } from '@tandem/shared';
import type * as Y from 'yjs';
import { paintMiniature } from './canvas/miniature.ts';
import type { ShapeIndex } from './canvas/shapeIndex.ts';
import { unionRect } from './model/geometry.ts';
import { minimapFrame } from './model/minimap.ts';

/** Paints the board into a thumbnail-sized image: WebP where the browser encodes it, else PNG. */
export async function renderThumbnail(index: ShapeIndex): Promise<Blob | null> {
  const { list, byId } = index.getSnapshot();
  const content = unionRect(list.map((e) => e.bounds));
  const size = { w: thumbnailLimits.width, h: thumbnailLimits.height };
  const canvas = document.createElement('canvas');
  canvas.width = size.w;
  canvas.height = size.h;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, size.w, size.h);
  if (content) paintMiniature(ctx, list, byId, minimapFrame(content, content, size, 0.06), true);
  const encode = (type: string) =>
    new Promise<Blob | null>((resolve) => canvas.toBlob((b) => resolve(b), type, 0.85));
  const webp = await encode('image/webp');
  // Browsers that cannot encode WebP hand back a PNG, which the server accepts too.
  return webp ?? (await encode('image/png'));
}

async function upload(boardId: string, blob: Blob, leaving: boolean): Promise<void> {
  const init: RequestInit = { method: 'PUT', credentials: 'same-origin', body: blob };
  try {
    // keepalive lets the request outlive the page being left; browsers cap such bodies at 64 KB.
    await fetch(apiPaths.thumbnail(boardId), {
      ...init,
      keepalive: leaving && blob.size < 60_000,
    });
  } catch {
    // Offline or the server is away: the next edit (or the next visit) sends a fresh one.
  }
}

/**
 * Starts keeping the thumbnail of `boardId` fresh while this person edits; returns the function
 * that stops it (and sends a last one if anything changed since the previous).
 */
export function keepThumbnail(
  boardId: string,
  doc: Y.Doc,
  index: ShapeIndex,
  canEdit: () => boolean,
): () => void {
  let dirty = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sending = false;
  const send = async (leaving: boolean) => {
    timer = undefined;
    if (!dirty || sending || !canEdit()) return;
    dirty = false;
    sending = true;
    try {
      const blob = await renderThumbnail(index);
      if (blob && blob.size <= thumbnailLimits.maxBytes) await upload(boardId, blob, leaving);
    } finally {
      sending = false;
    }
  };
  const onTransaction = (tr: Y.Transaction) => {
    // Our own edits only: changes from the server or IndexedDB are someone else's to picture.
    if (!tr.local || tr.changed.size === 0) return;
    dirty = true;
    timer ??= setTimeout(() => void send(false), thumbnailLimits.minIntervalMs);
  };
  doc.on('afterTransaction', onTransaction);
  return () => {
    doc.off('afterTransaction', onTransaction);
    clearTimeout(timer);
    void send(true);
  };
}
