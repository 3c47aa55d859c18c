// A board over the server's size limit: the person is told in the close code's sentence, the
// client stops (no reconnect loop that would be refused again), and the local content is kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closeSentence } from '@tandem/shared';
import { canvas, createBoard, gridBoardFile, newUser, until, waitStatus, withApp } from './helpers.ts';

describe('limits', () => {
  const app = withApp({ MAX_DOC_BYTES: '8192' });

  it('a board over its size limit says so and stops reconnecting', async () => {
    const { page } = await newUser(app, 'Sam');
    const sockets: string[] = [];
    page.on('websocket', (ws) => {
      if (ws.url().includes('/yjs/')) sockets.push(ws.url());
    });
    await createBoard(page, 'Huge');
    const file = gridBoardFile(60, {
      perRow: 10,
      types: ['sticky'],
      text: () => 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(4),
    });
    await page.getByLabel('Import JSON file').setInputFiles(file);
    await page.getByRole('status').getByText(closeSentence.BOARD_TOO_LARGE).waitFor();
    await waitStatus(page, 'offline');
    // The import is still on screen (kept locally), and the board is locked against more edits.
    await until(
      async () => (await canvas(page).getAttribute('data-shape-count')) === '60',
      'local shapes kept',
    );
    assert.equal(await page.getByRole('button', { name: 'Sticky note' }).count(), 0, 'no editing tools');
    // A provider that kept retrying would have opened a new socket already while we waited above.
    assert.equal(sockets.length, 1);
  });
});
