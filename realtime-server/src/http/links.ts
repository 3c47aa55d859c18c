// Share links (docs/api.md §6, §7): the owner creates, lists and revokes them; a signed-in person joins
// a board through one, never losing a role they already have.
import {
  isLinkToken,
  isPublicLinkRole,
  type JoinPreviewAnswer,
  LinkBody,
  publicViewerId,
  type Role,
} from '@tandem/shared';
import type { FastifyRequest } from 'fastify';
import { newLinkToken } from '../auth/tokens.ts';
import { requireRole } from './access.ts';
import type { ResourcePlugin } from './deps.ts';
import { notFound } from './errors.ts';
import { originRule } from './origin.ts';
import { parseBody, rateLimit, signedIn } from './request.ts';
import { toLink } from './serialize.ts';

export const linkRoutes: ResourcePlugin = async (app, { config, store, live, webhooks, limits }) => {
  // The invite preview answers anyone, so each client IP has a budget of lookups (as sign-in and
  // the public view have): a 404 for a guessed token counts like a hit, so guessing is bounded.
  const previewsByIp = limits.joinLookupsByIp;
  // A link handed to someone on the office network carries the address the owner is using.
  const origins = originRule(config);
  const linkOrigin = (request: FastifyRequest) =>
    origins.linkOrigin(request.headers.host, request.protocol === 'https' ? 'https' : 'http');

  app.post<{ Params: { id: string } }>('/api/boards/:id/links', async (request, reply) => {
    const me = signedIn(request);
    const { board } = await requireRole(store, request.params.id, me.id, 'owner');
    const body = parseBody(LinkBody, request.body);
    const link = await store.createLink({
      token: newLinkToken(),
      boardId: board.id,
      role: body.role,
      createdBy: me.id,
    });
    return reply.code(201).send({ link: toLink(link, linkOrigin(request)) });
  });

  app.get<{ Params: { id: string } }>('/api/boards/:id/links', async (request) => {
    const { board } = await requireRole(store, request.params.id, signedIn(request).id, 'owner');
    const links = await store.listLinks(board.id);
    return { links: links.map((link) => toLink(link, linkOrigin(request))) };
  });

  app.delete<{ Params: { id: string; token: string } }>(
    '/api/boards/:id/links/:token',
    async (request, reply) => {
      const { board } = await requireRole(store, request.params.id, signedIn(request).id, 'owner');
      const { token } = request.params;
      const link = isLinkToken(token) ? await store.getLink(token) : null;
      if (!link || !(await store.revokeLink(board.id, token))) throw notFound('link');
      // A public link's viewers are cut off like a removed member, on every instance at once
      // (the control message; the access re-check where the bus misses it): docs/api.md §16.
      if (isPublicLinkRole(link.role)) live.accessChanged(board.id, publicViewerId(token), null);
      return reply.code(204).send();
    },
  );

  // What a link leads to, for the page a signed-out visitor lands on ("You were invited to …").
  // No session needed: holding the link (192 random bits) is what lets one see the board's title.
  app.get<{ Params: { token: string } }>(
    '/api/join/:token',
    async (request, reply): Promise<JoinPreviewAnswer> => {
      await rateLimit(previewsByIp, request.ip, reply);
      const { token } = request.params;
      const link = isLinkToken(token) ? await store.getLink(token) : null;
      const board = link && !link.revokedAt ? await store.getBoard(link.boardId) : null;
      if (!link || !board) throw notFound('link');
      const [owner] = await store.userBadges([board.ownerId]);
      return { title: board.title, role: link.role, ownerName: owner?.name ?? '' };
    },
  );

  app.post<{ Params: { token: string } }>('/api/join/:token', async (request) => {
    const me = signedIn(request);
    const { token } = request.params;
    const link = isLinkToken(token) ? await store.getLink(token) : null;
    // A public link makes no membership: it is watched at /p/:token (docs/api.md §16).
    if (!link || link.revokedAt || isPublicLinkRole(link.role)) throw notFound('link');
    const board = await store.getBoard(link.boardId);
    if (!board) throw notFound('link');
    const before = await store.getRole(board.id, me.id);
    const role: Role = await store.grantAtLeast(board.id, me.id, link.role);
    if (before !== role) {
      if (before === null) {
        live.membershipAdded(board.id, me.id);
        webhooks.emit(board.id, 'member.added', { userId: me.id, name: me.name, role, isBot: false });
      } else live.accessChanged(board.id, me.id, role);
      live.membersChanged(board.id);
    }
    return { boardId: board.id, role };
  });
};
