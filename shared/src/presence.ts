// Awareness state per connection (SPEC §3). The server drops states that do not match.
import { z } from 'zod';
import { limits } from './limits.ts';

const finite = z.number().finite();
export const PresenceUser = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(40),
  color: z.string().max(32),
});
export type PresenceUser = z.infer<typeof PresenceUser>;

export const PresenceState = z.object({
  user: PresenceUser,
  cursor: z.object({ x: finite, y: finite }).nullable(),
  selection: z.array(z.string().max(64)).max(5000),
  viewport: z.object({ x: finite, y: finite, zoom: finite.min(limits.zoomMin).max(limits.zoomMax) }),
  tool: z.string().max(32),
  idle: z.boolean(),
  /** Set by the server from the connection's role; a client's own value is ignored. */
  role: z.enum(['owner', 'editor', 'viewer']).optional(),
});
export type PresenceState = z.infer<typeof PresenceState>;

const ROLES = new Set(['owner', 'editor', 'viewer']);
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown, min: number, max: number): v is string =>
  typeof v === 'string' && v.length >= min && v.length <= max;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The same verdict as `PresenceState.safeParse`, written by hand for the server's hot path (every
 * cursor move of every client): several times cheaper than zod's generic parser. Answers the
 * state with only the schema's fields (unknown keys dropped, as zod does), or null.
 * `presence.test.ts` checks it agrees with the zod schema.
 */
export function checkPresenceState(value: unknown): PresenceState | null {
  if (!isObject(value)) return null;
  const { user, cursor, selection, viewport, tool, idle, role } = value;
  if (
    !isObject(user) ||
    !isString(user.id, 1, 64) ||
    !isString(user.name, 1, 40) ||
    !isString(user.color, 0, 32)
  ) {
    return null;
  }
  if (cursor !== null && !(isObject(cursor) && isFiniteNumber(cursor.x) && isFiniteNumber(cursor.y)))
    return null;
  if (!Array.isArray(selection) || selection.length > 5000) return null;
  for (const id of selection) if (!isString(id, 0, 64)) return null;
  if (
    !isObject(viewport) ||
    !isFiniteNumber(viewport.x) ||
    !isFiniteNumber(viewport.y) ||
    !isFiniteNumber(viewport.zoom)
  )
    return null;
  if (viewport.zoom < limits.zoomMin || viewport.zoom > limits.zoomMax) return null;
  if (!isString(tool, 0, 32) || typeof idle !== 'boolean') return null;
  if (role !== undefined && !(typeof role === 'string' && ROLES.has(role))) return null;
  const state: PresenceState = {
    user: { id: user.id, name: user.name, color: user.color },
    cursor: cursor === null ? null : { x: (cursor as { x: number }).x, y: (cursor as { y: number }).y },
    selection: selection as string[],
    viewport: { x: viewport.x, y: viewport.y, zoom: viewport.zoom },
    tool,
    idle,
  };
  if (role !== undefined) state.role = role as PresenceState['role'];
  return state;
}
