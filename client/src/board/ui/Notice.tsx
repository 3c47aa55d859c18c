// A one-line notice from the editor store (e.g. "Someone else deleted the note you were typing in."),
// shown as a toast that leaves by itself after NOTICE_MS or when dismissed.
import { useEffect } from 'react';
import { useEditor } from '../store.ts';
import { Icon } from './icons.tsx';

/** How long a notice stays before it leaves by itself (it can be dismissed sooner). */
export const NOTICE_MS = 8000;

export function Notice() {
  const notice = useEditor((s) => s.notice);
  const setNotice = useEditor((s) => s.setNotice);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => {
      if (useEditor.getState().notice === notice) setNotice(null);
    }, NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice, setNotice]);
  if (!notice) return null;
  return (
    <div className="toast panel notice-toast" role="status">
      <span>{notice}</span>
      <button type="button" className="tool" aria-label="Dismiss notice" onClick={() => setNotice(null)}>
        <Icon name="close" size={16} />
      </button>
    </div>
  );
}

/** Progress of a long task (a large import arriving in pieces). */
export function Progress() {
  const p = useEditor((s) => s.progress);
  if (!p) return null;
  return (
    <div className="toast panel progress-toast" role="status">
      <span>
        {p.label} {p.done.toLocaleString('en')} of {p.total.toLocaleString('en')}…
      </span>
      <progress
        aria-label={p.label}
        max={p.total}
        value={p.done}
        aria-valuemin={0}
        aria-valuemax={p.total}
        aria-valuenow={p.done}
      />
    </div>
  );
}
