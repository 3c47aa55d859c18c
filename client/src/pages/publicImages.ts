// The image URLs of a live public view (docs/api.md §16): the shared renderer draws each image
// from a URL named by the public link (no cookie goes with an anonymous viewer), at the rendition
// its drawn width needs. Pure.
import { publicAssetHref, renditionFor, type ShapeRecord } from '@tandem/shared';

interface Made {
  /** The rendition in the URL; null for the original. */
  width: number | null;
  href: string;
}

/** Whether a URL at rendition `have` serves a drawing that needs `need` (null: the original). */
const wideEnough = (have: number | null, need: number | null) =>
  have === null || (need !== null && have >= need);

export class PublicImageUrls {
  private readonly made = new Map<string, Made>();

  constructor(private readonly linkToken: string) {}

  /**
   * The URL of every image drawn, by asset id. An image keeps the URL it was first given while that
   * is wide enough: the browser holds the bytes under it (they never change under an asset id),
   * and the URL names the link, not the viewer's 15-minute access token, so a view left open does
   * not load its images again as the token is renewed. A drawing made wider asks for a wider one.
   */
  hrefs(shapes: readonly ShapeRecord[], pixelRatio: number): Map<string, string> {
    const needs = new Map<string, number | null>();
    for (const s of shapes) {
      if (s.type !== 'image' || !s.assetId) continue;
      const need = renditionFor(s.w * pixelRatio);
      const before = needs.get(s.assetId);
      // The widest drawing of an asset decides (one URL per asset in the renderer).
      needs.set(s.assetId, before === undefined || wideEnough(need, before) ? need : before);
    }
    const out = new Map<string, string>();
    for (const [assetId, need] of needs) {
      let made = this.made.get(assetId);
      if (!made || !wideEnough(made.width, need)) {
        made = { width: need, href: publicAssetHref(this.linkToken, assetId, need) };
        this.made.set(assetId, made);
      }
      out.set(assetId, made.href);
    }
    return out;
  }
}
