// The board's threads and my mentions, from the server (docs/api.md §18), kept live by the workspace
// socket. On every (re)connect the list is read again: that is how a client that was offline
// catches up on threads created, answered, resolved or deleted meanwhile.
import type { Member, Mention, ThreadWithComments } from '@tandem/shared';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { api, errorSentence } from '../../api/client.ts';
import { useWorkspace } from '../../workspace/socket.ts';
import { threadsReducer } from './threads.ts';

export interface Comments {
  threads: ThreadWithComments[];
  loaded: boolean;
  /** My mentions (all boards); the board shows those of its own. */
  mentions: Mention[];
  members: Member[];
  /** Applies a thread the server answered with, before its socket event arrives. */
  changed(thread: ThreadWithComments): void;
  removed(threadId: string): void;
  /** Marks my mentions in a thread read, here and on the server. */
  markRead(threadId: string): void;
}

export function useComments(
  boardId: string,
  membersVersion: number,
  onMessage: (s: string) => void,
): Comments {
  const [threads, dispatch] = useReducer(threadsReducer, []);
  const [loaded, setLoaded] = useState(false);
  const [mentions, setMentions] = useState<Mention[]>([]);
  const [members, setMembers] = useState<Member[]>([]);

  const load = useCallback(async () => {
    try {
      const [answer, mine] = await Promise.all([api.threads(boardId), api.mentions()]);
      dispatch({ type: 'loaded', threads: answer.threads });
      setMentions(mine.mentions);
      setLoaded(true);
    } catch (error) {
      onMessage(errorSentence(error));
    }
  }, [boardId, onMessage]);
  useEffect(() => {
    void load();
  }, [load]);
  // Who can be mentioned: the board's members, read again when they change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: membersVersion is the signal to read again
  useEffect(() => {
    let live = true;
    api
      .members(boardId)
      .then((answer) => live && setMembers(answer.members))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [boardId, membersVersion]);

  useWorkspace({
    'thread:changed': (p) => p.boardId === boardId && dispatch({ type: 'changed', thread: p.thread }),
    'thread:removed': (p) => p.boardId === boardId && dispatch({ type: 'removed', threadId: p.threadId }),
    mention: (p) =>
      setMentions((list) => (list.some((m) => m.commentId === p.commentId) ? list : [p.mention, ...list])),
    connect: () => void load(),
  });

  // What the mentions are now, for markRead: whether to tell the server cannot be learnt inside a
  // state updater, which React may run later than the call (when other updates are pending) or
  // twice; the server was then not told and the mention came back unread after a reload (trial).
  const mentionsNow = useRef(mentions);
  mentionsNow.current = mentions;
  const markRead = useCallback(
    (threadId: string) => {
      const unread = (m: Mention) => m.boardId === boardId && m.threadId === threadId && !m.read;
      if (!mentionsNow.current.some(unread)) return;
      setMentions((list) => list.map((m) => (unread(m) ? { ...m, read: true } : m)));
      void api.markMentionsRead(boardId, threadId).catch(() => undefined);
    },
    [boardId],
  );

  return useMemo(
    () => ({
      threads,
      loaded,
      mentions,
      members,
      changed: (thread: ThreadWithComments) => dispatch({ type: 'changed', thread }),
      removed: (threadId: string) => dispatch({ type: 'removed', threadId }),
      markRead,
    }),
    [threads, loaded, mentions, members, markRead],
  );
}
