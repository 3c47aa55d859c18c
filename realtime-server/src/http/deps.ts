// What the REST plugins are given. Every plugin receives the same options and takes what it
// needs, so a new resource is one file exporting a `ResourcePlugin`, added to `resources` in app.ts.
import type { FastifyPluginAsync } from 'fastify';
import type { AssetStore } from '../assets/store.ts';
import type { HttpLimits } from '../auth/rateLimit.ts';
import type { Sessions } from '../auth/sessions.ts';
import type { Bus } from '../bus/bus.ts';
import type { CommentEvents } from '../comments/events.ts';
import type { Config } from '../config.ts';
import type { Rooms } from '../documents/rooms.ts';
import type { LiveHistory } from '../history/live.ts';
import type { BoardEvents } from '../integrations/events.ts';
import type { Integrations } from '../integrations/integrations.ts';
import type { Metrics } from '../metrics.ts';
import type { Store } from '../store/store.ts';
import type { Webhooks } from '../webhooks/webhooks.ts';
import type { LiveEvents } from '../workspace/live.ts';

export interface HttpDeps {
  config: Config;
  store: Store;
  sessions: Sessions;
  rooms: Rooms;
  bus: Bus;
  assets: AssetStore;
  metrics: Metrics;
  /** Tells the workspace sockets what changed (board list, members, access). */
  live: LiveEvents;
  /** Version history: versions, and restore and revert on the live board (docs/api.md §12). */
  history: LiveHistory;
  /** Integrations: keys, and writes through the board's Room (docs/api.md §15). */
  integrations: Integrations;
  /** The long-poll of a board's changes (docs/api.md §15). */
  events: BoardEvents;
  /** New comments, for whatever reacts to them besides the live events (webhooks, docs/api.md §15). */
  comments: CommentEvents;
  /** Webhooks: the owner's calls and the events (docs/api.md §15). */
  webhooks: Webhooks;
  /**
   * The rate limits (auth/rateLimit.ts), one count each across every instance when there is Redis.
   * Content writes are counted for the REST calls and the MCP tools alike (§15).
   */
  limits: HttpLimits;
}

/** One resource's routes, as a fastify plugin over the shared deps. */
export type ResourcePlugin = FastifyPluginAsync<HttpDeps>;
