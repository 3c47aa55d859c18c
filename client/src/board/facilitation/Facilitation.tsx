// The facilitator's kit on the board (docs/api.md §14): frames, presenting, the laser pointer, cursor
// chat and reactions, the shared timer and dot voting. State lives where docs/api.md §10/§14 put it
// (frames and meta.* in the Y.Doc, laser/chat/reaction in presence, votes on the server); these
// files render it (one per menu or overlay) and dispatch to the pure model in this folder; this
// one is the bar and its keys.
import { canEditBoard, type ShapeRecord } from '@tandem/shared';
import { type CSSProperties, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { boundsOf, unionRect } from '../model/geometry.ts';
import { inDialogOrMenu, isTyping, onKeydown } from '../shortcuts.ts';
import { useEditor } from '../store.ts';
import { facilitationBarPlaces, useClearOfSelection } from '../ui/clearOfSelection.ts';
import { useSelectedRecords } from '../ui/StylePanel.tsx';
import { usePhoneLayout } from '../ui/touch.ts';
import { useMenuDismiss } from '../ui/useMenuDismiss.ts';
import { EphemeralLayer, ReactionPicker } from './Ephemeral.tsx';
import { EphemeralSender } from './ephemeralSender.ts';
import { FrameNameEditor } from './FrameNameEditor.tsx';
import { FramesMenu } from './FramesMenu.tsx';
import { createFrame } from './frames.ts';
import { useMeta, useServerOffset } from './hooks.ts';
import { type Menu, MenuButton } from './MenuButton.tsx';
import { PresentationFollow } from './PresentationFollow.tsx';
import { PresentMenu } from './PresentMenu.tsx';
import { readPresentation } from './presentation.ts';
import type { FacilitationProps } from './props.ts';
import { TimerDisplay } from './TimerDisplay.tsx';
import { TimerMenu } from './TimerMenu.tsx';
import { readTimer } from './timer.ts';
import { useVotes, voteStartedSentence } from './useVotes.ts';
import { VoteMenu } from './VoteMenu.tsx';
import { VoteOverlay } from './VoteOverlay.tsx';
import './facilitation.css';

export function Facilitation(props: FacilitationProps) {
  const { session, index, user, role, locked } = props;
  const canEdit = canEditBoard(role) && !locked;
  const [menu, setMenu] = useState<Menu>(null);
  // The open menu (in `menus`) takes focus, and Escape in it closes it back to the button that
  // opened it (`opener`), as every menu of the board does (useMenuDismiss).
  const menus = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const toggle = (m: Menu, button: HTMLButtonElement) => {
    opener.current = button;
    setMenu((open) => (open === m ? null : m));
  };
  const closeMenu = useCallback(() => setMenu(null), []);
  useMenuDismiss(menu, menus, closeMenu, { panel: true, button: opener });
  const timer = useMeta(props.boardDoc ?? session.doc, readTimer);
  const presentation = useMeta(props.boardDoc ?? session.doc, readPresentation);
  const offset = useServerOffset();
  const votes = useVotes(props.boardId, props.onMessage);
  // A vote someone else started is said once, with who and how to vote: the Vote button's colour
  // alone told nobody it had begun (a trial's three people), and the votes left are in its menu.
  const voteSession = votes.current?.session;
  const told = useRef<string | null>(null);
  const { onMessage, boardAwareness } = props;
  useEffect(() => {
    if (!voteSession?.open || voteSession.startedBy === user.id || told.current === voteSession.id) return;
    told.current = voteSession.id;
    let starter: string | null = null;
    for (const state of (boardAwareness ?? session.awareness).getStates().values())
      if (state?.user?.id === voteSession.startedBy) starter = String(state.user.name);
    onMessage(voteStartedSentence(starter, voteSession.votesPerPerson, canEdit));
  }, [voteSession, user.id, boardAwareness, session, onMessage, canEdit]);
  const tool = useEditor((s) => s.tool);
  const sender = useMemo(() => new EphemeralSender(props.presence), [props.presence]);
  useEffect(() => () => sender.stop(), [sender]);
  const me = useMemo(() => ({ name: user.name, color: user.color }), [user.name, user.color]);
  // Out of the way of a selection under it at the top right, as the style panel and the align
  // bar are (ui/clearOfSelection.ts); not on a phone, where it stands above the tools.
  const bar = useRef<HTMLDivElement>(null);
  const selected = useSelectedRecords(index);
  const aside = useClearOfSelection(bar, selected, facilitationBarPlaces, !usePhoneLayout());

  /** With a selection, a frame around it at once; without, the Frame tool, to draw one by dragging. */
  const addFrame = useCallback(() => {
    if (!canEdit) return;
    const st = useEditor.getState();
    const snap = index.getSnapshot();
    const chosen = st.selection.map((id) => snap.byId.get(id)).filter((s): s is ShapeRecord => !!s);
    const around = unionRect(chosen.map(boundsOf));
    if (!around) return st.setTool(st.tool === 'frame' ? 'select' : 'frame');
    const id = createFrame(
      session.doc,
      { x: around.x - 40, y: around.y - 40, w: around.w + 80, h: around.h + 80 },
      user.id,
    );
    st.select([id]);
  }, [canEdit, index, session, user.id]);

  // F: a frame; `/`: a cursor chat bubble; Escape closes a menu. (L, the laser pointer, is a tool
  // key in tools/keyboard.ts.)
  useEffect(() => {
    const down = (e: KeyboardEvent) => {
      // (Escape in an open menu, in its fields too, is useMenuDismiss's: it closes the menu and
      // gives focus back to its button. Escape elsewhere closes it below, focus unmoved.)
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (inDialogOrMenu(e.target, false)) return;
      if (e.key === 'Escape') setMenu(null);
      if (e.key === '/') {
        e.preventDefault();
        sender.openChat();
      }
      if (e.key.toLowerCase() === 'f' && canEdit) {
        e.preventDefault();
        addFrame();
      }
    };
    return onKeydown(down);
  }, [addFrame, canEdit, sender]);

  return (
    <>
      <div
        ref={bar}
        className="panel facilitation-bar"
        style={aside}
        role="toolbar"
        aria-label="Facilitation"
      >
        {canEdit && (
          <button
            type="button"
            className={`tool ${tool === 'frame' ? 'active' : ''}`}
            aria-label="Frame"
            aria-pressed={tool === 'frame'}
            title="Frame (F): drag to draw one, or frame the selection"
            onClick={addFrame}
          >
            <span aria-hidden="true">▭</span>
            <span className="label">Frame</span>
          </button>
        )}
        <MenuButton menu="frames" open={menu} onToggle={toggle} label="Frames" icon="☰" />
        <MenuButton
          menu="present"
          open={menu}
          onToggle={toggle}
          label="Present"
          icon="▶"
          active={!!presentation}
        />
        <button
          type="button"
          className={`tool ${tool === 'laser' ? 'active' : ''}`}
          aria-label="Laser pointer"
          aria-pressed={tool === 'laser'}
          title="Laser pointer (L)"
          onClick={() => useEditor.getState().setTool(tool === 'laser' ? 'select' : 'laser')}
        >
          <span aria-hidden="true">✦</span>
          <span className="label">Laser</span>
        </button>
        <MenuButton
          menu="reactions"
          open={menu}
          onToggle={toggle}
          label="Reactions"
          short="React"
          title="Reactions; chat at the cursor with /"
          icon="☺"
        />
        <MenuButton menu="timer" open={menu} onToggle={toggle} label="Timer" icon="◔" />
        <MenuButton
          menu="vote"
          open={menu}
          onToggle={toggle}
          label="Vote"
          icon="●"
          active={!!votes.current?.session?.open}
        />
      </div>
      {/* No box of its own (display: contents): the menus are placed under the bar, or above it
          while it stands aside at the bottom right (facilitation.css reads --bar-top). */}
      <div
        className="facilitation-menus"
        ref={menus}
        data-bar-aside={aside ? '' : undefined}
        style={aside ? ({ '--bar-top': `${aside.top}px` } as CSSProperties) : undefined}
      >
        {menu === 'frames' && <FramesMenu {...props} canEdit={canEdit} />}
        {menu === 'present' && (
          <PresentMenu {...props} presentation={presentation} onClose={() => setMenu(null)} />
        )}
        {menu === 'reactions' && (
          <ReactionPicker
            sender={sender}
            onChat={() => {
              setMenu(null);
              sender.openChat();
            }}
          />
        )}
        {menu === 'timer' && <TimerMenu {...props} canEdit={canEdit} timer={timer} offset={offset} />}
        {menu === 'vote' && <VoteMenu {...props} canEdit={canEdit} votes={votes} />}
      </div>
      <TimerDisplay timer={timer} offset={offset} />
      <PresentationFollow {...props} presentation={presentation} />
      <VoteOverlay {...props} canEdit={canEdit} votes={votes} />
      <FrameNameEditor {...props} canEdit={canEdit} />
      <EphemeralLayer awareness={session.awareness} sender={sender} me={me} />
    </>
  );
}
