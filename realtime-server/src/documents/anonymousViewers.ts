// A board's anonymous viewers on this instance (docs/api.md §16). Their own presence is never
// relayed and they are sent nobody's (a thousand watchers must not flood the people working, nor
// be flooded by them); what the people working see is one presence state the server owns per
// instance, carrying only the count here. It crosses to the other instances like any presence,
// and clients add the counts up (shared `anonymousViewerCount`).
import { ANONYMOUS_VIEWER, ANONYMOUS_VIEWERS_TOOL, presenceDefaults } from '@tandem/shared';
import type { Peer } from './peer.ts';
import { OWNED_RENEW_MS, type PresenceOwner, type RoomPresence } from './presence.ts';
import { encodeAwarenessMessage, encodeAwarenessUpdate } from './protocol.ts';

/**
 * What keeps a viewer's connection open on a quiet board: a y-websocket client closes and opens
 * its connection again after 30 s without a message (its `messageReconnectTimeout`; the same 30 s
 * as its presence timeout, so the same half of it), and a viewer is sent no presence, which is
 * what keeps a person's connection busy. An awareness message with no state in it changes nothing.
 */
const KEEP_ALIVE = encodeAwarenessMessage(encodeAwarenessUpdate([], 0));

/** Yjs client ids are 32-bit; a random one, as a new tab would draw. */
const newClientId = () => Math.floor(Math.random() * 0xffffffff);

export class AnonymousViewers {
  private count = 0;
  private readonly owner: PresenceOwner = {
    userId: 'anonymous-viewers',
    user: { id: 'anonymous-viewers', ...ANONYMOUS_VIEWER },
    role: 'viewer',
    clientIds: new Set(),
  };
  /**
   * The count's client id: a new one each time the count comes back from zero, since clients keep
   * the clock of the removed state and would ignore the same id starting again at 1.
   */
  private clientId = newClientId();
  private keepAliveTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly presence: RoomPresence,
    private readonly peers: () => Iterable<Peer>,
  ) {}

  get size(): number {
    return this.count;
  }

  joined(): void {
    this.count += 1;
    this.show();
  }

  left(): void {
    this.count = Math.max(0, this.count - 1);
    this.show();
  }

  /** Stops sending the viewers anything (the room closed). */
  close(): void {
    if (this.keepAliveTimer) clearInterval(this.keepAliveTimer);
    this.keepAliveTimer = null;
  }

  private keepAlive(): void {
    for (const peer of this.peers()) if (peer.anonymous) peer.send(KEEP_ALIVE);
  }

  private show(): void {
    if (this.count === 0) {
      this.close();
      this.presence.removeOwner(this.owner);
      this.clientId = newClientId();
      return;
    }
    if (!this.keepAliveTimer) {
      this.keepAliveTimer = setInterval(() => this.keepAlive(), OWNED_RENEW_MS);
      this.keepAliveTimer.unref();
    }
    // Many joins in one presence tick are merged by RoomPresence into one message.
    this.presence.setOwned(this.owner, this.clientId, {
      ...presenceDefaults,
      selection: [],
      viewport: { ...presenceDefaults.viewport },
      tool: ANONYMOUS_VIEWERS_TOOL,
      anonymousViewers: this.count,
    });
  }
}
