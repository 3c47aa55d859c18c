// The editor's notices (issue 29): one list, newest last, the same sentence once, at most
// MAX_NOTICES shown; dismissing one keeps the others.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEditorStore, MAX_NOTICES } from '../src/board/store.ts';

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
});
