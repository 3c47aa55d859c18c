// Connection status, always visible on the board (docs/api.md §4), with its sentence; and, next to it,
// whether this browser's edits are stored on the server ("Saving…" until confirmed).
import { type ConnectionState, statusLabel } from '../sync/connection.ts';
import type { SavedStatus } from '../sync/saved.ts';

export const savedLabel: Record<SavedStatus, string> = {
  saving: 'Saving…',
  saved: 'All changes saved',
};

export function StatusBar({ state, saved }: { state: ConnectionState; saved: SavedStatus | null }) {
  return (
    <div
      className={`status panel status-${state.status}`}
      role="status"
      aria-live="polite"
      data-status={state.status}
    >
      <span className="dot" aria-hidden="true" />
      <strong>{statusLabel[state.status]}</strong>
      {saved && (
        <span className={`saved saved-${saved}`} data-saved={saved}>
          {saved === 'saving' && (state.status !== 'live' || !state.retrying)
            ? 'Not saved yet: kept on this device'
            : savedLabel[saved]}
        </span>
      )}
      <span className="sentence">{state.sentence}</span>
    </div>
  );
}
