// REST bodies and answers (docs/api.md §5, §7). The server validates every body with these schemas,
// and the client's forms use the same ones, so a rule is written once.
import { z } from 'zod';
import { isPresenceColor } from './shapes.ts';

/**
 * docs/api.md §6. A `commenter` reads the board like a viewer and may comment (§18); it is given
 * by a "can comment" link or by the owner.
 */
export const Role = z.enum(['owner', 'editor', 'commenter', 'viewer']);
export type Role = z.infer<typeof Role>;
/**
 * A share link's role. `public-viewer` (docs/api.md §16) is not a membership: whoever holds the
 * link watches the board read-only with no account, as an anonymous viewer.
 */
export const LinkRole = z.enum(['editor', 'commenter', 'viewer', 'public-viewer']);
export type LinkRole = z.infer<typeof LinkRole>;
/** The link roles that make a membership when a signed-in person joins (every one but public). */
export type MemberLinkRole = Exclude<LinkRole, 'public-viewer'>;
export const isPublicLinkRole = (role: LinkRole): role is 'public-viewer' => role === 'public-viewer';

/**
 * The identity an anonymous viewer's connection carries (docs/api.md §16): the link, not a person.
 * It has no account row; its "membership" is the link being active, so the one access rule
 * (realtime-server/src/auth/access.ts) and every path that applies it treat a revocation like a
 * member's removal.
 */
export const PUBLIC_VIEWER_PREFIX = 'public:';
export const publicViewerId = (linkToken: string): string => `${PUBLIC_VIEWER_PREFIX}${linkToken}`;
/** The link token behind a public viewer's identity, or null for a person's or a bot's id. */
export const publicLinkOf = (userId: string): string | null =>
  userId.startsWith(PUBLIC_VIEWER_PREFIX) ? userId.slice(PUBLIC_VIEWER_PREFIX.length) : null;

/** Every role, highest first (the store's SQL rank is built from this order). */
export const ROLES_BY_RANK: readonly Role[] = ['owner', 'editor', 'commenter', 'viewer'];
const roleRank: Record<Role, number> = { viewer: 1, commenter: 2, editor: 3, owner: 4 };
/** True when `have` is at least `need`. */
export const roleAtLeast = (have: Role, need: Role): boolean => roleRank[have] >= roleRank[need];
/** May change the board's content (the Yjs document): owners and editors. */
export const canEditBoard = (role: Role): boolean => roleAtLeast(role, 'editor');
/** May write comments (docs/api.md §18): everyone but a viewer. */
export const canComment = (role: Role): boolean => roleAtLeast(role, 'commenter');

/** Lengths of the text fields people type (docs/api.md §5): the schemas below and the forms' maxLength use these. */
export const textLimits = {
  nameMax: 40,
  titleMax: 120,
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 200,
} as const;

export const nameField = z
  .string({ error: 'Enter a name.' })
  .trim()
  .min(1, { error: 'Enter a name.' })
  .max(textLimits.nameMax, { error: `A name has at most ${textLimits.nameMax} characters.` });
export const titleField = z
  .string({ error: 'Enter a title.' })
  .trim()
  .min(1, { error: 'Enter a title.' })
  .max(textLimits.titleMax, { error: `A title has at most ${textLimits.titleMax} characters.` });
export const emailField = z
  .string({ error: 'Enter an email address.' })
  .trim()
  .toLowerCase()
  .max(textLimits.emailMax, { error: `An email address has at most ${textLimits.emailMax} characters.` })
  .pipe(z.email({ error: 'Enter a valid email address.' }));
export const passwordField = z
  .string({ error: 'Enter a password.' })
  .min(textLimits.passwordMin, { error: `A password has at least ${textLimits.passwordMin} characters.` })
  .max(textLimits.passwordMax, { error: `A password has at most ${textLimits.passwordMax} characters.` });

export const SignupBody = z.object({ email: emailField, name: nameField, password: passwordField });
export type SignupBody = z.infer<typeof SignupBody>;
export const LoginBody = z.object({
  email: emailField,
  password: z
    .string({ error: 'Enter your password.' })
    .min(1, { error: 'Enter your password.' })
    .max(textLimits.passwordMax),
});
export type LoginBody = z.infer<typeof LoginBody>;
export const GuestBody = z.object({ name: nameField });
export type GuestBody = z.infer<typeof GuestBody>;
/** `POST /api/auth/upgrade`: a guest becomes a full account, keeping their boards (name optional). */
export const UpgradeBody = z.object({
  email: emailField,
  password: passwordField,
  name: nameField.optional(),
});
export type UpgradeBody = z.infer<typeof UpgradeBody>;
/** `PUT /api/me/color`: the colour a person shows on boards, one of the presence palette's. */
export const ColorBody = z.object({
  color: z.string().refine((c) => isPresenceColor(c), { error: 'Pick one of the palette’s colours.' }),
});
export type ColorBody = z.infer<typeof ColorBody>;
export const BoardTitleBody = z.object({ title: titleField });
export type BoardTitleBody = z.infer<typeof BoardTitleBody>;
export const MemberRoleBody = z.object({ role: Role });
export type MemberRoleBody = z.infer<typeof MemberRoleBody>;
export const LinkBody = z.object({ role: LinkRole });
export type LinkBody = z.infer<typeof LinkBody>;

export interface User {
  id: string;
  name: string;
  email: string | null;
  color: string;
  isGuest: boolean;
  createdAt: string;
}
export interface Board {
  id: string;
  title: string;
  ownerId: string;
  createdAt: string;
  updatedAt: string;
  /** Sent with board:changed when the board's thumbnail was replaced (its time, ISO). */
  thumbnailAt?: string;
}
export interface BoardListItem {
  id: string;
  title: string;
  role: Role;
  ownerName: string;
  updatedAt: string;
  /** When the board's thumbnail was last stored (ISO), or null when it has none yet. */
  thumbnailAt: string | null;
  /** Set (true), for the owner only, when one of the board's webhooks was disabled after 24 h of failures. */
  webhookDisabled?: true;
}
export interface Member {
  userId: string;
  name: string;
  email: string | null;
  color: string;
  isGuest: boolean;
  role: Role;
  createdAt: string;
  /** Set (true) when the member is an integration's identity (docs/api.md §15). */
  isBot?: true;
}
export interface ShareLink {
  token: string;
  role: LinkRole;
  url: string;
  createdAt: string;
  createdBy: string;
}

export interface UserAnswer {
  user: User;
}
export interface BoardsAnswer {
  boards: BoardListItem[];
}
export interface BoardAnswer {
  board: Board;
}
export interface BoardWithRoleAnswer {
  board: Board;
  role: Role;
}
export interface MembersAnswer {
  members: Member[];
}
export interface LinkAnswer {
  link: ShareLink;
}
export interface LinksAnswer {
  links: ShareLink[];
}
export interface JoinAnswer {
  boardId: string;
  role: Role;
}
/** `POST /api/public/:token/token` (docs/api.md §16): a read-only access token for `/yjs/:boardId?token=`. */
export interface PublicTokenAnswer {
  boardId: string;
  token: string;
  /** ISO time. */
  expiresAt: string;
  /** The board's title, for the page's heading. */
  title: string;
  /**
   * The board's pages in order (docs/api.md §17; the first page's name may be empty), so a visitor
   * of the public page can switch between them: read again with every token.
   */
  pages: { id: string; name: string }[];
}
/** `GET /api/join/:token`: what an invite link leads to, shown before signing in. */
export interface JoinPreviewAnswer {
  title: string;
  role: LinkRole;
  ownerName: string;
}
/** `GET /api/time`: the server's clock in epoch ms, for the client's clock-offset estimate. */
export interface ServerTime {
  now: number;
}
export interface TokenAnswer {
  token: string;
  expiresAt: string;
}

/** Turns zod issues into docs/api.md §8's `fields: {name: message}`, first message per field. */
export function fieldMessages(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : '_';
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}
