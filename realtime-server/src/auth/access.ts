// The one rule that decides what a document connection may do (docs/api.md §6): admission, a live access
// change (bus control message) and the periodic re-check all call `connectionRole`, so a
// connection cannot end up with a different role depending on which path reached it last.
import { type Role, roleAtLeast } from '@tandem/shared';

/**
 * A connection's role: the lower of the user's current membership and what its credential allows
 * (a token's role; 'owner' for a session cookie). No membership, no access (null): the connection
 * is refused or closed. A promotion therefore never lifts a connection past its credential — a
 * viewer token stays a viewer token — while a demotion always takes effect.
 */
export function connectionRole(membership: Role | null, credential: Role): Role | null {
  if (membership === null) return null;
  return roleAtLeast(membership, credential) ? credential : membership;
}
