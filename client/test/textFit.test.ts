// A text shape's box follows its text (client/src/board/model/textFit.ts): "Hi" got a 240-unit box,
// so a click far right of it selected it (a user trial).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultShapeSize } from '@tandem/shared';
import * as Y from 'yjs';
import { LOCAL_ORIGIN, shapesOf } from '../src/board/model/doc.ts';
import { readShape } from '../src/board/model/read.ts';
import { createShape, setStyle } from '../src/board/model/shapes.ts';
import {
  fittedTextW,
  followsItsText,
  MIN_TEXT_H,
  MIN_TEXT_W,
  textBoxFor,
} from '../src/board/model/textFit.ts';
import { textShapeAt } from '../src/board/model/textInput.ts';
import { estimateMeasure as measure } from '../src/board/model/textLayout.ts';

// The estimate: 0.55 em a character; a text's base size is 20 (fontSize m × 1.25).
const widthOf = (chars: number) => Math.ceil(chars * 20 * 0.55) + 8 + 1;

describe('a text box that fits its text', () => {
  it('a new text is as narrow as an empty one and grows with what is typed', () => {
    const s = textShapeAt({ x: 100, y: 100 });
    assert.equal(s.w, MIN_TEXT_W);
    assert.equal(s.h, MIN_TEXT_H);
    assert.ok(followsItsText(s, measure));
    assert.deepEqual(
      textBoxFor(s, 'I', measure),
      { w: MIN_TEXT_W, h: MIN_TEXT_H },
      'one letter: the narrowest',
    );
    const hi = textBoxFor(s, 'Hi', measure);
    assert.deepEqual(hi, { w: widthOf(2), h: MIN_TEXT_H });
    const hello = textBoxFor({ ...s, ...hi, text: 'Hi' }, 'Hello there', measure);
    assert.equal(hello.w, widthOf(11));
    assert.equal(hello.h, MIN_TEXT_H, 'one line');
    // Typed back down, it shrinks again.
    assert.equal(textBoxFor({ ...s, ...hello, text: 'Hello there' }, 'Hello', measure).w, widthOf(5));
  });

  it('is as wide as its widest line, and as high as its lines', () => {
    assert.equal(fittedTextW({ text: 'ab\nabcdefghij\nabc' }, measure), widthOf(10));
    const box = textBoxFor(textShapeAt({ x: 0, y: 0 }), 'ab\nabcdefghij\nabc', measure);
    assert.equal(box.w, widthOf(10));
    assert.equal(box.h, Math.ceil(3 * 20 * 1.3 + 8));
    assert.ok(
      fittedTextW({ text: 'abcdefghij', fontSize: 'xl' }, measure) > widthOf(10),
      'a larger font is wider',
    );
  });

  it('a text at the old default width follows its text unless a line wraps in it', () => {
    const old = { ...defaultShapeSize.text, text: 'Hi' };
    assert.ok(followsItsText(old, measure));
    assert.equal(textBoxFor(old, 'Hi!', measure).w, widthOf(3), 'shrinks to fit at the next keystroke');
    const wrapped = { ...defaultShapeSize.text, h: 66, text: 'a sentence long enough to wrap at 240' };
    assert.ok(!followsItsText(wrapped, measure));
    assert.equal(textBoxFor(wrapped, `${wrapped.text}.`, measure).w, 240, 'its lines stay as they were');
  });

  it('a text someone gave a width keeps it and wraps inside it, its height following', () => {
    const resized = { w: 120, h: 40, text: 'Hi' };
    assert.ok(!followsItsText(resized, measure));
    const box = textBoxFor(resized, 'Hi there, a longer line', measure);
    assert.equal(box.w, 120);
    assert.ok(box.h > 40, 'the wrapped lines grow it downwards');
  });
});

describe('a text box in a new font', () => {
  const make = (w: number) => {
    const doc = new Y.Doc();
    const id = createShape(doc, { type: 'text', x: 0, y: 0, w, h: 40, text: 'Hi' }, 'u1');
    const read = () => readShape(id, shapesOf(doc).get(id))!;
    return { doc, id, read };
  };

  it('a text that follows its text is fitted to a larger size, in one step', () => {
    const { doc, id, read } = make(fittedTextW({ text: 'Hi' }, measure));
    const undo = new Y.UndoManager(shapesOf(doc), { trackedOrigins: new Set([LOCAL_ORIGIN]) });
    setStyle(doc, [id], { fontSize: 'xl' }, () => measure);
    const xl = read();
    assert.equal(xl.fontSize, 'xl');
    assert.equal(xl.w, fittedTextW({ text: 'Hi', fontSize: 'xl' }, measure));
    assert.equal(xl.h, Math.ceil(45 * 1.3 + 8), 'one line of 45 px');
    undo.undo();
    assert.equal(read().w, fittedTextW({ text: 'Hi' }, measure), 'one undo step takes back both');
  });

  it('a text with a width of its own keeps it', () => {
    const { doc, id, read } = make(200);
    setStyle(doc, [id], { fontSize: 'xl' }, () => measure);
    assert.equal(read().w, 200);
  });
});
