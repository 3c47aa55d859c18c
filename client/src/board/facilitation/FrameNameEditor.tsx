// A frame's name, edited in place on the canvas.
import { toScreen, useEditor } from '../store.ts';
import { renameFrame } from './frames.ts';
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
    <input
      className="frame-name-editor"
      aria-label="Frame name"
      style={{ left: at.x, top: at.y - 34 }}
      // biome-ignore lint/a11y/noAutofocus: editing starts where the user double-clicked.
      autoFocus
      value={frame.name ?? ''}
      maxLength={200}
      onChange={(e) => renameFrame(session.doc, frame.id, e.target.value)}
      onBlur={() => useEditor.getState().setEditing(null)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === 'Escape') useEditor.getState().setEditing(null);
      }}
    />
  );
}
