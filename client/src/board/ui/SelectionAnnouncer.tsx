// The board's one polite live region for the selection: a screen reader says "Selected: Sticky
// note: Ship it, 2 of 5", "3 shapes selected" or "Selection cleared" when this person's selection
// changes (a click, Tab, Escape, a marquee), and nothing when others edit the board. The words
// come from the model (model/describe.ts); this only listens and renders them.
import { useEffect, useState } from 'react';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { selectionAnnouncement } from '../model/describe.ts';
import { useEditor } from '../store.ts';
import './announcer.css';

/**
 * How long the selection must rest before it is said: a marquee grows the selection on every
 * pointer move, and a count per move would queue up a dozen sentences nobody wants to hear.
 */
const SETTLE_MS = 200;

export function SelectionAnnouncer({ index }: { index: ShapeIndex }) {
  const [text, setText] = useState('');
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Only a change of the selection itself speaks: a remote edit to a selected shape changes
    // the shapes, not this person's selection, so it is never announced.
    const stop = useEditor.subscribe((s, prev) => {
      if (s.selection === prev.selection) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const shown = index.getSnapshot();
        setText(
          selectionAnnouncement(
            useEditor.getState().selection,
            shown.byId,
            shown.list.map((e) => e.rec),
          ),
        );
      }, SETTLE_MS);
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [index]);
  // Always in the page (empty at first), so screen readers are watching it before it first speaks.
  // A live region without role="status": the page's status regions (connection, notices) are
  // found by that role, and this one is not a status of the board.
  return (
    <p className="sr-only" aria-live="polite" aria-atomic="true" data-selection-announcer="">
      {text}
    </p>
  );
}
