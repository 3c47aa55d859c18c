// The Pages panel (docs/api.md §17): the board's pages in order, who is on each, and add, rename
// (double-click or the pencil), reorder (drag), duplicate and delete (with Undo). Choosing a page
// navigates to its URL; Editor opens that page's document. It renders and dispatches; the list's
// changes are model.ts.

import { copyPageName, MAIN_PAGE_ID, MAX_PAGE_NAME, MAX_PAGES, type PresenceUser } from '@tandem/shared';
import { type DragEvent, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import type { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { navigate } from '../../router.tsx';
import { shapesOf } from '../model/doc.ts';
import { Avatar } from '../presence/Avatars.tsx';
import { useRemotes } from '../presence/remote.ts';
import { confirmAction } from '../ui/Confirm.tsx';
import { Icon } from '../ui/icons.tsx';
import { PanelToggle } from '../ui/PanelToggle.tsx';
import { SidePanel } from '../ui/SidePanelHead.tsx';
import {
  addPage,
  type DeletedPage,
  deletePage,
  movePage,
  type PageEntry,
  pageDeletionQuestion,
  pageLabel,
  pagePath,
  pendingSeeds,
  readDeletedPages,
  readPages,
  renamePage,
  restorePage,
} from './model.ts';
import './pages.css';
import { usePagesPanel } from './state.ts';

/** Why the main page's delete button does nothing (its tooltip and description). */
const MAIN_PAGE_KEPT = 'The board’s main page, which its link opens, cannot be deleted.';

/** What `read` finds in the board's first document, live: a new value only when it differs. */
function useDocValue<T>(doc: Y.Doc, read: (doc: Y.Doc) => T): T {
  const [value, setValue] = useState(() => read(doc));
  useEffect(() => {
    const update = () =>
      setValue((previous) => {
        const next = read(doc);
        return JSON.stringify(next) === JSON.stringify(previous) ? previous : next;
      });
    update();
    doc.on('update', update);
    return () => doc.off('update', update);
  }, [doc, read]);
  return value;
}

/** The board's pages, live. */
export const usePages = (doc: Y.Doc): PageEntry[] => useDocValue(doc, readPages);

/** The board's deleted pages that can be brought back, newest first, live. */
const useDeletedPages = (doc: Y.Doc): DeletedPage[] => useDocValue(doc, readDeletedPages);

interface Props {
  boardId: string;
  /** The board's first document, which holds the list. */
  doc: Y.Doc;
  /** Presence on the first document: everyone on the board, with the page they are on. */
  awareness: Awareness;
  pageId: string;
  /** The open page's document (what Duplicate copies). */
  pageDoc: Y.Doc;
  undo: Y.UndoManager;
  readOnly: boolean;
  /** Whether this person owns the board: only the owner is offered "Recently deleted". */
  isOwner: boolean;
  me: PresenceUser;
}

export function PagesPanel({ boardId, doc, awareness, pageId, pageDoc, undo, readOnly, isOwner, me }: Props) {
  const onClose = usePagesPanel((s) => s.close);
  const pages = usePages(doc);
  const recentlyDeleted = useDeletedPages(doc);
  const remotes = useRemotes(awareness);
  const { renaming, setRenaming, deleted, setDeleted } = usePagesPanel();
  const [dragging, setDragging] = useState<string | null>(null);
  const mainPageNoteId = useId();
  // The page whose link was just copied: its button shows a tick for a moment.
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const canUndo = useSyncExternalStore(
    (fn) => {
      undo.on('stack-item-added', fn);
      undo.on('stack-item-popped', fn);
      return () => {
        undo.off('stack-item-added', fn);
        undo.off('stack-item-popped', fn);
      };
    },
    () => undo.undoStack.length > 0,
  );
  const go = (id: string) => navigate(pagePath(boardId, id));
  // A link straight to one page (docs/api.md §17), for everyone who can see the board.
  const copyLink = async (id: string) => {
    try {
      await navigator.clipboard.writeText(new URL(pagePath(boardId, id), location.origin).toString());
      setCopied(id);
    } catch {
      // No clipboard permission: the page opens instead, so its link is in the address bar.
      go(id);
    }
  };
  // Each person once, though they have the board open in two tabs (as the top bar's avatars are):
  // a trial's row counted one person twice in its "+N".
  const peopleOn = (id: string): PresenceUser[] => {
    const here = [
      ...(id === pageId ? [me] : []),
      ...remotes.filter((r) => (r.state.page ?? MAIN_PAGE_ID) === id).map((r) => r.state.user),
    ];
    return here.filter((user, i) => here.findIndex((u) => u.id === user.id) === i);
  };

  // A new page is named at once ("Page 3", model.ts), its name in the field ready to be typed over.
  const add = () => {
    const id = addPage(doc, '', pageId);
    if (id) {
      setRenaming(id);
      go(id);
    }
  };
  const duplicate = (page: PageEntry) => {
    const id = addPage(doc, copyPageName(pages, page), page.id);
    if (!id) return;
    // Only the open page's content is at hand; another page is opened first, then duplicated.
    if (page.id === pageId) pendingSeeds.set(id, Y.encodeStateAsUpdate(pageDoc));
    go(id);
  };
  // A page with content, or with someone else on it, is deleted only once confirmed (a trial's
  // owner deleted a page a teammate was writing on, with one click).
  const remove = async (page: PageEntry) => {
    const others = peopleOn(page.id).filter((user) => user.id !== me.id);
    const question = pageDeletionQuestion(
      pageLabel(page),
      page.id === pageId ? shapesOf(pageDoc).size : null,
      others.map((user) => user.name),
    );
    if (question && !(await confirmAction({ ...question, confirmLabel: 'Delete page', danger: true })))
      return;
    if (!deletePage(doc, page.id, me)) return;
    undo.stopCapturing();
    setDeleted(pageLabel(page));
    if (page.id === pageId) go(MAIN_PAGE_ID);
  };
  const drop = (e: DragEvent, to: number) => {
    e.preventDefault();
    if (dragging) movePage(doc, dragging, to);
    setDragging(null);
  };

  return (
    <SidePanel panel="pages" element="section" className="pages-panel" label="Pages" onClose={onClose}>
      <span id={mainPageNoteId} hidden>
        {MAIN_PAGE_KEPT}
      </span>
      <ol className="pages-list">
        {pages.map((page, position) => {
          const label = pageLabel(page);
          const people = peopleOn(page.id);
          return (
            <li
              key={page.id}
              className={`page-row ${page.id === pageId ? 'current' : ''} ${dragging === page.id ? 'dragging' : ''}`}
              draggable={!readOnly && renaming !== page.id}
              onDragStart={(e) => {
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', page.id);
                setDragging(page.id);
              }}
              onDragEnd={() => setDragging(null)}
              onDragOver={(e) => {
                if (dragging) e.preventDefault();
              }}
              onDrop={(e) => drop(e, position)}
            >
              {renaming === page.id ? (
                <RenameField
                  initial={label}
                  onDone={(name) => {
                    if (name !== null && name.trim() !== label) renamePage(doc, page.id, name);
                    setRenaming(null);
                  }}
                />
              ) : (
                <button
                  type="button"
                  className="page-name"
                  aria-current={page.id === pageId ? 'page' : undefined}
                  onClick={() => go(page.id)}
                  onDoubleClick={() => !readOnly && setRenaming(page.id)}
                  // The whole name, where the row cuts it short.
                  title={label}
                >
                  {label}
                </button>
              )}
              <span className="page-people" title={`On ${label}: ${people.map((u) => u.name).join(', ')}`}>
                {/* Three faces at most, or two and "+N": the page's name keeps the row's room. */}
                {people.slice(0, people.length > 3 ? 2 : 3).map((user) => (
                  <Avatar key={user.id} user={user} size={20} />
                ))}
                {people.length > 3 && <span className="page-people-more">+{people.length - 2}</span>}
              </span>
              <span className="page-actions">
                <button
                  type="button"
                  className="tool"
                  aria-label={`Copy link to ${label}`}
                  title={copied === page.id ? 'Link copied' : 'Copy link'}
                  onClick={() => void copyLink(page.id)}
                >
                  <Icon name={copied === page.id ? 'check' : 'link'} size={14} />
                </button>
                {!readOnly && (
                  <>
                    <button
                      type="button"
                      className="tool"
                      aria-label={`Rename ${label}`}
                      title="Rename"
                      onClick={() => setRenaming(page.id)}
                    >
                      <Icon name="pencil" size={14} />
                    </button>
                    <button
                      type="button"
                      className="tool"
                      aria-label={`Duplicate ${label}`}
                      title="Duplicate"
                      onClick={() => duplicate(page)}
                    >
                      <Icon name="copy" size={14} />
                    </button>
                    {page.id === MAIN_PAGE_ID ? (
                      // The board's main page (its own address, /b/:id) cannot be deleted, wherever
                      // it stands in the list: the button is there, disabled, and says why.
                      <button
                        type="button"
                        className="tool"
                        aria-label={`Delete ${label}`}
                        aria-disabled="true"
                        aria-describedby={mainPageNoteId}
                        title={MAIN_PAGE_KEPT}
                      >
                        <Icon name="trash" size={14} />
                      </button>
                    ) : (
                      <button
                        type="button"
                        className="tool"
                        aria-label={`Delete ${label}`}
                        title="Delete"
                        onClick={() => void remove(page)}
                      >
                        <Icon name="trash" size={14} />
                      </button>
                    )}
                  </>
                )}
              </span>
            </li>
          );
        })}
      </ol>
      {!readOnly && (
        <button type="button" className="btn" onClick={add}>
          <Icon name="plus" size={16} /> Add page
        </button>
      )}
      {deleted && canUndo && (
        <p className="pages-deleted" role="status">
          <span>“{deleted}” deleted.</span>
          <button
            type="button"
            className="btn small"
            aria-label="Undo page deletion"
            onClick={() => {
              undo.undo();
              setDeleted(null);
            }}
          >
            Undo
          </button>
        </p>
      )}
      {/* A deleted page's document stays stored, and its name and place are in its note
          (pages/model.ts): the owner can bring it back after this tab's Undo is gone (a reload,
          another day, someone else's deletion). */}
      {isOwner && !readOnly && recentlyDeleted.length > 0 && (
        <details className="pages-recently-deleted">
          <summary>Recently deleted ({recentlyDeleted.length})</summary>
          <ul>
            {recentlyDeleted.map((note) => {
              const label = pageLabel(note);
              return (
                <li key={note.id}>
                  <span className="page-deleted-name" title={label}>
                    {label}
                  </span>
                  <small>{note.by ? `by ${note.by.id === me.id ? 'you' : note.by.name}` : ''}</small>
                  <button
                    type="button"
                    className="btn small"
                    aria-label={`Restore ${label}`}
                    disabled={pages.length >= MAX_PAGES}
                    onClick={() => {
                      if (restorePage(doc, note.id)) undo.stopCapturing();
                    }}
                  >
                    Restore
                  </button>
                </li>
              );
            })}
          </ul>
        </details>
      )}
    </SidePanel>
  );
}

/**
 * A page's name in place. A blank name is refused as the board title's is (BoardTitle): Enter
 * keeps the field open and says "Enter a page name." under it; leaving the field or Escape gives
 * the edit up. Either way the page keeps its name (it used to be cleared, and the page then showed
 * a name taken from its position).
 */
function RenameField({ initial, onDone }: { initial: string; onDone(name: string | null): void }) {
  const [value, setValue] = useState(initial);
  const [blank, setBlank] = useState(false);
  // Enter saves and the blur that follows (the field goes) must not save again.
  const done = useRef(false);
  const finish = (name: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(name);
  };
  return (
    <>
      <input
        className="page-rename"
        aria-label="Page name"
        aria-invalid={blank || undefined}
        aria-describedby={blank ? 'page-rename-error' : undefined}
        // biome-ignore lint/a11y/noAutofocus: the field appears because the person asked to rename.
        autoFocus
        onFocus={(e) => e.currentTarget.select()}
        value={value}
        maxLength={MAX_PAGE_NAME}
        onChange={(e) => {
          setValue(e.target.value);
          setBlank(false);
        }}
        onBlur={() => finish(value.trim() ? value : null)}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Enter') {
            if (value.trim()) finish(value);
            else setBlank(true);
          }
          if (e.key === 'Escape') finish(null);
        }}
      />
      {blank && (
        <small id="page-rename-error" className="field-error page-rename-error" role="alert">
          Enter a page name.
        </small>
      )}
    </>
  );
}

/** The top bar's Pages button. */
/**
 * The Pages panel's button. On a board of several pages it names the page open and where it is
 * in the list ("Parking lot (2/3)"), as tldraw's page menu names the current page: with the panel
 * closed nothing else said which page this was (a trial). "Pages" on a board of one page.
 */
export function PagesButton({
  count,
  current,
  position,
}: {
  count: number;
  current: string;
  position: number;
}) {
  const toggle = usePagesPanel((s) => s.toggle);
  const open = usePagesPanel((s) => s.open);
  return (
    <PanelToggle
      panel="pages"
      name="Pages"
      className="btn pages-button"
      open={open}
      onToggle={toggle}
      icon={<Icon name="pages" size={18} />}
      label={
        count > 1 ? (
          <>
            <span className="open-page-name">{current}</span> ({position}/{count})
          </>
        ) : (
          'Pages'
        )
      }
      title={count > 1 ? `Pages: on ${current}, page ${position} of ${count}` : 'Pages'}
    />
  );
}
