// The editor's messages in one stack at the bottom of the screen, newest last, none over another:
// the notices from the editor store (e.g. "Someone else deleted the note you were typing in."),
// each leaving by itself after NOTICE_MS or when dismissed, at most MAX_NOTICES of them; the
// progress of a long task; and the editor's error message (an alert).
import { type ReactNode, useEffect, useState } from 'react';
import { type NoticeItem, nextMessageOrder, useEditor } from '../store.ts';
import { Icon } from './icons.tsx';

/** How long a notice stays before it leaves by itself (it can be dismissed sooner). */
export const NOTICE_MS = 8000;

/** The one stack every message of the editor is shown in (a column, newest at the bottom). */
export function MessageStack({ children }: { children: ReactNode }) {
  return <div className="message-stack">{children}</div>;
}

/** The order a message takes in the stack: fixed when it appears, so newer ones go below. */
export function useMessageOrder(shown: unknown): number {
  const [order, setOrder] = useState(0);
  useEffect(() => {
    if (shown) setOrder(nextMessageOrder());
  }, [shown]);
  return order;
}

export function Notices() {
  const notices = useEditor((s) => s.notices);
  return notices.map((n) => <OneNotice key={n.id} notice={n} />);
}

function OneNotice({ notice }: { notice: NoticeItem }) {
  const dismiss = useEditor((s) => s.dismissNotice);
  useEffect(() => {
    const timer = setTimeout(() => dismiss(notice.id), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice.id, dismiss]);
  return (
    <div className="toast panel notice-toast" role="status" style={{ order: notice.id }}>
      <span>{notice.text}</span>
      <button type="button" className="tool" aria-label="Dismiss notice" onClick={() => dismiss(notice.id)}>
        <Icon name="close" size={16} />
      </button>
    </div>
  );
}

/** Progress of a long task (a large import arriving in pieces). */
export function Progress() {
  const p = useEditor((s) => s.progress);
  const order = useMessageOrder(p !== null);
  if (!p) return null;
  return (
    <div className="toast panel progress-toast" role="status" style={{ order }}>
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

/** The editor's error message (a failed request, the server out of reach). */
export function Alert({ message, onDismiss }: { message: string | null; onDismiss(): void }) {
  const order = useMessageOrder(message);
  if (!message) return null;
  return (
    <div className="toast panel" role="alert" style={{ order }}>
      <span>{message}</span>
      <button type="button" className="tool" aria-label="Dismiss" onClick={onDismiss}>
        <Icon name="close" size={16} />
      </button>
    </div>
  );
}
