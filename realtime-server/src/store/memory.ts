// An in-memory DocStore: the document path's Store for the durability harness (many instances in
// one process, thousands of scenarios a minute). Same contract as SQLite and PostgreSQL: appends
// keep their order, compaction keeps entries appended while it merged.
import type { DocStore } from './store.ts';
import type { DocEntry, LogEntry, LogSize, MergeParts, StoredDoc } from './types.ts';

interface Board {
  snapshot: Uint8Array | null;
  log: { seq: number; entry: DocEntry }[];
  /** Entries compaction merged into the snapshot, kept as the SQL stores keep them (doc_history). */
  kept: { seq: number; entry: DocEntry }[];
  /** The last position appended (compaction keeps it). */
  head: number;
}

export class MemoryDocStore implements DocStore {
  private readonly boards = new Map<string, Board>();
  private seq = 0;

  private board(boardId: string): Board {
    let board = this.boards.get(boardId);
    if (!board) {
      board = { snapshot: null, log: [], kept: [], head: 0 };
      this.boards.set(boardId, board);
    }
    return board;
  }

  async loadDoc(boardId: string): Promise<StoredDoc> {
    const board = this.boards.get(boardId);
    return { snapshot: board?.snapshot ?? null, updates: board?.log.map((e) => e.entry.update) ?? [] };
  }

  async append(boardId: string, entries: DocEntry[]): Promise<LogSize> {
    const board = this.board(boardId);
    for (const entry of entries) board.log.push({ seq: ++this.seq, entry: { ...entry } });
    if (entries.length > 0) board.head = this.seq;
    return this.size(board);
  }

  async logHeads(keys: readonly string[]): Promise<Map<string, number>> {
    return new Map(keys.map((key) => [key, this.boards.get(key)?.head ?? 0]));
  }

  async logSince(boardId: string, afterSeq: number, limit?: number): Promise<LogEntry[]> {
    const board = this.boards.get(boardId);
    if (!board) return [];
    const since = [...board.kept, ...board.log]
      .filter((e) => e.seq > afterSeq)
      .map(({ seq, entry }) => ({ seq, ...entry }));
    return limit === undefined ? since : since.slice(0, limit);
  }

  /** The log's entries with their attribution, oldest first. */
  entries(boardId: string): readonly DocEntry[] {
    return this.boards.get(boardId)?.log.map((e) => e.entry) ?? [];
  }

  async compact(boardId: string, merge: MergeParts): Promise<void> {
    const board = this.boards.get(boardId);
    if (!board || board.log.length === 0) return;
    const taken = board.log.slice();
    const parts = taken.map((e) => e.entry.update);
    if (board.snapshot) parts.unshift(board.snapshot);
    board.snapshot = await merge(parts);
    const seqs = new Set(taken.map((e) => e.seq));
    board.log = board.log.filter((e) => !seqs.has(e.seq));
    board.kept.push(...taken);
  }

  private size(board: Board): LogSize {
    const bytes = board.log.reduce((n, e) => n + e.entry.update.byteLength, 0);
    return { entries: board.log.length, bytes, totalBytes: bytes + (board.snapshot?.byteLength ?? 0) };
  }
}
