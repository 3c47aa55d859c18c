// The one rule that decides what a document connection may do (docs/api.md §6): admission, a live access
// change (bus control message) and the periodic re-check all call `connectionRole`, so a
// connection cannot end up with a different role depending on which path reached it last.
import { publicLinkOf, type Role, roleAtLeast } from '@tandem/shared';

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

/** What `membershipOf` reads: a person's membership, or a public link. */
export interface MembershipSource {
  getRole(boardId: string, userId: string): Promise<Role | null>;
  getLink(token: string): Promise<{ boardId: string; role: string; revokedAt: Date | null } | null>;
}

/**
 * A user's membership of a board as it is now. An anonymous viewer (docs/api.md §16) is "a member"
 * with role viewer exactly while its public link is active, so admission, the bus's control
 * message and the periodic re-check cut it off by the same rule as a removed member.
 */
export async function membershipOf(
  store: MembershipSource,
  boardId: string,
  userId: string,
): Promise<Role | null> {
  const linkToken = publicLinkOf(userId);
  if (linkToken === null) return store.getRole(boardId, userId);
  const link = await store.getLink(linkToken);
  return link && link.boardId === boardId && link.role === 'public-viewer' && !link.revokedAt
    ? 'viewer'
    : null;
}
