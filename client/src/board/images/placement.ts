// Pure geometry for images: the size a new image is placed at, and resizing that keeps the
// aspect ratio (docs/api.md §13, tested in client/test/images.test.ts).
import type { Point, Rect } from '../model/geometry.ts';

/**
 * Board size for an image of `natural` pixels: its own size at 100 % zoom, but never more than
 * 60 % of the visible board, so a photo pasted while zoomed in still fits the view.
 */
export function placedSize(
  natural: { width: number; height: number },
  visible: { w: number; h: number },
): { w: number; h: number } {
  const width = Math.max(1, natural.width);
  const height = Math.max(1, natural.height);
  const scale = Math.min(1, (visible.w * 0.6) / width, (visible.h * 0.6) / height);
  return { w: width * scale, h: height * scale };
}

/** The rectangle of size `size` centred on `at`. */
export const centredAt = (at: Point, size: { w: number; h: number }): Rect => ({
  x: at.x - size.w / 2,
  y: at.y - size.h / 2,
  w: size.w,
  h: size.h,
});

/**
 * A corner drag of `box` to `p`, keeping the box's aspect ratio: the corner opposite the handle
 * stays put and the larger of the two scale factors wins, so the box follows the pointer.
 */
export function resizeKeepingAspect(box: Rect, handle: 'nw' | 'ne' | 'sw' | 'se', p: Point): Rect {
  const fixed = {
    x: handle.includes('w') ? box.x + box.w : box.x,
    y: handle.includes('n') ? box.y + box.h : box.y,
  };
  const ratio = box.w / Math.max(box.h, 1e-9);
  const dx = Math.abs(p.x - fixed.x);
  const dy = Math.abs(p.y - fixed.y);
  const w = Math.max(1, Math.max(dx, dy * ratio));
  const h = w / ratio;
  // The box flips over the fixed corner when the pointer crosses it, as a free resize does.
  const towardX = p.x >= fixed.x ? 1 : -1;
  const towardY = p.y >= fixed.y ? 1 : -1;
  return {
    x: towardX > 0 ? fixed.x : fixed.x - w,
    y: towardY > 0 ? fixed.y : fixed.y - h,
    w,
    h,
  };
}
