// `/b/:boardId?thread=:threadId` (a mention on the dashboard) opens the board at that thread: once
// the threads and the shapes are loaded, the view moves to its pin and the thread opens. A thread
// of another page (docs/api.md §17) opens that page first, with the same `?thread=`.
import { useEffect, useRef } from 'react';
import { navigate, useLocation } from '../../router.tsx';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { pagePath } from '../pages/model.ts';
import { useEditor } from '../store.ts';
import { pinPosition } from './threads.ts';
import type { Comments } from './useComments.ts';

export function useOpenThreadFromLink(
  comments: Comments,
  index: ShapeIndex,
  boardId: string,
  pageId: string,
): void {
  const { path, search } = useLocation();
  const wanted = search.get('thread');
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (!wanted || done.current === wanted || !comments.loaded) return;
    const thread = comments.threads.find((t) => t.id === wanted);
    done.current = wanted;
    // The link has done its work: a reload shows the board as it is, not this thread again.
    navigate(path, { replace: true });
    if (!thread) {
      useEditor.getState().setNotice('That comment thread was deleted.');
      return;
    }
    // Its shape is on its own page. A page since deleted is refused by the server and its first
    // page shown (Editor), without `?thread=`, so this cannot go round.
    if (thread.pageId !== pageId) {
      navigate(`${pagePath(boardId, thread.pageId)}?thread=${encodeURIComponent(thread.id)}`, {
        replace: true,
      });
      return;
    }
    const st = useEditor.getState();
    const go = () => {
      const at = pinPosition(thread, index.getSnapshot().byId);
      if (at) st.setViewport({ x: at.x, y: at.y, zoom: Math.max(st.viewport.zoom, 0.8) });
      st.openThread(thread.id);
    };
    // A shape's position is known once the board's content has loaded.
    if (pinPosition(thread, index.getSnapshot().byId) || 'x' in thread.anchor) go();
    else {
      let waited = false;
      const off = index.subscribe(() => {
        if (waited || !pinPosition(thread, index.getSnapshot().byId)) return;
        waited = true;
        off();
        go();
      });
      // Shown even if the shape never comes (deleted): the card opens where the view is.
      setTimeout(() => {
        if (waited) return;
        waited = true;
        off();
        go();
      }, 3000);
    }
  }, [wanted, comments.loaded, comments.threads, index, path, boardId, pageId]);
}
