// Find on this page (Ctrl+F): a field that selects, one by one in reading order, the shapes whose
// words hold what is typed, and brings each into view. It takes Ctrl+F from the browser, whose
// own find cannot see text drawn on the canvas (Miro and Excalidraw do the same). The matching is
// the model's (model/find.ts); this renders the bar and moves the selection and the view.
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { findMatches, matchCountText, stepMatch } from '../model/find.ts';
import { onKeydown } from '../shortcuts.ts';
import { showToRead, useEditor } from '../store.ts';
import { canTakeFocus } from './focusable.ts';
import { Icon } from './icons.tsx';
import './find.css';

/** Ctrl+F (⌘F on a Mac) opens the bar, or puts the caret back in it when it is open already. */
export function useFindShortcut(open: () => void): void {
  useEffect(
    () =>
      onKeydown((e) => {
        if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'f') {
          e.preventDefault();
          open();
        }
      }),
    [open],
  );
}

interface Props {
  /** The shapes shown: the live page, or the version the History panel previews. */
  index: ShapeIndex;
  /** Asked again by Ctrl+F while open: the field takes the caret and its text is selected. */
  focusRequest: number;
  onClose: () => void;
}

export function FindBar({ index, focusRequest, onClose }: Props) {
  const snapshot = useSyncExternalStore(index.subscribe, index.getSnapshot);
  const [query, setQuery] = useState('');
  const [current, setCurrent] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  // Where the caret was before: Escape gives it back, as a dialog does.
  const before = useRef<Element | null>(null);
  // Matches follow the board as it changes (someone edits a note while this is open).
  const matches = useMemo(
    () =>
      findMatches(
        snapshot.list.map((e) => e.rec),
        query,
      ),
    [snapshot, query],
  );

  useEffect(() => {
    if (focusRequest === 0) return;
    before.current ??= document.activeElement;
    field.current?.focus();
    field.current?.select();
  }, [focusRequest]);

  const show = (id: string | null) => {
    setCurrent(id);
    if (id === null) return;
    const st = useEditor.getState();
    st.select([id]);
    const entry = snapshot.list.find((e) => e.rec.id === id);
    if (!entry) return;
    const view = showToRead(st.viewport, st.screen, entry.bounds);
    if (view !== st.viewport) st.setViewport(view);
  };

  const close = () => {
    onClose();
    const back = before.current;
    if (canTakeFocus(back)) back.focus();
  };

  // Typing asks for a match to be shown; the effect below answers once the matches for the new
  // text exist, so each keystroke works them out once. Matches that change because someone else
  // edited do not move the view.
  const pickAfterTyping = useRef(false);
  const type = (text: string) => {
    pickAfterTyping.current = true;
    setQuery(text);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the matches change, reading the rest as they are then
  useEffect(() => {
    if (!pickAfterTyping.current) return;
    pickAfterTyping.current = false;
    // As a browser's find does: the first match is shown while typing, and stays shown while
    // the query still finds it.
    show(current !== null && matches.includes(current) ? current : (matches[0] ?? null));
  }, [matches]);

  const step = (by: 1 | -1) => show(stepMatch(matches, current, by));

  return (
    // A search landmark: a screen reader lists it among the page's regions.
    <search className="panel find-bar" aria-label="Find on this page">
      <input
        ref={field}
        type="search"
        value={query}
        placeholder="Find on this page"
        aria-label="Find on this page"
        aria-describedby="find-count"
        onChange={(e) => type(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            step(e.shiftKey ? -1 : 1);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            close();
          }
        }}
      />
      {/* A live region without role="status": the page's status regions (connection, notices) are
          found by that role, and this one is not a status of the board. */}
      <span id="find-count" className="find-count" aria-live="polite">
        {matchCountText(matches, current, query)}
      </span>
      <button
        type="button"
        className="tool"
        aria-label="Previous match"
        title="Previous match (Shift+Enter)"
        disabled={matches.length === 0}
        onClick={() => step(-1)}
      >
        <Icon name="up" size={16} />
      </button>
      <button
        type="button"
        className="tool"
        aria-label="Next match"
        title="Next match (Enter)"
        disabled={matches.length === 0}
        onClick={() => step(1)}
      >
        <Icon name="down" size={16} />
      </button>
      <button type="button" className="tool" aria-label="Close find" title="Close (Escape)" onClick={close}>
        <Icon name="close" size={16} />
      </button>
    </search>
  );
}
