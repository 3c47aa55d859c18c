// Who may open a board's document, and whether this instance takes one more connection.
// The first two of the gateway's three steps (authorize → admit → attach), kept apart from
// `ws` so each is tested alone: `authorize` against a real Store, `ConnectionLimits` in memory.
import {
  ANONYMOUS_VIEWER,
  CloseCode,
  closeReason,
  isBoardId,
  type PresenceUser,
  publicLinkOf,
  type Role,
} from '@tandem/shared';
import { connectionRole, membershipOf } from '../auth/access.ts';
import { readCookie, SESSION_COOKIE, type Sessions } from '../auth/sessions.ts';
import { hashSessionId, verifyAccessToken } from '../auth/tokens.ts';
import type { Store } from '../store/store.ts';

/** Why a connection is turned away: the close code and the reason sent with it. */
export interface Refusal {
  code: CloseCode;
  reason: string;
}

/** Who a connection is, and what it may do on the board. */
export interface Grant {
  user: PresenceUser;
  /** The credential's role, never more than the user's current membership. */
  role: Role;
  /** When the access token used expires (ms since the epoch), or null for a session. */
  expiresAt: number | null;
  /** The most the credential itself allows (a token's role; 'owner' for a session). */
  credentialRole: Role;
  /** The hash of the session used, or null for a token: logging out closes the connection. */
  sessionHash: string | null;
  /** The board's access version read before the membership was: a later change shows as a new version. */
  accessVersion: number;
  /**
   * An anonymous viewer through a public link (docs/api.md §16): read-only, its presence is not
   * relayed and it is sent nobody's, it shows only in the board's count of anonymous viewers.
   */
  anonymous: boolean;
}

export type Authorization = { ok: true; grant: Grant } | { ok: false; refusal: Refusal };

/** What the upgrade request carried: a session cookie header, or an access token in the query. */
export interface Credential {
  cookieHeader: string | undefined;
  token: string | null;
}

export interface AuthorizeDeps {
  secret: string;
  store: Store;
  sessions: Sessions;
}

const refuse = (code: CloseCode, reason: string): Authorization => ({ ok: false, refusal: { code, reason } });

interface Identity {
  userId: string;
  /** The most the credential allows; null for a token issued for another board. */
  role: Role | null;
  expiresAt: number | null;
  sessionHash: string | null;
}

/** Step 1: the credential, the board and the membership, from the Store as they are now. */
export async function authorize(
  deps: AuthorizeDeps,
  boardId: string,
  credential: Credential,
): Promise<Authorization> {
  if (!isBoardId(boardId)) return refuse(CloseCode.NO_SUCH_BOARD, 'no such board');
  const identity = await identify(deps, boardId, credential);
  if (!identity) return refuse(CloseCode.NOT_AUTHENTICATED, 'not authenticated');
  if (identity.role === null) return refuse(CloseCode.NO_ACCESS, 'no access');
  // The version first, then the membership: a revocation that commits in between raises the
  // version past the one recorded here, and the gateway's next check (at attach at the latest)
  // looks again.
  const accessVersion = (await deps.store.accessVersions([boardId])).get(boardId);
  if (accessVersion === undefined) return refuse(CloseCode.NO_SUCH_BOARD, 'no such board');
  // An anonymous viewer has no account row: its identity is the link (membershipOf).
  const anonymous = publicLinkOf(identity.userId) !== null;
  const [memberRole, user] = await Promise.all([
    membershipOf(deps.store, boardId, identity.userId),
    anonymous
      ? { id: identity.userId, ...ANONYMOUS_VIEWER }
      : deps.store
          .getUser(identity.userId)
          .then((row) => row && { id: row.id, name: row.name, color: row.color }),
  ]);
  const role = connectionRole(memberRole, identity.role);
  if (role === null || !user) return refuse(CloseCode.NO_ACCESS, 'no access');
  return {
    ok: true,
    grant: {
      anonymous,
      user,
      role,
      expiresAt: identity.expiresAt,
      credentialRole: identity.role,
      sessionHash: identity.sessionHash,
      accessVersion,
    },
  };
}

async function identify(
  deps: AuthorizeDeps,
  boardId: string,
  { cookieHeader, token }: Credential,
): Promise<Identity | null> {
  if (token !== null) {
    const check = verifyAccessToken(deps.secret, token);
    if (!check.ok) return null;
    const { userId, role, expiresAt } = check.claims;
    // A token for another board is a valid identity with no access to this one.
    return { userId, role: check.claims.boardId === boardId ? role : null, expiresAt, sessionHash: null };
  }
  const cookie = readCookie(cookieHeader, SESSION_COOKIE);
  const user = await deps.sessions.resolve(cookie);
  return user && cookie
    ? { userId: user.id, role: 'owner', expiresAt: null, sessionHash: hashSessionId(cookie) }
    : null;
}

/**
 * Step 2: the per-instance limits. Counts connections per board from admission on (while the
 * room may still be loading, so a crowd arriving at once is counted) and boards open per user.
 */
export class ConnectionLimits {
  private readonly byBoard = new Map<string, number>();
  private readonly boardsByUser = new Map<string, Map<string, number>>();

  constructor(private readonly max: { connectionsPerBoard: number; boardsOpenPerUser: number }) {}

  /** Null when one more connection of this user to this board fits; otherwise why not. */
  check(boardId: string, userId: string): Refusal | null {
    if ((this.byBoard.get(boardId) ?? 0) >= this.max.connectionsPerBoard) {
      return { code: CloseCode.TOO_MANY_CONNECTIONS, reason: closeReason.TOO_MANY_CONNECTIONS };
    }
    const boards = this.boardsByUser.get(userId);
    // More connections to a board the user already has open do not count against the limit.
    if (boards && !boards.has(boardId) && boards.size >= this.max.boardsOpenPerUser) {
      return { code: CloseCode.TOO_MANY_BOARDS, reason: closeReason.TOO_MANY_BOARDS };
    }
    return null;
  }

  add(boardId: string, userId: string): void {
    this.count(boardId, userId, +1);
  }

  remove(boardId: string, userId: string): void {
    this.count(boardId, userId, -1);
  }

  private count(boardId: string, userId: string, delta: 1 | -1): void {
    bump(this.byBoard, boardId, delta);
    let boards = this.boardsByUser.get(userId);
    if (!boards) {
      boards = new Map();
      this.boardsByUser.set(userId, boards);
    }
    bump(boards, boardId, delta);
    if (boards.size === 0) this.boardsByUser.delete(userId);
  }
}

/** Adds delta to a count, forgetting keys that reach zero. */
function bump(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
