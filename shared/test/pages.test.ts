// Page names (shared/src/pages.ts, docs/api.md §17): a page added is named at once ("Page N", the
// smallest N from 2 no page uses), a page keeps its name when the list is reordered, the label of
// a page with no stored name depends on nothing positional, and a blank rename writes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as Y from 'yjs';
import {
  addPageEntry,
  copyPageName,
  MAIN_PAGE_ID,
  MAX_PAGE_NAME,
  META_KEY,
  movePageEntry,
  nextPageName,
  PAGES_MAP,
  pageLabel,
  readPages,
  renamePageEntry,
} from '../src/index.ts';

const labels = (doc: Y.Doc) => readPages(doc).map(pageLabel);

test('pages added without a name are Page 2, Page 3…, stored, and keep their names when reordered', () => {
  const doc = new Y.Doc();
  assert.deepEqual(labels(doc), ['Page 1'], 'a board without a list: its first page');
  assert.ok(addPageEntry(doc, 'p2', ''));
  assert.ok(addPageEntry(doc, 'p3', '  '));
  assert.deepEqual(
    readPages(doc).map((p) => p.name),
    ['', 'Page 2', 'Page 3'],
    'the names are stored; the first page is implicit, as before',
  );
  // The trial's steps: "Page 3" to the top. Every page keeps its name.
  movePageEntry(doc, 'p3', 0);
  assert.deepEqual(
    readPages(doc).map((p) => [p.id, pageLabel(p)]),
    [
      ['p3', 'Page 3'],
      [MAIN_PAGE_ID, 'Page 1'],
      ['p2', 'Page 2'],
    ],
  );
  // Duplicate's name is the label it shows, whatever the page's place.
  assert.equal(`${pageLabel(readPages(doc)[1]!)} copy`, 'Page 1 copy');
});

test('the next name fills the smallest free number from 2, whatever the names’ case or order', () => {
  const page = (id: string, name: string) => ({ id, name });
  assert.equal(nextPageName([page(MAIN_PAGE_ID, '')]), 'Page 2');
  assert.equal(
    nextPageName([page(MAIN_PAGE_ID, 'Intro')]),
    'Page 2',
    'never "Page 1": that is the first page’s',
  );
  assert.equal(
    nextPageName([page('a', 'Page 3'), page(MAIN_PAGE_ID, ''), page('b', 'page 2')]),
    'Page 4',
    'taken in any order and case',
  );
  assert.equal(
    nextPageName([page(MAIN_PAGE_ID, ''), page('b', 'Page 3')]),
    'Page 2',
    'a gap left by a deleted or renamed page is filled first',
  );
  assert.equal(nextPageName([page(MAIN_PAGE_ID, 'Page 2'), page('b', 'Ideas')]), 'Page 3');
});

test('a page without a stored name: "Page 1" for the first, "Untitled page" for an older one, wherever it is', () => {
  const doc = new Y.Doc();
  // Written as a version before stored names wrote them: two unnamed pages.
  const pages = doc.getMap<Y.Map<unknown>>(PAGES_MAP);
  pages.set('old1', new Y.Map<unknown>(Object.entries({ name: '', order: 1 })));
  pages.set('old2', new Y.Map<unknown>(Object.entries({ name: '', order: 2 })));
  assert.deepEqual(labels(doc), ['Page 1', 'Untitled page', 'Untitled page']);
  movePageEntry(doc, 'old2', 0);
  movePageEntry(doc, MAIN_PAGE_ID, 2);
  assert.deepEqual(
    readPages(doc).map((p) => [p.id, pageLabel(p)]),
    [
      ['old2', 'Untitled page'],
      ['old1', 'Untitled page'],
      [MAIN_PAGE_ID, 'Page 1'],
    ],
    'the first page is "Page 1" at the bottom too',
  );
  assert.ok(addPageEntry(doc, 'new', ''));
  assert.equal(pageLabel(readPages(doc).find((p) => p.id === 'new')!), 'Page 2');
});

test('a blank rename writes nothing and the page keeps its name', () => {
  const doc = new Y.Doc();
  addPageEntry(doc, 'p2', '');
  let writes = 0;
  doc.on('update', () => writes++);
  assert.equal(renamePageEntry(doc, 'p2', '   '), false);
  assert.equal(renamePageEntry(doc, MAIN_PAGE_ID, ''), false);
  assert.equal(writes, 0);
  assert.deepEqual(labels(doc), ['Page 1', 'Page 2']);
  assert.equal(renamePageEntry(doc, 'p2', '  Ideas '), true);
  assert.deepEqual(labels(doc), ['Page 1', 'Ideas']);
  // The first format's list (meta.pages) is named the same way.
  const legacy = new Y.Doc();
  const list = new Y.Array<Y.Map<unknown>>();
  legacy.getMap(META_KEY).set('pages', list);
  list.push([new Y.Map<unknown>(Object.entries({ id: MAIN_PAGE_ID, name: '' }))]);
  list.push([new Y.Map<unknown>(Object.entries({ id: 'first1', name: '' }))]);
  assert.deepEqual(labels(legacy), ['Page 1', 'Untitled page']);
});

test('a duplicate is "<name> copy", then "<name> copy 2", "copy 3"…, as file managers name copies', () => {
  const page = (id: string, name: string) => ({ id, name });
  const retro = page('a', 'Retro');
  const pages = [page(MAIN_PAGE_ID, ''), retro];
  assert.equal(copyPageName(pages, retro), 'Retro copy');
  pages.push(page('b', 'Retro copy'));
  assert.equal(copyPageName(pages, retro), 'Retro copy 2', 'the second duplicate of the same page');
  pages.push(page('c', 'Retro copy 2'));
  assert.equal(copyPageName(pages, retro), 'Retro copy 3');
  assert.equal(
    copyPageName(pages, page('b', 'Retro copy')),
    'Retro copy 3',
    'a copy of a copy counts with the original',
  );
  assert.equal(
    copyPageName([...pages, page('d', 'retro COPY 3')], retro),
    'Retro copy 4',
    'letter case aside',
  );
  assert.equal(
    copyPageName([page(MAIN_PAGE_ID, ''), page('x', 'Page 1 copy 2')], page(MAIN_PAGE_ID, '')),
    'Page 1 copy',
    'a gap is filled first; an unnamed first page is "Page 1"',
  );
  const long = page('l', 'x'.repeat(MAX_PAGE_NAME));
  const first = copyPageName([long], long);
  assert.equal(first.length, MAX_PAGE_NAME);
  assert.ok(first.endsWith('x copy'));
  const second = copyPageName([long, page('m', first)], long);
  assert.equal(second.length, MAX_PAGE_NAME);
  assert.ok(second.endsWith('x copy 2'), second);
});

test('duplicating the same page twice stores two different names', () => {
  const doc = new Y.Doc();
  addPageEntry(doc, 'p2', 'Ideas');
  for (let i = 0; i < 2; i++) {
    const pages = readPages(doc);
    const source = pages.find((p) => p.id === 'p2');
    assert.ok(source);
    addPageEntry(doc, `copy${i}`, copyPageName(pages, source), 'p2');
  }
  assert.deepEqual(labels(doc).sort(), ['Ideas', 'Ideas copy', 'Ideas copy 2', 'Page 1']);
});
