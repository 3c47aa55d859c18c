// Edits a shape's text in place. The textarea is bound to the shape's Y.Text: local input becomes
// the smallest insert/delete, remote edits are applied to the field with the caret carried
// through them, so two people typing in one note merge by character. It closes on Escape or a
// press on the canvas, not on blur: another window taking focus must not end an edit.
import { useEffect, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type * as Y from 'yjs';
import { textOf } from '../model/read.ts';
import { replaceText } from '../model/shapes.ts';
import { toScreen, useEditor } from '../store.ts';
import type { ShapeIndex } from './shapeIndex.ts';

export function TextEditor({ doc, index }: { doc: Y.Doc; index: ShapeIndex }) {
  const editingId = useEditor((s) => s.editingId);
  const viewport = useEditor((s) => s.viewport);
  const screen = useEditor((s) => s.screen);
  const setEditing = useEditor((s) => s.setEditing);
  const snap = useSyncExternalStore(index.subscribe, index.getSnapshot);
  const ref = useRef<HTMLTextAreaElement>(null);
  const rec = editingId ? snap.byId.get(editingId) : undefined;

  useEffect(() => {
    if (editingId && !rec) setEditing(null); // deleted while being edited
  }, [editingId, rec, setEditing]);

  useEffect(() => {
    const el = ref.current;
    if (!editingId || !el) return;
    const ytext = textOf(doc, editingId);
    if (!ytext) return;
    el.value = ytext.toString();
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
    const onRemote = (e: Y.YTextEvent) => {
      if (e.transaction.local) return;
      let start = el.selectionStart;
      let end = el.selectionEnd;
      let pos = 0;
      for (const op of e.delta) {
        if (op.retain) pos += op.retain;
        else if (typeof op.insert === 'string') {
          const n = op.insert.length;
          if (pos <= start) start += n;
          if (pos <= end) end += n;
          pos += n;
        } else if (op.delete) {
          const n = op.delete;
          if (pos < start) start -= Math.min(n, start - pos);
          if (pos < end) end -= Math.min(n, end - pos);
        }
      }
      el.value = ytext.toString();
      el.setSelectionRange(start, end);
    };
    ytext.observe(onRemote);
    return () => ytext.unobserve(onRemote);
  }, [doc, editingId]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && rec?.type === 'text') {
      el.style.height = 'auto';
      el.style.height = `${el.scrollHeight}px`;
    }
  });

  if (!editingId || !rec) return null;
  const tl = toScreen(viewport, screen, rec.x, rec.y);
  const centred = rec.type !== 'sticky' && rec.type !== 'text';
  return (
    <textarea
      ref={ref}
      className={`text-editor ${rec.type} ${centred ? 'centred' : ''}`}
      aria-label="Shape text"
      spellCheck={false}
      style={{
        left: tl.x,
        top: tl.y,
        width: rec.w,
        height: rec.type === 'text' ? undefined : rec.h,
        minHeight: rec.type === 'text' ? rec.h : undefined,
        transform: `scale(${viewport.zoom}) rotate(${rec.rotation}rad)`,
        transformOrigin: '0 0',
      }}
      onInput={(e) => replaceText(doc, editingId, e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          setEditing(null);
          (document.querySelector('[aria-label="Board canvas"]') as HTMLElement | null)?.focus();
        }
        e.stopPropagation();
      }}
    />
  );
}
