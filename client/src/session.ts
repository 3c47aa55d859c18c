// Who is signed in. The user is cached in localStorage so a board opened offline still knows
// its name and colour; the server stays the authority whenever it can be reached.
import type { User } from '@tandem/shared';
import { create } from 'zustand';
import { ApiError, api } from './api/client.ts';

const CACHE_KEY = 'tandem:user';

interface SessionState {
  user: User | null;
  loaded: boolean;
  load(): Promise<void>;
  setUser(user: User | null): void;
}

function cached(): User | null {
  try {
    const raw = localStorage.getItem(CACHE_KEY);
    return raw ? (JSON.parse(raw) as User) : null;
  } catch {
    return null;
  }
}

export const useSession = create<SessionState>((set) => ({
  user: null,
  loaded: false,
  async load() {
    try {
      // The session probe answers 200 {user: null} when no one is signed in: /api/me's 401 for a
      // signed-out visitor was logged by the browser as a console error on the sign-in page.
      const { user } = await api.session();
      if (user) localStorage.setItem(CACHE_KEY, JSON.stringify(user));
      else localStorage.removeItem(CACHE_KEY);
      set({ user, loaded: true });
    } catch (e) {
      if (e instanceof ApiError && e.code === 'NETWORK') set({ user: cached(), loaded: true });
      else {
        localStorage.removeItem(CACHE_KEY);
        set({ user: null, loaded: true });
      }
    }
  },
  setUser(user) {
    if (user) localStorage.setItem(CACHE_KEY, JSON.stringify(user));
    else localStorage.removeItem(CACHE_KEY);
    set({ user, loaded: true });
  },
}));
