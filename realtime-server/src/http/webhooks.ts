// The owner's calls for a board's webhooks (docs/api.md §15): create (the secret is answered here
// only), list, delete, and each webhook's last deliveries. A URL that is not https to a public
// address (unless WEBHOOK_ALLOW_PRIVATE) is a 422 naming the field, like any invalid body.
import { CreateWebhookBody, ErrorCode, webhookLimits } from '@tandem/shared';
import { UnsafeUrlError } from '../webhooks/addresses.ts';
import { TooManyWebhooksError } from '../webhooks/webhooks.ts';
import { requireRole } from './access.ts';
import type { ResourcePlugin } from './deps.ts';
import { ApiError, notFound } from './errors.ts';
import { parseBody, signedIn } from './request.ts';

type BoardParams = { Params: { id: string } };
type WebhookParams = { Params: { id: string; webhookId: string } };

const invalidUrl = (sentence: string) =>
  new ApiError(ErrorCode.VALIDATION, 'Some fields need attention.', { url: sentence });

export const webhookRoutes: ResourcePlugin = async (app, { store, webhooks }) => {
  app.post<BoardParams>('/api/boards/:id/webhooks', async (request, reply) => {
    const me = signedIn(request);
    const { board } = await requireRole(store, request.params.id, me.id, 'owner');
    const body = parseBody(CreateWebhookBody, request.body);
    try {
      return reply.code(201).send(await webhooks.create(board.id, me.id, body));
    } catch (error) {
      if (error instanceof UnsafeUrlError) throw invalidUrl(error.message);
      if (error instanceof TooManyWebhooksError) {
        throw invalidUrl(`A board can have at most ${webhookLimits.perBoard} webhooks; delete one first.`);
      }
      throw error;
    }
  });

  app.get<BoardParams>('/api/boards/:id/webhooks', async (request) => {
    const { board } = await requireRole(store, request.params.id, signedIn(request).id, 'owner');
    return { webhooks: await webhooks.list(board.id) };
  });

  app.delete<WebhookParams>('/api/boards/:id/webhooks/:webhookId', async (request, reply) => {
    const { board } = await requireRole(store, request.params.id, signedIn(request).id, 'owner');
    const id = request.params.webhookId;
    if (id.length > 64 || !(await webhooks.delete(board.id, id))) throw notFound('webhook');
    return reply.code(204).send();
  });

  app.get<WebhookParams>('/api/boards/:id/webhooks/:webhookId/deliveries', async (request) => {
    const { board } = await requireRole(store, request.params.id, signedIn(request).id, 'owner');
    const id = request.params.webhookId;
    const deliveries = id.length > 64 ? null : await webhooks.deliveries(board.id, id);
    if (!deliveries) throw notFound('webhook');
    return { deliveries };
  });
};
