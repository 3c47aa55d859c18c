// Writing a comment (docs/api.md §18): a text area where `@` lists the board's members to mention,
// Enter sends and Shift+Enter breaks the line. What is typed becomes the body by composeBody.
import { limits, type Member, withThousands } from '@tandem/shared';
import { useId, useMemo, useRef, useState } from 'react';
import { useColorOf } from '../presence/shownColors.ts';
import {
  closeUpAfterMention,
  composeBody,
  insertMention,
  mentionCandidates,
  mentionQuery,
  type Picked,
} from './threads.ts';

interface Props {
  members: Member[];
  meId: string;
  label: string;
  placeholder: string;
  /** The text to start from (editing) and who it mentions. */
  initial?: { text: string; picked: Picked[] };
  submitLabel: string;
  /** Sends the body; resolves true when it was taken (the field then empties). */
  onSubmit(body: string): Promise<boolean>;
  onCancel?(): void;
  autoFocus?: boolean;
}

export function Composer({
  members,
  meId,
  label,
  placeholder,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  autoFocus,
}: Props) {
  const colorOf = useColorOf();
  const [text, setText] = useState(initial?.text ?? '');
  const [picked, setPicked] = useState<Picked[]>(initial?.picked ?? []);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  // Where the space a pick put after its mention is, until the next change of the text.
  const [spaceAt, setSpaceAt] = useState<number | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const listId = useId();

  const query = useMemo(() => mentionQuery(text, caret), [text, caret]);
  const candidates = useMemo(
    () => (query && query.start !== dismissedAt ? mentionCandidates(members, query.query, meId) : []),
    [query, dismissedAt, members, meId],
  );
  const listOpen = candidates.length > 0;

  const pick = (member: Member) => {
    if (!query) return;
    const next = insertMention(text, query, member.name);
    setText(next.text);
    setPicked((list) => [...list, { name: member.name, userId: member.userId }]);
    setCaret(next.caret);
    setSpaceAt(next.caret - 1);
    setActive(0);
    // This @ is done: the list stays closed (Enter now sends) until the text changes.
    setDismissedAt(query.start);
    requestAnimationFrame(() => {
      field.current?.focus();
      field.current?.setSelectionRange(next.caret, next.caret);
    });
  };

  // Whom an `@Name` typed out in full (not picked from the list) mentions: the people the list
  // offers, so a fast typist's "@Ben finishes it" tells Ben too.
  const typed = useMemo(
    () => mentionCandidates(members, '', meId, Number.POSITIVE_INFINITY),
    [members, meId],
  );
  // What the server checks is the body, mentions written out (shared/src/comments.ts).
  const body = composeBody(text, picked, typed);
  const tooLong = body.length > limits.commentBodyMax;
  const send = async () => {
    // Enter sends too: a body over the limit stays here, said beside the field, not refused later.
    if (!body || sending || tooLong) return;
    setSending(true);
    const taken = await onSubmit(body);
    setSending(false);
    if (taken) {
      setText('');
      setPicked([]);
      setCaret(0);
    }
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (listOpen) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => (i + step + candidates.length) % candidates.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        const member = candidates[Math.min(active, candidates.length - 1)];
        if (member) pick(member);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setDismissedAt(query?.start ?? null);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
      return;
    }
    if (e.key === 'Escape' && onCancel) {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    }
  };

  return (
    <div className="composer">
      <textarea
        ref={field}
        aria-label={label}
        placeholder={placeholder}
        value={text}
        rows={2}
        // biome-ignore lint/a11y/noAutofocus: the composer opens because the person asked to write
        autoFocus={autoFocus}
        role="combobox"
        aria-expanded={listOpen}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={listOpen ? `${listId}-${active}` : undefined}
        aria-invalid={tooLong}
        onChange={(e) => {
          const closed = spaceAt === null ? null : closeUpAfterMention(text, e.target.value, spaceAt);
          setSpaceAt(null);
          setDismissedAt(null);
          setActive(0);
          if (closed) {
            setText(closed.text);
            setCaret(closed.caret);
            // The value set differs from what the browser holds: its caret would go to the end.
            requestAnimationFrame(() => field.current?.setSelectionRange(closed.caret, closed.caret));
            return;
          }
          setText(e.target.value);
          setCaret(e.target.selectionStart);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
      />
      {listOpen && (
        <div className="mention-list panel" id={listId} role="listbox" aria-label="Members to mention">
          {candidates.map((m, i) => (
            <div
              key={m.userId}
              id={`${listId}-${i}`}
              role="option"
              // Focus stays in the text area (aria-activedescendant); the pointer picks on press.
              tabIndex={-1}
              aria-selected={i === active}
              className={i === active ? 'active' : ''}
              // Chosen on press, before the field loses focus.
              onPointerDown={(e) => {
                e.preventDefault();
                pick(m);
              }}
            >
              <span
                className="mention-dot"
                style={{ background: colorOf({ id: m.userId, color: m.color }) }}
                aria-hidden="true"
              />
              {m.name}
            </div>
          ))}
        </div>
      )}
      {tooLong && (
        <p className="field-error" role="alert">
          A comment has at most {withThousands(limits.commentBodyMax)} characters.
        </p>
      )}
      <div className="composer-actions">
        {/* A no-break space: "@" ended one line and "mentions" began the next. */}
        <span className="hint">Enter sends · Shift+Enter: new line · @&nbsp;mentions</span>
        {onCancel && (
          <button type="button" className="btn small" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button
          type="button"
          className="btn small primary"
          disabled={sending || tooLong || body === ''}
          onClick={() => void send()}
        >
          {submitLabel}
        </button>
      </div>
    </div>
  );
}
