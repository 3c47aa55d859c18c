// The History panel's "Undo all of <name>'s changes since…" is offered for the members who can
// change the board's content: not me, not a viewer, not a commenter (comments and votes live
// outside the board's document, so a commenter's undo would have nothing to undo); and only for
// those with changes in the history shown (authors of its versions or of the edits since).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Member, Role } from '@tandem/shared';
import { undoablePeople } from '../src/board/history/people.ts';

const member = (userId: string, role: Role): Member => ({
  userId,
  name: userId,
  email: null,
  color: '#1e6fd9',
  isGuest: false,
  role,
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('whose changes the History panel offers to undo', () => {
  it('the other owners and editors, not viewers, commenters or me', () => {
    const members = [
      member('me', 'owner'),
      member('ed', 'editor'),
      member('co', 'commenter'),
      member('vi', 'viewer'),
      member('ow', 'owner'),
    ];
    const authors = new Set(['me', 'ed', 'co', 'vi', 'ow']);
    assert.deepEqual(
      undoablePeople(members, 'me', authors).map((m) => m.userId),
      ['ed', 'ow'],
    );
  });

  it('nobody on a board where the others only comment or view', () => {
    assert.deepEqual(
      undoablePeople([member('me', 'owner'), member('co', 'commenter')], 'me', new Set(['me', 'co'])),
      [],
    );
  });

  // Twelve guests who only joined were each offered an undo of nothing.
  it('not the editors who changed nothing in the history shown', () => {
    const guests = Array.from({ length: 12 }, (_, i) => member(`guest${i}`, 'editor'));
    const members = [member('me', 'owner'), member('ed', 'editor'), ...guests];
    assert.deepEqual(
      undoablePeople(members, 'me', new Set(['me', 'ed'])).map((m) => m.userId),
      ['ed'],
    );
    assert.deepEqual(undoablePeople(members, 'me', new Set()), [], 'no history, nobody');
  });
});
