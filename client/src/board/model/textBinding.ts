// Binds a text field (value + selection) to a shape's Y.Text, without the DOM, so it is tested in
// Node. The caret is kept as a Yjs relative position anchored to the character on its left (the
// typist's own last character), not as an index: when two people type at the same spot, each one's
// caret stays after their own letters, so concurrent typing yields two whole runs instead of
// interleaved letters ("aBnEaN…").
import * as Y from 'yjs';
import { edit } from './doc.ts';

/**
 * The smallest edit turning `prev` into `next` whose changed region ends at the caret (`caret` is
 * the selection end after the input). Where the text alone is ambiguous ("aa" → "aaa"), the caret
 * says where the person typed.
 */
export function diffAtCaret(
  prev: string,
  next: string,
  caret: number,
): { index: number; remove: number; insert: string } {
  const c = Math.max(0, Math.min(caret, next.length));
  // The unchanged tail first, never reaching left of the caret; then the unchanged head.
  let endPrev = prev.length;
  let endNext = next.length;
  while (endPrev > 0 && endNext > c && prev[endPrev - 1] === next[endNext - 1]) {
    endPrev--;
    endNext--;
  }
  let start = 0;
  const maxStart = Math.min(endPrev, endNext);
  while (start < maxStart && prev[start] === next[start]) start++;
  return { index: start, remove: endPrev - start, insert: next.slice(start, endNext) };
}

export interface FieldState {
  value: string;
  start: number;
  end: number;
}

export class TextBinding {
  private anchor: Y.RelativePosition;
  private head: Y.RelativePosition;

  constructor(
    private readonly doc: Y.Doc,
    readonly ytext: Y.Text,
    start = ytext.length,
    end = start,
  ) {
    this.anchor = this.rel(start, end);
    this.head = this.rel(end, end);
  }

  /** Caret ends stick to the character on their left; a range's start sticks to its first character. */
  private rel(index: number, end: number): Y.RelativePosition {
    return Y.createRelativePositionFromTypeIndex(this.ytext, index, index === end ? -1 : 0);
  }

  /** The person moved the caret or selection (click, arrow keys). */
  select(start: number, end: number): void {
    this.anchor = this.rel(start, end);
    this.head = this.rel(end, end);
  }

  /** The person edited the field: applies the change to the Y.Text as one local edit. */
  input(next: string, start: number, end: number): void {
    const prev = this.ytext.toString();
    if (prev !== next) {
      const d = diffAtCaret(prev, next, end);
      edit(this.doc, () => {
        if (d.remove > 0) this.ytext.delete(d.index, d.remove);
        if (d.insert) this.ytext.insert(d.index, d.insert);
      });
    }
    this.select(start, end);
  }

  /** What the field shows now: the Y.Text, with the selection carried through others' edits. */
  state(): FieldState {
    const abs = (r: Y.RelativePosition, fallback: number) =>
      Y.createAbsolutePositionFromRelativePosition(r, this.doc)?.index ?? fallback;
    const value = this.ytext.toString();
    const end = Math.min(value.length, abs(this.head, value.length));
    const start = Math.min(end, abs(this.anchor, end));
    return { value, start, end };
  }
}
