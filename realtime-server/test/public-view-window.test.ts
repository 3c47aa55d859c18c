// Anonymous viewers get a board's updates merged, once per ANONYMOUS_VIEWER_WINDOW_MS (docs/api.md
// §16), with real y-websocket clients on a real server: viewers that join while two people stream
// edits end on exactly the people's board shortly after they stop (a gap in what a viewer was
// sent would leave it short for good: Yjs holds an update whose dependencies it lacks), and each
// gets far fewer messages than a signed-in member, who is sent every update as it comes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ANONYMOUS_VIEWER_WINDOW_MS,
  apiPaths,
  type LinkAnswer,
  type PublicTokenAnswer,
} from '@tandem/shared';
import * as Y from 'yjs';
import { ApiClient, connectDoc, type DocClient, stableJson, waitSynced } from '../../testing/clients.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('public view: updates to anonymous viewers are merged per window', { concurrency: false }, () => {
  let server: TestServer;
  let owner: ApiClient;
  let boardId: string;
  let link: string;
  const clients: DocClient[] = [];
  const open = (auth: { cookie?: string; token?: string }) => {
    const client = connectDoc(server.wsUrl, boardId, auth);
    clients.push(client);
    return client;
  };

  before(async () => {
    server = await startServer();
    owner = await new ApiClient(server.url).signup('Owner');
    boardId = await owner.createBoard('Streamed');
    const created = await owner.call<LinkAnswer>('POST', apiPaths.links(boardId), { role: 'public-viewer' });
    assert.equal(created.status, 201);
    link = created.body.link.token;
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await server.close();
  });

  test('viewers joining during a stream of edits end with every edit, in fewer messages', async () => {
    const editors = [open({ cookie: owner.cookie }), open({ cookie: owner.cookie })];
    // A signed-in member who only watches: sent every update as it comes, never delayed.
    const member = open({ cookie: owner.cookie });
    for (const client of [...editors, member]) await waitSynced(client);
    const token = async () => {
      const answer = await new ApiClient(server.url).call<PublicTokenAnswer>(
        'POST',
        apiPaths.publicToken(link),
      );
      assert.equal(answer.status, 200);
      return answer.body.token;
    };
    const tokens = [await token(), await token(), await token()];

    let memberUpdates = 0;
    member.doc.on('update', () => {
      memberUpdates += 1;
    });
    const viewers: DocClient[] = [];
    const viewerUpdates: number[] = [];
    let streaming = true;
    let edits = 0;
    const stream = (async () => {
      // Three transactions (three updates) per tick, so that even a loaded machine's slow timers
      // make far more updates than windows.
      for (let tick = 0; streaming; tick++) {
        const editor = editors[tick % 2]!;
        for (let i = 0; i < 3; i++) {
          editor.doc.getMap('stream').set(`e${edits}`, edits);
          edits += 1;
        }
        await sleep(4);
      }
    })();
    // Viewers join at different points of the stream, each mid-window.
    for (const [i, viewerToken] of tokens.entries()) {
      await sleep(250 + 130 * i);
      const viewer = open({ token: viewerToken });
      viewers.push(viewer);
      viewerUpdates.push(0);
      void waitSynced(viewer).then(() =>
        viewer.doc.on('update', () => {
          viewerUpdates[i]! += 1;
        }),
      );
    }
    await sleep(1200);
    for (const viewer of viewers) await waitSynced(viewer);
    const memberBefore = memberUpdates;
    const viewerBefore = viewerUpdates[0]!;
    await sleep(1000);
    streaming = false;
    await stream;
    const stoppedAt = performance.now();
    // Each editor holds all of its own edits: once both hold the same, both hold every edit. (Read
    // from the first editor at once, the board could lack the other's last edits still on their
    // way, and then the editors never came to hold that: seen once on a loaded machine.)
    const boardOf = (client: DocClient) => stableJson(client.doc.getMap('stream').toJSON());
    await waitUntil('both editors hold every edit', () => boardOf(editors[0]!) === boardOf(editors[1]!));
    const people = boardOf(editors[0]!);
    assert.ok(edits > 100, `the stream made ${edits} edits`);
    // Within the window and a margin for a loaded machine, every viewer holds exactly the board.
    await waitUntil(
      'every viewer holds every edit',
      () =>
        viewers.every(
          (v) =>
            stableJson(v.doc.getMap('stream').toJSON()) === people &&
            Buffer.from(Y.encodeStateVector(v.doc)).equals(Buffer.from(Y.encodeStateVector(editors[0]!.doc))),
        ),
      ANONYMOUS_VIEWER_WINDOW_MS + 2000,
    );
    const tookMs = performance.now() - stoppedAt;
    assert.equal(Object.keys(viewers[0]!.doc.getMap('stream').toJSON()).length, edits);
    // Over the same second of streaming, a viewer got a message per window, the member one per
    // update (each of the other editor's edits, and the same editor's tab's).
    const memberInSecond = memberUpdates - memberBefore;
    const viewerInSecond = viewerUpdates[0]! - viewerBefore;
    assert.ok(memberInSecond > 60, `the member got ${memberInSecond} updates in a second of streaming`);
    assert.ok(
      viewerInSecond * 3 < memberInSecond && viewerInSecond <= (1000 / ANONYMOUS_VIEWER_WINDOW_MS) * 2,
      `a viewer got ${viewerInSecond} messages in that second, the member ${memberInSecond}`,
    );
    assert.ok(tookMs < ANONYMOUS_VIEWER_WINDOW_MS + 2000);
  });
});
