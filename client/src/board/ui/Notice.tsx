// The editor's messages in one stack at the bottom of the screen, newest last, none over another:
// the notices from the editor store (e.g. "Someone else deleted the note you were typing in."),
// each leaving by itself after its reading time (noticeMs) or when dismissed, at most MAX_NOTICES
// of them; the progress of a long task; and the editor's error message (an alert).
import { withThousands } from '@tandem/shared';
import { type ReactNode, useEffect, useState } from 'react';
import { type NoticeItem, nextMessageOrder, noticeMs, useEditor } from '../store.ts';
import { Icon } from './icons.tsx';

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

/**
 * Calls `leave` once `text` has been shown for its reading time (noticeMs), or for `ms` when given.
 * The time is held while the pointer is on the message or its button has focus, as WCAG's "timing
 * adjustable" asks: someone reading it or reaching for Dismiss does not see it go; it starts again
 * after. Answers the handlers for the message's element.
 */
export function useLeavesByItself(text: string | null, leave: () => void, ms?: number) {
  const [held, setHeld] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `leave` is made anew on each render
  useEffect(() => {
    if (text === null || held) return;
    const timer = setTimeout(leave, ms ?? noticeMs(text));
    return () => clearTimeout(timer);
  }, [text, held, ms]);
  return {
    onPointerEnter: () => setHeld(true),
    onPointerLeave: () => setHeld(false),
    onFocus: () => setHeld(true),
    onBlur: () => setHeld(false),
  };
}

function OneNotice({ notice }: { notice: NoticeItem }) {
  const dismiss = useEditor((s) => s.dismissNotice);
  const hold = useLeavesByItself(notice.text, () => dismiss(notice.id));
  return (
    <div className="toast panel notice-toast" role="status" style={{ order: notice.id }} {...hold}>
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
        {p.label} {withThousands(p.done)} of {withThousands(p.total)}…
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
  const hold = useLeavesByItself(message, onDismiss);
  if (!message) return null;
  return (
    <div className="toast panel" role="alert" style={{ order }} {...hold}>
      <span>{message}</span>
      <button type="button" className="tool" aria-label="Dismiss" onClick={onDismiss}>
        <Icon name="close" size={16} />
      </button>
    </div>
  );
}
