// A board's JSON with every page (docs/api.md §17): the export's shape and the import's parse.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BoardExport, MAIN_PAGE_ID, withPageList } from '@tandem/shared';
import * as Y from 'yjs';
import { exportBoard, parseShapes } from '../src/board/model/clipboard.ts';
import { createShape } from '../src/board/model/shapes.ts';

function pageWithNote(text: string) {
  const doc = new Y.Doc();
  createShape(doc, { type: 'sticky', x: 0, y: 0, w: 100, h: 100, text }, 'u1');
  return exportBoard(doc);
}

describe('board JSON with pages', () => {
  it('carries every page when there are several, and passes the shared schema', () => {
    const [a, b, c] = [pageWithNote('one'), pageWithNote('two'), pageWithNote('three')];
    const pages = [
      { id: MAIN_PAGE_ID, name: 'Retro', shapes: a.shapes },
      { id: 'p2', name: 'Plan', shapes: b.shapes },
      { id: 'p3', name: '', shapes: c.shapes },
    ];
    const board = withPageList(a, pages);
    assert.equal(BoardExport.safeParse(JSON.parse(JSON.stringify(board))).success, true);
    assert.deepEqual(
      board.pages?.map((p) => p.name),
      ['Retro', 'Plan', ''],
    );
    assert.equal(withPageList(a, [pages[0]!]).pages, undefined, 'one page: no list');

    const parsed = parseShapes(JSON.stringify(board))!;
    assert.equal(parsed.pages?.length, 3);
    assert.equal(parsed.pages?.[1]?.name, 'Plan');
    assert.equal(parsed.pages?.[2]?.shapes[0]?.text, 'three');
    assert.equal(parsed.shapes[0]?.text, 'one', 'the first page is `shapes`');
  });

  it('reads a one-page export as before, and skips bad records per page', () => {
    const one = parseShapes(JSON.stringify(pageWithNote('solo')))!;
    assert.equal(one.pages, undefined);
    assert.equal(one.shapes.length, 1);
    const a = pageWithNote('x');
    const bad = parseShapes({
      ...a,
      pages: [
        { id: 'main', name: 'A', shapes: a.shapes },
        { id: 'p2', name: 'B', shapes: [{ nope: true }, ...a.shapes] },
      ],
    })!;
    assert.equal(bad.skipped, 1);
    assert.equal(bad.pages?.[1]?.shapes.length, 1);
  });
});
