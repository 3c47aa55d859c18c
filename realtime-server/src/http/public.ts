// Public links (docs/api.md §16): what anyone holding a `public-viewer` link may do without an
// account. Get a read-only access token for the document channel, and fetch the board as an image
// (`board.svg`, `board.png`) drawn on the server by the renderer the client's export uses. Every
// answer reads the link first: a revoked link is a 404, at once, on every instance.
import { isLinkToken, limits, type PublicTokenAnswer, publicViewerId } from '@tandem/shared';
import type { FastifyReply } from 'fastify';
import { decoding, loadSharp } from '../assets/images.ts';
import { signAccessToken } from '../auth/tokens.ts';
import type { BoardRow, Store } from '../store/store.ts';
import { partsOf } from '../store/store.ts';
import type { ResourcePlugin } from './deps.ts';
import { notFound } from './errors.ts';

/** Bumped when the renderer's output changes, so a cached image is not kept past a release. */
const RENDER_VERSION = 1;
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
  w?: string;
}

export const publicRoutes: ResourcePlugin = async (app, { config, store, history }) => {
  // No cookie, no account: the token's "user" is the link itself (membershipOf in auth/access.ts),
  // so the connection it opens is cut off by the link's revocation like a removed member's.
  app.post<{ Params: { token: string } }>(
    '/api/public/:token/token',
    async (request): Promise<PublicTokenAnswer> => {
      const board = await publicBoard(store, request.params.token);
      const expiresAt = Date.now() + limits.accessTokenMinutes * 60_000;
      const token = signAccessToken(config.secret, {
        boardId: board.id,
        userId: publicViewerId(request.params.token),
        role: 'viewer',
        expiresAt,
      });
      return { boardId: board.id, token, expiresAt: new Date(expiresAt).toISOString(), title: board.title };
    },
  );

  /**
   * The board's image, or 304 while the board's stored state is unchanged: the ETag comes from the
   * board's `updatedAt`, which every stored edit moves forward, so a reader polling costs one
   * row read, never a render.
   */
  const image = async (
    token: string,
    query: ImageQuery,
    reply: FastifyReply,
    ifNoneMatch: string | undefined,
    kind: 'svg' | 'png',
  ): Promise<string | Buffer | FastifyReply> => {
    const board = await publicBoard(store, token);
    const frame = typeof query.frame === 'string' && query.frame.length <= 64 ? query.frame : undefined;
    const w = Number.parseInt(query.w ?? '', 10);
    const width = Number.isFinite(w) ? Math.min(PNG_MAX_WIDTH, Math.max(PNG_MIN_WIDTH, w)) : null;
    const etag = `"${kind}-${RENDER_VERSION}-${board.updatedAt.getTime()}-${frame ?? ''}-${width ?? ''}"`;
    // Images are fetched by other sites (an <img> in a README): revalidated on every use.
    reply.header('Cache-Control', 'no-cache');
    reply.header('ETag', etag);
    if (ifNoneMatch === etag) return reply.code(304).send();
    const parts = partsOf(await store.loadDoc(board.id));
    // Off the main thread: decoding and drawing a 5,000-shape board would stall every live board.
    const svg = await history.versions.compute.renderSvg(parts, { frame });
    if (kind === 'svg') {
      reply.type('image/svg+xml; charset=utf-8');
      // An SVG opened on its own is a document: no script of any kind may run in it.
      reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:");
      return svg;
    }
    const png = await decoding(async () => {
      const sharp = await loadSharp();
      const natural = Number(/width="(\d+)"/.exec(svg)?.[1] ?? 0) || 1;
      const target = width ?? Math.min(PNG_MAX_WIDTH, natural);
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
    (request, reply) =>
      image(request.params.token, request.query, reply, request.headers['if-none-match'], 'svg'),
  );
  app.get<{ Params: { token: string }; Querystring: ImageQuery }>(
    '/api/public/:token/board.png',
    (request, reply) =>
      image(request.params.token, request.query, reply, request.headers['if-none-match'], 'png'),
  );
};
