// Public links (docs/api.md §16): what anyone holding a `public-viewer` link may do without an
// account. Get a read-only access token for the document channel, and fetch the board as an image
// (`board.svg`, `board.png`) drawn on the server by the renderer the client's export uses. Every
// answer reads the link first: a revoked link is a 404, at once, on every instance.
import {
  docKey,
  isAssetId,
  isLinkToken,
  isPageId,
  limits,
  MAIN_PAGE_ID,
  type PublicTokenAnswer,
  publicViewerId,
  renditionWidths,
} from '@tandem/shared';
import { fillImages } from '@tandem/shared/render/images.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decoding, loadSharp } from '../assets/images.ts';
import { keptRendition } from '../assets/renditions.ts';
import type { AssetStore } from '../assets/store.ts';
import { signAccessToken } from '../auth/tokens.ts';
import type { DrawnImage } from '../history/render.ts';
import type { BoardRow, Store } from '../store/store.ts';
import { partsOf } from '../store/store.ts';
import { sendAsset } from './assets.ts';
import type { ResourcePlugin } from './deps.ts';
import { notFound } from './errors.ts';
import { rateLimit } from './request.ts';

/** Bumped when the renderer's output changes, so a cached image is not kept past a release. */
const RENDER_VERSION = 2;
/** `?w=` bounds for board.png, in pixels; the default is the board's own width up to the max. */
const PNG_MIN_WIDTH = 16;
const PNG_MAX_WIDTH = 4096;

/** The board behind an active public link, or a 404 (revoked, unknown, not public, board gone). */
async function publicBoard(store: Store, token: string): Promise<BoardRow> {
  const link = isLinkToken(token) ? await store.getLink(token) : null;
  if (!link || link.revokedAt || link.role !== 'public-viewer') throw notFound('link');
  const board = await store.getBoard(link.boardId);
  if (!board) throw notFound('link');
  return board;
}

interface ImageQuery {
  frame?: string;
  page?: string;
  w?: string;
}

/**
 * The bytes of the images a drawing shows, as data URLs by asset id, for `fillImages`. Each image
 * is taken at the smallest kept rendition (made on first use) not narrower than it is drawn at
 * `scale`, or the original when that is no larger; in paint order, while the embedded bytes stay
 * within `maxBytes` (`limits.publicImageEmbedBytes`; an image past it stays a placeholder, and a
 * later, smaller one may still fit). For a PNG, WebP and GIF are handed to librsvg as PNG: it
 * draws only PNG and JPEG.
 */
export async function embeddedImages(
  assets: AssetStore,
  boardId: string,
  images: DrawnImage[],
  scale: number,
  kind: 'svg' | 'png',
  maxBytes: number = limits.publicImageEmbedBytes,
): Promise<Map<string, string>> {
  const hrefs = new Map<string, string>();
  let total = 0;
  for (const { assetId, width } of images) {
    if (!isAssetId(assetId)) continue;
    const meta = await assets.head(boardId, assetId);
    if (!meta) continue;
    const wanted = Math.ceil(width * scale);
    const kept = renditionWidths.find((w) => w >= wanted) ?? Math.max(...renditionWidths);
    const image =
      kept < meta.width
        ? await keptRendition(assets, boardId, assetId, kept)
        : ((await assets.get(boardId, assetId)) ?? null);
    if (!image) continue;
    const mime = 'meta' in image ? image.meta.mime : image.mime;
    if (total + image.data.byteLength > maxBytes) continue;
    let data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
    let type: string = mime;
    if (kind === 'png' && (mime === 'image/webp' || mime === 'image/gif')) {
      data = await decoding(async () => (await loadSharp())(data).png().toBuffer());
      type = 'image/png';
      // Counted as embedded: a PNG can be several times the WebP it was made from.
      if (total + data.byteLength > maxBytes) continue;
    }
    total += data.byteLength;
    hrefs.set(assetId, `data:${type};base64,${data.toString('base64')}`);
  }
  return hrefs;
}

export const publicRoutes: ResourcePlugin = async (app, deps) => {
  const { config, store, history, rooms, assets } = deps;
  // One budget per client IP for the calls that do work: minting a viewer token, drawing an image
  // (a render in the worker, and for PNG a rasterisation). A 304 is not counted: it costs two
  // indexed row reads, as a 404 does, and counting it would cut off a reader polling an
  // unchanged board, which is the use ETags are there for.
  //
  // Counted across the cluster (one Redis round trip per counted call, httpLimits): it is paid
  // only where the request does more work than that (a worker render, a PNG rasterisation, a
  // token signed and the board's page list read); the calls a viewer makes often (a 304, an
  // image of the board at /assets/) are not counted, so they never wait on Redis.
  const byIp = deps.limits.publicByIp;

  // No cookie, no account: the token's "user" is the link itself (membershipOf in auth/access.ts),
  // so the connection it opens is cut off by the link's revocation like a removed member's.
  app.post<{ Params: { token: string } }>(
    '/api/public/:token/token',
    async (request, reply): Promise<PublicTokenAnswer> => {
      await rateLimit(byIp, request.ip, reply);
      const board = await publicBoard(store, request.params.token);
      const expiresAt = Date.now() + limits.accessTokenMinutes * 60_000;
      const token = signAccessToken(config.secret, {
        boardId: board.id,
        userId: publicViewerId(request.params.token),
        role: 'viewer',
        expiresAt,
      });
      return {
        boardId: board.id,
        token,
        expiresAt: new Date(expiresAt).toISOString(),
        title: board.title,
        // The page list lives in the first document; the viewer's connection loads that Room
        // anyway (the first page, or the check that its page is listed).
        pages: await rooms.pagesOf(board.id),
      };
    },
  );

  /**
   * The board's image (one page of it), or 304 while the board's stored state is unchanged: the
   * ETag comes from the board's `updatedAt`, which every stored edit of any page moves forward
   * (images are content-addressed, so theirs never change under an id), so a reader polling
   * costs two row reads, never a render.
   */
  const image = async (
    request: FastifyRequest<{ Params: { token: string }; Querystring: ImageQuery }>,
    reply: FastifyReply,
    kind: 'svg' | 'png',
  ): Promise<string | Buffer | FastifyReply> => {
    const { token } = request.params;
    const { query } = request;
    const board = await publicBoard(store, token);
    const frame = typeof query.frame === 'string' && query.frame.length <= 64 ? query.frame : undefined;
    const page = query.page === undefined || query.page === '' ? MAIN_PAGE_ID : query.page;
    if (typeof page !== 'string' || !isPageId(page)) throw notFound('page');
    const w = Number.parseInt(query.w ?? '', 10);
    const width = Number.isFinite(w) ? Math.min(PNG_MAX_WIDTH, Math.max(PNG_MIN_WIDTH, w)) : null;
    const etag = `"${kind}-${RENDER_VERSION}-${board.updatedAt.getTime()}-${page}-${frame ?? ''}-${width ?? ''}"`;
    // Images are fetched by other sites (an <img> in a README): revalidated on every use.
    reply.header('Cache-Control', 'no-cache');
    if (request.headers['if-none-match'] === etag) {
      reply.header('ETag', etag);
      return reply.code(304).send();
    }
    await rateLimit(byIp, request.ip, reply);
    // The board's list of pages decides, as for a connection (§17): a deleted or mistyped page
    // is not drawn, and no stored document is read for it.
    if (!(await rooms.pageListed(board.id, page))) throw notFound('page');
    reply.header('ETag', etag);
    const parts = partsOf(await store.loadDoc(docKey(board.id, page)));
    // Off the main thread: decoding and drawing a 5,000-shape board would stall every live board.
    const drawn = await history.versions.compute.renderSvg(parts, { frame });
    const natural = Number(/width="(\d+)"/.exec(drawn.svg)?.[1] ?? 0) || 1;
    const target = width ?? Math.min(PNG_MAX_WIDTH, natural);
    const scale = kind === 'png' ? target / natural : 1;
    const svg = fillImages(drawn.svg, await embeddedImages(assets, board.id, drawn.images, scale, kind));
    if (kind === 'svg') {
      reply.type('image/svg+xml; charset=utf-8');
      // An SVG opened on its own is a document: no script of any kind may run in it.
      reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:");
      return svg;
    }
    const png = await decoding(async () => {
      const sharp = await loadSharp();
      // librsvg draws at the density that gives the target width directly (no huge raster first).
      return sharp(Buffer.from(svg), { density: Math.max(1, Math.min(2400, (72 * target) / natural)) })
        .resize({ width: target, withoutEnlargement: false })
        .png()
        .toBuffer();
    });
    reply.type('image/png');
    return png;
  };

  app.get<{ Params: { token: string }; Querystring: ImageQuery }>(
    '/api/public/:token/board.svg',
    (request, reply) => image(request, reply, 'svg'),
  );
  app.get<{ Params: { token: string }; Querystring: ImageQuery }>(
    '/api/public/:token/board.png',
    (request, reply) => image(request, reply, 'png'),
  );

  // The board's images for the live view, named by the link rather than by the viewer's access
  // token: the token is made again every 15 minutes, and an image URL carrying it changed with
  // it, so a view left open (an embed on a wall screen) loaded every image again each time. The
  // link's URL stays the same while the link lives, and the browser keeps the bytes under it
  // (they never change under an asset id). Read like a member's image, not counted against the
  // per-IP budget (a board of images asks for each once); a revoked link is a 404 at once.
  app.get<{ Params: { token: string; assetId: string }; Querystring: { w?: string } }>(
    '/api/public/:token/assets/:assetId',
    async (request, reply) => {
      const board = await publicBoard(store, request.params.token);
      return sendAsset(assets, reply, board.id, request.params.assetId, request.query.w);
    },
  );
};
