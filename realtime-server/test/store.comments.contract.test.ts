// The Store's comments (docs/api.md §18), one contract for SQLite and PostgreSQL: threads and their
// comments in order, resolution, edits that move mentions, deletions that take their comments and
// mentions with them, mentions only where their reader still has access, a board's deletion, and
// the commenter role ranking between viewer and editor.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { postgresFixture, type StoreFixture, sqliteFixture } from '../../testing/storeFixtures.ts';
import type { NewComment, Store, UserRow } from '../src/store/store.ts';

const id = (bytes = 16) => randomBytes(bytes).toString('base64url');

function commentsContract(fixture: StoreFixture): void {
  describe(`Store comments contract: ${fixture.name}`, { skip: fixture.skip }, () => {
    let store: Store;
    const user = (name: string) =>
      store.createUser({ id: id(), name, email: null, passwordHash: null, color: '#3366ff', isGuest: true });

    before(async () => {
      store = await fixture.open();
    });
    after(async () => {
      await store?.close();
      await fixture.tearDown();
    });

    async function boardWith(owner: UserRow, ...members: [UserRow, 'editor' | 'commenter' | 'viewer'][]) {
      const board = await store.createBoard({ id: id(), title: 'Review', ownerId: owner.id });
      for (const [member, role] of members) await store.grantAtLeast(board.id, member.id, role);
      return board;
    }
    const comment = (boardId: string, threadId: string, by: UserRow, body: string, mentions: string[] = []) =>
      ({ id: id(), threadId, boardId, body, createdBy: by.id, mentions }) satisfies NewComment;

    test('a thread and its comments, in order, with their authors; resolve and reopen', async () => {
      const [ana, ben] = [await user('Ana'), await user('Ben')];
      const board = await boardWith(ana, [ben, 'commenter']);
      const threadId = id();
      const created = await store.comments.createThread(
        {
          id: threadId,
          boardId: board.id,
          pageId: 'main',
          shapeId: 's1',
          x: null,
          y: null,
          createdBy: ana.id,
        },
        comment(board.id, threadId, ana, 'Is this the right colour?'),
      );
      assert.equal(created.thread.resolved, false);
      assert.equal(created.comment.authorName, 'Ana');
      const point = id();
      await store.comments.createThread(
        { id: point, boardId: board.id, pageId: 'main', shapeId: null, x: 10.5, y: -3, createdBy: ben.id },
        comment(board.id, point, ben, 'Empty space here'),
      );
      const replies = [];
      for (let i = 0; i < 5; i++) {
        replies.push(
          await store.comments.addComment(comment(board.id, threadId, i % 2 ? ana : ben, `reply ${i}`)),
        );
      }
      assert.ok(replies.every((r) => r !== null));

      const threads = await store.comments.listThreads(board.id);
      assert.deepEqual(
        threads.map((t) => [t.id, t.shapeId, t.x, t.y]),
        [
          [threadId, 's1', null, null],
          [point, null, 10.5, -3],
        ],
      );
      const comments = await store.comments.commentsOf([threadId]);
      assert.deepEqual(
        comments.map((c) => [c.body, c.authorName]),
        [
          ['Is this the right colour?', 'Ana'],
          ['reply 0', 'Ben'],
          ['reply 1', 'Ana'],
          ['reply 2', 'Ben'],
          ['reply 3', 'Ana'],
          ['reply 4', 'Ben'],
        ],
      );

      const resolved = await store.comments.setResolved(threadId, true, ben.id);
      assert.equal(resolved?.resolved, true);
      assert.equal(resolved?.resolvedBy, ben.id);
      assert.ok(resolved?.resolvedAt instanceof Date);
      const reopened = await store.comments.setResolved(threadId, false, ana.id);
      assert.deepEqual([reopened?.resolved, reopened?.resolvedBy, reopened?.resolvedAt], [false, null, null]);
      assert.equal(await store.comments.setResolved(id(), true, ana.id), null);
    });

    test('edits keep the author and move mentions; deletions take comments and mentions with them', async () => {
      const [ana, ben, cy] = [await user('Ana'), await user('Ben'), await user('Cy')];
      const board = await boardWith(ana, [ben, 'editor'], [cy, 'viewer']);
      const threadId = id();
      const first = comment(board.id, threadId, ana, '@[Ben](x) look', [ben.id]);
      await store.comments.createThread(
        { id: threadId, boardId: board.id, pageId: 'main', shapeId: null, x: 0, y: 0, createdBy: ana.id },
        first,
      );
      assert.deepEqual(
        (await store.comments.mentionsFor(ben.id, 50)).map((m) => [
          m.commentId,
          m.by.name,
          m.boardTitle,
          m.readAt,
        ]),
        [[first.id, 'Ana', 'Review', null]],
      );

      const edited = await store.comments.editComment(first.id, 'now for Cy', [cy.id]);
      assert.deepEqual(edited?.added, [cy.id]);
      assert.equal(edited?.comment.body, 'now for Cy');
      assert.ok(edited?.comment.editedAt instanceof Date);
      assert.equal(edited?.comment.createdBy, ana.id);
      assert.deepEqual(await store.comments.mentionsFor(ben.id, 50), []);
      assert.equal((await store.comments.mentionsFor(cy.id, 50)).length, 1);
      assert.equal(await store.comments.editComment(id(), 'x', []), null);

      // Read: one thread at a time, or the whole board.
      assert.equal(await store.comments.markMentionsRead(cy.id, board.id, threadId), 1);
      assert.equal(await store.comments.markMentionsRead(cy.id, board.id, threadId), 0);
      assert.ok((await store.comments.mentionsFor(cy.id, 50))[0]?.readAt instanceof Date);

      const reply = comment(board.id, threadId, ben, 'for @[Cy](y)', [cy.id]);
      await store.comments.addComment(reply);
      assert.equal(await store.comments.markMentionsRead(cy.id, board.id, null), 1);
      assert.equal(await store.comments.deleteComment(reply.id), true);
      assert.equal(await store.comments.deleteComment(reply.id), false);
      assert.equal(await store.comments.getComment(reply.id), null);
      assert.equal((await store.comments.mentionsFor(cy.id, 50)).length, 1);

      assert.equal(await store.comments.deleteThread(threadId), true);
      assert.equal(await store.comments.getThread(threadId), null);
      assert.equal(await store.comments.getComment(first.id), null);
      assert.deepEqual(await store.comments.mentionsFor(cy.id, 50), []);
      // A reply to a deleted thread stores nothing.
      assert.equal(await store.comments.addComment(comment(board.id, threadId, ben, 'too late')), null);
      assert.equal(await store.comments.deleteThread(threadId), false);
    });

    test('mentions only reach people who can still open the board, newest first, up to the limit', async () => {
      const [ana, ben] = [await user('Ana'), await user('Ben')];
      const board = await boardWith(ana, [ben, 'viewer']);
      const other = await boardWith(ana, [ben, 'viewer']);
      for (const b of [board, other]) {
        for (let i = 0; i < 3; i++) {
          const threadId = id();
          await store.comments.createThread(
            { id: threadId, boardId: b.id, pageId: 'main', shapeId: null, x: i, y: i, createdBy: ana.id },
            comment(b.id, threadId, ana, `${b.id} ${i}`, [ben.id]),
          );
        }
      }
      const all = await store.comments.mentionsFor(ben.id, 50);
      assert.equal(all.length, 6);
      assert.deepEqual(
        all.map((m) => m.createdAt.getTime()),
        all.map((m) => m.createdAt.getTime()).sort((a, b) => b - a),
      );
      assert.equal((await store.comments.mentionsFor(ben.id, 4)).length, 4);

      await store.removeMember(other.id, ben.id);
      assert.deepEqual(
        new Set((await store.comments.mentionsFor(ben.id, 50)).map((m) => m.boardId)),
        new Set([board.id]),
      );
      await store.deleteBoard(board.id);
      assert.deepEqual(await store.comments.mentionsFor(ben.id, 50), []);
      // The deleted board's threads and comments are gone from the Store, not just hidden.
      assert.deepEqual(await store.comments.listThreads(board.id), []);
      assert.equal((await store.comments.listThreads(other.id)).length, 3);
    });

    test('commenter ranks between viewer and editor: links raise a viewer to it and never lower an editor', async () => {
      const [ana, ben, cy] = [await user('Ana'), await user('Ben'), await user('Cy')];
      const board = await boardWith(ana, [ben, 'viewer'], [cy, 'editor']);
      assert.equal(await store.grantAtLeast(board.id, ben.id, 'commenter'), 'commenter');
      assert.equal(await store.grantAtLeast(board.id, ben.id, 'viewer'), 'commenter');
      assert.equal(await store.grantAtLeast(board.id, cy.id, 'commenter'), 'editor');
      assert.equal(await store.getRole(board.id, ben.id), 'commenter');
      const link = await store.createLink({
        token: id(24),
        boardId: board.id,
        role: 'commenter',
        createdBy: ana.id,
      });
      assert.equal((await store.getLink(link.token))?.role, 'commenter');
    });
  });
}

commentsContract(sqliteFixture('comments'));
commentsContract(postgresFixture('comments'));
