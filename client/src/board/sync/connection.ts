// The connection state machine of SPEC §4, as a pure reducer so it is tested without a socket.
//   connecting → live ↔ offline → live;  read-only for viewers;  access lost on 4401/4403/4404.
import { type CloseCode, closeSentence, retryableCloseCodes } from '@tandem/shared';

export type ConnectionStatus = 'connecting' | 'live' | 'offline' | 'read-only' | 'access-lost';

export interface ConnectionState {
  status: ConnectionStatus;
  /** What the person is told, always a full sentence. */
  sentence: string;
  /** False once the server said reconnecting cannot help; the provider is stopped then. */
  retrying: boolean;
  /** The last close code that stopped us, if any. */
  code: number | null;
}

export type ConnectionEvent =
  | { type: 'connecting' }
  | { type: 'synced'; readOnly: boolean }
  | { type: 'closed'; code: number }
  | { type: 'browser-offline' }
  | { type: 'browser-online' };

export const accessLostCodes: ReadonlySet<number> = new Set([4401, 4403, 4404]);

export const initialConnection: ConnectionState = {
  status: 'connecting',
  sentence: 'Connecting to the board…',
  retrying: true,
  code: null,
};

export const statusLabel: Record<ConnectionStatus, string> = {
  connecting: 'Connecting',
  live: 'Live',
  offline: 'Offline',
  'read-only': 'Read-only',
  'access-lost': 'Access lost',
};

/** True when the provider may reconnect after this close code (network drops are 1006). */
export const shouldReconnect = (code: number): boolean =>
  retryableCloseCodes.has(code) || !(code in closeSentence);

export function sentenceFor(code: number): string {
  return (
    closeSentence[code as CloseCode] ??
    'The connection dropped. Your edits are kept on this device; reconnecting…'
  );
}

export function reduceConnection(state: ConnectionState, event: ConnectionEvent): ConnectionState {
  // A terminal close is final: nothing but a reload (a new state machine) leaves it.
  if (!state.retrying) return state;
  switch (event.type) {
    case 'connecting':
      return state.status === 'offline'
        ? state
        : { ...state, status: 'connecting', sentence: initialConnection.sentence };
    case 'synced':
      return event.readOnly
        ? {
            status: 'read-only',
            sentence: 'You can view this board but not change it.',
            retrying: true,
            code: null,
          }
        : { status: 'live', sentence: 'Connected. Changes are saved as you go.', retrying: true, code: null };
    case 'browser-offline':
      return {
        ...state,
        status: 'offline',
        sentence: 'You are offline. Your edits are kept on this device and sync when you reconnect.',
      };
    case 'browser-online':
      return state.status === 'offline'
        ? { ...state, status: 'connecting', sentence: 'Back online. Reconnecting…' }
        : state;
    case 'closed': {
      if (accessLostCodes.has(event.code)) {
        return {
          status: 'access-lost',
          sentence: sentenceFor(event.code),
          retrying: false,
          code: event.code,
        };
      }
      if (!shouldReconnect(event.code)) {
        return { status: 'offline', sentence: sentenceFor(event.code), retrying: false, code: event.code };
      }
      return {
        status: 'offline',
        sentence:
          event.code in closeSentence
            ? sentenceFor(event.code)
            : 'You are offline. Your edits are kept on this device and sync when you reconnect.',
        retrying: true,
        code: event.code,
      };
    }
  }
}
