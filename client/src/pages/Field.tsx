// A labelled form field with its error. The error is tied to the input by aria-describedby and
// sits outside the <label>, so it is announced as a description and never becomes part of the
// field's accessible name ("Email This email is already in use.").
import { useId } from 'react';

export function Field({
  label,
  name,
  type = 'text',
  error,
  autoComplete,
  defaultValue,
}: {
  label: string;
  name: string;
  type?: string;
  error?: string | undefined;
  autoComplete?: string;
  defaultValue?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        defaultValue={defaultValue}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}
