// State the facilitation views share: the document's meta map, the server's clock, the shapes.
import { useEffect, useState, useSyncExternalStore } from 'react';
import type * as Y from 'yjs';
import { api } from '../../api/client.ts';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { metaOf } from '../model/doc.ts';
import { measureOffset } from './clock.ts';

/** A value read from the document's `meta` map, re-read on every change to it. */
export function useMeta<T>(doc: Y.Doc, read: (doc: Y.Doc) => T): T {
  const [value, setValue] = useState(() => read(doc));
  useEffect(() => {
    const meta = metaOf(doc);
    const update = () => setValue(read(doc));
    meta.observe(update);
    update();
    return () => meta.unobserve(update);
  }, [doc, read]);
  return value;
}

/** This browser's offset from the server's clock, measured on mount (docs/api.md §14). */
export function useServerOffset(): number {
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    let live = true;
    void measureOffset(() => api.time().then((a) => a.now)).then((o) => {
      if (live && o) setOffset(o.offsetMs);
    });
    return () => {
      live = false;
    };
  }, []);
  return offset;
}

export function useShapes(index: ShapeIndex) {
  return useSyncExternalStore(index.subscribe, index.getSnapshot);
}
