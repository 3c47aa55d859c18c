// shared's apiPaths are the one place the client builds REST paths (client/src/api/): each
// builder, called as the client calls it, must reach a route the server registered, not the
// "No such API call." answer every unclaimed /api/ path gets.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiPaths, contentPaths } from '@tandem/shared';
import { ApiClient } from '../../testing/clients.ts';
import { startServer, type TestServer } from '../../testing/server.ts';

const UNCLAIMED = 'No such API call.';

describe('apiPaths', () => {
  let server: TestServer;
  let owner: ApiClient;
  let boardId: string;

  before(async () => {
    server = await startServer({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '10000' } });
    owner = await new ApiClient(server.url).signup('Pat Paths');
    boardId = await owner.createBoard('Paths');
  });
  after(async () => {
    await server.close();
  });

  // Made-up ids where a real one would change something (a delete, a restore): the route still
  // answers (with its own 404 or refusal), which is all this checks.
  const other = 'abcdefghijABCDEFGHIJ_';
  const hex = 'a'.repeat(64);
  const calls = (): [string, string][] => [
    ['GET', apiPaths.me()],
    ['PUT', apiPaths.myColor()],
    ['GET', apiPaths.time()],
    ['POST', apiPaths.signup()],
    ['POST', apiPaths.login()],
    ['POST', apiPaths.guest()],
    ['POST', apiPaths.upgrade()],
    ['POST', apiPaths.join('no-such-token')],
    ['GET', apiPaths.join('no-such-token')],
    ['GET', apiPaths.boards()],
    ['GET', apiPaths.board(boardId)],
    ['PATCH', apiPaths.board(other)],
    ['DELETE', apiPaths.board(other)],
    ['POST', apiPaths.boardToken(boardId)],
    ['GET', apiPaths.boardExport(boardId)],
    ['GET', apiPaths.boardSearch(boardId, 'a & b?')],
    ['GET', apiPaths.members(boardId)],
    ['PATCH', apiPaths.member(boardId, 'nobody')],
    ['DELETE', apiPaths.member(boardId, 'nobody')],
    ['GET', apiPaths.links(boardId)],
    ['DELETE', apiPaths.link(boardId, 'no-such-token')],
    ['POST', apiPaths.boardAssets(other)],
    ['GET', apiPaths.asset(boardId, hex)],
    ['GET', apiPaths.thumbnail(boardId)],
    ['PUT', apiPaths.thumbnail(other)],
    ['GET', apiPaths.versions(boardId, { limit: 5 })],
    ['GET', apiPaths.versions(boardId, { limit: 5, before: 'x' })],
    ['POST', apiPaths.versions(other)],
    ['GET', apiPaths.versionExport(boardId, 'no-such-version')],
    ['POST', apiPaths.versionRestore(other, 'no-such-version')],
    ['POST', apiPaths.revert(other)],
    ['POST', apiPaths.votes(other)],
    ['GET', apiPaths.votesCurrent(boardId)],
    ['PUT', apiPaths.voteBallot(boardId, 'no-such-session')],
    ['POST', apiPaths.voteClose(boardId, 'no-such-session')],
    ['GET', apiPaths.integrations(boardId)],
    ['POST', apiPaths.integrations(other)],
    ['DELETE', apiPaths.integration(boardId, 'no-such-integration')],
    ['GET', apiPaths.webhooks(boardId)],
    ['POST', apiPaths.webhooks(other)],
    ['DELETE', apiPaths.webhook(boardId, 'no-such-webhook')],
    ['GET', apiPaths.webhookDeliveries(boardId, 'no-such-webhook')],
    ['GET', contentPaths.board(boardId)],
    ['POST', contentPaths.shapes(other)],
    ['PATCH', contentPaths.shapes(other)],
    ['DELETE', contentPaths.shapes(other)],
    ['POST', contentPaths.pages(other)],
    ['GET', apiPaths.templates()],
    ['POST', apiPaths.templates()],
    ['GET', apiPaths.template('mad-sad-glad')],
    ['PATCH', apiPaths.template('no-such-template')],
    ['DELETE', apiPaths.template('no-such-template')],
    ['GET', apiPaths.threads(boardId)],
    ['POST', apiPaths.threads(other)],
    ['PATCH', apiPaths.thread(boardId, 'no-such-thread')],
    ['DELETE', apiPaths.thread(boardId, 'no-such-thread')],
    ['POST', apiPaths.threadComments(boardId, 'no-such-thread')],
    ['PATCH', apiPaths.comment(boardId, 'no-such-thread', 'no-such-comment')],
    ['DELETE', apiPaths.comment(boardId, 'no-such-thread', 'no-such-comment')],
    ['GET', apiPaths.mentions()],
    ['POST', apiPaths.mentionsRead()],
    ['POST', apiPaths.logout()],
  ];

  test('every builder reaches a registered route', async () => {
    const unclaimed: string[] = [];
    for (const [method, path] of calls()) {
      assert.ok(path.startsWith('/api/'), path);
      const answer = await owner.call<{ error?: { message?: string } }>(
        method,
        path,
        method === 'GET' ? undefined : {},
      );
      if (answer.body?.error?.message === UNCLAIMED) unclaimed.push(`${method} ${path}`);
    }
    assert.deepEqual(unclaimed, []);
  });

  test('ids are encoded, so one cannot reach another route', () => {
    assert.equal(apiPaths.board('a/b?c'), '/api/boards/a%2Fb%3Fc');
    assert.equal(apiPaths.asset('b', '../x'), '/api/boards/b/assets/..%2Fx');
    assert.equal(
      apiPaths.versions('b', { limit: 3, before: 'a&b' }),
      '/api/boards/b/versions?limit=3&before=a%26b',
    );
  });
});
