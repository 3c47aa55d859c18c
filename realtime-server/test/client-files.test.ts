// The built client as the server serves it (http/client.ts), from a client directory of the
// test's own: its files, index.html for a client route, and a plain 404 for a build file it does
// not have — one asked for by a tab loaded before a redeploy, or made by a build after this server
// started (the static file list is read at start). Answered with index.html, such a chunk reached
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

  test('a build file the server does not have is a 404, not the page', async () => {
    // One a later build made while this server ran, and one no build has.
    writeFileSync(join(clientDir, 'assets', 'index-new.js'), 'export {};');
    for (const path of ['/assets/index-new.js', '/assets/chunk-gone.js', '/assets/style-gone.css']) {
      const missing = await get(path);
      assert.equal(missing.status, 404, path);
      assert.match(missing.type, /^text\/plain/, path);
      assert.equal(missing.body, 'No such file.', path);
    }
  });
});
