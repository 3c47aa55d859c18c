// Images added while offline (or not yet uploaded) are kept in IndexedDB, so they survive a
// reload and go up when the connection returns (docs/api.md §13). One database for all boards; each
// entry names its user and board, so another account on this browser never uploads them.
const DB = 'tandem-images';
const STORE = 'outbox';

export interface OutboxEntry {
  id: string;
  userId: string;
  boardId: string;
  x: number;
  y: number;
  w: number;
  h: number;
  blob: Blob;
  createdAt: number;
}

let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(STORE, { keyPath: 'id' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => {
      opening = null;
      reject(request.error);
    };
  });
  return opening;
}

async function run<T>(mode: IDBTransactionMode, fn: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = fn(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

export const outbox = {
  put: (entry: OutboxEntry) => run('readwrite', (s) => s.put(entry)).then(() => undefined),
  remove: (id: string) => run('readwrite', (s) => s.delete(id)).then(() => undefined),
  async list(userId: string, boardId: string): Promise<OutboxEntry[]> {
    const all = (await run('readonly', (s) => s.getAll())) as OutboxEntry[];
    return all
      .filter((e) => e.userId === userId && e.boardId === boardId)
      .sort((a, b) => a.createdAt - b.createdAt);
  },
};
