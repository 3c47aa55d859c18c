// The shared countdown on the board, with a flash and a chime at zero.
import type { TimerState } from '@tandem/shared';
import { useEffect, useRef, useState } from 'react';
import { MUTE_KEY, softChime } from './chime.ts';
import { formatRemaining, isPaused, remainingMs } from './timer.ts';

/** The countdown everyone sees, corrected for this browser's clock offset. */
export function TimerDisplay({ timer, offset }: { timer: TimerState | null; offset: number }) {
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
