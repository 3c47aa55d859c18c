// Connection status, always visible on the board (SPEC §4), with its sentence.
import { type ConnectionState, statusLabel } from '../sync/connection.ts';

export function StatusBar({ state }: { state: ConnectionState }) {
  return (
    <div
      className={`status panel status-${state.status}`}
      role="status"
      aria-live="polite"
      data-status={state.status}
    >
      <span className="dot" aria-hidden="true" />
      <strong>{statusLabel[state.status]}</strong>
      <span className="sentence">{state.sentence}</span>
    </div>
  );
}
