// Cookie sessions: a random id in an httpOnly cookie, only its hash in the store, 30 days sliding.
import { limits } from '@tandem/shared';
import type { Store, UserRow } from '../store/store.ts';
import { hashSessionId, newSessionId } from './tokens.ts';

export const SESSION_COOKIE = 'tandem_session';
const DAY = 24 * 60 * 60 * 1000;
const SESSION_MS = limits.sessionDays * DAY;

export class Sessions {
  constructor(private readonly store: Store) {}

  /** Starts a session and returns the cookie value. */
  async create(userId: string, now = new Date()): Promise<string> {
    const id = newSessionId();
    await this.store.createSession({
      idHash: hashSessionId(id),
      userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SESSION_MS),
    });
    return id;
  }

  /** The signed-in user, or null; slides the expiry at most once a day to keep writes rare. */
  async resolve(cookie: string | undefined, now = new Date()): Promise<UserRow | null> {
    if (!cookie || cookie.length > 100) return null;
    const idHash = hashSessionId(cookie);
    const session = await this.store.getSession(idHash);
    if (!session || session.expiresAt <= now) return null;
    const user = await this.store.getUser(session.userId);
    if (!user) return null;
    if (session.expiresAt.getTime() - now.getTime() < SESSION_MS - DAY) {
      await this.store.extendSession(idHash, new Date(now.getTime() + SESSION_MS));
    }
    return user;
  }

  async destroy(cookie: string | undefined): Promise<void> {
    if (cookie && cookie.length <= 100) await this.store.deleteSession(hashSessionId(cookie));
  }

  cookieOptions(secure: boolean) {
    return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/', maxAge: SESSION_MS / 1000 };
  }
}

/** Reads one cookie from a raw Cookie header (websocket upgrades and socket.io handshakes). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
