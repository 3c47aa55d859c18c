// What the pages an invite link leads to (sign-in, sign-up, join) say about it: one wording and
// one rule for a dead link, whichever page the visitor reaches first.
import type { LinkRole } from '@tandem/shared';
import { ApiError } from '../api/client.ts';

/** A revoked or unknown link, or its board deleted: the server's 404 tells none of them apart. */
export const DEAD_INVITE_SENTENCE =
  'This invite link was revoked or the board was deleted. Ask for a new one.';

/**
 * The sign-in and sign-up pages' subtitle when they were reached from an invite link (`?next=/join/…`):
 * the person was just invited and is usually new, not "welcome back". Said before the preview
 * answers, and also when it cannot (a rate limit, the network); the preview then names the board.
 */
export const INVITED_SENTENCE =
  "You've been invited to a board. Sign in, create an account or continue as a guest to join it.";

/** The invite link's token when `next` (already made safe) is the join page of one, else null. */
export const inviteTokenOf = (next: string): string | null => /^\/join\/([^/?#]+)$/.exec(next)?.[1] ?? null;

/** The preview's or the join's answer says the link is dead (a network error or 429 does not). */
export const isDeadInvite = (error: unknown): boolean => error instanceof ApiError && error.status === 404;

/** What the link lets one do, as the invitation says it: "invited you to comment on “Retro”". */
export const inviteVerb = (role: LinkRole): string =>
  role === 'editor' ? 'edit' : role === 'commenter' ? 'comment on' : 'view';
