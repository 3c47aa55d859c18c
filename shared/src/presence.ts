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
