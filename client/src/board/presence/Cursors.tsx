// Other people's cursors with their name, in screen space so they keep their size at any zoom.
import type { Awareness } from 'y-protocols/awareness';
import { toScreen, useEditor } from '../store.ts';
import { isLight } from './Avatars.tsx';
import { presenceOutline } from './contrast.ts';
import { useRemotes } from './remote.ts';

export function Cursors({ awareness }: { awareness: Awareness }) {
  const remotes = useRemotes(awareness);
  const viewport = useEditor((s) => s.viewport);
  const screen = useEditor((s) => s.screen);
  return (
    <div className="cursors" aria-hidden="true">
      {remotes.map(({ clientId, state }) => {
        if (!state.cursor) return null;
        const p = toScreen(viewport, screen, state.cursor.x, state.cursor.y);
        if (p.x < -50 || p.y < -50 || p.x > screen.w + 50 || p.y > screen.h + 50) return null;
        return (
          <div
            key={clientId}
            className={`cursor ${state.idle ? 'idle' : ''}`}
            data-cursor-name={state.user.name}
            style={{ transform: `translate(${p.x}px, ${p.y}px)` }}
          >
            <svg width="18" height="20" viewBox="0 0 18 20" aria-hidden="true">
              <path
                d="M1 1 L1 16 L5.5 12 L8.5 19 L11 18 L8 11 L14 11 Z"
                fill={state.user.color}
                // An outline that shows on every note colour, so a yellow cursor is seen on a yellow note.
                stroke={presenceOutline(state.user.color)}
                strokeWidth="1.5"
                strokeLinejoin="round"
              />
            </svg>
            <span
              className="cursor-name"
              style={{
                background: state.user.color,
                color: isLight(state.user.color) ? '#1f2328' : '#ffffff',
                boxShadow: `0 0 0 1px ${presenceOutline(state.user.color)}`,
              }}
            >
              {state.user.name}
            </span>
          </div>
        );
      })}
    </div>
  );
}
