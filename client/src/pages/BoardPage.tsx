// /b/:boardId — loads the board's row and my role, then opens the editor. Offline, the last
// known row is used so the board (and its IndexedDB edits) still opens.
import { type BoardWithRoleAnswer, isBoardId } from '@tandem/shared';
import { useEffect, useState } from 'react';
import { ApiError, api } from '../api/client.ts';
import { Editor } from '../board/Editor.tsx';
import { Link, navigate } from '../router.tsx';
import { useSession } from '../session.ts';
import { useWorkspace } from '../workspace/socket.ts';
import { NotFound } from './NotFound.tsx';

const cacheKey = (id: string) => `tandem:board:${id}`;

export function BoardPage({ boardId, pageId }: { boardId: string; pageId: string }) {
  const user = useSession((s) => s.user)!;
  const [info, setInfo] = useState<BoardWithRoleAnswer | null>(null);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);

  useEffect(() => {
    let live = true;
    setInfo(null);
    setError(null);
    if (!isBoardId(boardId)) return setError({ code: 'NOT_FOUND', message: '' });
    api.board(boardId).then(
      (a) => {
        if (!live) return;
        localStorage.setItem(cacheKey(boardId), JSON.stringify(a));
        setInfo(a);
      },
      (e: unknown) => {
        if (!live) return;
        const err =
          e instanceof ApiError ? e : new ApiError(0, 'INTERNAL', 'Something went wrong. Try again.');
        if (err.code === 'AUTH_REQUIRED')
          return navigate(`/signin?next=${encodeURIComponent(location.pathname)}`, { replace: true });
        if (err.code === 'NETWORK') {
          const cached = localStorage.getItem(cacheKey(boardId));
          if (cached) return setInfo(JSON.parse(cached) as BoardWithRoleAnswer);
        }
        if (err.code === 'NOT_FOUND') localStorage.removeItem(cacheKey(boardId));
        setError({ code: err.code, message: err.message });
      },
    );
    return () => {
      live = false;
    };
  }, [boardId]);

  // A role changed by the owner takes effect at once: the editor reopens with the new role.
  useWorkspace({
    'members:changed': ({ boardId: changed }) => {
      if (changed !== boardId) return;
      api.board(boardId).then(
        (a) => setInfo((prev) => (prev && prev.role === a.role ? prev : a)),
        () => {
          // Removed members learn it from the document channel's close (4403) with its sentence.
        },
      );
    },
  });

  if (error?.code === 'NOT_FOUND')
    return <NotFound what="This board was deleted, does not exist, or is not shared with you." />;
  if (error)
    return (
      <main className="center-page">
        <div className="card">
          <h1>Could not open the board</h1>
          <p role="alert">{error.message}</p>
          <Link className="btn primary" href="/boards">
            Back to my boards
          </Link>
        </div>
      </main>
    );
  if (!info) return <main className="center-page hint">Opening the board…</main>;
  return <Editor key={boardId} board={info.board} role={info.role} user={user} pageId={pageId} />;
}
