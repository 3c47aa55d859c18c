// Find on the board (Ctrl+F): the shapes whose words hold what was typed, in the order a person
// reads the board, so Enter walks them as Tab does. Miro and Excalidraw both take Ctrl+F for this:
// the browser's own find cannot see text drawn on the canvas. Pure, so tested in Node.
// The matching itself (foldForFind, which shapes match) is shared/src/find.ts, the one the server's
// search of every page uses; this orders the matches and walks them.
import { matchingShapes, type ShapeRecord } from '@tandem/shared';
import { readingOrder } from './describe.ts';

export { foldForFind } from '@tandem/shared';

/** The ids of the shapes whose words contain `query`, in reading order; none for a blank query. */
export function findMatches(records: readonly ShapeRecord[], query: string): string[] {
  return readingOrder(matchingShapes(records, query)).flatMap((unit) => unit.ids);
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
