// The built client as the server serves it (http/client.ts), from a client directory of the
// test's own: its files, those of a build made after the server started (the static file list is
// read at start), index.html for a client route, and a plain 404 for a build file no build has —
// one asked for by a tab loaded before a redeploy. Answered with index.html, such a chunk reached
// the browser as a script of type text/html and the page was left blank.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../../testing/server.ts';

describe('the client’s files', () => {
  let server: TestServer;
  let clientDir: string;
  before(async () => {
    clientDir = mkdtempSync(join(tmpdir(), 'tandem-client-'));
    mkdirSync(join(clientDir, 'assets'));
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>Tandem</title>');
    writeFileSync(join(clientDir, 'assets', 'index-old.js'), 'export {};');
    server = await startServer({ env: { CLIENT_DIR: clientDir } });
  });
  after(async () => {
    await server?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const get = async (path: string) => {
    const answer = await fetch(`${server.url}${path}`);
    return {
      status: answer.status,
      type: answer.headers.get('content-type') ?? '',
      body: await answer.text(),
    };
  };

  test('a build file is served as itself', async () => {
    const file = await get('/assets/index-old.js');
    assert.equal(file.status, 200);
    assert.match(file.type, /javascript/);
    assert.equal(file.body, 'export {};');
  });

  test('a client route gets index.html', async () => {
    for (const path of ['/', '/boards', '/b/AAAAAAAAAAAAAAAAAAAAA', '/join/x']) {
      const page = await get(path);
      assert.equal(page.status, 200, path);
      assert.match(page.type, /text\/html/, path);
      assert.match(page.body, /<title>Tandem<\/title>/, path);
    }
  });

  test('HEAD of a client route is 200 with no body, as its GET; other methods are 404', async () => {
    for (const path of ['/', '/boards', '/p/some-token', '/embed/some-token']) {
      const head = await fetch(`${server.url}${path}`, { method: 'HEAD' });
      assert.equal(head.status, 200, path);
      assert.match(head.headers.get('content-type') ?? '', /text\/html/, path);
      assert.equal(await head.text(), '', path);
    }
    const post = await fetch(`${server.url}/boards`, { method: 'POST', headers: { origin: server.origin } });
    assert.equal(post.status, 404);
  });

  test('a file of a build made while the server runs is served as itself', async () => {
    writeFileSync(join(clientDir, 'assets', 'index-new.js'), 'export const rebuilt = 1;');
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>Tandem rebuilt</title>');
    const file = await get('/assets/index-new.js');
    assert.equal(file.status, 200);
    assert.match(file.type, /javascript/);
    assert.equal(file.body, 'export const rebuilt = 1;');
    assert.match((await get('/boards')).body, /Tandem rebuilt/, 'the new index.html names it');
  });

  test('a build file no build has is a 404, not the page', async () => {
    for (const path of [
      '/assets/chunk-gone.js',
      '/assets/style-gone.css',
      '/assets/..%2Findex.html',
      '/assets/',
    ]) {
      const missing = await get(path);
      assert.equal(missing.status, 404, path);
      assert.match(missing.type, /^text\/plain/, path);
      assert.equal(missing.body, 'No such file.', path);
    }
  });
});
