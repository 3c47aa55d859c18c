// Templates (docs/api.md §19): the built-in gallery, saving a template (content checked like an
// import), who sees it (its owner; everyone once shared), and that only its owner changes it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  apiPaths,
  builtInTemplates,
  ErrorCode,
  type TemplateAnswer,
  type TemplateContent,
  type TemplatesAnswer,
} from '@tandem/shared';
import { ApiClient } from '../../testing/clients.ts';
import { assertError } from '../../testing/rest.ts';
import { startServer, type TestServer } from '../../testing/server.ts';

const content = (names: string[]): TemplateContent => ({
  version: 1,
  shapes: names.map((name, i) => ({
    id: `s${i}`,
    type: 'frame',
    x: i * 500,
    y: 0,
    w: 400,
    h: 300,
    rotation: 0,
    color: 'grey',
    z: `a${i}`,
    createdBy: 'someone',
    name,
  })),
});

describe('REST: templates', () => {
  let server: TestServer;
  let ada: ApiClient;
  let ben: ApiClient;

  before(async () => {
    server = await startServer({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '10000' } });
    ada = await new ApiClient(server.url).signup('Ada Author');
    ben = await new ApiClient(server.url).signup('Ben Borrower');
  });
  after(async () => {
    await server.close();
  });

  const list = async (who: ApiClient) => {
    const answer = await who.call<TemplatesAnswer>('GET', apiPaths.templates());
    assert.equal(answer.status, 200);
    return answer.body.templates;
  };

  test('the built-in gallery is listed for everyone signed in, and Mad/Sad/Glad is three named frames', async () => {
    const anonymous = await new ApiClient(server.url).call('GET', apiPaths.templates());
    assertError(anonymous, 401, ErrorCode.AUTH_REQUIRED);
    const templates = await list(ben);
    const builtIn = templates.filter((t) => t.builtIn).map((t) => t.id);
    assert.deepEqual(
      builtIn,
      builtInTemplates.map((t) => t.id),
    );
    for (const id of [
      'start-stop-continue',
      'mad-sad-glad',
      '4ls',
      'kanban',
      'brainstorm',
      'matrix-2x2',
      'story-map',
      'design-review',
    ])
      assert.ok(builtIn.includes(id), id);
    const one = await ben.call<TemplateAnswer>('GET', apiPaths.template('mad-sad-glad'));
    assert.equal(one.status, 200);
    const frames = one.body.template.content.shapes.filter((s) => s.type === 'frame').map((s) => s.name);
    assert.deepEqual(frames, ['Mad', 'Sad', 'Glad']);
  });

  test('a saved template is its owner’s until shared; then everyone sees it, and only the owner changes it', async () => {
    const saved = await ada.call<TemplateAnswer>('POST', apiPaths.templates(), {
      name: '  Team retro ',
      content: content(['Wins', 'Puzzles']),
    });
    assert.equal(saved.status, 201, JSON.stringify(saved.body));
    const t = saved.body.template;
    assert.equal(t.name, 'Team retro');
    assert.equal(t.ownerName, 'Ada Author');
    assert.equal(t.shared, false);
    assert.equal(t.shapeCount, 2);
    assert.deepEqual(
      t.content.shapes.map((s) => s.name),
      ['Wins', 'Puzzles'],
    );

    assert.ok((await list(ada)).some((x) => x.id === t.id));
    assert.ok(!(await list(ben)).some((x) => x.id === t.id), 'not listed for others before it is shared');
    assertError(await ben.call('GET', apiPaths.template(t.id)), 404, ErrorCode.NOT_FOUND);
    assertError(await ben.call('PATCH', apiPaths.template(t.id), { shared: true }), 404, ErrorCode.NOT_FOUND);

    const shared = await ada.call<TemplateAnswer>('PATCH', apiPaths.template(t.id), { shared: true });
    assert.equal(shared.status, 200);
    assert.equal(shared.body.template.shared, true);
    assert.ok((await list(ben)).some((x) => x.id === t.id && x.ownerName === 'Ada Author'));
    const seen = await ben.call<TemplateAnswer>('GET', apiPaths.template(t.id));
    assert.equal(seen.status, 200);
    assert.equal(seen.body.template.content.shapes.length, 2);

    assertError(
      await ben.call('PATCH', apiPaths.template(t.id), { name: 'Mine now' }),
      403,
      ErrorCode.FORBIDDEN,
    );
    assertError(await ben.call('DELETE', apiPaths.template(t.id)), 403, ErrorCode.FORBIDDEN);
    assertError(await ada.call('DELETE', apiPaths.template('mad-sad-glad')), 403, ErrorCode.FORBIDDEN);

    assert.equal((await ada.call('DELETE', apiPaths.template(t.id))).status, 204);
    assertError(await ben.call('GET', apiPaths.template(t.id)), 404, ErrorCode.NOT_FOUND);
    assertError(await ada.call('GET', apiPaths.template('no such id!')), 404, ErrorCode.NOT_FOUND);
  });

  test('content is validated like an import: bad records, images, nothing, or too much are 422 with a sentence', async () => {
    const bad = content(['A']);
    (bad.shapes[0] as { color: string }).color = 'chartreuse';
    assertError(
      await ada.call('POST', apiPaths.templates(), { name: 'Bad', content: bad }),
      422,
      ErrorCode.VALIDATION,
      ['content.shapes.0.color'],
    );
    const image = content(['A']);
    image.shapes.push({ ...image.shapes[0]!, id: 'img', type: 'image', assetId: 'a'.repeat(64) });
    const refused = assertError(
      await ada.call('POST', apiPaths.templates(), { name: 'Pictures', content: image }),
      422,
      ErrorCode.VALIDATION,
      ['content.shapes'],
    );
    assert.match(JSON.stringify(refused.fields), /cannot hold images/);
    assertError(
      await ada.call('POST', apiPaths.templates(), { name: 'Empty', content: { version: 1, shapes: [] } }),
      422,
      ErrorCode.VALIDATION,
      ['content.shapes'],
    );
    assertError(
      await ada.call('POST', apiPaths.templates(), { name: '', content: content(['A']) }),
      422,
      ErrorCode.VALIDATION,
      ['name'],
    );
    assertError(await ada.call('POST', apiPaths.templates(), '[1]'), 400, ErrorCode.BAD_REQUEST);
  });
});
