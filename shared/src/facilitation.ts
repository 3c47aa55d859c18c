// Facilitation state kept in the board document's `meta` map (docs/api.md §10, §14): the shared timer
// and the presentation. Both are checked with these schemas wherever they are read, so a
// malformed value from a buggy client is ignored, never a crash.
import { z } from 'zod';

export const TIMER_KEY = 'timer';
export const PRESENTATION_KEY = 'presentation';

const epoch = z.number().finite().min(0);

export const TimerState = z.object({
  /** When it reaches zero, on the server's clock (epoch ms). */
  endsAt: epoch,
  durationMs: z.number().finite().min(0),
  startedBy: z.string().max(64),
  /** Present while paused: the time that was left when it was paused. */
  pausedRemainingMs: z.number().finite().min(0).optional(),
});
export type TimerState = z.infer<typeof TimerState>;

export const PresentationState = z.object({
  presenterId: z.string().max(64),
  frameId: z.string().max(64).nullable(),
  /**
   * The page shown (docs/api.md §17; absent: the first page): presenting steps through the frames
   * of every page in page order, and a page without frames is shown whole, as one step.
   */
  pageId: z.string().max(64).optional(),
  /** Bumped by "Bring everyone here": everyone follows the presenter again, even those who moved away. */
  summon: z.number().int().min(0).optional(),
});
export type PresentationState = z.infer<typeof PresentationState>;

/** Durations offered by the timer (ms). */
export const timerPresetsMs = [60_000, 2 * 60_000, 3 * 60_000, 5 * 60_000, 10 * 60_000] as const;
