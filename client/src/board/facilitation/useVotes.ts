// The board's current vote, from the server (docs/api.md §14), re-read when the workspace says it changed.
import type { VotesCurrentAnswer } from '@tandem/shared';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, errorSentence } from '../../api/client.ts';
import { useWorkspace } from '../../workspace/socket.ts';

export interface Votes {
  current: VotesCurrentAnswer | null;
  refresh(): Promise<void>;
  set(answer: VotesCurrentAnswer): void;
}

export function useVotes(boardId: string, onMessage: (s: string) => void): Votes {
  const [current, setCurrent] = useState<VotesCurrentAnswer | null>(null);
  const refresh = useCallback(async () => {
    try {
      setCurrent(await api.votesCurrent(boardId));
    } catch (error) {
      onMessage(errorSentence(error));
    }
  }, [boardId, onMessage]);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  useWorkspace({
    'votes:changed': (p) => {
      if (p.boardId === boardId) void refresh();
    },
    connect: () => void refresh(),
  });
  return useMemo(() => ({ current, refresh, set: setCurrent }), [current, refresh]);
}

export const votesUsed = (mine: Record<string, number>) => Object.values(mine).reduce((a, b) => a + b, 0);
