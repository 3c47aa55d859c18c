// Y.Map → plain ShapeRecord. Records that fail the shared schema are left out, never a crash
// (docs/api.md §5): a buggy or hostile client cannot break other people's renderers.
import { type ArrowEnd, ShapeRecord } from '@tandem/shared';
import * as Y from 'yjs';
import { type ShapeMap, shapesOf } from './doc.ts';

export function plainOf(id: string, m: ShapeMap): Record<string, unknown> {
  const out: Record<string, unknown> = { id };
  for (const [k, v] of m.entries()) out[k] = v instanceof Y.Text ? v.toString() : v;
  return out;
}

export function readShape(id: string, m: ShapeMap | undefined): ShapeRecord | null {
  if (!(m instanceof Y.Map)) return null;
  const parsed = ShapeRecord.safeParse(plainOf(id, m));
  return parsed.success ? parsed.data : null;
}

/** Every valid shape, in paint order (z, then id so concurrent equal keys still sort the same everywhere). */
export function readAll(doc: Y.Doc): ShapeRecord[] {
  const out: ShapeRecord[] = [];
  for (const [id, m] of shapesOf(doc).entries()) {
    const r = readShape(id, m);
    if (r) out.push(r);
  }
  return out.sort(byZ);
}

export function byZ(a: { z: string; id: string }, b: { z: string; id: string }): number {
  if (a.z !== b.z) return a.z < b.z ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function textOf(doc: Y.Doc, id: string): Y.Text | null {
  const t = shapesOf(doc).get(id)?.get('text');
  return t instanceof Y.Text ? t : null;
}

export type { ArrowEnd };
