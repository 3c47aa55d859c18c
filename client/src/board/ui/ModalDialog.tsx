// A modal <dialog>: opened as it mounts, its title as its heading and accessible name, and (when
// it has one) a Close button in the header. Escape and the Close button both end in onClose.
import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
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
    dialog.current?.showModal();
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
