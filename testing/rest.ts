// Assertions shared by the REST suites: SPEC §8's error body and §7's cookie.
import assert from 'node:assert/strict';
import type { ErrorBody, ErrorCode } from '@tandem/shared';
import type { ApiAnswer } from './clients.ts';

/** Asserts a catalogue error: status, `{error: {code, message}}`, and exactly `fields` when given. */
export function assertError(
  answer: ApiAnswer,
  status: number,
  code: ErrorCode,
  fields?: string[],
  what = '',
): ErrorBody['error'] {
  const label = `${what} ${JSON.stringify(answer.body)}`;
  assert.equal(answer.status, status, label);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/, label);
  const body = answer.body as ErrorBody;
  assert.equal(typeof body, 'object', label);
  assert.equal(body.error.code, code, label);
  assert.equal(typeof body.error.message, 'string', label);
  assert.ok(body.error.message.length > 0, label);
  assert.doesNotMatch(body.error.message, /\bat .+:\d+:\d+/, `no stack trace: ${label}`);
  if (fields) {
    assert.deepEqual(Object.keys(body.error.fields ?? {}).sort(), [...fields].sort(), label);
    for (const message of Object.values(body.error.fields ?? {})) {
      assert.equal(typeof message, 'string', label);
      assert.ok(message.length > 0, label);
    }
  }
  return body.error;
}

/** The attributes of the `tandem_session` Set-Cookie line, lower-cased names. */
export function sessionCookie(answer: ApiAnswer): { value: string; attributes: Map<string, string> } | null {
  const line = answer.headers.getSetCookie().find((l) => l.startsWith('tandem_session='));
  if (!line) return null;
  const [pair = '', ...rest] = line.split(';');
  const attributes = new Map<string, string>();
  for (const part of rest) {
    const [name = '', ...value] = part.trim().split('=');
    attributes.set(name.toLowerCase(), value.join('='));
  }
  return { value: pair.slice('tandem_session='.length), attributes };
}

/** A session cookie as a browser would set it: httpOnly, SameSite=Lax, Path=/. */
export function assertSessionCookie(answer: ApiAnswer): string {
  const cookie = sessionCookie(answer);
  assert.ok(cookie, `a tandem_session cookie is set: ${answer.headers.getSetCookie().join(' | ')}`);
  assert.ok(cookie.value.length >= 43, 'the session id carries at least 256 bits');
  assert.ok(cookie.attributes.has('httponly'), 'HttpOnly');
  assert.equal(cookie.attributes.get('samesite')?.toLowerCase(), 'lax', 'SameSite=Lax');
  assert.equal(cookie.attributes.get('path'), '/', 'Path=/');
  assert.ok(!cookie.attributes.has('secure'), 'no Secure flag on an http PUBLIC_ORIGIN');
  return cookie.value;
}

export const isoDate = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
