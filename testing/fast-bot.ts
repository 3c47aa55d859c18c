// A bot in a process of its own (so its work does not slow the clients that time round trips): a
// stock y-websocket WebsocketProvider, `ws` as its WebSocket, that writes `count` single-shape
// transactions as fast as it can once synced. It reports on stdout, one JSON line each: every
// status change and close of its provider, and "written" when the loop is done. It stays
// connected until its stdin closes.
//   node --import tsx testing/fast-bot.ts <wsUrl> <boardId> <token> <count>

import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { addRecord } from './records.ts';

const [wsUrl, boardId, token, countArg] = process.argv.slice(2);
if (!wsUrl || !boardId || !token || !countArg)
  throw new Error('usage: fast-bot.ts <wsUrl> <boardId> <token> <count>');
const count = Number(countArg);
const report = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);

const doc = new Y.Doc();
const provider = new WebsocketProvider(`${wsUrl}/yjs`, boardId, doc, {
  WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
  params: { token },
  disableBc: true,
});
provider.on('status', ({ status }: { status: string }) => report({ event: 'status', status }));
provider.on('connection-close', (event: { code: number; reason: string } | null) =>
  report({ event: 'close', code: event?.code ?? null, reason: event?.reason ?? '' }),
);
provider.on('connection-error', () => report({ event: 'error' }));
provider.once('sync', () => {
  report({ event: 'synced' });
  // As fast as it can: one transaction each, nothing awaited in between.
  for (let i = 0; i < count; i++) addRecord(doc, `bot-${i}`, i, 'bot');
  report({ event: 'written', count });
});
process.stdin.resume();
process.stdin.on('end', () => {
  provider.destroy();
  doc.destroy();
  process.exit(0);
});
