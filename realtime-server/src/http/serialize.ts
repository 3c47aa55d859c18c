// Store rows → the JSON shapes of docs/api.md §7.
import { type Board, linkPages, type ShareLink, type User } from '@tandem/shared';
import type { BoardRow, LinkRow, UserRow } from '../store/store.ts';

export const toUser = (row: UserRow): User => ({
  id: row.id,
  name: row.name,
  email: row.email,
  color: row.color,
  isGuest: row.isGuest,
  createdAt: row.createdAt.toISOString(),
});

export const toBoard = (row: BoardRow): Board => ({
  id: row.id,
  title: row.title,
  ownerId: row.ownerId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const toLink = (row: LinkRow, publicOrigin: string): ShareLink => ({
  token: row.token,
  role: row.role,
  url: `${publicOrigin}${row.role === 'public-viewer' ? linkPages.publicView(row.token) : linkPages.join(row.token)}`,
  createdAt: row.createdAt.toISOString(),
  createdBy: row.createdBy,
});
