// Hardening: no failed Redis call may stop an instance. Redis hangs (SIGSTOP)
// for 2 s while REST renames run every 20 ms, each of which the socket.io Redis adapter publishes;
// then it is SIGKILLed, so every command queued meanwhile rejects with a reset. The real server
// process must stay up, keep answering, count no unhandled rejection (each is caught where it
// arises), and serve renames again once Redis is back.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ApiClient } from '../../testing/clients.ts';
import { type ServerProcess, startProcess } from '../../testing/process.ts';
import { PrivateRedis, skipUnless, waitUntil } from '../../testing/services.ts';

const skip = await skipUnless('redis');

/** A counter's value in a Prometheus text exposition, or null when the metric is absent. */
export function metricValue(text: string, name: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line === undefined ? null : Number(line.split(' ').at(-1));
}

describe('hardening: Redis failures never stop an instance', { skip }, () => {
  let redis: PrivateRedis | null = null;
  let server: ServerProcess | null = null;
  after(async () => {
    await server?.stop('SIGKILL');
    await redis?.stop();
  });

  test('Redis hangs for 2 s then is SIGKILLed under 20 ms renames: the process stays up and counts no unhandled rejection', async () => {
    redis = await PrivateRedis.start();
    server = await startProcess({
      REDIS_URL: redis.url,
      REDIS_PREFIX: `test:${randomBytes(4).toString('hex')}:`,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'tandem-rejections-')),
    });
    let exitCode: number | null | undefined;
    void server.exited.then((code) => {
      exitCode = code;
    });
    const owner = await new ApiClient(server.url).signup('Owner');
    const boardId = await owner.createBoard();
    let renames = 0;
    let running = true;
    const renamer = (async () => {
      while (running && exitCode === undefined) {
        await owner
          .call('PATCH', `/api/boards/${boardId}`, { title: `title ${renames++}` })
          .catch(() => undefined);
        // Kept on purpose: the load's pace (one rename every 20 ms), not a wait for anything.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await waitUntil('renames are running', () => renames >= 5);
    redis.pause();
    // Kept on purpose: the hang's length is the scenario (a Redis that stops answering for 2 s).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await redis.kill();
    // The instance goes on answering renames after the kill: 20 more, each a PATCH that went
    // through the failing bus (a crash on an unhandled rejection would stop them).
    const renamesAtKill = renames;
    await waitUntil(
      'renames go on after the kill',
      () => renames >= renamesAtKill + 20 || exitCode !== undefined,
    );
    assert.equal(exitCode, undefined, 'the instance is still running after Redis was SIGKILLed');
    await redis.start();
    await waitUntil(
      'the instance is ready again with Redis back',
      async () => {
        const ready = await fetch(`${server!.url}/readyz`).catch(() => null);
        return ready?.status === 200;
      },
      30_000,
    );
    running = false;
    await renamer;
    assert.ok(renames > 50, `renames ran throughout (${renames})`);
    const rename = await owner.call('PATCH', `/api/boards/${boardId}`, { title: 'after' });
    assert.equal(rename.status, 200);
    const metrics = await owner.call<string>('GET', '/metrics');
    assert.equal(
      metricValue(metrics.body, 'tandem_unhandled_rejections_total'),
      0,
      'every rejection was handled where it arose',
    );
    assert.equal(exitCode, undefined, 'the instance never exited');
  });
});
