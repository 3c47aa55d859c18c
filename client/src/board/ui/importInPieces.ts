// A large import goes into the board in pieces (one transaction each, each sent on its own and
// under MAX_MESSAGE_BYTES), with progress shown and the page responsive between pieces. It is
// still one step for Undo.
import type { ShapeRecord } from '@tandem/shared';
import { IMPORT_PIECE, insertRecordsInPieces } from '../model/clipboard.ts';
import type { Point } from '../model/geometry.ts';
import { useEditor } from '../store.ts';
import type { BoardSession } from '../sync/provider.ts';

/** Lets the browser paint the progress bar and handle input before the next piece (a hidden tab,
 * which gets no frames, still moves on through the timer). */
const nextFrame = () =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 50);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      setTimeout(resolve, 0);
    });
  });

export async function importInPieces(
  session: BoardSession,
  records: ShapeRecord[],
  userId: string,
  offset: Point = { x: 0, y: 0 },
): Promise<string[]> {
  const { undo } = session;
  const st = useEditor.getState();
  const big = records.length > IMPORT_PIECE;
  undo.stopCapturing();
  const timeout = undo.captureTimeout;
  // Every piece merges into one undo step.
  undo.captureTimeout = Number.POSITIVE_INFINITY;
  try {
    if (big) st.setProgress({ label: 'Importing shapes', done: 0, total: records.length });
    return await insertRecordsInPieces(session.doc, records, userId, {
      offset,
      pause: nextFrame,
      onProgress: (done, total) => big && st.setProgress({ label: 'Importing shapes', done, total }),
    });
  } finally {
    undo.captureTimeout = timeout;
    undo.stopCapturing();
    st.setProgress(null);
  }
}
