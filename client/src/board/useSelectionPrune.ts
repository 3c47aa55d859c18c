// Keeps the selection to shapes that exist: when someone else deletes a selected shape, it leaves
// the selection, so the style panel does not stay open over nothing.
import { useEffect } from 'react';
import type { ShapeIndex } from './canvas/shapeIndex.ts';
import { useEditor } from './store.ts';

export function useSelectionPrune(index: ShapeIndex): void {
  useEffect(
    () =>
      index.subscribe(() => {
        const st = useEditor.getState();
        const byId = index.getSnapshot().byId;
        if (st.selection.some((id) => !byId.has(id))) st.select(st.selection.filter((id) => byId.has(id)));
      }),
    [index],
  );
}
