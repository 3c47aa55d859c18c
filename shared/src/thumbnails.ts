// Board thumbnails for the dashboard: a small picture of the board's content, rendered by a
// client that edits the board and stored with the board on the server (PUT/GET
// /api/boards/:id/thumbnail). Both sides import these so a number is written once.
import { formatBytes } from './assets.ts';
import { apiPaths } from './paths.ts';

export const thumbnailLimits = {
  /** The most a thumbnail upload may weigh. */
  maxBytes: 256 * 1024,
  /** The stored picture fits in this box (a larger upload is scaled down). */
  width: 480,
  height: 300,
  /** A client uploads at most this often while someone edits. */
  minIntervalMs: 5_000,
} as const;

/** Where a board's thumbnail is read; `at` (its thumbnailAt) makes each version its own URL. */
export const thumbnailUrl = (boardId: string, at: string): string =>
  `${apiPaths.thumbnail(boardId)}?v=${encodeURIComponent(at)}`;

export const thumbnailSentences = {
  tooLarge: `A board thumbnail is at most ${formatBytes(thumbnailLimits.maxBytes)}.`,
  unsupported: 'A board thumbnail must be a PNG or WebP image.',
} as const;
