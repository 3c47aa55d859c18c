// The dashboard's list reducer (client/src/pages/dashboardList.ts), pure and in Node.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Board, BoardListItem } from '@tandem/shared';
import {
  type DashboardList,
  dashboardReducer,
  initialDashboardList,
  visibleBoards,
} from '../src/pages/dashboardList.ts';

const item = (id: string, title: string, role: BoardListItem['role'] = 'owner'): BoardListItem => ({
  id,
  title,
  role,
  ownerName: role === 'owner' ? 'Me' : 'Someone',
  updatedAt: '2026-01-01T00:00:00.000Z',
  thumbnailAt: null,
});
const board = (id: string, title: string, extra: Partial<Board> = {}): Board => ({
  id,
  title,
  ownerId: 'u1',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-02-02T00:00:00.000Z',
  ...extra,
});
const loaded = (boards: BoardListItem[]): DashboardList =>
  dashboardReducer(initialDashboardList, { type: 'loaded', boards });

describe('dashboard list', () => {
  it('shows nothing until loaded, then the boards as answered', () => {
    assert.equal(initialDashboardList.boards, null);
    const s = loaded([item('a', 'Alpha'), item('b', 'Beta', 'editor')]);
    assert.deepEqual(
      s.boards?.map((b) => b.id),
      ['a', 'b'],
    );
  });

  it('a change to a board I have updates its title, time and thumbnail, nothing else', () => {
    const s = loaded([item('a', 'Alpha'), item('b', 'Beta')]);
    const next = dashboardReducer(s, {
      type: 'changed',
      board: board('a', 'Renamed', { thumbnailAt: '2026-03-03T00:00:00.000Z' }),
    });
    assert.deepEqual(next.boards?.[0], {
      ...item('a', 'Renamed'),
      updatedAt: '2026-02-02T00:00:00.000Z',
      thumbnailAt: '2026-03-03T00:00:00.000Z',
    });
    assert.equal(next.boards?.[1], s.boards?.[1], 'the other board is untouched');
    assert.equal(next.reloads, s.reloads);
    // A change that carries no thumbnail keeps the one we know of.
    const renamed = dashboardReducer(next, { type: 'changed', board: board('a', 'Again') });
    assert.equal(renamed.boards?.[0]?.thumbnailAt, '2026-03-03T00:00:00.000Z');
  });

  it('a board newly shared with me asks for a reload (its item needs my role and the owner)', () => {
    const s = loaded([item('a', 'Alpha')]);
    const next = dashboardReducer(s, { type: 'changed', board: board('new', 'Shared with me') });
    assert.equal(next.reloads, s.reloads + 1);
    assert.deepEqual(next.boards, s.boards);
    // Before the first load there is nothing to change or reload.
    assert.equal(
      dashboardReducer(initialDashboardList, { type: 'changed', board: board('a', 'x') }),
      initialDashboardList,
    );
  });

  it('a board shared with me that goes away is dropped with a sentence; my own is dropped quietly', () => {
    const s = loaded([item('a', 'Alpha'), item('b', 'Beta', 'viewer')]);
    const shared = dashboardReducer(s, { type: 'removed', boardId: 'b' });
    assert.deepEqual(
      shared.boards?.map((b) => b.id),
      ['a'],
    );
    assert.equal(shared.notice, '“Beta” was deleted or you no longer have access to it.');
    const mine = dashboardReducer(s, { type: 'removed', boardId: 'a' });
    assert.equal(mine.notice, null);
    assert.equal(dashboardReducer(s, { type: 'removed', boardId: 'unknown' }), s);
    assert.equal(dashboardReducer(shared, { type: 'dismissNotice' }).notice, null);
  });

  it('a webhook turned off marks my own board, live, and deleting it clears the mark; not a board shared with me', () => {
    const s = loaded([item('a', 'Alpha'), item('b', 'Beta', 'editor')]);
    const off = dashboardReducer(s, { type: 'webhookHealth', boardId: 'a', disabled: true });
    assert.equal(off.boards?.[0]?.webhookDisabled, true);
    assert.equal(off.boards?.[1], s.boards?.[1], 'the other board is the same object');
    // A rename keeps the mark; the health event alone clears it.
    const renamed = dashboardReducer(off, { type: 'changed', board: board('a', 'Alpha 2') });
    assert.equal(renamed.boards?.[0]?.webhookDisabled, true);
    const on = dashboardReducer(renamed, { type: 'webhookHealth', boardId: 'a', disabled: false });
    assert.equal('webhookDisabled' in (on.boards?.[0] ?? {}), false);
    assert.equal(on.boards?.[0]?.title, 'Alpha 2');
    // Only an owner sees the mark (the server tells only the owner; a stray event changes nothing).
    const shared = dashboardReducer(s, { type: 'webhookHealth', boardId: 'b', disabled: true });
    assert.equal(shared.boards?.[1]?.webhookDisabled, undefined);
    // Before the list has loaded there is nothing to mark.
    assert.equal(
      dashboardReducer(initialDashboardList, { type: 'webhookHealth', boardId: 'a', disabled: true }).boards,
      null,
    );
  });

  it('presence merges per board; a role change asks for a reload', () => {
    const s = loaded([item('a', 'Alpha')]);
    const ada = { id: 'u2', name: 'Ada', color: '#ff6b6b' };
    const bo = { id: 'u3', name: 'Bo', color: '#54a0ff' };
    const one = dashboardReducer(s, { type: 'presence', presence: { a: [ada] } });
    const two = dashboardReducer(one, { type: 'presence', presence: { b: [bo] } });
    assert.deepEqual(two.presence, { a: [ada], b: [bo] });
    const left = dashboardReducer(two, { type: 'presence', presence: { a: [] } });
    assert.deepEqual(left.presence, { a: [], b: [bo] });
    assert.equal(dashboardReducer(s, { type: 'membersChanged' }).reloads, s.reloads + 1);
  });

  it('search filters by title, case-insensitively, and splits mine from shared', () => {
    const boards = [
      item('a', 'Retro May'),
      item('b', 'Planning', 'editor'),
      item('c', 'retro June', 'viewer'),
    ];
    const { mine, shared } = visibleBoards(boards, '  RETRO ');
    assert.deepEqual(
      mine.map((b) => b.id),
      ['a'],
    );
    assert.deepEqual(
      shared.map((b) => b.id),
      ['c'],
    );
    assert.equal(visibleBoards(boards, '').shared.length, 2);
    // Accents aside, as Find on a board: "cafe" finds "Café retro", "CAFÉ" too.
    const cafe = [item('d', 'Café retro')];
    assert.equal(visibleBoards(cafe, 'cafe').mine.length, 1);
    assert.equal(visibleBoards(cafe, 'CAFÉ').mine.length, 1);
  });
});
