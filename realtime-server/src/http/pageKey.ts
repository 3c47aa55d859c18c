// The page a call is about (`?page=`, docs/api.md §17): history, the content API and the MCP tools
// name a page the same way, and a page the board does not list is not found, so no stored
// document is ever made for it (as for a connection).
import { docKey, PageQuery } from '@tandem/shared';
import type { Rooms } from '../documents/rooms.ts';
import { notFound } from './errors.ts';
import { parseBody } from './request.ts';

/**
 * The document key of the page `query.page` names (the first page when none); 404 when unlisted.
 * `lingerMs`: how long the first page stays loaded after the check (Rooms.pageListed).
 */
export async function listedPageKey(
  rooms: Pick<Rooms, 'pageListed'>,
  boardId: string,
  query: unknown,
  lingerMs = 0,
): Promise<string> {
  const { page } = parseBody(PageQuery, query ?? {});
  if (!(await rooms.pageListed(boardId, page, lingerMs))) throw notFound('page');
  return docKey(boardId, page);
}
