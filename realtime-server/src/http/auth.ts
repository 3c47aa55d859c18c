// Accounts and sessions (docs/api.md §7): sign-up, sign-in, guests, sign-out and who am I.
import {
  ColorBody,
  colorNames,
  colors,
  ErrorCode,
  GuestBody,
  LoginBody,
  SignupBody,
  UpgradeBody,
} from '@tandem/shared';
import type { FastifyReply } from 'fastify';
import { decoyHash, hashPassword, verifyPassword } from '../auth/passwords.ts';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import { hashSessionId, newUserId } from '../auth/tokens.ts';
import { EmailTakenError, type UserRow } from '../store/store.ts';
import type { ResourcePlugin } from './deps.ts';
import { ApiError } from './errors.ts';
import { parseBody, rateLimit, signedIn } from './request.ts';
import { toUser } from './serialize.ts';

const randomColor = (): string => colors[colorNames[Math.floor(Math.random() * colorNames.length)]!];

export const authRoutes: ResourcePlugin = async (app, { config, store, sessions, live, limits }) => {
  const { loginByEmail, loginByIp, signupByIp } = limits;

  async function startSession(reply: FastifyReply, userId: string): Promise<void> {
    const id = await sessions.create(userId);
    reply.setCookie(SESSION_COOKIE, id, sessions.cookieOptions(config.secureCookies));
  }

  app.post('/api/auth/signup', async (request, reply) => {
    await rateLimit(signupByIp, request.ip, reply);
    const body = parseBody(SignupBody, request.body);
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
    const body = parseBody(LoginBody, request.body);
    await rateLimit(loginByIp, request.ip, reply);
    await rateLimit(loginByEmail, body.email, reply);
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
    await rateLimit(signupByIp, request.ip, reply);
    const body = parseBody(GuestBody, request.body);
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

  // A guest keeps their id, so every board and membership stays theirs; a fresh session replaces
  // the guest one, so the new credentials are what signs them in from now on.
  app.post('/api/auth/upgrade', async (request, reply) => {
    const me = signedIn(request);
    await rateLimit(signupByIp, request.ip, reply);
    const body = parseBody(UpgradeBody, request.body);
    if (!me.isGuest) throw new ApiError(ErrorCode.CONFLICT, 'This is already a full account.');
    let upgraded: UserRow | null;
    try {
      upgraded = await store.upgradeGuest(me.id, {
        name: body.name ?? me.name,
        email: body.email,
        passwordHash: await hashPassword(body.password),
      });
    } catch (error) {
      if (error instanceof EmailTakenError) {
        throw new ApiError(
          ErrorCode.EMAIL_TAKEN,
          'An account with this email already exists. Sign in instead.',
          { email: 'This email is already in use.' },
        );
      }
      throw error;
    }
    if (!upgraded) throw new ApiError(ErrorCode.CONFLICT, 'This is already a full account.');
    await sessions.destroy(request.cookies[SESSION_COOKIE]);
    await startSession(reply, upgraded.id);
    return { user: toUser(upgraded) };
  });

  app.post('/api/auth/logout', async (request, reply) => {
    const cookie = request.cookies[SESSION_COOKIE];
    await sessions.destroy(cookie);
    // Instances that miss this (Redis down) notice at their next access check.
    if (cookie) live.sessionEnded(hashSessionId(cookie));
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.code(204).send();
  });

  app.get('/api/me', async (request) => ({ user: toUser(signedIn(request)) }));
  // Who is signed in, for anyone: the client's probe on load. A signed-out visitor gets 200
  // {user: null}, not /api/me's 401, which the browser logs as a console error on the sign-in page.
  app.get('/api/auth/session', async (request) => ({ user: request.user ? toUser(request.user) : null }));

  // The colour this person shows on boards (docs/api.md §7): kept on the account, used the next
  // time they open a board unless someone there shows it already; an open board takes it live
  // through presence (the client sends it in its state).
  app.put('/api/me/color', async (request) => {
    const me = signedIn(request);
    const { color } = parseBody(ColorBody, request.body);
    const user = await store.setUserColor(me.id, color);
    if (!user) throw new ApiError(ErrorCode.NOT_FOUND, 'No such account.');
    return { user: toUser(user) };
  });
};
