// One contract suite for every Store: each backend must pass the same cases.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as Y from 'yjs';
import { deletionsBackInClockOrder } from '../../testing/edits.ts';
import { dropSchema, freePort, postgresUrl, skipUnless } from '../../testing/services.ts';
import { checkUpdate } from '../src/documents/updates.ts';
import { docAt } from '../src/history/board.ts';
import { openStore } from '../src/store/index.ts';
import { MemoryDocStore } from '../src/store/memory.ts';
import { migrations } from '../src/store/migrations.ts';
import { PostgresStore } from '../src/store/postgres.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import {
  BoardGoneError,
  type DocStore,
  EmailTakenError,
  type Store,
  VoteSessionOpenError,
} from '../src/store/store.ts';
import { WEBHOOK_DISABLED_ERROR } from '../src/store/webhooks.ts';

/** Where one backend keeps its data for the suite, and how to open a store on it. */
interface StoreFixture {
  name: string;
  skip?: string | undefined;
  /** Prepares a fresh, empty location (a temp dir, a schema). */
  setUp(): Promise<void>;
  /** Opens a migrated store on the location; may be called more than once. */
  open(): Promise<Store>;
  tearDown(): Promise<void>;
}

const id = (bytes = 16) => randomBytes(bytes).toString('base64url');

/** Appends plain updates as unattributed entries. */
const appendAll = (store: DocStore, boardId: string, updates: Uint8Array[]) =>
  store.append(
    boardId,
    updates.map((update) => ({ update, userId: null, at: new Date() })),
  );

/** The attribution columns of a board's log, oldest first, read straight from the database. */
async function attribution(
  store: Store,
  boardId: string,
): Promise<{ userId: string | null; at: number | null }[]> {
  const sql = 'SELECT user_id, created_at FROM doc_updates WHERE board_id = $1 ORDER BY seq';
  const rows =
    store instanceof SqliteStore
      ? (store.db.prepare(sql.replace('$1', '?')).all(boardId) as Record<string, unknown>[])
      : (await (store as PostgresStore).pool.query(sql, [boardId])).rows;
  return rows.map((r) => ({
    userId: (r.user_id as string | null) ?? null,
    at: r.created_at === null ? null : new Date(r.created_at as number | Date).getTime(),
  }));
}

function sqliteFixture(): StoreFixture {
  let dir = '';
  return {
    name: 'SqliteStore',
    async setUp() {
      dir = mkdtempSync(join(tmpdir(), 'tandem-store-'));
    },
    async open() {
      const store = new SqliteStore({ dataDir: dir });
      await store.migrate();
      return store;
    },
    async tearDown() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const pgSkip = await skipUnless('postgres');

/** A fresh schema name per use, so test runs and parallel files never share tables. */
const schemaName = () => `test_store_${randomBytes(6).toString('hex')}`;

function postgresFixture(): StoreFixture {
  let schema = '';
  return {
    name: 'PostgresStore',
    skip: pgSkip,
    async setUp() {
      schema = schemaName();
    },
    async open() {
      const store = new PostgresStore({ connectionString: postgresUrl(), schema, max: 4 });
      await store.migrate();
      return store;
    },
    async tearDown() {
      if (schema) await dropSchema(schema);
    },
  };
}

/** A document edit as Yjs would send it, plus the doc it came from. */
function edits(count: number, doc = new Y.Doc()): { doc: Y.Doc; updates: Uint8Array[] } {
  const updates: Uint8Array[] = [];
  const onUpdate = (u: Uint8Array) => updates.push(u);
  doc.on('update', onUpdate);
  const shapes = doc.getMap<Y.Map<unknown>>('shapes');
  for (let i = 0; i < count; i++) {
    doc.transact(() => {
      const shape = new Y.Map<unknown>();
      shape.set('type', 'sticky');
      shape.set('x', i);
      shape.set('y', i * 2);
      const text = new Y.Text();
      text.insert(0, `note ${i}`);
      shape.set('text', text);
      shapes.set(`s${doc.clientID}-${shapes.size}`, shape);
    });
  }
  doc.off('update', onUpdate);
  return { doc, updates };
}

async function loadJson(store: DocStore, boardId: string): Promise<unknown> {
  const stored = await store.loadDoc(boardId);
  const doc = new Y.Doc();
  if (stored.snapshot) Y.applyUpdate(doc, stored.snapshot);
  for (const u of stored.updates) Y.applyUpdate(doc, u);
  return content(doc);
}

const content = (doc: Y.Doc): unknown => doc.getMap('shapes').toJSON();

/** A doc holding one update. */
function docOf(update: Uint8Array): Y.Doc {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, update);
  return doc;
}

/** Each shape of a doc as one line, in key order. */
const shapeList = (doc: Y.Doc): string[] =>
  [...doc.getMap('shapes').entries()]
    .map(([key, shape]) => `${key} ${JSON.stringify((shape as Y.Map<unknown>).toJSON())}`)
    .sort();

/**
 * Two long lists are equal, failing with the first difference only (a deepEqual diff of a
 * thousand entries takes minutes to print).
 */
function sameList(actual: string[], expected: string[], what: string): void {
  const at = expected.findIndex((e, i) => actual[i] !== e);
  assert.ok(
    at === -1 && actual.length === expected.length,
    `${what}: ${actual.length} of ${expected.length}; first difference at ${at}: ${String(actual[at]).slice(0, 120)}`,
  );
}

/** DocStore.logHeads and logSince on two boards (of any store), shared by the SQL stores and the memory one. */
async function docLogContract(store: DocStore, b1: string, b2: string): Promise<void> {
  const heads = async (...keys: string[]) => [...(await store.logHeads(keys)).entries()];
  assert.deepEqual(await heads(b1, b2, 'no-such-board-here'), [
    [b1, 0],
    [b2, 0],
    ['no-such-board-here', 0],
  ]);
  const { doc, updates } = edits(4);
  await appendAll(store, b1, updates.slice(0, 2));
  const [[, first]] = (await heads(b1)) as [[string, number]];
  assert.ok(first > 0);
  assert.deepEqual(await heads(b2), [[b2, 0]]);
  await appendAll(store, b1, updates.slice(2));
  const [[, second]] = (await heads(b1)) as [[string, number]];
  assert.ok(second > first, 'an append moves the head');
  await store.compact(b1, (parts) => Y.mergeUpdates(parts));
  assert.deepEqual(await heads(b1), [[b1, second]], 'compaction keeps the head');
  // What came after a head seen earlier is still read after compaction (a room catching up reads that much).
  const since = await store.logSince(b1, first);
  assert.deepEqual(
    since.map((e) => Buffer.from(e.update).toString('base64')),
    updates.slice(2).map((u) => Buffer.from(u).toString('base64')),
    'logSince: the entries after the position, compacted or not',
  );
  assert.ok(since.every((e) => e.seq > first && e.seq <= second));
  assert.equal((await store.logSince(b1, 0)).length, 4);
  assert.deepEqual(await store.logSince(b1, second), []);
  await appendAll(store, b2, edits(1, doc).updates);
  const [[, other]] = (await heads(b2)) as [[string, number]];
  assert.ok(other > second);
  assert.deepEqual(await heads(b1), [[b1, second]], 'an append elsewhere leaves it');
  // More keys than one statement takes (HEADS_CHUNK), in one call.
  const many = [...Array.from({ length: 450 }, (_, i) => `absent-${i}`), b1, b2];
  const all = await store.logHeads(many);
  assert.equal(all.size, many.length);
  assert.equal(all.get(b1), second);
  assert.equal(all.get(b2), other);
  assert.equal(all.get('absent-449'), 0);
}

function storeContract(fixture: StoreFixture): void {
  describe(`Store contract: ${fixture.name}`, { skip: fixture.skip }, () => {
    let store: Store;

    before(async () => {
      await fixture.setUp();
      store = await fixture.open();
    });
    after(async () => {
      await store?.close();
      await fixture.tearDown();
    });

    const user = async (name = 'Ada', email: string | null = `${id(6)}@example.com`) =>
      store.createUser({
        id: id(),
        name,
        email,
        passwordHash: email ? 'hash' : null,
        color: 'blue',
        isGuest: email === null,
      });

    const board = async (ownerId: string, title = 'Retro') => store.createBoard({ id: id(), title, ownerId });

    test('users: create, get by id and by email, case-insensitive unique email', async () => {
      const email = `${id(6)}@example.com`.toLowerCase();
      const ada = await user('Ada', email);
      assert.equal(ada.email, email);
      assert.ok(ada.createdAt instanceof Date);
      const byId = await store.getUser(ada.id);
      assert.deepEqual(byId, ada);
      assert.deepEqual(await store.getUserByEmail(email), ada);
      assert.deepEqual(await store.getUserByEmail(email.toUpperCase()), ada);
      await assert.rejects(user('Eve', email), EmailTakenError);
      await assert.rejects(user('Eve', email.toUpperCase()), EmailTakenError);
      assert.equal(await store.getUser('nobody-at-all-here'), null);
      assert.equal(await store.getUserByEmail('nobody@example.com'), null);

      const guest = await user('Guest', null);
      const guest2 = await user('Guest 2', null);
      assert.equal((await store.getUser(guest.id))?.isGuest, true);
      assert.equal((await store.getUser(guest2.id))?.email, null);
      assert.equal((await store.getUser(ada.id))?.isGuest, false);
    });

    test('sessions: create, get, extend, delete; an expired one is not returned', async () => {
      const ada = await user();
      const now = Date.now();
      const session = {
        idHash: id(32),
        userId: ada.id,
        createdAt: new Date(now),
        expiresAt: new Date(now + 86_400_000),
      };
      await store.createSession(session);
      assert.deepEqual(await store.getSession(session.idHash), session);
      const later = new Date(now + 30 * 86_400_000);
      await store.extendSession(session.idHash, later);
      assert.deepEqual((await store.getSession(session.idHash))?.expiresAt, later);
      await store.deleteSession(session.idHash);
      assert.equal(await store.getSession(session.idHash), null);

      const expired = { ...session, idHash: id(32), expiresAt: new Date(now - 1000) };
      await store.createSession(expired);
      assert.equal(await store.getSession(expired.idHash), null);
    });

    test('boards: create adds the owner membership; rename; delete hides it everywhere', async () => {
      const ada = await user();
      const b = await board(ada.id, 'Planning');
      assert.equal(b.title, 'Planning');
      assert.equal(b.ownerId, ada.id);
      assert.equal(b.deletedAt, null);
      assert.deepEqual(await store.getBoard(b.id), b);
      assert.equal(await store.getRole(b.id, ada.id), 'owner');
      const members = await store.listMembers(b.id);
      assert.deepEqual(
        members.map((m) => [m.userId, m.role]),
        [[ada.id, 'owner']],
      );

      const renamed = await store.renameBoard(b.id, 'Planning Q3');
      assert.equal(renamed?.title, 'Planning Q3');
      assert.ok((renamed?.updatedAt.getTime() ?? 0) >= b.updatedAt.getTime());
      assert.equal((await store.getBoard(b.id))?.title, 'Planning Q3');
      assert.equal(await store.renameBoard('no-such-board-here-xx', 'x'), null);

      await store.deleteBoard(b.id);
      assert.equal(await store.getBoard(b.id), null);
      assert.equal(await store.getRole(b.id, ada.id), null);
      assert.deepEqual(await store.listBoards(ada.id), []);
      assert.equal(await store.renameBoard(b.id, 'again'), null);
    });

    test('boards: list is most recently updated first, with role and owner name', async () => {
      const ada = await user('Ada');
      const bob = await user('Bob');
      const a1 = await board(ada.id, 'First');
      const a2 = await board(ada.id, 'Second');
      const b1 = await board(bob.id, 'Bob board');
      await store.grantAtLeast(b1.id, ada.id, 'viewer');
      const base = Date.now() + 60_000;
      await store.touchBoard(a2.id, new Date(base + 1000));
      await store.touchBoard(b1.id, new Date(base + 2000));
      await store.touchBoard(a1.id, new Date(base + 3000));
      // updatedAt never goes back when an older touch arrives late.
      await store.touchBoard(a1.id, new Date(base));

      // A thumbnail's time is its own: storing one does not move the board's updatedAt.
      const picture = { mime: 'image/webp', width: 2, height: 1, data: new Uint8Array([1, 2, 3]) };
      assert.equal(await store.putThumbnail({ boardId: a1.id, ...picture }, new Date(base + 500)), true);

      const list = await store.listBoards(ada.id);
      assert.deepEqual(list, [
        {
          id: a1.id,
          title: 'First',
          role: 'owner',
          ownerName: 'Ada',
          updatedAt: new Date(base + 3000).toISOString(),
          thumbnailAt: new Date(base + 500).toISOString(),
        },
        {
          id: b1.id,
          title: 'Bob board',
          role: 'viewer',
          ownerName: 'Bob',
          updatedAt: new Date(base + 2000).toISOString(),
          thumbnailAt: null,
        },
        {
          id: a2.id,
          title: 'Second',
          role: 'owner',
          ownerName: 'Ada',
          updatedAt: new Date(base + 1000).toISOString(),
          thumbnailAt: null,
        },
      ]);
      const stored = await store.getThumbnail(a1.id);
      assert.deepEqual(stored && { ...stored, data: [...stored.data] }, {
        boardId: a1.id,
        ...picture,
        data: [1, 2, 3],
        updatedAt: new Date(base + 500),
      });
      assert.deepEqual(
        (await store.listBoards(bob.id)).map((b) => b.id),
        [b1.id],
      );
    });

    test('listBoards marks a board whose webhook was disabled, for its owner only', async () => {
      const ada = await user('Ada');
      const bob = await user('Bob');
      const failing = await board(ada.id, 'Failing hook');
      const healthy = await board(ada.id, 'Healthy hook');
      await store.grantAtLeast(failing.id, bob.id, 'editor');
      const hook = (boardId: string) =>
        store.webhooks.create({
          id: id(12),
          boardId,
          url: 'https://example.com/hook',
          events: ['comment.created'],
          secret: 'whsec_test',
          createdBy: ada.id,
          createdAt: new Date(),
        });
      const off = await hook(failing.id);
      await hook(healthy.id);
      // A failed attempt, then the 24 h cutoff passed (disableIfFailingSince with a later cutoff).
      const at = new Date();
      await store.webhooks.enqueue([
        {
          id: id(12),
          webhookId: off.id,
          boardId: failing.id,
          eventId: 'evt_1',
          type: 'comment.created',
          body: '{}',
          at,
        },
      ]);
      const [claimed] = await store.webhooks.claim('me', at, new Date(at.getTime() + 60_000), 1);
      assert.ok(claimed);
      await store.webhooks.finish(claimed.id, 'me', off.id, {
        ok: false,
        at,
        responseStatus: 500,
        error: 'The receiver answered 500.',
        durationMs: 1,
        nextAt: new Date(at.getTime() + 1000),
      });
      const marked = async (userId: string) =>
        (await store.listBoards(userId)).filter((b) => b.webhookDisabled).map((b) => b.title);
      assert.deepEqual(await marked(ada.id), [], 'failing, not yet disabled');
      assert.equal(await store.webhooks.disableIfFailingSince(off.id, new Date(at.getTime() + 1), at), true);
      assert.deepEqual(await marked(ada.id), ['Failing hook']);
      // Its retry that was waiting fails with it, and is never claimed again.
      const [waiting] = await store.webhooks.deliveries(off.id, 10);
      assert.equal(waiting?.status, 'failed');
      assert.equal(waiting?.error, WEBHOOK_DISABLED_ERROR);
      const later = new Date(at.getTime() + 60 * 60_000);
      assert.deepEqual(await store.webhooks.claim('me', later, new Date(later.getTime() + 60_000), 5), []);
      const forBob = (await store.listBoards(bob.id)).find((b) => b.id === failing.id);
      assert.ok(forBob && !('webhookDisabled' in forBob), 'an editor is not told');
      await store.webhooks.delete(failing.id, off.id);
      assert.deepEqual(await marked(ada.id), [], 'deleting the webhook clears it');
    });

    test('memberships: grantAtLeast never lowers, setRole, removeMember, listMembers', async () => {
      const ada = await user('Ada');
      const bob = await user('Bob');
      const guest = await user('Guest', null);
      const b = await board(ada.id);

      assert.equal(await store.getRole(b.id, bob.id), null);
      const version = async () => (await store.accessVersions([b.id])).get(b.id)!;
      const v0 = await version();
      assert.equal(await store.grantAtLeast(b.id, bob.id, 'viewer'), 'viewer');
      assert.equal(await store.grantAtLeast(b.id, bob.id, 'editor'), 'editor');
      // Each grant that created or raised the membership moved the access version (the periodic
      // re-check of open connections keys on it); one that changed nothing did not.
      const v2 = await version();
      assert.ok(v2 >= v0 + 2, `access version ${v0} → ${v2} after two raising grants`);
      assert.equal(await store.grantAtLeast(b.id, bob.id, 'viewer'), 'editor');
      assert.equal(await version(), v2, 'a grant that changed nothing leaves the version');
      assert.equal(await store.getRole(b.id, bob.id), 'editor');
      assert.equal(await store.grantAtLeast(b.id, ada.id, 'editor'), 'owner');

      assert.equal(await store.setRole(b.id, bob.id, 'viewer'), true);
      assert.equal(await store.getRole(b.id, bob.id), 'viewer');
      assert.equal(await store.setRole(b.id, guest.id, 'viewer'), false);
      assert.equal(await store.getRole(b.id, guest.id), null);

      await store.grantAtLeast(b.id, guest.id, 'editor');
      const members = await store.listMembers(b.id);
      assert.deepEqual(members.map((m) => m.userId).sort(), [ada.id, bob.id, guest.id].sort());
      const g = members.find((m) => m.userId === guest.id);
      assert.deepEqual(
        { ...g, createdAt: undefined },
        {
          userId: guest.id,
          name: 'Guest',
          email: null,
          color: 'blue',
          isGuest: true,
          role: 'editor',
          createdAt: undefined,
        },
      );
      assert.ok(!Number.isNaN(Date.parse(g?.createdAt ?? '')));
      assert.equal(members[0]?.userId, ada.id, 'the owner joined first');

      assert.equal(await store.removeMember(b.id, bob.id), true);
      assert.equal(await store.removeMember(b.id, bob.id), false);
      assert.equal(await store.getRole(b.id, bob.id), null);
      assert.deepEqual(
        (await store.listBoards(bob.id)).map((x) => x.id),
        [],
      );
    });

    test('links: create, list active newest first, revoke, get whatever the state', async () => {
      const ada = await user();
      const b = await board(ada.id);
      const other = await board(ada.id);
      const first = await store.createLink({
        token: id(24),
        boardId: b.id,
        role: 'editor',
        createdBy: ada.id,
      });
      const second = await store.createLink({
        token: id(24),
        boardId: b.id,
        role: 'viewer',
        createdBy: ada.id,
      });
      await store.createLink({ token: id(24), boardId: other.id, role: 'viewer', createdBy: ada.id });
      assert.equal(first.revokedAt, null);
      assert.deepEqual(await store.listLinks(b.id), [second, first]);
      assert.deepEqual(await store.getLink(first.token), first);

      assert.equal(await store.revokeLink(other.id, first.token), false, 'not a link of that board');
      assert.equal(await store.revokeLink(b.id, first.token), true);
      assert.equal(await store.revokeLink(b.id, first.token), false, 'already revoked');
      assert.deepEqual(await store.listLinks(b.id), [second]);
      const revoked = await store.getLink(first.token);
      assert.ok(revoked?.revokedAt instanceof Date);
      assert.equal(revoked?.role, 'editor');
      assert.equal(await store.getLink(id(24)), null);
    });

    test('integrations: created with an identity and membership, found by key hash while it works, revoked with its membership', async () => {
      const ada = await user();
      const b = await board(ada.id);
      const other = await board(ada.id);
      const access = async () => (await store.accessVersions([b.id])).get(b.id);
      const make = (name: string, role: 'editor' | 'viewer', frameId: string | null = null) =>
        store.integrations.create({
          id: id(),
          boardId: b.id,
          userId: id(),
          name,
          color: 'violet',
          role,
          keyHash: `hash-${name}-${b.id}`,
          frameId,
          createdBy: ada.id,
        });
      const sorter = await make('Sorter', 'editor', 'frame-1');
      const reader = await make('Reader', 'viewer');
      assert.equal(sorter.role, 'editor');
      assert.equal(sorter.frameId, 'frame-1');
      // A member-like identity: its user row (no email, cannot sign in) and its membership.
      assert.equal((await store.getUser(sorter.userId))?.name, 'Sorter');
      assert.equal((await store.getUser(sorter.userId))?.email, null);
      assert.equal(await store.getRole(b.id, sorter.userId), 'editor');
      assert.equal(await store.getRole(other.id, sorter.userId), null);
      // Oldest first; two made in the same millisecond may come in either order.
      assert.deepEqual((await store.integrations.list(b.id)).map((i) => [i.name, i.role]).sort(), [
        ['Reader', 'viewer'],
        ['Sorter', 'editor'],
      ]);
      assert.deepEqual(await store.integrations.list(other.id), []);
      // Listed among the members, marked as a bot; a person's record carries no such field.
      const members = await store.listMembers(b.id);
      assert.equal(members.find((m) => m.userId === sorter.userId)?.isBot, true);
      assert.equal('isBot' in (members.find((m) => m.userId === ada.id) ?? {}), false);

      const keyed = await store.integrations.create({
        id: id(),
        boardId: b.id,
        userId: id(),
        name: 'Keyed',
        color: 'blue',
        role: 'editor',
        keyHash: 'the-hash',
        frameId: null,
        createdBy: ada.id,
      });
      const found = await store.integrations.byKey('the-hash');
      assert.equal(found?.id, keyed.id);
      assert.equal(found?.name, 'Keyed');
      assert.equal(found?.role, 'editor');
      assert.equal(await store.integrations.byKey('another-hash'), null);

      const at = new Date(Date.now() - 5000);
      await store.integrations.touch(sorter.id, at);
      const listed = await store.integrations.list(b.id);
      assert.equal(listed.find((i) => i.id === sorter.id)?.lastUsedAt?.getTime(), at.getTime());
      assert.equal(listed.find((i) => i.id === reader.id)?.lastUsedAt, null);

      // Revoked: gone from the list, its key finds nothing, its membership is gone and the
      // access version moved (as for any removal).
      const before = await access();
      assert.equal(await store.integrations.revoke(other.id, keyed.id), null, 'not of that board');
      assert.equal(await store.integrations.revoke(b.id, keyed.id), keyed.userId);
      assert.equal(await store.integrations.revoke(b.id, keyed.id), null, 'already revoked');
      assert.equal(await store.integrations.byKey('the-hash'), null);
      assert.equal(await store.getRole(b.id, keyed.userId), null);
      assert.ok((await access())! > before!);
      assert.deepEqual((await store.integrations.list(b.id)).map((i) => i.name).sort(), ['Reader', 'Sorter']);

      // Removed as a member (the member list's way): the key stops working too.
      const removedUser = id();
      await store.integrations.create({
        id: id(),
        boardId: b.id,
        userId: removedUser,
        name: 'Removed',
        color: 'blue',
        role: 'editor',
        keyHash: 'removed-hash',
        frameId: null,
        createdBy: ada.id,
      });
      assert.equal((await store.integrations.byKey('removed-hash'))?.name, 'Removed');
      await store.removeMember(b.id, removedUser);
      assert.equal(await store.integrations.byKey('removed-hash'), null);
      assert.equal(reader.role, 'viewer');

      // A deleted board's keys find nothing.
      assert.equal((await store.integrations.byKey(`hash-Sorter-${b.id}`))?.id, sorter.id);
      await store.deleteBoard(b.id);
      assert.equal(await store.integrations.byKey(`hash-Sorter-${b.id}`), null);
      assert.deepEqual(await store.integrations.list(other.id), []);
    });

    test('idempotent answers: the first claim goes ahead, a retry sees it running and then its answer, old keys are forgotten', async () => {
      const ada = await user();
      const key = id();
      const week = new Date(Date.now() - 7 * 86_400_000);
      assert.equal(await store.integrations.claimIdempotency(ada.id, key, week), null);
      assert.deepEqual(await store.integrations.claimIdempotency(ada.id, key, week), {
        status: null,
        body: null,
      });
      await store.integrations.answerIdempotency(ada.id, key, { status: 201, body: '{"shapes":[]}' });
      assert.deepEqual(await store.integrations.claimIdempotency(ada.id, key, week), {
        status: 201,
        body: '{"shapes":[]}',
      });
      // Another caller's same key is its own.
      const eve = await user('Eve');
      assert.equal(await store.integrations.claimIdempotency(eve.id, key, week), null);
      // A failed call releases its key: the retry goes ahead.
      await store.integrations.answerIdempotency(eve.id, key, { status: null, body: null });
      assert.equal(await store.integrations.claimIdempotency(eve.id, key, week), null);
      // Past the window the key is new again.
      assert.equal(await store.integrations.claimIdempotency(ada.id, key, new Date(Date.now() + 1000)), null);
      assert.ok((await store.integrations.sweepIdempotency(new Date(Date.now() + 1000))) >= 2);
      assert.equal(await store.integrations.claimIdempotency(eve.id, key, week), null);
    });

    test('content: an unknown board loads empty; appends keep their order; LogSize adds up', async () => {
      const ada = await user();
      const b = await board(ada.id);
      assert.deepEqual(await store.loadDoc(b.id), { snapshot: null, updates: [] });

      const { doc, updates } = edits(5);
      assert.equal(Object.keys(content(doc) as object).length, 5);
      const size1 = await appendAll(store, b.id, updates.slice(0, 3));
      const bytes3 = updates.slice(0, 3).reduce((n, u) => n + u.byteLength, 0);
      assert.deepEqual(size1, { entries: 3, bytes: bytes3, totalBytes: bytes3 });
      const size2 = await appendAll(store, b.id, updates.slice(3));
      const bytes5 = updates.reduce((n, u) => n + u.byteLength, 0);
      assert.deepEqual(size2, { entries: 5, bytes: bytes5, totalBytes: bytes5 });

      const stored = await store.loadDoc(b.id);
      assert.equal(stored.snapshot, null);
      assert.deepEqual(
        stored.updates.map((u) => Buffer.from(u).toString('hex')),
        updates.map((u) => Buffer.from(u).toString('hex')),
      );
      assert.deepEqual(await loadJson(store, b.id), content(doc));
    });

    test('content: an entry stored with its delete set out of clock order loads as Yjs would write it', async () => {
      // Joined entries written before joinedDeletes (documents/updates.ts) named one client's
      // deletions in several entries, a later one deleting an older item. Two instances append to
      // one log, so such an entry can come before the entry that holds what it deletes: applied
      // in that order, Yjs kept the deletions garbled and later deleted what nobody had.
      const ada = await user();
      const b = await board(ada.id);
      const { author, shapes, created, deletions } = deletionsBackInClockOrder();
      // The old join: no structs, then every update's delete set entries one after the other.
      const entries = deletions.map((update) => {
        const layout = checkUpdate(update);
        return update.subarray(layout.deletesFrom, layout.deletesTo);
      });
      const legacy = Buffer.concat([Uint8Array.of(0, entries.length), ...entries]);
      // Garbled, those deletions named clocks 129 and 132 of the same client: items it makes later.
      author.transact(() => {
        for (let i = 6; i < 140; i++) shapes.set(`s${i}`, i);
      });
      const later = Y.encodeStateAsUpdate(author, Y.encodeStateVector(docOf(created)));
      await appendAll(store, b.id, [legacy, created, later]);
      const expected = content(author) as Record<string, number>;
      assert.equal(Object.keys(expected).length, 137);
      assert.deepEqual(await loadJson(store, b.id), expected);
      // The history replays the log as stored (logSince), putting each entry in order itself.
      const replayed = docAt(null, await store.logSince(b.id, 0));
      assert.deepEqual(content(replayed), expected, 'the log the history replays');
    });

    test('content: append records who sent each entry and when, and moves updatedAt forward', async () => {
      const ada = await user('Ada');
      const b = await board(ada.id);
      const createdAt = (await store.getBoard(b.id))!.updatedAt.getTime();
      const { doc, updates } = edits(3);
      const t = createdAt + 60_000;
      await store.append(b.id, [
        { update: updates[0]!, userId: ada.id, at: new Date(t) },
        { update: updates[1]!, userId: null, at: new Date(t + 1000) },
      ]);
      await store.append(b.id, [{ update: updates[2]!, userId: 'someone-else', at: new Date(t - 5000) }]);
      assert.deepEqual(await attribution(store, b.id), [
        { userId: ada.id, at: t },
        { userId: null, at: t + 1000 },
        { userId: 'someone-else', at: t - 5000 },
      ]);
      assert.deepEqual(await loadJson(store, b.id), content(doc));
      // updatedAt follows the latest entry and never goes back.
      assert.equal((await store.getBoard(b.id))!.updatedAt.getTime(), t + 1000);
      await store.append(b.id, []);
      assert.equal((await store.getBoard(b.id))!.updatedAt.getTime(), t + 1000);
    });

    test('content: compact merges into one snapshot with identical content', async () => {
      const ada = await user();
      const b = await board(ada.id);
      const { doc, updates } = edits(20);
      await appendAll(store, b.id, updates);
      const before = await loadJson(store, b.id);
      assert.deepEqual(before, content(doc));

      let parts = 0;
      await store.compact(b.id, (p) => {
        parts = p.length;
        return Y.mergeUpdates(p);
      });
      assert.equal(parts, 20);
      const stored = await store.loadDoc(b.id);
      assert.ok(stored.snapshot);
      assert.deepEqual(stored.updates, []);
      assert.deepEqual(await loadJson(store, b.id), before);

      // A second round merges the snapshot with what came after it.
      const more = edits(3, doc).updates;
      const size = await appendAll(store, b.id, more);
      const moreBytes = more.reduce((n, u) => n + u.byteLength, 0);
      assert.deepEqual(size, {
        entries: 3,
        bytes: moreBytes,
        totalBytes: moreBytes + stored.snapshot.byteLength,
      });
      await store.compact(b.id, (p) => {
        parts = p.length;
        return Y.mergeUpdates(p);
      });
      assert.equal(parts, 4, 'snapshot first, then the three entries');
      assert.deepEqual(await loadJson(store, b.id), content(doc));
      // Nothing to do is fine.
      await store.compact(b.id, () => assert.fail('nothing to merge'));
    });

    test('logHeads: a document appended to shows another head; compaction keeps it; many keys in one call; logSince reads past compaction', async () => {
      const ada = await user();
      const [b1, b2] = [await board(ada.id), await board(ada.id)];
      await docLogContract(store, b1.id, b2.id);
    });

    test('content: entries appended while compaction merges are kept', async () => {
      const ada = await user();
      const b = await board(ada.id);
      const { doc, updates } = edits(10);
      await appendAll(store, b.id, updates);
      const late = edits(2, doc).updates;
      let appended: Promise<unknown> | undefined;
      await store.compact(b.id, (parts) => {
        appended = appendAll(store, b.id, late);
        return Y.mergeUpdates(parts);
      });
      await appended;
      const stored = await store.loadDoc(b.id);
      assert.ok(stored.snapshot);
      assert.equal(stored.updates.length, 2);
      assert.deepEqual(await loadJson(store, b.id), content(doc));
    });

    test('content: a merge that throws leaves the stored content as it was', async () => {
      const ada = await user();
      const b = await board(ada.id);
      const { doc, updates } = edits(4);
      await appendAll(store, b.id, updates);
      await assert.rejects(
        store.compact(b.id, () => {
          throw new Error('merge failed');
        }),
        /merge failed/,
      );
      const stored = await store.loadDoc(b.id);
      assert.equal(stored.snapshot, null);
      assert.equal(stored.updates.length, 4);
      assert.deepEqual(await loadJson(store, b.id), content(doc));
    });

    test('content: a deleted or unknown board takes no content, and compacting it stores nothing', async () => {
      const ada = await user();
      const b = await board(ada.id);
      const { updates } = edits(3);
      await appendAll(store, b.id, updates.slice(0, 2));
      await store.deleteBoard(b.id);
      await assert.rejects(appendAll(store, b.id, updates.slice(2)), (err: unknown) => {
        assert.ok(err instanceof BoardGoneError);
        assert.equal(err.boardId, b.id);
        return true;
      });
      await assert.rejects(appendAll(store, 'no-such-board', updates), BoardGoneError);
      assert.deepEqual(await store.loadDoc(b.id), { snapshot: null, updates: [] });
      assert.deepEqual(await store.loadDoc('no-such-board'), { snapshot: null, updates: [] });
      assert.deepEqual(await attribution(store, b.id), []);
      // Compacting a deleted board merges nothing into a snapshot.
      await store.compact(b.id, (p) => Y.mergeUpdates(p));
      assert.deepEqual(await store.loadDoc(b.id), { snapshot: null, updates: [] });
    });

    test('content: one append and one compaction past one batch of rows keep every entry', async () => {
      // 1,201 entries: more than one INSERT's worth of rows (1,000) and more than two IN lists of
      // log positions (500 each), so every batch boundary of the document log is crossed.
      const ada = await user('Ada');
      const b = await board(ada.id);
      const { doc, updates } = edits(1201);
      const t = Date.now();
      const entries = updates.map((update, i) => ({
        update,
        userId: i % 2 === 0 ? ada.id : null,
        at: new Date(t + i),
      }));
      const size = await store.append(b.id, entries);
      const bytes = updates.reduce((n, u) => n + u.byteLength, 0);
      assert.deepEqual(size, { entries: 1201, bytes, totalBytes: bytes });
      sameList(
        (await attribution(store, b.id)).map((e) => `${e.userId} ${e.at}`),
        entries.map((e) => `${e.userId} ${e.at.getTime()}`),
        'log attribution',
      );
      assert.equal((await store.getBoard(b.id))!.updatedAt.getTime(), t + 1200);

      let parts = 0;
      await store.compact(b.id, (p) => {
        parts = p.length;
        return Y.mergeUpdates(p);
      });
      assert.equal(parts, 1201);
      const stored = await store.loadDoc(b.id);
      assert.ok(stored.snapshot, 'compaction stored a snapshot');
      assert.equal(stored.updates.length, 0, 'every merged entry left the log');
      const loaded = new Y.Doc();
      Y.applyUpdate(loaded, stored.snapshot);
      sameList(shapeList(loaded), shapeList(doc), 'shapes after compaction');
      // Every merged entry was kept for version history, in order, with who sent it and when.
      const entryKey = (e: { update: Uint8Array; userId: string | null; at: Date }) =>
        `${Buffer.from(e.update).toString('hex')} ${e.userId} ${e.at.getTime()}`;
      sameList((await store.logSince(b.id, 0)).map(entryKey), entries.map(entryKey), 'history entries');
    });

    test('votes: one open session per board; ballots replace, count voters, close once, totals', async () => {
      const ada = await user('Ada');
      const ben = await user('Ben');
      const b = await board(ada.id);
      // Only members' ballots count (removed members' weigh nothing): Ben is one.
      await store.grantAtLeast(b.id, ben.id, 'editor');
      assert.equal(await store.currentVoteSession(b.id), null);
      const s1 = await store.createVoteSession({
        id: id(),
        boardId: b.id,
        votesPerPerson: 3,
        startedBy: ada.id,
      });
      assert.equal(s1.closedAt, null);
      await assert.rejects(
        store.createVoteSession({ id: id(), boardId: b.id, votesPerPerson: 2, startedBy: ben.id }),
        VoteSessionOpenError,
      );
      // Another board is not affected by this one's open session.
      const other = await board(ada.id);
      await store.createVoteSession({ id: id(), boardId: other.id, votesPerPerson: 1, startedBy: ada.id });
      assert.deepEqual(await store.currentVoteSession(b.id), s1);
      assert.deepEqual(await store.getVoteSession(s1.id), s1);

      assert.equal(await store.setBallot(s1.id, ada.id, { x: 2, y: 1 }), true);
      assert.equal(await store.countVoters(s1.id), 1);
      // A ballot replaces the previous one; zero counts are dropped.
      assert.equal(await store.setBallot(s1.id, ada.id, { x: 1, z: 2, y: 0 }), true);
      assert.deepEqual(await store.getBallot(s1.id, ada.id), { x: 1, z: 2 });
      assert.equal(await store.setBallot(s1.id, ben.id, { z: 1 }), true);
      assert.deepEqual(await store.getBallot(s1.id, ben.id), { z: 1 });
      assert.equal(await store.countVoters(s1.id), 2);
      // An emptied ballot no longer counts its author as a voter.
      assert.equal(await store.setBallot(s1.id, ben.id, {}), true);
      assert.equal(await store.countVoters(s1.id), 1);
      assert.equal(await store.setBallot(s1.id, ben.id, { z: 1, x: 1 }), true);
      assert.equal(await store.countVoters(s1.id), 2);

      assert.equal(await store.closeVoteSession(s1.id), true);
      assert.equal(await store.closeVoteSession(s1.id), false);
      assert.equal(await store.setBallot(s1.id, ben.id, { x: 1 }), false, 'no ballot after the close');
      assert.deepEqual(
        await store.getBallot(s1.id, ben.id),
        { z: 1, x: 1 },
        'the last ballot before the close stays',
      );
      const totals = (await store.voteTotals(s1.id)).sort((p, q) => p.shapeId.localeCompare(q.shapeId));
      assert.deepEqual(totals, [
        { shapeId: 'x', votes: 2 },
        { shapeId: 'z', votes: 3 },
      ]);
      // Ben removed: his ballot stays stored but no longer counts.
      assert.equal(await store.removeMember(b.id, ben.id), true);
      assert.deepEqual(await store.getBallot(s1.id, ben.id), { z: 1, x: 1 });
      assert.equal(await store.countVoters(s1.id), 1);
      assert.deepEqual(
        (await store.voteTotals(s1.id)).sort((p, q) => p.shapeId.localeCompare(q.shapeId)),
        [
          { shapeId: 'x', votes: 1 },
          { shapeId: 'z', votes: 2 },
        ],
      );
      await store.grantAtLeast(b.id, ben.id, 'editor');
      const closed = await store.currentVoteSession(b.id);
      assert.equal(closed?.id, s1.id);
      assert.ok(closed?.closedAt instanceof Date);

      // A new session may start once the last one is closed, and becomes the current one.
      const s2 = await store.createVoteSession({
        id: id(),
        boardId: b.id,
        votesPerPerson: 5,
        startedBy: ben.id,
      });
      assert.equal((await store.currentVoteSession(b.id))?.id, s2.id);
      await store.closeVoteSession(s2.id);
      assert.equal((await store.currentVoteSession(b.id))?.id, s2.id, 'the most recently closed one');
      assert.deepEqual(await store.voteTotals(s2.id), []);
    });

    test('templates: own ones and shared ones are visible; only the owner changes or deletes', async () => {
      const ada = await user('Ada');
      const ben = await user('Ben');
      const tid = id();
      const stored = '{"version":1,"shapes":[]}';
      await store.createTemplate({
        id: tid,
        ownerId: ada.id,
        name: 'Retro',
        description: 'Ours',
        content: stored,
        shapeCount: 3,
        shared: false,
      });
      const mine = await store.getTemplate(tid, ada.id);
      assert.equal(mine?.content, stored);
      assert.equal(mine?.ownerName, 'Ada');
      assert.equal(mine?.shared, false);
      assert.equal(mine?.shapeCount, 3);
      assert.equal(await store.getTemplate(tid, ben.id), null, 'not shared yet');
      assert.deepEqual(
        (await store.listTemplates(ada.id)).map((t) => t.id),
        [tid],
      );
      assert.ok(!(await store.listTemplates(ben.id)).some((t) => t.id === tid));
      assert.equal(await store.updateTemplate(tid, ben.id, { shared: true }), false, 'not Ben’s to share');
      assert.equal(await store.updateTemplate(tid, ada.id, { shared: true, name: 'Team retro' }), true);
      const seen = await store.getTemplate(tid, ben.id);
      assert.equal(seen?.name, 'Team retro');
      assert.equal(seen?.description, 'Ours', 'a field not sent is kept');
      assert.equal(seen?.shared, true);
      assert.ok((await store.listTemplates(ben.id)).some((t) => t.id === tid && t.shared));
      assert.equal(await store.deleteTemplate(tid, ben.id), false);
      assert.equal(await store.deleteTemplate(tid, ada.id), true);
      assert.equal(await store.getTemplate(tid, ada.id), null);
    });

    test('data survives closing and reopening the store', async () => {
      const ada = await user('Ada');
      const b = await board(ada.id, 'Kept');
      const { doc, updates } = edits(3);
      await appendAll(store, b.id, updates.slice(0, 2));
      await store.compact(b.id, Y.mergeUpdates);
      await appendAll(store, b.id, updates.slice(2));
      const link = await store.createLink({
        token: id(24),
        boardId: b.id,
        role: 'viewer',
        createdBy: ada.id,
      });

      await store.close();
      store = await fixture.open();
      // Migrating again is a no-op.
      await store.migrate();
      assert.deepEqual(await store.getUser(ada.id), ada);
      assert.equal((await store.getBoard(b.id))?.title, 'Kept');
      assert.equal(await store.getRole(b.id, ada.id), 'owner');
      assert.deepEqual(await store.getLink(link.token), link);
      assert.deepEqual(await loadJson(store, b.id), content(doc));
      await store.ping();
      // The readiness write probe succeeds on a healthy store and changes nothing it can see.
      await store.probeWrite();
      assert.equal((await store.getBoard(b.id))?.title, 'Kept');
    });
  });
}

storeContract(sqliteFixture());
storeContract(postgresFixture());

describe('PostgresStore only', { skip: pgSkip }, () => {
  const schema = schemaName();
  const stores: PostgresStore[] = [];
  const open = async () => {
    const store = new PostgresStore({ connectionString: postgresUrl(), schema, max: 4 });
    stores.push(store);
    return store;
  };
  after(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await dropSchema(schema);
  });

  test('two instances migrating a fresh schema at once both succeed, each migration once', async () => {
    const [a, b] = [await open(), await open()];
    await Promise.all([a.migrate(), b.migrate(), a.migrate()]);
    const rows = await a.pool.query('SELECT id FROM migrations ORDER BY id');
    assert.deepEqual(
      rows.rows.map((r) => r.id),
      migrations.map((m) => m.id),
    );
    await b.ping();
  });

  test('two instances compacting one board while a third appends lose no update', async () => {
    const [a, b, c] = [await open(), await open(), await open()];
    await a.migrate();
    const owner = id();
    await c.createUser({
      id: owner,
      name: 'Ada',
      email: null,
      passwordHash: null,
      color: 'red',
      isGuest: true,
    });
    const boardId = id();
    await c.createBoard({ id: boardId, title: 'Busy', ownerId: owner });

    const doc = new Y.Doc();
    let appending = true;
    const appender = (async () => {
      for (let round = 0; round < 40; round++) {
        await appendAll(c, boardId, edits(3, doc).updates);
      }
      appending = false;
    })();
    let merges = 0;
    const merge = (parts: Uint8Array[]) => {
      merges++;
      return Y.mergeUpdates(parts);
    };
    const compactor = async (store: Store) => {
      while (appending) await store.compact(boardId, merge);
    };
    await Promise.all([appender, compactor(a), compactor(b)]);
    assert.ok(merges > 0, 'compaction ran while appending');
    assert.equal(Object.keys(content(doc) as object).length, 120);
    assert.deepEqual(await loadJson(c, boardId), content(doc));
    await a.compact(boardId, merge);
    const stored = await b.loadDoc(boardId);
    assert.equal(stored.updates.length, 0);
    assert.deepEqual(await loadJson(b, boardId), content(doc));
  });

  test('loadDoc and ping reject when the database cannot be reached', async () => {
    const port = await freePort();
    const store = new PostgresStore({
      connectionString: `postgres://postgres@127.0.0.1:${port}/test`,
      timeoutMs: 2000,
    });
    stores.push(store);
    await assert.rejects(store.loadDoc('any-board-id-at-all'));
    await assert.rejects(store.ping());
    await assert.rejects(appendAll(store, 'any-board-id-at-all', [new Uint8Array([1])]));
  });
});

// The harness's in-memory DocStore keeps the document half of the same contract.
describe('DocStore contract: MemoryDocStore (the durability harness)', () => {
  test('logHeads: a document appended to shows another head; compaction keeps it; many keys in one call; logSince reads past compaction', async () => {
    await docLogContract(new MemoryDocStore(), 'b1', 'b2');
  });
  test('appends keep their order and attribution; LogSize adds up; compaction keeps late appends', async () => {
    const store = new MemoryDocStore();
    assert.deepEqual(await store.loadDoc('b'), { snapshot: null, updates: [] });
    const { doc, updates } = edits(6);
    const at = new Date(1_700_000_000_000);
    const size = await store.append('b', [
      { update: updates[0]!, userId: 'ada', at },
      { update: updates[1]!, userId: null, at },
    ]);
    const bytes2 = updates[0]!.byteLength + updates[1]!.byteLength;
    assert.deepEqual(size, { entries: 2, bytes: bytes2, totalBytes: bytes2 });
    assert.deepEqual(
      store.entries('b').map((e) => e.userId),
      ['ada', null],
    );
    await appendAll(store, 'b', updates.slice(2, 4));
    let late: Promise<unknown> | undefined;
    await store.compact('b', (parts) => {
      late = appendAll(store, 'b', updates.slice(4));
      return Y.mergeUpdates(parts);
    });
    await late;
    const stored = await store.loadDoc('b');
    assert.ok(stored.snapshot);
    assert.equal(stored.updates.length, 2, 'the entries appended while merging are kept');
    assert.deepEqual(await loadJson(store, 'b'), content(doc));
  });
});

describe('openStore', () => {
  test('SQLite when no database URL is given, migrated and usable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tandem-open-'));
    try {
      const store = await openStore({ dataDir: dir });
      assert.ok(store instanceof SqliteStore);
      await store.ping();
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('PostgreSQL for a postgres:// URL, in its own schema', { skip: pgSkip }, async () => {
    const schema = schemaName();
    try {
      const store = await openStore({ databaseUrl: postgresUrl(), dataDir: '/nonexistent', schema });
      assert.ok(store instanceof PostgresStore);
      assert.equal(await store.getUser('nobody-at-all-here'), null);
      await store.close();
    } finally {
      await dropSchema(schema);
    }
  });
});
