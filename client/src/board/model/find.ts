// Find on the board (Ctrl+F): the shapes whose words hold what was typed, in the order a person
// reads the board, so Enter walks them as Tab does. Miro and Excalidraw both take Ctrl+F for this:
// the browser's own find cannot see text drawn on the canvas. Pure, so tested in Node.
import type { ShapeRecord } from '@tandem/shared';
import { readingOrder } from './describe.ts';

/**
 * Text as find compares it: case and accents ignored ("resume" finds "Résumé", as browsers' find
 * does), any run of spaces and line breaks one space (a note's line break is where it wrapped).
 */
export function foldForFind(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase().replace(/\s+/g, ' ');
}

/**
 * The words find reads in a shape: a frame's name, an image's alt text; any other shape's text,
 * or an arrow's label.
 */
function wordsOf(s: ShapeRecord): string {
  return (s.type === 'frame' ? s.name : s.type === 'image' ? s.alt : s.text) ?? '';
}

/** The ids of the shapes whose words contain `query`, in reading order; none for a blank query. */
export function findMatches(records: readonly ShapeRecord[], query: string): string[] {
  const wanted = foldForFind(query).trim();
  if (!wanted) return [];
  const hits = records.filter((s) => foldForFind(wordsOf(s)).includes(wanted));
  return readingOrder(hits).flatMap((unit) => unit.ids);
}

/**
 * The match Enter (`step` 1) or Shift+Enter (-1) goes to from `current`, wrapping round at the
 * ends; from no current match (or one that no longer matches), the first or the last.
 */
export function stepMatch(matches: readonly string[], current: string | null, step: 1 | -1): string | null {
  if (matches.length === 0) return null;
  const at = current === null ? -1 : matches.indexOf(current);
  if (at < 0) return step === 1 ? matches[0]! : matches[matches.length - 1]!;
  return matches[(at + step + matches.length) % matches.length]!;
}

/** What the bar says of the matches: "3 of 12", "12 matches", "No matches", or nothing yet. */
export function matchCountText(matches: readonly string[], current: string | null, query: string): string {
  if (!query.trim()) return '';
  if (matches.length === 0) return 'No matches';
  const at = current === null ? -1 : matches.indexOf(current);
  if (at >= 0) return `${at + 1} of ${matches.length}`;
  return matches.length === 1 ? '1 match' : `${matches.length} matches`;
}
