// A board's members (docs/api.md §6, §7): the owner lists them, changes a role, or removes one. The
// change reaches the member's open sockets through `live` (their document closes with 4403).
import { ErrorCode, MemberRoleBody, userIdPattern } from '@tandem/shared';
import type { FastifyRequest } from 'fastify';
import { requireRole } from './access.ts';
import type { ResourcePlugin } from './deps.ts';
import { ApiError, notFound } from './errors.ts';
import { parseBody, signedIn } from './request.ts';

type MemberParams = { Params: { id: string; userId: string } };

export const memberRoutes: ResourcePlugin = async (app, { store, live, webhooks }) => {
  // Every member sees who else is on the board (the share dialog shows it read-only to editors
  // and viewers); only the owner sees other members' emails.
  app.get<{ Params: { id: string } }>('/api/boards/:id/members', async (request) => {
    const me = signedIn(request);
    const { board, role } = await requireRole(store, request.params.id, me.id, 'viewer');
    const members = await store.listMembers(board.id);
    return {
      members:
        role === 'owner' ? members : members.map((m) => (m.userId === me.id ? m : { ...m, email: null })),
    };
  });

  const memberTarget = async (request: FastifyRequest<MemberParams>) => {
    const { board } = await requireRole(store, request.params.id, signedIn(request).id, 'owner');
    const target = request.params.userId;
    if (!userIdPattern.test(target)) throw notFound('member');
    if (target === board.ownerId) {
      throw new ApiError(ErrorCode.FORBIDDEN, 'The owner’s role cannot be changed or removed.');
    }
    return { board, target };
  };

  app.patch<MemberParams>('/api/boards/:id/members/:userId', async (request) => {
    const { board, target } = await memberTarget(request);
    const body = parseBody(MemberRoleBody, request.body);
    if (body.role === 'owner') {
      throw new ApiError(ErrorCode.VALIDATION, 'A board has one owner.', {
        role: 'Choose editor or viewer.',
      });
    }
    if (!(await store.setRole(board.id, target, body.role))) throw notFound('member');
    live.accessChanged(board.id, target, body.role);
    live.membersChanged(board.id);
    return { members: await store.listMembers(board.id) };
  });

  app.delete<MemberParams>('/api/boards/:id/members/:userId', async (request, reply) => {
    const { board, target } = await memberTarget(request);
    if (!(await store.removeMember(board.id, target))) throw notFound('member');
    live.accessChanged(board.id, target, null);
    webhooks.emit(board.id, 'member.removed', { userId: target, removedBy: signedIn(request).id });
    live.membersChanged(board.id);
    return reply.code(204).send();
  });
};
