// The board's title in the top bar. Owners and editors rename it in place: click the title, type,
// Enter (or leave the field) saves; Escape cancels. The same schema as the dashboard's Rename
// (shared titleField), so the rules and sentences are the same; an invalid title keeps the field
// open with its error until it is fixed or cancelled.
import { textLimits, titleField } from '@tandem/shared';
import { useRef, useState } from 'react';
import { api, errorSentence } from '../../api/client.ts';

interface Props {
  boardId: string;
  title: string;
  canRename: boolean;
  /** The server's answer, so the page shows the stored title at once. */
  onRenamed(title: string): void;
}

export function BoardTitle({ boardId, title, canRename, onRenamed }: Props) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Enter saves and the blur that follows must not save again.
  const done = useRef(false);

  if (!canRename || !editing) {
    return (
      <h1 className="board-title" title={title}>
        {canRename ? (
          <button
            type="button"
            className="title-button"
            aria-label={`Rename board: ${title}`}
            title="Rename"
            onClick={() => {
              done.current = false;
              setError(null);
              setEditing(true);
            }}
          >
            {title}
          </button>
        ) : (
          title
        )}
      </h1>
    );
  }

  const close = () => {
    done.current = true;
    setError(null);
    setEditing(false);
  };
  const save = async (raw: string, via: 'enter' | 'blur') => {
    if (done.current) return;
    const parsed = titleField.safeParse(raw);
    if (!parsed.success) {
      // Leaving the field with an invalid title gives it up; Enter shows why it cannot be saved.
      if (via === 'blur') return close();
      setError(parsed.error.issues[0]?.message ?? 'Enter a title.');
      return;
    }
    close();
    if (parsed.data === title) return;
    try {
      const { board } = await api.renameBoard(boardId, parsed.data);
      onRenamed(board.title);
    } catch (e) {
      setError(errorSentence(e));
      done.current = false;
      setEditing(true);
    }
  };

  return (
    <form
      className="title-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save(String(new FormData(e.currentTarget).get('title') ?? ''), 'enter');
      }}
    >
      <input
        name="title"
        className="title-input"
        defaultValue={title}
        aria-label="Board title"
        aria-invalid={!!error}
        aria-describedby={error ? 'board-title-error' : undefined}
        // Room for one character past the limit, so typing on shows the sentence instead of stopping.
        maxLength={textLimits.titleMax + 1}
        // biome-ignore lint/a11y/noAutofocus: the field appears because the title was clicked
        autoFocus
        onFocus={(e) => e.currentTarget.select()}
        onChange={() => setError(null)}
        onBlur={(e) => void save(e.currentTarget.value, 'blur')}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            close();
          }
        }}
      />
      {error && (
        <small id="board-title-error" className="field-error title-error" role="alert">
          {error}
        </small>
      )}
    </form>
  );
}
