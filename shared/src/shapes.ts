// The board document (docs/api.md §10): shape records inside doc.getMap('shapes').
import { z } from 'zod';
import { MAX_ALT_TEXT } from './limits.ts';

export const SHAPES_KEY = 'shapes';
export const META_KEY = 'meta';

export const shapeTypes = [
  'sticky',
  'rect',
  'ellipse',
  'diamond',
  'text',
  'arrow',
  'freehand',
  'image',
  'frame',
] as const;
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

/**
 * The presence palette (docs/api.md §3): the eight shape colours. An account's colour is one of
 * them, and so is any colour a person picks for themselves.
 */
export const presenceColors: readonly string[] = Object.values(colors);
export const isPresenceColor = (v: unknown): v is string =>
  typeof v === 'string' && presenceColors.includes(v);

/** A new shape's size and colour when its creator gives none (the editor's tools and the content API). */
export const defaultShapeSize: Record<ShapeType, { w: number; h: number }> = {
  sticky: { w: 200, h: 200 },
  rect: { w: 200, h: 120 },
  ellipse: { w: 200, h: 120 },
  diamond: { w: 180, h: 140 },
  text: { w: 240, h: 40 },
  arrow: { w: 0, h: 0 },
  freehand: { w: 0, h: 0 },
  image: { w: 320, h: 240 },
  frame: { w: 800, h: 500 },
};
export const defaultShapeColor: Record<ShapeType, ColorName> = {
  sticky: 'yellow',
  rect: 'blue',
  ellipse: 'green',
  diamond: 'violet',
  text: 'grey',
  arrow: 'grey',
  freehand: 'grey',
  image: 'grey',
  frame: 'grey',
};

const finite = z.number().finite();
/** Text size of text-bearing shapes (a sticky shrinks below it, to a floor, before it grows). */
export const fontSizes = { s: 12, m: 16, l: 24, xl: 36 } as const;
export const FontSize = z.enum(['s', 'm', 'l', 'xl']);
export type FontSize = z.infer<typeof FontSize>;
export const TextAlign = z.enum(['start', 'middle', 'end']);
export type TextAlign = z.infer<typeof TextAlign>;
export const Dash = z.enum(['solid', 'dashed', 'dotted']);
export type Dash = z.infer<typeof Dash>;
export const ArrowHead = z.enum(['none', 'arrow', 'triangle', 'dot']);
export type ArrowHead = z.infer<typeof ArrowHead>;
/** Stroke widths offered in the style panel (board units); any width in range is valid. */
export const strokeWidths = [1, 2, 4, 8] as const;

/** A colour: one of the eight names, or a custom `#rrggbb`. */
export const CustomColor = z.string().regex(/^#[0-9a-f]{6}$/i, 'a colour is a palette name or #rrggbb');
export const ColorValue = z.union([ColorName, CustomColor]);
export type ColorValue = z.infer<typeof ColorValue>;
/** How an outlined shape is filled; a record without `fillStyle` keeps the light tint of its colour. */
export const FillStyle = z.enum(['none', 'solid', 'hatched', 'cross-hatched']);
export type FillStyle = z.infer<typeof FillStyle>;
export const Roundness = z.enum(['sharp', 'round']);
export type Roundness = z.infer<typeof Roundness>;
export const FontFamily = z.enum(['hand', 'sans', 'mono']);
export type FontFamily = z.infer<typeof FontFamily>;
/** The hand-drawn look: architect draws exact lines (the look of a record without it), artist and
 * cartoonist ever rougher strokes (docs/api.md §10). */
export const Sloppiness = z.enum(['architect', 'artist', 'cartoonist']);
export type Sloppiness = z.infer<typeof Sloppiness>;
/** How an arrow runs between its ends. */
export const Route = z.enum(['straight', 'elbow', 'curved']);
export type Route = z.infer<typeof Route>;

/** What a record without a style field is drawn with, so boards saved before a field existed keep
 * their look (docs/api.md §10). `stroke` and `fill` default to the shape's `color`. */
export const styleDefaults = {
  fontSize: 'm',
  strokeWidth: 2,
  dash: 'solid',
  opacity: 1,
  roundness: 'round',
  fontFamily: 'sans',
  sloppiness: 'architect',
  route: 'straight',
  startHead: 'none',
  endHead: 'arrow',
} as const satisfies Record<string, string | number>;

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
  // Style and layout fields (all optional: a record without them renders with the defaults).
  fontSize: FontSize.optional(),
  align: TextAlign.optional(),
  strokeWidth: finite.min(0.5).max(32).optional(),
  dash: Dash.optional(),
  startHead: ArrowHead.optional(),
  endHead: ArrowHead.optional(),
  /** Outline colour (default: the ink of `color`). */
  stroke: ColorValue.optional(),
  /** Fill colour (default: `color`); drawn per `fillStyle`. */
  fill: ColorValue.optional(),
  fillStyle: FillStyle.optional(),
  /** 0 (invisible) to 1 (opaque). */
  opacity: finite.min(0).max(1).optional(),
  roundness: Roundness.optional(),
  fontFamily: FontFamily.optional(),
  sloppiness: Sloppiness.optional(),
  /** arrow: straight, elbow (orthogonal, around its end shapes) or curved. */
  route: Route.optional(),
  /** Shapes sharing a groupId select, move and resize together. */
  groupId: z.string().min(1).max(64).optional(),
  /** A locked shape cannot be selected by a click or marquee, moved, resized or deleted until unlocked. */
  locked: z.boolean().optional(),
  /** image: the board asset it shows (docs/api.md §13). */
  assetId: z.string().max(128).optional(),
  /** image: its text alternative, what a screen reader says for it and an export's <title>. */
  alt: z
    .string()
    .max(MAX_ALT_TEXT, { error: `Alt text has at most ${MAX_ALT_TEXT} characters.` })
    .optional(),
  /** frame: its name (a Y.Text in the document), shown above it (docs/api.md §10, §14). */
  name: z.string().max(200).optional(),
});
export type ShapeRecord = z.infer<typeof ShapeRecord>;

/** One page of a board's JSON export (docs/api.md §17): the server's export.json and the client's alike. */
export const PageExport = z.object({
  id: z.string().max(64),
  name: z.string().max(100),
  shapes: z.array(ShapeRecord).max(100_000),
});
export type PageExport = z.infer<typeof PageExport>;

export const BoardExport = z.object({
  version: z.literal(1),
  shapes: z.array(ShapeRecord).max(100_000),
  meta: z.record(z.string(), z.unknown()).optional(),
  /** The board's images as data URLs by asset id, so an import can upload them to the new board. */
  assets: z.record(z.string().max(128), z.string().startsWith('data:image/')).optional(),
  /**
   * The board's comment threads with their comments (docs/api.md §18), as `GET …/threads` answers
   * them: carried by the server's export.json for the record; an import does not recreate them.
   */
  threads: z.array(z.record(z.string(), z.unknown())).optional(),
  /**
   * Every page of a board of several (docs/api.md §17), in order, the first page's shapes being
   * `shapes` above too: `{id, name, shapes}` each. Absent for a board of one page.
   */
  pages: z.array(PageExport).max(100).optional(),
});
export type BoardExport = z.infer<typeof BoardExport>;
