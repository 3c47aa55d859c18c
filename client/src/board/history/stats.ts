// What a version's "+2 ~1 −2" means, in words: the tooltip and the accessible name of the figures
// in the History panel (a trial's new user read "+2 / −2" as votes, or nothing at all).
import type { ChangesUndone, VersionStats } from '@tandem/shared';
import { whenLabel } from './times.ts';

const shapes = (n: number) => (n === 1 ? '1 shape' : `${n} shapes`);

/** "2 shapes added, 1 changed, 2 removed"; "No shapes changed" when all three are 0. */
export function statsSentence(stats: VersionStats): string {
  const parts = [
    stats.added > 0 ? `${stats.added} added` : null,
    stats.changed > 0 ? `${stats.changed} changed` : null,
    stats.removed > 0 ? `${stats.removed} removed` : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return 'No shapes changed';
  // The first figure carries the noun: "2 shapes added, 2 removed", "1 shape changed".
  const first = parts[0]!;
  const n = Number(first.split(' ')[0]);
  parts[0] = `${shapes(n)} ${first.slice(first.indexOf(' ') + 1)}`;
  return parts.join(', ');
}

/**
 * What the person whose changes the owner undid is told: "Ana undid your changes since 14:05,
 * on 12 shapes." (on a board of several pages, "… on “Ideas” since 14:05."). `pageName` is null on
 * a board of one page.
 */
export function changesUndoneSentence(undone: ChangesUndone, pageName: string | null): string {
  const where = pageName === null ? '' : ` on “${pageName}”`;
  return `${undone.by.name} undid your changes${where} since ${whenLabel(undone.since)}, on ${shapes(undone.changes)}.`;
}
