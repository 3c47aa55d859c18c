// A room's presence (Yjs awareness): who owns which client id, the latest state of each, and
// which ones changed since the last tick. States are merged per tick and sent as one message,
// instead of one message per cursor move per peer.
import {
  checkPresenceInput,
  limits,
  type PresenceFields,
  type PresenceUser,
  pickPresenceColor,
  type Role,
} from '@tandem/shared';
import { type AwarenessEntry, decodeAwarenessUpdate, encodeAwarenessUpdate } from './protocol.ts';

/**
 * How often the states the server owns are sent again: a y-websocket client drops a state nobody
 * renewed for y-protocols' `outdatedTimeout` (30 s), and each browser renews its own at half that
 * (written here so the server does not load y-protocols for one number; a test compares them).
 */
export const OWNED_RENEW_MS = 15_000;

/** What presence needs to know of a connection. */
export interface PresenceOwner {
  readonly userId: string;
  readonly user: PresenceUser;
  readonly role: Role;
  readonly clientIds: Set<number>;
}

interface Entry extends AwarenessEntry {
  /** The local connection that owns this client id, or null when it lives on another instance. */
  owner: PresenceOwner | null;
  /** The instance that owns it when remote. */
  instance: string | null;
}

export interface PresenceChange {
  /** Every changed entry, for this instance's connections. */
  all: Uint8Array;
  /** Changed entries owned by local connections, for the other instances (null when none). */
  local: Uint8Array | null;
  /**
   * The one connection every changed entry belongs to, when it already holds all of it: its own
   * state comes back to it with nothing it has not seen (y-protocols ignores an echo of its own
   * clock; the only thing it reads there, its stamped colour, is unchanged), so it is not sent.
   * Null: everyone gets the message.
   */
  ownerOnly: PresenceOwner | null;
}

/** Told when a connection's state is dropped, with why; the room logs the first of each reason. */
export type PresenceDropped = (owner: PresenceOwner, reason: string) => void;

export class RoomPresence {
  private readonly entries = new Map<number, Entry>();
  private readonly dirty = new Set<number>();
  /** Drop reasons already reported per connection: a bot that keeps sending one bad field logs once. */
  private readonly reported = new WeakMap<PresenceOwner, Set<string>>();
  /** Each connection's colour here, chosen when its first state arrives (colorOf). */
  private readonly colors = new WeakMap<PresenceOwner, string>();
  /** The colour each connection was last sent its own state with (client watchOwnColor reads it). */
  private readonly colorsEchoed = new WeakMap<PresenceOwner, string>();

  /** Client ids of the states the server itself owns here (setOwned), renewed every `renewMs`. */
  private readonly serverOwned = new Set<number>();
  private renewTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly onDirty: () => void,
    private readonly onDropped: PresenceDropped = () => undefined,
    private readonly renewMs = OWNED_RENEW_MS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * Applies a connection's awareness update. States of client ids the connection does not own
   * (stock y-websocket clients echo everyone's presence back) are dropped before any JSON is
   * parsed, so the echo costs little; so are stale clocks, oversized or malformed states, and
   * client ids past the per-connection bound.
   */
  applyFromPeer(owner: PresenceOwner, update: Uint8Array): void {
    const incoming = decodeAwarenessUpdate(update);
    for (const { clientId, clock, state } of incoming) {
      const existing = this.entries.get(clientId);
      if (existing) {
        if (existing.owner !== owner) continue;
        if (clock <= existing.clock) continue;
      } else if (!owner.clientIds.has(clientId)) {
        if (owner.clientIds.size >= limits.maxClientIdsPerConnection || state === 'null') continue;
      }
      const accepted = state === 'null' ? 'null' : this.acceptState(state, owner);
      if (accepted === null) continue;
      owner.clientIds.add(clientId);
      this.entries.set(clientId, { clientId, clock, state: accepted, owner, instance: null });
      this.markDirty(clientId);
    }
  }

  /**
   * Checks a state against the presence schema, completes a partial one with defaults (a bot
   * may set only `cursor`, docs/api.md §3) and stamps the connection's user and role on it: a client
   * must not show its cursor under another person's name. Only an oversized or malformed state
   * is dropped, and the first drop of each reason per connection is reported.
   */
  private acceptState(state: string, owner: PresenceOwner): string | null {
    if (state.length > limits.maxAwarenessStateBytes) return this.drop(owner, 'oversized');
    let parsed: unknown;
    try {
      parsed = JSON.parse(state);
    } catch {
      return this.drop(owner, 'not JSON');
    }
    const checked = checkPresenceInput(parsed);
    if (!checked.ok) return this.drop(owner, `malformed: ${checked.reason}`);
    const { color, ...fields } = checked.state;
    // A colour the person picked (a palette colour, checked above) is theirs from now on here.
    if (color) this.colors.set(owner, color);
    const user = { ...owner.user, color: this.colorOf(owner) };
    return JSON.stringify({ user, ...fields, role: owner.role });
  }

  /**
   * A connection's colour on this board, fixed when it first shows up: the colour its person
   * already has here (another tab), else its own unless someone present shows it, else the
   * least-used palette colour (shared pickPresenceColor).
   */
  private colorOf(owner: PresenceOwner): string {
    const known = this.colors.get(owner);
    if (known) return known;
    const others = this.users();
    const same = others.find((u) => u.id === owner.user.id);
    const color = same
      ? same.color
      : pickPresenceColor(
          owner.user.color,
          others.map((u) => u.color),
        );
    this.colors.set(owner, color);
    return color;
  }

  private drop(owner: PresenceOwner, reason: string): null {
    let reasons = this.reported.get(owner);
    if (!reasons) {
      reasons = new Set();
      this.reported.set(owner, reasons);
    }
    if (!reasons.has(reason)) {
      reasons.add(reason);
      this.onDropped(owner, reason);
    }
    return null;
  }

  /**
   * Sets a presence the server itself owns (a bot's cursor where it last wrote, docs/api.md §15):
   * already complete, never checked, stamped like a connection's. No connection can overwrite
   * it, since the owner is no connection; it reaches the other instances like a local one.
   */
  setOwned(owner: PresenceOwner, clientId: number, fields: PresenceFields): void {
    const existing = this.entries.get(clientId);
    if (existing && existing.owner !== owner) return;
    owner.clientIds.add(clientId);
    const state = JSON.stringify({ user: owner.user, ...fields, role: owner.role });
    this.entries.set(clientId, { clientId, clock: (existing?.clock ?? 0) + 1, state, owner, instance: null });
    this.markDirty(clientId);
    // Nobody else renews it: without this, the anonymous-viewer count and a bot's cursor vanished
    // from everyone's screen 30 s after they last changed.
    this.serverOwned.add(clientId);
    if (!this.renewTimer) {
      this.renewTimer = setInterval(() => this.renewOwned(), this.renewMs);
      this.renewTimer.unref();
    }
  }

  /** Sends the server's own states again with a newer clock; stops once there is none. */
  private renewOwned(): void {
    for (const clientId of this.serverOwned) {
      const entry = this.entries.get(clientId);
      if (!entry || entry.state === 'null' || entry.instance !== null) {
        this.serverOwned.delete(clientId);
        continue;
      }
      entry.clock += 1;
      this.markDirty(clientId);
    }
    if (this.serverOwned.size === 0) this.close();
  }

  /** Stops renewing (the room closed). */
  close(): void {
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = null;
  }

  /** Everyone with a live presence here (from any instance), once each, bots included. */
  users(): PresenceUser[] {
    const seen = new Map<string, PresenceUser>();
    for (const entry of this.entries.values()) {
      if (entry.state === 'null') continue;
      try {
        const user = (JSON.parse(entry.state) as { user?: PresenceUser }).user;
        if (user?.id && !seen.has(user.id)) seen.set(user.id, user);
      } catch {
        // A state is JSON when it is stored (checked here or on its instance); nothing to show otherwise.
      }
    }
    return [...seen.values()];
  }

  /** Removes every state a closing connection owned. */
  removeOwner(owner: PresenceOwner): void {
    for (const clientId of owner.clientIds) this.remove(clientId);
    owner.clientIds.clear();
  }

  /** Applies states published by another instance (already validated there). */
  applyRemote(instance: string, update: Uint8Array): void {
    for (const { clientId, clock, state } of decodeAwarenessUpdate(update)) {
      const existing = this.entries.get(clientId);
      if (existing?.owner) continue;
      if (existing && clock < existing.clock) continue;
      this.entries.set(clientId, { clientId, clock, state, owner: null, instance });
      this.markDirty(clientId);
    }
  }

  /** Removes the states of an instance that stopped publishing its heartbeat. */
  removeInstance(instance: string): void {
    for (const entry of this.entries.values()) if (entry.instance === instance) this.remove(entry.clientId);
  }

  private remove(clientId: number): void {
    const entry = this.entries.get(clientId);
    if (!entry || entry.state === 'null') return;
    entry.clock += 1;
    entry.state = 'null';
    this.markDirty(clientId);
  }

  private markDirty(clientId: number): void {
    const wasEmpty = this.dirty.size === 0;
    this.dirty.add(clientId);
    if (wasEmpty) this.onDirty();
  }

  /** Encodes what changed since the last call, and forgets removed states once announced. */
  takeChanges(): PresenceChange | null {
    if (this.dirty.size === 0) return null;
    const changed: Entry[] = [];
    const local: Entry[] = [];
    for (const clientId of this.dirty) {
      const entry = this.entries.get(clientId);
      if (!entry) continue;
      changed.push(entry);
      if (entry.instance === null) local.push(entry);
      if (entry.state === 'null') this.entries.delete(clientId);
    }
    this.dirty.clear();
    if (changed.length === 0) return null;
    return {
      all: encodeAwarenessUpdate(changed, changed.length),
      local: local.length > 0 ? encodeAwarenessUpdate(local, local.length) : null,
      ownerOnly: this.echoNeedless(changed),
    };
  }

  /**
   * A cursor moving on a quiet board is a message per move with that one state in it; sending it
   * back to its mover was one socket write in ten on a board of ten, for nothing. The first state
   * of a connection, and any after its colour changed, still go back to it.
   */
  private echoNeedless(changed: readonly Entry[]): PresenceOwner | null {
    const owner = changed[0]?.owner ?? null;
    let needless = owner !== null;
    for (const entry of changed) if (entry.owner !== owner || entry.state === 'null') needless = false;
    if (owner && needless && this.colorsEchoed.get(owner) === this.colors.get(owner)) return owner;
    for (const entry of changed) {
      const color = entry.owner ? this.colors.get(entry.owner) : undefined;
      if (entry.owner && color) this.colorsEchoed.set(entry.owner, color);
    }
    return null;
  }

  /** Every live state, for a connection that just joined; null when there is none. */
  encodeAll(onlyLocal = false): Uint8Array | null {
    const live: Entry[] = [];
    for (const entry of this.entries.values()) {
      if (entry.state !== 'null' && (!onlyLocal || entry.instance === null)) live.push(entry);
    }
    return live.length > 0 ? encodeAwarenessUpdate(live, live.length) : null;
  }
}
