// Text in shapes: the shared layout (wrapping, fitting a sticky by shrinking its font to a floor
// and then growing it) and the caret binding that keeps two typists' runs whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as Y from 'yjs';
import { createShape, shapesOf, textOf } from '../src/board/model/index.ts';
import { diffAtCaret, TextBinding } from '../src/board/model/textBinding.ts';
import {
  estimateMeasure,
  FONT_FLOOR,
  layoutText,
  linePositions,
  wrapText,
} from '../src/board/model/textLayout.ts';

const twelve = Array.from({ length: 12 }, (_, i) => `Line ${i + 1}`).join('\n');

describe('text layout', () => {
  it('wraps at spaces, keeps newlines, and the lines joined are the text', () => {
    const lines = wrapText('one two three four\nfive', 60, 10, estimateMeasure);
    assert.ok(lines.length >= 3);
    assert.equal(lines.join('').replace(/ $/, ''), 'one two three fourfive');
    for (const l of lines) assert.ok(estimateMeasure(l.trimEnd(), 10) <= 60, l);
  });

  it('breaks a word longer than the line instead of letting it spill out', () => {
    const word = 'x'.repeat(100);
    const lines = wrapText(word, 100, 16, estimateMeasure);
    assert.ok(lines.length > 1);
    assert.equal(lines.join(''), word);
    for (const l of lines) assert.ok(estimateMeasure(l, 16) <= 100);
  });

  it('a 12-line sticky shrinks its font to show every line inside the note', () => {
    const l = layoutText({ type: 'sticky', w: 200, h: 200, text: twelve }, estimateMeasure);
    assert.equal(l.lines.length, 12);
    assert.ok(l.size < 16 && l.size >= FONT_FLOOR, `size ${l.size}`);
    assert.equal(l.fits, true);
    const pos = linePositions({ w: 200, h: 200 }, l);
    assert.ok(pos.y(11) <= 200 - l.padY, `last baseline ${pos.y(11)}`);
  });

  it('past the floor the note must grow, by enough for every line', () => {
    const text = Array.from({ length: 30 }, (_, i) => `Line ${i + 1}`).join('\n');
    const l = layoutText({ type: 'sticky', w: 200, h: 200, text }, estimateMeasure);
    assert.equal(l.size, FONT_FLOOR);
    assert.equal(l.fits, false);
    assert.ok(l.neededH >= 30 * l.lineHeight + 2 * l.padY);
    const grown = layoutText({ type: 'sticky', w: 200, h: l.neededH, text }, estimateMeasure);
    assert.equal(grown.fits, true);
    assert.equal(grown.lines.length, 30);
  });

  it('short text keeps the chosen size; shapes centre, stickies start at the top', () => {
    const s = layoutText({ type: 'sticky', w: 200, h: 200, text: 'Hi', fontSize: 'l' }, estimateMeasure);
    assert.equal(s.size, 24);
    assert.equal(s.valign, 'top');
    const r = layoutText({ type: 'rect', w: 200, h: 120, text: 'Hi', align: 'end' }, estimateMeasure);
    assert.equal(r.valign, 'middle');
    assert.equal(linePositions({ w: 200, h: 120 }, r).x, 200 - r.padX);
  });
});

describe('text binding', () => {
  it('diffs at the caret where the text alone is ambiguous', () => {
    assert.deepEqual(diffAtCaret('aa', 'aaa', 1), { index: 0, remove: 0, insert: 'a' });
    assert.deepEqual(diffAtCaret('aa', 'aaa', 3), { index: 2, remove: 0, insert: 'a' });
    assert.deepEqual(diffAtCaret('abc', 'ac', 1), { index: 1, remove: 1, insert: '' });
    assert.deepEqual(diffAtCaret('hello', 'hXo', 2), { index: 1, remove: 3, insert: 'X' });
  });

  it('two people typing at the same spot get two whole runs', () => {
    const a = new Y.Doc();
    const b = new Y.Doc();
    a.clientID = 1;
    b.clientID = 2;
    const id = createShape(a, { type: 'sticky', x: 0, y: 0, text: 'Hello ' }, 'u');
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    const ta = new TextBinding(a, textOf(a, id)!);
    const tb = new TextBinding(b, textOf(b, id)!);
    const typeOne = (t: TextBinding, ch: string) => {
      const s = t.state();
      const next = s.value.slice(0, s.start) + ch + s.value.slice(s.end);
      t.input(next, s.start + 1, s.start + 1);
    };
    const exchange = () => {
      Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
      Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
    };
    const runA = 'banana';
    const runB = 'BERRY';
    for (let i = 0; i < 6; i++) {
      if (runA[i]) typeOne(ta, runA[i]!);
      if (runB[i]) typeOne(tb, runB[i]!);
      // Half the time the letters cross in flight, half the time each sees the other's first.
      if (i % 2 === 0) exchange();
      else {
        exchange();
      }
    }
    exchange();
    const text = textOf(a, id)!.toString();
    assert.equal(text, textOf(b, id)!.toString());
    assert.ok(text === `Hello ${runA}${runB}` || text === `Hello ${runB}${runA}`, text);
    // Each caret is still after its own run.
    const sa = ta.state();
    const sb = tb.state();
    assert.equal(text.slice(sa.end - runA.length, sa.end), runA);
    assert.equal(text.slice(sb.end - runB.length, sb.end), runB);
  });

  it('typing in turns, each seeing the other at once, also stays whole', () => {
    const a = new Y.Doc();
    const b = new Y.Doc();
    a.on('update', (u: Uint8Array, o: unknown) => o !== 'r' && Y.applyUpdate(b, u, 'r'));
    b.on('update', (u: Uint8Array, o: unknown) => o !== 'r' && Y.applyUpdate(a, u, 'r'));
    const id = createShape(a, { type: 'sticky', x: 0, y: 0, text: 'X' }, 'u');
    const ta = new TextBinding(a, textOf(a, id)!);
    const tb = new TextBinding(b, textOf(b, id)!);
    for (let i = 0; i < 5; i++) {
      for (const [t, ch] of [
        [ta, 'a'],
        [tb, 'B'],
      ] as const) {
        const s = t.state();
        t.input(s.value.slice(0, s.start) + ch + s.value.slice(s.end), s.start + 1, s.start + 1);
      }
    }
    const text = textOf(a, id)!.toString();
    assert.ok(text === 'XaaaaaBBBBB' || text === 'XBBBBBaaaaa', text);
    assert.equal(shapesOf(b).size, 1);
  });
});
