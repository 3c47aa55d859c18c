// The client's routes (router.tsx) against docs/api.md §2: every route the table names reaches
// its screen, and what it does not name is "not found".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { MAIN_PAGE_ID } from '@tandem/shared';
import { matchRoute } from '../src/router.tsx';

const apiDoc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

/** The paths of §2's table, each `:param` filled in with a sample value. */
function documentedPaths(): string[] {
  const section = apiDoc.slice(apiDoc.indexOf('## 2. Screens and routes'), apiDoc.indexOf('## 3. '));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `/'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`(\/[^`]*)`/g)].map((m) => m[1] as string))
    .map((path) => path.replace(/:(\w+)/g, (_match, name: string) => `sample-${name}`));
}

describe('client routes', () => {
  it('every route docs/api.md §2 names reaches a screen', () => {
    const paths = documentedPaths();
    assert.ok(paths.length >= 9, paths.join(' '));
    for (const path of paths) assert.notEqual(matchRoute(path).name, 'not-found', path);
  });

  it('reads the board, page and token out of the path', () => {
    assert.deepEqual(matchRoute('/b/abc'), { name: 'board', boardId: 'abc', pageId: MAIN_PAGE_ID });
    assert.deepEqual(matchRoute('/b/abc/p/two/'), { name: 'board', boardId: 'abc', pageId: 'two' });
    assert.deepEqual(matchRoute('/embed/t%20k'), { name: 'public', token: 't k', embed: true });
    assert.deepEqual(matchRoute('/p/tok'), { name: 'public', token: 'tok', embed: false });
    assert.deepEqual(matchRoute('/join/xyz'), { name: 'join', token: 'xyz' });
  });

  it('anything else is not found', () => {
    for (const path of ['/b', '/b/abc/extra', '/p/a/b', '/boards/x', '/admin'])
      assert.equal(matchRoute(path).name, 'not-found', path);
  });
});
