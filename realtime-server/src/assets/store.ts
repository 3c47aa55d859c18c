// The AssetStore seam (docs/api.md §13): where a board's images live. Files under DATA_DIR (embedded
// default) and PostgreSQL (when DATABASE_URL is set, so every instance serves every image)
// implement it and pass one conformance suite; an S3-compatible bucket would be a third
// (docs/operations.md says how). Content-addressed: an asset's id is the SHA-256 of its bytes,
// and each (board, id) is stored once.
import type { AssetMime } from '@tandem/shared';

export interface AssetMeta {
  boardId: string;
  id: string;
  mime: AssetMime;
  width: number;
  height: number;
  bytes: number;
  createdAt: Date;
  /** Since when nothing has referenced the image (set by the clean-up), or null. */
  unreferencedSince: Date | null;
}

export interface StoredAsset {
  meta: AssetMeta;
  data: Uint8Array;
}

export interface Rendition {
  mime: AssetMime;
  data: Uint8Array;
}

export type PutResult =
  | { ok: true; meta: AssetMeta; created: boolean }
  /** The board would hold more than `maxBoardBytes` of images; nothing was stored. */
  | { ok: false; reason: 'board-full' };

export interface AssetStore {
  /**
   * Stores an asset unless the board already has one with this id (then answers the stored one
   * with created: false, and clears its unreferenced mark: whoever uploads it is about to use
   * it). A new asset is refused when the board's total would exceed
   * maxBoardBytes; the check and the write are atomic per board, across instances.
   */
  put(
    meta: Omit<AssetMeta, 'createdAt' | 'unreferencedSince'>,
    data: Uint8Array,
    maxBoardBytes: number,
  ): Promise<PutResult>;
  /** The asset's metadata, or null. */
  head(boardId: string, id: string): Promise<AssetMeta | null>;
  /** The asset with its bytes, or null. */
  get(boardId: string, id: string): Promise<StoredAsset | null>;
  /** A kept smaller rendition of an asset, or null when none was made yet. */
  getRendition(boardId: string, id: string, width: number): Promise<Rendition | null>;
  /** Keeps a rendition; a second put of the same (board, id, width) is a no-op. */
  putRendition(boardId: string, id: string, width: number, rendition: Rendition): Promise<void>;
  /** Every asset of a board, oldest first. */
  list(boardId: string): Promise<AssetMeta[]>;
  /** Boards that hold at least one asset (for the clean-up). */
  boards(): Promise<string[]>;
  /** Total bytes of a board's assets (renditions are not counted). */
  boardBytes(boardId: string): Promise<number>;
  /** Deletes assets and their renditions; unknown ids are ignored. */
  delete(boardId: string, ids: string[]): Promise<void>;
  /** Marks assets unreferenced since `at`; an asset already marked keeps its earlier mark. */
  markUnreferenced(boardId: string, ids: string[], at: Date): Promise<void>;
  /** Clears the mark of assets that are referenced again. */
  markReferenced(boardId: string, ids: string[]): Promise<void>;
  /**
   * Deletes the board's assets marked unreferenced at or before `before`, atomically with the
   * check, so an asset re-uploaded (mark cleared) meanwhile survives. Answers the ids deleted.
   */
  deleteUnreferenced(boardId: string, before: Date): Promise<string[]>;
  close(): Promise<void>;
}
