// SQLite's long writes off the event loop (store/sqliteMaintenance.ts): a compaction's write and
// the WAL's checkpoints run in a worker thread on a second connection to the file. Checked on a
// real file: the main connection never checkpoints by itself, the worker's checkpoints copy the
// WAL into the database file, a compaction's write is the worker's while the main thread's
// writes wait at the gate without blocking the event loop, and the Store holds every entry after.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as Y from 'yjs';
import { docFromStored } from '../../testing/clients.ts';
import { waitUntil } from '../../testing/services.ts';
import { mergeInBulk } from '../src/documents/updates.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import {
  CHECKPOINT_EVERY_MS,
  CHECKPOINT_WAL_BYTES,
  SqliteMaintenance,
  WAL_KEPT_BYTES,
} from '../src/store/sqliteMaintenance.ts';
import { WriteGate } from '../src/store/writeGate.ts';

/** A board of `count` ten-field stickies, as the updates that made it (one per sticky). */
function stickies(doc: Y.Doc, count: number, from = 0): Uint8Array[] {
  const updates: Uint8Array[] = [];
  const record = (u: Uint8Array) => updates.push(u);
  doc.on('update', record);
  const shapes = doc.getMap<Y.Map<unknown>>('shapes');
  for (let i = from; i < from + count; i++) {
    const shape = new Y.Map<unknown>();
    for (const [k, v] of Object.entries({
      type: 'sticky',
      x: i,
      y: i,
      w: 200,
      h: 200,
      z: i,
      color: '#fd6',
      text: `note ${i}`,
      rotation: 0,
      author: 'ada',
    }))
      shape.set(k, v);
    shapes.set(`s${i}`, shape);
  }
  doc.off('update', record);
  return updates;
}

const entries = (updates: Uint8Array[], userId: string) =>
  updates.map((update) => ({ update, userId, at: new Date() }));

function storedShapes(parts: { snapshot: Uint8Array | null; updates: Uint8Array[] }): number {
  const doc = docFromStored(parts);
  return doc.getMap('shapes').size;
}

describe('SQLite maintenance in a worker thread', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-maintenance-'));
  const store = new SqliteStore({ dataDir });
  before(async () => {
    await store.migrate();
    await store.createUser({
      id: 'ada',
      name: 'Ada',
      email: null,
      passwordHash: null,
      color: '#123456',
      isGuest: false,
    });
    await store.createBoard({ id: 'b1', title: 'Plan', ownerId: 'ada' });
  });
  after(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the main connection never checkpoints; the worker copies the WAL into the database file', async () => {
    assert.equal(store.db.pragma('wal_autocheckpoint', { simple: true }), 0);
    const databaseFile = join(dataDir, 'tandem.db');
    const before = statSync(databaseFile).size;
    const doc = new Y.Doc();
    // More than CHECKPOINT_WAL_BYTES of commits, in appends of 50 stickies.
    let n = 0;
    while (statSync(`${databaseFile}-wal`).size < CHECKPOINT_WAL_BYTES + 1024 * 1024) {
      await store.append('b1', entries(stickies(doc, 50, n), 'ada'));
      n += 50;
    }
    await waitUntil('the worker checkpointed', () => (store.maintenance?.checkpoints ?? 0) > 0);
    // Only a checkpoint writes the database file; the WAL held many versions of the same pages.
    assert.ok(
      statSync(databaseFile).size > before + 512 * 1024,
      'the committed pages reached the database file',
    );
    assert.equal(storedShapes(await store.loadDoc('b1')), n);
  });

  test('once checkpointed, the WAL file shrinks, so small writes after it do not ask for a checkpoint every second', async () => {
    // The first test left the WAL past CHECKPOINT_WAL_BYTES, and the worker checkpointed it. SQLite
    // starts a checkpointed WAL over from its beginning but keeps the file's size, which is what
    // the flush reads: without a size limit every flush then asked for a checkpoint (one a second).
    const wal = join(dataDir, 'tandem.db-wal');
    const doc = new Y.Doc();
    await waitUntil('the worker is done checkpointing', () => (store.maintenance?.checkpoints ?? 0) > 0);
    // The first test's WAL may take a second checkpoint (one asked while the first ran, on a busy
    // machine): the count is read once it has held for a checkpoint period and a half, at most
    // five times. A checkpoint every second, the fault checked here, never holds and fails below.
    let done = store.maintenance?.checkpoints ?? 0;
    for (let tries = 0; tries < 5; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 1.5 * CHECKPOINT_EVERY_MS));
      const now = store.maintenance?.checkpoints ?? 0;
      if (now === done) break;
      done = now;
    }
    const until = Date.now() + 2.5 * CHECKPOINT_EVERY_MS;
    let n = 100_000;
    while (Date.now() < until) {
      await store.append('b1', entries(stickies(doc, 1, n), 'ada'));
      n += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(
      statSync(wal).size <= WAL_KEPT_BYTES + 64 * 1024,
      `the WAL file is ${statSync(wal).size} bytes`,
    );
    assert.equal(store.maintenance?.checkpoints, done, 'no checkpoint for a few KB of writes');
  });

  test('a compaction is written by the worker while the main thread’s writes wait at the gate', async () => {
    const doc = new Y.Doc();
    await store.createBoard({ id: 'b2', title: 'Retro', ownerId: 'ada' });
    await store.append('b2', entries(stickies(doc, 2000), 'ada'));
    const late = stickies(doc, 10, 2000);
    let lateAppend: Promise<unknown> | null = null;
    let heldWhenCalled = false;
    let heldWhenStored: boolean | null = null;
    {
      const compaction = store.compact('b2', async (parts) => {
        const merged = mergeInBulk(parts);
        // Once the merge is done, the write goes to the worker with the gate held: an append
        // made then returns at once (the call does not block on the file's lock) and waits.
        setImmediate(() => {
          heldWhenCalled = store.writeGate.held;
          lateAppend = store.append('b2', entries(late, 'grace')).then(() => {
            heldWhenStored = store.writeGate.held;
          });
        });
        return merged;
      });
      await compaction;
      assert.ok(lateAppend, 'the append was made during the compaction');
      await lateAppend;
      assert.equal(heldWhenCalled, true, 'the worker was writing when the append was made');
      assert.equal(heldWhenStored, false, 'the append was stored once the worker’s write had ended');
    }
    const stored = await store.loadDoc('b2');
    assert.ok(stored.snapshot, 'the compaction wrote a snapshot');
    assert.equal(stored.updates.length, late.length, 'the append made meanwhile is in the log after it');
    assert.equal(storedShapes(stored), 2010);
    const history = store.db.prepare("SELECT count(*) AS n FROM doc_history WHERE board_id = 'b2'").get() as {
      n: number;
    };
    assert.equal(history.n, 2000, 'the compacted entries are kept for version history');
    assert.equal(store.writeGate.held, false);
  });

  test('a worker that cannot start hands the work back: the caller is told, once', async () => {
    const broken: Error[] = [];
    const gate = new WriteGate();
    const maintenance = new SqliteMaintenance(join(dataDir, 'no-such-dir', 'x.db'), gate, (e) =>
      broken.push(e),
    );
    await assert.rejects(maintenance.writeCompaction('b1', [1], new Uint8Array([0, 0])));
    assert.equal(maintenance.usable, false);
    // A second call is refused at once, and the caller is not told again.
    await assert.rejects(maintenance.readCompaction('b1'), /unavailable/);
    assert.equal(broken.length, 1);
    assert.equal(gate.held, false, 'the gate is let go');
    await maintenance.close();
  });
});
