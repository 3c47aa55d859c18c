// The REST API of SPEC §7. Bodies are validated with the shared schemas; every failure is an
// ApiError, turned into the catalogue's JSON by the app's one error handler.
import {
  BoardTitleBody,
  colorNames,
  colors,
  ErrorCode,
  exportBoard,
  fieldMessages,
  GuestBody,
  isLinkToken,
  LinkBody,
  LoginBody,
  limits,
  MemberRoleBody,
  type Role,
  SignupBody,
  userIdPattern,
} from '@tandem/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as Y from 'yjs';
import type { z } from 'zod';
import { decoyHash, hashPassword, verifyPassword } from '../auth/passwords.ts';
import { WindowLimiter } from '../auth/rateLimit.ts';
import { SESSION_COOKIE, type Sessions } from '../auth/sessions.ts';
import { newBoardId, newLinkToken, newUserId, signAccessToken } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Rooms } from '../docs/rooms.ts';
import { EmailTakenError, type Store, type UserRow } from '../store/store.ts';
import type { LiveEvents } from '../workspace/live.ts';
import { requireRole } from './access.ts';
import { ApiError, authRequired, notFound } from './errors.ts';
import { toBoard, toLink, toUser } from './serialize.ts';

export interface RouteDeps {
  config: Config;
  store: Store;
  sessions: Sessions;
  rooms: Rooms;
  live: LiveEvents;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRow | null;
  }
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(ErrorCode.BAD_REQUEST, 'Send a JSON object in the request body.');
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new ApiError(ErrorCode.VALIDATION, 'Some fields need attention.', fieldMessages(result.error));
  }
  return result.data;
}

const randomColor = (): string => colors[colorNames[Math.floor(Math.random() * colorNames.length)]!];

export function registerRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { config, store, sessions, rooms, live } = deps;
  const loginByEmail = new WindowLimiter(config.loginAttemptsPerMinute, 60_000);
  const loginByIp = new WindowLimiter(config.loginAttemptsPerMinute, 60_000);
  const signupByIp = new WindowLimiter(config.signupsPerMinute, 60_000);

  const user = (request: FastifyRequest): UserRow => {
    if (!request.user) throw authRequired();
    return request.user;
  };

  async function startSession(reply: FastifyReply, userId: string): Promise<void> {
    const id = await sessions.create(userId);
    reply.setCookie(SESSION_COOKIE, id, sessions.cookieOptions(config.secureCookies));
  }

  function limit(limiter: WindowLimiter, key: string, reply: FastifyReply): void {
    const retryAfter = limiter.hit(key);
    if (retryAfter > 0) {
      reply.header('Retry-After', String(retryAfter));
      throw new ApiError(ErrorCode.RATE_LIMITED, `Too many attempts. Try again in ${retryAfter} seconds.`);
    }
  }

  app.post('/api/auth/signup', async (request, reply) => {
    limit(signupByIp, request.ip, reply);
    const body = parse(SignupBody, request.body);
    let created: UserRow;
    try {
      created = await store.createUser({
        id: newUserId(),
        name: body.name,
        email: body.email,
        passwordHash: await hashPassword(body.password),
        color: randomColor(),
        isGuest: false,
      });
    } catch (error) {
      if (error instanceof EmailTakenError) {
        throw new ApiError(
          ErrorCode.EMAIL_TAKEN,
          'An account with this email already exists. Sign in instead.',
          {
            email: 'This email is already in use.',
          },
        );
      }
      throw error;
    }
    await startSession(reply, created.id);
    return reply.code(201).send({ user: toUser(created) });
  });

  app.post('/api/auth/login', async (request, reply) => {
    const body = parse(LoginBody, request.body);
    limit(loginByIp, request.ip, reply);
    limit(loginByEmail, body.email, reply);
    const found = await store.getUserByEmail(body.email);
    // Same work and the same answer for an unknown email and a wrong password.
    const ok = await verifyPassword(body.password, found?.passwordHash ?? (await decoyHash));
    if (!found?.passwordHash || !ok) {
      throw new ApiError(ErrorCode.BAD_CREDENTIALS, 'That email and password do not match an account.');
    }
    await startSession(reply, found.id);
    return { user: toUser(found) };
  });

  app.post('/api/auth/guest', async (request, reply) => {
    limit(signupByIp, request.ip, reply);
    const body = parse(GuestBody, request.body);
    const created = await store.createUser({
      id: newUserId(),
      name: body.name,
      email: null,
      passwordHash: null,
      color: randomColor(),
      isGuest: true,
    });
    await startSession(reply, created.id);
    return reply.code(201).send({ user: toUser(created) });
  });

  app.post('/api/auth/logout', async (request, reply) => {
    await sessions.destroy(request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.code(204).send();
  });

  app.get('/api/me', async (request) => ({ user: toUser(user(request)) }));

  app.get('/api/boards', async (request) => ({ boards: await store.listBoards(user(request).id) }));

  app.post('/api/boards', async (request, reply) => {
    const me = user(request);
    const body = parse(BoardTitleBody, request.body);
    const board = await store.createBoard({ id: newBoardId(), title: body.title, ownerId: me.id });
    live.membershipAdded(board.id, me.id);
    live.boardChanged(toBoard(board));
    return reply.code(201).send({ board: toBoard(board) });
  });

  app.get<{ Params: { id: string } }>('/api/boards/:id', async (request) => {
    const { board, role } = await requireRole(store, request.params.id, user(request).id, 'viewer');
    return { board: toBoard(board), role };
  });

  app.patch<{ Params: { id: string } }>('/api/boards/:id', async (request) => {
    const me = user(request);
    await requireRole(store, request.params.id, me.id, 'editor');
    const body = parse(BoardTitleBody, request.body);
    const board = await store.renameBoard(request.params.id, body.title);
    if (!board) throw notFound();
    live.boardChanged(toBoard(board));
    return { board: toBoard(board) };
  });

  app.delete<{ Params: { id: string } }>('/api/boards/:id', async (request, reply) => {
    const { board } = await requireRole(store, request.params.id, user(request).id, 'owner');
    const members = await store.listMembers(board.id);
    await store.deleteBoard(board.id);
    live.boardRemoved(
      board.id,
      members.map((m) => m.userId),
    );
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string } }>('/api/boards/:id/members', async (request) => {
    const { board } = await requireRole(store, request.params.id, user(request).id, 'owner');
    return { members: await store.listMembers(board.id) };
  });

  const memberTarget = async (request: FastifyRequest<{ Params: { id: string; userId: string } }>) => {
    const { board } = await requireRole(store, request.params.id, user(request).id, 'owner');
    const target = request.params.userId;
    if (!userIdPattern.test(target)) throw notFound('member');
    if (target === board.ownerId) {
      throw new ApiError(ErrorCode.FORBIDDEN, 'The owner’s role cannot be changed or removed.');
    }
    return { board, target };
  };

  app.patch<{ Params: { id: string; userId: string } }>(
    '/api/boards/:id/members/:userId',
    async (request) => {
      const { board, target } = await memberTarget(request);
      const body = parse(MemberRoleBody, request.body);
      if (body.role === 'owner') {
        throw new ApiError(ErrorCode.VALIDATION, 'A board has one owner.', {
          role: 'Choose editor or viewer.',
        });
      }
      if (!(await store.setRole(board.id, target, body.role))) throw notFound('member');
      live.accessChanged(board.id, target, body.role);
      live.membersChanged(board.id);
      return { members: await store.listMembers(board.id) };
    },
  );

  app.delete<{ Params: { id: string; userId: string } }>(
    '/api/boards/:id/members/:userId',
    async (request, reply) => {
      const { board, target } = await memberTarget(request);
      if (!(await store.removeMember(board.id, target))) throw notFound('member');
      live.accessChanged(board.id, target, null);
      live.membersChanged(board.id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: { id: string } }>('/api/boards/:id/links', async (request, reply) => {
    const me = user(request);
    const { board } = await requireRole(store, request.params.id, me.id, 'owner');
    const body = parse(LinkBody, request.body);
    const link = await store.createLink({
      token: newLinkToken(),
      boardId: board.id,
      role: body.role,
      createdBy: me.id,
    });
    return reply.code(201).send({ link: toLink(link, config.publicOrigin) });
  });

  app.get<{ Params: { id: string } }>('/api/boards/:id/links', async (request) => {
    const { board } = await requireRole(store, request.params.id, user(request).id, 'owner');
    const links = await store.listLinks(board.id);
    return { links: links.map((link) => toLink(link, config.publicOrigin)) };
  });

  app.delete<{ Params: { id: string; token: string } }>(
    '/api/boards/:id/links/:token',
    async (request, reply) => {
      const { board } = await requireRole(store, request.params.id, user(request).id, 'owner');
      if (!isLinkToken(request.params.token) || !(await store.revokeLink(board.id, request.params.token))) {
        throw notFound('link');
      }
      return reply.code(204).send();
    },
  );

  app.post<{ Params: { token: string } }>('/api/join/:token', async (request) => {
    const me = user(request);
    const { token } = request.params;
    const link = isLinkToken(token) ? await store.getLink(token) : null;
    if (!link || link.revokedAt) throw notFound('link');
    const board = await store.getBoard(link.boardId);
    if (!board) throw notFound('link');
    const before = await store.getRole(board.id, me.id);
    const role: Role = await store.grantAtLeast(board.id, me.id, link.role);
    if (before !== role) {
      if (before === null) live.membershipAdded(board.id, me.id);
      else live.accessChanged(board.id, me.id, role);
      live.membersChanged(board.id);
    }
    return { boardId: board.id, role };
  });

  app.post<{ Params: { id: string } }>('/api/boards/:id/token', async (request) => {
    const me = user(request);
    const { board, role } = await requireRole(store, request.params.id, me.id, 'viewer');
    const expiresAt = Date.now() + limits.accessTokenMinutes * 60_000;
    const token = signAccessToken(config.secret, { boardId: board.id, userId: me.id, role, expiresAt });
    return { token, expiresAt: new Date(expiresAt).toISOString() };
  });

  app.get<{ Params: { id: string } }>('/api/boards/:id/export.json', async (request, reply) => {
    const { board } = await requireRole(store, request.params.id, user(request).id, 'viewer');
    const open = rooms.get(board.id);
    let doc = open?.doc;
    if (!doc) {
      const stored = await store.loadDoc(board.id);
      doc = new Y.Doc();
      for (const part of stored.snapshot ? [stored.snapshot, ...stored.updates] : stored.updates) {
        Y.applyUpdate(doc, part);
      }
    }
    const { board: exported, invalid } = exportBoard(doc);
    if (invalid.length > 0)
      request.log.warn({ boardId: board.id, invalid }, 'shape records failed the schema');
    if (!open) doc.destroy();
    const filename = board.title.replace(/[^\w -]+/g, '').trim() || 'board';
    reply.header('Content-Disposition', `attachment; filename="${filename}.json"`);
    return exported;
  });
}
