// Shared by the REST suites: docs/api.md §8's error body and §7's cookie, the people around one board, and
// raw bytes sent as a browser's fetch sends them.
import assert from 'node:assert/strict';
import { type AssetAnswer, apiPaths, type ErrorBody, type ErrorCode } from '@tandem/shared';
import { type ApiAnswer, ApiClient } from './clients.ts';

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

/**
 * The people the REST suites ask about one board: its owner, who shares it with an editor and a
 * viewer, and a stranger who is none of these.
 */
export async function boardAndPeople(baseUrl: string, title: string) {
  const client = () => new ApiClient(baseUrl);
  const owner = await client().signup('Olivia Owner');
  const editor = await client().signup('Eddie Editor');
  const viewer = await client().signup('Vera Viewer');
  const stranger = await client().signup('Stan Stranger');
  const boardId = await owner.createBoard(title);
  await owner.share(boardId, editor, 'editor');
  await owner.share(boardId, viewer, 'viewer');
  return { owner, editor, viewer, stranger, boardId };
}

/**
 * Sends raw bytes (an upload, not JSON) as a browser's fetch would: the cookie, the Origin and the
 * declared type. Answers the status, the JSON body (null when empty) and the headers.
 */
export async function sendBytes<T>(
  who: ApiClient,
  method: 'POST' | 'PUT',
  path: string,
  body: Uint8Array | ReadableStream<Uint8Array>,
  contentType: string,
): Promise<ApiAnswer<T>> {
  const response = await fetch(`${who.baseUrl}${path}`, {
    method,
    headers: {
      'content-type': contentType,
      origin: who.origin,
      ...(who.cookie ? { cookie: who.cookie } : {}),
    },
    body,
    // A stream is sent as it is read, which fetch allows only half-duplex.
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

/** Uploads an image (or any bytes) to a board, as the editor's upload does (docs/api.md §11). */
export const uploadAsset = (
  who: ApiClient,
  boardId: string,
  body: Uint8Array | ReadableStream<Uint8Array>,
  contentType: string,
): Promise<ApiAnswer<AssetAnswer>> =>
  sendBytes<AssetAnswer>(who, 'POST', apiPaths.boardAssets(boardId), body, contentType);
