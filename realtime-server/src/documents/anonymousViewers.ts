// A board's anonymous viewers on this instance (docs/api.md §16). Their own presence is never
// relayed and they are sent nobody's (a thousand watchers must not flood the people working, nor
// be flooded by them); what the people working see is one presence state the server owns per
// instance, carrying only the count here. It crosses to the other instances like any presence,
// and clients add the counts up (shared `anonymousViewerCount`).
import { ANONYMOUS_VIEWER, ANONYMOUS_VIEWERS_TOOL, presenceDefaults } from '@tandem/shared';
import type { PresenceOwner, RoomPresence } from './presence.ts';

export class AnonymousViewers {
  private count = 0;
  private readonly owner: PresenceOwner = {
    userId: 'anonymous-viewers',
    user: { id: 'anonymous-viewers', ...ANONYMOUS_VIEWER },
    role: 'viewer',
    clientIds: new Set(),
  };
  /** Yjs client ids are 32-bit; one random id per room, as a new tab would draw. */
  private readonly clientId = Math.floor(Math.random() * 0xffffffff);

  constructor(private readonly presence: RoomPresence) {}

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

  private show(): void {
    // Many joins in one presence tick are merged by RoomPresence into one message.
    if (this.count === 0) this.presence.removeOwner(this.owner);
    else
      this.presence.setOwned(this.owner, this.clientId, {
        ...presenceDefaults,
        selection: [],
        viewport: { ...presenceDefaults.viewport },
        tool: ANONYMOUS_VIEWERS_TOOL,
        anonymousViewers: this.count,
      });
  }
}
