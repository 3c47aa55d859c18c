// The real ToolController over a real Y.Doc and a vanilla zustand store, driven with the same
// events the canvas forwards (screen coordinates), no browser: the setup the gesture tests share.
import * as Y from 'yjs';
import { ShapeIndex } from '../src/board/canvas/shapeIndex.ts';
import { createUndoManager } from '../src/board/model/index.ts';
import { createEditorStore, toScreen } from '../src/board/store.ts';
import { type Handle, ToolController } from '../src/board/tools/controller.ts';

export function setup() {
  const doc = new Y.Doc();
  const store = createEditorStore();
  const index = new ShapeIndex(doc);
  const undo = createUndoManager(doc);
  const controller = new ToolController({
    doc,
    store,
    userId: 'u1',
    readOnly: () => false,
    shapes: index.getSnapshot,
    stopCapturing: () => undo.stopCapturing(),
  });
  const screen = (x: number, y: number) => {
    const s = store.getState();
    return toScreen(s.viewport, s.screen, x, y);
  };
  /** One pointer gesture from board point `a` through `path` (board points). */
  const drag = (
    a: [number, number],
    path: [number, number][],
    opts: { handle?: Handle; shift?: boolean } = {},
  ) => {
    const p0 = screen(...a);
    controller.down({ ...p0, button: 0, shift: !!opts.shift, pointerId: 1, handle: opts.handle ?? null });
    for (const p of path) controller.move({ ...screen(...p), pointerId: 1, shift: !!opts.shift });
    const last = path.at(-1) ?? a;
    controller.up({ ...screen(...last), pointerId: 1 });
  };
  const rec = (id: string) => index.getSnapshot().byId.get(id)!;
  return { doc, store, index, undo, controller, drag, rec };
}
