// Other people's presence states, validated with the shared schema (a malformed state is ignored).
import { anonymousViewerCount, PresenceState } from '@tandem/shared';
import { useSyncExternalStore } from 'react';
import type { Awareness } from 'y-protocols/awareness';

export interface Remote {
  clientId: number;
  state: PresenceState;
}

const cache = new WeakMap<
  Awareness,
  { list: Remote[]; anonymous: number; subscribe: (fn: () => void) => () => void }
>();

function storeFor(awareness: Awareness) {
  let s = cache.get(awareness);
  if (s) return s;
  // The server's anonymous-viewer counts (docs/api.md §16, one state per instance) are no person:
  // no cursor, no avatar, only the sum.
  const read = (): { list: Remote[]; anonymous: number } => {
    const out: Remote[] = [];
    const counts: PresenceState[] = [];
    for (const [clientId, raw] of awareness.getStates()) {
      if (clientId === awareness.clientID) continue;
      const parsed = PresenceState.safeParse(raw);
      if (!parsed.success) continue;
      if (parsed.data.anonymousViewers !== undefined) counts.push(parsed.data);
      else out.push({ clientId, state: parsed.data });
    }
    return { list: out.sort((a, b) => a.clientId - b.clientId), anonymous: anonymousViewerCount(counts) };
  };
  const store = {
    ...read(),
    subscribe(fn: () => void) {
      const onChange = () => {
        const next = read();
        store.list = next.list;
        store.anonymous = next.anonymous;
        fn();
      };
      awareness.on('change', onChange);
      return () => awareness.off('change', onChange);
    },
  };
  cache.set(awareness, store);
  s = store;
  return s;
}

export function useRemotes(awareness: Awareness): Remote[] {
  const store = storeFor(awareness);
  return useSyncExternalStore(store.subscribe, () => store.list);
}

/** How many anonymous viewers watch the board through a public link, on every instance. */
export function useAnonymousViewers(awareness: Awareness): number {
  const store = storeFor(awareness);
  return useSyncExternalStore(store.subscribe, () => store.anonymous);
}
