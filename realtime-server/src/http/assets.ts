// Board images over REST (docs/api.md §13), one fastify plugin: upload (owners and editors) and serving
// (members, by session cookie or `?token=`; an anonymous viewer's token while its public link is
// active, docs/api.md §16). The upload body is streamed to a temporary file and
// cut off as soon as it passes MAX_ASSET_BYTES; the image is then read from that file by sharp,
// whose verdict on the bytes (not the declared Content-Type) decides whether it is stored.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type AssetAnswer,
  assetDefaults,
  assetSentences,
  assetUrl,
  ErrorCode,
  isAssetId,
  isBoardId,
  renditionWidths,
} from '@tandem/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { processUpload } from '../assets/images.ts';
import { keptRendition } from '../assets/renditions.ts';
import type { AssetMeta, AssetStore } from '../assets/store.ts';
import { membershipOf } from '../auth/access.ts';
import { verifyAccessToken } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Store } from '../store/store.ts';
import { requireRole } from './access.ts';
import { ApiError, authRequired, notFound } from './errors.ts';

export interface AssetRouteDeps {
  config: Config;
  store: Store;
  assets: AssetStore;
}

type Params = { id: string; assetId: string };

/** Thrown by the byte counter when an upload passes the limit. */
class TooLarge extends Error {}

function byteLimit(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > max) callback(new TooLarge());
      else callback(null, chunk);
    },
  });
}

/**
 * Writes the body to `file`, refusing it once it passes the limit. The rest of a refused body is
 * read and dropped rather than the socket destroyed, so the client gets the 413 instead of a
 * reset (the request timeout bounds how long that can go on).
 */
async function receive(body: Readable, file: string, max: number): Promise<void> {
  const limit = byteLimit(max);
  // pipe() does not end `limit` when the request is destroyed before its end (the client closed
  // the connection, or the request timeout cut it off): the write below would then never settle,
  // keeping its descriptor and the half-written file for the life of the process.
  const unwatch = finished(body, (error) => {
    if (error) limit.destroy(error);
  });
  body.pipe(limit);
  try {
    await pipeline(limit, createWriteStream(file));
  } catch (error) {
    body.unpipe(limit);
    body.resume();
    if (error instanceof TooLarge) throw tooLarge(max);
    // The client went away (or was cut off): its own doing, not the server's, so no 500 is logged.
    if (body.destroyed && !body.readableEnded) {
      throw new ApiError(ErrorCode.BAD_REQUEST, assetSentences.incomplete);
    }
    throw error;
  } finally {
    unwatch();
  }
}

const tooLarge = (max: number) => new ApiError(ErrorCode.PAYLOAD_TOO_LARGE, assetSentences.tooLarge(max));
const boardFull = (max: number) => new ApiError(ErrorCode.PAYLOAD_TOO_LARGE, assetSentences.boardFull(max));
const imageNotFound = () => notFound('image');

/** The headers that keep an image from ever running as a page (docs/api.md §13). */
function imageHeaders(mime: string, bytes: number, etag: string): Record<string, string> {
  return {
    'Content-Type': mime,
    'Content-Length': String(bytes),
    'Cache-Control': 'private, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': 'sandbox',
    'Cross-Origin-Resource-Policy': 'same-origin',
    ETag: `"${etag}"`,
  };
}

export async function assetRoutes(app: FastifyInstance, deps: AssetRouteDeps): Promise<void> {
  const { config, store, assets } = deps;
  const uploads = await mkdtemp(join(tmpdir(), 'tandem-uploads-'));
  app.addHook('onClose', async () => {
    await rm(uploads, { recursive: true, force: true });
  });

  // Any Content-Type: the body reaches the handler as the raw stream, unread, so the role is
  // checked before a byte is stored and the limit is enforced while the bytes arrive.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  // fastify refuses a body with no (or an empty) Content-Type before any parser runs; here the
  // declared type means nothing, so one is filled in.
  app.addHook('onRequest', async (request) => {
    if (!request.headers['content-type']) request.headers['content-type'] = 'application/octet-stream';
  });

  /**
   * The board, when the caller (a session, or an access token for this board) is a member. One
   * rule with the document connections (auth/access.ts membershipOf): an anonymous viewer's token
   * counts while its public link is active, so the live public view draws the board's images.
   */
  async function memberBoard(
    request: FastifyRequest<{ Params: Params; Querystring: { token?: string } }>,
  ): Promise<string> {
    const boardId = request.params.id;
    const token = request.query.token;
    let userId: string;
    if (typeof token === 'string' && token !== '') {
      const check = verifyAccessToken(config.secret, token);
      if (!check.ok) throw authRequired();
      if (check.claims.boardId !== boardId) throw imageNotFound();
      userId = check.claims.userId;
    } else if (request.user) {
      userId = request.user.id;
    } else {
      throw authRequired();
    }
    if (!isBoardId(boardId)) throw imageNotFound();
    // A token is honoured only while its user is still a member (or its public link still active).
    const [board, role] = await Promise.all([store.getBoard(boardId), membershipOf(store, boardId, userId)]);
    if (!board || !role) throw imageNotFound();
    return boardId;
  }

  /** Uploads running now, by user id. */
  const uploading = new Map<string, number>();

  app.post<{ Params: { id: string } }>('/api/boards/:id/assets', async (request, reply) => {
    if (!request.user) throw authRequired();
    const { board } = await requireRole(store, request.params.id, request.user.id, 'editor');
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > config.maxAssetBytes) throw tooLarge(config.maxAssetBytes);
    if ((await assets.boardBytes(board.id)) >= config.maxBoardAssetBytes) {
      throw boardFull(config.maxBoardAssetBytes);
    }
    // Uploads running for this user, image work included: each holds a descriptor, a temporary
    // file and a place in the process's queue of image work, so one user cannot take them all.
    const running = uploading.get(request.user.id) ?? 0;
    if (running >= config.maxUploadsPerUser) {
      const seconds = assetDefaults.uploadRetryAfterSeconds;
      reply.header('Retry-After', String(seconds));
      throw new ApiError(ErrorCode.RATE_LIMITED, assetSentences.busy(running, seconds));
    }
    const userId = request.user.id;
    uploading.set(userId, running + 1);
    const file = join(uploads, randomBytes(12).toString('hex'));
    try {
      try {
        await receive(request.body as Readable, file, config.maxAssetBytes);
      } catch (error) {
        // This connection still has the rest of the refused body on it: do not reuse it.
        reply.header('Connection', 'close');
        throw error;
      }
      const image = await processUpload(file);
      if (!image.ok) throw new ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, assetSentences.unsupported);
      // Re-encoding can make an image larger than what was sent.
      if (image.data.byteLength > config.maxAssetBytes) throw tooLarge(config.maxAssetBytes);
      const id = createHash('sha256').update(image.data).digest('hex');
      const put = await assets.put(
        { boardId: board.id, id, mime: image.mime, width: image.width, height: image.height, bytes: 0 },
        image.data,
        config.maxBoardAssetBytes,
      );
      if (!put.ok) throw boardFull(config.maxBoardAssetBytes);
      const answer: AssetAnswer = { asset: toAsset(put.meta) };
      return reply.code(201).send(answer);
    } finally {
      const left = (uploading.get(userId) ?? 1) - 1;
      if (left > 0) uploading.set(userId, left);
      else uploading.delete(userId);
      await rm(file, { force: true });
    }
  });

  app.get<{ Params: Params; Querystring: { token?: string; w?: string } }>(
    '/api/boards/:id/assets/:assetId',
    async (request, reply) => {
      const boardId = await memberBoard(request);
      return sendAsset(assets, reply, boardId, request.params.assetId, request.query.w);
    },
  );
}

/**
 * Answers one of the board's images at the rendition `?w=` asks for (docs/api.md §13), once the
 * caller's right to the board is settled: a member's here, a public link's in http/public.ts.
 */
export async function sendAsset(
  assets: AssetStore,
  reply: FastifyReply,
  boardId: string,
  assetId: string,
  rawWidth: string | undefined,
): Promise<FastifyReply> {
  if (!isAssetId(assetId)) throw imageNotFound();
  const meta = await assets.head(boardId, assetId);
  if (!meta) throw imageNotFound();
  const width = renditionWidth(rawWidth, meta.width);
  if (width !== null) {
    const rendition = await keptRendition(assets, boardId, assetId, width);
    if (!rendition) throw imageNotFound();
    reply.headers(imageHeaders(rendition.mime, rendition.data.byteLength, `${assetId}-w${width}`));
    return reply.send(Buffer.from(rendition.data));
  }
  const asset = await assets.get(boardId, assetId);
  if (!asset) throw imageNotFound();
  reply.headers(imageHeaders(asset.meta.mime, asset.data.byteLength, assetId));
  return reply.send(Buffer.from(asset.data.buffer, asset.data.byteOffset, asset.data.byteLength));
}

/** `?w=` rounded up to a kept width, or null for the original (none asked, or not smaller). */
function renditionWidth(raw: string | undefined, imageWidth: number): number | null {
  if (raw === undefined || raw === '') return null;
  const asked = Number(raw);
  if (!Number.isInteger(asked) || asked < 1 || asked > 100_000) {
    throw new ApiError(ErrorCode.BAD_REQUEST, '`w` must be a width in pixels, a whole number.');
  }
  const width = renditionWidths.find((w) => w >= asked);
  return width === undefined || width >= imageWidth ? null : width;
}

export function toAsset(meta: AssetMeta) {
  return {
    id: meta.id,
    url: assetUrl(meta.boardId, meta.id),
    mime: meta.mime,
    width: meta.width,
    height: meta.height,
    bytes: meta.bytes,
  };
}
