// Hardening: votes follow membership and roles as they are now, not as they were when the vote
// started. A removed member's ballot no longer counts (results and the voter count); a starter
// demoted to viewer can no longer close the vote (the owner still can). On both stores.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ErrorCode,
  type VoteResultsAnswer,
  type VoteSessionAnswer,
  type VotesCurrentAnswer,
} from '@tandem/shared';
import { ApiClient } from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { assertError } from '../../testing/rest.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { skipUnless } from '../../testing/services.ts';

const postgresSkip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`hardening: votes follow current membership and roles (${engine})`, {
    skip: engine === 'postgres' ? postgresSkip : undefined,
  }, () => {
    let server: TestServer;
    let cluster: TestCluster | null = null;
    before(async () => {
      if (engine === 'sqlite') server = await startServer();
      else {
        cluster = new TestCluster();
        server = await cluster.start();
      }
    });
    after(async () => {
      if (cluster) await cluster.close();
      else await server.close();
    });
    const person = (name: string) => new ApiClient(server.url, server.origin).signup(name);
    const start = (who: ApiClient, boardId: string) =>
      who.call<VoteSessionAnswer>('POST', `/api/boards/${boardId}/votes`, { votesPerPerson: 3 });
    const vote = (who: ApiClient, boardId: string, sessionId: string, votes: Record<string, number>) =>
      who.call('PUT', `/api/boards/${boardId}/votes/${sessionId}/ballot`, { votes });
    const close = (who: ApiClient, boardId: string, sessionId: string) =>
      who.call<VoteResultsAnswer>('POST', `/api/boards/${boardId}/votes/${sessionId}/close`);

    test('a removed member’s ballot does not count, in the results or the voter count', async () => {
      const owner = await person('Owner');
      const kept = await person('Kept');
      const removed = await person('Removed');
      const boardId = await owner.createBoard();
      await owner.share(boardId, kept, 'editor');
      await owner.share(boardId, removed, 'editor');
      const sessionId = (await start(owner, boardId)).body.session.id;
      assert.equal((await vote(kept, boardId, sessionId, { a: 1 })).status, 200);
      assert.equal((await vote(removed, boardId, sessionId, { b: 3 })).status, 200);
      assert.equal(
        (await owner.call('DELETE', `/api/boards/${boardId}/members/${removed.userId}`)).status,
        204,
      );
      const running = await owner.call<VotesCurrentAnswer>('GET', `/api/boards/${boardId}/votes/current`);
      assert.equal(running.body.voters, 1, 'only the member still on the board is counted as a voter');
      const closed = await close(owner, boardId, sessionId);
      assert.equal(closed.status, 200);
      assert.deepEqual(closed.body.results, [{ shapeId: 'a', votes: 1 }]);
      const after = await kept.call<VotesCurrentAnswer>('GET', `/api/boards/${boardId}/votes/current`);
      assert.deepEqual(after.body.results, [{ shapeId: 'a', votes: 1 }]);
      assert.equal(after.body.voters, 1);
    });

    test('a starter demoted to viewer cannot close the vote; the owner still can', async () => {
      const owner = await person('Owner');
      const starter = await person('Starter');
      const boardId = await owner.createBoard();
      await owner.share(boardId, starter, 'editor');
      const sessionId = (await start(starter, boardId)).body.session.id;
      assert.equal(
        (await owner.call('PATCH', `/api/boards/${boardId}/members/${starter.userId}`, { role: 'viewer' }))
          .status,
        200,
      );
      assertError(await close(starter, boardId, sessionId), 403, ErrorCode.FORBIDDEN);
      const still = await owner.call<VotesCurrentAnswer>('GET', `/api/boards/${boardId}/votes/current`);
      assert.equal(still.body.session?.open, true, 'the refused close changed nothing');
      assert.equal((await close(owner, boardId, sessionId)).status, 200);
    });
  });
}
