// Adding images to the open board (docs/api.md §13): paste, drop onto the canvas, and the Image tool
// (button or I) with a file picker. Every image goes through the outbox in IndexedDB first, so
// one taken while offline survives a reload and is uploaded when the connection returns; while
// it waits or uploads, a placeholder with its progress sits where it will appear. The image
// shape is created (one undo step) only once the server has the bytes.
import { assetSentences, newShapeId } from '@tandem/shared';
import { useEffect, useRef } from 'react';
import { createShape } from '../model/shapes.ts';
import { isTyping, onKeydown, ownsKey } from '../shortcuts.ts';
import { toBoard, toScreen, useEditor, visibleRect } from '../store.ts';
import type { BoardSession } from '../sync/provider.ts';
import { type OutboxEntry, outbox } from './outbox.ts';
import { centredAt, placedSize } from './placement.ts';
import { useImages } from './state.ts';
import { uploadAsset } from './upload.ts';
import './images.css';

interface Props {
  boardId: string;
  userId: string;
  session: BoardSession;
  /** Viewers (and a board whose access was lost) cannot add images. */
  readOnly: boolean;
  onMessage(sentence: string): void;
  /** Where the pointer is over the board (board units), or null when it is not: a paste lands there. */
  pointer(): { x: number; y: number } | null;
}

let openPicker: (() => void) | null = null;
/** Opens the file picker of the mounted board (the toolbar's Image button). */
export const pickImages = (): void => openPicker?.();

/** Image files among what was pasted or dropped. */
function imageFiles(data: DataTransfer | null): File[] {
  if (!data) return [];
  const files = [...data.files];
  if (files.length > 0) return files;
  return [...data.items]
    .filter((item) => item.kind === 'file')
    .map((item) => item.getAsFile())
    .filter((f): f is File => f !== null);
}

async function naturalSize(blob: Blob): Promise<{ width: number; height: number } | null> {
  try {
    const bitmap = await createImageBitmap(blob);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null; // not something this browser decodes; the server will say what it is
  }
}

export function ImageInput({ boardId, userId, session, readOnly, onMessage, pointer }: Props) {
  const input = useRef<HTMLInputElement>(null);
  // Read at call time by listeners that live as long as the board.
  const live = useRef({ readOnly, onMessage, pointer });
  live.current = { readOnly, onMessage, pointer };

  useEffect(() => {
    let stopped = false;
    const entries = new Map<string, OutboxEntry>();
    const previews = new Map<string, string>();
    const images = useImages.getState();
    images.clear();
    images.setBoard(boardId);

    const show = (entry: OutboxEntry) => {
      const preview = URL.createObjectURL(entry.blob);
      previews.set(entry.id, preview);
      images.add({ id: entry.id, x: entry.x, y: entry.y, w: entry.w, h: entry.h, preview, progress: null });
    };
    const forget = (id: string) => {
      entries.delete(id);
      const preview = previews.get(id);
      if (preview) URL.revokeObjectURL(preview);
      previews.delete(id);
      useImages.getState().remove(id);
      void outbox.remove(id).catch(() => {});
    };

    let draining = false;
    const drain = async () => {
      if (draining || stopped) return;
      draining = true;
      try {
        for (const entry of [...entries.values()]) {
          if (stopped || session.getConnection().status !== 'live') return;
          useImages.getState().update(entry.id, { progress: 0 });
          const result = await uploadAsset(boardId, entry.blob, (progress) =>
            useImages.getState().update(entry.id, { progress }),
          );
          if (stopped) return;
          if (result.ok) {
            // The server's width and height are the truth; keep the centre the user chose.
            const ratio = result.asset.height / Math.max(1, result.asset.width);
            const w = entry.w;
            const h = w * ratio;
            session.undo.stopCapturing();
            const id = createShape(
              session.doc,
              {
                type: 'image',
                x: entry.x + entry.w / 2 - w / 2,
                y: entry.y + entry.h / 2 - h / 2,
                w,
                h,
                assetId: result.asset.id,
              },
              userId,
            );
            session.undo.stopCapturing();
            useEditor.getState().select([id]);
            forget(entry.id);
          } else if (result.refused) {
            forget(entry.id);
            live.current.onMessage(result.sentence);
          } else {
            useImages.getState().update(entry.id, { progress: null });
            return; // the network failed: wait for the connection to come back
          }
        }
      } finally {
        draining = false;
      }
    };

    /** Adds images centred on `at` (board units), fanned out a little when there are several. */
    const add = async (files: File[], at?: { x: number; y: number }) => {
      if (files.length === 0) return;
      if (live.current.readOnly) {
        live.current.onMessage(assetSentences.viewer);
        return;
      }
      const { viewport, screen } = useEditor.getState();
      const view = visibleRect(viewport, screen);
      const centre = at ?? { x: viewport.x, y: viewport.y };
      let offset = 0;
      for (const file of files) {
        const natural = (await naturalSize(file)) ?? { width: 320, height: 240 };
        const box = centredAt({ x: centre.x + offset, y: centre.y + offset }, placedSize(natural, view));
        offset += 24 / viewport.zoom;
        const entry: OutboxEntry = {
          id: newShapeId(),
          userId,
          boardId,
          ...box,
          blob: file,
          createdAt: Date.now(),
        };
        entries.set(entry.id, entry);
        show(entry);
        // Kept only in memory if IndexedDB is unavailable (private mode in some browsers).
        await outbox.put(entry).catch(() => {});
      }
      if (session.getConnection().status !== 'live') live.current.onMessage(assetSentences.offline);
      void drain();
    };

    const paste = (e: ClipboardEvent) => {
      if (isTyping(e.target)) return;
      const files = imageFiles(e.clipboardData);
      if (files.length === 0) return; // shapes or text: the editor's own paste handles it
      e.preventDefault();
      e.stopImmediatePropagation();
      // At the pointer, as a drop lands where it is dropped; the middle of the view otherwise.
      void add(files, live.current.pointer() ?? undefined);
    };
    const canvasPoint = (e: DragEvent) => {
      // The canvas's parent: the canvas itself is drawn larger and moved while panning.
      const el = document.querySelector('.canvas')?.parentElement;
      if (!el) return undefined;
      const r = el.getBoundingClientRect();
      const { viewport, screen } = useEditor.getState();
      return toBoard(viewport, screen, e.clientX - r.left, e.clientY - r.top);
    };
    const dragover = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = live.current.readOnly ? 'none' : 'copy';
    };
    const drop = (e: DragEvent) => {
      const files = imageFiles(e.dataTransfer);
      if (files.length === 0) return;
      e.preventDefault();
      void add(files, canvasPoint(e));
    };
    const keydown = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== 'i' || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
      if (ownsKey(e)) return;
      if (live.current.readOnly) return;
      e.preventDefault();
      input.current?.click();
    };
    const picked = (files: File[]) => void add(files);
    openPicker = () => {
      if (live.current.readOnly) live.current.onMessage(assetSentences.viewer);
      else input.current?.click();
    };
    pickedFiles = picked;

    document.addEventListener('paste', paste, true);
    window.addEventListener('dragover', dragover);
    window.addEventListener('drop', drop);
    const stopKeys = onKeydown(keydown);
    const stopConnection = session.onConnection((state) => {
      if (state.status === 'live') void drain();
    });
    // What an earlier visit left in the outbox (an offline paste, then a reload).
    void outbox
      .list(userId, boardId)
      .then((stored) => {
        if (stopped) return;
        for (const entry of stored) {
          if (entries.has(entry.id)) continue;
          entries.set(entry.id, entry);
          show(entry);
        }
        void drain();
      })
      .catch(() => {});

    return () => {
      stopped = true;
      openPicker = null;
      pickedFiles = null;
      document.removeEventListener('paste', paste, true);
      window.removeEventListener('dragover', dragover);
      window.removeEventListener('drop', drop);
      stopKeys();
      stopConnection();
      for (const preview of previews.values()) URL.revokeObjectURL(preview);
      useImages.getState().clear();
    };
  }, [boardId, userId, session]);

  return (
    <>
      <input
        ref={input}
        type="file"
        accept="image/png,image/jpeg,image/gif,image/webp"
        multiple
        hidden
        aria-label="Choose images"
        onChange={(e) => {
          pickedFiles?.([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      <PendingImages />
    </>
  );
}

let pickedFiles: ((files: File[]) => void) | null = null;

/** Placeholders of images on their way, in screen space over the canvas. */
function PendingImages() {
  const pending = useImages((s) => s.pending);
  const viewport = useEditor((s) => s.viewport);
  const screen = useEditor((s) => s.screen);
  if (pending.length === 0) return null;
  return (
    <div className="pending-images" aria-live="polite">
      {pending.map((p) => {
        const at = toScreen(viewport, screen, p.x, p.y);
        const label =
          p.progress === null ? 'Waiting for the connection' : `Uploading ${Math.round(p.progress * 100)} %`;
        return (
          <div
            key={p.id}
            className="pending-image"
            data-pending-image={p.progress === null ? 'waiting' : 'uploading'}
            role="status"
            aria-label={label}
            style={{
              transform: `translate(${at.x}px, ${at.y}px)`,
              width: p.w * viewport.zoom,
              height: p.h * viewport.zoom,
            }}
          >
            <img src={p.preview} alt="" />
            <div className="pending-label">
              <span>{label}</span>
              <progress max={1} value={p.progress ?? undefined} />
            </div>
          </div>
        );
      })}
    </div>
  );
}
