// The image URLs of a live public view (docs/api.md §16): the shared renderer draws each image
// from a URL carrying the viewer's access token (no cookie goes with an anonymous viewer), at the
// rendition its drawn width needs. Pure apart from the clock it is given.
import { assetHref, renditionFor, type ShapeRecord } from '@tandem/shared';

/** A URL whose token expires within this long is made again with the current token. */
export const TOKEN_MARGIN_MS = 60_000;

interface Made {
  /** The rendition in the URL; null for the original. */
  width: number | null;
  href: string;
  /** When the token in it expires (ms since the epoch). */
  expiresAt: number;
}

/** Whether a URL at rendition `have` serves a drawing that needs `need` (null: the original). */
const wideEnough = (have: number | null, need: number | null) =>
  have === null || (need !== null && have >= need);

export class PublicImageUrls {
  private readonly made = new Map<string, Made>();
  private access: { boardId: string; token: string; expiresAt: number } | null = null;

  /** The token of the current connection: what new URLs are made with. */
  setToken(boardId: string, token: string, expiresAt: number): void {
    this.access = { boardId, token, expiresAt };
  }

  get ready(): boolean {
    return this.access !== null;
  }

  /**
   * The URL of every image drawn, by asset id. An image keeps the URL it was first given while that
   * is wide enough and its token fresh: the browser holds the bytes under it (they never change
   * under an asset id), so a reconnect's fresh token does not load every image again; a URL whose
   * token is about to expire is made again, so the markup never asks with an expired token.
   */
  hrefs(shapes: readonly ShapeRecord[], pixelRatio: number, now = Date.now()): Map<string, string> {
    const out = new Map<string, string>();
    const access = this.access;
    if (!access) return out;
    const needs = new Map<string, number | null>();
    for (const s of shapes) {
      if (s.type !== 'image' || !s.assetId) continue;
      const need = renditionFor(s.w * pixelRatio);
      const before = needs.get(s.assetId);
      // The widest drawing of an asset decides (one URL per asset in the renderer).
      needs.set(s.assetId, before === undefined || wideEnough(need, before) ? need : before);
    }
    for (const [assetId, need] of needs) {
      let made = this.made.get(assetId);
      if (!made || !wideEnough(made.width, need) || made.expiresAt - TOKEN_MARGIN_MS <= now) {
        made = {
          width: need,
          href: assetHref(access.boardId, assetId, need, access.token),
          expiresAt: access.expiresAt,
        };
        this.made.set(assetId, made);
      }
      out.set(assetId, made.href);
    }
    return out;
  }
}
