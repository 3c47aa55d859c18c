// The workspace channel (socket.io, SPEC §7): typed event maps shared by server and client so
// an event name is written once.
import type { Board } from './api.ts';
import type { PresenceUser } from './presence.ts';

export const WORKSPACE_PATH = '/socket.io';

export type BoardPresence = Record<string, PresenceUser[]>;

export interface ServerToClientEvents {
  'board:changed': (payload: { board: Board }) => void;
  'board:removed': (payload: { boardId: string }) => void;
  'presence:boards': (payload: BoardPresence) => void;
  'members:changed': (payload: { boardId: string }) => void;
}

export interface ClientToServerEvents {
  /** Ask for a fresh `presence:boards` (for example after the board list changed). */
  'presence:refresh': () => void;
}
