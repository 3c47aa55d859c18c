// Find on every page of a board (docs/api.md §17): the Find bar searches the page shown in the
// browser, and asks this for the others, which the browser has not loaded (each page is its own
// document, loaded when opened). Pages are read as the export reads them (the open room here, else
// the Store), their words kept by document version (searchTexts.ts), and matched by the client's
// own rule (shared/src/find.ts), so a page named here is one the bar finds the same shapes on once
// it is opened.
import { type BoardSearchResult, FindQuery, matchingTexts, type PageMatches } from '@tandem/shared';
import { requireRole } from './access.ts';
import type { ResourcePlugin } from './deps.ts';
import { parseBody, rateLimit, signedIn } from './request.ts';
import { SearchTexts } from './searchTexts.ts';

export const searchRoutes: ResourcePlugin = async (app, { store, rooms, history, limits }) => {
  const byUser = limits.boardSearches;
  // Each page's words, kept by the version of its document: a repeat search decodes nothing.
  const texts = new SearchTexts({ store, rooms, history });
  app.get<{ Params: { id: string } }>(
    '/api/boards/:id/search',
    async (request, reply): Promise<BoardSearchResult> => {
      const user = signedIn(request);
      const { board } = await requireRole(store, request.params.id, user.id, 'viewer');
      await rateLimit(byUser, user.id, reply);
      const { q } = parseBody(FindQuery, request.query ?? {});
      const found: PageMatches[] = [];
      for (const page of await texts.read(board.id)) {
        const shapeIds = matchingTexts(page.texts, q);
        if (shapeIds.length > 0)
          found.push({ pageId: page.id, name: page.name, count: shapeIds.length, shapeIds });
      }
      return { pages: found };
    },
  );
};
