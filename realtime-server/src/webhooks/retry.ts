// When a failed delivery is tried again (docs/api.md §15): after WEBHOOK_RETRY_BASE_MS, then twice
// as long each time, at most an hour apart, until 24 h after its event; then it is given up.
import { webhookLimits } from '@tandem/shared';

const MAX_DELAY_MS = 60 * 60 * 1000;

/** The time of the next attempt after `attempts` failed ones, or null when it is given up. */
export function nextAttemptAt(createdAt: Date, attempts: number, now: Date, baseMs: number): Date | null {
  const delay = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS);
  const next = now.getTime() + delay;
  if (next > createdAt.getTime() + webhookLimits.retryForMs) return null;
  return new Date(next);
}
