// The Share dialog's "Integrations" section (docs/api.md §15, docs/integrations.md), for the owner:
// create a key for a script, bot or agent (name, role, optionally the one frame it may change),
// copy the key once (the server keeps only its hash), revoke one. Revoking asks first.
import {
  CreateIntegrationBody,
  contentPaths,
  fieldMessages,
  type Integration,
  type IntegrationRole,
  MCP_PATH,
  textLimits,
} from '@tandem/shared';
import { frameLabel } from '@tandem/shared/render/frames.ts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorSentence, errorWithReasons } from '../../api/client.ts';
import { confirmAction } from './Confirm.tsx';
import { refocusAfterRemoval } from './focusable.ts';
import { SecretOnce } from './SecretOnce.tsx';

interface Props {
  boardId: string;
  /** Bumped when the server says members changed (an integration is a member). */
  membersVersion: number;
}

const roleText: Record<IntegrationRole, string> = { editor: 'Can edit', viewer: 'Can view' };

export function IntegrationsSection({ boardId, membersVersion }: Props) {
  const [integrations, setIntegrations] = useState<Integration[]>([]);
  const [frames, setFrames] = useState<{ id: string; name: string }[]>([]);
  const [name, setName] = useState('');
  const [role, setRole] = useState<IntegrationRole>('editor');
  const [frameId, setFrameId] = useState('');
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The error is about the name field (a name the schema refuses): it is tied to the field, and
  // goes as soon as the name is typed again (it stayed on screen, saying "Enter a name." to
  // someone typing one).
  const [nameRefused, setNameRefused] = useState(false);
  const nameField = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      const [list, content] = await Promise.all([api.integrations(boardId), api.boardContent(boardId)]);
      setIntegrations(list.integrations);
      setFrames(content.frames.map((f) => ({ id: f.id, name: frameLabel(f) })));
    } catch (e) {
      setError(errorSentence(e));
    }
  }, [boardId]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: membersVersion is the reload trigger
  useEffect(() => {
    void load();
  }, [load, membersVersion]);

  const create = async (event: React.FormEvent) => {
    event.preventDefault();
    const body = { name, role, ...(frameId ? { frameId } : {}) };
    const checked = CreateIntegrationBody.safeParse(body);
    if (!checked.success) {
      setError(Object.values(fieldMessages(checked.error))[0] ?? 'Check the name.');
      setNameRefused(true);
      nameField.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const answer = await api.createIntegration(boardId, checked.data);
      setCreated({ name: answer.integration.name, key: answer.key });
      setName('');
      setError(null);
      await load();
    } catch (e) {
      setError(errorWithReasons(e));
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (integration: Integration, button: HTMLElement) => {
    const ok = await confirmAction({
      title: `Revoke ${integration.name}’s key?`,
      body: 'The key stops working at once. Its changes stay on the board: undo them from History.',
      confirmLabel: 'Revoke key',
      danger: true,
    });
    if (!ok) return;
    try {
      await api.revokeIntegration(boardId, integration.id);
      if (created?.name === integration.name) setCreated(null);
      await load();
      await refocusAfterRemoval(button);
    } catch (e) {
      setError(errorSentence(e));
    }
  };
  const frameName = (id: string | undefined) =>
    id === undefined ? 'Whole board' : `Frame “${frames.find((f) => f.id === id)?.name ?? 'deleted'}”`;

  return (
    <section aria-label="Integrations">
      <h3>Integrations</h3>
      <p className="hint">
        Give a script, bot or AI agent a key to work on this board through the API or MCP. Its edits show
        under its name, and you can undo them from History.
      </p>
      {error && (
        <p className="error" role="alert" id="integration-error">
          {error}
        </p>
      )}
      <form className="integration-form" onSubmit={(e) => void create(e)}>
        <input
          ref={nameField}
          aria-label="Integration name"
          aria-invalid={nameRefused || undefined}
          aria-describedby={nameRefused ? 'integration-error' : undefined}
          placeholder="Name, e.g. Retro sorter"
          maxLength={textLimits.nameMax}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            if (nameRefused) {
              setNameRefused(false);
              setError(null);
            }
          }}
        />
        <select
          aria-label="Integration role"
          value={role}
          onChange={(e) => setRole(e.target.value as IntegrationRole)}
        >
          <option value="editor">Can edit</option>
          <option value="viewer">Can view</option>
        </select>
        <select aria-label="Integration scope" value={frameId} onChange={(e) => setFrameId(e.target.value)}>
          <option value="">Whole board</option>
          {frames.map((f) => (
            <option key={f.id} value={f.id}>
              Only frame “{f.name}”
            </option>
          ))}
        </select>
        <button type="submit" className="btn" disabled={busy}>
          Create key
        </button>
      </form>
      {created && (
        <>
          <SecretOnce
            key={created.key}
            sentence={`Copy ${created.name}’s key now: it is not shown again.`}
            value={created.key}
            label={`${created.name} key`}
            noun="key"
          />
          <KeyUsage boardId={boardId} />
        </>
      )}
      <ul className="links integrations">
        {integrations.map((i) => (
          <li key={i.id}>
            <span className="integration-dot" style={{ background: i.color }} aria-hidden="true" />
            <span className="member-name">
              {i.name}
              <em>
                {' '}
                {frameName(i.scope.frameId)}
                {i.lastUsedAt ? ` · used ${new Date(i.lastUsedAt).toLocaleString()}` : ' · not used yet'}
              </em>
            </span>
            <span className={`pill pill-${i.role}`}>{roleText[i.role]}</span>
            <button
              type="button"
              className="btn small danger"
              aria-label={`Revoke ${i.name}`}
              onClick={(e) => void revoke(i, e.currentTarget)}
            >
              Revoke
            </button>
          </li>
        ))}
        {integrations.length === 0 && <li className="hint">No integrations.</li>}
      </ul>
    </section>
  );
}

/**
 * How the key just made is used: the board's id, the content API's address with a request to try
 * and the MCP endpoint, with this server's own origin. A trial's script writer had the key and
 * nothing saying where to send it (the board's id was only in the address bar).
 */
function KeyUsage({ boardId }: { boardId: string }) {
  const origin = location.origin;
  const example = `curl -H "Authorization: Bearer <key>" ${origin}${contentPaths.board(boardId)}`;
  return (
    <div className="integration-usage">
      <p>
        Board id <code>{boardId}</code>. Send the key as <code>Authorization: Bearer &lt;key&gt;</code> to the
        content API or, for an AI agent, to the MCP endpoint <code>{`${origin}${MCP_PATH}`}</code>.
      </p>
      <p>To read the board, for example:</p>
      <pre>{example}</pre>
    </div>
  );
}
