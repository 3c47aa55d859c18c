// Presence from integrators (docs/api.md §3): a stock y-websocket client that sets only some fields (a
// bot that sets just `cursor`) is completed with defaults and shown to everyone under the user
// of its access token; only a malformed or oversized state is dropped, and each drop is logged
// once per connection with its reason. The §14 fields travel too, checked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PresenceState } from '@tandem/shared';
import pino from 'pino';
import { ApiClient, connectDoc, type DocClient, presence, waitSynced } from '../../testing/clients.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';

describe('presence from integrators', () => {
  let server: TestServer;
  const lines: Record<string, unknown>[] = [];
  const clients: DocClient[] = [];
  before(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    server = await startServer({ logger });
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await server.close();
  });

  test('a stock client that sets only `cursor` is seen by others under its token’s user name', async () => {
    const owner = await new ApiClient(server.url).signup('Owner');
    const boardId = await owner.createBoard();
    const botUser = await new ApiClient(server.url).signup('Import Bot');
    await owner.share(boardId, botUser, 'editor');
    const token = await botUser.token(boardId);

    const watcher = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
    const bot = connectDoc(server.wsUrl, boardId, { token });
    clients.push(watcher, bot);
    await Promise.all([waitSynced(watcher), waitSynced(bot)]);
    // A stock client, nothing Tandem-specific: it claims to be someone else, too.
    bot.provider.awareness.setLocalState({ cursor: { x: 12, y: 34 }, user: { name: 'Not me' } });
    const botId = bot.doc.clientID;
    await waitUntil('the watcher sees the bot', () => watcher.provider.awareness.getStates().has(botId));
    const seen = watcher.provider.awareness.getStates().get(botId) as PresenceState;
    assert.equal(seen.user.name, 'Import Bot');
    assert.equal(seen.user.id, botUser.userId);
    assert.equal(seen.role, 'editor');
    assert.deepEqual(seen.cursor, { x: 12, y: 34 });
    assert.deepEqual(seen.selection, []);
    assert.equal(seen.idle, false);

    // §14 fields are carried, checked.
    bot.provider.awareness.setLocalState({
      cursor: { x: 1, y: 1 },
      laser: { points: [[1, 1, 100]] },
      chat: 'hello',
      reaction: { emoji: '🎉', at: 1 },
    });
    await waitUntil('the watcher sees the chat', () => {
      const state = watcher.provider.awareness.getStates().get(botId) as PresenceState | undefined;
      return state?.chat === 'hello';
    });
    const full = watcher.provider.awareness.getStates().get(botId) as PresenceState;
    assert.deepEqual(full.laser, { points: [[1, 1, 100]] });
    assert.deepEqual(full.reaction, { emoji: '🎉', at: 1 });

    // A malformed state is dropped (the last good one stays) and logged once per connection.
    for (let i = 0; i < 5; i++) bot.provider.awareness.setLocalState({ cursor: { x: 'left', y: i } });
    bot.provider.awareness.setLocalState({ chat: 'c'.repeat(101) });
    bot.provider.awareness.setLocalState({ cursor: { x: 99, y: 99 } });
    await waitUntil('the next good state arrives', () => {
      const state = watcher.provider.awareness.getStates().get(botId) as PresenceState | undefined;
      return state?.cursor?.x === 99;
    });
    const drops = lines.filter((line) => String(line.msg).startsWith('presence state dropped'));
    assert.deepEqual(
      drops.map((line) => line.reason),
      ['malformed: cursor', 'malformed: chat'],
      'each reason logged once for this connection',
    );
    // Someone else's presence is untouched and carries its own name.
    watcher.provider.awareness.setLocalState(presence({ id: 'x', name: 'Whoever', color: '#000' }, 5, 5));
    await waitUntil('the bot sees the owner', () => {
      const state = bot.provider.awareness.getStates().get(watcher.doc.clientID) as PresenceState | undefined;
      return state?.user.name === 'Owner';
    });
  });
});
