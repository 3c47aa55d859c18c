// Everyone on the board: click an avatar to follow that person's viewport; idle people are
// dimmed, viewers carry an eye badge.
import { colorNames, colors, type PresenceUser } from '@tandem/shared';
import { type RefObject, useLayoutEffect, useRef, useState } from 'react';
import type { Awareness } from 'y-protocols/awareness';
import { useEditor } from '../store.ts';
import { Icon } from '../ui/icons.tsx';
import { useMenu } from '../ui/useMenuDismiss.ts';
import { type Remote, useAnonymousViewers, useRemotes } from './remote.ts';
import { useColorOf } from './shownColors.ts';
import './avatars.css';

// Words that start with a letter or digit only: "Sorter (bot)" is "S", not "S(".
const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter((w) => /^[\p{L}\p{N}]/u.test(w))
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

/** True for light colours (yellow, light grey), which need dark initials to be readable. */
export function isLight(color: string): boolean {
  const m = /^#([0-9a-f]{6})$/i.exec(color);
  if (!m) return false;
  const n = Number.parseInt(m[1]!, 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 170;
}

export function Avatar({ user, size = 32 }: { user: PresenceUser; size?: number }) {
  const color = useColorOf()(user);
  return (
    <span
      className="avatar"
      style={{
        background: color,
        color: isLight(color) ? '#1f2328' : '#ffffff',
        width: size,
        height: size,
        fontSize: size * 0.4,
      }}
      title={user.name}
    >
      {initials(user.name)}
    </span>
  );
}

export function Avatars({
  awareness,
  me,
  onPickColor,
}: {
  awareness: Awareness;
  me: PresenceUser;
  /** This person picked a colour in their avatar's menu. */
  onPickColor(color: string): void;
}) {
  const remotes = useRemotes(awareness);
  const anonymous = useAnonymousViewers(awareness);
  const following = useEditor((s) => s.followClientId);
  const follow = useEditor((s) => s.follow);
  // One avatar per person even when they have the board open in two tabs.
  const seen = new Set<string>([me.id]);
  const people = remotes.filter((r) => {
    if (seen.has(r.state.user.id)) return false;
    seen.add(r.state.user.id);
    return true;
  });
  const strip = useRef<HTMLSpanElement>(null);
  const hidden = useHiddenCount(strip, people.length);
  const labelOf = (state: Remote['state']) => {
    // Read-only people (viewers, and commenters: they comment but do not edit) carry the eye.
    const viewer = state.role === 'viewer' || state.role === 'commenter';
    return {
      viewer,
      label: `${state.user.name}${viewer ? ` (${state.role})` : ''}${state.idle ? ' (idle)' : ''}`,
    };
  };
  return (
    <div className="avatars" role="toolbar" aria-label="People on this board">
      {/* One's own avatar first, on screen and in the Tab order alike: on a phone it was shown
          first (CSS order) but reached last by Tab. Outside the others' strip, so its colour menu
          is not cut off by the strip's scrolling. */}
      <ColorMenu me={me} onPick={onPickColor} />
      {/* The others scroll sideways when the top bar has no room for them all (editor.css). */}
      <span className="avatars-others" ref={strip}>
        {people.map(({ clientId, state }) => {
          const { viewer, label } = labelOf(state);
          return (
            <button
              type="button"
              key={clientId}
              className={`avatar-btn ${state.idle ? 'idle' : ''} ${following === clientId ? 'following' : ''}`}
              style={{ ['--ring' as string]: state.user.color }}
              aria-label={`Follow ${label}`}
              aria-pressed={following === clientId}
              title={
                following === clientId ? `Following ${state.user.name}. Move to stop.` : `Follow ${label}`
              }
              onClick={() => follow(following === clientId ? null : clientId)}
            >
              <Avatar user={state.user} />
              {viewer && (
                <span className="viewer-badge" aria-hidden="true">
                  <Icon name="eye" size={11} />
                </span>
              )}
            </button>
          );
        })}
      </span>
      {hidden > 0 && (
        <EveryoneMenu
          hidden={hidden}
          face={hidden === people.length ? people[0]?.state.user : undefined}
          people={people}
          labelOf={(state) => labelOf(state).label}
          following={following}
          onFollow={(clientId) => follow(following === clientId ? null : clientId)}
        />
      )}
      {/* Outside the strip, which scrolls and on a laptop or phone may have no room at all: the
          count was cut away there while people watched. */}
      {anonymous > 0 && (
        <span
          className="anonymous-viewers"
          role="img"
          aria-label={`${anonymous} anonymous viewer${anonymous === 1 ? '' : 's'}`}
          title={`${anonymous} anonymous viewer${anonymous === 1 ? '' : 's'}, watching through a public link`}
        >
          <Icon name="eye" size={14} /> {anonymous}
        </span>
      )}
    </div>
  );
}

/**
 * How many of the strip's avatars are out of sight (the strip scrolls sideways when the top bar
 * has no room for everyone): measured on layout, on resize and on scroll.
 */
function useHiddenCount(strip: RefObject<HTMLElement | null>, people: number): number {
  const [hidden, setHidden] = useState(0);
  useLayoutEffect(() => {
    const el = strip.current;
    if (!el || people === 0) {
      setHidden(0);
      return;
    }
    const measure = () => {
      // Not drawn at all (a phone's top bar has no room for the strip, editor.css): everyone is
      // out of sight, and "+N" shows the first face.
      if (el.getClientRects().length === 0) {
        setHidden(el.querySelectorAll('.avatar-btn').length);
        return;
      }
      const box = el.getBoundingClientRect();
      let n = 0;
      for (const avatar of el.querySelectorAll('.avatar-btn')) {
        const r = avatar.getBoundingClientRect();
        // Wholly out of sight: a face cut by the strip's edge is still seen (and clicked).
        if (r.right <= box.left + 1 || r.left >= box.right - 1) n++;
      }
      setHidden(n);
    };
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(el);
    el.addEventListener('scroll', measure, { passive: true });
    return () => {
      resized.disconnect();
      el.removeEventListener('scroll', measure);
    };
  }, [strip, people]);
  return hidden;
}

/**
 * "+N" after the avatars when some are out of sight, as Miro and Google Docs show it: a menu of
 * everyone else on the board by name, each to follow as their avatar would. When the top bar has
 * no room for a single one of them (1280 px beside the tools; always on a phone), the button shows the first
 * person's face, small, and "+N" for the rest: there is always a face to say someone is here.
 */
function EveryoneMenu({
  hidden,
  face,
  people,
  labelOf,
  following,
  onFollow,
}: {
  hidden: number;
  face: PresenceUser | undefined;
  people: Remote[];
  labelOf(state: Remote['state']): string;
  following: number | null;
  onFollow(clientId: number): void;
}) {
  const { open, wrap, close, trigger } = useMenu<HTMLSpanElement>();
  const more = `${hidden} more ${hidden === 1 ? 'person' : 'people'} on this board`;
  return (
    <span className="avatars-more menu-wrap" ref={wrap}>
      <button {...trigger} className="avatars-more-btn" aria-label={more} title={`${more}: see everyone`}>
        {face ? (
          <>
            <Avatar user={face} size={26} />
            {hidden > 1 && <span className="avatars-more-count">+{hidden - 1}</span>}
          </>
        ) : (
          `+${hidden}`
        )}
      </button>
      {open && (
        <div className="menu panel people-menu" role="menu" aria-label="Everyone on this board">
          {/* Listed by name only while open: the avatars render again with every cursor move. */}
          {people
            .map((r) => ({ clientId: r.clientId, user: r.state.user, label: labelOf(r.state) }))
            .sort((a, b) => a.label.localeCompare(b.label))
            .map(({ clientId, user, label }) => (
              <button
                type="button"
                role="menuitemcheckbox"
                aria-checked={following === clientId}
                key={clientId}
                title={following === clientId ? `Stop following ${user.name}` : `Follow ${label}`}
                onClick={() => {
                  onFollow(clientId);
                  close();
                }}
              >
                <span aria-hidden="true">
                  <Avatar user={user} size={22} />
                </span>
                <span className="people-menu-name">{label}</span>
                {following === clientId && <span className="people-menu-following">Following</span>}
              </button>
            ))}
        </div>
      )}
    </span>
  );
}

/** This person's own avatar: a menu of the palette's colours to show themselves in. */
function ColorMenu({ me, onPick }: { me: PresenceUser; onPick(color: string): void }) {
  const { open, wrap, close, trigger } = useMenu<HTMLSpanElement>();
  return (
    <span className="avatar-me menu-wrap" ref={wrap}>
      <button
        {...trigger}
        className="avatar-btn"
        aria-label={`${me.name} (you): your colour`}
        title={`${me.name} (you): pick your colour`}
      >
        <Avatar user={me} />
      </button>
      {open && (
        <div className="menu panel color-menu" role="menu" aria-label="Your colour">
          <p className="color-menu-note">Others see your cursor and avatar in this colour.</p>
          <div className="color-swatches">
            {colorNames.map((name) => (
              <button
                type="button"
                key={name}
                role="menuitemradio"
                aria-checked={me.color === colors[name]}
                aria-label={`Colour ${name}`}
                title={name}
                className="color-swatch"
                style={{ background: colors[name] }}
                onClick={() => {
                  onPick(colors[name]);
                  close();
                }}
              />
            ))}
          </div>
        </div>
      )}
    </span>
  );
}
