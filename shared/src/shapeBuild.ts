// Building a new shape's Y.Map (docs/api.md §10), one builder for both sides: the client's
// create, paste and import, and the server's content-API and MCP writes. Defaults (size, colour,
// an arrow's box from its ends) are applied here, so a shape made either way is the same map.
import * as Y from 'yjs';
import {
  type ArrowEnd,
  type ColorName,
  defaultShapeColor,
  defaultShapeSize,
  type ShapeRecord,
  type ShapeType,
  textShapeTypes,
} from './shapes.ts';

/** Optional style and layout fields a shape may carry (§10 plus the editor's extras). */
export const extraKeys = [
  'fontSize',
  'align',
  'strokeWidth',
  'dash',
  'startHead',
  'endHead',
  'stroke',
  'fill',
  'fillStyle',
  'opacity',
  'roundness',
  'fontFamily',
  'sloppiness',
  'route',
  'groupId',
  'locked',
] as const;
export type ShapeExtras = Partial<Pick<ShapeRecord, (typeof extraKeys)[number]>>;

/** A shape to create: a §10 record whose id, size, rotation, colour and paint order may be left out. */
export interface NewShape extends ShapeExtras {
  type: ShapeType;
  x: number;
  y: number;
  w?: number | undefined;
  h?: number | undefined;
  rotation?: number | undefined;
  color?: ColorName | undefined;
  text?: string | undefined;
  /** Freehand: flat [x0, y0, x1, y1, …] relative to (x, y). */
  points?: number[] | undefined;
  from?: ArrowEnd | undefined;
  to?: ArrowEnd | undefined;
  /** Image: the board asset it shows. */
  assetId?: string | undefined;
  /** Image: its alt text (docs/api.md §10). */
  alt?: string | undefined;
  /** Frame: its name. */
  name?: string | undefined;
  id?: string | undefined;
  z?: string | undefined;
}

/** An arrow's two ends: given, or from its box (x, y) to (x + w, y + h). */
export function arrowEnds(s: NewShape): { from: ArrowEnd; to: ArrowEnd } {
  return {
    from: s.from ?? { x: s.x, y: s.y },
    to: s.to ?? { x: s.x + (s.w ?? 0), y: s.y + (s.h ?? 0) },
  };
}

/** The box a new shape will have: its size defaulted per type; an arrow's is that of its two ends. */
export function newShapeBox(s: NewShape): { x: number; y: number; w: number; h: number } {
  if (s.type === 'arrow') {
    const { from, to } = arrowEnds(s);
    return {
      x: Math.min(from.x, to.x),
      y: Math.min(from.y, to.y),
      w: Math.abs(to.x - from.x),
      h: Math.abs(to.y - from.y),
    };
  }
  const size = defaultShapeSize[s.type];
  return { x: s.x, y: s.y, w: Math.max(0, s.w ?? size.w), h: Math.max(0, s.h ?? size.h) };
}

/** Builds the Y.Map of a shape without inserting it; `z` is its paint-order key. */
export function buildShapeMap(s: NewShape, createdBy: string, z: string): Y.Map<unknown> {
  const m = new Y.Map<unknown>();
  const box = newShapeBox(s);
  m.set('type', s.type);
  m.set('x', box.x);
  m.set('y', box.y);
  m.set('w', box.w);
  m.set('h', box.h);
  m.set('rotation', s.rotation ?? 0);
  m.set('color', s.color ?? defaultShapeColor[s.type]);
  m.set('z', z);
  m.set('createdBy', createdBy);
  for (const k of extraKeys) if (s[k] !== undefined) m.set(k, s[k]);
  if (textShapeTypes.has(s.type)) m.set('text', new Y.Text(s.text ?? ''));
  // A connector's label is made when first typed (the client's ensureLabel); a copy, a paste, an
  // import or an added arrow keeps the label it comes with (every copy was a bare arrow).
  if (s.type === 'arrow' && s.text) m.set('text', new Y.Text(s.text));
  if (s.type === 'freehand') m.set('points', s.points ?? []);
  if (s.type === 'image') m.set('assetId', s.assetId ?? '');
  if (s.type === 'image' && s.alt) m.set('alt', s.alt);
  if (s.type === 'frame') m.set('name', new Y.Text(s.name ?? 'Frame'));
  if (s.type === 'arrow') {
    const { from, to } = arrowEnds(s);
    m.set('from', from);
    m.set('to', to);
  }
  return m;
}
