// Find on this page (Ctrl+F): a field that selects, one by one in reading order, the shapes whose
// words hold what is typed, and brings each into view. It takes Ctrl+F from the browser, whose
// own find cannot see text drawn on the canvas (Miro and Excalidraw do the same). The matching is
// the model's (model/find.ts); this renders the bar and moves the selection and the view. Under
// the field it lists the board's other pages that match (findPages.ts: the server searches them),
// each opening its page with the bar still open there.
import type { PageEntry } from '@tandem/shared';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { navigate } from '../../router.tsx';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { findMatches, matchCountText, stepMatch } from '../model/find.ts';
import { pageLabel, pagePath } from '../pages/model.ts';
import { onKeydown } from '../shortcuts.ts';
import { showToRead, useEditor } from '../store.ts';
import { uncoveredNow } from './clearOfSelection.ts';
import { carryFind, pageMatchesText, useOtherPageMatches } from './findPages.ts';
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
  /**
   * The board's pages, for the list of the other pages that match; null where the pages are not
   * searched (a History preview searches one version of the page shown).
   */
  pages: { boardId: string; pageId: string; list: readonly PageEntry[] } | null;
  /** The query the bar opens with: the one carried from the page a listed match was chosen on. */
  initialQuery?: string;
  /**
   * Given when the bar was carried onto this page: calls back once the page's content has loaded
   * (and the editor's first fit is done), to show its first match then; answers a cancel.
   */
  whenLoaded?: (then: () => void) => () => void;
}

export function FindBar({ index, focusRequest, onClose, pages, initialQuery = '', whenLoaded }: Props) {
  const snapshot = useSyncExternalStore(index.subscribe, index.getSnapshot);
  const [query, setQuery] = useState(initialQuery);
  const [current, setCurrent] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const bar = useRef<HTMLElement>(null);
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
    const st = useEditor.getState();
    if (id === null) {
      // Nothing found any more: the match the bar selected is let go, as a browser's find drops
      // its highlight, so the board does not look as if it still matched. A selection made by
      // hand since is left alone.
      if (current !== null && st.selection.length === 1 && st.selection[0] === current) st.select([]);
      return;
    }
    st.select([id]);
    // The index as it is now: called from a load's callback, this render's snapshot may be older.
    const entry = index.getSnapshot().list.find((e) => e.rec.id === id);
    if (!entry) return;
    // In the next frame, once the selection has opened the style panel: the match is shown in the
    // part of the board no panel covers (the style panel at its home, an open Comments or Pages
    // panel, this bar), centred there, not just inside the screen's margins and under one of them.
    requestAnimationFrame(() => {
      const now = useEditor.getState();
      const clear = uncoveredNow(now.screen, bar.current?.parentElement ?? null, true);
      const view = showToRead(now.viewport, now.screen, entry.bounds, clear);
      if (view !== now.viewport) now.setViewport(view);
    });
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
  // Whether anything was typed since the bar opened (a carried query's first match then waits for no load).
  const typed = useRef(false);
  const type = (text: string) => {
    pickAfterTyping.current = true;
    typed.current = true;
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

  // Carried onto this page from a listed match: its first match is shown once the page has loaded
  // (before that, the index holds nothing or only this browser's copy of it).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the query the bar opened with
  useEffect(() => {
    if (!whenLoaded) return;
    return whenLoaded(() => {
      if (typed.current) return; // typed meanwhile: what was typed decides
      const first = findMatches(
        index.getSnapshot().list.map((e) => e.rec),
        initialQuery,
      )[0];
      show(first ?? null);
    });
  }, []);

  // A board of one page has no other page to ask the server about.
  const others = useOtherPageMatches(
    pages?.boardId ?? '',
    pages?.pageId ?? '',
    query,
    pages !== null && pages.list.length > 1,
  );
  // Listed in the board's order with the names the Pages panel shows; a page no longer listed
  // here (deleted since) is left out.
  const otherPages =
    pages && others
      ? others.flatMap((found) => {
          const page = pages.list.find((p) => p.id === found.pageId);
          return page ? [{ ...found, label: pageLabel(page) }] : [];
        })
      : [];
  const openPage = (pageId: string) => {
    if (!pages) return;
    // The page's editor takes the bar and the query over (findPages.ts); the same navigation as
    // the Pages panel's.
    carryFind({ boardId: pages.boardId, pageId, query });
    navigate(pagePath(pages.boardId, pageId));
  };

  return (
    // A search landmark: a screen reader lists it among the page's regions.
    // Escape closes it from the field and from the list of other pages alike.
    <search
      ref={bar}
      className="panel find-bar"
      aria-label="Find on this page"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        close();
      }}
    >
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
      {otherPages.length > 0 && (
        <ul className="find-pages" aria-label="Matches on other pages">
          {/* Said visibly what the list's name says to a screen reader: these are other pages. */}
          <li className="find-pages-label" aria-hidden="true">
            Also on
          </li>
          {otherPages.map((p) => (
            <li key={p.pageId}>
              <button type="button" className="find-page" onClick={() => openPage(p.pageId)}>
                {p.label} — {pageMatchesText(p.count)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </search>
  );
}
