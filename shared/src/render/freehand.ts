// Freehand stroke outline (perfect-freehand) as an SVG path, shared by the canvas and the exporter.
import { getStroke } from 'perfect-freehand';

/** The outline of a stroke through `points` (x, y pairs), as an SVG path. A finished stroke ends at
 * its last point; one still being drawn (`complete: false`) may trail the pointer a little, as
 * streamlining smooths it. */
export function strokePath(points: number[], { size = 6, complete = true } = {}): string {
  const input: [number, number][] = [];
  for (let i = 0; i + 1 < points.length; i += 2) input.push([points[i]!, points[i + 1]!]);
  // perfect-freehand's `last` (false unless given) places the final point where the input ended;
  // without it a finished stroke stopped short of the release, by up to a third of a quick flick.
  const outline = getStroke(input, { size, thinning: 0.5, smoothing: 0.5, streamline: 0.5, last: complete });
  if (outline.length === 0) return '';
  let d = `M${outline[0]![0].toFixed(2)} ${outline[0]![1].toFixed(2)}`;
  for (let i = 1; i < outline.length; i++) d += `L${outline[i]![0].toFixed(2)} ${outline[i]![1].toFixed(2)}`;
  return `${d}Z`;
}

const strokes = new WeakMap<readonly number[], string>();
/** strokePath for a record's points array, computed once per array: a stroke that scrolls out of
 * view and back (unmounted, then mounted again) is not traced again. Records keep their arrays
 * while unchanged, and an edit brings a new array. */
export function cachedStrokePath(points: number[]): string {
  const known = strokes.get(points);
  if (known !== undefined) return known;
  const d = strokePath(points);
  strokes.set(points, d);
  return d;
}
