// The workspace channel (socket.io, docs/api.md §7) with the shared event maps: one connection per tab,
// shared by the dashboard and the board page, opened while someone listens.
import { type ClientToServerEvents, type ServerToClientEvents, WORKSPACE_PATH } from '@tandem/shared';
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

/** Subscribes to workspace events while the component is mounted; handlers may change between renders. */
export function useWorkspace(handlers: WorkspaceHandlers, enabled = true): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    const s = acquire();
    const on = {
      'board:changed': (p: Parameters<ServerToClientEvents['board:changed']>[0]) =>
        ref.current['board:changed']?.(p),
      'board:removed': (p: Parameters<ServerToClientEvents['board:removed']>[0]) =>
        ref.current['board:removed']?.(p),
      'presence:boards': (p: Parameters<ServerToClientEvents['presence:boards']>[0]) =>
        ref.current['presence:boards']?.(p),
      'members:changed': (p: Parameters<ServerToClientEvents['members:changed']>[0]) =>
        ref.current['members:changed']?.(p),
      'votes:changed': (p: Parameters<ServerToClientEvents['votes:changed']>[0]) =>
        ref.current['votes:changed']?.(p),
      'thread:changed': (p: Parameters<ServerToClientEvents['thread:changed']>[0]) =>
        ref.current['thread:changed']?.(p),
      'thread:removed': (p: Parameters<ServerToClientEvents['thread:removed']>[0]) =>
        ref.current['thread:removed']?.(p),
      mention: (p: Parameters<ServerToClientEvents['mention']>[0]) => ref.current.mention?.(p),
    };
    const connect = () => ref.current.connect?.();
    s.on('board:changed', on['board:changed']);
    s.on('board:removed', on['board:removed']);
    s.on('presence:boards', on['presence:boards']);
    s.on('members:changed', on['members:changed']);
    s.on('votes:changed', on['votes:changed']);
    s.on('thread:changed', on['thread:changed']);
    s.on('thread:removed', on['thread:removed']);
    s.on('mention', on.mention);
    s.on('connect', connect);
    if (s.connected) connect();
    return () => {
      s.off('board:changed', on['board:changed']);
      s.off('board:removed', on['board:removed']);
      s.off('presence:boards', on['presence:boards']);
      s.off('members:changed', on['members:changed']);
      s.off('votes:changed', on['votes:changed']);
      s.off('thread:changed', on['thread:changed']);
      s.off('thread:removed', on['thread:removed']);
      s.off('mention', on.mention);
      s.off('connect', connect);
      release();
    };
  }, [enabled]);
}

export function refreshPresence(): void {
  socket?.emit('presence:refresh');
}
