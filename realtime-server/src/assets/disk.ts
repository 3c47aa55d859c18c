// The embedded AssetStore: files under DATA_DIR/assets, one folder per board. Each asset is its
// bytes (`<id>`) and its metadata (`<id>.json`); renditions are `<id>.w<width>.<ext>`. Writes go
// to a temporary file first and are renamed into place, so a reader never sees half an image.
// Embedded mode is one process, so a per-board queue in memory makes "check the board's total,
// then write" atomic.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AssetMime, isAssetId, isBoardId } from '@tandem/shared';
import type { AssetMeta, AssetStore, PutResult, Rendition, StoredAsset } from './store.ts';

const extensions: Record<AssetMime, string> = {
  'image/webp': 'webp',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
};

const missing = (error: unknown): boolean => (error as NodeJS.ErrnoException)?.code === 'ENOENT';

interface MetaFile {
  mime: AssetMime;
  width: number;
  height: number;
  bytes: number;
  createdAt: number;
  unreferencedSince?: number | null;
}

export class DiskAssetStore implements AssetStore {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(readonly root: string) {}

  /** Ids come from URLs: only well-formed ones ever become paths. */
  private dir(boardId: string): string {
    if (!isBoardId(boardId)) throw new Error(`not a board id: ${JSON.stringify(boardId)}`);
    return join(this.root, boardId);
  }

  private file(boardId: string, id: string, suffix = ''): string {
    if (!isAssetId(id)) throw new Error(`not an asset id: ${JSON.stringify(id)}`);
    return join(this.dir(boardId), id + suffix);
  }

  private async writeAtomic(path: string, data: Uint8Array | string): Promise<void> {
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, data);
      await rename(temp, path);
    } catch (error) {
      // A write that failed part way (a full disk) must not keep the space it took, nor leave a
      // file nothing would ever remove.
      await rm(temp, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  private serial<T>(boardId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(boardId) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    const settled = next.catch(() => undefined);
    this.queues.set(boardId, settled);
    void settled.then(() => {
      if (this.queues.get(boardId) === settled) this.queues.delete(boardId);
    });
    return next;
  }

  put(
    meta: Omit<AssetMeta, 'createdAt' | 'unreferencedSince'>,
    data: Uint8Array,
    maxBoardBytes: number,
  ): Promise<PutResult> {
    return this.serial(meta.boardId, async () => {
      const existing = await this.head(meta.boardId, meta.id);
      if (existing) {
        if (existing.unreferencedSince) await this.writeMark(existing, null);
        return { ok: true, meta: { ...existing, unreferencedSince: null }, created: false };
      }
      if ((await this.boardBytes(meta.boardId)) + data.byteLength > maxBoardBytes) {
        return { ok: false, reason: 'board-full' };
      }
      await mkdir(this.dir(meta.boardId), { recursive: true });
      const createdAt = new Date();
      // Bytes before metadata: an asset is listed only once its bytes are in place.
      await this.writeAtomic(this.file(meta.boardId, meta.id), data);
      const file: MetaFile = {
        mime: meta.mime,
        width: meta.width,
        height: meta.height,
        bytes: data.byteLength,
        createdAt: createdAt.getTime(),
      };
      try {
        await this.writeAtomic(this.file(meta.boardId, meta.id, '.json'), JSON.stringify(file));
      } catch (error) {
        // Bytes without metadata are never listed, counted or deleted: do not keep them.
        await rm(this.file(meta.boardId, meta.id), { force: true }).catch(() => undefined);
        throw error;
      }
      return {
        ok: true,
        meta: { ...meta, bytes: data.byteLength, createdAt, unreferencedSince: null },
        created: true,
      };
    });
  }

  async head(boardId: string, id: string): Promise<AssetMeta | null> {
    let text: string;
    try {
      text = await readFile(this.file(boardId, id, '.json'), 'utf8');
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
    const file = JSON.parse(text) as MetaFile;
    return {
      boardId,
      id,
      mime: file.mime,
      width: file.width,
      height: file.height,
      bytes: file.bytes,
      createdAt: new Date(file.createdAt),
      unreferencedSince: file.unreferencedSince ? new Date(file.unreferencedSince) : null,
    };
  }

  private async writeMark(meta: AssetMeta, at: Date | null): Promise<void> {
    const file: MetaFile = {
      mime: meta.mime,
      width: meta.width,
      height: meta.height,
      bytes: meta.bytes,
      createdAt: meta.createdAt.getTime(),
      unreferencedSince: at ? at.getTime() : null,
    };
    await this.writeAtomic(this.file(meta.boardId, meta.id, '.json'), JSON.stringify(file));
  }

  markUnreferenced(boardId: string, ids: string[], at: Date): Promise<void> {
    return this.serial(boardId, async () => {
      for (const id of ids.filter(isAssetId)) {
        const meta = await this.head(boardId, id);
        if (meta && !meta.unreferencedSince) await this.writeMark(meta, at);
      }
    });
  }

  markReferenced(boardId: string, ids: string[]): Promise<void> {
    return this.serial(boardId, async () => {
      for (const id of ids.filter(isAssetId)) {
        const meta = await this.head(boardId, id);
        if (meta?.unreferencedSince) await this.writeMark(meta, null);
      }
    });
  }

  async deleteUnreferenced(boardId: string, before: Date): Promise<string[]> {
    // Chosen and deleted inside one turn of the board's queue, so a put clearing a mark is
    // either before (the asset survives) or after (it is stored anew).
    return this.serial(boardId, async () => {
      const doomed = (await this.list(boardId))
        .filter((m) => m.unreferencedSince && m.unreferencedSince.getTime() <= before.getTime())
        .map((m) => m.id);
      await this.remove(boardId, doomed);
      return doomed.sort();
    });
  }

  async get(boardId: string, id: string): Promise<StoredAsset | null> {
    const meta = await this.head(boardId, id);
    if (!meta) return null;
    try {
      return { meta, data: await readFile(this.file(boardId, id)) };
    } catch (error) {
      if (missing(error)) return null; // deleted between the two reads
      throw error;
    }
  }

  async getRendition(boardId: string, id: string, width: number): Promise<Rendition | null> {
    for (const [mime, ext] of Object.entries(extensions) as [AssetMime, string][]) {
      try {
        return { mime, data: await readFile(this.file(boardId, id, `.w${width}.${ext}`)) };
      } catch (error) {
        if (!missing(error)) throw error;
      }
    }
    return null;
  }

  async putRendition(boardId: string, id: string, width: number, rendition: Rendition): Promise<void> {
    if (!Number.isInteger(width) || width <= 0) throw new Error(`bad rendition width ${width}`);
    if (!(await this.head(boardId, id))) return; // the asset was deleted meanwhile
    await this.writeAtomic(
      this.file(boardId, id, `.w${width}.${extensions[rendition.mime]}`),
      rendition.data,
    );
  }

  async list(boardId: string): Promise<AssetMeta[]> {
    let names: string[];
    try {
      names = await readdir(this.dir(boardId));
    } catch (error) {
      if (missing(error)) return [];
      throw error;
    }
    const ids = names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5));
    const metas = await Promise.all(ids.filter(isAssetId).map((id) => this.head(boardId, id)));
    return metas
      .filter((m): m is AssetMeta => m !== null)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  }

  async boards(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch (error) {
      if (missing(error)) return [];
      throw error;
    }
    const boards: string[] = [];
    for (const name of names.filter(isBoardId)) {
      if ((await this.list(name)).length > 0) boards.push(name);
    }
    return boards;
  }

  async boardBytes(boardId: string): Promise<number> {
    return (await this.list(boardId)).reduce((sum, m) => sum + m.bytes, 0);
  }

  delete(boardId: string, ids: string[]): Promise<void> {
    return this.serial(boardId, () => this.remove(boardId, ids));
  }

  /** Deletes inside the caller's turn of the board's queue. */
  private async remove(boardId: string, ids: string[]): Promise<void> {
    const names = await readdir(this.dir(boardId)).catch((error: unknown) => {
      if (missing(error)) return [] as string[];
      throw error;
    });
    for (const id of ids.filter(isAssetId)) {
      // Metadata first: once it is gone the asset is gone for readers, whatever is left.
      await rm(this.file(boardId, id, '.json'), { force: true });
      await rm(this.file(boardId, id), { force: true });
      for (const name of names) {
        if (name.startsWith(`${id}.w`)) await rm(join(this.dir(boardId), name), { force: true });
      }
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.queues.values()]);
  }
}
