// Version history (docs/api.md §3 Version, §9, §12): the REST shapes and defaults, shared by the server
// and the History panel.
import { z } from 'zod';
import { MAIN_PAGE_ID, pageIdPattern } from './pages.ts';

export const historyDefaults = {
  /** A version is recorded after each this many seconds of editing (HISTORY_INTERVAL_S). */
  intervalSeconds: 300,
  /** Versions per page of GET /versions, and the most one page may ask for. */
  pageSize: 50,
  pageSizeMax: 200,
  labelMax: 120,
} as const;

/**
 * The `meta` key a restore sets last (server epoch ms): every client empties its undo history of
 * that document when it changes (docs/api.md §12).
 */
export const RESTORED_AT_KEY = 'restoredAt';

export const VersionAuthor = z.object({ id: z.string(), name: z.string(), color: z.string() });
export type VersionAuthor = z.infer<typeof VersionAuthor>;

export const VersionStats = z.object({
  added: z.number().int(),
  changed: z.number().int(),
  removed: z.number().int(),
});
export type VersionStats = z.infer<typeof VersionStats>;

export const Version = z.object({
  id: z.string(),
  createdAt: z.string(),
  label: z.string().optional(),
  authors: z.array(VersionAuthor),
  stats: VersionStats,
});
export type Version = z.infer<typeof Version>;

export const VersionList = z.object({
  versions: z.array(Version),
  /**
   * On the first page (no `before`): the ids of the people whose stored edits no version holds
   * yet (the next automatic one is up to HISTORY_INTERVAL_S away). With the versions' authors,
   * everyone who has changes in this history.
   */
  unrecordedAuthors: z.array(z.string()).optional(),
});
export type VersionList = z.infer<typeof VersionList>;

export const CreateVersionBody = z.object({
  label: z
    .string({ error: 'Enter a name for the version.' })
    .trim()
    .min(1, { error: 'Enter a name for the version.' })
    .max(historyDefaults.labelMax, {
      error: `A version name has at most ${historyDefaults.labelMax} characters.`,
    }),
});

/** Which page's history (docs/api.md §17): the first page unless given. */
export const PageQuery = z.object({
  page: z.string().regex(pageIdPattern, { error: 'Not a page of this board.' }).default(MAIN_PAGE_ID),
});

export const VersionListQuery = PageQuery.extend({
  before: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(historyDefaults.pageSizeMax).default(historyDefaults.pageSize),
});

export const RevertBody = z.object({
  userId: z.string().min(1).max(200),
  since: z.iso.datetime({ offset: true, error: 'Give the time as an ISO date.' }),
  /** Only count what it would undo (`{ changes }`), changing nothing: what the confirmation says. */
  dryRun: z.boolean().optional(),
});
