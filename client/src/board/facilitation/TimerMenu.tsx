// The Timer menu: start, pause, resume, add a minute, stop; mute the chime (docs/api.md §14).
import { type TimerState, timerPresetsMs } from '@tandem/shared';
import { useState } from 'react';
import { MUTE_KEY } from './chime.ts';
import type { FacilitationProps } from './props.ts';
import { addMinute, isPaused, pauseTimer, resumeTimer, startTimer, writeTimer } from './timer.ts';

export function TimerMenu(
  props: FacilitationProps & { canEdit: boolean; timer: TimerState | null; offset: number },
) {
  const { canEdit, timer, offset, session, boardDoc, user } = props;
  const serverNow = () => Date.now() + offset;
  const [muted, setMuted] = useState(() => localStorage.getItem(MUTE_KEY) === '1');
  const set = (next: TimerState | null) => writeTimer(boardDoc ?? session.doc, next);
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
