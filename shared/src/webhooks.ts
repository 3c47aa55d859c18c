// Webhooks (docs/api.md §15): the events a board's webhooks can ask for, the owner's bodies and
// answers, and how a delivery is signed. The server checks bodies with these, the Share dialog's
// form uses the same ones, and a receiver can check a signature with `webhookSignature`'s rule.
import { z } from 'zod';

export const webhookEvents = [
  'board.updated',
  'version.created',
  'member.added',
  'member.removed',
  'vote.closed',
  'comment.created',
] as const;
export const WebhookEvent = z.enum(webhookEvents, {
  error: `Each event is one of ${webhookEvents.join(', ')}.`,
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;

export const webhookLimits = {
  /** The longest URL accepted. */
  urlMax: 2000,
  /** Webhooks one board may have. */
  perBoard: 20,
  /** Deliveries `GET …/webhooks/:id/deliveries` answers, newest first. */
  deliveriesListed: 100,
  /** A delivery is retried for this long after its event, then given up. */
  retryForMs: 24 * 60 * 60 * 1000,
  /** A webhook that has only failed for this long is disabled. */
  disableAfterMs: 24 * 60 * 60 * 1000,
  /** Shape ids one board.updated event lists per person (more: `truncated: true`). */
  shapeIdsPerEvent: 1000,
} as const;

/** Header names of a delivery. */
export const WEBHOOK_SIGNATURE_HEADER = 'Tandem-Signature';
export const WEBHOOK_DELIVERY_HEADER = 'Tandem-Delivery';

export const CreateWebhookBody = z.object({
  url: z
    .string({ error: 'Give the URL to call.' })
    .trim()
    .min(1, { error: 'Give the URL to call.' })
    .max(webhookLimits.urlMax, { error: `At most ${webhookLimits.urlMax} characters.` })
    .refine((value) => URL.canParse(value), { error: 'This is not a URL.' }),
  events: z
    .array(WebhookEvent)
    .min(1, { error: 'Choose at least one event.' })
    .max(webhookEvents.length)
    .transform((events) => [...new Set(events)]),
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export interface Webhook {
  id: string;
  boardId: string;
  url: string;
  events: WebhookEvent[];
  createdAt: string;
  /** Set once it failed for 24 h without a success (docs/api.md §15); it is then no longer called. */
  disabledAt: string | null;
}
export interface WebhooksAnswer {
  webhooks: Webhook[];
}
/** `POST …/webhooks`: the secret is in this answer only. */
export interface CreatedWebhookAnswer {
  webhook: Webhook;
  secret: string;
}

/**
 * One event sent to one webhook. `pending`: not yet answered with a 2xx (retried at `nextAttemptAt`);
 * `delivered`; `failed`: given up after 24 h of failures.
 */
export interface WebhookDelivery {
  id: string;
  eventId: string;
  type: WebhookEvent;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  createdAt: string;
  lastAttemptAt: string | null;
  /** The receiver's HTTP status on the last attempt, or null when it did not answer. */
  responseStatus: number | null;
  /** Why the last attempt failed, as a sentence; null when it succeeded. */
  error: string | null;
  /** How long the last attempt took. */
  durationMs: number | null;
  nextAttemptAt: string | null;
}
export interface WebhookDeliveriesAnswer {
  deliveries: WebhookDelivery[];
}

/** The body of every delivery. */
export interface WebhookPayload<T = unknown> {
  id: string;
  type: WebhookEvent;
  boardId: string;
  at: string;
  data: T;
}

/** `board.updated`'s data: which shapes changed, and who changed them. */
export interface BoardUpdatedData {
  changes: { userId: string; name: string; shapeIds: string[]; truncated?: true }[];
  /** Every changed shape id, once. */
  shapeIds: string[];
}

/** The text signed: `t + "." + body` (docs/api.md §15); the header is `t=<unix>,v1=<hex HMAC-SHA256>`. */
export const signedText = (unixSeconds: number, body: string): string => `${unixSeconds}.${body}`;
