// Awareness state per connection (docs/api.md §3, §14). The server completes partial states with
// defaults, stamps `user` and `role`, and drops only malformed or oversized ones.
import { z } from 'zod';
import { Role } from './api.ts';
import { limits } from './limits.ts';
import { pageIdPattern } from './pages.ts';
import { isPresenceColor, presenceColors } from './shapes.ts';

/**
 * A newcomer's colour on a board: their own (the account's, or the one they picked) unless
 * someone already there shows it, else the palette colour the fewest people there show (the
 * first such in palette order), so two people share a colour only when there are more people
 * than colours. `taken` holds the colours of the others present, one per person.
 */
export function pickPresenceColor(own: string, taken: readonly string[]): string {
  if (!taken.includes(own)) return own;
  const uses = new Map(presenceColors.map((c) => [c, 0]));
  for (const c of taken) if (uses.has(c)) uses.set(c, uses.get(c)! + 1);
  let best = presenceColors[0]!;
  for (const c of presenceColors) if (uses.get(c)! < uses.get(best)!) best = c;
  return best;
}

const finite = z.number().finite();
export const PresenceUser = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(40),
  color: z.string().max(32),
});
export type PresenceUser = z.infer<typeof PresenceUser>;

/** §14 laser pointer trail: points `[x, y, t]`, at most 64 of them. */
export const MAX_LASER_POINTS = 64;
export const MAX_CHAT_CHARS = 100;
export const MAX_REACTION_CHARS = 16;
/** A cursor chat bubble is gone this long after its last keystroke, or after Enter (docs/api.md §14). */
export const CHAT_KEEP_MS = 5000;
const Laser = z
  .object({ points: z.array(z.tuple([finite, finite, finite])).max(MAX_LASER_POINTS) })
  .nullable();
const Chat = z.string().max(MAX_CHAT_CHARS).nullable();
const Reaction = z.object({ emoji: z.string().min(1).max(MAX_REACTION_CHARS), at: finite }).nullable();
const Cursor = z.object({ x: finite, y: finite }).nullable();
const Selection = z.array(z.string().max(64)).max(5000);
/** §17: the page this person is on (absent: the first page). */
const Page = z.string().regex(pageIdPattern);
const Viewport = z.object({ x: finite, y: finite, zoom: finite.min(limits.zoomMin).max(limits.zoomMax) });

/** What every client is shown of a presence: a complete state, `user` and `role` from the server. */
export const PresenceState = z.object({
  user: PresenceUser,
  cursor: Cursor,
  selection: Selection,
  viewport: Viewport,
  tool: z.string().max(32),
  idle: z.boolean(),
  /** Set by the server from the connection's role; a client's own value is ignored. */
  role: Role.optional(),
  /** §14, ephemeral and optional: the laser trail, a cursor chat bubble, a floating reaction. */
  laser: Laser.optional(),
  chat: Chat.optional(),
  reaction: Reaction.optional(),
  page: Page.optional(),
  /**
   * docs/api.md §16: set only on the state the server keeps per instance for a board's anonymous
   * viewers (their count there); a client's own value is dropped. Such a state is no person: it
   * draws no cursor and no avatar, and the board shows the sum over instances.
   */
  anonymousViewers: z.number().int().min(0).optional(),
  /** A colour the person picked on this board (a palette colour); the server puts it in `user`. */
  color: z.string().max(32).optional(),
});
export type PresenceState = z.infer<typeof PresenceState>;

/** The user a board's anonymous-viewer count is shown under, and every anonymous viewer's identity. */
export const ANONYMOUS_VIEWER = { name: 'Anonymous viewer', color: '#8c959f' } as const;
/** The tool of the server's anonymous-viewer count state (docs/api.md §16). */
export const ANONYMOUS_VIEWERS_TOOL = 'anonymous-viewers';

/** How many anonymous viewers watch the board, summed over the presence states of every instance. */
export const anonymousViewerCount = (states: Iterable<Partial<PresenceState> | null | undefined>): number => {
  let n = 0;
  for (const s of states) if (s && typeof s.anonymousViewers === 'number') n += s.anonymousViewers;
  return n;
};

/** The defaults a partial state is completed with (docs/api.md §3: a bot that sets only `cursor`). */
export const presenceDefaults = {
  cursor: null,
  selection: [] as string[],
  viewport: { x: 0, y: 0, zoom: 1 },
  tool: 'select',
  idle: false,
} as const;

/**
 * What a client may send (docs/api.md §3): any subset of the fields, each checked when present; the
 * missing ones take `presenceDefaults`. `user` and `role` are accepted whatever they hold, since
 * the server replaces both with the connection's identity. Unknown keys are dropped.
 */
export const PresenceInput = z.object({
  user: z.unknown().optional(),
  role: z.unknown().optional(),
  cursor: Cursor.default(presenceDefaults.cursor),
  selection: Selection.default([]),
  viewport: Viewport.default({ ...presenceDefaults.viewport }),
  tool: z.string().max(32).default(presenceDefaults.tool),
  idle: z.boolean().default(presenceDefaults.idle),
  laser: Laser.optional(),
  chat: Chat.optional(),
  reaction: Reaction.optional(),
  page: Page.optional(),
  color: z
    .string()
    .refine((c) => isPresenceColor(c))
    .optional(),
});

/** A client's presence, completed: everything but what the server stamps. */
export type PresenceFields = Omit<PresenceState, 'user' | 'role'>;
export type PresenceCheck = { ok: true; state: PresenceFields } | { ok: false; reason: string };

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown, min: number, max: number): v is string =>
  typeof v === 'string' && v.length >= min && v.length <= max;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (reason: string): PresenceCheck => ({ ok: false, reason });

/**
 * The same verdict as `PresenceInput.safeParse`, written by hand for the server's hot path (every
 * cursor move of every client): several times cheaper than zod's generic parser. Answers the
 * completed state with only the schema's fields, or why it is malformed (the first bad field).
 * `presence.test.ts` checks it agrees with the zod schema.
 */
export function checkPresenceInput(value: unknown): PresenceCheck {
  if (!isObject(value)) return bad('not an object');
  const { cursor, selection, viewport, tool, idle, laser, chat, reaction, page, color } = value;
  const state: PresenceFields = {
    cursor: null,
    selection: [],
    viewport: { ...presenceDefaults.viewport },
    tool: presenceDefaults.tool,
    idle: presenceDefaults.idle,
  };
  if (cursor !== undefined && cursor !== null) {
    if (!(isObject(cursor) && isFiniteNumber(cursor.x) && isFiniteNumber(cursor.y))) return bad('cursor');
    state.cursor = { x: cursor.x, y: cursor.y };
  }
  if (selection !== undefined) {
    if (!Array.isArray(selection) || selection.length > 5000) return bad('selection');
    for (const id of selection) if (!isString(id, 0, 64)) return bad('selection');
    state.selection = selection as string[];
  }
  if (viewport !== undefined) {
    if (
      !isObject(viewport) ||
      !isFiniteNumber(viewport.x) ||
      !isFiniteNumber(viewport.y) ||
      !isFiniteNumber(viewport.zoom) ||
      viewport.zoom < limits.zoomMin ||
      viewport.zoom > limits.zoomMax
    )
      return bad('viewport');
    state.viewport = { x: viewport.x, y: viewport.y, zoom: viewport.zoom };
  }
  if (tool !== undefined) {
    if (!isString(tool, 0, 32)) return bad('tool');
    state.tool = tool;
  }
  if (idle !== undefined) {
    if (typeof idle !== 'boolean') return bad('idle');
    state.idle = idle;
  }
  if (laser !== undefined) {
    if (laser === null) state.laser = null;
    else {
      if (!isObject(laser) || !Array.isArray(laser.points) || laser.points.length > MAX_LASER_POINTS)
        return bad('laser');
      const points: [number, number, number][] = [];
      for (const point of laser.points) {
        if (
          !Array.isArray(point) ||
          point.length !== 3 ||
          !isFiniteNumber(point[0]) ||
          !isFiniteNumber(point[1]) ||
          !isFiniteNumber(point[2])
        )
          return bad('laser');
        points.push([point[0], point[1], point[2]]);
      }
      state.laser = { points };
    }
  }
  if (chat !== undefined) {
    if (chat !== null && !isString(chat, 0, MAX_CHAT_CHARS)) return bad('chat');
    state.chat = chat;
  }
  if (reaction !== undefined) {
    if (reaction === null) state.reaction = null;
    else {
      if (
        !isObject(reaction) ||
        !isString(reaction.emoji, 1, MAX_REACTION_CHARS) ||
        !isFiniteNumber(reaction.at)
      )
        return bad('reaction');
      state.reaction = { emoji: reaction.emoji, at: reaction.at };
    }
  }
  if (page !== undefined) {
    if (typeof page !== 'string' || !pageIdPattern.test(page)) return bad('page');
    state.page = page;
  }
  if (color !== undefined) {
    if (!isPresenceColor(color)) return bad('color');
    state.color = color;
  }
  return { ok: true, state };
}
