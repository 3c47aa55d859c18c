// The app's one way to ask "are you sure?" before an action: `await confirmAction({...})` answers
// true when the person pressed the action's button, false for Cancel or Escape. It replaces the
// browser's confirm(), which looked like no part of the app and blocked the page while it was
// open (a board froze: no live changes, no cursors, the socket's pings unanswered).
//
// One <ConfirmHost /> is rendered beside the app (main.tsx), not inside the component that asks:
// React passes a portal's events up its React parents, so a dialog rendered in, say, the History
// panel would have its Escape close that panel as well.
import { useEffect, useId, useRef } from 'react';
import { create } from 'zustand';
import { canTakeFocus } from './focusable.ts';

export interface ConfirmOptions {
  /** The question, short: "Delete board?". The dialog's accessible name. */
  title: string;
  /** The place's own sentence saying what happens. The dialog's description. */
  body: string;
  /** What the button does, as a verb: "Delete board", "Revoke", "Restore". Never "OK". */
  confirmLabel: string;
  /**
   * An action that cannot be taken back (or hurts someone else): the button is red and focus
   * starts on Cancel, so an Enter pressed out of habit does not do it.
   */
  danger?: boolean;
}

interface Asked extends ConfirmOptions {
  /** Its dialog's key: a new question mounts a new dialog (opened and focused afresh). */
  id: number;
  resolve(ok: boolean): void;
  /** What had focus when it was asked (the button pressed); focus goes back to it. */
  opener: Element | null;
}

/** The questions waiting: the first is shown; another asked meanwhile waits its turn. */
const useAsked = create<{ queue: Asked[] }>(() => ({ queue: [] }));
let asks = 0;

/** Asks the question in the app's confirmation dialog; true when the person confirmed. */
export function confirmAction(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const asked: Asked = { ...options, id: asks++, resolve, opener: document.activeElement };
    useAsked.setState((s) => ({ queue: [...s.queue, asked] }));
  });
}

/**
 * Answers every question asked and waiting with Cancel, and closes the one shown: what they were
 * asked about is out of reach (the board's access was lost), and the page that says so must not
 * sit under a question that can no longer be acted on. Focus is left where it is.
 */
export function dismissConfirms(): void {
  const { queue } = useAsked.getState();
  if (queue.length === 0) return;
  useAsked.setState({ queue: [] });
  for (const asked of queue) asked.resolve(false);
}

export function ConfirmHost() {
  const asked = useAsked((s) => s.queue[0]);
  return asked ? <ConfirmDialog key={asked.id} asked={asked} /> : null;
}

function ConfirmDialog({ asked }: { asked: Asked }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const answer = useRef(false);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    // showModal puts the dialog in the browser's top layer, above every z-index on the page
    // (menus at --z-menu 11, the access-lost overlay at --z-overlay 12, Recover at --z-recover 30)
    // and above another modal dialog already open (Share): the question is asked from any of them,
    // so it must be above them all, and a z-index could only be above the ones known today. The
    // rest of the page is inert meanwhile, but it keeps running: live changes still draw.
    dialog.current?.showModal();
    (asked.danger ? cancel : confirm).current?.focus();
  }, [asked]);
  // Escape (the dialog's cancel), Cancel and the action's button all end here, through close().
  const closed = () => {
    const { opener, resolve } = asked;
    useAsked.setState((s) => ({ queue: s.queue.filter((a) => a !== asked) }));
    if (canTakeFocus(opener)) opener.focus();
    resolve(answer.current);
  };
  const answerWith = (ok: boolean) => {
    answer.current = ok;
    dialog.current?.close();
  };
  return (
    <dialog
      ref={dialog}
      className="dialog confirm-dialog"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onClose={closed}
      onKeyDown={(e) => {
        // The dialog's keys are its own: the board's shortcuts (Escape clears the selection,
        // Delete deletes it) must not see them.
        e.stopPropagation();
        if (e.key !== 'Tab') return;
        // Tab goes round its two buttons; it does not leave for the browser's own bar.
        const first = cancel.current;
        const last = confirm.current;
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last?.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first?.focus();
        } else if (!dialog.current?.contains(document.activeElement)) {
          e.preventDefault();
          first?.focus();
        }
      }}
    >
      <header>
        <h2 id={titleId}>{asked.title}</h2>
      </header>
      <section>
        <p id={bodyId}>{asked.body}</p>
        <div className="confirm-actions">
          <button ref={cancel} type="button" className="btn" onClick={() => answerWith(false)}>
            Cancel
          </button>
          <button
            ref={confirm}
            type="button"
            className={asked.danger ? 'btn primary danger' : 'btn primary'}
            onClick={() => answerWith(true)}
          >
            {asked.confirmLabel}
          </button>
        </div>
      </section>
    </dialog>
  );
}
