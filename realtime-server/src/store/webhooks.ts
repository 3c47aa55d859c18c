// Webhooks (docs/api.md §15), their deliveries and the board changes waiting for board.updated,
// each query written once for both engines. Deliveries are jobs: a row is claimed by one instance
// for a lease (the send's timeout and a margin), so a claim held by an instance that died lapses
// and another instance sends it; every write after a send checks that the claim is still its own.
import type { WebhookEvent } from '@tandem/shared';
import type { Dialect } from './migrations.ts';
import { type Row, time, timeOrNull } from './rows.ts';
import { inLists, join, raw, type Sql, sql } from './sql.ts';
import type { DeliveryRow, WebhookRow } from './types.ts';

const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Events are kept as `,a,b,` so that one LIKE finds the webhooks of an event. */
const eventsText = (events: readonly WebhookEvent[]): string => `,${events.join(',')},`;

const toWebhook = (r: Row): WebhookRow => ({
  id: r.id as string,
  boardId: r.board_id as string,
  url: r.url as string,
  events: (r.events as string).split(',').filter(Boolean) as WebhookEvent[],
  secret: r.secret as string,
  createdBy: r.created_by as string,
  createdAt: time(r.created_at),
  failingSince: timeOrNull(r.failing_since),
  disabledAt: timeOrNull(r.disabled_at),
});

const toDelivery = (r: Row): DeliveryRow => ({
  id: r.id as string,
  webhookId: r.webhook_id as string,
  boardId: r.board_id as string,
  eventId: r.event_id as string,
  type: r.type as WebhookEvent,
  body: r.body as string,
  status: r.status as DeliveryRow['status'],
  attempts: Number(r.attempts),
  createdAt: time(r.created_at),
  nextAt: time(r.next_at),
  lastAttemptAt: timeOrNull(r.last_attempt_at),
  responseStatus: numOrNull(r.response_status),
  error: (r.error as string | null) ?? null,
  durationMs: numOrNull(r.duration_ms),
});

/** A delivery to queue: what it sends, and when its event happened (`at`). */
export type NewDelivery = Pick<DeliveryRow, 'id' | 'webhookId' | 'boardId' | 'eventId' | 'type' | 'body'> & {
  at: Date;
};

/** What one attempt came to. `nextAt` null: no more attempts (delivered, or given up). */
export interface AttemptResult {
  ok: boolean;
  at: Date;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  nextAt: Date | null;
}

/** A board whose changes wait for board.updated, with what decides when its window is due. */
export interface PendingWindow {
  boardId: string;
  firstChangeAt: Date;
  lastSentAt: Date | null;
  version: number;
  claimUntil: Date | null;
}

/** Why a delivery still waiting for a retry failed when its webhook was turned off. */
export const WEBHOOK_DISABLED_ERROR =
  'Not sent: the webhook was turned off after a day of failed deliveries.';

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery extends DeliveryRow {
  url: string;
  secret: string;
}

export class WebhookRepository {
  constructor(
    private readonly sql: Sql,
    private readonly dialect: Pick<Dialect, 'skipLocked'>,
  ) {}

  async create(webhook: Omit<WebhookRow, 'failingSince' | 'disabledAt'>): Promise<WebhookRow> {
    const { id, boardId, url, events, secret, createdBy, createdAt } = webhook;
    await this.sql.run(
      sql`INSERT INTO webhooks (id, board_id, url, events, secret, created_by, created_at)
          VALUES (${id}, ${boardId}, ${url}, ${eventsText(events)}, ${secret}, ${createdBy}, ${createdAt})`,
    );
    return { ...webhook, failingSince: null, disabledAt: null };
  }

  /** The board's webhooks, oldest first. */
  async list(boardId: string): Promise<WebhookRow[]> {
    const rows = await this.sql.all(
      sql`SELECT * FROM webhooks WHERE board_id = ${boardId} ORDER BY created_at, id`,
    );
    return rows.map(toWebhook);
  }

  async get(boardId: string, id: string): Promise<WebhookRow | null> {
    const r = await this.sql.one(sql`SELECT * FROM webhooks WHERE id = ${id} AND board_id = ${boardId}`);
    return r ? toWebhook(r) : null;
  }

  /** Deletes it and its deliveries (a claimed one's result then changes nothing); false when there was none. */
  async delete(boardId: string, id: string): Promise<boolean> {
    const found = await this.get(boardId, id);
    if (!found) return false;
    await this.sql.batch([
      sql`DELETE FROM webhook_deliveries WHERE webhook_id = ${id}`,
      sql`DELETE FROM webhooks WHERE id = ${id}`,
    ]);
    return true;
  }

  /**
   * Whether the poller has anything to look at: a webhook that is not disabled, a delivery still
   * pending (a disabled webhook's fail as it is turned off), or changes waiting for board.updated.
   * Three indexed or tiny EXISTS, so an instance with no webhooks anywhere asks only this.
   */
  async anyWork(): Promise<boolean> {
    const row = await this.sql.one(
      sql`SELECT 1 AS found WHERE EXISTS (SELECT 1 FROM webhooks WHERE disabled_at IS NULL)
            OR EXISTS (SELECT 1 FROM webhook_deliveries WHERE status = 'pending')
            OR EXISTS (SELECT 1 FROM webhook_changes)`,
    );
    return row !== null;
  }

  /** The board's webhooks that take `type` and are not disabled, on a board that is not deleted. */
  async subscribers(boardId: string, type: WebhookEvent): Promise<WebhookRow[]> {
    const rows = await this.sql.all(
      sql`SELECT w.* FROM webhooks w JOIN boards b ON b.id = w.board_id AND b.deleted_at IS NULL
          WHERE w.board_id = ${boardId} AND w.disabled_at IS NULL AND w.events LIKE ${`%,${type},%`}`,
    );
    return rows.map(toWebhook);
  }

  async enqueue(deliveries: NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.sql.batch(deliveries.map((d) => this.insertDelivery(d)));
  }

  private insertDelivery(d: NewDelivery) {
    return sql`INSERT INTO webhook_deliveries
        (id, webhook_id, board_id, event_id, type, body, status, attempts, created_at, next_at)
        VALUES (${d.id}, ${d.webhookId}, ${d.boardId}, ${d.eventId}, ${d.type}, ${d.body}, 'pending', 0,
                ${d.at}, ${d.at})`;
  }

  /**
   * Claims up to `limit` pending deliveries that are due and not claimed by a live lease, for
   * `owner` until `leaseUntil`. The lease is checked again in the outer UPDATE so that two
   * instances racing for one row (PostgreSQL re-checks an updated row's conditions) never both
   * get it; PostgreSQL also skips rows another claim holds rather than waiting for them.
   */
  async claim(owner: string, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
    const free = sql`(lease_until IS NULL OR lease_until < ${now})`;
    const claimed = await this.sql.all(
      sql`UPDATE webhook_deliveries SET lease_owner = ${owner}, lease_until = ${leaseUntil}
          WHERE id IN (SELECT id FROM webhook_deliveries
                        WHERE status = 'pending' AND next_at <= ${now} AND ${free}
                        ORDER BY next_at LIMIT ${limit} ${raw(this.dialect.skipLocked)})
            AND ${free}
          RETURNING id`,
    );
    if (claimed.length === 0) return [];
    const out: ClaimedDelivery[] = [];
    for (const list of inLists(claimed.map((r) => r.id))) {
      const rows = await this.sql.all(
        sql`SELECT d.*, w.url, w.secret FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
            WHERE d.id IN (${list}) AND d.lease_owner = ${owner}`,
      );
      for (const r of rows) out.push({ ...toDelivery(r), url: r.url as string, secret: r.secret as string });
    }
    return out;
  }

  /** Who holds a delivery's claim now (tests and operators: which instance is sending it). */
  async leaseOf(id: string): Promise<{ owner: string | null; until: Date | null } | null> {
    const r = await this.sql.one(
      sql`SELECT lease_owner, lease_until FROM webhook_deliveries WHERE id = ${id}`,
    );
    return r ? { owner: (r.lease_owner as string | null) ?? null, until: timeOrNull(r.lease_until) } : null;
  }

  /**
   * Records an attempt of a delivery `owner` claimed, and the webhook's failing state with it;
   * false (nothing written) when the claim is no longer its own (it lapsed and another took it).
   */
  async finish(id: string, owner: string, webhookId: string, result: AttemptResult): Promise<boolean> {
    const status = result.ok ? 'delivered' : result.nextAt === null ? 'failed' : 'pending';
    const changed = await this.sql.run(
      sql`UPDATE webhook_deliveries SET status = ${status}, attempts = attempts + 1,
            last_attempt_at = ${result.at}, response_status = ${result.responseStatus},
            error = ${result.error}, duration_ms = ${result.durationMs},
            next_at = ${result.nextAt ?? result.at}, lease_owner = NULL, lease_until = NULL
          WHERE id = ${id} AND lease_owner = ${owner}`,
    );
    if (changed === 0) return false;
    await this.sql.run(
      result.ok
        ? sql`UPDATE webhooks SET failing_since = NULL WHERE id = ${webhookId}`
        : sql`UPDATE webhooks SET failing_since = ${result.at} WHERE id = ${webhookId} AND failing_since IS NULL`,
    );
    return true;
  }

  /**
   * Disables a webhook that has failed since before `cutoff` without a success; true when it did.
   * Its deliveries still waiting for a retry fail with it (they went on being sent to a receiver
   * known to be down for up to a day); one being sent right now finishes as it goes.
   */
  async disableIfFailingSince(webhookId: string, cutoff: Date, at: Date): Promise<boolean> {
    const changed = await this.sql.run(
      sql`UPDATE webhooks SET disabled_at = ${at}
          WHERE id = ${webhookId} AND disabled_at IS NULL AND failing_since <= ${cutoff}`,
    );
    if (changed === 0) return false;
    await this.sql.run(
      sql`UPDATE webhook_deliveries SET status = 'failed', error = ${WEBHOOK_DISABLED_ERROR}
          WHERE webhook_id = ${webhookId} AND status = 'pending'
            AND (lease_until IS NULL OR lease_until < ${at})`,
    );
    return true;
  }

  /** A webhook's deliveries, newest first. */
  async deliveries(webhookId: string, limit: number): Promise<DeliveryRow[]> {
    const rows = await this.sql.all(
      sql`SELECT * FROM webhook_deliveries WHERE webhook_id = ${webhookId}
          ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
    );
    return rows.map(toDelivery);
  }

  /** Forgets finished deliveries older than `before`; how many. */
  async sweep(before: Date): Promise<number> {
    return this.sql.run(
      sql`DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < ${before}`,
    );
  }

  // board.updated: changes wait in webhook_changes until their board's window is due.

  /**
   * Adds changed shapes (who changed which) to the board's next board.updated, when the board
   * has a webhook that takes it; false when it has none (nothing written).
   */
  async recordChanges(
    boardId: string,
    changes: { userId: string; pageId: string; shapeId: string }[],
    at: Date,
  ): Promise<boolean> {
    if (changes.length === 0) return true;
    if ((await this.subscribers(boardId, 'board.updated')).length === 0) return false;
    const statements = [
      sql`INSERT INTO webhook_windows (board_id, version) VALUES (${boardId}, 0) ON CONFLICT (board_id) DO NOTHING`,
    ];
    for (let i = 0; i < changes.length; i += 200) {
      const rows = changes
        .slice(i, i + 200)
        .map((c) => sql`(${boardId}, ${c.userId}, ${c.pageId}, ${c.shapeId}, ${at})`);
      statements.push(
        sql`INSERT INTO webhook_changes (board_id, user_id, page_id, shape_id, created_at) VALUES ${join(rows, ', ')}`,
      );
    }
    await this.sql.batch(statements);
    return true;
  }

  /** Every board with changes waiting, with its window's state. */
  async pendingWindows(): Promise<PendingWindow[]> {
    const rows = await this.sql.all(
      sql`SELECT c.board_id, min(c.created_at) AS first_at, w.version, w.last_sent_at, w.claim_until
          FROM webhook_changes c JOIN webhook_windows w ON w.board_id = c.board_id
          GROUP BY c.board_id, w.version, w.last_sent_at, w.claim_until`,
    );
    return rows.map((r) => ({
      boardId: r.board_id as string,
      firstChangeAt: time(r.first_at),
      lastSentAt: timeOrNull(r.last_sent_at),
      version: Number(r.version),
      claimUntil: timeOrNull(r.claim_until),
    }));
  }

  /**
   * Claims a board's due window until `until`, if its version is still `version` (no other
   * instance sent it meanwhile) and no live claim holds it; true when this caller has it.
   */
  async claimWindow(boardId: string, version: number, now: Date, until: Date): Promise<boolean> {
    const changed = await this.sql.run(
      sql`UPDATE webhook_windows SET claim_until = ${until}
          WHERE board_id = ${boardId} AND version = ${version}
            AND (claim_until IS NULL OR claim_until < ${now})`,
    );
    return changed > 0;
  }

  /** The changes waiting for a board's board.updated, oldest first. */
  async changes(boardId: string): Promise<{ id: number; userId: string; pageId: string; shapeId: string }[]> {
    const rows = await this.sql.all(
      sql`SELECT id, user_id, page_id, shape_id FROM webhook_changes WHERE board_id = ${boardId} ORDER BY id`,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      userId: r.user_id as string,
      pageId: r.page_id as string,
      shapeId: r.shape_id as string,
    }));
  }

  /**
   * Ends a claimed window in one transaction: its deliveries queued, the changes they report
   * removed (changes added meanwhile stay, for the next window), the window marked sent at `at`.
   */
  async closeWindow(
    boardId: string,
    version: number,
    changeIds: number[],
    deliveries: NewDelivery[],
    at: Date,
  ): Promise<void> {
    await this.sql.batch([
      ...deliveries.map((d) => this.insertDelivery(d)),
      ...inLists(changeIds).map((list) => sql`DELETE FROM webhook_changes WHERE id IN (${list})`),
      sql`UPDATE webhook_windows SET version = ${version + 1}, last_sent_at = ${at}, claim_until = NULL
          WHERE board_id = ${boardId} AND version = ${version}`,
    ]);
  }
}
