// Find on the other pages of the board: each page is its own document, loaded only when shown
// (docs/api.md §17), so the Find bar asks the server which other pages match
// (`GET /api/boards/:id/search`, the same matching: shared/src/find.ts) and lists them. Choosing
// one opens that page with the bar still open on the same query; the hand-over lives here, outside
// the editor view, which is made anew for every page shown.
import { type BoardSearchResult, MAX_FIND_QUERY, type PageMatches } from '@tandem/shared';
import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';

/** How long typing rests before the server is asked: one request per pause, not per keystroke. */
export const SEARCH_PAGES_DEBOUNCE_MS = 250;
/**
 * How often an open bar asks again while its query stands, so a page someone writes on meanwhile
 * joins (or leaves) the list, as this page's own matches follow its edits. The other pages are
 * not loaded here, so no edit of theirs reaches this tab to ask on: one request per open bar per
 * interval instead (each reads the board's pages on the server), none while the tab is hidden.
 */
export const SEARCH_PAGES_REFRESH_MS = 10_000;

/**
 * The pages other than `pageId` with matches of `query`, as the server last answered for this very
 * query; null while there is nothing to show: a blank query, one being typed, an answer not back
 * yet, or no answer (offline, an error: the page shown is still searched, so nothing is said).
 */
export function useOtherPageMatches(
  boardId: string,
  pageId: string,
  query: string,
  enabled: boolean,
): PageMatches[] | null {
  const [answer, setAnswer] = useState<{ query: string; pages: PageMatches[] } | null>(null);
  const wanted = query.trim() && query.length <= MAX_FIND_QUERY && enabled ? query : null;
  useEffect(() => {
    if (wanted === null) return;
    // An answer that comes back after the query changed is for a query no longer asked: dropped.
    let current = true;
    let timer: ReturnType<typeof setTimeout>;
    // Asked once typing rests, then again every interval after each answer (never two at once).
    const ask = (after: number) => {
      timer = setTimeout(() => {
        if (after === SEARCH_PAGES_REFRESH_MS && document.hidden) return ask(SEARCH_PAGES_REFRESH_MS);
        api.boardSearch(boardId, wanted).then(
          (found: BoardSearchResult) => {
            if (!current) return;
            setAnswer({ query: wanted, pages: found.pages });
            ask(SEARCH_PAGES_REFRESH_MS);
          },
          () => {
            // Offline or refused: the list is dropped until an answer comes again.
            if (!current) return;
            setAnswer(null);
            ask(SEARCH_PAGES_REFRESH_MS);
          },
        );
      }, after);
    };
    ask(SEARCH_PAGES_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [boardId, wanted]);
  if (wanted === null || answer?.query !== wanted) return null;
  return answer.pages.filter((p) => p.pageId !== pageId);
}

/** A Find carried onto the page a listed match opened, for that page's editor to pick up. */
export interface CarriedFind {
  boardId: string;
  pageId: string;
  query: string;
}

let carried: (CarriedFind & { at: number }) | null = null;
/**
 * The page's editor is shown in the render after the navigation; a hand-over older than this was
 * never taken (the page was refused, say) and must not open a bar on a later visit.
 */
const CARRY_FOR_MS = 5000;

/** Called as a listed page is opened: its editor opens the bar on `query` and shows its first match. */
export function carryFind(find: CarriedFind): void {
  carried = { ...find, at: Date.now() };
}

/**
 * The Find carried onto this page, if any. Read in a state initialiser (which may run twice) and
 * let go of by `dropCarriedFind` once the editor is shown, so another visit opens no bar.
 */
export function carriedFind(boardId: string, pageId: string): CarriedFind | null {
  const fresh = carried !== null && Date.now() - carried.at < CARRY_FOR_MS;
  return fresh && carried?.boardId === boardId && carried.pageId === pageId ? carried : null;
}

export function dropCarriedFind(): void {
  carried = null;
}

/** "3 matches" after a page's name: what a listed page's button says. */
export const pageMatchesText = (count: number): string => (count === 1 ? '1 match' : `${count} matches`);
