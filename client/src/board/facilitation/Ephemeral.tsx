// What the laser pointer, cursor chat and reactions look like (docs/api.md §14): everyone's fading laser
// trails, chat bubbles at the cursors, reactions floating up from them, my own bubble's field and
// the reaction picker. Drawn in screen space over the canvas, like the cursors.
import { MAX_CHAT_CHARS, type PresenceState } from '@tandem/shared';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Awareness } from 'y-protocols/awareness';
import { isLight } from '../presence/Avatars.tsx';
import { useRemotes } from '../presence/remote.ts';
import { toScreen, useEditor, type Viewport } from '../store.ts';
import {
  type LaserPoint,
  newReactions,
  REACTION_FLOAT_MS,
  REACTIONS,
  trailSegments,
  trailTip,
} from './ephemeral.ts';
import type { EphemeralSender } from './ephemeralSender.ts';

type Point = { x: number; y: number };
interface Float {
  id: number;
  emoji: string;
  from: string;
  at: Point;
}
interface Trail {
  key: number;
  name: string;
  color: string;
  points: LaserPoint[];
  receivedAt: number;
}

const ME = -1;
let floatIds = 0;

/** Where someone's bubble or reaction goes: their cursor, else where it last was, else the middle of their view. */
function anchorOf(state: PresenceState, last: Point | undefined): Point {
  return state.cursor ?? last ?? { x: state.viewport.x, y: state.viewport.y };
}

export function EphemeralLayer({
  awareness,
  sender,
  me,
}: {
  awareness: Awareness;
  sender: EphemeralSender;
  me: { name: string; color: string };
}) {
  const remotes = useRemotes(awareness);
  const own = useSyncExternalStore(sender.subscribe, sender.getSnapshot);
  const viewport = useEditor((s) => s.viewport);
  const screen = useEditor((s) => s.screen);
  const lastCursor = useRef(new Map<number, Point>());
  const received = useRef(new Map<number, { newest: number; receivedAt: number }>());
  const seenReactions = useRef(new Map<number, number>());
  const [floats, setFloats] = useState<Float[]>([]);
  const [, setFrame] = useState(0);

  for (const r of remotes) if (r.state.cursor) lastCursor.current.set(r.clientId, r.state.cursor);
  const ownAnchor = own.pointer ?? { x: viewport.x, y: viewport.y };
  const ownAnchorRef = useRef(ownAnchor);
  ownAnchorRef.current = ownAnchor;

  // Laser trails, each aged from when its newest point arrived here (never the sender's clock).
  const now = performance.now();
  const trails: Trail[] = [];
  const live = new Set<number>();
  for (const r of remotes) {
    const points = r.state.laser?.points;
    if (!points || points.length === 0) continue;
    live.add(r.clientId);
    const newest = Math.max(...points.map((p) => p[2]));
    const prev = received.current.get(r.clientId);
    const receivedAt = prev && prev.newest === newest ? prev.receivedAt : now;
    received.current.set(r.clientId, { newest, receivedAt });
    trails.push({ key: r.clientId, name: r.state.user.name, color: r.state.user.color, points, receivedAt });
  }
  for (const id of [...received.current.keys()]) if (!live.has(id)) received.current.delete(id);
  if (own.trail) trails.push({ key: ME, name: me.name, color: me.color, ...own.trail });
  const showing = trails.some((t) => trailTip(t.points, t.receivedAt, now) !== null);

  // Keep fading while a trail shows.
  useEffect(() => {
    if (!showing) return;
    const id = requestAnimationFrame(() => setFrame((n) => n + 1));
    return () => cancelAnimationFrame(id);
  });

  // New reactions float up from the sender's cursor, mine too.
  useEffect(() => {
    const fresh = newReactions(seenReactions.current, [
      ...remotes.map((r) => ({ key: r.clientId, reaction: r.state.reaction })),
      { key: ME, reaction: own.reaction },
    ]);
    if (fresh.length === 0) return;
    const added = fresh.map(({ key, emoji }): Float => {
      const them = remotes.find((r) => r.clientId === key);
      return {
        id: ++floatIds,
        emoji,
        from: them ? them.state.user.name : me.name,
        at: them ? anchorOf(them.state, lastCursor.current.get(key)) : ownAnchorRef.current,
      };
    });
    setFloats((list) => [...list, ...added]);
    const ids = new Set(added.map((f) => f.id));
    setTimeout(() => setFloats((list) => list.filter((f) => !ids.has(f.id))), REACTION_FLOAT_MS);
  }, [remotes, own.reaction, me.name]);

  const at = (p: Point) => toScreen(viewport, screen, p.x, p.y);
  return (
    <>
      <div className="ephemeral" aria-hidden="true">
        <svg className="laser-layer" width={screen.w} height={screen.h} aria-hidden="true">
          {trails.map((t) => (
            <LaserTrail key={t.key} trail={t} now={now} viewport={viewport} screen={screen} />
          ))}
        </svg>
        {remotes.map(({ clientId, state }) => {
          if (typeof state.chat !== 'string') return null;
          const p = at(anchorOf(state, lastCursor.current.get(clientId)));
          return (
            <Bubble key={clientId} p={p} from={state.user.name} color={state.user.color}>
              {state.chat || '…'}
            </Bubble>
          );
        })}
        {own.chat && !own.chat.open && (
          <Bubble p={at(ownAnchor)} from={me.name} color={me.color}>
            {own.chat.text}
          </Bubble>
        )}
        {floats.map((f) => {
          const p = at(f.at);
          return (
            <span
              key={f.id}
              className="reaction-float"
              data-reaction-from={f.from}
              style={{ left: p.x, top: p.y, animationDuration: `${REACTION_FLOAT_MS}ms` }}
            >
              {f.emoji}
            </span>
          );
        })}
      </div>
      {own.chat?.open && (
        <ChatField sender={sender} text={own.chat.text} p={at(ownAnchor)} color={me.color} />
      )}
    </>
  );
}

function LaserTrail({
  trail,
  now,
  viewport,
  screen,
}: {
  trail: Trail;
  now: number;
  viewport: Viewport;
  screen: { w: number; h: number };
}) {
  const segments = trailSegments(trail.points, trail.receivedAt, now);
  const tip = trailTip(trail.points, trail.receivedAt, now);
  if (!tip) return null;
  const s = (p: Point) => toScreen(viewport, screen, p.x, p.y);
  const t = s(tip);
  return (
    <g className="laser-trail" data-laser-from={trail.name} data-segments={segments.length}>
      {segments.map((seg, i) => {
        const a = s(seg.from);
        const b = s(seg.to);
        return (
          <line
            // biome-ignore lint/suspicious/noArrayIndexKey: segments have no identity beyond their order.
            key={i}
            x1={a.x}
            y1={a.y}
            x2={b.x}
            y2={b.y}
            stroke="#ff2d2d"
            strokeOpacity={0.85 * seg.strength}
            strokeWidth={1.5 + 4.5 * seg.strength}
            strokeLinecap="round"
          />
        );
      })}
      <circle cx={t.x} cy={t.y} r={5} fill="#ff2d2d" fillOpacity={tip.strength} stroke={trail.color} />
    </g>
  );
}

function Bubble({
  p,
  from,
  color,
  children,
}: {
  p: Point;
  from: string;
  color: string;
  children: React.ReactNode;
}) {
  return (
    <div
      className="cursor-chat"
      data-chat-from={from}
      style={{
        transform: `translate(${p.x + 14}px, ${p.y + 18}px)`,
        background: color,
        color: isLight(color) ? '#1f2328' : '#ffffff',
      }}
    >
      {children}
    </div>
  );
}

/** My bubble while I type in it: Enter keeps it up for a few seconds, Escape closes it. */
function ChatField({
  sender,
  text,
  p,
  color,
}: {
  sender: EphemeralSender;
  text: string;
  p: Point;
  color: string;
}) {
  const backToCanvas = () =>
    document.querySelector<HTMLElement>('[role="application"][aria-label="Board canvas"]')?.focus({
      preventScroll: true,
    });
  return (
    <input
      className="cursor-chat cursor-chat-field"
      aria-label="Cursor chat message"
      placeholder="Say something"
      maxLength={MAX_CHAT_CHARS}
      style={{
        transform: `translate(${p.x + 14}px, ${p.y + 18}px)`,
        borderColor: color,
      }}
      // biome-ignore lint/a11y/noAutofocus: `/` opens the bubble to type in it at once.
      autoFocus
      value={text}
      onChange={(e) => sender.typeChat(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          sender.sendChat();
          backToCanvas();
        } else if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          sender.closeChat();
          backToCanvas();
        }
      }}
      onBlur={() => sender.sendChat()}
    />
  );
}

/** The "Reactions" menu: a few emoji, and the cursor chat for those without a `/` key. */
export function ReactionPicker({ sender, onChat }: { sender: EphemeralSender; onChat(): void }) {
  return (
    <section className="panel facilitation-menu reaction-picker" aria-label="Pick a reaction">
      <div className="row wrap">
        {REACTIONS.map((r) => (
          <button
            key={r.name}
            type="button"
            className="tool reaction-choice"
            aria-label={r.name}
            title={r.name}
            onClick={() => sender.react(r.emoji)}
          >
            {r.emoji}
          </button>
        ))}
      </div>
      <button type="button" className="btn small ghost" onClick={onChat}>
        Chat at my cursor <kbd>/</kbd>
      </button>
    </section>
  );
}
