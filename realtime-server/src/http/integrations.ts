// The owner's calls for a board's integrations (docs/api.md §15): create (the key is answered
// here only), list, revoke. Revoking reaches every instance at once, the way removing a member does.
import { CreateIntegrationBody, ErrorCode } from '@tandem/shared';
import * as Y from 'yjs';
import { requireRole } from './access.ts';
import type { ResourcePlugin } from './deps.ts';
import { ApiError, notFound } from './errors.ts';
import { parseBody, signedIn } from './request.ts';

type BoardParams = { Params: { id: string } };
type IntegrationParams = { Params: { id: string; integrationId: string } };

export const integrationRoutes: ResourcePlugin = async (app, { store, integrations, webhooks }) => {
  app.post<BoardParams>('/api/boards/:id/integrations', async (request, reply) => {
    const me = signedIn(request);
    const { board } = await requireRole(store, request.params.id, me.id, 'owner');
    const body = parseBody(CreateIntegrationBody, request.body);
    if (body.frameId !== undefined) {
      const frameId = body.frameId;
      const isFrame = await integrations.read(board.id, (doc) => {
        const shape = doc.getMap('shapes').get(frameId);
        return shape instanceof Y.Map && shape.get('type') === 'frame';
      });
      if (!isFrame) {
        throw new ApiError(ErrorCode.VALIDATION, 'Some fields need attention.', {
          frameId: 'No such frame on this board.',
        });
      }
    }
    const created = await integrations.create(board.id, me.id, body);
    // An integration is a member-like identity (docs/api.md §15): its arrival is a member's.
    const { userId, name, role } = created.integration;
    webhooks.emit(board.id, 'member.added', { userId, name, role, isBot: true });
    return reply.code(201).send(created);
  });

  app.get<BoardParams>('/api/boards/:id/integrations', async (request) => {
    const { board } = await requireRole(store, request.params.id, signedIn(request).id, 'owner');
    return { integrations: await integrations.list(board.id) };
  });

  app.delete<IntegrationParams>('/api/boards/:id/integrations/:integrationId', async (request, reply) => {
    const { board } = await requireRole(store, request.params.id, signedIn(request).id, 'owner');
    const id = request.params.integrationId;
    const revoked = id.length > 64 ? null : (await integrations.list(board.id)).find((i) => i.id === id);
    if (!revoked || !(await integrations.revoke(board.id, id))) throw notFound('integration');
    webhooks.emit(board.id, 'member.removed', {
      userId: revoked.userId,
      removedBy: signedIn(request).id,
      isBot: true,
    });
    return reply.code(204).send();
  });
};
