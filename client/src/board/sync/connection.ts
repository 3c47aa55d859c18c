// The connection state machine of docs/api.md §4, as a pure reducer so it is tested without a socket.
//   connecting → live ↔ offline → live;  read-only for viewers;  access lost on accessLostCloseCodes.
import { accessLostCloseCodes, closeMeaning, closeSentence, retryableCloseCodes } from '@tandem/shared';

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
  /** `reason` is the close frame's text: it tells apart the meanings that share one code. */
  | { type: 'closed'; code: number; reason?: string /** navigator.onLine at the time */; online?: boolean }
  | { type: 'browser-offline' }
  | { type: 'browser-online' };

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

/** True when the provider may reconnect after this close code (network drops are ABNORMAL, 1006). */
export const shouldReconnect = (code: number): boolean =>
  retryableCloseCodes.has(code) || closeMeaning(code) === null;

/** The sentence for a close; a code the server never sends reads as a dropped connection. */
export function sentenceFor(code: number, reason = ''): string {
  return closeSentence[closeMeaning(code, reason) ?? 'ABNORMAL'];
}

/** Said only when the browser reports no network; a dropped socket with the network up is the server's. */
export const offlineSentence =
  'You are offline. Your edits are kept on this device and sync when you reconnect.';

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
      return { ...state, status: 'offline', sentence: offlineSentence };
    case 'browser-online':
      return state.status === 'offline'
        ? { ...state, status: 'connecting', sentence: 'Back online. Reconnecting…' }
        : state;
    case 'closed': {
      if (accessLostCloseCodes.has(event.code)) {
        return {
          status: 'access-lost',
          sentence: sentenceFor(event.code, event.reason),
          retrying: false,
          code: event.code,
        };
      }
      if (!shouldReconnect(event.code)) {
        return {
          status: 'offline',
          sentence: sentenceFor(event.code, event.reason),
          retrying: false,
          code: event.code,
        };
      }
      return {
        status: 'offline',
        sentence: event.online === false ? offlineSentence : sentenceFor(event.code, event.reason),
        retrying: true,
        code: event.code,
      };
    }
  }
}
