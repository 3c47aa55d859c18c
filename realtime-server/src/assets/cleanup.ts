// Deletes images nothing uses (docs/api.md §13): an image that no shape of its board references, and
// no kept version either, is marked; one still marked HISTORY_DAYS later is deleted. A mark is
// cleared as soon as the image is referenced again (an undo, a paste, a re-upload), so the
// clock restarts. A deleted board references nothing, so its images go the same way.
// The images that kept versions show count as referenced (`keptReferences`, from version
// history's store), so restoring a version always brings its images back.
import { docKey, MAIN_PAGE_ID, readPages, SHAPES_KEY } from '@tandem/shared';
import type { Logger } from 'pino';
import * as Y from 'yjs';
import type { Rooms } from '../documents/rooms.ts';
import { partsOf, type Store } from '../store/store.ts';
import type { AssetStore } from './store.ts';

export interface CleanupDeps {
  assets: AssetStore;
  store: Store;
  /** Open boards are read from memory (edits not yet stored count too). */
  rooms?: Rooms;
  historyDays: number;
  /** The clock; tests move it. */
  now?: () => number;
  /** Asset ids that kept versions of a board reference (the version-history issue plugs in here). */
  keptReferences?: (boardId: string) => Promise<Iterable<string>>;
  log?: Logger;
}

export interface SweepResult {
  marked: number;
  deleted: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often each instance sweeps. Sweeps on several instances at once are harmless. */
export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Asset ids the image shapes of a document reference. */
export function referencedAssets(doc: Y.Doc): Set<string> {
  const ids = new Set<string>();
  doc.getMap<unknown>(SHAPES_KEY).forEach((shape) => {
    if (!(shape instanceof Y.Map)) return;
    const assetId = shape.get('assetId');
    if (shape.get('type') === 'image' && typeof assetId === 'string') ids.add(assetId);
  });
  return ids;
}

export class AssetCleanup {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<SweepResult> | null = null;
  private readonly now: () => number;

  constructor(private readonly deps: CleanupDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * What the live board (open or stored) references, on every page it lists (docs/api.md §17:
   * images are the board's, any page may show them); nothing for a deleted board.
   */
  private async liveReferences(boardId: string): Promise<Set<string>> {
    if (!this.deps.rooms?.get(boardId) && !(await this.deps.store.getBoard(boardId))) return new Set();
    const used = new Set<string>();
    const pages = await this.withDoc(boardId, (doc) => {
      for (const id of referencedAssets(doc)) used.add(id);
      return readPages(doc);
    });
    for (const page of pages) {
      if (page.id === MAIN_PAGE_ID) continue;
      await this.withDoc(docKey(boardId, page.id), (doc) => {
        for (const id of referencedAssets(doc)) used.add(id);
      });
    }
    return used;
  }

  /** Reads a document as it is now: from its open room, else from the Store. */
  private async withDoc<T>(key: string, read: (doc: Y.Doc) => T): Promise<T> {
    const open = this.deps.rooms?.get(key);
    if (open) return read(open.doc);
    const stored = await this.deps.store.loadDoc(key);
    const doc = new Y.Doc();
    try {
      for (const part of partsOf(stored)) Y.applyUpdate(doc, part);
      return read(doc);
    } finally {
      doc.destroy();
    }
  }

  /** One pass over every board holding images. */
  sweep(): Promise<SweepResult> {
    this.running ??= this.sweepAll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sweepAll(): Promise<SweepResult> {
    const { assets } = this.deps;
    const now = new Date(this.now());
    const cutoff = new Date(now.getTime() - this.deps.historyDays * DAY_MS);
    const result: SweepResult = { marked: 0, deleted: 0 };
    for (const boardId of await assets.boards()) {
      try {
        const used = await this.liveReferences(boardId);
        for (const id of (await this.deps.keptReferences?.(boardId)) ?? []) used.add(id);
        const stored = await assets.list(boardId);
        const unused = stored.filter((a) => !used.has(a.id));
        await assets.markReferenced(
          boardId,
          stored.filter((a) => used.has(a.id) && a.unreferencedSince).map((a) => a.id),
        );
        const newlyUnused = unused.filter((a) => !a.unreferencedSince).map((a) => a.id);
        await assets.markUnreferenced(boardId, newlyUnused, now);
        result.marked += newlyUnused.length;
        const deleted = await assets.deleteUnreferenced(boardId, cutoff);
        result.deleted += deleted.length;
        if (deleted.length > 0) this.deps.log?.info({ boardId, deleted }, 'deleted unused images');
      } catch (error) {
        // One unreadable board must not stop the others' clean-up.
        this.deps.log?.warn({ err: error, boardId }, 'image clean-up failed for a board');
      }
    }
    return result;
  }

  start(intervalMs = SWEEP_INTERVAL_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep().catch(() => {}), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }
}
