// Versions of a board in the Store (docs/api.md §12): recording one (the board as stored now, its
// authors and stats since the version before), listing them with their authors' names, the board
// at a version, the change that reverts one user since a time, and thinning past HISTORY_DAYS.
import { randomBytes } from 'node:crypto';
import type { Version } from '@tandem/shared';
import {
  type HistoryStore,
  type LogEntry,
  type PastRevert,
  partsOf,
  type RevertedEdits,
  type Store,
  type StoredVersion,
  type VersionKind,
  type VersionRow,
} from '../store/store.ts';
import { authorsOf, IncompleteLogError } from './board.ts';
import { type HistoryCompute, WorkerCompute } from './compute.ts';

export interface VersionsOptions {
  historyDays: number;
  now?: () => Date;
  /** Where decoding and replaying run; by default a worker thread. */
  compute?: HistoryCompute;
  /** Told of every version recorded here (webhooks' version.created, docs/api.md §15). */
  onRecorded?: (version: StoredVersion) => void;
}

const DAY_MS = 86_400_000;

/**
 * A named version that one person saves within this long of their previous named one, nothing
 * stored and no other version recorded in between (the same board state), replaces it: its
 * label wins, as renaming a version does in Google Docs. Figma and Google Docs treat named
 * versions as the checkpoints people chose to keep, so they are never thinned, and one saved
 * after an edit, however soon, is a different checkpoint and kept ("before cleanup", "after
 * cleanup"); but a double click, a rename right after saving or a script in a loop should not
 * leave a wall of identical named versions, each holding the whole board.
 */
export const NAMED_COLLAPSE_MS = 60_000;

export class Versions {
  private readonly now: () => Date;
  /** One recording at a time per board in this process, so none reads a half-recorded state. */
  private readonly recording = new Map<string, Promise<unknown>>();

  constructor(
    readonly store: Pick<Store, 'loadDoc' | 'append' | 'compact' | 'logSince'> & HistoryStore,
    private readonly options: VersionsOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.compute = options.compute ?? new WorkerCompute();
  }

  readonly compute: HistoryCompute;

  async close(): Promise<void> {
    await this.compute.close();
  }

  /**
   * Records the board as stored now. An automatic version is skipped when nothing was stored
   * since the last one (or another instance recorded it first); the other kinds always record.
   */
  record(
    boardId: string,
    kind: VersionKind,
    label: string | null = null,
    createdBy: string | null = null,
    /** A revert's: whose edits it undid and since when (revertChange reads it back). */
    reverted: RevertedEdits | null = null,
  ): Promise<StoredVersion | null> {
    const previous = this.recording.get(boardId) ?? Promise.resolve();
    const run = previous
      .catch(() => undefined)
      .then(() => this.doRecord(boardId, kind, label, createdBy, reverted));
    this.recording.set(boardId, run);
    void run
      .finally(() => {
        if (this.recording.get(boardId) === run) this.recording.delete(boardId);
      })
      .catch(() => undefined);
    return run;
  }

  private async doRecord(
    boardId: string,
    kind: VersionKind,
    label: string | null,
    createdBy: string | null,
    reverted: RevertedEdits | null,
  ) {
    let prev = await this.store.latestVersion(boardId);
    let entries = await this.store.logSince(boardId, prev?.seq ?? 0);
    // A named version of the same board state as the same person's named one of a moment ago
    // replaces it: computed from the version before that one, which is removed once this one
    // is stored.
    let replaces: StoredVersion | null = null;
    if (
      kind === 'named' &&
      createdBy !== null &&
      entries.length === 0 &&
      prev?.kind === 'named' &&
      prev.createdBy === createdBy &&
      this.now().getTime() - prev.createdAt.getTime() < NAMED_COLLAPSE_MS
    ) {
      replaces = prev;
      const [before] = await this.store.listVersions(boardId, prev.id, 1);
      prev = before ? await this.store.getVersion(boardId, before.id) : null;
      entries = await this.store.logSince(boardId, prev?.seq ?? 0);
    }
    if (kind === 'auto' && entries.length === 0 && prev) return null;
    // The first version is the board as stored (its early log may be compacted already).
    const stored = prev ? null : await this.store.loadDoc(boardId);
    const next = await this.compute.nextVersion(
      prev?.data ?? null,
      stored ? partsOf(stored) : null,
      entries.map((e) => e.update),
    );
    if (!prev && kind === 'auto' && next.shapes === 0 && entries.length === 0) return null;
    const version: StoredVersion = {
      id: randomBytes(12).toString('base64url'),
      boardId,
      seq: entries.at(-1)?.seq ?? prev?.seq ?? 0,
      createdAt: this.now(),
      label,
      kind,
      authors: authorsOf(entries),
      createdBy,
      stats: next.stats,
      data: next.data,
      assets: next.assets,
      reverted,
    };
    const inserted = await this.store.insertVersion(version, kind === 'auto');
    if (!inserted) return null;
    if (replaces) await this.store.deleteVersion(boardId, replaces.id);
    this.options.onRecorded?.(version);
    await this.store.thinHistory(boardId, new Date(this.now().getTime() - this.options.historyDays * DAY_MS));
    return version;
  }

  /** A page of versions, newest first, with their authors' names and colours. */
  async list(boardId: string, before: string | null, limit: number): Promise<Version[]> {
    return this.present(await this.store.listVersions(boardId, before, limit));
  }

  /**
   * The first page of versions (newest first), with the ids of the people whose stored edits came
   * after the latest version: no version lists them as authors yet (docs/api.md §12
   * `unrecordedAuthors`). The latest version is the page's first row, so it is read once.
   */
  async firstPage(
    boardId: string,
    limit: number,
  ): Promise<{ versions: Version[]; unrecordedAuthors: string[] }> {
    const rows = await this.store.listVersions(boardId, null, limit);
    const unrecorded = authorsOf(await this.store.logSince(boardId, rows[0]?.seq ?? 0));
    return { versions: await this.present(rows), unrecordedAuthors: unrecorded };
  }

  /** Versions as the API shows them: authors with their names and colours. */
  async present(rows: VersionRow[]): Promise<Version[]> {
    const badges = new Map(
      (await this.store.userBadges([...new Set(rows.flatMap((r) => r.authors))])).map((b) => [b.id, b]),
    );
    return rows.map((r) => ({
      id: r.id,
      createdAt: r.createdAt.toISOString(),
      ...(r.label !== null ? { label: r.label } : {}),
      authors: r.authors.flatMap((id) => {
        const badge = badges.get(id);
        return badge ? [badge] : [];
      }),
      stats: r.stats,
    }));
  }

  /**
   * The board exactly as it was at a version, as export.json text (computed and serialized in
   * the worker); null: no such version.
   */
  async exportAt(boardId: string, versionId: string): Promise<{ json: string; invalid: string[] } | null> {
    const version = await this.store.getVersion(boardId, versionId);
    return version ? this.compute.exportJson([version.data]) : null;
  }

  /**
   * The forward change that undoes every edit `userId` made at or after `since`, computed from
   * the stored log (replayed from the last version at or before `since`); null: nothing to undo.
   * Edits an earlier revert of the same person already undid are replayed as everyone else's:
   * undone again, a text's deleted characters came back a second time beside the copy the first
   * revert had put back (Yjs keeps a newer map value from an undo, not a sequence's).
   */
  async revertChange(boardId: string, userId: string, since: Date): Promise<Uint8Array | null> {
    const undone = await this.store.revertsOf(boardId, userId);
    const log = async (afterSeq: number) =>
      withoutUndone(await this.store.logSince(boardId, afterSeq), userId, undone);
    const base = await this.store.versionAtOrBefore(boardId, since);
    if (base) return this.compute.revert(base.data, await log(base.seq), userId, since);
    try {
      // No version that old: replay the whole log.
      return await this.compute.revert(null, await log(0), userId, since);
    } catch (err) {
      if (!(err instanceof IncompleteLogError)) throw err;
      // The log's beginning was compacted before history was kept: start from the oldest version.
      const page = await this.store.listVersions(boardId, null, Number.MAX_SAFE_INTEGER);
      const oldest = page.at(-1) ? await this.store.getVersion(boardId, page.at(-1)!.id) : null;
      if (!oldest) return null;
      return this.compute.revert(oldest.data, await log(oldest.seq), userId, since);
    }
  }
}

/**
 * The log with `userId`'s entries that an earlier revert undid (at or after its `since`, at or
 * before its version's log position) attributed to nobody, so a revert replays them as
 * everyone else's edits and does not undo them twice.
 */
export function withoutUndone(
  entries: LogEntry[],
  userId: string,
  undone: readonly PastRevert[],
): LogEntry[] {
  if (undone.length === 0) return entries;
  return entries.map((e) =>
    e.userId === userId && undone.some((r) => e.seq <= r.seq && e.at.getTime() >= r.since.getTime())
      ? { ...e, userId: null }
      : e,
  );
}
