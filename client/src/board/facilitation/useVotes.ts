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

/**
 * What the others are told when a vote starts (or is open when they arrive): who started it and
 * how to take part, or, for someone who cannot vote, that the results come at the end.
 */
export function voteStartedSentence(
  starter: string | null,
  votesPerPerson: number,
  canVote: boolean,
): string {
  const who = starter ? `${starter} started a vote` : 'A vote has started';
  if (!canVote) return `${who}. Only editors vote; the results show here when it ends.`;
  const each = votesPerPerson === 1 ? '1 vote' : `${votesPerPerson} votes`;
  return `${who}: you have ${each}. Click a sticky to give it a vote; right-click takes one back.`;
}
