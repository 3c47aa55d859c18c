// The shared timer (docs/api.md §10, §14): `meta.timer` holds when it ends on the server's clock, so
// every client shows the same remaining time once it corrects for its own clock's offset.
// Pure functions; the caller passes the server's "now" (Date.now() + offset).
import { TIMER_KEY, TimerState as TimerSchema, type TimerState } from '@tandem/shared';
import type * as Y from 'yjs';
import { edit, metaOf } from '../model/doc.ts';

export const MINUTE = 60_000;

export function readTimer(doc: Y.Doc): TimerState | null {
  const parsed = TimerSchema.safeParse(metaOf(doc).get(TIMER_KEY));
  return parsed.success ? parsed.data : null;
}

/** Milliseconds left at server time `serverNow` (never below zero). */
export function remainingMs(timer: TimerState, serverNow: number): number {
  if (timer.pausedRemainingMs !== undefined) return timer.pausedRemainingMs;
  return Math.max(0, timer.endsAt - serverNow);
}

export const isPaused = (timer: TimerState): boolean => timer.pausedRemainingMs !== undefined;

export function startTimer(durationMs: number, serverNow: number, startedBy: string): TimerState {
  return { endsAt: serverNow + durationMs, durationMs, startedBy };
}

export function pauseTimer(timer: TimerState, serverNow: number): TimerState {
  if (isPaused(timer)) return timer;
  return { ...timer, pausedRemainingMs: remainingMs(timer, serverNow) };
}

export function resumeTimer(timer: TimerState, serverNow: number): TimerState {
  if (!isPaused(timer)) return timer;
  const { pausedRemainingMs = 0, ...rest } = timer;
  return { ...rest, endsAt: serverNow + pausedRemainingMs };
}

/** One more minute, running or paused; a timer that already ran out restarts with one minute. */
export function addMinute(timer: TimerState, serverNow: number): TimerState {
  if (isPaused(timer)) {
    return {
      ...timer,
      durationMs: timer.durationMs + MINUTE,
      pausedRemainingMs: (timer.pausedRemainingMs ?? 0) + MINUTE,
    };
  }
  return {
    ...timer,
    durationMs: timer.durationMs + MINUTE,
    endsAt: Math.max(timer.endsAt, serverNow) + MINUTE,
  };
}

/** Writes the timer (null stops it) as this user's edit. */
export function writeTimer(doc: Y.Doc, timer: TimerState | null): void {
  edit(doc, () => {
    if (timer === null) metaOf(doc).delete(TIMER_KEY);
    else metaOf(doc).set(TIMER_KEY, timer);
  });
}

/** "2:05", "0:09"; rounds up so the display reaches 0:00 exactly when the time is up. */
export function formatRemaining(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}
