// Images in exports and imports (docs/api.md §13): PNG and SVG exports embed each image as a data URL,
// JSON exports carry them in `assets` (by asset id), and an import uploads them to the board it
// goes into, pointing the imported shapes at the new ids.
import type { BoardExport, ShapeRecord } from '@tandem/shared';
import { assetDataUrl, dataUrlToBlob, uploadAsset } from './upload.ts';

/** Data URLs of the images `shapes` show, by asset id; an image that cannot be fetched is left out. */
export async function imagesOf(boardId: string, shapes: ShapeRecord[]): Promise<Map<string, string>> {
  const ids = [...new Set(shapes.filter((s) => s.type === 'image' && s.assetId).map((s) => s.assetId!))];
  const out = new Map<string, string>();
  await Promise.all(
    ids.map(async (id) => {
      const url = await assetDataUrl(boardId, id);
      if (url) out.set(id, url);
    }),
  );
  return out;
}

/** The board export with its images attached. */
export async function withImages(boardId: string, data: BoardExport): Promise<BoardExport> {
  // Every page's images (docs/api.md §17): `pages` includes the first page.
  const images = await imagesOf(boardId, data.pages ? data.pages.flatMap((p) => p.shapes) : data.shapes);
  return images.size === 0 ? data : { ...data, assets: Object.fromEntries(images) };
}

export interface ImportedImages {
  data: unknown;
  /** Images that could not be uploaded (their shapes are left out), with the first reason. */
  failed: number;
  reason: string | null;
}

/**
 * Uploads the images an export carries to `boardId` and answers the export with its shapes
 * pointing at the new assets. Anything that is not an export with images is answered unchanged.
 */
export async function uploadImported(boardId: string, input: unknown): Promise<ImportedImages> {
  const data = input as { shapes?: unknown; assets?: unknown; pages?: unknown } | null;
  if (!data || typeof data !== 'object' || !Array.isArray(data.shapes)) {
    return { data: input, failed: 0, reason: null };
  }
  const assets =
    data.assets && typeof data.assets === 'object' ? (data.assets as Record<string, unknown>) : {};
  const mapped = new Map<string, string>();
  let failed = 0;
  let reason: string | null = null;
  for (const [oldId, url] of Object.entries(assets)) {
    if (typeof url !== 'string' || !url.startsWith('data:image/')) continue;
    const result = await uploadAsset(boardId, await dataUrlToBlob(url), () => {});
    if (result.ok) mapped.set(oldId, result.asset.id);
    else {
      failed++;
      reason ??= result.refused ? result.sentence : 'The images could not be uploaded: you are offline.';
    }
  }
  const remap = (list: unknown) =>
    (Array.isArray(list) ? (list as Record<string, unknown>[]) : []).flatMap((shape) => {
      if (!shape || typeof shape !== 'object' || shape.type !== 'image') return [shape];
      const next = typeof shape.assetId === 'string' ? mapped.get(shape.assetId) : undefined;
      // An image whose bytes did not come along would show nothing: leave it out.
      return next ? [{ ...shape, assetId: next }] : [];
    });
  const { assets: _dropped, ...rest } = data;
  const pages = Array.isArray(data.pages)
    ? {
        pages: (data.pages as unknown[]).map((page) =>
          page && typeof page === 'object'
            ? { ...page, shapes: remap((page as { shapes?: unknown }).shapes) }
            : page,
        ),
      }
    : {};
  return { data: { ...rest, shapes: remap(data.shapes), ...pages }, failed, reason };
}
