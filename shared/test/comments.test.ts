// The one reading of a comment's text (docs/api.md §18): mentions, safe links, and everything else
// left as the text it is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bodyExcerpt,
  bodySegments,
  canComment,
  canEditBoard,
  mentionedUserIds,
  mentionMarkup,
  roleAtLeast,
  ThreadAnchor,
} from '../src/index.ts';

const ben = 'benbenbenbenbenben';
const cy = 'cycycycycycycycycy';

test('mentions: written @[Name](userId), each id once, in order', () => {
  const body = `${mentionMarkup('Ben', ben)} and ${mentionMarkup('C[y]', cy)}, again ${mentionMarkup('Ben', ben)}`;
  assert.equal(mentionMarkup('C[y]', cy), `@[Cy](${cy})`);
  assert.deepEqual(mentionedUserIds(body), [ben, cy]);
  assert.deepEqual(mentionedUserIds('@[Ben](short) @Ben'), []);
  assert.equal(bodyExcerpt(body), '@Ben and @Cy, again @Ben');
  assert.equal(bodyExcerpt('x'.repeat(300), 10), `${'x'.repeat(9)}…`);
});

test('only http(s) addresses become links; scripts and javascript: stay text', () => {
  assert.deepEqual(bodySegments(`see https://example.com/a?b=1. @[Ben](${ben})`), [
    { kind: 'text', text: 'see ' },
    { kind: 'link', href: 'https://example.com/a?b=1', text: 'https://example.com/a?b=1' },
    { kind: 'text', text: '. ' },
    { kind: 'mention', name: 'Ben', userId: ben },
  ]);
  const hostile = '<script>alert(1)</script> javascript:alert(1) [x](javascript:alert(2)) data:text/html,<b>';
  assert.deepEqual(bodySegments(hostile), [{ kind: 'text', text: hostile }]);
  // An address cannot smuggle markup or quotes into its href.
  const [, link] = bodySegments('a http://x.test/"onmouseover=alert(1)');
  assert.deepEqual(link, { kind: 'link', href: 'http://x.test/', text: 'http://x.test/' });
});

test('anchors are a shape or a point, never both or neither', () => {
  assert.ok(ThreadAnchor.safeParse({ shapeId: 's1' }).success);
  assert.ok(ThreadAnchor.safeParse({ x: 1.5, y: -2 }).success);
  for (const bad of [{}, { shapeId: 's1', x: 1, y: 2 }, { x: 1 }, { x: Number.NaN, y: 1 }, { shapeId: '' }]) {
    assert.equal(ThreadAnchor.safeParse(bad).success, false, JSON.stringify(bad));
  }
});

test('commenters rank between viewers and editors', () => {
  assert.ok(roleAtLeast('commenter', 'viewer'));
  assert.ok(!roleAtLeast('commenter', 'editor'));
  assert.ok(canComment('commenter') && canComment('editor') && canComment('owner'));
  assert.ok(!canComment('viewer'));
  assert.ok(!canEditBoard('commenter') && canEditBoard('editor'));
});
