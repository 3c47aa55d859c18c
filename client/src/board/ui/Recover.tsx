// When the server refused a change for good (1007, 1009, 4413, 4429), the board stops syncing. The
// person is never stuck there: they can export their work (the Export menu stays available), try
// again (a reload sends local changes in pieces that fit), or drop the changes that were not saved
// and get back to the live board as the server has it.
import { clearDocument } from 'y-indexeddb';
import type { ConnectionState } from '../sync/connection.ts';
import { localStoreName } from '../sync/localCopies.ts';
import { confirmAction } from './Confirm.tsx';

export function Recover({
  state,
  boardId,
  userId,
}: {
  state: ConnectionState;
  boardId: string;
  userId: string;
}) {
  if (state.retrying || state.status === 'access-lost') return null;
  const discard = async () => {
    const ok = await confirmAction({
      title: 'Discard unsaved changes?',
      body: 'The changes on this device that the server has not saved are lost, and the board reloads as it is on the server. Export first if you want to keep them.',
      confirmLabel: 'Discard and reload',
      danger: true,
    });
    if (!ok) return;
    await clearDocument(localStoreName(userId, boardId));
    location.reload();
  };
  return (
    <section className="recover panel" aria-label="Get back to a live board">
      <p>{state.sentence} Export your work from the Export menu to keep a copy, then:</p>
      <div className="row">
        <button type="button" className="btn primary" onClick={() => location.reload()}>
          Try again
        </button>
        <button type="button" className="btn danger" onClick={() => void discard()}>
          Discard unsaved changes
        </button>
      </div>
    </section>
  );
}
