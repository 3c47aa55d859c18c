// Templates (docs/api.md §19): a board's shapes kept to start from again. The built-in gallery is
// plain data written here, so the server lists it and the client draws its previews from one
// source; saved templates are the same JSON (§10), checked by the same schema as an import.
import { z } from 'zod';
import { type ColorName, ShapeRecord } from './shapes.ts';

/** At most this many shapes in one template: a template is a starting point, not a board copy. */
export const TEMPLATE_MAX_SHAPES = 2000;
export const templateTextLimits = { nameMax: 80, descriptionMax: 200 } as const;

/** Saved template ids: 21 characters of base64url, like a board's. Built-in ids are their slugs. */
export const templateIdPattern = /^[A-Za-z0-9_-]{1,64}$/;
export const isTemplateId = (s: string): boolean => templateIdPattern.test(s);

const templateName = z
  .string({ error: 'Enter a name.' })
  .trim()
  .min(1, { error: 'Enter a name.' })
  .max(templateTextLimits.nameMax, { error: `A name has at most ${templateTextLimits.nameMax} characters.` });
const templateDescription = z
  .string({ error: 'A description is text.' })
  .trim()
  .max(templateTextLimits.descriptionMax, {
    error: `A description has at most ${templateTextLimits.descriptionMax} characters.`,
  });

/**
 * What a template holds: the §10 JSON form, every record valid. Images are left out on purpose:
 * their bytes belong to the board they were uploaded to, which the template's users may not see.
 */
export const TemplateContent = z.object({
  version: z.literal(1, { error: 'A template is board JSON of version 1.' }),
  shapes: z
    .array(ShapeRecord, { error: 'A template needs a list of shapes.' })
    .min(1, { error: 'A template needs at least one shape.' })
    .max(TEMPLATE_MAX_SHAPES, { error: `A template has at most ${TEMPLATE_MAX_SHAPES} shapes.` })
    .refine((shapes) => shapes.every((s) => s.type !== 'image'), {
      error: 'Templates cannot hold images. Leave the images out and save again.',
    }),
});
export type TemplateContent = z.infer<typeof TemplateContent>;

export const TemplateCreateBody = z.object({
  name: templateName,
  description: templateDescription.optional(),
  content: TemplateContent,
  shared: z.boolean({ error: 'Shared is true or false.' }).optional(),
});
export type TemplateCreateBody = z.infer<typeof TemplateCreateBody>;

export const TemplatePatchBody = z
  .object({
    name: templateName.optional(),
    description: templateDescription.optional(),
    shared: z.boolean({ error: 'Shared is true or false.' }).optional(),
  })
  .refine((b) => b.name !== undefined || b.description !== undefined || b.shared !== undefined, {
    error: 'Send a name, a description or shared.',
    path: ['name'],
  });
export type TemplatePatchBody = z.infer<typeof TemplatePatchBody>;

/** A template as listed (docs/api.md §19): without its shapes. */
export interface TemplateSummary {
  id: string;
  name: string;
  description: string;
  builtIn: boolean;
  /** null for a built-in template. */
  ownerId: string | null;
  ownerName: string | null;
  shared: boolean;
  shapeCount: number;
  createdAt: string | null;
}
export interface Template extends TemplateSummary {
  content: TemplateContent;
}
export interface TemplatesAnswer {
  templates: TemplateSummary[];
}
export interface TemplateAnswer {
  template: Template;
}

// The built-in gallery. Each is laid out from (0, 0); the client moves it to where the user looks.

type Draft = Omit<ShapeRecord, 'id' | 'z' | 'createdBy' | 'rotation'> & { rotation?: number };

const STICKY = 200;
const GAP = 40;
/** Room at a frame's top for the prompt text under its title. */
const PROMPT_ROOM = 90;

function frame(name: string, x: number, y: number, w: number, h: number): Draft {
  return { type: 'frame', x, y, w, h, color: 'grey', name };
}
function sticky(text: string, color: ColorName, x: number, y: number): Draft {
  return { type: 'sticky', x, y, w: STICKY, h: STICKY, color, text };
}
function note(text: string, x: number, y: number, w: number, fontSize: 'm' | 'l' | 'xl' = 'm'): Draft {
  return { type: 'text', x, y, w, h: fontSize === 'm' ? 60 : 50, color: 'grey', text, fontSize };
}

/** Columns side by side, each a frame with a prompt and one starter sticky. */
function columns(specs: { name: string; prompt: string; color: ColorName; starter: string }[]): Draft[] {
  const w = 2 * STICKY + 3 * GAP;
  const h = PROMPT_ROOM + 3 * STICKY + 4 * GAP;
  const out: Draft[] = [];
  specs.forEach((c, i) => {
    const x = i * (w + GAP);
    out.push(frame(c.name, x, 0, w, h));
    out.push(note(c.prompt, x + GAP, GAP / 2, w - 2 * GAP));
    out.push(sticky(c.starter, c.color, x + GAP, PROMPT_ROOM + GAP));
  });
  return out;
}

function grid(
  cells: { name: string; prompt: string; color: ColorName }[],
  across: number,
  size = 640,
): Draft[] {
  const out: Draft[] = [];
  cells.forEach((c, i) => {
    const x = (i % across) * (size + GAP);
    const y = Math.floor(i / across) * (size + GAP);
    out.push(frame(c.name, x, y, size, size));
    out.push(note(c.prompt, x + GAP, y + GAP / 2, size - 2 * GAP));
    out.push(sticky('', c.color, x + GAP, y + PROMPT_ROOM + GAP));
  });
  return out;
}

function storyMap(): Draft[] {
  const steps = ['Discover', 'Sign up', 'First use', 'Share', 'Come back'];
  const w = steps.length * (STICKY + GAP) + GAP;
  const out: Draft[] = [frame('Story map', 0, 0, w, PROMPT_ROOM + 4 * (STICKY + GAP) + GAP)];
  out.push(
    note(
      'Backbone: what the user does, left to right. Stories below, most needed first.',
      GAP,
      GAP / 2,
      w - 2 * GAP,
    ),
  );
  steps.forEach((step, i) => {
    const x = GAP + i * (STICKY + GAP);
    out.push(sticky(step, 'blue', x, PROMPT_ROOM + GAP));
    out.push(sticky('', 'yellow', x, PROMPT_ROOM + 2 * GAP + STICKY));
  });
  out.push(note('Release 1', -260, PROMPT_ROOM + 2 * GAP + STICKY + 70, 220, 'l'));
  out.push(note('Later', -260, PROMPT_ROOM + 3 * GAP + 2 * STICKY + 70, 220, 'l'));
  return out;
}

function brainstorm(): Draft[] {
  const out: Draft[] = [];
  const question = {
    type: 'ellipse',
    x: 560,
    y: 0,
    w: 360,
    h: 160,
    color: 'violet',
    text: 'How might we …?',
  } as const;
  out.push(question);
  const clusters: [string, ColorName][] = [
    ['Cluster A', 'yellow'],
    ['Cluster B', 'green'],
    ['Cluster C', 'blue'],
  ];
  clusters.forEach(([name, color], i) => {
    const x = i * (2 * STICKY + 3 * GAP + GAP);
    const y = 240;
    out.push(frame(name, x, y, 2 * STICKY + 3 * GAP, PROMPT_ROOM + 2 * STICKY + 3 * GAP));
    out.push(note('Group related ideas here; rename the cluster.', x + GAP, y + GAP / 2, 2 * STICKY + GAP));
    out.push(sticky('', color, x + GAP, y + PROMPT_ROOM + GAP));
  });
  return out;
}

function designReview(): Draft[] {
  const out: Draft[] = [];
  out.push(frame('Design', 0, 0, 1200, 800));
  out.push(note('Paste or draw the design under review here.', GAP, GAP / 2, 1200 - 2 * GAP));
  const side = [
    { name: 'What works', color: 'green' as const, prompt: 'Keep these.' },
    { name: 'Questions', color: 'blue' as const, prompt: 'What is unclear?' },
    { name: 'Changes', color: 'orange' as const, prompt: 'What should change, and why?' },
  ];
  side.forEach((c, i) => {
    const y = i * (240 + GAP);
    const x = 1200 + GAP;
    out.push(frame(c.name, x, y, 2 * STICKY + 3 * GAP, 240));
    out.push(note(c.prompt, x + GAP, y + GAP / 2, 2 * STICKY + GAP));
  });
  out.push(frame('Decisions', 0, 800 + GAP, 1200, 300));
  out.push(note('Decisions and owners, agreed at the end.', GAP, 800 + GAP + GAP / 2, 1200 - 2 * GAP));
  return out;
}

const gallery: { id: string; name: string; description: string; drafts: () => Draft[] }[] = [
  {
    id: 'start-stop-continue',
    name: 'Start, Stop, Continue',
    description: 'A retro in three columns: what to begin, to drop and to keep doing.',
    drafts: () =>
      columns([
        { name: 'Start', prompt: 'What should we begin doing?', color: 'green', starter: '' },
        { name: 'Stop', prompt: 'What should we stop doing?', color: 'red', starter: '' },
        { name: 'Continue', prompt: 'What works and should go on?', color: 'blue', starter: '' },
      ]),
  },
  {
    id: 'mad-sad-glad',
    name: 'Mad, Sad, Glad',
    description: 'A retro by feeling: what frustrated, disappointed and pleased the team.',
    drafts: () =>
      columns([
        { name: 'Mad', prompt: 'What drove you mad?', color: 'red', starter: '' },
        { name: 'Sad', prompt: 'What disappointed you?', color: 'blue', starter: '' },
        { name: 'Glad', prompt: 'What made you glad?', color: 'green', starter: '' },
      ]),
  },
  {
    id: '4ls',
    name: '4Ls',
    description: 'Liked, Learned, Lacked, Longed for: a retro in four quarters.',
    drafts: () =>
      grid(
        [
          { name: 'Liked', prompt: 'What did you like?', color: 'green' },
          { name: 'Learned', prompt: 'What did you learn?', color: 'blue' },
          { name: 'Lacked', prompt: 'What was missing?', color: 'orange' },
          { name: 'Longed for', prompt: 'What do you wish for next time?', color: 'violet' },
        ],
        2,
      ),
  },
  {
    id: 'kanban',
    name: 'Kanban',
    description: 'To do, Doing, Done: move the notes right as work moves on.',
    drafts: () =>
      columns([
        { name: 'To do', prompt: 'Work not started yet.', color: 'yellow', starter: 'A task' },
        { name: 'Doing', prompt: 'Work in progress (keep it short).', color: 'orange', starter: '' },
        { name: 'Done', prompt: 'Finished work.', color: 'green', starter: '' },
      ]),
  },
  {
    id: 'brainstorm',
    name: 'Brainstorm',
    description: 'A question in the middle and clusters to sort the ideas into.',
    drafts: brainstorm,
  },
  {
    id: 'matrix-2x2',
    name: '2×2 matrix',
    description: 'Sort ideas by impact and effort to choose what to do first.',
    drafts: () =>
      grid(
        [
          { name: 'Quick wins', prompt: 'High impact, low effort: do first.', color: 'green' },
          { name: 'Big bets', prompt: 'High impact, high effort: plan.', color: 'blue' },
          { name: 'Fill-ins', prompt: 'Low impact, low effort: if time allows.', color: 'yellow' },
          { name: 'Money pits', prompt: 'Low impact, high effort: avoid.', color: 'red' },
        ],
        2,
      ),
  },
  {
    id: 'story-map',
    name: 'User story map',
    description: 'The user’s journey left to right, stories below it by release.',
    drafts: storyMap,
  },
  {
    id: 'design-review',
    name: 'Design review',
    description: 'The design in the middle; what works, questions and changes beside it.',
    drafts: designReview,
  },
];

/** Pads so that z keys sort as the drafts are listed: frames first, beneath what they hold. */
const zKey = (i: number) => `a${String(i).padStart(5, '0')}`;

function materialise(prefix: string, drafts: Draft[]): TemplateContent {
  const ordered = [...drafts.filter((d) => d.type === 'frame'), ...drafts.filter((d) => d.type !== 'frame')];
  return {
    version: 1,
    shapes: ordered.map((d, i) =>
      ShapeRecord.parse({ rotation: 0, ...d, id: `${prefix}-${i}`, z: zKey(i), createdBy: '' }),
    ),
  };
}

export const builtInTemplates: Template[] = gallery.map((t) => {
  const content = materialise(t.id, t.drafts());
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    builtIn: true,
    ownerId: null,
    ownerName: null,
    shared: true,
    shapeCount: content.shapes.length,
    createdAt: null,
    content,
  };
});

export const builtInTemplate = (id: string): Template | undefined =>
  builtInTemplates.find((t) => t.id === id);

/** A template as listed: its content left out. */
export function templateSummary(t: Template): TemplateSummary {
  const { content: _content, ...summary } = t;
  return summary;
}
