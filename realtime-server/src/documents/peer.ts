// What a Room knows of a connection: an identity, a role, and a way to send bytes and to close.
// It knows nothing of WebSockets (socketPeer.ts adapts one); a test can be a peer too.
import type { PresenceUser, Role } from '@tandem/shared';

export interface Peer {
  readonly id: number;
  readonly userId: string;
  /** Who the connection authenticated as; presence states are stamped with it. */
  readonly user: PresenceUser;
  role: Role;
  /** The most this connection's credential allows (a token's role; 'owner' for a session). */
  readonly credentialRole: Role;
  /** An anonymous viewer (docs/api.md §16): no presence in either direction. */
  readonly anonymous?: boolean;
  /** Awareness client ids this connection introduced (it may only change those). */
  readonly clientIds: Set<number>;
  /** Sends one message, or several written together. */
  send(message: Uint8Array | Uint8Array[]): void;
  /**
   * Sends the answer to a sync request: now, or, while the previous answer is still queued on this
   * side (the client has not read it), once it has left, and then only for the latest request.
   * `encode` returns null when there is nothing to send (the connection was closed for it).
   */
  answer(encode: () => Uint8Array | null): void;
  close(code: number, reason: string): void;
}
