// Which closed votes' results a person has put away ("Hide results" in the Vote menu), kept in
// this browser so a reload does not bring the badges back. The results stay on the server and in
// the menu; only the totals painted on the stickies go.
import { useSyncExternalStore } from 'react';

const key = (sessionId: string) => `tandem:vote-results-hidden:${sessionId}`;
const listeners = new Set<() => void>();

export function setResultsHidden(sessionId: string, hidden: boolean): void {
  try {
    if (hidden) localStorage.setItem(key(sessionId), '1');
    else localStorage.removeItem(key(sessionId));
  } catch {
    // Storage refused (private mode): the choice lasts until the page is left.
  }
  memory.set(sessionId, hidden);
  for (const fn of listeners) fn();
}

const memory = new Map<string, boolean>();
function isHidden(sessionId: string): boolean {
  const known = memory.get(sessionId);
  if (known !== undefined) return known;
  try {
    return localStorage.getItem(key(sessionId)) === '1';
  } catch {
    return false;
  }
}

export function useResultsHidden(sessionId: string | undefined): boolean {
  return useSyncExternalStore(
    (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    () => (sessionId ? isHidden(sessionId) : false),
  );
}
