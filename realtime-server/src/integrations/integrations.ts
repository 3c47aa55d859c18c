// Integrations (docs/api.md §15): scripts, bots and agents as member-like identities. Each has its
// own users row and a membership carrying its role, so everything that already holds for a
// member holds for it unchanged: the one access rule (auth/access.ts), revocation on every
// instance through the control channel (a removed member), its edits attributed to it in history,
// and "Undo all of <name>'s changes since…" (POST /api/boards/:id/revert with its userId).
//
// A write (REST or MCP) is one change applied through the board's Room on the integration's
// behalf (Room.change, origin `server`): relayed to every client here, published to the other
// instances, stored and counted in history like any edit; checked whole before anything changes.
import type { CreateIntegrationBody, Integration } from '@tandem/shared';
import type * as Y from 'yjs';
import { hashIntegrationKey, newIntegrationKey, newUserId, randomId } from '../auth/tokens.ts';
import type { BotIdentity } from '../documents/botPresence.ts';
import type { Rooms } from '../documents/rooms.ts';
import { backgroundLane } from '../documents/turns.ts';
import type { IntegrationRow, Store, UserRow } from '../store/store.ts';
import type { LiveEvents } from '../workspace/live.ts';
import { focusOf } from './content.ts';

/** lastUsedAt is written at most this often per integration: a busy bot costs no write per call. */
const TOUCH_EVERY_MS = 60_000;

/** Who a write is made for: its identity in history and, for an integration, its cursor. */
export interface Writer {
  userId: string;
  bot: BotIdentity | null;
}

/** The writer of a request's caller: an integration shows as a bot; a person's session does not. */
export function writerOf(user: UserRow, integration: IntegrationRow | null): Writer {
  if (!integration?.role) return { userId: user.id, bot: null };
  return {
    userId: user.id,
    bot: { userId: user.id, name: integration.name, color: integration.color, role: integration.role },
  };
}

/** Who is calling with a key: its identity (a users row) and the integration. */
export interface KeyCaller {
  user: UserRow;
  integration: IntegrationRow;
}

/** A write over the board's size limit (docs/api.md §5): nothing was applied. */
export class BoardFullError extends Error {
  constructor() {
    super('This board has reached its size limit, so nothing was added. Remove something first.');
    this.name = 'BoardFullError';
  }
}

export const toIntegration = (row: IntegrationRow): Integration => ({
  id: row.id,
  userId: row.userId,
  name: row.name,
  color: row.color,
  role: row.role === 'viewer' ? 'viewer' : 'editor',
  scope: row.frameId === null ? {} : { frameId: row.frameId },
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** Bot colours: the cursor of a bot stands apart from people's. */
const BOT_COLORS = ['#6c5ce7', '#00a8a8', '#e17055', '#0984e3', '#b53471'];

export interface IntegrationsDeps {
  store: Store;
  rooms: Rooms;
  live: LiveEvents;
  maxDocBytes: number;
  /** How long a board a call opened stays loaded after it (Rooms.linger). */
  roomLingerMs: number;
}

export class Integrations {
  private readonly touched = new Map<string, number>();

  constructor(private readonly deps: IntegrationsDeps) {}

  async create(
    boardId: string,
    createdBy: string,
    body: CreateIntegrationBody,
  ): Promise<{ integration: Integration; key: string }> {
    const key = newIntegrationKey();
    const row = await this.deps.store.integrations.create({
      id: randomId(12),
      boardId,
      userId: newUserId(),
      name: body.name,
      color: BOT_COLORS[Math.floor(Math.random() * BOT_COLORS.length)] ?? '#6c5ce7',
      role: body.role,
      keyHash: hashIntegrationKey(key),
      frameId: body.frameId ?? null,
      createdBy,
    });
    this.deps.live.membersChanged(boardId);
    return { integration: toIntegration(row), key };
  }

  async list(boardId: string): Promise<Integration[]> {
    return (await this.deps.store.integrations.list(boardId)).map(toIntegration);
  }

  /** Revokes it at once on every instance, the way a member is removed; false when there was none. */
  async revoke(boardId: string, integrationId: string): Promise<boolean> {
    const userId = await this.deps.store.integrations.revoke(boardId, integrationId);
    if (userId === null) return false;
    this.deps.live.accessChanged(boardId, userId, null);
    this.deps.live.membersChanged(boardId);
    return true;
  }

  /**
   * The caller a key belongs to, or null for a wrong, revoked or removed key. Read from the Store
   * on every call (one indexed row), never cached: a revocation on any instance holds everywhere
   * on the next call.
   */
  async resolve(key: string): Promise<KeyCaller | null> {
    const integration = await this.deps.store.integrations.byKey(hashIntegrationKey(key));
    if (!integration) return null;
    const now = Date.now();
    if (now - (this.touched.get(integration.id) ?? 0) >= TOUCH_EVERY_MS) {
      this.touched.set(integration.id, now);
      void this.deps.store.integrations.touch(integration.id, new Date(now)).catch(() => undefined);
    }
    return {
      integration,
      user: {
        id: integration.userId,
        name: integration.name,
        email: null,
        passwordHash: null,
        color: integration.color,
        isGuest: true,
        createdAt: integration.createdAt,
      },
    };
  }

  /**
   * Makes one change to the board on the writer's behalf through its Room (opened here if needed),
   * and answers once it is stored. `change` checks the whole write first and throws to refuse
   * it; nothing is applied then. It names the shapes it touched, where a bot's cursor then shows.
   * `growth` estimates the bytes the change adds, for MAX_DOC_BYTES.
   */
  async write<T>(
    /** The document key of the page written (docs/api.md §17): the board id for its first page. */
    key: string,
    writer: Writer,
    growth: number,
    change: (doc: Y.Doc) => { result: T; touched: string[]; focus?: { x: number; y: number } | null },
  ): Promise<T> {
    const { userId } = writer;
    const { room, release } = await this.deps.rooms.acquire(key);
    try {
      await backgroundLane.turn();
      if (growth > 0 && room.size.bytes + growth > this.deps.maxDocBytes) {
        // The estimate only grows; measure again before refusing.
        room.size.remeasureIfDue();
        if (room.size.bytes + growth > this.deps.maxDocBytes) throw new BoardFullError();
      }
      let result: T | undefined;
      let touched: string[] = [];
      let focus: { x: number; y: number } | null = null;
      room.change(userId, (doc) => {
        const made = change(doc);
        result = made.result;
        touched = made.touched;
        // Where the bot worked: the change's shapes, or (a deletion's are gone) where the change says.
        focus = made.focus ?? focusOf(doc, touched);
      });
      if (writer.bot && focus) room.bots.show(writer.bot, focus, touched);
      // Answered once stored, like "All changes saved": a 201 means the change survives the death
      // of any instance. The wait is at most the persister's debounce (PERSIST_DEBOUNCE_MS), also on
      // a board edited without pause, which is otherwise stored every PERSIST_MAX_DELAY_MS.
      await room.whenStored({ soon: true });
      await backgroundLane.turn();
      return result as T;
    } finally {
      this.deps.rooms.linger(room, this.deps.roomLingerMs);
      release();
    }
  }

  /** Reads a page (its document key) as it is live (the Room, opened here if needed). */
  async read<T>(key: string, read: (doc: Y.Doc) => T): Promise<T> {
    const { room, release } = await this.deps.rooms.acquire(key);
    try {
      return read(room.doc);
    } finally {
      this.deps.rooms.linger(room, this.deps.roomLingerMs);
      release();
    }
  }
}
