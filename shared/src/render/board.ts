// A whole board (its §10 JSON) as one SVG: what the server answers for `board.svg` and rasterises
// for `board.png` (docs/api.md §16), and what the client's export gives for the same shapes.
import type { ShapeRecord } from '../shapes.ts';
import { frameMembers } from './frames.ts';
import { type SvgOptions, toSvg } from './svg.ts';

export interface BoardSvgOptions extends SvgOptions {
  /** Only this frame and what lies inside it (`?frame=`); a frame that is not there renders nothing. */
  frame?: string | undefined;
}

/** The shapes drawn: all of them in paint order, or one frame's. */
export function shapesToDraw(shapes: readonly ShapeRecord[], frame?: string): ShapeRecord[] {
  if (frame === undefined) return [...shapes];
  const f = shapes.find((s) => s.id === frame && s.type === 'frame');
  if (!f) return [];
  const members = new Set(frameMembers(f, shapes));
  return [f, ...shapes.filter((s) => members.has(s.id))];
}

/** Board JSON in (shapes in paint order), SVG string out. Pure. */
export function boardSvg(
  board: { shapes: readonly ShapeRecord[] },
  options: BoardSvgOptions = {},
): { svg: string; width: number; height: number } {
  const all = new Map(board.shapes.map((s) => [s.id, s]));
  return toSvg(shapesToDraw(board.shapes, options.frame), all, options);
}
