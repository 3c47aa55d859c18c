// A modal <dialog>: opened as it mounts, its title as its heading and accessible name, and (when
// it has one) a Close button in the header. Escape and the Close button both end in onClose.
// Focus goes back to what opened it when it goes away.
import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { canTakeFocus } from './focusable.ts';
import { Icon } from './icons.tsx';

export function ModalDialog({
  title,
  className,
  closeButton = true,
  dialogRef,
  onClose,
  children,
}: {
  title: string;
  className?: string;
  /** False for a dialog that ends only through its own buttons (or Escape). */
  closeButton?: boolean;
  /** For a dialog that closes itself, e.g. once its form is sent. */
  dialogRef?: RefObject<HTMLDialogElement | null>;
  onClose(): void;
  children: ReactNode;
}) {
  const own = useRef<HTMLDialogElement>(null);
  const dialog = dialogRef ?? own;
  useEffect(() => {
    const opener = document.activeElement;
    dialog.current?.showModal();
    return () => {
      // The dialog is unmounted as it closes (often from its own cancel event), before the
      // browser's own return of focus can run, so focus fell to the page and a keyboard user
      // started again from its top. Back to the opener, unless focus has gone somewhere on purpose.
      const lost = document.activeElement === null || document.activeElement === document.body;
      // The opener may be the board canvas (? opens Keyboard shortcuts there), an SVG element.
      if (lost && canTakeFocus(opener)) opener.focus();
    };
  }, [dialog]);
  return (
    <dialog
      ref={dialog}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-label={title}
      onClose={onClose}
      onCancel={onClose}
    >
      <header>
        <h2>{title}</h2>
        {closeButton && (
          <button type="button" className="tool" aria-label="Close" onClick={() => dialog.current?.close()}>
            <Icon name="close" />
          </button>
        )}
      </header>
      {children}
    </dialog>
  );
}
