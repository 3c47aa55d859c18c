// My boards and boards shared with me, with who is on each right now (live through the
// workspace channel); create, rename, delete, search by title.
import {
  type BoardListItem,
  canEditBoard,
  type TemplateSummary,
  thumbnailUrl,
  titleField,
} from '@tandem/shared';
import { type FormEvent, useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { api, errorSentence } from '../api/client.ts';
import { Avatar } from '../board/presence/Avatars.tsx';
import { dropBoardCopies } from '../board/sync/localCopies.ts';
import { Link, navigate } from '../router.tsx';
import { useSession } from '../session.ts';
import { TemplateGallery } from '../templates/TemplateGallery.tsx';
import { refreshPresence, useWorkspace } from '../workspace/socket.ts';
import { dashboardReducer, initialDashboardList, visibleBoards } from './dashboardList.ts';
import { SignOutButton } from './GuestAccount.tsx';
import { MentionsMenu } from './Mentions.tsx';
import { timeAgo } from './timeAgo.ts';
import './dashboard.css';
import { confirmAction } from '../board/ui/Confirm.tsx';

/** The board's content in small (rendered by a client that edited it, stored on the server), or
 * an empty card for a board nobody has drawn on yet. */
function Thumbnail({ board }: { board: BoardListItem }) {
  const [failed, setFailed] = useState(false);
  if (!board.thumbnailAt || failed) return <span className="thumb-empty" aria-hidden="true" />;
  return (
    <img
      className="thumb-img"
      src={thumbnailUrl(board.id, board.thumbnailAt)}
      alt=""
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}

export function Dashboard() {
  const user = useSession((s) => s.user)!;
  const [list, dispatch] = useReducer(dashboardReducer, initialDashboardList);
  const { boards, presence, notice } = list;
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [renaming, setRenamingState] = useState<string | null>(null);
  const renamingRef = useRef<string | null>(null);
  const setRenaming = (id: string | null) => {
    renamingRef.current = id;
    setRenamingState(id);
  };

  const load = useCallback(async () => {
    try {
      dispatch({ type: 'loaded', boards: (await api.boards()).boards });
      setError(null);
      refreshPresence();
    } catch (e) {
      setError(errorSentence(e));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  // Back from offline (or the server back up): load again, and keep trying while the list failed,
  // so "Cannot reach the server" clears itself once the server answers.
  const failed = error !== null && boards === null;
  useEffect(() => {
    const online = () => void load();
    window.addEventListener('online', online);
    const retry = failed ? setInterval(online, 5000) : undefined;
    return () => {
      window.removeEventListener('online', online);
      clearInterval(retry);
    };
  }, [load, failed]);

  // The list asked for the server (a board newly shared with me, a role changed).
  useEffect(() => {
    if (list.reloads > 0) void load();
  }, [list.reloads, load]);

  useWorkspace({
    // A (re)connected workspace channel means the server is reachable again: refresh the list too.
    connect: () => void load(),
    'board:changed': ({ board }) => dispatch({ type: 'changed', board }),
    'webhooks:health': (health) => dispatch({ type: 'webhookHealth', ...health }),
    // Deleted, or my access to it removed: this browser's copies of it go too (localCopies.ts).
    'board:removed': ({ boardId }) => {
      dispatch({ type: 'removed', boardId });
      void dropBoardCopies(user.id, boardId);
    },
    'presence:boards': (presence) => dispatch({ type: 'presence', presence }),
    'members:changed': () => dispatch({ type: 'membersChanged' }),
  });

  const [createError, setCreateError] = useState<string | null>(null);
  /** The title typed when "New board" was pressed: the gallery then asks what to start from. */
  const [starting, setStarting] = useState<{ title: string | null; form: HTMLFormElement } | null>(null);
  const create = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const raw = String(new FormData(form).get('title') ?? '');
    if (raw.trim() === '') return setStarting({ title: null, form });
    const parsed = titleField.safeParse(raw);
    if (!parsed.success) return setCreateError(parsed.error.issues[0]?.message ?? 'Enter a title.');
    setCreateError(null);
    setStarting({ title: parsed.data, form });
  };
  /** Creates the board; one started from a template opens with it to insert (Editor.tsx). */
  const startFrom = async (template: TemplateSummary | null) => {
    if (!starting) return;
    const title = starting.title ?? template?.name ?? 'Untitled board';
    try {
      const { board } = await api.createBoard(title);
      starting.form.reset();
      navigate(`/b/${board.id}${template ? `?template=${encodeURIComponent(template.id)}` : ''}`);
    } catch (err) {
      setStarting(null);
      setError(errorSentence(err));
    }
  };
  const [renameError, setRenameError] = useState<string | null>(null);
  /** Enter renames; an invalid title keeps the field open with its error; blur with an invalid title cancels. */
  const rename = async (id: string, title: string, via: 'submit' | 'blur') => {
    // Enter submits and the field's blur follows: only the first one renames.
    if (renamingRef.current !== id) return;
    const parsed = titleField.safeParse(title);
    if (!parsed.success) {
      if (via === 'blur') {
        setRenameError(null);
        setRenaming(null);
      } else setRenameError(parsed.error.issues[0]?.message ?? 'Enter a title.');
      return;
    }
    setRenameError(null);
    setRenaming(null);
    const current = boards?.find((b) => b.id === id)?.title;
    if (current === parsed.data) return;
    try {
      const { board } = await api.renameBoard(id, parsed.data);
      dispatch({ type: 'changed', board });
    } catch (err) {
      setError(errorSentence(err));
    }
  };
  const remove = async (b: BoardListItem) => {
    const ok = await confirmAction({
      title: 'Delete board?',
      body: `“${b.title}” is deleted for everyone. This cannot be undone.`,
      confirmLabel: 'Delete board',
      danger: true,
    });
    if (!ok) return;
    try {
      await api.deleteBoard(b.id);
      dispatch({ type: 'removed', boardId: b.id, byMe: true });
      void dropBoardCopies(user.id, b.id);
    } catch (err) {
      setError(errorSentence(err));
    }
  };

  const q = query.trim();
  const { mine, shared } = visibleBoards(boards ?? [], q);

  const card = (b: BoardListItem) => {
    const here = presence[b.id] ?? [];
    return (
      <li key={b.id} className="board-card" data-board-id={b.id}>
        <Link href={`/b/${b.id}`} className="board-thumb" aria-label={`Open ${b.title}`}>
          <Thumbnail key={b.thumbnailAt ?? 'none'} board={b} />
        </Link>
        <div className="board-meta">
          {renaming === b.id ? (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void rename(b.id, String(new FormData(e.currentTarget).get('title')), 'submit');
              }}
            >
              <input
                name="title"
                defaultValue={b.title}
                aria-label="Board title"
                aria-invalid={!!renameError}
                aria-describedby={renameError ? 'rename-error' : undefined}
                // biome-ignore lint/a11y/noAutofocus: the field appears because Rename was pressed
                autoFocus
                onBlur={(e) => void rename(b.id, e.currentTarget.value, 'blur')}
                onKeyDown={(e) => {
                  if (e.key === 'Escape') {
                    setRenameError(null);
                    setRenaming(null);
                  }
                }}
              />
              {renameError && (
                <small id="rename-error" className="field-error" role="alert">
                  {renameError}
                </small>
              )}
            </form>
          ) : (
            <Link href={`/b/${b.id}`} className="board-name">
              {b.title}
            </Link>
          )}
          <span className="hint">
            {b.role === 'owner' ? 'You' : b.ownerName} · {timeAgo(b.updatedAt)}
            {b.role === 'viewer' ? ' · view only' : b.role === 'commenter' ? ' · can comment' : ''}
          </span>
          {b.webhookDisabled && (
            <Link href={`/b/${b.id}?share=webhooks`} className="card-warning">
              A webhook was turned off after a day of failed deliveries. Open Share to fix it.
            </Link>
          )}
          <div className="board-foot">
            <span
              className="here"
              role="img"
              aria-label={
                here.length ? `On it now: ${here.map((u) => u.name).join(', ')}` : 'Nobody on it now'
              }
            >
              {here.slice(0, 5).map((u) => (
                <Avatar key={u.id} user={u} size={22} />
              ))}
              {here.length > 5 && <span className="more">+{here.length - 5}</span>}
            </span>
            <span className="card-actions">
              {canEditBoard(b.role) && (
                <button
                  type="button"
                  className="btn small ghost"
                  onClick={() => setRenaming(b.id)}
                  aria-label={`Rename ${b.title}`}
                >
                  Rename
                </button>
              )}
              {b.role === 'owner' && (
                <button
                  type="button"
                  className="btn small ghost danger"
                  onClick={() => void remove(b)}
                  aria-label={`Delete ${b.title}`}
                >
                  Delete
                </button>
              )}
            </span>
          </div>
        </div>
      </li>
    );
  };

  return (
    <main className="dashboard">
      <header className="dash-header">
        <div className="brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Tandem</span>
        </div>
        <input
          className="search"
          type="search"
          placeholder="Search boards"
          aria-label="Search boards"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <MentionsMenu />
        <div className="me">
          <Avatar user={user} size={30} />
          <span className="me-name">
            {user.name}
            {user.isGuest ? ' (guest)' : ''}
          </span>
          <SignOutButton />
        </div>
      </header>
      {starting && (
        <TemplateGallery
          heading="New board"
          meId={user.id}
          blank="Blank board"
          onChoose={(t) => void startFrom(t)}
          onClose={() => setStarting(null)}
        />
      )}
      <section className="dash-body">
        <form className="create" onSubmit={create}>
          <input
            name="title"
            placeholder="Name a new board"
            aria-label="New board title"
            aria-invalid={!!createError}
            aria-describedby={createError ? 'create-error' : undefined}
            onChange={() => setCreateError(null)}
          />
          <button type="submit" className="btn primary">
            New board
          </button>
        </form>
        {createError && (
          <p id="create-error" className="error field-error" role="alert">
            {createError}
          </p>
        )}
        {error && (
          <div className="error" role="alert">
            {error}{' '}
            {failed && (
              <button type="button" className="btn small" onClick={() => void load()}>
                Try again
              </button>
            )}
          </div>
        )}
        {notice && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        {boards === null ? (
          failed ? null : (
            <p className="hint">Loading your boards…</p>
          )
        ) : (
          <>
            <h2>My boards</h2>
            {mine.length === 0 ? (
              <p className="hint">{q ? 'No board of yours matches.' : 'No boards yet. Create one above.'}</p>
            ) : (
              <ul className="grid">{mine.map(card)}</ul>
            )}
            {shared.length > 0 && (
              <>
                <h2>Shared with me</h2>
                <ul className="grid">{shared.map(card)}</ul>
              </>
            )}
          </>
        )}
      </section>
    </main>
  );
}
