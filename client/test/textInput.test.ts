// Text without a tool (client/src/board/model/textInput.ts): double-click and plain-text paste.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as Y from 'yjs';
import { createShape, createUndoManager, shapesOf } from '../src/board/model/index.ts';
import {
  dropEmptyText,
  PASTE_MAX_CHARS,
  shapeForPastedText,
  textShapeAt,
} from '../src/board/model/textInput.ts';

describe('text without a tool', () => {
  it('a double-click makes an empty text shape whose first line is at the pointer', () => {
    const s = textShapeAt({ x: 500, y: 300 });
    assert.equal(s.type, 'text');
    assert.equal(s.text, '');
    assert.ok(s.x < 500 && s.x + (s.w ?? 0) > 500 && s.y < 300 && s.y + (s.h ?? 0) > 300);
  });

  it('a short line pasted is a text shape, centred where it lands and sized to the words', () => {
    const s = shapeForPastedText('Ship it on Friday', { x: 0, y: 0 })!;
    assert.equal(s.type, 'text');
    assert.equal(s.text, 'Ship it on Friday');
    assert.ok(Math.abs(s.x + (s.w ?? 0) / 2) < 1e-9 && Math.abs(s.y + (s.h ?? 0) / 2) < 1e-9, 'centred');
    const longer = shapeForPastedText('Ship it on Friday, after the review', { x: 0, y: 0 })!;
    assert.ok((longer.w ?? 0) > (s.w ?? 0), 'more words, wider');
  });

  it('several lines or a long line make a sticky note; line ends and outer blank lines are tidied', () => {
    const s = shapeForPastedText('\r\n  One\r\nTwo   \r\n\r\n', { x: 10, y: 10 })!;
    assert.equal(s.type, 'sticky');
    assert.equal(s.text, '  One\nTwo');
    assert.equal(shapeForPastedText('word '.repeat(30), { x: 0, y: 0 })?.type, 'sticky');
  });

  it('nothing but whitespace makes nothing; very long text is cut to the limit', () => {
    assert.equal(shapeForPastedText(' \n\t \r\n', { x: 0, y: 0 }), null);
    assert.equal(shapeForPastedText('', { x: 0, y: 0 }), null);
    const s = shapeForPastedText('a'.repeat(PASTE_MAX_CHARS + 500), { x: 0, y: 0 })!;
    assert.equal(s.text?.length, PASTE_MAX_CHARS);
  });

  it('a text shape whose editing ends empty is removed, leaving no undo step', () => {
    const doc = new Y.Doc();
    const undo = createUndoManager(doc);
    const note = createShape(doc, { type: 'sticky', x: 0, y: 0, w: 200, h: 200, text: '' }, 'u');
    undo.stopCapturing();
    const empty = createShape(doc, textShapeAt({ x: 500, y: 300 }), 'u');
    assert.equal(dropEmptyText(doc, undo, empty), true);
    assert.equal(shapesOf(doc).has(empty), false);
    // No step is left for the box (Yjs would skip it, but an Undo button would count it): the
    // one step left, and the next Ctrl+Z, is the note's.
    assert.equal(undo.undoStack.length, 1);
    undo.undo();
    assert.equal(shapesOf(doc).has(note), false);
    // Text with words stays, as does a blank sticky note.
    const words = createShape(doc, { ...textShapeAt({ x: 0, y: 0 }), text: 'Hi' }, 'u');
    const blankNote = createShape(doc, { type: 'sticky', x: 0, y: 0, w: 200, h: 200, text: ' ' }, 'u');
    assert.equal(dropEmptyText(doc, undo, words), false);
    assert.equal(dropEmptyText(doc, undo, blankNote), false);
    assert.equal(shapesOf(doc).size, 2);
  });
});
