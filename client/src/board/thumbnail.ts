// Keeps the board's dashboard thumbnail up to date: after this person's own edits (not
// everyone's, so one editor uploads rather than all of them), at most every few seconds and once
// more on leaving (the board, or the page: a closed tab), the board is painted small
// (canvas/miniature.ts) and PUT to the server, which re-encodes and stores it with the board.
import { apiPaths, thumbnailLimits } from '@tandem/shared';
import type * as Y from 'yjs';
import { paintMiniature } from './canvas/miniature.ts';
import type { ShapeIndex } from './canvas/shapeIndex.ts';
import { unionRect } from './model/geometry.ts';
import { minimapFrame } from './model/minimap.ts';

/** Paints the board into a thumbnail-sized canvas (null where the browser gives no 2D context). */
function paintThumbnail(index: ShapeIndex): HTMLCanvasElement | null {
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
  if (content) paintMiniature(ctx, list, byId, minimapFrame(content, content, size, 0.06));
  return canvas;
}

/**
 * Paints the board into a thumbnail-sized image: WebP where the browser encodes it, else PNG.
 * Encoded at once (toDataURL, not toBlob): a page being closed runs no callback after its
 * `pagehide`, so toBlob's would never come; at 480 × 300 it takes a few milliseconds.
 */
export function renderThumbnail(index: ShapeIndex): Blob | null {
  const url = paintThumbnail(index)?.toDataURL('image/webp', 0.85);
  const match = url && /^data:([^;]+);base64,(.*)$/.exec(url);
  if (!match) return null;
  const bytes = Uint8Array.from(atob(match[2]!), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type: match[1] });
}

async function upload(boardId: string, blob: Blob): Promise<void> {
  const init: RequestInit = { method: 'PUT', credentials: 'same-origin', body: blob };
  try {
    // keepalive lets the request outlive the page being left, the timer's too: one sent a moment
    // before the person left was cancelled with the page, and its edits were never sent again.
    // Browsers cap such bodies at 64 KB.
    await fetch(apiPaths.thumbnail(boardId), {
      ...init,
      keepalive: blob.size < 60_000,
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
  const send = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!dirty || !canEdit()) return;
    dirty = false;
    const blob = renderThumbnail(index);
    if (blob && blob.size <= thumbnailLimits.maxBytes) void upload(boardId, blob);
  };
  const onTransaction = (tr: Y.Transaction) => {
    // Our own edits only: changes from the server or IndexedDB are someone else's to picture.
    if (!tr.local || tr.changed.size === 0) return;
    dirty = true;
    timer ??= setTimeout(send, thumbnailLimits.minIntervalMs);
  };
  // The tab closed, the browser quit, or the person went to another site: React cleans nothing up
  // then, and the edits of the last few seconds would be missing from the dashboard's picture.
  // Hidden comes first (and is the last event a phone's browser is sure to give).
  const onHidden = () => {
    if (document.visibilityState === 'hidden') send();
  };
  doc.on('afterTransaction', onTransaction);
  document.addEventListener('visibilitychange', onHidden);
  window.addEventListener('pagehide', send);
  return () => {
    doc.off('afterTransaction', onTransaction);
    document.removeEventListener('visibilitychange', onHidden);
    window.removeEventListener('pagehide', send);
    send();
  };
}
