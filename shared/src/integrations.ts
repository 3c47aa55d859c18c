// Integrations (docs/api.md §15): board-scoped keys for scripts, bots and agents, the bodies of the
// owner's calls, and the shapes the content API takes. The server checks every body with these,
// and the Share dialog's form uses the same ones.
import { z } from 'zod';
import { type Board, nameField } from './api.ts';
import { pageIdPattern } from './docKeys.ts';
import { withThousands } from './numbers.ts';
import { MAX_PAGE_NAME, type PageEntry } from './pages.ts';
import { ShapeRecord, shapeTypes } from './shapes.ts';

/** A key is `tdm_` and 43 base64url characters: 256 random bits (docs/api.md §15: ≥ 160). */
export const INTEGRATION_KEY_PREFIX = 'tdm_';
export const integrationKeyPattern = /^tdm_[A-Za-z0-9_-]{43}$/;

export const integrationLimits = {
  /** Shapes (or ids) in one content-API write. */
  shapesPerCall: 1000,
  /** Bad shapes one 422 names (by index and field); past it `fields.shapes` says how many more. */
  badShapesNamed: 20,
  /** Writes a minute per key; past it 429 with Retry-After. */
  writesPerMinute: 60,
  /** How long a write's Idempotency-Key is remembered. */
  idempotencyMs: 24 * 60 * 60 * 1000,
  /** Idempotency-Key: what a client may send. */
  idempotencyKeyMax: 200,
  /** The bot's cursor is shown this long after its last write. */
  presenceMs: 60_000,
  /**
   * A board an API call opened stays loaded this long after the call (API_ROOM_LINGER_MS), as
   * long as the bot's cursor shows: its next call finds it open instead of decoding it again.
   */
  roomLingerMs: 60_000,
  /** The long-poll of changes (`…/events`) waits at most this long for one (`wait` in seconds). */
  eventsWaitMs: 25_000,
  /** Log entries one answer of the long-poll covers at most; past it `more: true`. */
  eventsPerAnswer: 500,
} as const;

/**
 * A position in a board's changes, from `…/events`: opaque to callers (a stored log position).
 * Passed back as `since`, it answers what changed after it, from any instance.
 */
export const eventCursorPattern = /^\d{1,15}$/;

/** One change to a board, as the long-poll answers it (docs/api.md §15). */
export interface BoardEvent {
  /** Where this change ends: `since` for a poll that resumes after it. */
  cursor: string;
  /** When the server received it. */
  at: string;
  /** Who made it (a person, or an integration's identity); null when it came from a merge of several. */
  by: { id: string; name: string } | null;
  /** Shapes it added or changed. */
  changed: string[];
  /** Shapes it removed. */
  removed: string[];
}
/** `GET /api/v1/boards/:id/events?since=`: the changes after `since`, and the shapes they left. */
export interface BoardEventsAnswer {
  events: BoardEvent[];
  /** The records now (§10 JSON) of every shape the events changed that still exists. */
  shapes: ShapeRecord[];
  /** Pass back as `since` for the next poll. */
  cursor: string;
  /** More changes wait already: poll again at once. */
  more: boolean;
}

export const IntegrationRole = z.enum(['editor', 'viewer'], { error: 'Choose editor or viewer.' });
export type IntegrationRole = z.infer<typeof IntegrationRole>;

export const CreateIntegrationBody = z.object({
  name: nameField,
  role: IntegrationRole,
  frameId: z.string().min(1).max(64).optional(),
});
export type CreateIntegrationBody = z.infer<typeof CreateIntegrationBody>;

export interface Integration {
  id: string;
  /** The identity its edits carry in history: `POST /api/boards/:id/revert {userId, since}` undoes them. */
  userId: string;
  name: string;
  color: string;
  role: IntegrationRole;
  scope: { frameId?: string };
  createdAt: string;
  lastUsedAt: string | null;
}
export interface IntegrationsAnswer {
  integrations: Integration[];
}
/** `GET /api/v1/boards/:id?page=`: the board's pages, and the shapes (§10 JSON) and frames of one. */
export interface BoardContentAnswer {
  board: Board;
  /** The page read (`main`, the first page, unless `?page=` named another). */
  page: string;
  /** Every page of the board, in order (§17). */
  pages: PageEntry[];
  shapes: ShapeRecord[];
  frames: { id: string; name: string; x: number; y: number; w: number; h: number }[];
}
/** `POST …/integrations`: the key is in this answer only. */
export interface CreatedIntegrationAnswer {
  integration: Integration;
  key: string;
}

/**
 * The name an integration's presence carries, "<name> (bot)", within a presence name's 40
 * characters (a long name is shortened, so the " (bot)" always shows).
 */
export function botLabel(name: string): string {
  const suffix = ' (bot)';
  const room = 40 - suffix.length;
  return `${name.length > room ? `${name.slice(0, room - 1)}…` : name}${suffix}`;
}
/** The `tool` of a bot's presence: what a client may show differently. */
export const BOT_PRESENCE_TOOL = 'bot';

/**
 * A shape as a content-API write gives it: a §10 record whose id, size, rotation, colour and
 * paint order may be left out (the server assigns them); `createdBy` is always the caller. Unknown
 * fields are refused, so a typo is a 422 rather than a field silently dropped.
 */
export const ShapeInput = ShapeRecord.omit({ createdBy: true })
  .partial({ id: true, w: true, h: true, rotation: true, color: true, z: true })
  .strict();
export type ShapeInput = z.infer<typeof ShapeInput>;

/** A change to an existing shape: its id and the fields to set (its type cannot change). */
export const ShapePatch = ShapeRecord.omit({ createdBy: true, type: true })
  .partial()
  .required({ id: true })
  .strict();
export type ShapePatch = z.infer<typeof ShapePatch>;

/** A page added through the content API or MCP's add_page (docs/api.md §15, §17). */
export const AddPageBody = z
  .object({
    name: z
      .string()
      .max(MAX_PAGE_NAME, { error: `A page name has at most ${MAX_PAGE_NAME} characters.` })
      .optional(),
    after: z.string().regex(pageIdPattern, { error: 'A page id (read the board to list them).' }).optional(),
  })
  .strict();
export type AddPageBody = z.infer<typeof AddPageBody>;

/** What adding a page answers: the new page, and every page of the board in order. */
export interface AddPageAnswer {
  page: PageEntry;
  pages: PageEntry[];
}

export const DeleteShapesBody = z.object({
  ids: z
    .array(z.string().min(1).max(64))
    .min(1, { error: 'Send at least one id.' })
    .max(integrationLimits.shapesPerCall, {
      error: `At most ${integrationLimits.shapesPerCall} ids in one call.`,
    }),
});

/**
 * Checks each shape of a write against `schema`: the valid ones, or the fields of every invalid
 * one named by index and field (`shapes[3].x`), in order, for a 422 that says what to fix. At most
 * `integrationLimits.badShapesNamed` shapes are named; past them `fields.shapes` says how many more
 * need attention. The first bad shape's fields are named exactly as when it was the only one named.
 */
export function checkShapes<S>(
  schema: z.ZodType<S>,
  shapes: readonly unknown[],
): { ok: true; shapes: S[] } | { ok: false; fields: Record<string, string> } {
  const valid: S[] = [];
  const fields: Record<string, string> = {};
  let bad = 0;
  for (const [index, shape] of shapes.entries()) {
    const result = schema.safeParse(shape);
    if (result.success) {
      valid.push(result.data);
      continue;
    }
    bad += 1;
    if (bad > integrationLimits.badShapesNamed) continue;
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.');
      const key = `shapes[${index}]${path ? `.${path}` : ''}`;
      if (key in fields) continue;
      fields[key] =
        issue.code === 'unrecognized_keys'
          ? `Unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}.`
          : path === 'type'
            ? `The type is one of ${shapeTypes.join(', ')}.`
            : issue.message;
    }
  }
  if (bad === 0) return { ok: true, shapes: valid };
  const more = bad - integrationLimits.badShapesNamed;
  if (more > 0)
    fields.shapes = `${withThousands(more)} more ${more === 1 ? 'shape needs' : 'shapes need'} attention; the first ${integrationLimits.badShapesNamed} are named.`;
  return { ok: false, fields };
}
