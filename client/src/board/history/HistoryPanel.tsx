// The History panel (docs/api.md §12): versions as a timeline with times and the avatars of who edited,
// loaded page by page; "Save version"; selecting one previews it read-only on the canvas with a
// banner offering "Restore this version" and "Back to live"; the owner can undo everything one
// person did since a time. The panel renders and dispatches; the calls are in api.ts.

import { canEditBoard, type Member, pageOf, type Role, type Version } from '@tandem/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, errorSentence } from '../../api/client.ts';
import { ShapeIndex } from '../canvas/shapeIndex.ts';
import { Avatar } from '../presence/Avatars.tsx';
import { PanelToggle } from '../ui/PanelToggle.tsx';
import { SidePanel } from '../ui/SidePanelHead.tsx';
import { focusOpener, rememberOpener } from '../ui/sidePanels.ts';
import './history.css';
import { historyApi } from '../../api/history.ts';
import { onKeydown } from '../shortcuts.ts';
import { confirmAction } from '../ui/Confirm.tsx';
import { undoablePeople } from './people.ts';
import { buildPreview, type Preview } from './preview.ts';
import { useHistoryPanel } from './state.ts';
import { statsSentence } from './stats.ts';
import { clockTime, defaultSince, localTimesIn, whenLabel } from './times.ts';

const PAGE = 30;

/** A datetime-local value (local time, minutes) for a Date. */
const localInput = (d: Date): string => {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};

/** The History button of the top bar; Ctrl/Cmd+Alt+H toggles the panel from anywhere on the board. */
export function HistoryButton() {
  const toggle = useHistoryPanel((s) => s.toggle);
  const open = useHistoryPanel((s) => s.open);
  useEffect(() => {
    const down = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.altKey && (e.code === 'KeyH' || e.key.toLowerCase() === 'h')) {
        e.preventDefault();
        if (!useHistoryPanel.getState().open) {
          // Opened from where focus is (the canvas): Escape in the panel goes back there.
          rememberOpener('history', document.activeElement);
          toggle();
          return;
        }
        // Closed by the shortcut from inside the panel: focus would go with it to the page, so it
        // goes back where the panel was opened from, as Escape does. From elsewhere it stays put.
        const inPanel = document.activeElement?.closest('.history-panel') != null;
        toggle();
        if (inPanel) focusOpener('history');
      }
    };
    return onKeydown(down);
  }, [toggle]);
  return (
    <PanelToggle
      panel="history"
      name="History"
      open={open}
      onToggle={toggle}
      title="History (Ctrl+Alt+H)"
      keyShortcuts="Control+Alt+H Meta+Alt+H"
      icon={
        <svg
          width={18}
          height={18}
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
        >
          <path d="M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l3 3" />
        </svg>
      }
    />
  );
}

interface LayerProps {
  /** The shown page's document key (docs/api.md §17: the board id for its first page): one history per page. */
  boardId: string;
  role: Role;
  meId: string;
  /**
   * The shown page's name when the board has several pages (each has its own history, and the
   * panel says whose it shows), null on a board of one page.
   */
  pageName: string | null;
  /** The preview's shapes for the canvas, or null for the live board. */
  onPreview(index: ShapeIndex | null): void;
  onMessage(message: string): void;
}

/** The panel and, while a version is previewed, the banner over the canvas. */
export function HistoryLayer({ boardId, role, meId, pageName, onPreview, onMessage }: LayerProps) {
  const open = useHistoryPanel((s) => s.open);
  const close = useHistoryPanel((s) => s.close);
  const [versions, setVersions] = useState<Version[]>([]);
  /** Who edited since the latest version (no version lists them yet), from the first page. */
  const [unrecorded, setUnrecorded] = useState<string[]>([]);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<Version | null>(null);
  const [busy, setBusy] = useState(false);
  const [label, setLabel] = useState('');
  const preview = useRef<{ preview: Preview; index: ShapeIndex } | null>(null);
  const canEdit = canEditBoard(role);
  // Everyone with changes in the history shown: the versions' authors and the edits after them.
  const authors = useMemo(
    () => new Set([...unrecorded, ...versions.flatMap((v) => v.authors.map((a) => a.id))]),
    [versions, unrecorded],
  );

  const load = useCallback(
    async (before?: string) => {
      setLoading(true);
      try {
        const { versions: page, unrecordedAuthors } = await historyApi.list(boardId, before, PAGE);
        setVersions((old) => (before ? [...old, ...page] : page));
        if (!before) setUnrecorded(unrecordedAuthors ?? []);
        setMore(page.length === PAGE);
      } catch (e) {
        onMessage(errorSentence(e));
      } finally {
        setLoading(false);
      }
    },
    [boardId, onMessage],
  );

  const stopPreview = useCallback(() => {
    preview.current?.index.destroy();
    preview.current?.preview.close();
    preview.current = null;
    setSelected(null);
    onPreview(null);
  }, [onPreview]);

  useEffect(() => {
    if (open) void load();
    else stopPreview();
  }, [open, load, stopPreview]);
  useEffect(() => stopPreview, [stopPreview]);

  const select = async (v: Version) => {
    stopPreview();
    setSelected(v);
    try {
      const board = await historyApi.exportAt(boardId, v.id);
      const built = buildPreview(board);
      const index = new ShapeIndex(built.doc);
      preview.current = { preview: built, index };
      onPreview(index);
    } catch (e) {
      setSelected(null);
      onMessage(errorSentence(e));
    }
  };

  const restore = async () => {
    if (!selected) return;
    // It changes the board for everyone at once: ask first, and say how to take it back.
    // Not `danger`: the current board is kept as a version, so a restore can be taken back.
    const ok = await confirmAction({
      title: 'Restore this version?',
      body: `The board goes back to how it was at ${clockTime(selected.createdAt)}, for everyone at once. The current board is kept as a version, so you can go back to it.`,
      confirmLabel: 'Restore',
    });
    if (!ok) return;
    setBusy(true);
    try {
      await historyApi.restore(boardId, selected.id);
      stopPreview();
      await load();
    } catch (e) {
      onMessage(errorSentence(e));
    } finally {
      setBusy(false);
    }
  };

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!label.trim()) return;
    setBusy(true);
    try {
      await historyApi.save(boardId, label.trim());
      setLabel('');
      await load();
    } catch (err) {
      onMessage(errorSentence(err));
    } finally {
      setBusy(false);
    }
  };

  if (!open) return null;
  return (
    <>
      {selected && (
        <div className="banner history-banner" role="status">
          <span>Viewing the board as it was at {clockTime(selected.createdAt)}</span>
          {' — '}
          {canEdit && (
            <button type="button" className="btn primary" disabled={busy} onClick={() => void restore()}>
              Restore this version
            </button>
          )}
          <button type="button" className="btn" onClick={stopPreview}>
            Back to live
          </button>
        </div>
      )}
      <SidePanel panel="history" className="side-panel history-panel" label="Version history" onClose={close}>
        {pageName !== null && (
          <p className="history-scope">History of this page, “{pageName}”, only: each page has its own.</p>
        )}
        {canEdit && (
          <form className="history-save" onSubmit={(e) => void save(e)}>
            <input
              aria-label="Version name"
              placeholder="Version name"
              maxLength={120}
              value={label}
              onChange={(e) => setLabel(e.target.value)}
            />
            <button type="submit" className="btn" disabled={busy || !label.trim()}>
              Save version
            </button>
          </form>
        )}
        <ol className="history-list" aria-label="Versions">
          {versions.map((v) => (
            <li key={v.id}>
              <button
                type="button"
                className={`history-item ${selected?.id === v.id ? 'selected' : ''}`}
                aria-pressed={selected?.id === v.id}
                onClick={() => void select(v)}
              >
                <span className="history-time">{whenLabel(v.createdAt)}</span>
                {v.label && <span className="history-label">{localTimesIn(v.label, v.createdAt)}</span>}
                {/* The figures for the eye, with their words as the tooltip; a screen reader
                    reads the words instead ("2 shapes added, 2 removed"). */}
                <span className="history-stats" title={statsSentence(v.stats)}>
                  <span aria-hidden="true">
                    {v.stats.added > 0 && `+${v.stats.added} `}
                    {v.stats.changed > 0 && `~${v.stats.changed} `}
                    {v.stats.removed > 0 && `−${v.stats.removed}`}
                  </span>
                  <span className="sr-only">{statsSentence(v.stats)}</span>
                </span>
                <span className="history-authors">
                  {v.authors.map((a) => (
                    <span key={a.id} title={a.name}>
                      <Avatar user={a} size={20} />
                    </span>
                  ))}
                </span>
              </button>
            </li>
          ))}
          {versions.length === 0 && !loading && (
            <li className="hint">
              No versions yet: one is kept after every few minutes of editing
              {canEdit ? ', and “Save version” keeps one now.' : '.'}
            </li>
          )}
        </ol>
        {more && (
          <button
            type="button"
            className="btn"
            disabled={loading}
            onClick={() => void load(versions.at(-1)?.id)}
          >
            Show older versions
          </button>
        )}
        {role === 'owner' && (
          <UndoPerson
            boardId={boardId}
            meId={meId}
            authors={authors}
            onMessage={onMessage}
            onDone={() => void load()}
          />
        )}
      </SidePanel>
    </>
  );
}

/** "Undo all of <name>'s changes since…": the owner picks a person and a time. */
export function UndoPerson({
  boardId,
  meId,
  authors,
  onMessage,
  onDone,
}: {
  boardId: string;
  meId: string;
  /** The ids of the people with changes in the history shown. */
  authors: ReadonlySet<string>;
  onMessage(message: string): void;
  onDone(): void;
}) {
  const [members, setMembers] = useState<Member[]>([]);
  const [target, setTarget] = useState<Member | null>(null);
  const [since, setSince] = useState(() => localInput(defaultSince(boardId)));
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api
      .members(pageOf(boardId).boardId)
      .then(({ members: m }) => setMembers(m))
      .catch(() => setMembers([]));
  }, [boardId]);

  const run = async () => {
    if (!target) return;
    const sinceIso = new Date(since).toISOString();
    setBusy(true);
    try {
      // The confirmation says how much it will undo: the server counts it without changing anything.
      const { changes } = await historyApi.revertCount(boardId, target.userId, sinceIso);
      const at = whenLabel(sinceIso);
      if (changes === 0) {
        onMessage(`${target.name} changed nothing since ${at}: there is nothing to undo.`);
        return;
      }
      const shapes = changes === 1 ? '1 shape' : `${changes} shapes`;
      // `danger`: it takes back someone else's work, for everyone, in one go.
      const ok = await confirmAction({
        title: `Undo ${target.name}'s changes?`,
        body: `${target.name}'s changes since ${at} are undone, on ${shapes}. Everyone else's changes stay.`,
        confirmLabel: 'Undo all',
        danger: true,
      });
      if (!ok) return;
      await historyApi.revert(boardId, target.userId, sinceIso);
      onMessage(`Undid ${target.name}'s changes since ${at} (${shapes}).`);
      setTarget(null);
      onDone();
    } catch (e) {
      onMessage(errorSentence(e));
    } finally {
      setBusy(false);
    }
  };

  // Not viewers or commenters (they cannot edit), nor anyone who changed nothing in this history.
  const people = undoablePeople(members, meId, authors);
  if (people.length === 0) return null;
  return (
    <section className="history-people" aria-label="Undo one person's changes">
      <h3>People</h3>
      <ul>
        {people.map((m) => (
          <li key={m.userId}>
            <Avatar user={{ id: m.userId, name: m.name, color: m.color }} size={20} />
            <span className="history-person">{m.name}</span>
            <button type="button" className="btn small" onClick={() => setTarget(m)}>
              Undo all of {m.name}'s changes since…
            </button>
          </li>
        ))}
      </ul>
      {target && (
        <fieldset className="history-undo" aria-label={`Undo ${target.name}'s changes`}>
          <label>
            Since{' '}
            <input
              type="datetime-local"
              step={1}
              aria-label="Since"
              value={since}
              onChange={(e) => setSince(e.target.value)}
            />
          </label>
          <button type="button" className="btn danger" disabled={busy} onClick={() => void run()}>
            Undo {target.name}'s changes
          </button>
          <button type="button" className="btn" onClick={() => setTarget(null)}>
            Cancel
          </button>
        </fieldset>
      )}
    </section>
  );
}
