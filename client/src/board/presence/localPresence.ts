// This user's awareness state (docs/api.md §3 Presence). Everything goes out through one flush limited
// to 30 a second (docs/api.md §9), and the cursor is only sent while someone else is on the board, since
// nobody would see it otherwise.
import { limits, type PresenceFields, type PresenceState, type PresenceUser } from '@tandem/shared';
import type { Awareness } from 'y-protocols/awareness';
import { useEditor } from '../store.ts';

/** The ephemeral fields of docs/api.md §14 (laser, chat, reaction); `null` clears one for everyone. */
export type EphemeralFields = Partial<Pick<PresenceFields, 'laser' | 'chat' | 'reaction'>>;

type Point = { x: number; y: number };

export interface LocalPresence {
  pointer(p: Point | null): void;
  /** Sets some ephemeral fields; they go out with the next flush, within the same rate. */
  setEphemeral(patch: EphemeralFields): void;
  /** Calls `fn` with every pointer position in board units (null when it leaves the canvas). */
  watchPointer(fn: (p: Point | null) => void): () => void;
  /** A colour this person picked (a palette colour): everyone sees it from the next flush. */
  setColor(color: string): void;
  /** Any input (keys, clicks): resets the idle clock. */
  activity(): void;
  /** Marks the user idle once `idleAfterMs` passed without input; runs every few seconds. */
  checkIdle(): void;
  stop(): void;
}

export function startLocalPresence(
  awareness: Awareness,
  user: PresenceUser,
  role: PresenceState['role'],
  /** `now` is injectable so tests can move the idle clock without waiting a minute. */
  { now = Date.now }: { now?: () => number } = {},
): LocalPresence {
  const interval = 1000 / limits.cursorPerSecond;
  let cursor: Point | null = null;
  let ephemeral: EphemeralFields = {};
  let color: string | undefined;
  const pointerWatchers = new Set<(p: Point | null) => void>();
  let idle = false;
  let lastInput = now();
  let lastFlush = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const othersHere = () => awareness.getStates().size > 1;

  // The ids sent for the current selection, worked out once per selection, not on every flush.
  let sentFor: readonly string[] | null = null;
  let sentIds: string[] = [];
  const selectionSent = (selection: readonly string[]): string[] => {
    if (selection !== sentFor) {
      sentFor = selection;
      sentIds = fittingIds(selection, limits.maxPresenceSelectionChars);
    }
    return sentIds;
  };

  const state = (): PresenceState => {
    const { viewport, selection, tool } = useEditor.getState();
    return {
      user,
      cursor: othersHere() ? cursor : null,
      selection: selectionSent(selection),
      viewport: { x: viewport.x, y: viewport.y, zoom: viewport.zoom },
      tool,
      idle,
      ...ephemeral,
      ...(color ? { color } : {}),
      // The server sets the authoritative role; ours only helps stock servers show viewers.
      ...(role ? { role } : {}),
    };
  };

  const flush = () => {
    timer = null;
    lastFlush = now();
    awareness.setLocalState(state());
  };
  const schedule = () => {
    if (timer) return;
    const wait = Math.max(0, lastFlush + interval - now());
    timer = setTimeout(flush, wait);
  };

  const activity = () => {
    lastInput = now();
    if (idle) {
      idle = false;
      schedule();
    }
  };
  const checkIdle = () => {
    if (!idle && now() - lastInput >= limits.idleAfterMs) {
      idle = true;
      schedule();
    }
  };
  const idleCheck = setInterval(checkIdle, 5000);

  flush();
  const unsub = useEditor.subscribe((s, prev) => {
    if (s.viewport !== prev.viewport || s.selection !== prev.selection || s.tool !== prev.tool) schedule();
  });
  // When someone arrives, send our cursor again (it was held back while we were alone).
  const onChange = ({ added }: { added: number[] }) => {
    if (added.length > 0 && cursor) schedule();
  };
  awareness.on('change', onChange);

  return {
    pointer(p) {
      cursor = p;
      activity();
      if (othersHere()) schedule();
      for (const fn of pointerWatchers) fn(p);
    },
    setEphemeral(patch) {
      ephemeral = { ...ephemeral, ...patch };
      schedule();
    },
    setColor(c) {
      color = c;
      schedule();
    },
    watchPointer(fn) {
      pointerWatchers.add(fn);
      return () => pointerWatchers.delete(fn);
    },
    activity,
    checkIdle,
    stop() {
      clearInterval(idleCheck);
      if (timer) clearTimeout(timer);
      unsub();
      pointerWatchers.clear();
      awareness.off('change', onChange);
    },
  };
}

/**
 * The first ids of `selection` whose JSON array takes at most `chars` characters: what a large
 * selection sends (limits.maxPresenceSelectionChars), so the state stays one the server accepts.
 */
export function fittingIds(selection: readonly string[], chars: number): string[] {
  let used = 2; // []
  let n = 0;
  for (const id of selection) {
    // The id as JSON, and a comma.
    used += JSON.stringify(id).length + 1;
    if (used > chars) break;
    n++;
  }
  return n === selection.length ? [...selection] : selection.slice(0, n);
}
