// A socket.io client of the workspace channel that records every event it receives.
import {
  type BoardPresence,
  type ClientToServerEvents,
  type ServerToClientEvents,
  WORKSPACE_PATH,
} from '@tandem/shared';
import { io, type Socket } from 'socket.io-client';

export type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface Recorder {
  socket: Client;
  events: { name: string; payload: unknown }[];
  presence: BoardPresence;
}

export function connectWorkspace(url: string, cookie: string, origin = url): Promise<Recorder> {
  const socket: Client = io(url, {
    path: WORKSPACE_PATH,
    transports: ['websocket'],
    extraHeaders: { cookie, origin },
    reconnection: false,
  });
  const recorder: Recorder = { socket, events: [], presence: {} };
  for (const name of [
    'board:changed',
    'board:removed',
    'members:changed',
    'votes:changed',
    'thread:changed',
    'thread:removed',
    'mention',
  ] as const) {
    socket.on(name, (payload: unknown) => recorder.events.push({ name, payload }));
  }
  socket.on('presence:boards', (payload) => {
    recorder.events.push({ name: 'presence:boards', payload });
    Object.assign(recorder.presence, payload);
  });
  return new Promise((resolve, reject) => {
    socket.on('connect', () => resolve(recorder));
    socket.on('connect_error', reject);
  });
}
