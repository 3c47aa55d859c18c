// Edits a shape's text in place. The textarea is bound to the shape's Y.Text through a TextBinding:
// local input becomes the smallest insert/delete at the caret, and others' edits are applied to the
// field with the caret kept as a Yjs relative position, so two people typing at one spot each keep
// their own run of letters. The note's font shrinks to fit (shared text layout) and past the floor
// the note grows. It closes on Escape or a press on the canvas, not on blur: another window taking
// focus must not end an edit.

import type { ShapeRecord } from '@tandem/shared';
import { useEffect, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type * as Y from 'yjs';
import { fontStacks } from '../drawing/fonts.ts';
import { connectorPath, labelBox } from '../model/connectors.ts';
import { shapesOf } from '../model/doc.ts';
import { drawnTopLeft, resizedInPlace } from '../model/geometry.ts';
import { textOf } from '../model/read.ts';
import { resizeShape } from '../model/shapes.ts';
import { TextBinding } from '../model/textBinding.ts';
import { textBoxFor } from '../model/textFit.ts';
import { dropEmptyText } from '../model/textInput.ts';
import { layoutText } from '../model/textLayout.ts';
import { toScreen, useEditor } from '../store.ts';
import { layoutOf, measureIn } from './measure.ts';
import type { ShapeIndex } from './shapeIndex.ts';

/** Typing ends with the keys back on the board, as at Escape. */
const focusCanvas = () =>
  (document.querySelector('[aria-label="Board canvas"]') as HTMLElement | null)?.focus();

/** The board's undo and redo (the toolbar's), which Ctrl+Z and Ctrl+Y call while text is typed. */
export interface TextHistory {
  undo(): unknown;
  redo(): unknown;
}

export function TextEditor({
  doc,
  index,
  history,
  canvasUndo,
}: {
  doc: Y.Doc;
  index: ShapeIndex;
  history: TextHistory;
  /** The canvas's own undo steps, from which an empty text box's making is dropped. */
  canvasUndo: Y.UndoManager;
}) {
  const editingId = useEditor((s) => s.editingId);
  const viewport = useEditor((s) => s.viewport);
  const screen = useEditor((s) => s.screen);
  const setEditing = useEditor((s) => s.setEditing);
  const snap = useSyncExternalStore(index.subscribe, index.getSnapshot);
  const ref = useRef<HTMLTextAreaElement>(null);
  const binding = useRef<TextBinding | null>(null);
  const rec = editingId ? snap.byId.get(editingId) : undefined;

  useEffect(() => {
    // Someone else deleted the note being typed in: close the editor, say so, and keep the next
    // keystrokes from turning into tool shortcuts (docs/api.md §11 keys are ignored until a click or Esc).
    // Asked of the store as it is now: this render's editingId may be one a page change has
    // cleared since (Editor's leavePage), which is no note of this page at all.
    if (editingId && !rec && useEditor.getState().editingId === editingId)
      useEditor.getState().noteDeletedWhileTyping();
  }, [editingId, rec]);

  // However typing ends (Escape, a press elsewhere, another tool, another page), a text shape
  // left with no words is removed: it was invisible and stayed stored (model/textInput.ts).
  useEffect(
    () =>
      useEditor.subscribe((s, prev) => {
        if (prev.editingId && s.editingId !== prev.editingId) dropEmptyText(doc, canvasUndo, prev.editingId);
      }),
    [doc, canvasUndo],
  );

  useEffect(() => {
    const el = ref.current;
    if (!editingId || !el) return;
    const ytext = textOf(doc, editingId);
    if (!ytext) return;
    const b = new TextBinding(doc, ytext);
    binding.current = b;
    const show = () => {
      const st = b.state();
      if (el.value !== st.value) el.value = st.value;
      el.setSelectionRange(st.start, st.end);
    };
    show();
    el.focus();
    // Every change the field did not make itself (others' typing, undo) is shown with the caret
    // carried through it.
    const onChange = () => {
      if (el.value !== ytext.toString()) show();
    };
    ytext.observe(onChange);
    const onSelect = () => {
      if (document.activeElement === el) b.select(el.selectionStart, el.selectionEnd);
    };
    document.addEventListener('selectionchange', onSelect);
    return () => {
      ytext.unobserve(onChange);
      document.removeEventListener('selectionchange', onSelect);
      binding.current = null;
    };
  }, [doc, editingId]);

  // Undo while typing is the board's, step by step as the toolbar's Undo takes it back (what was
  // typed after each pause, then the note itself), as in tldraw and Excalidraw. The field's own
  // undo knows nothing of the text the binding writes into it: it emptied the whole note, which
  // the board then stored as a deletion of every letter.
  const undoInField = (redo: boolean) => {
    if (redo) history.redo();
    else history.undo();
    // Undone past its making, the note is gone: typing ends as at Escape, and no notice says
    // someone else deleted it.
    const id = useEditor.getState().editingId;
    if (id && !shapesOf(doc).has(id)) {
      setEditing(null);
      focusCanvas();
    }
  };
  const undoRef = useRef(undoInField);
  undoRef.current = undoInField;
  useEffect(() => {
    const el = ref.current;
    if (!editingId || !el) return;
    // The Edit menu's and the context menu's Undo reach the field as input, not as keys.
    const onBeforeInput = (e: InputEvent) => {
      if (e.inputType !== 'historyUndo' && e.inputType !== 'historyRedo') return;
      e.preventDefault();
      undoRef.current(e.inputType === 'historyRedo');
    };
    el.addEventListener('beforeinput', onBeforeInput);
    return () => el.removeEventListener('beforeinput', onBeforeInput);
  }, [editingId]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && (rec?.type === 'text' || rec?.type === 'arrow')) {
      el.style.height = 'auto';
      el.style.height = `${el.scrollHeight}px`;
    }
  });

  // A frame's name is edited in its own field above the frame (FrameNameEditor), not here.
  if (!editingId || !rec || rec.type === 'frame') return null;
  // A connector's label is typed in a free-text box on the path's midpoint (drawing/label.ts).
  const arrow = rec.type === 'arrow';
  const box: ShapeRecord = arrow
    ? { ...rec, type: 'text', align: 'middle', ...labelBox(connectorPath(rec, snap.byId)) }
    : rec;
  // The field turns about its own top-left corner, put where the shape's is drawn (a shape turns
  // about its centre): it sat off a turned note, its text beside the note (a trial).
  const corner = drawnTopLeft(box);
  const tl = toScreen(viewport, screen, corner.x, corner.y);
  const layout = layoutOf(box);
  return (
    <textarea
      ref={ref}
      className={`text-editor ${box.type} ${layout.valign === 'middle' ? 'centred' : ''}`}
      aria-label="Shape text"
      spellCheck={false}
      style={{
        left: tl.x,
        top: tl.y,
        width: box.w,
        height: box.type === 'text' ? undefined : box.h,
        minHeight: box.type === 'text' ? box.h : undefined,
        fontSize: layout.size,
        fontFamily: fontStacks[rec.fontFamily ?? 'sans'],
        padding: `${layout.padY}px ${layout.padX}px`,
        textAlign: layout.align === 'middle' ? 'center' : layout.align === 'end' ? 'right' : 'left',
        transform: `scale(${viewport.zoom}) rotate(${box.rotation}rad)`,
        transformOrigin: '0 0',
      }}
      onInput={(e) => {
        const el = e.currentTarget;
        binding.current?.input(el.value, el.selectionStart, el.selectionEnd);
        if (arrow) return;
        // The shape grows to hold every line once its font is at the floor, so nothing is hidden
        // and hit tests, selection and export fit. A text shape follows its text both ways, in
        // height and (unless someone gave it a width) in width (model/textFit.ts). Only the
        // typist writes the size: `rec` is the shape as it was before this input.
        const measure = measureIn(rec.fontFamily ?? 'sans');
        if (rec.type === 'text') {
          const { w, h } = textBoxFor(rec, el.value, measure);
          if (w !== rec.w || Math.abs(h - rec.h) > 2) resizeShape(doc, rec.id, resizedInPlace(rec, w, h));
          return;
        }
        const h = layoutText({ ...rec, text: el.value }, measure).neededH;
        if (h > rec.h + 0.5) resizeShape(doc, rec.id, resizedInPlace(rec, rec.w, h));
      }}
      onKeyDown={(e) => {
        const key = e.key.toLowerCase();
        if ((e.ctrlKey || e.metaKey) && !e.altKey && (key === 'z' || key === 'y')) {
          e.preventDefault();
          e.stopPropagation();
          undoInField(key === 'y' || e.shiftKey);
          return;
        }
        if (e.key === 'Escape') {
          e.preventDefault();
          setEditing(null);
          focusCanvas();
        }
        e.stopPropagation();
      }}
    />
  );
}
