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

/** DNS limits (RFC 1035): a label at most 63 characters, a whole name at most 253. */
export const DNS_LABEL_MAX = 63;
export const DNS_NAME_MAX = 253;

/**
 * Why a URL's host name cannot exist in DNS, as a sentence for the owner, or null when it can.
 * The URL parser accepts any length, so a name no resolver would look up got through.
 */
export function hostNameProblem(raw: string): string | null {
  let host: string;
  try {
    host = new URL(raw).hostname;
  } catch {
    return null;
  }
  if (host.startsWith('[')) return null; // an IPv6 literal
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name.length > DNS_NAME_MAX) {
    return `The host name is ${name.length} characters long; a host name has at most ${DNS_NAME_MAX}.`;
  }
  const long = name.split('.').find((label) => label.length > DNS_LABEL_MAX);
  if (long !== undefined) {
    return `The host name has a part of ${long.length} characters (“${long.slice(0, 20)}…”); each part between dots has at most ${DNS_LABEL_MAX}.`;
  }
  return null;
}

export const CreateWebhookBody = z.object({
  url: z
    .string({ error: 'Give the URL to call.' })
    .trim()
    .min(1, { error: 'Give the URL to call.' })
    .max(webhookLimits.urlMax, { error: `At most ${webhookLimits.urlMax} characters.` })
    .refine((value) => URL.canParse(value), { error: 'This is not a URL.', abort: true })
    .superRefine((value, ctx) => {
      const problem = hostNameProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
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
  /**
   * Which page each changed shape is on (docs/api.md §17: `main` is the first page), so a receiver
   * can read it with the content API's `?page=`.
   */
  pages: { pageId: string; shapeIds: string[] }[];
}

/** The text signed: `t + "." + body` (docs/api.md §15); the header is `t=<unix>,v1=<hex HMAC-SHA256>`. */
export const signedText = (unixSeconds: number, body: string): string => `${unixSeconds}.${body}`;
