// The colour each person shows on this board. The account keeps a colour, but a board stamps
// another on a newcomer whose colour someone there shows already, and a person may pick one on
// the board (Editor.tsx, meShown). Cursors and the avatar stack take it from presence; everything
// else that marks a person (comment dots, the Share dialog's and History panel's member lists,
// mention suggestions) draws it from here, so one person has one colour on the board. People
// not on the board now keep their account's colour.
import { createContext, useCallback, useContext, useMemo, useSyncExternalStore } from 'react';
import type { Awareness } from 'y-protocols/awareness';

type Person = { id: string; color: string };

export const ShownColors = createContext<ReadonlyMap<string, string>>(new Map());

/** The others' colours by user id, the same Map while they are the same (see useShownColors). */
const cache = new WeakMap<Awareness, { signature: string; colors: ReadonlyMap<string, string> }>();

function othersColors(awareness: Awareness): ReadonlyMap<string, string> {
  const colors = new Map<string, string>();
  for (const [clientId, state] of awareness.getStates()) {
    if (clientId === awareness.clientID) continue;
    const user = (state as { user?: { id?: unknown; color?: unknown } } | null)?.user;
    if (typeof user?.id === 'string' && typeof user.color === 'string' && !colors.has(user.id))
      colors.set(user.id, user.color);
  }
  const signature = [...colors].map(([id, color]) => `${id}:${color}`).join('|');
  const cached = cache.get(awareness);
  if (cached?.signature === signature) return cached.colors;
  cache.set(awareness, { signature, colors });
  return colors;
}

/**
 * Each present person's colour by user id: this person's own (`me`), then the others' presence.
 * It changes only when someone comes, goes or changes colour, never with a cursor's move (30 a
 * second a person), so the editor that provides it does not render again for every move.
 */
export function useShownColors(awareness: Awareness, me: Person): ReadonlyMap<string, string> {
  const subscribe = useCallback(
    (changed: () => void) => {
      awareness.on('change', changed);
      return () => awareness.off('change', changed);
    },
    [awareness],
  );
  const others = useSyncExternalStore(subscribe, () => othersColors(awareness));
  return useMemo(
    () => new Map([[me.id, me.color], ...[...others].filter(([id]) => id !== me.id)]),
    [others, me.id, me.color],
  );
}

/** The colour `person` shows on the board in view (their account's when they are not on it). */
export function useColorOf(): (person: Person) => string {
  const colors = useContext(ShownColors);
  return useCallback((person: Person) => colors.get(person.id) ?? person.color, [colors]);
}
