// The minimap's arithmetic, pure: which board area it shows, where a shape or the view lands on
// it, and which board point a press on it means.
import { type Point, type Rect, unionRect } from './geometry.ts';

/** How a board area maps onto a minimap of `size` pixels: screen = (board - origin) * scale + offset. */
export interface MinimapFrame {
  origin: Point;
  scale: number;
  /** Centres the area on the minimap's other axis when its aspect differs. */
  offset: Point;
}

/**
 * The frame that shows the whole board and the current view, with a margin, fitted into `size`.
 * An empty board shows the view alone.
 */
export function minimapFrame(
  content: Rect | null,
  view: Rect,
  size: { w: number; h: number },
  margin = 0.05,
): MinimapFrame {
  const area = unionRect(content ? [content, view] : [view])!;
  const padX = Math.max(area.w, 1) * margin;
  const padY = Math.max(area.h, 1) * margin;
  const w = Math.max(area.w, 1) + 2 * padX;
  const h = Math.max(area.h, 1) + 2 * padY;
  const scale = Math.min(size.w / w, size.h / h);
  return {
    origin: { x: area.x - padX, y: area.y - padY },
    scale,
    offset: { x: (size.w - w * scale) / 2, y: (size.h - h * scale) / 2 },
  };
}

/** A board rectangle in minimap pixels. */
export function toMinimap(f: MinimapFrame, r: Rect): Rect {
  return {
    x: (r.x - f.origin.x) * f.scale + f.offset.x,
    y: (r.y - f.origin.y) * f.scale + f.offset.y,
    w: r.w * f.scale,
    h: r.h * f.scale,
  };
}

/** The board point under minimap pixel (mx, my). */
export function fromMinimap(f: MinimapFrame, mx: number, my: number): Point {
  return { x: f.origin.x + (mx - f.offset.x) / f.scale, y: f.origin.y + (my - f.offset.y) / f.scale };
}
