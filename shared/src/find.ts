// Find (docs/client.md "Find", docs/api.md §17): which shapes a query finds. One implementation for
// the client's Find bar on the page shown and the server's search of every page
// (`GET /api/boards/:id/search`), so a page the server says matches is one the bar then finds
// matches on. The order matches are walked in is the client's (reading order, client model/find.ts).
import { z } from 'zod';
import type { ShapeRecord } from './shapes.ts';

/** The longest query the server searches a board for (a Find bar's field is one line). */
export const MAX_FIND_QUERY = 200;

/** `?q=` of the board search: 1–200 characters. */
export const FindQuery = z.object({
  q: z
    .string({ error: 'Give something to find.' })
    .min(1, { error: 'Give something to find.' })
    .max(MAX_FIND_QUERY, { error: `At most ${MAX_FIND_QUERY} characters.` }),
});

/** One page's matches in the board search's answer: only pages with at least one. */
export interface PageMatches {
  pageId: string;
  name: string;
  count: number;
  shapeIds: string[];
}

export interface BoardSearchResult {
  pages: PageMatches[];
}

/**
 * Text as find compares it: case and accents ignored ("resume" finds "Résumé", as browsers' find
 * does), any run of spaces and line breaks one space (a note's line break is where it wrapped).
 */
export function foldForFind(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase().replace(/\s+/g, ' ');
}

/**
 * The words find reads in a shape: a frame's name, an image's alt text; any other shape's text,
 * or an arrow's label. A record that is not a string there (one the schema would refuse, which
 * the server reads as stored) has no words.
 */
function wordsOf(s: ShapeRecord): string {
  const words = s.type === 'frame' ? s.name : s.type === 'image' ? s.alt : s.text;
  return typeof words === 'string' ? words : '';
}

/** A shape's words as find compares them (foldForFind), '' for a shape without words. */
export const findText = (s: ShapeRecord): string => foldForFind(wordsOf(s));

/** The shapes whose words contain `query`, in the order given; none for a blank query. */
export function matchingShapes<T extends ShapeRecord>(records: readonly T[], query: string): T[] {
  const wanted = foldForFind(query).trim();
  if (!wanted) return [];
  return records.filter((s) => findText(s).includes(wanted));
}

/**
 * `matchingShapes` over words already folded (`findText`), as the server keeps them for its board
 * search: the ids whose text contains `query`, in the order given.
 */
export function matchingTexts(texts: readonly { id: string; text: string }[], query: string): string[] {
  const wanted = foldForFind(query).trim();
  if (!wanted) return [];
  return texts.filter((t) => t.text.includes(wanted)).map((t) => t.id);
}
