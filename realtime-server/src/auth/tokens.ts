// Secrets handed to clients: session ids (stored only as their hash) and signed, board-scoped
// access tokens for non-browser Yjs clients.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  BOARD_ID_LENGTH,
  INTEGRATION_KEY_PREFIX,
  LINK_TOKEN_LENGTH,
  ROLES_BY_RANK,
  type Role,
} from '@tandem/shared';

export const randomId = (bytes: number): string => randomBytes(bytes).toString('base64url');
/** 21 base64url characters: 126 random bits. */
export const newBoardId = (): string => randomId(16).slice(0, BOARD_ID_LENGTH);
export const newLinkToken = (): string => randomId(24).slice(0, LINK_TOKEN_LENGTH);
export const newUserId = (): string => randomId(16);
/** 256 random bits (docs/api.md §3). */
export const newSessionId = (): string => randomId(32);
export const hashSessionId = (id: string): string => createHash('sha256').update(id).digest('base64url');

export interface AccessClaims {
  boardId: string;
  userId: string;
  role: Role;
  /** Expiry, ms since the epoch. */
  expiresAt: number;
}

export function signAccessToken(secret: string, claims: AccessClaims): string {
  const payload = Buffer.from(
    JSON.stringify([claims.boardId, claims.userId, claims.role, claims.expiresAt]),
  ).toString('base64url');
  const signature = createHmac('sha256', secret).update(payload).digest('base64url');
  return `${payload}.${signature}`;
}

export type TokenCheck = { ok: true; claims: AccessClaims } | { ok: false; reason: 'invalid' | 'expired' };

export function verifyAccessToken(secret: string, token: string, now = Date.now()): TokenCheck {
  const dot = token.indexOf('.');
  if (dot <= 0 || token.length > 1024) return { ok: false, reason: 'invalid' };
  const payload = token.slice(0, dot);
  const expected = createHmac('sha256', secret).update(payload).digest();
  const actual = Buffer.from(token.slice(dot + 1), 'base64url');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
    return { ok: false, reason: 'invalid' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) return { ok: false, reason: 'invalid' };
  const [boardId, userId, role, expiresAt] = parsed as unknown[];
  if (
    typeof boardId !== 'string' ||
    typeof userId !== 'string' ||
    !ROLES_BY_RANK.includes(role as Role) ||
    typeof expiresAt !== 'number'
  ) {
    return { ok: false, reason: 'invalid' };
  }
  if (expiresAt <= now) return { ok: false, reason: 'expired' };
  return { ok: true, claims: { boardId, userId, role: role as Role, expiresAt } };
}

/** An integration's key (docs/api.md §15): `tdm_` and 256 random bits. */
export const newIntegrationKey = (): string => `${INTEGRATION_KEY_PREFIX}${randomId(32)}`;
/** Keys carry 256 random bits, so a fast hash is enough: nobody can guess one from its hash. */
export const hashIntegrationKey = (key: string): string =>
  createHash('sha256').update(key).digest('base64url');
