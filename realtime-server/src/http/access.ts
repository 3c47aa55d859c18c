// Who may do what on a board (docs/api.md §6). A user with no membership learns nothing about the
// board's existence: 404, like an unknown id.
import { isBoardId, type Role, roleAtLeast } from '@tandem/shared';
import type { BoardRow, Store } from '../store/store.ts';
import { forbidden, notFound } from './errors.ts';

export async function requireRole(
  store: Store,
  boardId: string,
  userId: string,
  need: Role,
): Promise<{ board: BoardRow; role: Role }> {
  if (!isBoardId(boardId)) throw notFound();
  const [board, role] = await Promise.all([store.getBoard(boardId), store.getRole(boardId, userId)]);
  if (!board || !role) throw notFound();
  if (!roleAtLeast(role, need)) throw forbidden();
  return { board, role };
}
