// The colour each person shows on this board. The account keeps a colour, but a board stamps
// another on a newcomer whose colour someone there shows already, and a person may pick one on
// the board (Editor.tsx, meShown). Cursors and the avatar stack take it from presence; everything
// else that marks a person (comment dots, the Share dialog's and History panel's member lists,
// mention suggestions) draws it from here, so one person has one colour on the board. People
// not on the board now keep their account's colour.
import { createContext, useCallback, useContext } from 'react';
import type { Remote } from './remote.ts';

type Person = { id: string; color: string };

export const ShownColors = createContext<ReadonlyMap<string, string>>(new Map());

/** Each present person's colour by user id: this person's own (`me`), then the others' presence. */
export function shownColorsOf(remotes: readonly Remote[], me: Person): Map<string, string> {
  const colors = new Map<string, string>([[me.id, me.color]]);
  for (const { state } of remotes)
    if (!colors.has(state.user.id)) colors.set(state.user.id, state.user.color);
  return colors;
}

/** The colour `person` shows on the board in view (their account's when they are not on it). */
export function useColorOf(): (person: Person) => string {
  const colors = useContext(ShownColors);
  return useCallback((person: Person) => colors.get(person.id) ?? person.color, [colors]);
}
