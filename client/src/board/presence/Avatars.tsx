// Everyone on the board: click an avatar to follow that person's viewport; idle people are
// dimmed, viewers carry an eye badge.
import { colorNames, colors, type PresenceUser } from '@tandem/shared';
import { useCallback, useRef, useState } from 'react';
import type { Awareness } from 'y-protocols/awareness';
import { useEditor } from '../store.ts';
import { Icon } from '../ui/icons.tsx';
import { useMenuDismiss } from '../ui/useMenuDismiss.ts';
import { useAnonymousViewers, useRemotes } from './remote.ts';
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
  return (
    <div className="avatars" role="toolbar" aria-label="People on this board">
      {/* The others scroll sideways when the top bar has no room for them all (editor.css); this
          person's own avatar stays outside, so its colour menu is not cut off by the scrolling. */}
      <span className="avatars-others">
        {people.map(({ clientId, state }) => {
          // Read-only people (viewers, and commenters: they comment but do not edit) carry the eye.
          const viewer = state.role === 'viewer' || state.role === 'commenter';
          const label = `${state.user.name}${viewer ? ` (${state.role})` : ''}${state.idle ? ' (idle)' : ''}`;
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
      </span>
      <ColorMenu me={me} onPick={onPickColor} />
    </div>
  );
}

/** This person's own avatar: a menu of the palette's colours to show themselves in. */
function ColorMenu({ me, onPick }: { me: PresenceUser; onPick(color: string): void }) {
  const [open, setOpen] = useState(false);
  const wrap = useRef<HTMLSpanElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useMenuDismiss(open, wrap, close);
  return (
    <span className="avatar-me menu-wrap" ref={wrap}>
      <button
        type="button"
        className="avatar-btn"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`${me.name} (you): your colour`}
        title={`${me.name} (you): pick your colour`}
        onClick={() => setOpen(!open)}
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
