// The IndexedDB copies a browser keeps of a board's pages (docs/api.md §17, "Offline"): one
// database per person and page, `tandem:<userId>:<docKey>`.
import { docKey } from '@tandem/shared';

/** Local copies are per person: another account signing in on this browser must never send them. */
export const localStoreName = (userId: string, key: string): string => `tandem:${userId}:${key}`;

/** Whether a database name is one of this person's copies of the board: its first page or any other. */
export function isCopyOfBoard(name: string, userId: string, boardId: string): boolean {
  const first = localStoreName(userId, docKey(boardId));
  return name === first || name.startsWith(`${first}/`);
}

/**
 * Deletes every copy this browser keeps of a board for this person, once the board is deleted or
 * their access to it is gone: what it held cannot be sent anywhere, and a board its owner deleted
 * must not stay readable on the devices that had it open. A copy still open (a page's session not
 * yet destroyed) is deleted as soon as it is closed.
 */
export async function dropBoardCopies(userId: string, boardId: string): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  const names = (await indexedDB.databases())
    .map((d) => d.name ?? '')
    .filter((name) => isCopyOfBoard(name, userId, boardId));
  await Promise.all(
    names.map(
      (name) =>
        new Promise<void>((resolve) => {
          const request = indexedDB.deleteDatabase(name);
          // Blocked means a connection is still open; the deletion goes on once it closes.
          request.onsuccess = request.onerror = () => resolve();
        }),
    ),
  );
}
