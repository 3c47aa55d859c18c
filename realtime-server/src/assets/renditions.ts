// A kept smaller rendition of an image (docs/api.md §13), made on first use and stored, whoever
// asks for it first: a member's `GET …/assets/:assetId?w=`, or a public image (board.svg) that
// embeds the image.
import { makeRendition } from './images.ts';
import type { AssetStore, Rendition } from './store.ts';

/** Renditions being made in this process, by store, so a burst of requests makes each one once. */
const making = new WeakMap<AssetStore, Map<string, Promise<Rendition | null>>>();

/** The asset's rendition `width` wide, made and kept when there is none yet; null: no such asset. */
export async function keptRendition(
  assets: AssetStore,
  boardId: string,
  assetId: string,
  width: number,
): Promise<Rendition | null> {
  const kept = await assets.getRendition(boardId, assetId, width);
  if (kept) return kept;
  let pending = making.get(assets);
  if (!pending) {
    pending = new Map();
    making.set(assets, pending);
  }
  const key = `${boardId}/${assetId}/${width}`;
  let made = pending.get(key);
  if (!made) {
    const inFlight = pending;
    made = (async () => {
      const original = await assets.get(boardId, assetId);
      if (!original) return null;
      const rendition = await makeRendition(original.data, width);
      await assets.putRendition(boardId, assetId, width, rendition);
      return rendition;
    })().finally(() => inFlight.delete(key));
    pending.set(key, made);
  }
  return made;
}
