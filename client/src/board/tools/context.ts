// What the tools are given by the page (or by a test): a module of its own so that the
// controller and its gestures (gestures.ts) both import it without importing each other.
import type * as Y from 'yjs';
import type { ShapeSnapshot } from '../canvas/shapeIndex.ts';
import type { EditorStore } from '../store.ts';

export interface ToolContext {
  doc: Y.Doc;
  /** The editor state (tool, viewport, selection…): the page's store, or a fresh one in tests. */
  store: EditorStore;
  userId: string;
  readOnly(): boolean;
  shapes(): ShapeSnapshot;
  /** Ends one undo step, so a gesture is undone as a whole. */
  stopCapturing(): void;
}
