// A live, validated view of the shapes map for rendering. It re-reads only the shapes an update
// touched, so a remote edit on a 5,000-shape board costs one record, and keeps each record's
// bounds for viewport culling. Unchanged records keep their identity, so memoised views skip them.
import type { ShapeRecord } from '@tandem/shared';
import type * as Y from 'yjs';
import { shapesOf } from '../model/doc.ts';
import { boundsOf, type Rect } from '../model/geometry.ts';
import { byZ, readShape } from '../model/read.ts';

export interface IndexedShape {
  rec: ShapeRecord;
  bounds: Rect;
}

export interface ShapeSnapshot {
  list: IndexedShape[];
  byId: Map<string, ShapeRecord>;
}

export class ShapeIndex {
  private entries = new Map<string, IndexedShape>();
  private snap: ShapeSnapshot = { list: [], byId: new Map() };
  private listeners = new Set<() => void>();
  private readonly map: Y.Map<Y.Map<unknown>>;

  constructor(doc: Y.Doc) {
    this.map = shapesOf(doc);
    for (const id of this.map.keys()) this.refresh(id);
    this.rebuild();
    this.map.observeDeep(this.onChange);
  }

  private onChange = (events: Y.YEvent<Y.AbstractType<unknown>>[]) => {
    const touched = new Set<string>();
    for (const e of events) {
      if (e.target === this.map) for (const k of e.keys.keys()) touched.add(k);
      else {
        // A change inside one shape (a field or its Y.Text): the path starts at its id.
        const first = e.path[0];
        if (typeof first === 'string') touched.add(first);
      }
    }
    for (const id of touched) this.refresh(id);
    this.rebuild();
  };

  private refresh(id: string): void {
    const rec = readShape(id, this.map.get(id));
    if (rec) this.entries.set(id, { rec, bounds: boundsOf(rec) });
    else this.entries.delete(id);
  }

  private rebuild(): void {
    const list = [...this.entries.values()].sort((a, b) => byZ(a.rec, b.rec));
    this.snap = { list, byId: new Map(list.map((e) => [e.rec.id, e.rec])) };
    for (const fn of this.listeners) fn();
  }

  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  };
  getSnapshot = (): ShapeSnapshot => this.snap;

  destroy(): void {
    this.map.unobserveDeep(this.onChange);
    this.listeners.clear();
  }
}
