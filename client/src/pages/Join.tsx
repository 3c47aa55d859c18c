// /join/:token — accepts a share link and opens the board. Signing in (or continuing as a guest)
// comes first; App sends signed-out visitors to /signin?next=/join/:token.
import { isLinkToken } from '@tandem/shared';
import { useEffect, useState } from 'react';
import { api, errorSentence } from '../api/client.ts';
import { Link, navigate } from '../router.tsx';
import { DEAD_INVITE_SENTENCE, isDeadInvite } from './invite.ts';

export function Join({ token }: { token: string }) {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!isLinkToken(token)) return setError('This invite link is not valid. Ask for a new one.');
    let live = true;
    api.join(token).then(
      ({ boardId }) => live && navigate(`/b/${boardId}`, { replace: true }),
      (e: unknown) => {
        if (!live) return;
        setError(isDeadInvite(e) ? DEAD_INVITE_SENTENCE : errorSentence(e));
      },
    );
    return () => {
      live = false;
    };
  }, [token]);
  return (
    <main className="center-page">
      <div className="card">
        {error ? (
          <>
            <h1>Cannot join</h1>
            <p role="alert">{error}</p>
            <Link className="btn primary" href="/boards">
              Go to my boards
            </Link>
          </>
        ) : (
          <p className="hint">Joining the board…</p>
        )}
      </div>
    </main>
  );
}
