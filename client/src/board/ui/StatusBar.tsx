// Connection status, always visible on the board (docs/api.md §4), with its sentence; and, next to it,
// whether this browser's edits are stored on the server ("Saving…" until confirmed).
import { type ConnectionState, statusLabel } from '../sync/connection.ts';
import type { SavedStatus } from '../sync/saved.ts';

export const savedLabel: Record<SavedStatus, string> = {
  saving: 'Saving…',
  saved: 'All changes saved',
};

/** Read-only for one who may comment: the connection's own sentence said they could only view. */
export const commenterSentence = 'You can view and comment on this board, but not change it.';

export function StatusBar({
  state,
  saved,
  canComment = false,
}: {
  state: ConnectionState;
  saved: SavedStatus | null;
  /** A commenter: the status reads "Can comment", and its sentence says what they can do. */
  canComment?: boolean;
}) {
  return (
    <div
      className={`status panel status-${state.status}`}
      role="status"
      aria-live="polite"
      data-status={state.status}
    >
      <span className="dot" aria-hidden="true" />
      {/* A commenter's role is "can comment" (the Share dialog's word), not a viewer's "Read-only". */}
      <strong>
        {state.status === 'read-only' && canComment ? 'Can comment' : statusLabel[state.status]}
      </strong>
      {saved && (
        <span className={`saved saved-${saved}`} data-saved={saved}>
          {saved === 'saving' && (state.status !== 'live' || !state.retrying)
            ? 'Not saved yet: kept on this device'
            : savedLabel[saved]}
        </span>
      )}
      <span className="sentence">
        {state.status === 'read-only' && canComment ? commenterSentence : state.sentence}
      </span>
    </div>
  );
}
