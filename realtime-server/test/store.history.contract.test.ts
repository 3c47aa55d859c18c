// The Store's version history (docs/api.md §12), one contract for SQLite and PostgreSQL: attribution of
// stored entries, versions recorded and listed page by page, the board at a version, the log
// kept through compaction for replays, and thinning past the history window.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { BoardExport } from '@tandem/shared';
import * as Y from 'yjs';
import { postgresFixture, type StoreFixture, sqliteFixture } from '../../testing/storeFixtures.ts';
import { Versions } from '../src/history/versions.ts';
import type { Store } from '../src/store/store.ts';

const id = (bytes = 16) => randomBytes(bytes).toString('base64url');
const DAY = 86_400_000;
/** A version's export.json text, parsed. */
const exported = (answer: { json: string } | null) =>
  answer ? (JSON.parse(answer.json) as BoardExport) : null;

/** A client doc whose edits are captured as attributed entries. */
class Author {
  readonly doc = new Y.Doc();
  constructor(readonly userId: string) {}
  edit(fn: (shapes: Y.Map<Y.Map<unknown>>) => void, at: Date) {
    let update: Uint8Array | null = null;
    const on = (u: Uint8Array) => {
      update = u;
    };
    this.doc.once('update', on);
    this.doc.transact(() => fn(this.doc.getMap('shapes')));
    if (!update) throw new Error('no change');
    return { update, userId: this.userId, at };
  }
  add(shapeId: string, x: number, at: Date) {
    return this.edit((shapes) => {
      const m = new Y.Map<unknown>();
      for (const [k, v] of Object.entries({
        type: 'rect',
        x,
        y: 0,
        w: 10,
        h: 10,
        rotation: 0,
        color: 'blue',
        z: `a${x}`,
        createdBy: this.userId,
      }))
        m.set(k, v);
      shapes.set(shapeId, m);
    }, at);
  }
}

function contract(fixture: StoreFixture) {
  describe(`Store history contract: ${fixture.name}`, { skip: fixture.skip }, () => {
    let store: Store;
    before(async () => {
      store = await fixture.open();
    });
    after(async () => {
      await store?.close();
      await fixture.tearDown();
    });

    const setUp = async () => {
      const mk = (name: string) =>
        store.createUser({ id: id(), name, email: null, passwordHash: null, color: 'red', isGuest: true });
      const ada = await mk('Ada');
      const ben = await mk('Ben');
      const board = await store.createBoard({ id: id(), title: 'History', ownerId: ada.id });
      return { ada, ben, boardId: board.id };
    };

    test('attribution: each stored entry keeps its user and time, also after compaction', async () => {
      const { ada, ben, boardId } = await setUp();
      const a = new Author(ada.id);
      const t0 = new Date(Date.now() - 60_000);
      const e1 = a.add('s1', 1, t0);
      const e2 = { ...a.add('s2', 2, new Date(t0.getTime() + 1000)), userId: ben.id };
      await store.append(boardId, [e1]);
      await store.append(boardId, [e2, { ...a.add('s3', 3, new Date(t0.getTime() + 2000)), userId: null }]);
      const before = await store.logSince(boardId, 0);
      assert.deepEqual(
        before.map((e) => [e.userId, e.at.getTime()]),
        [
          [ada.id, t0.getTime()],
          [ben.id, t0.getTime() + 1000],
          [null, t0.getTime() + 2000],
        ],
      );
      assert.deepEqual(Buffer.from(before[0]!.update), Buffer.from(e1.update));
      assert.ok(before[0]!.seq < before[1]!.seq && before[1]!.seq < before[2]!.seq);
      // Compaction merges the log into the snapshot; history still reads every entry.
      await store.compact(boardId, (parts) => Y.mergeUpdates(parts));
      assert.equal((await store.loadDoc(boardId)).updates.length, 0);
      const kept = await store.logSince(boardId, 0);
      assert.deepEqual(
        kept.map((e) => [e.seq, e.userId]),
        before.map((e) => [e.seq, e.userId]),
      );
      const e4 = a.add('s4', 4, new Date());
      await store.append(boardId, [e4]);
      const since = await store.logSince(boardId, before[1]!.seq);
      assert.deepEqual(
        since.map((e) => e.userId),
        [null, ada.id],
      );
    });

    test('versions: recorded with authors and stats, listed newest first page by page, board at a version', async () => {
      const { ada, ben, boardId } = await setUp();
      let now = Date.now() - 10_000;
      const versions = new Versions(store, { historyDays: 30, now: () => new Date(now) });
      const a = new Author(ada.id);
      await store.append(boardId, [a.add('s1', 1, new Date(now)), a.add('s2', 2, new Date(now))]);
      now += 1000;
      const v1 = await versions.record(boardId, 'named', 'First');
      assert.ok(v1);
      assert.deepEqual(v1.authors, [ada.id]);
      assert.deepEqual(v1.stats, { added: 2, changed: 0, removed: 0 });
      // Nothing new: no automatic version.
      assert.equal(await versions.record(boardId, 'auto'), null);

      const benEdits = [
        { ...a.edit((s) => s.get('s1')?.set('x', 10), new Date(now)), userId: ben.id },
        { ...a.edit((s) => s.delete('s2'), new Date(now)), userId: ben.id },
        a.add('s3', 3, new Date(now)),
      ];
      await store.append(boardId, benEdits);
      now += 1000;
      const v2 = await versions.record(boardId, 'auto');
      assert.ok(v2);
      assert.deepEqual(v2.authors, [ben.id, ada.id]);
      assert.deepEqual(v2.stats, { added: 1, changed: 1, removed: 1 });
      now += 1000;
      const v3 = await versions.record(boardId, 'named', 'Third');
      assert.ok(v3);
      assert.deepEqual(v3.authors, []);

      const listed = await versions.list(boardId, null, 50);
      assert.deepEqual(
        listed.map((v) => v.id),
        [v3.id, v2.id, v1.id],
      );
      assert.deepEqual(
        listed[1]?.authors.map((x) => x.name),
        ['Ben', 'Ada'],
      );
      assert.equal(listed[2]?.label, 'First');
      assert.equal(listed[1]?.label, undefined);
      const page = await versions.list(boardId, v3.id, 1);
      assert.deepEqual(
        page.map((v) => v.id),
        [v2.id],
      );

      // The board at a version, as export.json shows it.
      const at1 = exported(await versions.exportAt(boardId, v1.id));
      assert.deepEqual(
        at1?.shapes.map((s) => [s.id, s.x]),
        [
          ['s1', 1],
          ['s2', 2],
        ],
      );
      const at2 = exported(await versions.exportAt(boardId, v2.id));
      assert.deepEqual(
        at2?.shapes.map((s) => [s.id, s.x]),
        [
          ['s1', 10],
          ['s3', 3],
        ],
      );
      assert.equal(await versions.exportAt(boardId, 'no-such-version'), null);
      // Another board's version is not found through this one.
      const other = await setUp();
      assert.equal(await versions.exportAt(other.boardId, v1.id), null);

      // Revert Ben since before his edits: the change brings s2 back and s1 to x 1, keeps s3.
      const change = await versions.revertChange(boardId, ben.id, new Date(now - 3000));
      assert.ok(change);
      const live = new Y.Doc();
      const stored = await store.loadDoc(boardId);
      for (const part of [stored.snapshot, ...stored.updates]) if (part) Y.applyUpdate(live, part);
      Y.applyUpdate(live, change);
      const shapes = live.getMap<Y.Map<unknown>>('shapes');
      assert.deepEqual([...shapes.keys()].sort(), ['s1', 's2', 's3']);
      assert.equal(shapes.get('s1')?.get('x'), 1);
    });

    test('thinning: past the history window one version a day is kept (and every named one)', async () => {
      const { ada, boardId } = await setUp();
      const start = Date.UTC(2026, 0, 1, 8);
      let now = start;
      const versions = new Versions(store, { historyDays: 30, now: () => new Date(now) });
      const a = new Author(ada.id);
      let x = 0;
      const ids: string[] = [];
      // Three days of editing, four versions a day, 40 days ago; one named one on day 2.
      for (let day = 0; day < 3; day++) {
        for (let k = 0; k < 4; k++) {
          now = start + day * DAY + k * 3_600_000;
          await store.append(boardId, [a.add(`s${x}`, x++, new Date(now))]);
          const v = await versions.record(
            boardId,
            day === 1 && k === 0 ? 'named' : 'auto',
            day === 1 && k === 0 ? 'Keep me' : null,
          );
          ids.push(v!.id);
        }
      }
      const before = await store.listVersions(boardId, null, 100);
      assert.equal(before.length, 12, 'inside the window nothing is thinned');
      // 40 days later, one more edit and version: everything before is past the window.
      now = start + 40 * DAY;
      await store.append(boardId, [a.add(`s${x}`, x++, new Date(now))]);
      await store.compact(boardId, (parts) => Y.mergeUpdates(parts));
      await versions.record(boardId, 'auto');
      const after = await store.listVersions(boardId, null, 100);
      const days = after.map((v) => v.createdAt.toISOString().slice(0, 10));
      assert.deepEqual(days, ['2026-02-10', '2026-01-03', '2026-01-02', '2026-01-02', '2026-01-01']);
      assert.ok(after.some((v) => v.label === 'Keep me'));
      // The last version of each day is the one kept.
      assert.ok(after.some((v) => v.id === ids[3]));
      assert.ok(after.some((v) => v.id === ids[11]));
      // Old log entries covered by a kept version are gone; the board is intact at every kept version.
      const log = await store.logSince(boardId, 0);
      assert.ok(
        log.every((e) => e.at.getTime() >= start + 2 * DAY),
        `${log.length} entries left`,
      );
      const last = exported(await versions.exportAt(boardId, after[0]!.id));
      assert.equal(last?.shapes.length, 13);
      const day1 = exported(await versions.exportAt(boardId, after.at(-1)!.id));
      assert.equal(day1?.shapes.length, 4);
    });
  });
}

contract(sqliteFixture('history'));
contract(postgresFixture('history'));
