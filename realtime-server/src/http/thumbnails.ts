// Board thumbnails, one fastify plugin: a client that edits the board PUTs a small
// picture of its content; members GET it for their dashboard cards. The bytes are never served
// as they came: sharp decodes them (PNG or WebP only, decided from the bytes) and writes a fresh
// WebP that fits thumbnailLimits, so nothing but pixels is kept, and the answer carries the same
// headers as board images (nosniff, a sandbox CSP) so it can never run as a page.
import { ErrorCode, thumbnailLimits, thumbnailSentences } from '@tandem/shared';
import { decoding, loadSharp } from '../assets/images.ts';
import { requireRole } from './access.ts';
import type { ResourcePlugin } from './deps.ts';
import { ApiError, notFound } from './errors.ts';
import { signedIn } from './request.ts';
import { toBoard } from './serialize.ts';

type Params = { Params: { id: string } };

const tooLarge = () => new ApiError(ErrorCode.PAYLOAD_TOO_LARGE, thumbnailSentences.tooLarge);
const unsupported = () => new ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, thumbnailSentences.unsupported);

/** 4096 × 4096: plenty for a thumbnail, and a decompression bomb is refused before decoding. */
const MAX_INPUT_PIXELS = 4096 * 4096;

/** Decodes an upload and re-encodes it as a WebP inside the thumbnail box; null when it is not a PNG or WebP. */
export function sanitizeThumbnail(
  bytes: Buffer,
): Promise<{ data: Buffer; width: number; height: number } | null> {
  // In the process's one queue of image work, like uploads (assets/images.ts).
  return decoding(() => decodeThumbnail(bytes));
}

async function decodeThumbnail(
  bytes: Buffer,
): Promise<{ data: Buffer; width: number; height: number } | null> {
  const sharp = await loadSharp();
  try {
    const meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (meta.format !== 'png' && meta.format !== 'webp') return null;
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
      .resize({
        width: thumbnailLimits.width,
        height: thumbnailLimits.height,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    // A header that parses but pixels that do not (truncated or crafted).
    return null;
  }
}

export const thumbnailRoutes: ResourcePlugin = async (app, { store, live }) => {
  // Any Content-Type: the bytes decide. Read as one buffer, at most thumbnailLimits.maxBytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: thumbnailLimits.maxBytes },
    (_request, body, done) => done(null, body),
  );
  app.addHook('onRequest', async (request) => {
    if (request.method !== 'PUT') return;
    if (!request.headers['content-type']) request.headers['content-type'] = 'application/octet-stream';
    // A declared size over the limit is refused before a byte is read.
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > thumbnailLimits.maxBytes) throw tooLarge();
  });

  app.put<Params>('/api/boards/:id/thumbnail', async (request) => {
    const me = signedIn(request);
    // Rendering the board is editing it: owners and editors, like every other content change.
    const { board } = await requireRole(store, request.params.id, me.id, 'editor');
    const body = request.body;
    if (!Buffer.isBuffer(body) || body.length === 0) throw unsupported();
    const clean = await sanitizeThumbnail(body);
    if (!clean) throw unsupported();
    const at = new Date();
    const stored = await store.putThumbnail({ boardId: board.id, mime: 'image/webp', ...clean }, at);
    if (!stored) throw notFound();
    const thumbnailAt = at.toISOString();
    live.boardChanged({ ...toBoard(board), thumbnailAt });
    return { thumbnailAt, width: clean.width, height: clean.height };
  });

  app.get<Params>('/api/boards/:id/thumbnail', async (request, reply) => {
    const me = signedIn(request);
    const { board } = await requireRole(store, request.params.id, me.id, 'viewer');
    const t = await store.getThumbnail(board.id);
    if (!t) throw notFound('thumbnail');
    const etag = `"${t.updatedAt.getTime().toString(36)}"`;
    reply.headers({
      'Content-Type': t.mime,
      // Each stored picture has its own URL (?v=thumbnailAt); revalidating is cheap either way.
      'Cache-Control': 'private, no-cache',
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': 'sandbox',
      'Cross-Origin-Resource-Policy': 'same-origin',
    });
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  });
};
