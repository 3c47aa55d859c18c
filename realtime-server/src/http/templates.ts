// Templates (docs/api.md §19): the built-in gallery (shared/src/templates.ts) and each person's
// saved templates, which their owner may share with everyone on the server. A saved template's
// content is checked by the shared schema (every record valid, no images) before it is stored.
import { randomBytes } from 'node:crypto';
import {
  builtInTemplate,
  builtInTemplates,
  isTemplateId,
  type Template,
  type TemplateAnswer,
  TemplateContent,
  TemplateCreateBody,
  TemplatePatchBody,
  type TemplateSummary,
  type TemplatesAnswer,
  templateSummary,
} from '@tandem/shared';
import type { FastifyInstance } from 'fastify';
import type { Store, TemplateRow } from '../store/store.ts';
import { forbidden, notFound } from './errors.ts';
import { parseBody, signedIn } from './request.ts';

const newTemplateId = (): string => randomBytes(16).toString('base64url');

const toSummary = (row: Omit<TemplateRow, 'content'>): TemplateSummary => ({
  id: row.id,
  name: row.name,
  description: row.description,
  builtIn: false,
  ownerId: row.ownerId,
  ownerName: row.ownerName,
  shared: row.shared,
  shapeCount: row.shapeCount,
  createdAt: row.createdAt.toISOString(),
});

/** The stored text was checked before it went in; parsed again so a hand-edited row cannot reach a client broken. */
const toTemplate = (row: TemplateRow): Template => ({
  ...toSummary(row),
  content: TemplateContent.parse(JSON.parse(row.content)),
});

type TemplateParams = { Params: { templateId: string } };

export async function templateRoutes(app: FastifyInstance, { store }: { store: Store }): Promise<void> {
  /** A template the caller may see: a built-in one, their own, or a shared one. */
  async function visible(id: string, userId: string): Promise<Template> {
    const builtIn = builtInTemplate(id);
    if (builtIn) return builtIn;
    const row = isTemplateId(id) ? await store.getTemplate(id, userId) : null;
    if (!row) throw notFound('template');
    return toTemplate(row);
  }

  /** The caller's own saved template: a built-in or someone else's shared one is theirs to use, not to change. */
  async function owned(id: string, userId: string): Promise<Template> {
    const template = await visible(id, userId);
    if (template.ownerId !== userId)
      throw forbidden('Only the person who saved this template can change it.');
    return template;
  }

  app.get('/api/templates', async (request): Promise<TemplatesAnswer> => {
    const user = signedIn(request);
    const saved = await store.listTemplates(user.id);
    return { templates: [...builtInTemplates.map(templateSummary), ...saved.map(toSummary)] };
  });

  app.get<TemplateParams>('/api/templates/:templateId', async (request): Promise<TemplateAnswer> => {
    const user = signedIn(request);
    return { template: await visible(request.params.templateId, user.id) };
  });

  app.post('/api/templates', async (request, reply) => {
    const user = signedIn(request);
    const body = parseBody(TemplateCreateBody, request.body);
    const id = newTemplateId();
    await store.createTemplate({
      id,
      ownerId: user.id,
      name: body.name,
      description: body.description ?? '',
      content: JSON.stringify(body.content),
      shapeCount: body.content.shapes.length,
      shared: body.shared ?? false,
    });
    const answer: TemplateAnswer = { template: await visible(id, user.id) };
    return reply.code(201).send(answer);
  });

  app.patch<TemplateParams>('/api/templates/:templateId', async (request): Promise<TemplateAnswer> => {
    const user = signedIn(request);
    const { id } = await owned(request.params.templateId, user.id);
    const body = parseBody(TemplatePatchBody, request.body);
    if (!(await store.updateTemplate(id, user.id, body))) throw notFound('template');
    return { template: await visible(id, user.id) };
  });

  app.delete<TemplateParams>('/api/templates/:templateId', async (request, reply) => {
    const user = signedIn(request);
    const { id } = await owned(request.params.templateId, user.id);
    if (!(await store.deleteTemplate(id, user.id))) throw notFound('template');
    return reply.code(204).send();
  });
}
