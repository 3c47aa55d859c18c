// The long-poll of a board's changes (docs/api.md §15, `GET /api/v1/boards/:id/events?since=`), for
// scripts that poll rather than hold a WebsocketProvider open.
//
// A change is a stored log entry (doc_updates, or doc_history once compacted): its position is
// the cursor, its author and receipt time say who and when. Appends to one board take turns
// (a lock on its row), so positions follow commit order and nothing appears later below a cursor
// already answered; and the log is the Store's, so a cursor from one instance means the same on
// every other. The wait is the board's Room on the polling instance (opened if needed, held
// while the poll waits): every change made anywhere reaches it (its own clients, the other
// instances over the bus, restores, catch-ups), and once it is stored (Room.whenStored: this
// room's queue, and what others relayed and have confirmed) the Store is read again. Which shapes
// an entry touched is read off the live doc: each of its structs and deletions is looked up
// there and walked up to its key in the shapes map.
import { type BoardEvent, type BoardEventsAnswer, integrationLimits, SHAPES_KEY } from '@tandem/shared';
import * as Y from 'yjs';
import { clockOf, itemOf, structsIn } from '../documents/internals.ts';
import type { Room } from '../documents/room.ts';
import type { Rooms } from '../documents/rooms.ts';
import type { LogEntry, Store } from '../store/store.ts';
import { recordsOf } from './content.ts';

/** What one log entry did to the board's shapes; `known` is false when the doc lacks some of it. */
export interface EntryChanges {
  changed: string[];
  removed: string[];
  known: boolean;
}

/** The shape a struct of `doc` belongs to, and whether it is the shape's own entry in the map. */
function shapeOf(
  shapes: Y.Map<unknown>,
  struct: Y.Item | Y.GC | Y.Skip,
): { id: string; top: boolean } | null {
  let item: Y.Item | null = struct instanceof Y.Item ? struct : null;
  let top = true;
  while (item) {
    const parent = item.parent;
    if (parent === shapes) return typeof item.parentSub === 'string' ? { id: item.parentSub, top } : null;
    if (!(parent instanceof Y.AbstractType)) return null;
    item = itemOf(parent);
    top = false;
  }
  return null;
}

/**
 * Which shapes a stored update touched, read off `doc` (which holds it): a shape is removed when
 * its entry in the shapes map was deleted and the key has no value now, changed otherwise. A
 * deletion the doc has collected away (inside a shape removed since) names nothing; the removal
 * of its shape does.
 */
export function changesIn(doc: Y.Doc, update: Uint8Array): EntryChanges {
  const shapes = doc.getMap<unknown>(SHAPES_KEY);
  const changed = new Set<string>();
  const removed = new Set<string>();
  const { structs, ds } = Y.decodeUpdate(update);
  let known = true;
  for (const struct of structs) {
    if (!(struct instanceof Y.Item)) continue;
    const { client, clock } = struct.id;
    if (clockOf(doc, client) < clock + struct.length) known = false;
    for (const live of structsIn(doc, client, clock, 1)) {
      const shape = shapeOf(shapes, live);
      if (shape) changed.add(shape.id);
    }
  }
  for (const [client, deletions] of ds.clients) {
    for (const { clock, len } of deletions) {
      for (const live of structsIn(doc, client, clock, len)) {
        const shape = shapeOf(shapes, live);
        if (!shape) continue;
        if (shape.top && !shapes.has(shape.id)) removed.add(shape.id);
        else changed.add(shape.id);
      }
    }
  }
  for (const id of removed) changed.delete(id);
  return { changed: [...changed], removed: [...removed], known };
}

export const encodeCursor = (seq: number): string => String(seq);

/** Clock ranges per client, for telling a copy of an entry from a change (Ranges.covers). */
class Ranges {
  private readonly byClient = new Map<number, [number, number][]>();

  add(client: number, clock: number, len: number): void {
    const list = this.byClient.get(client) ?? [];
    list.push([clock, clock + len]);
    this.byClient.set(client, list);
  }

  /** Every clock of [clock, clock + len) lies in ranges added before. */
  covers(client: number, clock: number, len: number): boolean {
    const list = this.byClient.get(client);
    if (!list) return len === 0;
    let from = clock;
    const end = clock + len;
    // Few ranges per answer: sorted on demand, merged while walking.
    for (const [start, stop] of [...list].sort((x, y) => x[0] - y[0])) {
      if (start > from) break;
      if (stop > from) from = stop;
      if (from >= end) return true;
    }
    return from >= end;
  }
}

/**
 * The struct and deletion ranges of an update; `copy` when an unattributed entry only repeats
 * what entries before it in `seen` hold: what a sync reply brought an instance is stored by it
 * again, unattributed (docs/architecture.md, "Several instances").
 */
function isCopy(update: Uint8Array, userId: string | null, seen: Ranges, deleted: Ranges): boolean {
  const { structs, ds } = Y.decodeUpdate(update);
  let copy = userId === null;
  for (const struct of structs) {
    if (copy && !seen.covers(struct.id.client, struct.id.clock, struct.length)) copy = false;
    seen.add(struct.id.client, struct.id.clock, struct.length);
  }
  for (const [client, deletions] of ds.clients) {
    for (const { clock, len } of deletions) {
      if (copy && !deleted.covers(client, clock, len)) copy = false;
      deleted.add(client, clock, len);
    }
  }
  return copy;
}

interface Collected {
  events: (Omit<BoardEvent, 'by'> & { userId: string | null })[];
  /** The position read up to. */
  last: number;
  /** An entry the room does not hold yet stopped the reading there. */
  blocked: boolean;
}

/**
 * The events of `entries` up to the first the doc does not hold yet; entries that touched no shape
 * give none, and nor does an unattributed copy of entries before it in the same answer (a copy
 * stored after an earlier answer is answered again: at least once).
 */
function collect(doc: Y.Doc, entries: LogEntry[], since: number): Collected {
  const out: Collected = { events: [], last: since, blocked: false };
  const seen = new Ranges();
  const deleted = new Ranges();
  for (const entry of entries) {
    const changes = changesIn(doc, entry.update);
    if (!changes.known) {
      out.blocked = true;
      break;
    }
    out.last = entry.seq;
    if (isCopy(entry.update, entry.userId, seen, deleted)) continue;
    if (changes.changed.length === 0 && changes.removed.length === 0) continue;
    out.events.push({
      cursor: encodeCursor(entry.seq),
      at: entry.at.toISOString(),
      userId: entry.userId,
      changed: changes.changed,
      removed: changes.removed,
    });
  }
  return out;
}

export interface PollOptions {
  /** How long to wait for a change when there is none yet (at most eventsWaitMs). */
  waitMs: number;
  /** The caller went away: answer (nobody reads it) and let the room go. */
  signal: AbortSignal;
}

export class BoardEvents {
  /** Wakes every waiting poll: the instance is stopping. */
  private readonly stops = new Set<() => void>();
  private stopped = false;

  constructor(private readonly deps: { store: Store; rooms: Rooms }) {}

  /** The cursor of the board now: a poll from it answers only what changes after this call. */
  async head(boardId: string): Promise<string> {
    return encodeCursor(await this.deps.store.lastSeq(boardId));
  }

  /** The changes after `since`, waiting up to `waitMs` for one when there are none yet. */
  async poll(boardId: string, since: number, { waitMs, signal }: PollOptions): Promise<BoardEventsAnswer> {
    const { store, rooms } = this.deps;
    const deadline = Date.now() + Math.min(waitMs, integrationLimits.eventsWaitMs);
    const { room, release } = await rooms.acquire(boardId);
    // Set by every change to the board, whichever instance made it: it may not be stored yet.
    let unsettled = true;
    let onChange: (() => void) | null = null;
    const unwatch = room.watch(() => {
      unsettled = true;
      onChange?.();
    });
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const timer = setTimeout(stop, Math.max(0, deadline - Date.now()));
    signal.addEventListener('abort', stop);
    this.stops.add(stop);
    let over = false;
    void stopped.then(() => {
      over = true;
    });
    try {
      let cursor = since;
      for (;;) {
        if (over || this.stopped || signal.aborted) return this.answer(room, [], cursor, false);
        const entries = await store.logSince(boardId, cursor, integrationLimits.eventsPerAnswer);
        const found = collect(room.doc, entries, cursor);
        cursor = found.last;
        const more = !found.blocked && entries.length >= integrationLimits.eventsPerAnswer;
        if (found.events.length > 0) return this.answer(room, found.events, cursor, more || found.blocked);
        if (more) continue;
        if (found.blocked) {
          // Stored, but this room has not received it yet (the bus is slower than the Store, or
          // lost it): read it from the Store into the room, and look again when it arrives.
          room.catchUpFromStore('events');
          await Promise.race([stopped, this.nextChange((fn) => (onChange = fn))]);
        } else if (unsettled) {
          // What the room holds may not be stored yet: look again once it is. Not woken by each
          // change meanwhile: a busy board would cost a Store read per edit.
          unsettled = false;
          await Promise.race([stopped, room.whenStored()]);
        } else {
          await Promise.race([stopped, this.nextChange((fn) => (onChange = fn))]);
        }
        onChange = null;
      }
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      this.stops.delete(stop);
      unwatch();
      release();
    }
  }

  /** Resolves at the next change to the board (`set` is given the function that resolves it). */
  private nextChange(set: (fn: () => void) => void): Promise<void> {
    return new Promise((resolve) => set(resolve));
  }

  private async answer(
    room: Room,
    found: Collected['events'],
    cursor: number,
    more: boolean,
  ): Promise<BoardEventsAnswer> {
    const userIds = [...new Set(found.flatMap((e) => (e.userId === null ? [] : [e.userId])))];
    const names = new Map(
      (userIds.length > 0 ? await this.deps.store.userBadges(userIds) : []).map((u) => [u.id, u.name]),
    );
    const events: BoardEvent[] = found.map(({ userId, ...event }) => ({
      ...event,
      by: userId === null ? null : { id: userId, name: names.get(userId) ?? '' },
    }));
    const shapes = room.doc.getMap<unknown>(SHAPES_KEY);
    const live = [...new Set(events.flatMap((e) => e.changed))].filter(
      (id) => shapes.get(id) instanceof Y.Map,
    );
    return { events, shapes: recordsOf(room.doc, live), cursor: encodeCursor(cursor), more };
  }

  /** Answers every waiting poll now (with what it has): the instance is stopping. */
  close(): void {
    this.stopped = true;
    for (const stop of this.stops) stop();
  }
}
