// The built single-page client, and what every path no plugin claimed gets: an /api/ path (or a
// method other than GET and HEAD, or an absolute-form target) is a 404 in the catalogue's shape; a
// file of the build (/assets/…) that is not there is a plain 404; any other GET or HEAD is a
// client route (/boards, /b/:id, /join/:token, /p/:token, /embed/:token …) and gets index.html.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCode } from '@tandem/shared';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';
import { sendError } from './server.ts';

/** Where the client's build puts its hashed files (Vite's `build.assetsDir`). */
const ASSETS_PATH = '/assets/';
/** A file name Vite writes there (`index-C_-QsItr.js`, `inter-latin-wght-normal-….woff2`): no path. */
const BUILD_FILE_NAME = /^[\w-]+(\.[\w-]+)+$/;

export async function serveClient(http: FastifyInstance, clientDir: string | null): Promise<void> {
  const hasClient = clientDir !== null && existsSync(join(clientDir, 'index.html'));
  if (hasClient) {
    await http.register(fastifyStatic, { root: clientDir, wildcard: false, index: 'index.html' });
  }
  http.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // Only an origin-form path can be a client route: `GET *` or an absolute-form target is not.
    // HEAD is a GET without the body: a link checker or a chat's link preview asks it first, and
    // a 404 there said a shared board link (/p/…, /embed/…) was dead while `HEAD /` was 200.
    const reads = request.method === 'GET' || request.method === 'HEAD';
    if (path.startsWith('/api/') || !reads || !path.startsWith('/')) {
      return sendError(request, reply, new ApiError(ErrorCode.NOT_FOUND, 'No such API call.'));
    }
    if (!hasClient) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The Tandem client is not built. Run `npm run build` (or `npm start`, which builds it).');
    }
    if (path.startsWith(ASSETS_PATH)) {
      // A build made after this server started (the static file list is read at start): the
      // index.html served now names its files, so they are read from disk. Without this, a client
      // rebuilt under a running server was a blank page until the server restarted.
      const name = path.slice(ASSETS_PATH.length);
      if (BUILD_FILE_NAME.test(name) && existsSync(join(clientDir!, ASSETS_PATH, name))) {
        return reply.sendFile(`${ASSETS_PATH.slice(1)}${name}`);
      }
      // A build file no build here has (a tab loaded before a redeploy asking for a chunk of the
      // old build) is missing, not a page: answered with index.html it reached the browser as a
      // script of type text/html, refused, and the page was left blank with no word of why.
      return reply.code(404).header('Cache-Control', 'no-store').type('text/plain').send('No such file.');
    }
    reply.header('Cache-Control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
