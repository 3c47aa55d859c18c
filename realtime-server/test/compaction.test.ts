// Compaction (documents/persister.ts): past the log's limits, a board's snapshot and log become
// one snapshot. A big board's merge runs off the main thread, in the history worker (it stalled
// every board of the instance for 50–80 ms); a small board's in place, without starting a thread.
// Either way the Store holds the whole board afterwards, and nothing is left in the log.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { limits } from '@tandem/shared';
import { pino } from 'pino';
import * as Y from 'yjs';
import { storedDoc } from '../../testing/clients.ts';
import { DocPersister, OFF_THREAD_MERGE_BYTES } from '../src/documents/persister.ts';
import { WorkerCompute } from '../src/history/compute.ts';
import { createMetrics } from '../src/metrics.ts';
import { MemoryDocStore } from '../src/store/memory.ts';

async function storedText(store: MemoryDocStore, boardId: string): Promise<string> {
  const doc = await storedDoc(store, boardId);
  return doc.getText('notes').toString();
}

test('a big board is compacted in the worker, a small one in place; the Store keeps every edit', {
  timeout: 60_000,
}, async () => {
  const compute = new WorkerCompute(60_000);
  const store = new MemoryDocStore();
  const persisterFor = (boardId: string) =>
    new DocPersister(
      boardId,
      store,
      { debounceMs: 1, maxDelayMs: 10, mergeOffThread: (parts) => compute.merge(parts) },
      pino({ level: 'silent' }),
      createMetrics(),
    );
  try {
    // Small: more log entries than the limit (one write each), far fewer bytes than the threshold.
    const small = new Y.Doc();
    const smallUpdates: Uint8Array[] = [];
    small.on('update', (u: Uint8Array) => smallUpdates.push(u));
    for (let i = 0; i <= limits.compactEntries; i++) small.getText('notes').insert(i, 'a');
    const smallPersister = persisterFor('small');
    for (const [i, update] of smallUpdates.entries()) {
      smallPersister.enqueue({ update, userId: `u${i % 2}`, at: Date.now(), seq: 0, mark: i + 1 });
      await smallPersister.flush();
    }
    const smallStored = await store.loadDoc('small');
    assert.ok(smallStored.snapshot, 'the small board was compacted');
    assert.ok(smallStored.snapshot.byteLength < OFF_THREAD_MERGE_BYTES);
    assert.equal(smallStored.updates.length, 0, 'nothing left in the log');
    assert.equal(await storedText(store, 'small'), small.getText('notes').toString());
    assert.equal(compute.running, false, 'a small merge starts no thread');

    // Big: one write of more bytes than the log may hold.
    const big = new Y.Doc();
    const bigUpdates: Uint8Array[] = [];
    big.on('update', (u: Uint8Array) => bigUpdates.push(u));
    const chunk = 'x'.repeat(64 * 1024);
    for (let i = 0; i * chunk.length <= limits.compactBytes; i++)
      big.getText('notes').insert(0, `${i}${chunk}`);
    const bigPersister = persisterFor('big');
    for (const [i, update] of bigUpdates.entries())
      bigPersister.enqueue({ update, userId: 'u', at: Date.now(), seq: 0, mark: i + 1 });
    await bigPersister.flush();
    const bigStored = await store.loadDoc('big');
    assert.ok(bigStored.snapshot, 'the big board was compacted');
    assert.equal(bigStored.updates.length, 0, 'nothing left in the log');
    assert.equal(await storedText(store, 'big'), big.getText('notes').toString());
    assert.equal(compute.running, true, 'the big merge ran in the worker');
  } finally {
    await compute.close();
  }
});

/**
 * A MemoryDocStore whose compaction waits for `finishCompaction`, and whose appends wait for
 * `answer` while `holdAppends` is set: the slow Store of a board being compacted.
 */
class SlowStore extends MemoryDocStore {
  holdAppends = false;
  private compactions: (() => void)[] = [];
  private appends: ((fail: boolean) => void)[] = [];

  override async compact(boardId: string, merge: (parts: Uint8Array[]) => Uint8Array): Promise<void> {
    await new Promise<void>((resolve) => this.compactions.push(resolve));
    return super.compact(boardId, merge);
  }

  override async append(boardId: string, entries: Parameters<MemoryDocStore['append']>[1]) {
    if (this.holdAppends) {
      const fail = await new Promise<boolean>((resolve) => this.appends.push(resolve));
      if (fail) throw new Error('store unreachable');
    }
    return super.append(boardId, entries);
  }

  get waitingCompactions(): number {
    return this.compactions.length;
  }

  get waitingAppends(): number {
    return this.appends.length;
  }

  finishCompaction(): void {
    for (const resolve of this.compactions.splice(0)) resolve();
  }

  answer(fail: boolean): void {
    for (const resolve of this.appends.splice(0)) resolve(fail);
  }
}

test('a flush resolves only once a write the debounce started during its compaction is stored too', async () => {
  const store = new SlowStore();
  const boardId = 'compacting';
  const doc = new Y.Doc();
  const updates: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => updates.push(u));
  for (let i = 0; i <= limits.compactEntries + 1; i++) doc.getText('notes').insert(i, 'a');
  // A log past the limit: the next write starts a compaction.
  for (const update of updates.slice(0, -2))
    await store.append(boardId, [{ update, userId: 'u', at: new Date() }]);
  const persister = new DocPersister(
    boardId,
    store,
    { debounceMs: 1, maxDelayMs: 10 },
    pino({ level: 'silent' }),
    createMetrics(),
  );
  const enqueue = (update: Uint8Array, mark: number) =>
    persister.enqueue({ update, userId: 'u', at: Date.now(), seq: 0, mark });
  enqueue(updates.at(-2)!, 1);
  let outcome: 'pending' | 'resolved' | 'rejected' = 'pending';
  const flushed = persister.flush().then(
    () => {
      outcome = 'resolved';
    },
    () => {
      outcome = 'rejected';
    },
  );
  // The write is stored and the compaction waits; an edit arrives and its debounced write starts.
  await waitFor(() => store.waitingCompactions === 1);
  store.holdAppends = true;
  enqueue(updates.at(-1)!, 2);
  await waitFor(() => store.waitingAppends === 1);
  store.finishCompaction();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(outcome, 'pending', 'the flush waits for the write in flight');
  // The Store fails it, then answers again: the flush stores the edit before it resolves.
  store.holdAppends = false;
  store.answer(true);
  await flushed;
  assert.equal(outcome, 'resolved');
  assert.ok(persister.settled, 'nothing queued or being written once the flush resolved');
  assert.equal(await storedText(store, boardId), doc.getText('notes').toString());
  persister.close();
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  assert.ok(condition(), 'condition reached');
}
