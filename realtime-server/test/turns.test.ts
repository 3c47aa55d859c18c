// The lane and the budgeted map (documents/turns.ts): work that can wait runs in pieces, with the
// event loop's other work between them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Lane, mapInTurns } from '../src/documents/turns.ts';

/** Something else the event loop runs every turn (as people's edits are read every turn). */
function everyTurn(order: string[], turns: number): Promise<void> {
  return new Promise((resolve) => {
    let left = turns;
    const tick = () => {
      order.push('other');
      if (--left > 0) setImmediate(tick);
      else resolve();
    };
    setImmediate(tick);
  });
}

describe('Lane', () => {
  test('runs one piece per event-loop turn, in the order they asked, with other work between', async () => {
    const lane = new Lane();
    const order: string[] = [];
    const others = everyTurn(order, 8);
    const pieces = [1, 2, 3, 4].map(async (n) => {
      await lane.turn();
      order.push(`piece ${n}`);
    });
    assert.equal(lane.length, 4);
    await Promise.all([...pieces, others]);
    const pieceOrder = order.filter((o) => o.startsWith('piece'));
    assert.deepEqual(pieceOrder, ['piece 1', 'piece 2', 'piece 3', 'piece 4']);
    for (let i = 1; i < order.length; i++) {
      assert.ok(
        !(order[i]!.startsWith('piece') && order[i - 1]!.startsWith('piece')),
        `two pieces ran in one turn: ${order.join(', ')}`,
      );
    }
    assert.equal(lane.length, 0);
  });

  test('a piece asked for while the lane is idle runs in a later turn, not at once', async () => {
    const lane = new Lane();
    let ran = false;
    const piece = lane.turn().then(() => {
      ran = true;
    });
    await Promise.resolve();
    assert.equal(ran, false);
    await piece;
    assert.equal(ran, true);
  });
});

describe('mapInTurns', () => {
  test('maps every item in order, yielding to the event loop once a turn has used its budget', async () => {
    const order: string[] = [];
    const others = everyTurn(order, 4);
    const slow = (n: number) => {
      const until = performance.now() + 2;
      while (performance.now() < until) {}
      order.push(`item ${n}`);
      return n * 10;
    };
    const out = await mapInTurns([1, 2, 3], 1, slow);
    await others;
    assert.deepEqual(out, [10, 20, 30]);
    // Each item takes 2 ms against a budget of 1: one item per turn, the other work between.
    const at = (n: number) => order.indexOf(`item ${n}`);
    assert.ok(order.slice(at(1), at(2)).includes('other'), order.join(', '));
    assert.ok(order.slice(at(2), at(3)).includes('other'), order.join(', '));
  });

  test('items that fit the budget run in one turn', async () => {
    const order: string[] = [];
    const others = everyTurn(order, 1);
    const out = await mapInTurns([1, 2, 3], 50, (n) => {
      order.push(`item ${n}`);
      return n;
    });
    await others;
    assert.deepEqual(out, [1, 2, 3]);
    assert.deepEqual(order, ['item 1', 'item 2', 'item 3', 'other']);
  });
});
