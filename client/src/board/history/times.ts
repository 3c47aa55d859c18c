// Times in the History panel, all in one format: the person's locale, their time zone (issue 29:
// the list said "05:18 PM" while the server's labels said "17:17 UTC").

export const clockTime = (iso: string): string =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** The day of a time ("Nov 3"), or null when it is today. */
export const dayLabel = (iso: string): string | null => {
  const d = new Date(iso);
  return new Date().toDateString() === d.toDateString()
    ? null
    : d.toLocaleDateString([], { month: 'short', day: 'numeric' });
};

export const whenLabel = (iso: string): string => {
  const day = dayLabel(iso);
  return day ? `${day} ${clockTime(iso)}` : clockTime(iso);
};

/**
 * A version label with the server's "HH:MM UTC" times (restore and revert labels, written before
 * the person's zone is known) shown as local times: each is the latest such UTC time at or before
 * the version was made, so a time on the previous day stays on it.
 */
export function localTimesIn(label: string, createdAt: string): string {
  const made = new Date(createdAt);
  return label.replace(/\b(\d{1,2}):(\d{2}) UTC\b/g, (whole, h: string, m: string) => {
    const at = new Date(made);
    at.setUTCHours(Number(h), Number(m), 0, 0);
    if (Number.isNaN(at.getTime())) return whole;
    if (at.getTime() > made.getTime()) at.setUTCDate(at.getUTCDate() - 1);
    return clockTime(at.toISOString());
  });
}

/** When each board was opened in this tab: where "Undo … since" starts (see defaultSince). */
const opened = new Map<string, Date>();
export const markOpened = (boardId: string): void => {
  if (!opened.has(boardId)) opened.set(boardId, new Date());
};

/**
 * The time "Undo all of … since…" offers first: when this person opened the board in this tab,
 * to the minute. Undoing someone's changes is nearly always about what they did during the
 * session one is in; an hour ago (the old default) could reach into an earlier session or miss
 * the start of a long one. The field can still be set to any time.
 */
export function defaultSince(boardId: string, now = new Date()): Date {
  const at = new Date(opened.get(boardId) ?? now);
  at.setSeconds(0, 0);
  return at;
}
