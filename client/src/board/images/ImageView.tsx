// Draws an image shape. At low zoom it asks for a smaller rendition (`?w=`) sized to what the
// screen shows, so a zoomed-out board of photos does not download them at full size; the
// picture on screen changes only once the next one has loaded, so zooming never flashes blank.
import { assetHref, renditionFor, type ShapeRecord } from '@tandem/shared';
import { useEffect, useState } from 'react';
import { useEditor } from '../store.ts';
import { useImages } from './state.ts';

const loaded = new Set<string>();

/**
 * Decode off the frame that first paints an image, so one scrolling into view does not hold up
 * the pan. Chromium honours `decoding` on SVG `<image>`; React's SVG types do not list it.
 */
const asyncDecoding = { decoding: 'async' } as Record<string, string>;

export function ImageBody({ s }: { s: ShapeRecord }) {
  const boardId = useImages((st) => st.boardId);
  // Subscribes to the rendition width only, so zooming re-renders an image when it crosses a step.
  const width = useEditor((st) => renditionFor(s.w * st.viewport.zoom * (globalThis.devicePixelRatio || 1)));
  const wanted = boardId && s.assetId ? assetHref(boardId, s.assetId, width) : null;
  const [shown, setShown] = useState<string | null>(() => (wanted && loaded.has(wanted) ? wanted : null));
  useEffect(() => {
    if (!wanted || wanted === shown) return;
    if (loaded.has(wanted) || shown === null) {
      // Nothing on screen yet: show it as it loads.
      setShown(wanted);
      return;
    }
    let cancelled = false;
    const img = new Image();
    img.src = wanted;
    img
      .decode()
      .then(() => {
        loaded.add(wanted);
        if (!cancelled) setShown(wanted);
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [wanted, shown]);
  return (
    <>
      <rect className="image-backdrop" width={s.w} height={s.h} />
      {shown && (
        <image
          href={shown}
          width={s.w}
          height={s.h}
          preserveAspectRatio="none"
          {...asyncDecoding}
          onLoad={() => loaded.add(shown)}
          data-asset-id={s.assetId}
        />
      )}
    </>
  );
}
