// The editor's notices (issue 29): one list, newest last, the same sentence once, at most
// MAX_NOTICES shown; dismissing one keeps the others.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEditorStore, MAX_NOTICES, noticeMs } from '../src/board/store.ts';

describe('notices', () => {
  it('stack newest last, capped, each dismissed on its own', () => {
    const store = createEditorStore();
    const st = () => store.getState();
    for (const text of ['one', 'two', 'three', 'four', 'two']) st().setNotice(text);
    assert.equal(MAX_NOTICES, 3);
    assert.deepEqual(
      st().notices.map((n) => n.text),
      ['three', 'four', 'two'],
      'the newest last, the same sentence once, the oldest pushed out',
    );
    assert.equal(st().notice, 'two');
    const ids = st().notices.map((n) => n.id);
    assert.ok(ids[0]! < ids[1]! && ids[1]! < ids[2]!, 'ordered by arrival');
    st().dismissNotice(ids[1]!);
    assert.deepEqual(
      st().notices.map((n) => n.text),
      ['three', 'two'],
    );
    st().setNotice(null);
    assert.deepEqual(st().notices, []);
    assert.equal(st().notice, null);
  });

  it('stay as long as they take to read: a short one 4 s, a long one longer, none past 12 s', () => {
    assert.equal(noticeMs('Imported 2 shapes.'), 4000);
    const long = 'The frame was deleted with its 12 shapes; 2 locked shapes stay. Ctrl+Z brings them back.';
    assert.ok(noticeMs(long) > 7000 && noticeMs(long) < 12_000, `${noticeMs(long)} ms`);
    assert.equal(noticeMs('x'.repeat(1000)), 12_000);
  });
});
