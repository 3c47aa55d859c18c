// Other people's presence states, validated with the shared schema (a malformed state is ignored).
import { PresenceState } from '@tandem/shared';
import { useSyncExternalStore } from 'react';
import type { Awareness } from 'y-protocols/awareness';

export interface Remote {
  clientId: number;
  state: PresenceState;
}

const cache = new WeakMap<Awareness, { list: Remote[]; subscribe: (fn: () => void) => () => void }>();

function storeFor(awareness: Awareness) {
  let s = cache.get(awareness);
  if (s) return s;
  const read = (): Remote[] => {
    const out: Remote[] = [];
    for (const [clientId, raw] of awareness.getStates()) {
      if (clientId === awareness.clientID) continue;
      const parsed = PresenceState.safeParse(raw);
      if (parsed.success) out.push({ clientId, state: parsed.data });
    }
    return out.sort((a, b) => a.clientId - b.clientId);
  };
  const store = {
    list: read(),
    subscribe(fn: () => void) {
      const onChange = () => {
        store.list = read();
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
