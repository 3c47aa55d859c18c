// The workspace channel (socket.io, docs/api.md §7) with the shared event maps: one connection per tab,
// shared by the dashboard and the board page, opened while someone listens.
import {
  type ClientToServerEvents,
  type ServerToClientEvents,
  serverEventNames,
  WORKSPACE_PATH,
} from '@tandem/shared';
import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';

export type WorkspaceSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: WorkspaceSocket | null = null;
let users = 0;

/**
 * The browser's `offline` closes the socket at once (a dropped network can leave it half-open for
 * minutes, missing events) and `online` opens it again; its `connect` then tells every listener,
 * which reads again what it shows (the board list, threads, votes): that is the catch-up.
 */
const goOffline = () => socket?.disconnect();
const goOnline = () => socket?.connect();

function acquire(): WorkspaceSocket {
  if (!socket) {
    socket = io({ path: WORKSPACE_PATH, withCredentials: true, transports: ['websocket', 'polling'] });
    window.addEventListener('offline', goOffline);
    window.addEventListener('online', goOnline);
  }
  users++;
  return socket;
}
function release(): void {
  users--;
  if (users === 0 && socket) {
    window.removeEventListener('offline', goOffline);
    window.removeEventListener('online', goOnline);
    socket.disconnect();
    socket = null;
  }
}

export type WorkspaceHandlers = Partial<ServerToClientEvents> & { connect?: () => void };

type Listener = (payload: unknown) => void;
type Listeners = { on(name: string, listener: Listener): void; off(name: string, listener: Listener): void };

/** Subscribes to workspace events while the component is mounted; handlers may change between renders. */
export function useWorkspace(handlers: WorkspaceHandlers, enabled = true): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    const s = acquire();
    // Each server event goes to the handler of that name current at the time (handlers change
    // between renders; the socket's listeners do not). The names are ServerToClientEvents' own,
    // so the socket is addressed untyped here only to register them in one loop.
    const events = s as unknown as Listeners;
    const forward = serverEventNames.map((name) => {
      const listener = (payload: unknown) => (ref.current[name] as Listener | undefined)?.(payload);
      return [name, listener] as const;
    });
    const connect = () => ref.current.connect?.();
    for (const [name, listener] of forward) events.on(name, listener);
    s.on('connect', connect);
    if (s.connected) connect();
    return () => {
      for (const [name, listener] of forward) events.off(name, listener);
      s.off('connect', connect);
      release();
    };
  }, [enabled]);
}

export function refreshPresence(): void {
  socket?.emit('presence:refresh');
}
