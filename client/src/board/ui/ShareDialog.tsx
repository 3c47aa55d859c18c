// The owner's share dialog (docs/api.md §11): create "can edit" / "can view" links, copy, revoke; members
// and their roles. Editors and viewers see the members read-only and can copy the board's address.
// Removing a member and revoking a link ask first.
import { type LinkRole, MAIN_PAGE_ID, type Member, type Role, type ShareLink } from '@tandem/shared';
import { useCallback, useEffect, useState } from 'react';
import { api, errorSentence } from '../../api/client.ts';
import { Avatar } from '../presence/Avatars.tsx';
import { confirmAction } from './Confirm.tsx';
import { refocusAfterRemoval } from './focusable.ts';
import { IntegrationsSection } from './IntegrationsSection.tsx';
import { Icon } from './icons.tsx';
import { ModalDialog } from './ModalDialog.tsx';
import { WebhooksSection } from './WebhooksSection.tsx';

interface Props {
  boardId: string;
  /** The page the board shows (docs/api.md §17): the embed code embeds it. */
  pageId: string;
  isOwner: boolean;
  meId: string;
  /** Bumped when the server says members changed, so an open dialog refreshes. */
  membersVersion: number;
  /** Opened to see the webhooks (the dashboard's notice of a disabled one): their section is scrolled to. */
  showWebhooks?: boolean;
  onClose(): void;
}

const roleLabel: Record<Role | LinkRole, string> = {
  owner: 'Owner',
  editor: 'Can edit',
  commenter: 'Can comment',
  viewer: 'Can view',
  'public-viewer': 'Public view',
};
/**
 * The roles a link can give, and how a sentence names them ("can comment": docs/api.md §18). A
 * public link (§16) lets anyone watch, read-only, with no account: it also gives the embed code
 * (an iframe of its /embed/ address).
 */
const linkRoles: LinkRole[] = ['editor', 'commenter', 'viewer', 'public-viewer'];
const linkName = (role: LinkRole) => roleLabel[role].toLowerCase();
/** A link as a button's name says it: "“can edit” link", "public link". */
const linkTitle = (role: LinkRole) => (role === 'public-viewer' ? 'public link' : `“${linkName(role)}” link`);

export function ShareDialog({
  boardId,
  pageId,
  isOwner,
  meId,
  membersVersion,
  showWebhooks = false,
  onClose,
}: Props) {
  const [links, setLinks] = useState<ShareLink[]>([]);
  const [members, setMembers] = useState<Member[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const [m, l] = await Promise.all([
        api.members(boardId),
        isOwner ? api.links(boardId) : Promise.resolve({ links: [] }),
      ]);
      setMembers(m.members);
      setLinks(l.links);
      setError(null);
    } catch (e) {
      setError(errorSentence(e));
    }
  }, [boardId, isOwner]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: membersVersion is the reload trigger
  useEffect(() => {
    void load();
  }, [load, membersVersion]);

  /** `removing`: the button whose row the call takes away, so focus is kept in the dialog. */
  const run = async (fn: () => Promise<unknown>, removing?: HTMLElement) => {
    try {
      await fn();
      await load();
      if (removing) await refocusAfterRemoval(removing);
    } catch (e) {
      setError(errorSentence(e));
    }
  };
  const copy = async (text: string, key: string) => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Without clipboard permission the link stays visible in the field to copy by hand.
    }
    setCopied(key);
  };
  const absolute = (url: string) => new URL(url, location.origin).toString();
  // What a wiki or a page takes to show the board live (docs/integrations.md §8): the public link's
  // /embed/ address in an iframe, so nobody has to know to rewrite /p/ by hand. It embeds the page
  // shown (?page=, §16): the embed of a board's second page showed its first, and the owner had to
  // copy the page's id from the address bar into the code by hand.
  const embedCode = (l: ShareLink) => {
    const src = new URL(`/embed/${encodeURIComponent(l.token)}`, absolute(l.url));
    if (pageId !== MAIN_PAGE_ID) src.searchParams.set('page', pageId);
    return `<iframe src="${src}" width="800" height="600" style="border:0" title="Tandem board" allowfullscreen></iframe>`;
  };

  return (
    <ModalDialog title="Share board" onClose={onClose}>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {isOwner ? (
        <section>
          <h3>Invite links</h3>
          <p className="hint">
            Anyone with a link can join with its role. Revoking a link does not remove people who already
            joined.
          </p>
          <div className="row">
            {linkRoles.map((role) => (
              <button
                key={role}
                type="button"
                className="btn"
                onClick={() => run(() => api.createLink(boardId, role))}
              >
                <Icon name="link" size={16} /> Create “{linkName(role)}” link
              </button>
            ))}
          </div>
          <ul className="links">
            {links.flatMap((l) => [
              <li key={l.token}>
                <span className={`pill pill-${l.role}`}>{roleLabel[l.role]}</span>
                <input
                  readOnly
                  value={absolute(l.url)}
                  aria-label={`${roleLabel[l.role]} link`}
                  onFocus={(e) => e.currentTarget.select()}
                />
                {/* Named with their link: with several links, a screen reader heard "Copy" and
                    "Revoke" again and again, not which link each one acts on. */}
                <button
                  type="button"
                  className="btn small"
                  aria-label={`${copied === l.token ? 'Copied' : 'Copy'} the ${linkTitle(l.role)}`}
                  onClick={() => copy(absolute(l.url), l.token)}
                >
                  {copied === l.token ? 'Copied' : 'Copy'}
                </button>
                <button
                  type="button"
                  className="btn small danger"
                  aria-label={`Revoke the ${linkTitle(l.role)}`}
                  onClick={async (e) => {
                    const button = e.currentTarget;
                    const ok = await confirmAction({
                      title: `Revoke the ${linkTitle(l.role)}?`,
                      body:
                        l.role === 'public-viewer'
                          ? 'Everyone watching through it, and every embed of it, stops at once.'
                          : 'Nobody new can join with it. People who already joined through it stay members.',
                      confirmLabel: 'Revoke',
                      danger: true,
                    });
                    if (ok) void run(() => api.revokeLink(boardId, l.token), button);
                  }}
                >
                  Revoke
                </button>
              </li>,
              ...(l.role === 'public-viewer'
                ? [
                    <li key={`${l.token}:embed`}>
                      <span className="pill pill-public-viewer">Embed</span>
                      <input
                        readOnly
                        value={embedCode(l)}
                        aria-label="Embed code"
                        onFocus={(e) => e.currentTarget.select()}
                      />
                      <button
                        type="button"
                        className="btn small"
                        onClick={() => copy(embedCode(l), `${l.token}:embed`)}
                      >
                        {copied === `${l.token}:embed` ? 'Copied' : 'Copy'}
                      </button>
                    </li>,
                  ]
                : []),
            ])}
            {links.length === 0 && <li className="hint">No active links.</li>}
          </ul>
        </section>
      ) : (
        <section>
          <p className="hint">
            Only the board’s owner can invite people. You can copy this board’s address for people who are
            already members.
          </p>
          <button type="button" className="btn" onClick={() => copy(location.href, 'here')}>
            {copied === 'here' ? 'Copied' : 'Copy board address'}
          </button>
        </section>
      )}
      <section>
        <h3>Members</h3>
        <ul className="members">
          {/* An integration is a member on the server (its role, history and undo work as a
              person's, docs/api.md §15), but the owner sees it under Integrations, where its key is
              revoked: listed in both, a trial took it for two things. Others have no Integrations
              section, so it stays here for them, marked as a bot. */}
          {(isOwner ? members.filter((m) => !m.isBot) : members).map((m) => (
            <li key={m.userId}>
              <Avatar user={{ id: m.userId, name: m.name, color: m.color }} size={28} />
              <span className="member-name">
                {m.name}
                {m.userId === meId ? ' (you)' : ''}
                {m.isBot ? <em> bot</em> : m.isGuest ? <em> guest</em> : null}
              </span>
              {isOwner && m.role !== 'owner' ? (
                <>
                  <select
                    aria-label={`Role of ${m.name}`}
                    value={m.role}
                    onChange={(e) => run(() => api.setMemberRole(boardId, m.userId, e.target.value as Role))}
                  >
                    <option value="editor">Can edit</option>
                    <option value="commenter">Can comment</option>
                    <option value="viewer">Can view</option>
                  </select>
                  <button
                    type="button"
                    className="btn small danger"
                    aria-label={`Remove ${m.name}`}
                    onClick={async (e) => {
                      const button = e.currentTarget;
                      const ok = await confirmAction({
                        title: `Remove ${m.name}?`,
                        body:
                          links.length > 0
                            ? `${m.name} loses access at once. While a share link is active they can rejoin through it: revoke the links too to keep them out.`
                            : `${m.name} loses access at once.`,
                        confirmLabel: 'Remove',
                        danger: true,
                      });
                      if (ok) void run(() => api.removeMember(boardId, m.userId), button);
                    }}
                  >
                    Remove
                  </button>
                </>
              ) : (
                <span className="role">{roleLabel[m.role]}</span>
              )}
            </li>
          ))}
        </ul>
      </section>
      {isOwner && <IntegrationsSection boardId={boardId} membersVersion={membersVersion} />}
      {isOwner && <WebhooksSection boardId={boardId} reveal={showWebhooks} />}
    </ModalDialog>
  );
}
