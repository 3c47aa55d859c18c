// The Share dialog's "Webhooks" section (docs/api.md §15), for the owner: add a URL that Tandem
// calls, signed, when the chosen events happen; copy its signing secret once; see each webhook's
// last deliveries and why one failed (the receiver's status, or a sentence); delete one.
import {
  CreateWebhookBody,
  fieldMessages,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  webhookEvents,
  webhookLimits,
} from '@tandem/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorSentence, errorWithReasons } from '../../api/client.ts';
import { confirmAction } from './Confirm.tsx';
import { refocusAfterRemoval } from './focusable.ts';
import { SecretOnce } from './SecretOnce.tsx';

interface Props {
  boardId: string;
  /** Scrolled into view once the webhooks are listed (opened from the dashboard's notice). */
  reveal?: boolean;
}

const eventText: Record<WebhookEvent, string> = {
  'board.updated': 'Board changed',
  'version.created': 'Version saved',
  'member.added': 'Member joined',
  'member.removed': 'Member removed',
  'vote.closed': 'Vote closed',
  'comment.created': 'New comment',
};

/** Deliveries shown per webhook (the API keeps the last 100). */
const SHOWN = 5;
/** While the dialog is open, deliveries are read again this often. */
const REFRESH_MS = 3000;

export function WebhooksSection({ boardId, reveal = false }: Props) {
  const [webhooks, setWebhooks] = useState<Webhook[]>([]);
  const section = useRef<HTMLElement>(null);
  const revealed = useRef(!reveal);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['board.updated', 'comment.created']);
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setWebhooks((await api.webhooks(boardId)).webhooks);
      if (!revealed.current) {
        revealed.current = true;
        requestAnimationFrame(() => section.current?.scrollIntoView({ block: 'start' }));
      }
    } catch (e) {
      setError(errorSentence(e));
    }
  }, [boardId]);
  useEffect(() => {
    void load();
  }, [load]);

  const toggle = (event: WebhookEvent) =>
    setEvents((now) => (now.includes(event) ? now.filter((e) => e !== event) : [...now, event]));

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    const checked = CreateWebhookBody.safeParse({ url, events });
    if (!checked.success) {
      setError(Object.values(fieldMessages(checked.error))[0] ?? 'Check the URL.');
      return;
    }
    setBusy(true);
    try {
      const answer = await api.createWebhook(boardId, checked.data);
      setCreated({ url: answer.webhook.url, secret: answer.secret });
      setUrl('');
      setError(null);
      await load();
    } catch (err) {
      setError(errorWithReasons(err));
    } finally {
      setBusy(false);
    }
  };
  const remove = async (webhook: Webhook, button: HTMLElement) => {
    const ok = await confirmAction({
      title: 'Delete webhook?',
      body: `${webhook.url} is not called again by this board.`,
      confirmLabel: 'Delete webhook',
      danger: true,
    });
    if (!ok) return;
    try {
      await api.deleteWebhook(boardId, webhook.id);
      if (created?.url === webhook.url) setCreated(null);
      await load();
      await refocusAfterRemoval(button);
    } catch (err) {
      setError(errorSentence(err));
    }
  };

  return (
    <section aria-label="Webhooks" ref={section}>
      <h3>Webhooks</h3>
      <p className="hint">
        Tandem calls a URL of yours, signed with its secret, when something happens on this board. Failed
        calls are retried for 24 hours.
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <form className="integration-form webhook-form" onSubmit={(e) => void create(e)}>
        <input
          aria-label="Webhook URL"
          placeholder="https://example.com/tandem-hook"
          type="url"
          maxLength={webhookLimits.urlMax}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <button type="submit" className="btn" disabled={busy}>
          Add webhook
        </button>
        <fieldset className="webhook-events">
          <legend>Events</legend>
          {webhookEvents.map((event) => (
            <label key={event}>
              <input type="checkbox" checked={events.includes(event)} onChange={() => toggle(event)} />
              {eventText[event]}
            </label>
          ))}
        </fieldset>
      </form>
      {created && (
        <SecretOnce
          key={created.secret}
          sentence="Copy the signing secret now: it is not shown again. Check each call’s Tandem-Signature with it."
          value={created.secret}
          label="Webhook signing secret"
          noun="secret"
        />
      )}
      <ul className="links webhooks">
        {webhooks.map((w) => (
          <WebhookItem
            key={w.id}
            boardId={boardId}
            webhook={w}
            onDelete={(button) => void remove(w, button)}
          />
        ))}
        {webhooks.length === 0 && <li className="hint">No webhooks.</li>}
      </ul>
    </section>
  );
}

function WebhookItem({
  boardId,
  webhook,
  onDelete,
}: {
  boardId: string;
  webhook: Webhook;
  onDelete: (button: HTMLElement) => void;
}) {
  const [deliveries, setDeliveries] = useState<WebhookDelivery[] | null>(null);
  useEffect(() => {
    let stop = false;
    const read = () =>
      api.webhookDeliveries(boardId, webhook.id).then(
        (answer) => {
          if (!stop) setDeliveries(answer.deliveries.slice(0, SHOWN));
        },
        () => undefined,
      );
    void read();
    const timer = setInterval(() => void read(), REFRESH_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [boardId, webhook.id]);

  return (
    <li className="webhook">
      <div className="webhook-head">
        <span className="member-name">
          <span className="webhook-url">{webhook.url}</span>
          <em> {webhook.events.map((e) => eventText[e]).join(', ')}</em>
        </span>
        {webhook.disabledAt && <span className="pill pill-viewer">Disabled after 24 h of failures</span>}
        <button
          type="button"
          className="btn small danger"
          aria-label={`Delete webhook ${webhook.url}`}
          onClick={(e) => onDelete(e.currentTarget)}
        >
          Delete
        </button>
      </div>
      <ol className="deliveries" aria-label={`Deliveries to ${webhook.url}`}>
        {deliveries?.map((d) => (
          <li key={d.id} className={`delivery delivery-${d.status}`}>
            <span className="delivery-status">{statusText(d)}</span>
            <span className="delivery-event">{eventText[d.type]}</span>
            <time dateTime={d.lastAttemptAt ?? d.createdAt}>
              {new Date(d.lastAttemptAt ?? d.createdAt).toLocaleTimeString()}
            </time>
            {d.error && <span className="delivery-error">{d.error}</span>}
          </li>
        ))}
        {deliveries?.length === 0 && <li className="hint">Nothing sent yet.</li>}
      </ol>
    </li>
  );
}

/** "Delivered · 200 · 35 ms", "Retrying (attempt 2) · 500", "Failed after 12 attempts". */
function statusText(d: WebhookDelivery): string {
  const code = d.responseStatus === null ? '' : ` · ${d.responseStatus}`;
  if (d.status === 'delivered')
    return `Delivered${code}${d.durationMs === null ? '' : ` · ${d.durationMs} ms`}`;
  if (d.status === 'failed') return `Failed after ${d.attempts} attempts${code}`;
  if (d.attempts === 0) return 'Sending…';
  return `Retrying (${d.attempts} failed)${code}`;
}
