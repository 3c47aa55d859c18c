// The facilitator's kit on the board (SPEC §14): frames, presenting, the laser pointer, cursor
// chat and reactions, the shared timer and dot voting. State lives where SPEC §10/§14 put it
// (frames and meta.* in the Y.Doc, laser/chat/reaction in presence, votes on the server); this
// file renders it and dispatches to the pure model in this folder.
import {
  type PresentationState,
  type Role,
  type ShapeRecord,
  type TimerState,
  timerPresetsMs,
  type User,
  type VotesCurrentAnswer,
} from '@tandem/shared';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type * as Y from 'yjs';
import { api, errorSentence } from '../../api/client.ts';
import { useWorkspace } from '../../workspace/socket.ts';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { toSvg } from '../canvas/svgExport.ts';
import { imagesOf } from '../images/transfer.ts';
import { metaOf } from '../model/doc.ts';
import { boundsOf, unionRect } from '../model/geometry.ts';
import type { LocalPresence } from '../presence/localPresence.ts';
import { useRemotes } from '../presence/remote.ts';
import { fitRect, toScreen, useEditor, visibleRect } from '../store.ts';
import type { BoardSession } from '../sync/provider.ts';
import { download, safeName, svgToPng } from '../ui/download.ts';
import { touchLayout } from '../ui/touch.ts';
import { measureOffset } from './clock.ts';
import { EphemeralLayer, ReactionPicker } from './Ephemeral.tsx';
import { EphemeralSender } from './ephemeralSender.ts';
import { createFrame, frameMembers, framesInOrder, renameFrame, stepFrame } from './frames.ts';
import {
  readPresentation,
  shouldFollow,
  showFrame,
  startPresenting,
  summonEveryone,
  writePresentation,
} from './presentation.ts';
import {
  addMinute,
  formatRemaining,
  isPaused,
  pauseTimer,
  readTimer,
  remainingMs,
  resumeTimer,
  startTimer,
  writeTimer,
} from './timer.ts';
import './facilitation.css';

/** What a frame, or all of them, can be exported as (PDF: one page per frame). */
const FRAME_EXPORTS = ['pdf', 'png', 'svg'] as const;

interface Props {
  boardId: string;
  title: string;
  role: Role;
  user: User;
  session: BoardSession;
  index: ShapeIndex;
  /** Read-only right now (viewer, or the connection lost). */
  locked: boolean;
  /** This user's presence, for the laser pointer, cursor chat and reactions. */
  presence: LocalPresence;
  onMessage(sentence: string): void;
}

type Menu = 'frames' | 'present' | 'reactions' | 'timer' | 'vote' | null;

/** A facilitation bar button that opens and closes one of the bar's menus. */
function MenuButton(props: {
  menu: Exclude<Menu, null>;
  open: Menu;
  onToggle: (menu: Menu) => void;
  label: string;
  icon: string;
  /** The label shown beside the icon, when shorter than the accessible name. */
  short?: string;
  title?: string;
  /** Also shown active while its menu is closed (a presentation or a vote under way). */
  active?: boolean;
}) {
  const expanded = props.open === props.menu;
  return (
    <button
      type="button"
      className={`tool ${expanded || props.active ? 'active' : ''}`}
      aria-label={props.label}
      title={props.title ?? props.label}
      aria-expanded={expanded}
      onClick={() => props.onToggle(props.menu)}
    >
      <span aria-hidden="true">{props.icon}</span>
      <span className="label">{props.short ?? props.label}</span>
    </button>
  );
}

const isTyping = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement &&
  (t.isContentEditable || t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT');

/** A value read from the document's `meta` map, re-read on every change to it. */
function useMeta<T>(doc: Y.Doc, read: (doc: Y.Doc) => T): T {
  const [value, setValue] = useState(() => read(doc));
  useEffect(() => {
    const meta = metaOf(doc);
    const update = () => setValue(read(doc));
    meta.observe(update);
    update();
    return () => meta.unobserve(update);
  }, [doc, read]);
  return value;
}

/** This browser's offset from the server's clock, measured on mount (SPEC §14). */
function useServerOffset(): number {
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    let live = true;
    void measureOffset(() => api.time().then((a) => a.now)).then((o) => {
      if (live && o) setOffset(o.offsetMs);
    });
    return () => {
      live = false;
    };
  }, []);
  return offset;
}

function useShapes(index: ShapeIndex) {
  return useSyncExternalStore(index.subscribe, index.getSnapshot);
}

export function Facilitation(props: Props) {
  const { session, index, user, role, locked } = props;
  const canEdit = role !== 'viewer' && !locked;
  const [menu, setMenu] = useState<Menu>(null);
  const toggle = (m: Menu) => setMenu((open) => (open === m ? null : m));
  const timer = useMeta(session.doc, readTimer);
  const presentation = useMeta(session.doc, readPresentation);
  const offset = useServerOffset();
  const votes = useVotes(props.boardId, props.onMessage);
  const tool = useEditor((s) => s.tool);
  const sender = useMemo(() => new EphemeralSender(props.presence), [props.presence]);
  useEffect(() => () => sender.stop(), [sender]);
  const me = useMemo(() => ({ name: user.name, color: user.color }), [user.name, user.color]);

  const addFrame = useCallback(() => {
    if (!canEdit) return;
    const st = useEditor.getState();
    const snap = index.getSnapshot();
    const chosen = st.selection.map((id) => snap.byId.get(id)).filter((s): s is ShapeRecord => !!s);
    const around = unionRect(chosen.map(boundsOf));
    const view = visibleRect(st.viewport, st.screen);
    const box = around
      ? { x: around.x - 40, y: around.y - 40, w: around.w + 80, h: around.h + 80 }
      : {
          x: view.x + view.w / 2 - Math.min(800, view.w * 0.6) / 2,
          y: view.y + view.h / 2 - Math.min(500, view.h * 0.6) / 2,
          w: Math.min(800, view.w * 0.6),
          h: Math.min(500, view.h * 0.6),
        };
    const id = createFrame(session.doc, box, user.id);
    st.select([id]);
  }, [canEdit, index, session, user.id]);

  // F: a frame; `/`: a cursor chat bubble; Escape closes a menu. (L, the laser pointer, is a tool
  // key in tools/keyboard.ts.)
  useEffect(() => {
    const down = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.target instanceof Element && e.target.closest('dialog, [role="alertdialog"]')) return;
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
    window.addEventListener('keydown', down);
    return () => window.removeEventListener('keydown', down);
  }, [addFrame, canEdit, sender]);

  return (
    <>
      <div className="panel facilitation-bar" role="toolbar" aria-label="Facilitation">
        {canEdit && (
          <button type="button" className="tool" aria-label="Frame" title="Frame (F)" onClick={addFrame}>
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
      <TimerDisplay timer={timer} offset={offset} />
      <PresentationFollow {...props} presentation={presentation} />
      <VoteOverlay {...props} canEdit={canEdit} votes={votes} />
      <FrameNameEditor {...props} canEdit={canEdit} />
      <EphemeralLayer awareness={session.awareness} sender={sender} me={me} />
    </>
  );
}

// --- frames -------------------------------------------------------------------------------------

/** The shapes of a frame in paint order: the frame, then what lies inside it. */
function frameContents(frame: ShapeRecord, snap: ReturnType<ShapeIndex['getSnapshot']>): ShapeRecord[] {
  const all = snap.list.map((e) => e.rec);
  const members = new Set(frameMembers(frame, all));
  return [frame, ...all.filter((s) => members.has(s.id))];
}

async function frameImage(boardId: string, frame: ShapeRecord, snap: ReturnType<ShapeIndex['getSnapshot']>) {
  const list = frameContents(frame, snap);
  return toSvg(list, snap.byId, 32, await imagesOf(boardId, list));
}

const blobToDataUrl = (blob: Blob): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });

/** One PDF page per frame, each the frame's own size (jsPDF, loaded only when asked for). */
async function framesPdf(
  boardId: string,
  frames: ShapeRecord[],
  snap: ReturnType<ShapeIndex['getSnapshot']>,
) {
  const { jsPDF } = await import('jspdf');
  let pdf: InstanceType<typeof jsPDF> | null = null;
  for (const frame of frames) {
    const { svg, width, height } = await frameImage(boardId, frame, snap);
    const png = await blobToDataUrl(await svgToPng(svg, width, height));
    const orientation = width >= height ? 'landscape' : 'portrait';
    if (!pdf) pdf = new jsPDF({ orientation, unit: 'px', format: [width, height], hotfixes: ['px_scaling'] });
    else pdf.addPage([width, height], orientation);
    pdf.addImage(png, 'PNG', 0, 0, width, height);
  }
  return pdf?.output('blob') ?? null;
}

function FramesMenu(props: Props & { canEdit: boolean }) {
  const { index, session, boardId, title, onMessage, canEdit } = props;
  const snap = useShapes(index);
  const frames = framesInOrder(snap.list.map((e) => e.rec));
  const [busy, setBusy] = useState(false);
  const go = (f: ShapeRecord) => {
    const st = useEditor.getState();
    st.setViewport(fitRect(boundsOf(f), st.screen));
  };
  const exportFrames = async (list: ShapeRecord[], kind: 'png' | 'svg' | 'pdf') => {
    if (list.length === 0)
      return onMessage(`There are no frames yet. ${touchLayout() ? 'Tap Frame' : 'Press F'} to make one.`);
    setBusy(true);
    try {
      const base = safeName(title);
      if (kind === 'pdf') {
        const blob = await framesPdf(boardId, list, snap);
        if (blob)
          download(
            `${base}${list.length === 1 ? `-${safeName(list[0]?.name ?? 'frame')}` : '-frames'}.pdf`,
            blob,
          );
        return;
      }
      for (const f of list) {
        const { svg, width, height } = await frameImage(boardId, f, snap);
        const name = `${base}-${safeName(f.name || 'frame')}`;
        if (kind === 'svg') download(`${name}.svg`, new Blob([svg], { type: 'image/svg+xml' }));
        else download(`${name}.png`, await svgToPng(svg, width, height));
      }
    } catch (error) {
      onMessage(`The export failed: ${errorSentence(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel facilitation-menu" aria-label="Frames list">
      <h2>Frames</h2>
      {frames.length === 0 && (
        <p className="hint">
          No frames yet. {canEdit ? `${touchLayout() ? 'Tap Frame' : 'Press F'} to make one.` : ''}
        </p>
      )}
      <ol className="frames-list">
        {frames.map((f) => (
          <li key={f.id}>
            {canEdit ? (
              <input
                aria-label="Frame name"
                value={f.name ?? ''}
                maxLength={200}
                onChange={(e) => renameFrame(session.doc, f.id, e.target.value)}
              />
            ) : (
              <span>{f.name}</span>
            )}
            <button type="button" className="btn small" aria-label={`Go to ${f.name}`} onClick={() => go(f)}>
              Go to
            </button>
            {FRAME_EXPORTS.map((kind) => (
              <button
                key={kind}
                type="button"
                className="btn small ghost"
                disabled={busy}
                aria-label={`Export ${f.name} as ${kind.toUpperCase()}`}
                onClick={() => void exportFrames([f], kind)}
              >
                {kind.toUpperCase()}
              </button>
            ))}
          </li>
        ))}
      </ol>
      {frames.length > 0 && (
        <div className="row">
          <span>All frames:</span>
          <button
            type="button"
            className="btn small"
            disabled={busy}
            onClick={() => void exportFrames(frames, 'pdf')}
          >
            Export all frames as PDF
          </button>
          {FRAME_EXPORTS.filter((kind) => kind !== 'pdf').map((kind) => (
            <button
              key={kind}
              type="button"
              className="btn small ghost"
              disabled={busy}
              aria-label={`Export all frames as ${kind.toUpperCase()}`}
              onClick={() => void exportFrames(frames, kind)}
            >
              {kind.toUpperCase()}
            </button>
          ))}
        </div>
      )}
    </section>
  );
}

/** Double-click a frame: its name, edited in place above it (the Y.Text, so edits merge). */
function FrameNameEditor({ index, session, canEdit }: Props & { canEdit: boolean }) {
  const editingId = useEditor((s) => s.editingId);
  const viewport = useEditor((s) => s.viewport);
  const screen = useEditor((s) => s.screen);
  const snap = useShapes(index);
  const frame = editingId ? snap.byId.get(editingId) : undefined;
  if (!canEdit || !frame || frame.type !== 'frame') return null;
  const at = toScreen(viewport, screen, frame.x, frame.y);
  return (
    <input
      className="frame-name-editor"
      aria-label="Frame name"
      style={{ left: at.x, top: at.y - 34 }}
      // biome-ignore lint/a11y/noAutofocus: editing starts where the user double-clicked.
      autoFocus
      value={frame.name ?? ''}
      maxLength={200}
      onChange={(e) => renameFrame(session.doc, frame.id, e.target.value)}
      onBlur={() => useEditor.getState().setEditing(null)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === 'Escape') useEditor.getState().setEditing(null);
      }}
    />
  );
}

// --- presenting ---------------------------------------------------------------------------------

function PresentMenu(props: Props & { presentation: PresentationState | null; onClose(): void }) {
  const { presentation, session, user, index, locked, role } = props;
  const snap = useShapes(index);
  const frames = framesInOrder(snap.list.map((e) => e.rec));
  const mine = presentation?.presenterId === user.id;
  const canPresent = role !== 'viewer' && !locked;
  const show = (frameId: string | null) => {
    const f = frameId ? snap.byId.get(frameId) : undefined;
    if (f) {
      const st = useEditor.getState();
      st.setViewport(fitRect(boundsOf(f), st.screen));
    }
  };
  return (
    <section className="panel facilitation-menu" aria-label="Presenting">
      <h2>Present</h2>
      {!presentation && canPresent && (
        <button
          type="button"
          className="btn primary"
          onClick={() => {
            const first = frames[0]?.id ?? null;
            writePresentation(session.doc, startPresenting(user.id, first));
            show(first);
            props.onClose();
          }}
        >
          Start presenting
        </button>
      )}
      {!presentation && !canPresent && <p className="hint">Nobody is presenting.</p>}
      {presentation && !mine && <p className="hint">Someone is presenting. Move the view to look around.</p>}
      {presentation && mine && (
        <>
          <p className="hint">Use the arrow keys to step through the frames.</p>
          <div className="row">
            <button type="button" className="btn small" onClick={() => stepTo(-1)}>
              Previous frame
            </button>
            <button type="button" className="btn small" onClick={() => stepTo(1)}>
              Next frame
            </button>
          </div>
        </>
      )}
      {presentation && canPresent && (
        <button
          type="button"
          className="btn small ghost"
          onClick={() => writePresentation(session.doc, null)}
        >
          Stop presenting
        </button>
      )}
    </section>
  );
  function stepTo(step: 1 | -1) {
    if (!presentation) return;
    const next = stepFrame(frames, presentation.frameId, step);
    writePresentation(session.doc, showFrame(presentation, next));
    show(next);
  }
}

/**
 * Everyone but the presenter follows the presenter's viewport (the avatars' follow mechanism),
 * until they move the view themselves; "Follow again" and "Bring everyone here" re-follow. The
 * presenter steps through the frames with the arrow keys and can bring everyone along.
 */
function PresentationFollow(props: Props & { presentation: PresentationState | null }) {
  const { presentation, session, user, index } = props;
  const remotes = useRemotes(session.awareness);
  const followId = useEditor((s) => s.followClientId);
  const previous = useRef<PresentationState | null>(null);
  const wantFollow = useRef(false);
  const presenter = presentation
    ? (remotes.find((r) => r.state.user.id === presentation.presenterId && !r.state.idle) ??
      remotes.find((r) => r.state.user.id === presentation.presenterId))
    : undefined;
  const mine = presentation?.presenterId === user.id;

  useEffect(() => {
    if (shouldFollow(previous.current, presentation, user.id)) wantFollow.current = true;
    if (!presentation) {
      wantFollow.current = false;
      if (previous.current && previous.current.presenterId !== user.id) useEditor.getState().follow(null);
    }
    previous.current = presentation;
  }, [presentation, user.id]);
  useEffect(() => {
    if (wantFollow.current && presenter) {
      wantFollow.current = false;
      useEditor.getState().follow(presenter.clientId);
    }
  });

  // The presenter's arrow keys step through the frames; captured before the editor's own keys,
  // which would move the selection.
  useEffect(() => {
    if (!mine || !presentation) return;
    const down = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const step =
        e.key === 'ArrowRight' || e.key === 'ArrowDown'
          ? 1
          : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
            ? -1
            : 0;
      if (step === 0) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      const frames = framesInOrder(index.getSnapshot().list.map((x) => x.rec));
      const next = stepFrame(frames, presentation.frameId, step);
      writePresentation(session.doc, showFrame(presentation, next));
      const f = next ? index.getSnapshot().byId.get(next) : undefined;
      if (f) {
        const st = useEditor.getState();
        st.setViewport(fitRect(boundsOf(f), st.screen));
      }
    };
    window.addEventListener('keydown', down, true);
    return () => window.removeEventListener('keydown', down, true);
  }, [mine, presentation, index, session]);

  if (!presentation) return null;
  if (mine) {
    return (
      <div className="panel presenting-chip" role="status">
        <span>You are presenting</span>
        <button
          type="button"
          className="btn small primary"
          onClick={() => writePresentation(session.doc, summonEveryone(presentation))}
        >
          Bring everyone here
        </button>
        <button
          type="button"
          className="btn small ghost"
          onClick={() => writePresentation(session.doc, null)}
        >
          Stop
        </button>
      </div>
    );
  }
  const following = presenter !== undefined && followId === presenter.clientId;
  return (
    <div className="panel presenting-chip" role="status">
      <span>{presenter ? `${presenter.state.user.name} is presenting` : 'A presentation is on'}</span>
      {!following && presenter && (
        <button
          type="button"
          className="btn small primary"
          onClick={() => useEditor.getState().follow(presenter.clientId)}
        >
          Follow again
        </button>
      )}
    </div>
  );
}

// --- timer --------------------------------------------------------------------------------------

const MUTE_KEY = 'tandem:timer-muted';

function softChime(): void {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = 'sine';
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.08, audio.currentTime + 0.05);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.9);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 1);
    tone.onended = () => void audio.close();
  } catch {
    // No audio here (autoplay policy, no device): the flash still shows.
  }
}

function TimerMenu(props: Props & { canEdit: boolean; timer: TimerState | null; offset: number }) {
  const { canEdit, timer, offset, session, user } = props;
  const serverNow = () => Date.now() + offset;
  const [muted, setMuted] = useState(() => localStorage.getItem(MUTE_KEY) === '1');
  const set = (next: TimerState | null) => writeTimer(session.doc, next);
  return (
    <section className="panel facilitation-menu" aria-label="Timer controls">
      <h2>Timer</h2>
      {canEdit && !timer && (
        <div className="row wrap">
          {timerPresetsMs.map((ms) => (
            <button
              key={ms}
              type="button"
              className="btn small"
              onClick={() => set(startTimer(ms, serverNow(), user.id))}
            >
              Start {ms / 60_000} min
            </button>
          ))}
        </div>
      )}
      {canEdit && timer && (
        <div className="row wrap">
          {isPaused(timer) ? (
            <button type="button" className="btn small" onClick={() => set(resumeTimer(timer, serverNow()))}>
              Resume
            </button>
          ) : (
            <button type="button" className="btn small" onClick={() => set(pauseTimer(timer, serverNow()))}>
              Pause
            </button>
          )}
          <button type="button" className="btn small" onClick={() => set(addMinute(timer, serverNow()))}>
            +1 min
          </button>
          <button type="button" className="btn small ghost" onClick={() => set(null)}>
            Stop timer
          </button>
        </div>
      )}
      {!canEdit && <p className="hint">Owners and editors run the timer.</p>}
      <label className="row">
        <input
          type="checkbox"
          checked={muted}
          onChange={(e) => {
            setMuted(e.target.checked);
            localStorage.setItem(MUTE_KEY, e.target.checked ? '1' : '0');
          }}
        />
        Mute the sound at zero
      </label>
    </section>
  );
}

/** The countdown everyone sees, corrected for this browser's clock offset. */
function TimerDisplay({ timer, offset }: { timer: TimerState | null; offset: number }) {
  const [, tick] = useState(0);
  const [flash, setFlash] = useState(false);
  const last = useRef<number | null>(null);
  useEffect(() => {
    if (!timer) {
      last.current = null;
      return;
    }
    const id = setInterval(() => tick((n) => n + 1), 100);
    return () => clearInterval(id);
  }, [timer]);
  const left = timer ? remainingMs(timer, Date.now() + offset) : null;
  useEffect(() => {
    if (left === null) return;
    // Zero reached while watching (not a timer that had already run out on load).
    if (left === 0 && last.current !== null && last.current > 0) {
      setFlash(true);
      setTimeout(() => setFlash(false), 3000);
      if (localStorage.getItem(MUTE_KEY) !== '1') softChime();
    }
    last.current = left;
  }, [left]);
  if (!timer || left === null) return null;
  return (
    <div
      className={`panel timer-display ${flash ? 'flash' : ''} ${left === 0 ? 'done' : ''}`}
      role="timer"
      aria-label="Time left"
      data-remaining-ms={Math.round(left)}
    >
      {formatRemaining(left)}
      {isPaused(timer) && <span className="paused"> paused</span>}
    </div>
  );
}

// --- voting -------------------------------------------------------------------------------------

interface Votes {
  current: VotesCurrentAnswer | null;
  refresh(): Promise<void>;
  set(answer: VotesCurrentAnswer): void;
}

function useVotes(boardId: string, onMessage: (s: string) => void): Votes {
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

const votesUsed = (mine: Record<string, number>) => Object.values(mine).reduce((a, b) => a + b, 0);

function VoteMenu(props: Props & { canEdit: boolean; votes: Votes }) {
  const { canEdit, votes, boardId, user, role, onMessage, index } = props;
  const [perPerson, setPerPerson] = useState(3);
  const snap = useShapes(index);
  const cur = votes.current;
  const session = cur?.session ?? null;
  const open = session?.open === true;
  const start = async () => {
    try {
      await api.startVote(boardId, perPerson);
      await votes.refresh();
    } catch (error) {
      onMessage(errorSentence(error));
    }
  };
  const end = async () => {
    if (!session) return;
    try {
      await api.closeVote(boardId, session.id);
      await votes.refresh();
    } catch (error) {
      onMessage(errorSentence(error));
    }
  };
  const canEnd = open && session && (session.startedBy === user.id || role === 'owner');
  return (
    <section className="panel facilitation-menu" aria-label="Voting">
      <h2>Vote</h2>
      {!open && canEdit && (
        <div className="row">
          <label>
            Votes per person{' '}
            <input
              type="number"
              min={1}
              max={99}
              value={perPerson}
              onChange={(e) => setPerPerson(Math.max(1, Math.min(99, Number(e.target.value) || 1)))}
            />
          </label>
          <button type="button" className="btn small primary" onClick={() => void start()}>
            Start vote
          </button>
        </div>
      )}
      {open && session && (
        <>
          {canEdit ? (
            <p className="votes-left" aria-live="polite">
              {session.votesPerPerson - votesUsed(cur?.myVotes ?? {})} votes left
            </p>
          ) : (
            <p className="hint">A vote is running. Viewers watch; owners and editors vote.</p>
          )}
          <p className="hint">
            {cur?.voters ?? 0} {cur?.voters === 1 ? 'person has' : 'people have'} voted. Click a sticky to
            give it a vote; right-click takes one back.
          </p>
          {canEnd && (
            <button type="button" className="btn small" onClick={() => void end()}>
              End vote
            </button>
          )}
        </>
      )}
      {!open && !canEdit && !cur?.results && <p className="hint">No vote is running.</p>}
      {!open && cur?.results && <Results results={cur.results} snap={snap} />}
    </section>
  );
}

function Results({
  results,
  snap,
}: {
  results: NonNullable<VotesCurrentAnswer['results']>;
  snap: ReturnType<ShapeIndex['getSnapshot']>;
}) {
  return (
    <section aria-label="Vote results">
      <h3>Results, most-voted first</h3>
      {results.length === 0 && <p className="hint">Nobody voted.</p>}
      <ol className="vote-results">
        {results.map((r) => {
          const s = snap.byId.get(r.shapeId);
          return (
            <li key={r.shapeId}>
              <span className="result-votes">{r.votes}</span>{' '}
              <span className="result-text">{s ? s.text || '(empty sticky)' : '(deleted)'}</span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/**
 * While a vote is open, each sticky in view is a button: a click gives it one of my votes, a
 * right-click takes one back, and my dots show on it. Once closed, each sticky shows its total.
 * Votes go to the server only (never into the Yjs document).
 */
function VoteOverlay(props: Props & { canEdit: boolean; votes: Votes }) {
  const { votes, index, boardId, canEdit, onMessage } = props;
  const viewport = useEditor((s) => s.viewport);
  const screen = useEditor((s) => s.screen);
  const snap = useShapes(index);
  const cur = votes.current;
  const session = cur?.session;
  if (!cur || !session) return null;
  const open = session.open;
  const totals = new Map((cur.results ?? []).map((r) => [r.shapeId, r.votes]));
  if (!open && totals.size === 0) return null;
  const view = visibleRect(viewport, screen);
  const stickies = snap.list
    .map((e) => e.rec)
    .filter(
      (s) =>
        s.type === 'sticky' &&
        s.x + s.w >= view.x &&
        s.x <= view.x + view.w &&
        s.y + s.h >= view.y &&
        s.y <= view.y + view.h,
    );
  const mine = cur.myVotes;
  const left = session.votesPerPerson - votesUsed(mine);
  const place = async (shapeId: string, delta: 1 | -1) => {
    const next = { ...mine, [shapeId]: Math.max(0, (mine[shapeId] ?? 0) + delta) };
    if (next[shapeId] === 0) delete next[shapeId];
    if (delta === 1 && left <= 0)
      return onMessage('You have used all your votes. Right-click a sticky to take one back.');
    votes.set({ ...cur, myVotes: next });
    try {
      await api.castBallot(boardId, session.id, next);
    } catch (error) {
      onMessage(errorSentence(error));
    }
    await votes.refresh();
  };
  return (
    <div className="vote-overlay">
      {stickies.map((s) => {
        const a = toScreen(viewport, screen, s.x, s.y);
        const style = { left: a.x, top: a.y, width: s.w * viewport.zoom, height: s.h * viewport.zoom };
        const label = (s.text || 'sticky').slice(0, 40);
        if (!open) {
          const n = totals.get(s.id) ?? 0;
          return (
            <div key={s.id} className="vote-spot closed" style={style}>
              <span className="vote-total" data-shape-id={s.id} title={`${n} votes for ${label}`}>
                {n}
              </span>
            </div>
          );
        }
        const n = mine[s.id] ?? 0;
        const dots = (
          <span className="vote-dots" data-shape-id={s.id} data-my-votes={n} aria-hidden="true">
            {'●'.repeat(Math.min(n, 12))}
          </span>
        );
        if (!canEdit) return null;
        return (
          <button
            key={s.id}
            type="button"
            className="vote-spot"
            style={style}
            aria-label={`Vote for ${label} (${n} of my votes)`}
            onClick={() => void place(s.id, 1)}
            onContextMenu={(e) => {
              e.preventDefault();
              if (n > 0) void place(s.id, -1);
            }}
          >
            {dots}
          </button>
        );
      })}
    </div>
  );
}
