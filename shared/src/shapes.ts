// The board document (SPEC §10): shape records inside doc.getMap('shapes').
import { z } from 'zod';

export const SHAPES_KEY = 'shapes';
export const META_KEY = 'meta';

export const shapeTypes = ['sticky', 'rect', 'ellipse', 'diamond', 'text', 'arrow', 'freehand'] as const;
export const ShapeType = z.enum(shapeTypes);
export type ShapeType = z.infer<typeof ShapeType>;
/** Types whose record carries a Y.Text under `text`. */
export const textShapeTypes: ReadonlySet<ShapeType> = new Set([
  'sticky',
  'rect',
  'ellipse',
  'diamond',
  'text',
]);

/** The eight named colours, with the fill each renders as. */
export const colors = {
  yellow: '#ffd84d',
  orange: '#ff9f43',
  red: '#ff6b6b',
  pink: '#f78fb3',
  violet: '#a29bfe',
  blue: '#54a0ff',
  green: '#4cd137',
  grey: '#a4b0be',
} as const;
export const colorNames = Object.keys(colors) as (keyof typeof colors)[];
export const ColorName = z.enum(colorNames as [keyof typeof colors, ...(keyof typeof colors)[]]);
export type ColorName = z.infer<typeof ColorName>;

const finite = z.number().finite();
export const ArrowEnd = z.object({ shapeId: z.string().max(64).optional(), x: finite, y: finite });
export type ArrowEnd = z.infer<typeof ArrowEnd>;

/** A shape record as plain JSON (Y.Text rendered to a string): what export/import and renderers check. */
export const ShapeRecord = z.object({
  id: z.string().min(1).max(64),
  type: ShapeType,
  x: finite,
  y: finite,
  w: finite.min(0),
  h: finite.min(0),
  rotation: finite,
  color: ColorName,
  z: z.string().min(1).max(200),
  createdBy: z.string().max(64),
  text: z.string().max(100_000).optional(),
  points: z.array(finite).max(100_000).optional(),
  from: ArrowEnd.optional(),
  to: ArrowEnd.optional(),
});
export type ShapeRecord = z.infer<typeof ShapeRecord>;

export const BoardExport = z.object({
  version: z.literal(1),
  shapes: z.array(ShapeRecord).max(100_000),
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type BoardExport = z.infer<typeof BoardExport>;
