// Dot voting (docs/api.md §14): the four REST calls, their roles and errors, secrecy before the close,
// the sorted results, and `votes:changed` on socket.io (also across two instances).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ErrorCode,
  type VoteResultsAnswer,
  type VoteSessionAnswer,
  type VotesChanged,
  type VotesCurrentAnswer,
} from '@tandem/shared';
import { ApiClient } from '../../testing/clients.ts';
import { withTwoInstances } from '../../testing/cluster.ts';
import { assertError } from '../../testing/rest.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { skipUnless, waitUntil } from '../../testing/services.ts';
import { type Client, connectWorkspace, type Recorder } from '../../testing/workspace.ts';

const start = (who: ApiClient, boardId: string, votesPerPerson = 3) =>
  who.call<VoteSessionAnswer>('POST', `/api/boards/${boardId}/votes`, { votesPerPerson });
const current = (who: ApiClient, boardId: string) =>
  who.call<VotesCurrentAnswer>('GET', `/api/boards/${boardId}/votes/current`);
const ballot = (who: ApiClient, boardId: string, sessionId: string, votes: Record<string, number>) =>
  who.call<{ myVotes: Record<string, number>; voters: number }>(
    'PUT',
    `/api/boards/${boardId}/votes/${sessionId}/ballot`,
    { votes },
  );
const close = (who: ApiClient, boardId: string, sessionId: string) =>
  who.call<VoteResultsAnswer>('POST', `/api/boards/${boardId}/votes/${sessionId}/close`);

const votesEvents = (recorder: Recorder, boardId: string): VotesChanged[] =>
  recorder.events
    .filter((e) => e.name === 'votes:changed')
    .map((e) => e.payload as VotesChanged)
    .filter((p) => p.boardId === boardId);

describe('REST: dot voting', () => {
  let server: TestServer;
  let owner: ApiClient;
  let editor: ApiClient;
  let editor2: ApiClient;
  let viewer: ApiClient;
  let stranger: ApiClient;
  const sockets: Client[] = [];
  const client = () => new ApiClient(server.url);

  before(async () => {
    server = await startServer({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '10000' } });
    owner = await client().signup('Olivia Owner');
    editor = await client().signup('Eddie Editor');
    editor2 = await client().signup('Erin Editor');
    viewer = await client().signup('Vic Viewer');
    stranger = await client().signup('Sam Stranger');
  });
  after(async () => {
    for (const socket of sockets) socket.disconnect();
    await server.close();
  });

  async function sharedBoard(): Promise<string> {
    const boardId = await owner.createBoard('Retro');
    await owner.share(boardId, editor, 'editor');
    await owner.share(boardId, editor2, 'editor');
    await owner.share(boardId, viewer, 'viewer');
    return boardId;
  }

  test('roles: owners and editors start and vote; viewers read only; strangers get 404', async () => {
    const boardId = await sharedBoard();
    assertError(await start(viewer, boardId), 403, ErrorCode.FORBIDDEN);
    assertError(await start(stranger, boardId), 404, ErrorCode.NOT_FOUND);
    assertError(await current(stranger, boardId), 404, ErrorCode.NOT_FOUND);
    const noAuth = await new ApiClient(server.url).call('GET', `/api/boards/${boardId}/votes/current`);
    assertError(noAuth, 401, ErrorCode.AUTH_REQUIRED);

    const before = await current(viewer, boardId);
    assert.equal(before.status, 200);
    assert.deepEqual(before.body, { session: null, voters: 0, myVotes: {} });

    const started = await start(editor, boardId, 3);
    assert.equal(started.status, 201, JSON.stringify(started.body));
    const session = started.body.session;
    assert.deepEqual(
      { ...session, id: '' },
      { id: '', votesPerPerson: 3, startedBy: editor.userId, open: true },
    );
    assert.match(session.id, /^[A-Za-z0-9_-]{22}$/);

    assert.equal((await ballot(owner, boardId, session.id, { a: 1 })).status, 200);
    assert.equal((await ballot(editor, boardId, session.id, { a: 1 })).status, 200);
    assertError(await ballot(viewer, boardId, session.id, { a: 1 }), 403, ErrorCode.FORBIDDEN);
    assertError(await ballot(stranger, boardId, session.id, { a: 1 }), 404, ErrorCode.NOT_FOUND);
    const viewerSees = await current(viewer, boardId);
    assert.equal(viewerSees.status, 200);
    assert.deepEqual(viewerSees.body.myVotes, {});
    assert.equal(viewerSees.body.voters, 2);

    // Only the starter or the owner may close.
    assertError(await close(editor2, boardId, session.id), 403, ErrorCode.FORBIDDEN);
    assertError(await close(viewer, boardId, session.id), 403, ErrorCode.FORBIDDEN);
    assertError(await close(stranger, boardId, session.id), 404, ErrorCode.NOT_FOUND);
    assert.equal((await close(owner, boardId, session.id)).status, 200, 'the owner may close');

    // The starter may close their own session.
    const second = await start(editor2, boardId, 1);
    assert.equal(second.status, 201);
    assert.equal((await close(editor2, boardId, second.body.session.id)).status, 200);
  });

  test('409 CONFLICT while a session is open; a new one may start after the close', async () => {
    const boardId = await sharedBoard();
    const first = await start(owner, boardId, 2);
    assert.equal(first.status, 201);
    const again = assertError(await start(editor, boardId, 5), 409, ErrorCode.CONFLICT);
    assert.match(again.message, /already/);
    assert.equal((await close(owner, boardId, first.body.session.id)).status, 200);
    // A ballot after the close is refused, not silently added.
    assertError(await ballot(owner, boardId, first.body.session.id, { a: 1 }), 409, ErrorCode.CONFLICT);
    const next = await start(editor, boardId, 5);
    assert.equal(next.status, 201);
    assert.notEqual(next.body.session.id, first.body.session.id);
    assert.equal((await current(viewer, boardId)).body.session?.id, next.body.session.id);
  });

  test('422 VALIDATION past votesPerPerson and for a malformed body; unknown sessions are 404', async () => {
    const boardId = await sharedBoard();
    assertError(await start(owner, boardId, 0), 422, ErrorCode.VALIDATION, ['votesPerPerson']);
    assertError(await start(owner, boardId, 100), 422, ErrorCode.VALIDATION, ['votesPerPerson']);
    assertError(await start(owner, boardId, 1.5), 422, ErrorCode.VALIDATION, ['votesPerPerson']);
    const { session } = (await start(owner, boardId, 3)).body;
    assertError(await ballot(editor, boardId, session.id, { a: 2, b: 2 }), 422, ErrorCode.VALIDATION, [
      'votes',
    ]);
    assertError(await ballot(editor, boardId, session.id, { a: 4 }), 422, ErrorCode.VALIDATION, ['votes']);
    assertError(await ballot(editor, boardId, session.id, { a: -1 }), 422, ErrorCode.VALIDATION);
    assertError(await ballot(editor, boardId, session.id, { a: 0.5 }), 422, ErrorCode.VALIDATION);
    // Exactly the limit is fine, and nothing of the refused ballots was kept.
    assert.deepEqual((await current(editor, boardId)).body.myVotes, {});
    assert.equal((await ballot(editor, boardId, session.id, { a: 2, b: 1 })).status, 200);
    assert.deepEqual((await current(editor, boardId)).body.myVotes, { a: 2, b: 1 });

    assertError(await ballot(editor, boardId, 'x'.repeat(22), { a: 1 }), 404, ErrorCode.NOT_FOUND);
    assertError(await ballot(editor, boardId, 'nope', { a: 1 }), 404, ErrorCode.NOT_FOUND);
    // A session of another board is not reachable through this one.
    const otherBoard = await owner.createBoard('Other');
    assertError(await close(owner, otherBoard, session.id), 404, ErrorCode.NOT_FOUND);
  });

  test('secrecy: before the close each person sees only their own votes; then everyone sees sorted totals', async () => {
    const boardId = await sharedBoard();
    const watcher = await connectWorkspace(server.url, viewer.cookie);
    sockets.push(watcher.socket);
    const { session } = (await start(owner, boardId, 3)).body;
    await waitUntil('votes:changed for the start', () => votesEvents(watcher, boardId).length >= 1);
    assert.deepEqual(votesEvents(watcher, boardId)[0], {
      boardId,
      sessionId: session.id,
      open: true,
      voters: 0,
    });

    await ballot(owner, boardId, session.id, { s1: 1, s2: 2 });
    await ballot(editor, boardId, session.id, { s2: 1, s3: 2 });
    await ballot(editor2, boardId, session.id, { s2: 3 });
    // A changed mind replaces the ballot: Erin moves one vote to s1.
    await ballot(editor2, boardId, session.id, { s2: 2, s1: 1 });

    for (const [who, mine] of [
      [owner, { s1: 1, s2: 2 }],
      [editor, { s2: 1, s3: 2 }],
      [editor2, { s2: 2, s1: 1 }],
      [viewer, {}],
    ] as const) {
      const answer = await current(who, boardId);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.myVotes, mine);
      assert.equal(answer.body.results, undefined, 'no results while open');
      assert.equal(answer.body.voters, 3);
      assert.equal(answer.body.session?.open, true);
    }
    // The live events say how many have voted, never for what.
    await waitUntil('votes:changed per ballot', () => votesEvents(watcher, boardId).length >= 5);
    for (const event of votesEvents(watcher, boardId)) {
      assert.deepEqual(Object.keys(event).sort(), ['boardId', 'open', 'sessionId', 'voters']);
    }
    assert.deepEqual(
      votesEvents(watcher, boardId).map((e) => e.voters),
      [0, 1, 2, 3, 3],
    );

    const closed = await close(owner, boardId, session.id);
    assert.equal(closed.status, 200);
    const expected = [
      { shapeId: 's2', votes: 5 },
      { shapeId: 's1', votes: 2 },
      { shapeId: 's3', votes: 2 },
    ];
    assert.deepEqual(closed.body.results, expected);
    for (const who of [owner, editor, editor2, viewer]) {
      const answer = await current(who, boardId);
      assert.equal(answer.body.session?.open, false);
      assert.deepEqual(answer.body.results, expected);
    }
    await waitUntil('votes:changed for the close', () => votesEvents(watcher, boardId).some((e) => !e.open));
    assert.deepEqual(votesEvents(watcher, boardId).at(-1), {
      boardId,
      sessionId: session.id,
      open: false,
      voters: 3,
      results: expected,
    });
    // Closing again answers the same results and announces nothing new: the next vote's
    // announcement, sent after it on the same socket, is the only new event.
    const count = votesEvents(watcher, boardId).length;
    assert.deepEqual((await close(owner, boardId, session.id)).body.results, expected);
    const next = await owner.call<{ session: { id: string } }>('POST', `/api/boards/${boardId}/votes`, {
      votesPerPerson: 1,
    });
    assert.equal(next.status, 201);
    await waitUntil('votes:changed for the next vote', () => votesEvents(watcher, boardId).length > count);
    assert.deepEqual(
      votesEvents(watcher, boardId).slice(count),
      [{ boardId, sessionId: next.body.session.id, open: true, voters: 0 }],
      'the second close announced nothing',
    );
  });

  test('GET /api/time answers the server clock in epoch ms, uncached, without a session', async () => {
    const before = Date.now();
    const answer = await new ApiClient(server.url).call<{ now: number }>('GET', '/api/time');
    const after = Date.now();
    assert.equal(answer.status, 200);
    assert.ok(Number.isInteger(answer.body.now));
    // Same machine, same clock: the answer lies between the request and the response.
    assert.ok(
      answer.body.now >= before && answer.body.now <= after,
      `${before} ≤ ${answer.body.now} ≤ ${after}`,
    );
    assert.equal(answer.headers.get('cache-control'), 'no-store');
  });

  test('a stranger’s workspace socket hears nothing of the board’s votes', async () => {
    const boardId = await sharedBoard();
    const outsider = await connectWorkspace(server.url, stranger.cookie);
    const member = await connectWorkspace(server.url, editor.cookie);
    sockets.push(outsider.socket, member.socket);
    const { session } = (await start(owner, boardId, 3)).body;
    await ballot(editor, boardId, session.id, { a: 1 });
    await waitUntil('the member hears two events', () => votesEvents(member, boardId).length >= 2);
    assert.equal(votesEvents(outsider, boardId).length, 0);
  });
});

const clusterSkip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

describe('dot voting on two instances (PostgreSQL + Redis)', { skip: clusterSkip }, () => {
  const { cluster, sockets } = withTwoInstances();

  test('votes:changed reaches a member on the other instance; the store is shared', async () => {
    const [a, b] = cluster.instances as [TestServer, TestServer];
    const owner = await new ApiClient(a.url).signup('Owner on A');
    const boardId = await owner.createBoard();
    const editorA = await new ApiClient(a.url).signup('Editor');
    await owner.share(boardId, editorA, 'editor');
    // The same person, signed in through instance B (sessions live in the shared store).
    const editorB = new ApiClient(b.url);
    editorB.cookie = editorA.cookie;
    editorB.userId = editorA.userId;
    const ownerB = new ApiClient(b.url);
    ownerB.cookie = owner.cookie;
    ownerB.userId = owner.userId;

    const onB = await connectWorkspace(b.url, owner.cookie);
    sockets.push(onB.socket);
    const started = await start(owner, boardId, 3);
    assert.equal(started.status, 201);
    const { session } = started.body;
    await waitUntil('B hears the start', () => votesEvents(onB, boardId).length >= 1);

    // A second start through the other instance conflicts: the open-session rule is the database's.
    assertError(await start(editorB, boardId, 2), 409, ErrorCode.CONFLICT);

    assert.equal((await ballot(editorA, boardId, session.id, { x: 2, y: 1 })).status, 200);
    await waitUntil('B hears the voter', () => votesEvents(onB, boardId).some((e) => e.voters === 1));
    assertError(await ballot(editorB, boardId, session.id, { x: 4 }), 422, ErrorCode.VALIDATION, ['votes']);
    assert.deepEqual((await current(editorB, boardId)).body.myVotes, { x: 2, y: 1 });
    assert.deepEqual((await current(ownerB, boardId)).body.myVotes, {}, 'the owner does not see them');

    const onA = await connectWorkspace(a.url, editorA.cookie);
    sockets.push(onA.socket);
    assert.equal((await ballot(ownerB, boardId, session.id, { y: 1 })).status, 200);
    await waitUntil('A hears the second voter', () => votesEvents(onA, boardId).some((e) => e.voters === 2));
    const closed = await close(ownerB, boardId, session.id);
    // A tie is broken by shape id, so every viewer lists it in the same order.
    assert.deepEqual(closed.body.results, [
      { shapeId: 'x', votes: 2 },
      { shapeId: 'y', votes: 2 },
    ]);
    await waitUntil('A hears the close with the results', () =>
      votesEvents(onA, boardId).some((e) => !e.open && e.results?.length === 2),
    );
    // Each socket heard the close exactly once, although the emit went through the adapter.
    assert.equal(votesEvents(onA, boardId).filter((e) => !e.open).length, 1);
    await waitUntil('B hears the close', () => votesEvents(onB, boardId).some((e) => !e.open));
    assert.equal(votesEvents(onB, boardId).filter((e) => !e.open).length, 1);
  });
});
