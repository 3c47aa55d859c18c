// Wires one open board together: the session (doc, provider, IndexedDB), the shape index, the
// tool controller, presence and the UI around the canvas. It renders and dispatches only.
import {
  type Board,
  CloseCode,
  canComment,
  canEditBoard,
  docKey,
  isPageId,
  MAIN_PAGE_ID,
  type Role,
  type User,
} from '@tandem/shared';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import * as Y from 'yjs';
import { api, errorSentence } from '../api/client.ts';
import { Link, navigate } from '../router.tsx';
import { useSession } from '../session.ts';
import { useWorkspace } from '../workspace/socket.ts';
import { createActions } from './actions.ts';
import { Canvas } from './canvas/Canvas.tsx';
import { ShapeIndex } from './canvas/shapeIndex.ts';
import { TextEditor } from './canvas/TextEditor.tsx';
import { CommentsButton, CommentsLayer, CommentsPanel } from './comments/Comments.tsx';
import { useOpenThreadFromLink } from './comments/openFromLink.ts';
import { useComments } from './comments/useComments.ts';
import { Facilitation } from './facilitation/Facilitation.tsx';
import { HistoryButton, HistoryLayer } from './history/HistoryPanel.tsx';
import { changesUndoneSentence } from './history/stats.ts';
import { markOpened } from './history/times.ts';
import { ImageInput } from './images/ImageInput.tsx';
import { jointUndo } from './pages/jointUndo.ts';
import {
  createPagesUndo,
  deletedPageNote,
  pageDeletedSentence,
  pageGoneSentence,
  pageLabel,
  pageListStepNotice,
  pagePath,
  pendingSeeds,
  readPages,
} from './pages/model.ts';
import { PagesButton, PagesPanel, usePages } from './pages/PagesPanel.tsx';
import { usePagesPanel } from './pages/state.ts';
import { Avatars } from './presence/Avatars.tsx';
import { Cursors } from './presence/Cursors.tsx';
import { startLocalPresence } from './presence/localPresence.ts';
import { useRemotes } from './presence/remote.ts';
import { ShownColors, useShownColors } from './presence/shownColors.ts';
import { useEditor, type Viewport } from './store.ts';
import { afterLoad } from './sync/afterLoad.ts';
import { type BoardSession, openBoard } from './sync/provider.ts';
import { insertTemplate } from './templates/insert.ts';
import { TemplatesMenu } from './templates/TemplatesMenu.tsx';
import { keepThumbnail } from './thumbnail.ts';
import { ToolController } from './tools/controller.ts';
import { useBoardShortcuts } from './tools/useBoardShortcuts.ts';
import { ArrangeBar } from './ui/ArrangeBar.tsx';
import { BoardTitle } from './ui/BoardTitle.tsx';
import { dismissConfirms } from './ui/Confirm.tsx';
import { ContextMenu, type ContextMenuHandle } from './ui/ContextMenu.tsx';
import { ExportMenu } from './ui/ExportMenu.tsx';
import { FindBar, useFindShortcut } from './ui/FindBar.tsx';
import { FoldWhenCrowded } from './ui/FoldWhenCrowded.tsx';
import { carriedFind, dropCarriedFind } from './ui/findPages.ts';
import { Icon } from './ui/icons.tsx';
import { Minimap } from './ui/Minimap.tsx';
import { Alert, MessageStack, Notices, Progress } from './ui/Notice.tsx';
import { Recover } from './ui/Recover.tsx';
import { RoleBanner } from './ui/RoleBanner.tsx';
import { SelectionAnnouncer } from './ui/SelectionAnnouncer.tsx';
import { ShareDialog } from './ui/ShareDialog.tsx';
import { ShortcutsDialog, useShortcutsDialog } from './ui/ShortcutsDialog.tsx';
import { StatusBar } from './ui/StatusBar.tsx';
import { StylePanel } from './ui/StylePanel.tsx';
import { useOneSidePanel } from './ui/sidePanels.ts';
import { Toolbar } from './ui/Toolbar.tsx';
import { useTouchLayout } from './ui/touch.ts';
import { ZoomControls } from './ui/ZoomControls.tsx';
import { useSelectionPrune } from './useSelectionPrune.ts';
import './editor.css';

interface Props {
  board: Board;
  role: Role;
  user: User;
  /** The page shown (docs/api.md §17); MAIN_PAGE_ID is the board's own document. */
  pageId: string;
}

/**
 * Where each page was last looked at in this tab (by document key): going back to a page shows
 * it as it was left, as tldraw keeps a camera per page. It was fitted afresh, at another zoom and
 * place, and a trial's comment meant for a note landed on empty board.
 */
const lastViews = new Map<string, Viewport>();

/**
 * The board's first document is always open (it holds the page list, and everyone on the board
 * is present on it); another page is its own document, opened while it is shown.
 */
export function Editor(props: Props) {
  const [session, setSession] = useState<BoardSession | null>(null);
  const [pageSession, setPageSession] = useState<BoardSession | null>(null);
  const readOnly = !canEditBoard(props.role);
  const { pageId } = props;
  /** The first document's session, read when a page is refused (its note says who deleted it). */
  const first = useRef<BoardSession | null>(null);
  const isOwner = props.role === 'owner';
  useEffect(() => {
    useEditor.getState().reset();
    usePagesPanel.getState().close();
    const s = openBoard(props.board.id, { userId: props.user.id, readOnly: () => readOnly });
    setSession(s);
    first.current = s;
    return () => s.destroy();
  }, [props.board.id, props.user.id, readOnly]);
  useEffect(() => {
    if (pageId === MAIN_PAGE_ID) return setPageSession(null);
    // An id no page can have is not asked for (the server refuses it, below): no connection and no
    // local copy are made for it.
    if (!isPageId(pageId)) {
      navigate(pagePath(props.board.id, MAIN_PAGE_ID), { replace: true });
      return;
    }
    const s = openBoard(props.board.id, { userId: props.user.id, readOnly: () => readOnly, pageId });
    // A page just made by Duplicate starts as a copy of the page it was made from.
    const seed = pendingSeeds.get(pageId);
    if (seed) {
      pendingSeeds.delete(pageId);
      Y.applyUpdate(s.doc, seed);
    }
    setPageSession(s);
    // A page the board does not list (deleted, or a mistyped link) is refused with the code of a
    // board that does not exist (docs/api.md §17); the board is there: its first page is shown.
    // Said, as the public view says it: a page link (or a comment's) that lands on the first page
    // without a word looks like a broken link.
    // A page deleted since the link was made says who deleted it and when: the note its deletion
    // left in the first document (read once that document is here; pageGoneSentence).
    let stopTelling: () => void = () => undefined;
    const stop = s.onConnection((state) => {
      if (state.code !== CloseCode.NO_SUCH_BOARD) return;
      if (first.current) stopTelling = tellPageGone(first.current, pageId, props.user.id, isOwner);
      else useEditor.getState().setNotice(pageGoneSentence(null, props.user.id, isOwner));
      navigate(pagePath(props.board.id, MAIN_PAGE_ID), { replace: true });
    });
    return () => {
      stop();
      stopTelling();
      s.destroy();
    };
  }, [props.board.id, props.user.id, readOnly, pageId, isOwner]);
  const pagesUndo = useMemo(() => (session ? createPagesUndo(session.doc) : null), [session]);
  useEffect(() => () => pagesUndo?.destroy(), [pagesUndo]);
  if (!session || !pagesUndo) return null;
  const view = pageId === MAIN_PAGE_ID ? session : pageSession;
  // For one render after a page change, the state still holds the page left (already destroyed).
  if (!view || view.provider.roomname !== docKey(props.board.id, pageId)) return null;
  return <EditorView key={pageId} {...props} session={view} boardSession={session} pagesUndo={pagesUndo} />;
}

/** How long a refused page's notice waits for the first document before saying less. */
const NOTE_WAIT_MS = 5000;

/**
 * Tells that page `goneId` is not on the board, with its deletion note when the first document
 * has one: at once if the document (from the server, or this browser's copy) holds the note, else
 * once the server's copy is here; without it after NOTE_WAIT_MS, the generic sentence.
 */
function tellPageGone(board: BoardSession, goneId: string, meId: string, isOwner: boolean): () => void {
  let told = false;
  /** Stops waiting; says nothing more (the board was left meanwhile). */
  const stop = () => {
    told = true;
    board.provider.off('sync', onSync);
    clearTimeout(timer);
  };
  const tell = () => {
    if (told) return;
    stop();
    useEditor.getState().setNotice(pageGoneSentence(deletedPageNote(board.doc, goneId), meId, isOwner));
  };
  const onSync = (synced: boolean) => {
    if (synced) tell();
  };
  const timer = setTimeout(tell, NOTE_WAIT_MS);
  if (board.provider.synced || deletedPageNote(board.doc, goneId)) {
    tell();
    return stop;
  }
  board.provider.on('sync', onSync);
  void board.whenLocal.then(() => {
    if (deletedPageNote(board.doc, goneId)) tell();
  });
  return stop;
}

function EditorView({
  board,
  role,
  user,
  session,
  boardSession,
  pagesUndo,
  pageId,
}: Props & { session: BoardSession; boardSession: BoardSession; pagesUndo: Y.UndoManager }) {
  const pagesOpen = usePagesPanel((s) => s.open);
  const pages = usePages(boardSession.doc);
  // Someone else deleted the page shown (it was listed, now it is not): the first page is shown,
  // saying who deleted which page (the note the deletion wrote with it, pages/model.ts), rather
  // than leaving this person editing a page nobody can reach, or wondering where their work went.
  const listed = pages.some((p) => p.id === pageId);
  const wasListed = useRef(false);
  useEffect(() => {
    if (listed) wasListed.current = true;
    else if (wasListed.current && pageId !== MAIN_PAGE_ID) {
      const note = deletedPageNote(boardSession.doc, pageId);
      useEditor
        .getState()
        .setNotice(
          note?.by && note.by.id !== user.id
            ? `${pageDeletedSentence(note)} The first page is shown.`
            : 'This page was deleted, so the first page is shown.',
        );
      navigate(pagePath(board.id, MAIN_PAGE_ID), { replace: true });
    }
  }, [listed, pageId, board.id, boardSession, user.id]);
  // Leaving this page (the view is keyed by page) leaves what was being done on it: the note being
  // typed in, the selection and a comment being placed are shapes and points of this page's
  // document, which the next page does not have. Left set, the next page read the note as deleted
  // by someone else and said so. A layout-effect cleanup runs before the next page's effects.
  useLayoutEffect(() => () => useEditor.getState().leavePage(), []);
  const readOnly = !canEditBoard(role);
  const [title, setTitle] = useState(board.title);
  /** The column of notes at the bottom of the view; the presenting chip is shown in it too. */
  const [bannerColumn, setBannerColumn] = useState<HTMLDivElement | null>(null);
  // `?share=webhooks` (the dashboard's notice of a disabled webhook) opens Share at its webhooks.
  const [sharing, setSharing] = useState(() => sharePanelAsked() !== null);
  const [shortcutsOpen, setShortcutsOpen] = useShortcutsDialog();
  // Find on this page (Ctrl+F): the count of Ctrl+F presses, so one while it is open puts the
  // caret back in its field; 0 while closed.
  // A match chosen in the bar's list of other pages opened this page: the bar opens again here,
  // on the same query (ui/findPages.ts).
  const [carried] = useState(() => carriedFind(board.id, pageId));
  useEffect(() => dropCarriedFind(), []);
  const [findAsked, setFindAsked] = useState(carried ? 1 : 0);
  const openFind = useCallback(() => setFindAsked((n) => n + 1), []);
  useFindShortcut(openFind);
  const [showWebhooks] = useState(() => sharePanelAsked() === 'webhooks');
  const [membersVersion, setMembersVersion] = useState(0);
  const [message, setMessage] = useState<string | null>(null);
  // A version being previewed (History panel): the canvas shows it, read-only, instead of the live board.
  const [previewIndex, setPreviewIndex] = useState<ShapeIndex | null>(null);
  const connection = useSyncExternalStore(session.onConnection, session.getConnection);
  const saved = useSyncExternalStore(session.onSaved, session.getSaved);
  const accessLost = connection.status === 'access-lost';
  // A message leaves by itself after its reading time (Alert), and one about reaching the server
  // as soon as the board is live again (it would otherwise contradict the status beside it).
  useEffect(() => {
    if (message && connection.status === 'live' && message.startsWith(NETWORK_SENTENCE_START))
      setMessage(null);
  }, [message, connection.status]);
  const locked = readOnly || accessLost || (!connection.retrying && connection.code !== null);

  // Where the History panel's "Undo all of … since…" starts (history/times.ts, defaultSince).
  useEffect(() => markOpened(board.id), [board.id]);
  const index = useMemo(() => new ShapeIndex(session.doc), [session]);
  useEffect(() => () => index.destroy(), [index]);
  useSelectionPrune(index);
  const me = useMemo(() => ({ id: user.id, name: user.name, color: user.color }), [user]);
  const presence = useMemo(() => startLocalPresence(session.awareness, me, role), [session, me, role]);
  // The colour the others see: the one picked here, else the server's choice for this board (a
  // newcomer whose colour is shown already gets another), else the account's.
  const stampedColor = useSyncExternalStore(boardSession.onOwnColor, boardSession.getOwnColor);
  const [pickedColor, setPickedColor] = useState<string | null>(null);
  const meShown = useMemo(
    () => ({ ...me, color: pickedColor ?? stampedColor ?? me.color }),
    [me, pickedColor, stampedColor],
  );
  const pickColor = useCallback(
    (color: string) => {
      setPickedColor(color);
      presence.setColor(color);
      api.setMyColor(color).catch((e) => setMessage(errorSentence(e)));
    },
    [presence],
  );
  useEffect(() => () => presence.stop(), [presence]);
  const shownColors = useShownColors(boardSession.awareness, meShown);
  // The laser trail and chat bubble drawn here in the colour the others see them in.
  const userShown = useMemo(() => ({ ...user, color: meShown.color }), [user, meShown.color]);
  useBoardPresence(boardSession, session, pageId, me, pickedColor);
  // Where the pointer is on the board (null when it is off the canvas): a paste lands there.
  const pointerRef = useRef<{ x: number; y: number } | null>(null);
  // Read at call time by the controller and actions, which live as long as the session.
  const lockedRef = useRef(locked);
  lockedRef.current = locked || previewIndex !== null;
  // The shapes on the canvas (a History preview's, while previewing): what Tab walks.
  const shownRef = useRef(index);
  shownRef.current = previewIndex ?? index;
  // Ctrl+Z undoes the latest change, on the canvas or to the page list (add, rename, move, delete).
  // A step that changes the page list, which is usually closed, says what it did (a rename taken
  // back, a page removed): it changes the list for everyone.
  const joint = useMemo(() => {
    const both = jointUndo([session.undo, pagesUndo]);
    const said = (step: 'Undo' | 'Redo', run: () => void) => () => {
      const before = readPages(boardSession.doc);
      run();
      const notice = pageListStepNotice(before, readPages(boardSession.doc), step);
      if (notice) useEditor.getState().setNotice(notice);
    };
    return { ...both, undo: said('Undo', both.undo), redo: said('Redo', both.redo) };
  }, [session, pagesUndo, boardSession]);
  useEffect(() => () => joint.destroy(), [joint]);
  // The context menu, which the canvas asks to open (a right-click, Shift+F10).
  const menu = useRef<ContextMenuHandle>(null);
  const actions = useMemo(
    () =>
      createActions(
        session,
        index,
        user.id,
        () => lockedRef.current,
        joint,
        () => pointerRef.current,
        () => shownRef.current,
      ),
    [session, index, user.id, joint],
  );
  const controller = useMemo(
    () =>
      new ToolController({
        doc: session.doc,
        store: useEditor,
        userId: user.id,
        readOnly: () => lockedRef.current,
        shapes: index.getSnapshot,
        stopCapturing: () => session.undo.stopCapturing(),
      }),
    [session, index, user.id],
  );

  // Keyboard and clipboard, for the whole page while the board is open.
  const isLocked = useCallback(() => lockedRef.current, []);
  useBoardShortcuts(actions, isLocked, presence.activity);

  // The dashboard's picture of this board, refreshed after this person's edits.
  // The board's picture is its first page's.
  useEffect(
    () =>
      pageId === MAIN_PAGE_ID
        ? keepThumbnail(board.id, session.doc, index, () => !lockedRef.current)
        : undefined,
    [board.id, session, index, pageId],
  );

  // Fit the content once the local copy has loaded, so a board opens showing its shapes; a page
  // seen before in this tab opens where it was left (lastViews).
  useEffect(() => {
    const key = docKey(board.id, pageId);
    let done = false;
    const fit = () => {
      // Someone followed onto this page keeps their viewport.
      if (useEditor.getState().followClientId !== null) return;
      if (done) return;
      const last = lastViews.get(key);
      if (last) {
        done = true;
        useEditor.getState().setViewport(last);
        return;
      }
      if (index.getSnapshot().list.length === 0) return;
      done = true;
      actions.fitOnOpen();
    };
    fit();
    void session.whenLocal.then(fit);
    session.provider.once('sync', fit);
    return () => {
      done = true;
      lastViews.set(key, useEditor.getState().viewport);
    };
  }, [session, index, actions, board.id, pageId]);

  // Asked once: a reload does not open Share again.
  useEffect(() => {
    if (sharePanelAsked() === null) return;
    const params = new URLSearchParams(location.search);
    params.delete('share');
    const rest = params.toString();
    history.replaceState(history.state, '', `${location.pathname}${rest ? `?${rest}` : ''}`);
  }, []);

  // A board started from a template on the dashboard opens with `?template=`: insert it once,
  // after the local copy loaded, then drop the parameter so a reload does not insert it again.
  useEffect(() => {
    const templateId = new URLSearchParams(location.search).get('template');
    if (!templateId || lockedRef.current) return;
    history.replaceState(history.state, '', location.pathname);
    let live = true;
    void (async () => {
      try {
        const [{ template }] = await Promise.all([api.template(templateId), session.whenLocal]);
        // Inserted even if this effect was cleaned up meanwhile: the parameter is already gone.
        const sentence = await insertTemplate(session, index, template, user.id);
        if (live) setMessage(sentence);
      } catch (e) {
        if (live) setMessage(errorSentence(e));
      }
    })();
    return () => {
      live = false;
    };
  }, [session, index, user.id]);

  // The tab says which board this is (several boards open in tabs are told apart by it), then on
  // a board of several pages which page.
  const pagePosition = Math.max(
    0,
    pages.findIndex((p) => p.id === pageId),
  );
  const pageShown = pageLabel(pages[pagePosition] ?? { id: pageId, name: '' });
  useEffect(() => {
    document.title = pages.length > 1 ? `${title} · ${pageShown} · Tandem` : `${title} · Tandem`;
    return () => {
      document.title = 'Tandem';
    };
  }, [title, pageShown, pages.length]);
  useOneSidePanel();
  const comments = useComments(board.id, membersVersion, setMessage);
  useOpenThreadFromLink(comments, index, board.id, pageId);

  useWorkspace({
    'board:changed': ({ board: b }) => b.id === board.id && setTitle(b.title),
    'members:changed': ({ boardId }) => boardId === board.id && setMembersVersion((v) => v + 1),
    // The owner undid this person's changes (History's "Undo all of …"): said to them, naming
    // who and how many, wherever on the board they are; their shapes changed under them.
    'changes:undone': (undone) => {
      if (undone.boardId !== board.id) return;
      const page = pages.find((p) => p.id === undone.pageId);
      useEditor
        .getState()
        .setNotice(changesUndoneSentence(undone, page && pages.length > 1 ? pageLabel(page) : null));
    },
  });

  return (
    <ShownColors.Provider value={shownColors}>
      <div
        className={`editor ${locked ? 'locked' : ''} ${pagesOpen ? 'pages-open' : ''}`}
        onPointerDown={() => presence.activity()}
      >
        {/* The header, then the tools, then the canvas, then the panels: the order Tab takes (and a
            screen reader reads), as in tldraw and Miro. The chrome's z-index keeps it over the
            canvas whatever its place here. */}
        <header className="topbar">
          <div className="panel title-panel">
            <Link href="/boards" className="tool" aria-label="All boards" title="All boards">
              <Icon name="back" />
            </Link>
            <BoardTitle
              boardId={board.id}
              title={title}
              canRename={!readOnly && !accessLost}
              onRenamed={setTitle}
            />
            <PagesButton count={pages.length} current={pageShown} position={pagePosition + 1} />
          </div>
          <div className="panel right-panel">
            <Avatars awareness={boardSession.awareness} me={meShown} onPickColor={pickColor} />
            <CommentsButton boardId={board.id} comments={comments} />
            <FoldWhenCrowded>
              <HistoryButton />
              <TemplatesMenu
                session={session}
                index={index}
                title={title}
                userId={user.id}
                readOnly={locked || previewIndex !== null}
                onMessage={setMessage}
              />
              <ExportMenu
                boardId={board.id}
                session={session}
                pages={{ boardSession, pageId, count: pages.length }}
                index={index}
                title={title}
                userId={user.id}
                readOnly={locked}
                onMessage={setMessage}
              />
            </FoldWhenCrowded>
            <button type="button" className="btn primary" aria-label="Share" onClick={() => setSharing(true)}>
              <Icon name="share" size={18} /> <span className="label">Share</span>
            </button>
          </div>
        </header>
        <Toolbar
          actions={actions}
          history={joint}
          readOnly={locked || previewIndex !== null}
          canComment={canComment(role) && !accessLost && previewIndex === null}
        />
        <Canvas
          index={previewIndex ?? index}
          controller={controller}
          awareness={session.awareness}
          readOnly={locked || previewIndex !== null}
          onPointer={(p) => {
            pointerRef.current = p;
            presence.pointer(p);
          }}
          onEditRequest={actions.editText}
          onEmptyDoubleClick={actions.addTextAt}
          onMenu={(request) => menu.current?.open(request)}
        />
        <ContextMenu
          ref={menu}
          actions={actions}
          controller={controller}
          index={previewIndex ?? index}
          readOnly={locked || previewIndex !== null}
          canComment={canComment(role) && !accessLost && previewIndex === null}
          history={joint}
          boardId={board.id}
          session={session}
          whole={pages.length > 1 ? 'page' : 'board'}
          onMessage={setMessage}
        />
        {!locked && <EmptyHint index={index} />}
        <SelectionAnnouncer index={previewIndex ?? index} />
        {!previewIndex && (
          <TextEditor doc={session.doc} index={index} history={actions} canvasUndo={session.undo} />
        )}
        <Cursors awareness={session.awareness} />
        <ImageInput
          pointer={() => pointerRef.current}
          boardId={board.id}
          userId={user.id}
          session={session}
          readOnly={locked}
          onMessage={setMessage}
        />
        <div className="banners" ref={setBannerColumn}>
          {readOnly && !accessLost && <RoleBanner key={role} boardId={board.id} role={role} />}
          <Following
            boardAwareness={boardSession.awareness}
            awareness={session.awareness}
            boardId={board.id}
            pageId={pageId}
          />
        </div>
        {!previewIndex && (
          <CommentsLayer
            boardId={board.id}
            comments={comments}
            index={index}
            me={user}
            role={accessLost ? 'viewer' : role}
            pageId={pageId}
            pages={pages}
            onMessage={setMessage}
          />
        )}
        <CommentsPanel
          boardId={board.id}
          comments={comments}
          index={index}
          me={user}
          pageId={pageId}
          pages={pages}
        />
        <Minimap index={previewIndex ?? index} />
        {findAsked > 0 && (
          <FindBar
            index={previewIndex ?? index}
            focusRequest={findAsked}
            onClose={() => setFindAsked(0)}
            pages={previewIndex ? null : { boardId: board.id, pageId, list: pages }}
            initialQuery={carried?.query}
            whenLoaded={carried ? (then) => afterLoad(session, then) : undefined}
          />
        )}
        <HistoryLayer
          boardId={docKey(board.id, pageId)}
          role={role}
          meId={user.id}
          pageName={
            pages.length > 1
              ? pageLabel(pages.find((p) => p.id === pageId) ?? { id: pageId, name: '' })
              : null
          }
          onPreview={setPreviewIndex}
          onMessage={setMessage}
        />
        <Facilitation
          boardId={board.id}
          title={title}
          role={role}
          user={userShown}
          session={session}
          boardDoc={boardSession.doc}
          boardAwareness={boardSession.awareness}
          pageId={pageId}
          index={index}
          locked={locked || previewIndex !== null}
          presence={presence}
          bannerColumn={bannerColumn}
          onMessage={setMessage}
        />
        {!locked && !previewIndex && <StylePanel actions={actions} index={index} />}
        {!locked && !previewIndex && <ArrangeBar actions={actions} index={index} />}
        <ZoomControls actions={actions} onShortcuts={() => setShortcutsOpen(true)} onFind={openFind} />
        {pagesOpen && (
          <PagesPanel
            boardId={board.id}
            doc={boardSession.doc}
            awareness={boardSession.awareness}
            pageId={pageId}
            pageDoc={session.doc}
            undo={pagesUndo}
            readOnly={locked}
            isOwner={role === 'owner'}
            me={meShown}
          />
        )}
        <StatusBar
          state={connection}
          saved={readOnly ? null : saved}
          canComment={canComment(role) && !accessLost}
        />
        <MessageStack>
          <Notices />
          <Progress />
          <Alert message={message} onDismiss={() => setMessage(null)} />
        </MessageStack>
        <Recover state={connection} boardId={board.id} userId={user.id} />
        {accessLost && (
          <AccessLost
            code={connection.code}
            sentence={connection.sentence}
            session={session}
            index={index}
            title={title}
            userId={user.id}
          />
        )}
        {shortcutsOpen && <ShortcutsDialog onClose={() => setShortcutsOpen(false)} />}
        {sharing && (
          <ShareDialog
            boardId={board.id}
            pageId={pageId}
            isOwner={role === 'owner'}
            meId={user.id}
            membersVersion={membersVersion}
            showWebhooks={showWebhooks}
            onClose={() => setSharing(false)}
          />
        )}
      </div>
    </ShownColors.Provider>
  );
}

/** What `?share=` asked to open with the board (the dashboard links `?share=webhooks`), or null. */
const sharePanelAsked = (): string | null => new URLSearchParams(location.search).get('share');

/** A first-time hint on an empty board; it goes away with the first shape. */
function EmptyHint({ index }: { index: ShapeIndex }) {
  const empty = useSyncExternalStore(index.subscribe, () => index.getSnapshot().list.length === 0);
  const touch = useTouchLayout();
  // A comment being written is the first thing on the board: the hint would show through it.
  const commenting = useEditor((s) => s.commentDraft !== null);
  if (!empty || commenting) return null;
  // Read by screen readers too (it was hidden from them): for someone without a pointer it is
  // the one place that says how the keyboard alone puts a shape on the board.
  if (touch)
    return (
      <p className="empty-hint">
        Tap a tool below, then tap the board to place it. Pinch to zoom; drag with two fingers to move around.
      </p>
    );
  return (
    <p className="empty-hint">
      Pick a tool, or press <kbd>N</kbd> for a sticky note or <kbd>R</kbd> for a rectangle, then{' '}
      <kbd>Enter</kbd> to place it in the middle of the view (or click the board). Press <kbd>P</kbd> to draw.
      Double-click to write text.
    </p>
  );
}

/** How the client's network failure sentence starts (api/client.ts). */
const NETWORK_SENTENCE_START = 'Cannot reach the server';

/**
 * On another page than the first, this person is present on the board's first document too, with
 * the page they are on and their viewport (docs/api.md §17): the Pages panel shows who is where,
 * and following someone follows them across pages.
 */
function useBoardPresence(
  boardSession: BoardSession,
  session: BoardSession,
  pageId: string,
  me: { id: string; name: string; color: string },
  /** A colour picked in this tab: the board's first document carries it too (avatars are drawn from it). */
  pickedColor: string | null,
): void {
  useEffect(() => {
    if (session === boardSession) return;
    const { awareness } = boardSession;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const put = () => {
      timer = null;
      const { x, y, zoom } = useEditor.getState().viewport;
      awareness.setLocalState({
        user: me,
        page: pageId,
        viewport: { x, y, zoom },
        cursor: null,
        selection: [],
        tool: 'select',
        idle: false,
        ...(pickedColor ? { color: pickedColor } : {}),
      });
    };
    put();
    const stop = useEditor.subscribe((state, previous) => {
      if (state.viewport !== previous.viewport) timer ??= setTimeout(put, 50);
    });
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  }, [boardSession, session, pageId, me, pickedColor]);
}

/** Following someone: take their viewport whenever it changes, and say so with a way to stop.
 * Its own component, so a remote cursor move re-renders only this, not the editor around it.
 * The person followed is found on the board's first document (where everyone is, with their
 * page: following crosses pages) or on this page's (a presenter found there). */
function Following({
  boardAwareness,
  awareness,
  boardId,
  pageId,
}: {
  boardAwareness: BoardSession['awareness'];
  awareness: BoardSession['awareness'];
  boardId: string;
  pageId: string;
}) {
  const boardRemotes = useRemotes(boardAwareness);
  const remotes = useRemotes(awareness);
  const followId = useEditor((s) => s.followClientId);
  const them =
    followId === null
      ? undefined
      : (boardRemotes.find((r) => r.clientId === followId) ?? remotes.find((r) => r.clientId === followId));
  const theirPage = them
    ? awareness === boardAwareness || boardRemotes.includes(them)
      ? (them.state.page ?? MAIN_PAGE_ID)
      : pageId
    : pageId;
  useEffect(() => {
    if (followId === null) return;
    if (!them) useEditor.getState().follow(null);
    else if (theirPage !== pageId) navigate(pagePath(boardId, theirPage));
    else useEditor.getState().setViewport(them.state.viewport, { keepFollow: true });
  }, [followId, them, theirPage, pageId, boardId]);
  if (!them) return null;
  const { name, color } = them.state.user;
  return (
    <>
      <div className="follow-frame" style={{ borderColor: color }} aria-hidden="true" />
      <div className="follow-banner" role="status" style={{ borderColor: color }}>
        <span className="follow-dot" style={{ background: color }} aria-hidden="true" />
        <span>
          Following <strong>{name}</strong>
        </span>
        <button type="button" className="btn small" onClick={() => useEditor.getState().follow(null)}>
          Stop following
        </button>
      </div>
    </>
  );
}

function AccessLost({
  code,
  sentence,
  session,
  index,
  title,
  userId,
}: {
  code: number | null;
  sentence: string;
  session: BoardSession;
  index: ShapeIndex;
  title: string;
  userId: string;
}) {
  // A question asked before access went (Restore this version?, Delete comment?) can no longer be
  // acted on, and its dialog, in the browser's top layer, would stay above this overlay.
  useEffect(dismissConfirms, []);
  return (
    <div
      className="overlay"
      role="alertdialog"
      aria-label="Access lost"
      aria-describedby="access-lost-sentence"
    >
      <div className="card">
        <h2>
          {code === CloseCode.NO_SUCH_BOARD
            ? 'Board deleted'
            : code === CloseCode.NOT_AUTHENTICATED
              ? 'Signed out'
              : 'Access lost'}
        </h2>
        <p id="access-lost-sentence">{sentence}</p>
        <p className="hint">
          Anything you changed that had not reached the server is still here: export it before you leave.
        </p>
        <div className="row">
          <ExportMenu
            boardId={session.provider.roomname}
            session={session}
            index={index}
            title={title}
            userId={userId}
            readOnly
            onMessage={() => {}}
          />
          {code === CloseCode.NOT_AUTHENTICATED ? (
            <Link
              className="btn primary"
              href={`/signin?next=${encodeURIComponent(location.pathname)}`}
              // The server ended the session; forget the cached user so the sign-in page shows.
              onClick={() => useSession.getState().setUser(null)}
            >
              Sign in
            </Link>
          ) : (
            <Link className="btn primary" href="/boards">
              Back to my boards
            </Link>
          )}
        </div>
      </div>
    </div>
  );
}
