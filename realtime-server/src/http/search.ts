// Find on every page of a board (docs/api.md §17): the Find bar searches the page shown in the
// browser, and asks this for the others, which the browser has not loaded (each page is its own
// document, loaded when opened). Pages are read as the export reads them (readBoardPages: the open
// room here, else the Store) and matched by the client's own rule (shared/src/find.ts), so a page
// named here is one the bar finds the same shapes on once it is opened.
import {
  type BoardSearchResult,
  FindQuery,
  MAIN_PAGE_ID,
  matchingShapes,
  type PageMatches,
  type ShapeRecord,
} from '@tandem/shared';
import { requireRole } from './access.ts';
import type { ResourcePlugin } from './deps.ts';
import { readBoardPages } from './export.ts';
import { parseBody, rateLimit, signedIn } from './request.ts';

export const searchRoutes: ResourcePlugin = async (app, { store, rooms, history, limits }) => {
  const byUser = limits.boardSearches;
  app.get<{ Params: { id: string } }>(
    '/api/boards/:id/search',
    async (request, reply): Promise<BoardSearchResult> => {
      const user = signedIn(request);
      const { board } = await requireRole(store, request.params.id, user.id, 'viewer');
      await rateLimit(byUser, user.id, reply);
      const { q } = parseBody(FindQuery, request.query ?? {});
      const { json, pages } = await readBoardPages({ store, rooms, history }, board.id);
      // A board of one page is its first page's export alone (no `pages`).
      const read =
        pages.length > 0
          ? pages
          : [{ id: MAIN_PAGE_ID, name: '', shapes: (JSON.parse(json) as { shapes: unknown[] }).shapes }];
      const found: PageMatches[] = [];
      for (const page of read) {
        // Records are as stored (one failing the schema included); matching reads only their words.
        const shapeIds = matchingShapes(page.shapes as ShapeRecord[], q).map((s) => s.id);
        if (shapeIds.length > 0)
          found.push({ pageId: page.id, name: page.name, count: shapeIds.length, shapeIds });
      }
      return { pages: found };
    },
  );
};
