// The History panel's "Undo all of <name>'s changes since…" is offered for the members who can
// change the board's content: not me, not a viewer, not a commenter (comments and votes live
// outside the board's document, so a commenter's undo would have nothing to undo).
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
    assert.deepEqual(
      undoablePeople(members, 'me').map((m) => m.userId),
      ['ed', 'ow'],
    );
  });

  it('nobody on a board where the others only comment or view', () => {
    assert.deepEqual(undoablePeople([member('me', 'owner'), member('co', 'commenter')], 'me'), []);
  });
});
