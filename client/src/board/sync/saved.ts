// Whether this browser's edits are in the server's Store (docs/api.md §4): "Saving…" until the server
// confirms, "All changes saved" after. Confirmation is a request/answer on the document socket
// (shared/src/savedProtocol.ts): after edits, the client asks "answer N once what I sent before
// this is stored"; every edit counted before asking N is confirmed by answer N. Edits made offline
// reach the server in the sync on reconnect, and the client asks again after that sync.
// No socket here: `send` is given, so this is tested without one.
import { encodeSavedMessage, MAX_SAVED_ID } from '@tandem/shared';

export type SavedStatus = 'saved' | 'saving';

export class SaveTracker {
  /** Local edits counted so far, and how many of them the server has confirmed stored. */
  private edits = 0;
  private confirmed = 0;
  private nextId = 1;
  /** Request id → the edit count when it was sent. */
  private readonly asked = new Map<number, number>();
  private readonly listeners = new Set<(status: SavedStatus) => void>();

  /** `send` writes one message on the open, synced socket, or answers false when there is none. */
  constructor(private readonly send: (message: Uint8Array) => boolean) {}

  get status(): SavedStatus {
    return this.confirmed >= this.edits ? 'saved' : 'saving';
  }

  /** A local change to the doc (a person's edit, undo, or edits loaded from this device). */
  edit(): void {
    const before = this.status;
    this.edits += 1;
    this.notify(before);
  }

  /** Asks the server to confirm every edit so far; does nothing when all are confirmed. */
  ask(): void {
    if (this.status === 'saved') return;
    const id = this.nextId;
    if (!this.send(encodeSavedMessage(id))) return;
    this.nextId = id >= MAX_SAVED_ID ? 1 : id + 1;
    this.asked.set(id, this.edits);
    // A connection that never answers must not grow this without bound.
    if (this.asked.size > 64) this.asked.delete(this.asked.keys().next().value!);
  }

  /** The server's answer: the edits counted when request `id` was sent are stored. */
  answered(id: number): void {
    const upTo = this.asked.get(id);
    if (upTo === undefined) return;
    const before = this.status;
    this.confirmed = Math.max(this.confirmed, upTo);
    // Answers come in order: older requests are covered too.
    for (const key of [...this.asked.keys()]) {
      this.asked.delete(key);
      if (key === id) break;
    }
    this.notify(before);
  }

  /** The socket closed: its pending answers will never come (ask again after the next sync). */
  disconnected(): void {
    this.asked.clear();
  }

  subscribe(fn: (status: SavedStatus) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private notify(before: SavedStatus): void {
    const now = this.status;
    if (now !== before) for (const fn of this.listeners) fn(now);
  }
}
