// A secret the server shows once (an integration's key, a webhook's signing secret): the value in
// a read-only field and a Copy button. Without clipboard permission it stays visible to copy by hand.
import { useState } from 'react';

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
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Without clipboard permission the value stays visible in the field.
    }
    setCopied(true);
  };
  return (
    <div className="integration-key" role="status">
      <p>{sentence}</p>
      <div className="row">
        <input readOnly value={value} aria-label={label} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="btn small" onClick={() => void copy()}>
          {copied ? 'Copied' : `Copy ${noun}`}
        </button>
      </div>
    </div>
  );
}
