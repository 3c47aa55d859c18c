// A secret the server shows once (an integration's key, a webhook's signing secret): the value in
// a read-only field and a Copy button. Without clipboard permission it stays visible to copy by hand.
// It is shown once, so it takes focus and is scrolled into view as it appears: made from a form near
// a dialog's bottom it landed below the visible part, with focus left on the form's (disabled)
// button and nothing in view saying a key was made. While it has focus it is kept in view as the
// lists around it reload (a new member row above pushed it down again).
import { useEffect, useId, useRef, useState } from 'react';

interface Props {
  /** "Copy Sorter’s key now: it is not shown again." */
  sentence: string;
  value: string;
  /** The field's accessible name. */
  label: string;
  /** The button's word for it: "key", "secret". */
  noun: string;
}

export function SecretOnce({ sentence, value, label, noun }: Props) {
  const [copied, setCopied] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const sentenceId = useId();
  useEffect(() => {
    const own = box.current;
    if (!own) return;
    const show = () => own.scrollIntoView({ block: 'nearest' });
    field.current?.focus({ preventScroll: true });
    show();
    // Whatever scrolls it (the dialog, else the page): when its content changes size while the
    // secret has focus, bring the secret back into view.
    const scroller = own.closest('dialog') ?? document.body;
    const keep = new ResizeObserver(() => {
      if (own.contains(document.activeElement)) show();
    });
    for (const child of Array.from(scroller.children)) keep.observe(child);
    return () => keep.disconnect();
  }, []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Without clipboard permission the value stays visible in the field.
    }
    setCopied(true);
  };
  return (
    <div className="integration-key" role="status" ref={box}>
      <p id={sentenceId}>{sentence}</p>
      <div className="row">
        <input
          ref={field}
          readOnly
          value={value}
          aria-label={label}
          aria-describedby={sentenceId}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="btn small" onClick={() => void copy()}>
          {copied ? 'Copied' : `Copy ${noun}`}
        </button>
      </div>
    </div>
  );
}
