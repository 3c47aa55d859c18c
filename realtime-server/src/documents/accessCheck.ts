// The periodic access re-check of open document connections against the Store. A change's bus
// message (control.ts) is the fast path; this is the one that cannot be lost: every
// ACCESS_CHECK_MS it compares each connection's board access version with the Store's, and a
// connection whose board moved has its membership read again and its role set by the one access
// rule (auth/access.ts). A deleted board closes its connections (4404), an ended session its own
// (4401), a removed membership its user's (4403).
import { CloseCode, type Role } from '@tandem/shared';
import type { Logger } from 'pino';
import { connectionRole, membershipOf } from '../auth/access.ts';
import type { Store } from '../store/store.ts';

/** What the re-check reads and sets on a connection. */
export interface CheckedConnection {
  readonly boardId: string;
  readonly userId: string;
  /** The most the credential allows (a token's role; 'owner' for a session). */
  readonly credentialRole: Role;
  /** The session the connection was opened with, or null for an access token. */
  readonly sessionHash: string | null;
  role: Role;
  /** The board's access version this connection's role was last checked under. */
  accessVersion: number;
  close(code: number, reason: string): void;
}

export class AccessCheck {
  private readonly timer: NodeJS.Timeout;
  private checking = false;
  private checkAgain: 'yes' | 'force' | null = null;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    /** The connections to check: the ones in a room and not closed. */
    private readonly connections: () => CheckedConnection[],
    intervalMs: number,
  ) {
    this.timer = setInterval(() => void this.run(), intervalMs);
    this.timer.unref();
  }

  /**
   * Checks every connection now; `force` reads every membership again, whatever the versions
   * (after a bus outage). A check asked for while one runs follows it.
   */
  async run(force = false): Promise<void> {
    if (this.checking) {
      this.checkAgain ||= force ? 'force' : 'yes';
      return;
    }
    this.checking = true;
    try {
      const connections = this.connections();
      if (connections.length > 0) await this.check(connections, force);
    } catch (error) {
      this.log.warn({ err: error }, 'checking document access failed; retrying shortly');
    } finally {
      this.checking = false;
      const again = this.checkAgain;
      this.checkAgain = null;
      if (again) void this.run(again === 'force');
    }
  }

  /** Checks these connections' board, membership and session against the Store now. */
  async check(connections: CheckedConnection[], force = false): Promise<void> {
    const boardIds = [...new Set(connections.map((c) => c.boardId))];
    const sessionHashes = [...new Set(connections.map((c) => c.sessionHash).filter((hash) => hash !== null))];
    const [versions, liveSessions] = await Promise.all([
      this.store.accessVersions(boardIds),
      sessionHashes.length > 0 ? this.store.liveSessions(sessionHashes) : new Set<string>(),
    ]);
    const stale: CheckedConnection[] = [];
    for (const connection of connections) {
      const version = versions.get(connection.boardId);
      if (version === undefined) connection.close(CloseCode.NO_SUCH_BOARD, 'board deleted');
      else if (connection.sessionHash !== null && !liveSessions.has(connection.sessionHash))
        connection.close(CloseCode.NOT_AUTHENTICATED, 'signed out');
      else if (force || version !== connection.accessVersion) stale.push(connection);
    }
    // One membership read per user and board, whatever the number of their connections.
    const roles = new Map<string, Promise<Role | null>>();
    await Promise.all(
      stale.map(async (connection) => {
        const key = `${connection.boardId} ${connection.userId}`;
        let membership = roles.get(key);
        if (!membership) {
          membership = membershipOf(this.store, connection.boardId, connection.userId);
          roles.set(key, membership);
        }
        const role = connectionRole(await membership, connection.credentialRole);
        if (role === null) {
          connection.close(CloseCode.NO_ACCESS, 'access removed');
          return;
        }
        connection.role = role;
        // The version read before this membership read: a change since shows up next time.
        connection.accessVersion = versions.get(connection.boardId)!;
      }),
    );
  }

  close(): void {
    clearInterval(this.timer);
  }
}
