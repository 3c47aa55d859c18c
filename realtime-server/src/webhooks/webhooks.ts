// Webhooks (docs/api.md §15): the owner's calls, the events, and the deliveries. An event becomes
// one delivery row per webhook that takes it; every instance looks for due deliveries every
// WEBHOOK_POLL_MS (and at once when it queued one itself), claims a few for a lease and sends
// them. A claim of an instance that died lapses and another instance sends the delivery, so a
// delivery survives a restart and the death of the instance that queued it (at least once: a
// receiver may see one twice, with the same Tandem-Delivery id). With no webhook work anywhere the
// loop asks the Store only whether there is some, every WORK_CHECK_MS.
import {
  type CreateWebhookBody,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookHealth,
  type WebhookPayload,
  webhookLimits,
} from '@tandem/shared';
import type { Logger } from 'pino';
import { randomId } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Store } from '../store/store.ts';
import type { DeliveryRow, WebhookRow } from '../store/types.ts';
import type { ClaimedDelivery, NewDelivery } from '../store/webhooks.ts';
import { checkWebhookUrl } from './addresses.ts';
import { boardUpdatedData, ChangeNotes, windowDueAt } from './boardChanges.ts';
import { nextAttemptAt } from './retry.ts';
import { sendDelivery } from './send.ts';

/** Deliveries one instance claims at a time. */
const CLAIM_BATCH = 20;
/** A claim outlives the send's timeout by this much, for the write of its result. */
const LEASE_MARGIN_MS = 5000;
/** Finished deliveries are kept this long (the dialog lists the last 100). */
const KEEP_FINISHED_MS = 7 * 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;
/**
 * How often the poller asks the Store whether there is any webhook work at all. With none (no
 * webhook anywhere) that question is all it asks; a webhook made on another instance is noticed
 * within this time, one made here at once.
 */
export const WORK_CHECK_MS = 5000;

export const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  boardId: row.boardId,
  url: row.url,
  events: row.events,
  createdAt: row.createdAt.toISOString(),
  disabledAt: row.disabledAt?.toISOString() ?? null,
});

export const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  eventId: row.eventId,
  type: row.type,
  status: row.status,
  attempts: row.attempts,
  createdAt: row.createdAt.toISOString(),
  lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
  responseStatus: row.responseStatus,
  error: row.error,
  durationMs: row.durationMs,
  nextAttemptAt: row.status === 'pending' ? row.nextAt.toISOString() : null,
});

/** Too many webhooks on one board. */
export class TooManyWebhooksError extends Error {}

export interface WebhooksDeps {
  store: Store;
  config: Pick<
    Config,
    | 'webhookAllowPrivate'
    | 'webhookRetryBaseMs'
    | 'webhookTimeoutMs'
    | 'webhookDisableAfterMs'
    | 'webhookUpdateWindowMs'
    | 'webhookPollMs'
  >;
  log: Logger;
  instanceId: string;
  /**
   * A webhook of the board was turned off or deleted: whether the board still has one turned off,
   * for its owner's dashboard (docs/api.md §15).
   */
  onHealthChanged?(ownerId: string, health: WebhookHealth): void;
}

export class Webhooks {
  private readonly notes = new ChangeNotes();
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly abort = new AbortController();
  private lastSweep = 0;
  /** Whether the Store had webhook work when last asked (at `workCheckedAt`), or this instance made some since. */
  private hasWork = true;
  private workCheckedAt = 0;
  /** Bumped by workFound, so a check that was under way meanwhile does not undo it. */
  private workMade = 0;

  constructor(private readonly deps: WebhooksDeps) {}

  private get store() {
    return this.deps.store.webhooks;
  }

  /** Tells the board's owner whether it still has a webhook turned off; never throws. */
  private tellHealth(boardId: string): void {
    const tell = this.deps.onHealthChanged;
    if (!tell) return;
    void (async () => {
      const board = await this.deps.store.getBoard(boardId);
      if (!board) return;
      const disabled = (await this.store.list(boardId)).some((w) => w.disabledAt !== null);
      tell(board.ownerId, { boardId, disabled });
    })().catch((error: unknown) =>
      this.deps.log.warn({ err: error, boardId }, 'telling webhook health failed'),
    );
  }

  // The owner's calls.

  /** Throws UnsafeUrlError (with the sentence) for a URL the rules refuse. */
  async create(
    boardId: string,
    createdBy: string,
    body: CreateWebhookBody,
  ): Promise<{ webhook: Webhook; secret: string }> {
    const url = await checkWebhookUrl(body.url, this.deps.config.webhookAllowPrivate);
    if ((await this.store.list(boardId)).length >= webhookLimits.perBoard) throw new TooManyWebhooksError();
    const secret = `whsec_${randomId(32)}`;
    const row = await this.store.create({
      id: randomId(12),
      boardId,
      url: url.toString(),
      events: body.events,
      secret,
      createdBy,
      createdAt: new Date(),
    });
    this.workFound();
    return { webhook: toWebhook(row), secret };
  }

  async list(boardId: string): Promise<Webhook[]> {
    return (await this.store.list(boardId)).map(toWebhook);
  }

  async delete(boardId: string, webhookId: string): Promise<boolean> {
    const deleted = await this.store.delete(boardId, webhookId);
    if (deleted) this.tellHealth(boardId);
    return deleted;
  }

  /** The webhook's last deliveries, newest first; null when the board has no such webhook. */
  async deliveries(boardId: string, webhookId: string): Promise<WebhookDelivery[] | null> {
    if (!(await this.store.get(boardId, webhookId))) return null;
    return (await this.store.deliveries(webhookId, webhookLimits.deliveriesListed)).map(toDelivery);
  }

  // Events.

  /**
   * Queues `type` for every webhook of the board that takes it, and sends at once from here.
   * Never throws: the action the event reports has happened whatever becomes of its webhooks.
   */
  emit(boardId: string, type: WebhookEvent, data: unknown): void {
    if (this.stopped) return;
    void (async () => {
      const subscribers = await this.store.subscribers(boardId, type);
      if (subscribers.length === 0) return;
      await this.store.enqueue(this.deliveriesOf(subscribers, boardId, type, data, new Date()));
      this.workFound();
      this.kick();
    })().catch((error: unknown) =>
      this.deps.log.warn({ err: error, boardId, type }, 'queuing a webhook event failed'),
    );
  }

  /** The changes a room stored here (for board.updated); added to the Store on the next poll. */
  changed(boardId: string, pageId: string, userId: string, shapeIds: readonly string[]): void {
    this.notes.note(boardId, pageId, userId, shapeIds);
  }

  private deliveriesOf(
    webhooks: readonly WebhookRow[],
    boardId: string,
    type: WebhookEvent,
    data: unknown,
    at: Date,
  ): NewDelivery[] {
    const eventId = `evt_${randomId(12)}`;
    const payload: WebhookPayload = { id: eventId, type, boardId, at: at.toISOString(), data };
    const body = JSON.stringify(payload);
    return webhooks.map((w) => ({
      id: `dlv_${randomId(12)}`,
      webhookId: w.id,
      boardId,
      eventId,
      type,
      body,
      at,
    }));
  }

  // The loop every instance runs.

  start(): void {
    const every = this.deps.config.webhookPollMs;
    this.timer = setInterval(() => this.tick(), every);
    this.timer.unref();
    this.kick();
  }

  /** The timer: a look every WEBHOOK_POLL_MS while there is webhook work, else every WORK_CHECK_MS. */
  private tick(): void {
    if (!this.hasWork && Date.now() - this.workCheckedAt < WORK_CHECK_MS) return;
    this.kick();
  }

  /** A webhook or a delivery was made here: look every WEBHOOK_POLL_MS from now on. */
  private workFound(): void {
    this.hasWork = true;
    this.workCheckedAt = Date.now();
    this.workMade += 1;
  }

  /** Looks for due work now (again right after, when a look is already running). */
  kick(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = this.poll()
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'webhook poll failed'))
      .finally(() => {
        this.polling = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Stops looking; attempts under way are abandoned (their claims lapse and they are sent again). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    // The changes noted last are still written, so the board's next event reports them.
    await this.flushNotes().catch(() => undefined);
    this.abort.abort();
    await this.polling;
  }

  private async poll(): Promise<void> {
    if (Date.now() - this.workCheckedAt >= WORK_CHECK_MS) {
      const checkedAt = Date.now();
      const made = this.workMade;
      const found = await this.store.anyWork();
      if (this.workMade === made) {
        this.hasWork = found;
        this.workCheckedAt = checkedAt;
      }
    }
    if (!this.hasWork) {
      // Changes noted while no webhook existed anywhere would not be recorded (recordChanges keeps
      // only a board with a board.updated webhook); dropped so they do not pile up while idle.
      this.notes.take();
      return;
    }
    await this.flushNotes();
    await this.closeDueWindows();
    for (;;) {
      if (this.stopped) return;
      const now = new Date();
      const lease = new Date(now.getTime() + this.deps.config.webhookTimeoutMs + LEASE_MARGIN_MS);
      const claimed = await this.store.claim(this.deps.instanceId, now, lease, CLAIM_BATCH);
      await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
      if (claimed.length < CLAIM_BATCH) break;
    }
    if (Date.now() - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = Date.now();
      await this.store.sweep(new Date(Date.now() - KEEP_FINISHED_MS));
    }
  }

  private async flushNotes(): Promise<void> {
    if (this.notes.size === 0) return;
    const at = new Date();
    for (const [boardId, pairs] of this.notes.take()) {
      try {
        await this.store.recordChanges(boardId, pairs, at);
      } catch (error) {
        this.notes.restore(boardId, pairs);
        this.deps.log.warn({ err: error, boardId }, 'noting changes for board.updated failed');
      }
    }
  }

  /** Turns every due board.updated window this instance can claim into one event. */
  private async closeDueWindows(): Promise<void> {
    const windowMs = this.deps.config.webhookUpdateWindowMs;
    for (const window of await this.store.pendingWindows()) {
      const now = new Date();
      if (windowDueAt(window.firstChangeAt, window.lastSentAt, windowMs) > now.getTime()) continue;
      if (window.claimUntil && window.claimUntil > now) continue;
      const until = new Date(now.getTime() + windowMs + LEASE_MARGIN_MS);
      if (!(await this.store.claimWindow(window.boardId, window.version, now, until))) continue;
      const changes = await this.store.changes(window.boardId);
      const subscribers = await this.store.subscribers(window.boardId, 'board.updated');
      const names = new Map(
        (await this.deps.store.userBadges([...new Set(changes.map((c) => c.userId))])).map((b) => [
          b.id,
          b.name,
        ]),
      );
      const at = new Date();
      const deliveries = this.deliveriesOf(
        subscribers,
        window.boardId,
        'board.updated',
        boardUpdatedData(changes, names),
        at,
      );
      await this.store.closeWindow(
        window.boardId,
        window.version,
        changes.map((c) => c.id),
        deliveries,
        at,
      );
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const { config, log, instanceId } = this.deps;
    const attempt = await sendDelivery(delivery.url, delivery.secret, delivery.id, delivery.body, {
      timeoutMs: config.webhookTimeoutMs,
      allowPrivate: config.webhookAllowPrivate,
      signal: this.abort.signal,
    });
    // Stopping: the attempt was cut short, not answered; its claim lapses and it is sent again.
    if (this.stopped) return;
    const at = new Date();
    const nextAt = attempt.ok
      ? null
      : nextAttemptAt(delivery.createdAt, delivery.attempts + 1, at, config.webhookRetryBaseMs);
    await this.store.finish(delivery.id, instanceId, delivery.webhookId, { ...attempt, at, nextAt });
    if (!attempt.ok) {
      log.info(
        {
          boardId: delivery.boardId,
          webhookId: delivery.webhookId,
          delivery: delivery.id,
          error: attempt.error,
        },
        'webhook delivery failed',
      );
      const cutoff = new Date(at.getTime() - config.webhookDisableAfterMs);
      if (await this.store.disableIfFailingSince(delivery.webhookId, cutoff, at)) {
        log.warn(
          { boardId: delivery.boardId, webhookId: delivery.webhookId },
          `webhook disabled after ${config.webhookDisableAfterMs} ms of failures`,
        );
        this.tellHealth(delivery.boardId);
      }
    }
  }
}
