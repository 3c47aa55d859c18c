// A frame's name field: the Frames panel's, and the one over a frame on the canvas.
import type { ShapeRecord } from '@tandem/shared';
import { UNNAMED_FRAME_NAME } from '@tandem/shared/render/frames.ts';
import { useState } from 'react';
import type * as Y from 'yjs';
import { renameFrame } from './frames.ts';

/**
 * Every keystroke renames the frame (its Y.Text, so two people's edits merge), but a blank name is
 * never stored: while the field is blank (or only spaces) the frame keeps its name, and leaving
 * the field, Enter or Escape shows that name again, as a blank page name is refused (the Pages
 * panel). A cleared field was stored: the canvas showed "Frame", the panel a blank field, and the
 * export buttons were "Export  as PNG" (a user trial).
 */
export function FrameNameField(props: {
  doc: Y.Doc;
  frame: ShapeRecord;
  className?: string;
  style?: React.CSSProperties;
  autoFocus?: boolean;
  /** Editing ends (Enter, Escape, the field left): the canvas's field goes. */
  onDone?(): void;
}) {
  const { doc, frame, onDone } = props;
  // What the field shows while it is blank; null: the frame's stored name.
  const [blank, setBlank] = useState<string | null>(null);
  const end = () => {
    setBlank(null);
    onDone?.();
  };
  return (
    <input
      className={props.className}
      style={props.style}
      aria-label="Frame name"
      placeholder={UNNAMED_FRAME_NAME}
      // biome-ignore lint/a11y/noAutofocus: only the canvas's field, opened by a double-click on the frame.
      autoFocus={props.autoFocus}
      value={blank ?? frame.name ?? ''}
      maxLength={200}
      onChange={(e) => {
        const next = e.target.value;
        if (next.trim()) {
          setBlank(null);
          renameFrame(doc, frame.id, next);
        } else setBlank(next);
      }}
      onBlur={end}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === 'Escape') end();
      }}
    />
  );
}
