// This user's awareness state (SPEC §3 Presence). Everything goes out through one flush limited
// to 30 a second (SPEC §9), and the cursor is only sent while someone else is on the board, since
// nobody would see it otherwise.
import { limits, type PresenceState, type PresenceUser } from '@tandem/shared';
import type { Awareness } from 'y-protocols/awareness';
import { useEditor } from '../store.ts';

export function startLocalPresence(
  awareness: Awareness,
  user: PresenceUser,
  role: PresenceState['role'],
): { pointer(p: { x: number; y: number } | null): void; activity(): void; stop(): void } {
  const interval = 1000 / limits.cursorPerSecond;
  let cursor: { x: number; y: number } | null = null;
  let idle = false;
  let lastInput = Date.now();
  let lastFlush = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const othersHere = () => awareness.getStates().size > 1;

  const state = (): PresenceState => {
    const { viewport, selection, tool } = useEditor.getState();
    return {
      user,
      cursor: othersHere() ? cursor : null,
      selection: selection.slice(0, 5000),
      viewport: { x: viewport.x, y: viewport.y, zoom: viewport.zoom },
      tool,
      idle,
      // The server sets the authoritative role; ours only helps stock servers show viewers.
      ...(role ? { role } : {}),
    };
  };

  const flush = () => {
    timer = null;
    lastFlush = Date.now();
    awareness.setLocalState(state());
  };
  const schedule = () => {
    if (timer) return;
    const wait = Math.max(0, lastFlush + interval - Date.now());
    timer = setTimeout(flush, wait);
  };

  const activity = () => {
    lastInput = Date.now();
    if (idle) {
      idle = false;
      schedule();
    }
  };
  const idleCheck = setInterval(() => {
    if (!idle && Date.now() - lastInput >= limits.idleAfterMs) {
      idle = true;
      schedule();
    }
  }, 5000);

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
    },
    activity,
    stop() {
      clearInterval(idleCheck);
      if (timer) clearTimeout(timer);
      unsub();
      awareness.off('change', onChange);
    },
  };
}
