// The board search's words, kept (docs/api.md §17, "Find on every page"): each page's shapes
// decoded once into their folded words (shared findText) and kept under the version of the
// document they were read from, so a search of an unchanged board decodes nothing and a change to
// one page decodes that page alone. A page open in a Room on this instance is versioned by the
// Room's version (every change, deletions and edits not yet stored included); any other by its
// Store log head (DocStore.logHeads: every write to a document appends to its log, so a write
// moves the head).
// The texts kept are bounded by their characters (least recently used go first).
import { docKey, findText, MAIN_PAGE_ID, type PageEntry, type ShapeRecord } from '@tandem/shared';
import * as Y from 'yjs';
import { partsOf } from '../store/store.ts';
import type { HttpDeps } from './deps.ts';
import { listedPages } from './export.ts';

/** One shape's words, folded for find; shapes without words are not kept. */
export interface ShapeText {
  id: string;
  text: string;
}

/** One page of the search, in the board's order, with its shapes' words in z order. */
export interface PageTexts {
  id: string;
  name: string;
  texts: ShapeText[];
}

interface Kept {
  version: string;
  texts: ShapeText[];
  /** The first document's page list (`meta.pages`), kept with its texts. */
  listed: PageEntry[];
  chars: number;
}

/** Characters of words kept across every board (about twice that in bytes), by default. */
export const SEARCH_TEXTS_MAX_CHARS = 8_000_000;

/** What a page kept costs beside its words (its key, version and arrays), counted as characters. */
const ENTRY_CHARS = 200;

export class SearchTexts {
  private readonly kept = new Map<string, Kept>();
  private chars = 0;

  constructor(
    private readonly deps: Pick<HttpDeps, 'store' | 'rooms' | 'history'>,
    private readonly maxChars = SEARCH_TEXTS_MAX_CHARS,
  ) {}

  /** Every page of the board (the first alone, named '', when it lists no other) with its words. */
  async read(boardId: string): Promise<PageTexts[]> {
    const first = await this.page(boardId, await this.versions([boardId]));
    if (!first.listed.some((p) => p.id !== MAIN_PAGE_ID))
      return [{ id: MAIN_PAGE_ID, name: '', texts: first.texts }];
    const keys = first.listed.filter((p) => p.id !== MAIN_PAGE_ID).map((p) => docKey(boardId, p.id));
    const versions = await this.versions(keys);
    const pages: PageTexts[] = [];
    for (const page of first.listed) {
      const texts =
        page.id === MAIN_PAGE_ID ? first.texts : (await this.page(docKey(boardId, page.id), versions)).texts;
      pages.push({ id: page.id, name: page.name, texts });
    }
    return pages;
  }

  /** How many characters of words are kept now (for tests and the bound). */
  get size(): { pages: number; chars: number } {
    return { pages: this.kept.size, chars: this.chars };
  }

  /** Each key's version: its open Room's version, else its Store log head (one query for all). */
  private async versions(keys: string[]): Promise<Map<string, string>> {
    const versions = new Map<string, string>();
    const stored: string[] = [];
    for (const key of keys) {
      const room = this.deps.rooms.get(key);
      if (room) versions.set(key, `room:${room.version}`);
      else stored.push(key);
    }
    if (stored.length > 0)
      for (const [key, head] of await this.deps.store.logHeads(stored)) versions.set(key, `log:${head}`);
    return versions;
  }

  private async page(key: string, versions: Map<string, string>): Promise<Kept> {
    const version = versions.get(key);
    const hit = this.kept.get(key);
    if (hit && version !== undefined && hit.version === version) {
      // Most recently used last.
      this.kept.delete(key);
      this.kept.set(key, hit);
      return hit;
    }
    // The version is read before the content, so a write in between is read again next time.
    const room = this.deps.rooms.get(key);
    const parts = room
      ? [Y.encodeStateAsUpdate(room.doc)]
      : partsOf(await this.deps.store.loadDocAsStored(key));
    const { json } = await this.deps.history.versions.compute.exportJson(parts);
    const exported = JSON.parse(json) as { shapes?: unknown[]; meta?: unknown };
    const texts: ShapeText[] = [];
    let chars = 0;
    for (const shape of exported.shapes ?? []) {
      const record = shape as ShapeRecord;
      const text = findText(record);
      if (!text || typeof record.id !== 'string') continue;
      texts.push({ id: record.id, text });
      chars += text.length + record.id.length;
    }
    const listed = listedPages(exported.meta);
    for (const p of listed) chars += p.id.length + p.name.length;
    const entry: Kept = { version: version ?? '', texts, listed, chars: chars + ENTRY_CHARS };
    if (version !== undefined) this.keep(key, entry);
    return entry;
  }

  private keep(key: string, entry: Kept): void {
    const old = this.kept.get(key);
    if (old) {
      this.kept.delete(key);
      this.chars -= old.chars;
    }
    if (entry.chars > this.maxChars) return;
    this.kept.set(key, entry);
    this.chars += entry.chars;
    for (const [oldest, value] of this.kept) {
      if (this.chars <= this.maxChars) break;
      this.kept.delete(oldest);
      this.chars -= value.chars;
    }
  }
}
