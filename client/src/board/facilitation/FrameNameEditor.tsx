// A frame's name, edited in place on the canvas.
import { toScreen, useEditor } from '../store.ts';
import { FrameNameField } from './FrameNameField.tsx';
import { useShapes } from './hooks.ts';
import type { FacilitationProps } from './props.ts';

/** Double-click a frame: its name, edited in place above it (the Y.Text, so edits merge). */
export function FrameNameEditor({ index, session, canEdit }: FacilitationProps & { canEdit: boolean }) {
  const editingId = useEditor((s) => s.editingId);
  const viewport = useEditor((s) => s.viewport);
  const screen = useEditor((s) => s.screen);
  const snap = useShapes(index);
  const frame = editingId ? snap.byId.get(editingId) : undefined;
  if (!canEdit || !frame || frame.type !== 'frame') return null;
  const at = toScreen(viewport, screen, frame.x, frame.y);
  return (
    <FrameNameField
      className="frame-name-editor"
      style={{ left: at.x, top: at.y - 34 }}
      autoFocus
      doc={session.doc}
      frame={frame}
      onDone={() => useEditor.getState().setEditing(null)}
    />
  );
}
