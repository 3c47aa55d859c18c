// Browser test helpers: the real server (with the built client) on a random port, and Debian's
// Chromium driven by playwright-core. Waits are on conditions, never on the clock.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, afterEach, before } from 'node:test';
import { apiPaths } from '@tandem/shared';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFName,
  type PDFNumber,
  PDFRawStream,
} from 'pdf-lib';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import type { ConfigVariable } from '../realtime-server/src/config.ts';
import { type StartOptions, startServer, type TestServer } from '../testing/server.ts';
import { requireProgram, waitUntil } from '../testing/services.ts';

export const artifacts = resolve(import.meta.dirname, '..', 'test-artifacts');
mkdirSync(artifacts, { recursive: true });

/** The real server with the built client, on a free port with a temp data dir. */
export async function startApp(
  env: Partial<Record<ConfigVariable, string>> = {},
  options: Omit<StartOptions, 'env'> = {},
): Promise<TestServer> {
  return startServer({
    ...options,
    env: { CLIENT_DIR: resolve(import.meta.dirname, '..', 'client', 'dist'), ...env },
  });
}

/**
 * The server and a browser for the tests of one describe block: started before its first test,
 * closed after its last. Call it in the block's body; read `server` and `browser` from tests and
 * hooks, which run after they are set.
 */
export function withApp(
  env: Partial<Record<ConfigVariable, string>> = {},
  options: Omit<StartOptions, 'env'> = {},
): { readonly server: TestServer; readonly browser: Browser } {
  const app = {} as { server: TestServer; browser: Browser };
  before(async () => {
    // The browser first: a missing Chromium then fails the block before a server is left running.
    app.browser = await launch();
    app.server = await startApp(env, options);
  });
  after(async () => {
    await app.browser?.close();
    await app.server?.close();
  });
  return app;
}

/** Page errors seen since the last test ended; any of them fails the test it happened in. */
const pageErrors: string[] = [];

/** What Chromium logs for markup it cannot use: `Error: <svg> attribute width: A negative value is not valid. ("-8")`. */
const invalidMarkup = /^Error: <[\w:-]+> attribute [\w:-]+: /;

/**
 * Watches a page for errors the user would not see: an uncaught exception (`pageerror`), one the
 * browser reports in the console, or an attribute value the browser refused (a negative width, a
 * NaN in a path: drawn as nothing, so a shape silently missing), in the page or its frames. Pages
 * made by newUser are watched already.
 */
export function failOnPageErrors(page: Page, name: string): void {
  page.on('pageerror', (error) => {
    console.error(`[${name}] page error:`, error.message);
    pageErrors.push(`[${name}] ${error.message}`);
  });
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (text.startsWith('Uncaught') || invalidMarkup.test(text)) {
      pageErrors.push(`[${name}] ${text}`);
    }
  });
}

// Registered at the top level of every browser test file that imports these helpers, so it runs
// after each of their tests.
afterEach(() => {
  if (pageErrors.length > 0)
    throw new Error(`page errors during the test:\n${pageErrors.splice(0).join('\n')}`);
});

/**
 * The features Playwright's launch turns off (its `disabledFeatures`, playwright-core 1.65).
 * Chromium reads only the last `--disable-features` switch, so ours repeats them.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
];
/**
 * Chromium draws its address bar's suggestion popups as two WebUI pages made with every window,
 * so each browser context costs a renderer process of its own that spends about as much CPU as
 * the page under test (0.8–0.9 core-seconds for a person who signs in and opens a board). A
 * headless test never opens the address bar.
 */
const ADDRESS_BAR_POPUPS = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * Chromium for one describe block. Its contexts start without service workers unless a test asks
 * for them (`serviceWorkers: 'allow'`, newUser's `offlineShell`): installing the app-shell worker
 * fetches and caches the shell again in every new context, about a quarter of the browser's CPU
 * for a person who signs in and opens a board, and only the tests of the offline shell (reloading
 * a board while offline) are about it.
 */
export async function launch(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: requireProgram(
      process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      'apt-get install -y chromium, or set CHROMIUM_PATH to another Chromium',
    ),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...ADDRESS_BAR_POPUPS].join(',')}`,
    ],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ serviceWorkers: 'block', ...options });
  return browser;
}

/**
 * A person in a browser context of their own, signed up (or in as a guest) and on the dashboard;
 * `app` is where: the browser, and the server they talk to. The account is made through the API
 * the forms call, in the context's own cookie jar: a page load and a form less per person, which
 * most tests are not about. `form: true` goes through the sign-in page's forms, as a person does
 * (people.test.ts and access.test.ts keep those forms tried). `offlineShell: true` lets the app's
 * service worker install, for a test that reloads a board while offline.
 */
export async function newUser(
  { browser, server }: { browser: Browser; server: Pick<TestServer, 'url'> },
  name: string,
  opts: { guest?: boolean; form?: boolean; offlineShell?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    baseURL: server.url,
    serviceWorkers: opts.offlineShell ? 'allow' : 'block',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const page = await context.newPage();
  failOnPageErrors(page, name);
  const email = `${name.toLowerCase().replace(/\W+/g, '')}-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'correct horse battery';
  if (!opts.form) {
    const answer = await context.request.post(opts.guest ? apiPaths.guest() : apiPaths.signup(), {
      data: opts.guest ? { name } : { name, email, password },
      headers: { origin: server.url },
    });
    assert.equal(answer.status(), 201, `signing up ${name}: ${await answer.text()}`);
    await page.goto('/boards');
  } else {
    await page.goto('/signin');
    if (opts.guest) {
      await page.getByLabel('Your name').fill(name);
      await page.getByRole('button', { name: 'Continue as guest' }).click();
    } else {
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByLabel('Name', { exact: true }).fill(name);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Create account' }).click();
    }
  }
  await page.waitForURL('**/boards');
  return { context, page };
}

/** A visitor with no session (someone who followed a link), in a context of their own; watched for page errors. */
export async function signedOutVisitor(
  { browser, server }: { browser: Browser; server: Pick<TestServer, 'url'> },
  name: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: server.url });
  const page = await context.newPage();
  failOnPageErrors(page, name);
  return { context, page };
}

/**
 * Runs `check` on a phone-sized page (390×844) signed in as `as` (its session cookie), on a new
 * board of its own; the phone's context is closed afterwards.
 */
export async function onPhone(
  { browser, server }: { browser: Browser; server: Pick<TestServer, 'url'> },
  as: Page,
  check: (phone: Page) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: server.url });
  try {
    await context.addCookies(await as.context().cookies());
    const phone = await context.newPage();
    await phone.goto('/boards');
    await createBoard(phone, 'Phone');
    await check(phone);
  } finally {
    await context.close();
  }
}

/**
 * Creates a board from the dashboard, blank or from the named template of the "New board" gallery
 * (docs/api.md §19), and waits until its document connection is live.
 */
export async function createBoard(page: Page, title: string, template?: string): Promise<string> {
  await page.getByLabel('New board title').fill(title);
  await page.getByRole('button', { name: 'New board', exact: true }).click();
  const gallery = page.getByRole('dialog', { name: 'New board' });
  await gallery
    .getByRole(
      'button',
      template ? { name: `Use template ${template}`, exact: true } : { name: /^Blank board/ },
    )
    .click();
  await page.waitForURL('**/b/*');
  await waitStatus(page, 'live');
  return new URL(page.url()).pathname.split('/').pop()!;
}

export async function waitStatus(page: Page, status: string): Promise<void> {
  await page.locator(`[role="status"][data-status="${status}"]`).waitFor();
}

/** Makes a share link as the owner and answers its URL. */
export async function shareLink(page: Page, role: 'can edit' | 'can comment' | 'can view'): Promise<string> {
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await page.getByRole('button', { name: `Create “${role}” link` }).click();
  const field = page.getByLabel(`C${role.slice(1)} link`).first();
  await field.waitFor();
  const url = await field.inputValue();
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  return url;
}

/**
 * Opens a share link and waits until the board it leads to is open: live, or read-only for a
 * link that lets one view.
 */
export async function joinByLink(
  page: Page,
  link: string,
  boardId: string,
  status: 'live' | 'read-only' = 'live',
): Promise<void> {
  await page.goto(link);
  await page.waitForURL(`**/b/${boardId}`);
  await waitStatus(page, status);
}

/**
 * The owner (on the dashboard) makes a board and shares it: each editor opens a "can edit" link,
 * each viewer a "can view" one. Answers the board's id once it is open for all of them.
 */
export async function sharedBoard(
  owner: Page,
  title: string,
  { editors = [], viewers = [] }: { editors?: Page[]; viewers?: Page[] },
): Promise<string> {
  const boardId = await createBoard(owner, title);
  if (editors.length > 0) {
    const link = await shareLink(owner, 'can edit');
    for (const page of editors) await joinByLink(page, link, boardId);
  }
  if (viewers.length > 0) {
    const link = await shareLink(owner, 'can view');
    for (const page of viewers) await joinByLink(page, link, boardId, 'read-only');
  }
  return boardId;
}

export const canvas = (page: Page) => page.getByRole('application', { name: 'Board canvas' });
/**
 * The part of the screen the board is drawn in. Not the canvas's own box: while a zoom rests (and
 * for 150 ms after it) the canvas is scaled and moved by a CSS transform, so its box can start
 * off-screen.
 */
export const boardArea = (page: Page) => canvas(page).locator('..');

/** A drag with the mouse between two board-area points, in steps, as a person drags. */
export async function dragOnBoard(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  const area = (await boardArea(page).boundingBox())!;
  await page.mouse.move(area.x + from.x, area.y + from.y);
  await page.mouse.down();
  await page.mouse.move(area.x + to.x, area.y + to.y, { steps: 8 });
  await page.mouse.up();
}

/** Places a shape with a tool by clicking at canvas-relative (x, y). */
/**
 * Picks a tool of the tool bar by its name: its button, or on a phone, where the less used tools
 * are folded (client/src/board/ui/controls.ts, phoneBarTools), its item under "More tools".
 */
export async function pickTool(page: Page, tool: string): Promise<void> {
  const button = page
    .getByRole('toolbar', { name: 'Tools' })
    .getByRole('button', { name: tool, exact: true });
  if ((await button.count()) > 0) return button.click();
  await page.getByRole('button', { name: 'More tools', exact: true }).click();
  await page
    .getByRole('menu', { name: 'More tools' })
    .locator('[role^="menuitem"]')
    .filter({ hasText: new RegExp(`^${tool}$`) })
    .click();
}

export async function place(page: Page, tool: string, x: number, y: number): Promise<void> {
  await pickTool(page, tool);
  await boardArea(page).click({ position: { x, y } });
}

/** Picks `item` from the Export menu and answers the bytes of the file it downloads. */
export async function exported(page: Page, item: string): Promise<Buffer> {
  await page.getByRole('button', { name: 'Export' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: item, exact: true }).click(),
  ]);
  const path = join(tmpdir(), `tandem-${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(path);
  return readFileSync(path);
}

export const shapes = (page: Page, type?: string) =>
  page.locator(type ? `[data-shape-type="${type}"]` : '[data-shape-id]');

/** Counts the stored Yjs updates in a board's IndexedDB, to wait until an edit is on disk. */
export async function storedUpdates(page: Page, boardId: string): Promise<number> {
  return page.evaluate(async (boardId) => {
    const name = (await indexedDB.databases()).find((d) => d.name?.endsWith(`:${boardId}`))?.name;
    if (!name) return 0;
    return new Promise<number>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        const tx = db.transaction('updates', 'readonly');
        const count = tx.objectStore('updates').count();
        count.onsuccess = () => {
          resolve(count.result);
          db.close();
        };
        count.onerror = () => reject(count.error);
      };
    });
  }, boardId);
}

/**
 * Polls `fn` until it returns true (condition waits, not timed sleeps): testing/services.ts
 * `waitUntil`, polling every 50 ms since each check usually asks a browser page.
 */
/** The page names in the Pages panel, in order (docs/api.md §17). */
export const pageNames = async (page: Page): Promise<string[]> =>
  (await page.locator('.pages-panel .page-name').allTextContents()).map((s) => s.trim());

/** The app's path (`/b/:id/p/:page` on a page other than the first). */
export const pathOf = (page: Page): string => new URL(page.url()).pathname;

export const until = (fn: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> =>
  waitUntil(what, fn, timeoutMs, 50);

export const stickyText = (page: Page) => page.locator('[data-shape-type="sticky"] .shape-text');

/**
 * Takes `page` offline (once its service worker is ready), writes a sticky note saying `text` at
 * canvas (x, y), waits until the edit is in the IndexedDB copy of `docKey` (a board id, or
 * `boardId/pageId` for another page, docs/api.md §17) and reloads, still offline, until the note
 * shows again.
 */
export async function writeOfflineAndReload(
  page: Page,
  context: BrowserContext,
  docKey: string,
  text: string,
  at: { x: number; y: number },
): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await context.setOffline(true);
  await waitStatus(page, 'offline');
  const before = await storedUpdates(page, docKey);
  await place(page, 'Sticky note', at.x, at.y);
  await page.keyboard.type(text);
  await page.keyboard.press('Escape');
  await until(async () => (await storedUpdates(page, docKey)) > before, 'the offline edit in IndexedDB');
  await page.reload();
  await until(async () => (await stickyText(page).allTextContents()).includes(text), 'the edit after reload');
}

/**
 * Writes a board export of `count` shapes laid out in a grid (`perRow` across, 260 units apart)
 * to a temp file, for the Import JSON field; answers its path.
 */
export function gridBoardFile(
  count: number,
  {
    perRow = 100,
    types = ['sticky', 'rect', 'ellipse', 'diamond'],
    text = (i: number) => `#${i}`,
  }: {
    perRow?: number;
    types?: string[];
    text?: (i: number) => string;
  } = {},
): string {
  const shapes = Array.from({ length: count }, (_, i) => ({
    id: `s${i}`,
    type: types[i % types.length]!,
    x: (i % perRow) * 260,
    y: Math.floor(i / perRow) * 260,
    w: 200,
    h: 200,
    rotation: 0,
    color: 'yellow',
    z: `a${String(i).padStart(6, '0')}`,
    createdBy: 'x',
    text: text(i),
  }));
  const file = join(tmpdir(), `tandem-grid-${process.pid}-${Date.now()}-${count}.json`);
  writeFileSync(file, JSON.stringify({ version: 1, shapes }));
  return file;
}

/** What one page of a PDF paints: its size, and the one picture drawn on it (RGB, 8 bits). */
export interface PdfPagePicture {
  width: number;
  height: number;
  /** The pictures the page paints (an export paints one). */
  pictures: number;
  pixels: { width: number; height: number };
  rgb: Uint8Array;
  /** Distinct colours in the picture: a drawn page has many (antialiasing), a blank one one or two. */
  colours: number;
}

/**
 * Undoes PNG row filters (a PDF image's `/Predictor` 10–15: each row starts with its filter's
 * byte), which pdf-lib's decoder leaves in place: the rows' bytes, `rowBytes` long each.
 */
function unfilterPng(data: Uint8Array, rowBytes: number, bpp: number): Uint8Array {
  const rows = Math.floor(data.length / (rowBytes + 1));
  const out = new Uint8Array(rows * rowBytes);
  for (let r = 0; r < rows; r++) {
    const filter = data[r * (rowBytes + 1)];
    const src = r * (rowBytes + 1) + 1;
    const at = r * rowBytes;
    for (let i = 0; i < rowBytes; i++) {
      const a = i >= bpp ? out[at + i - bpp]! : 0;
      const b = r > 0 ? out[at - rowBytes + i]! : 0;
      const c = r > 0 && i >= bpp ? out[at - rowBytes + i - bpp]! : 0;
      let base = 0;
      if (filter === 1) base = a;
      else if (filter === 2) base = b;
      else if (filter === 3) base = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        base = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[at + i] = (data[src + i]! + base) & 0xff;
    }
  }
  return out;
}

/**
 * Each page of a PDF made by the client's exports (jsPDF: one PNG picture per page), read in Node
 * with pdf-lib, no system tool needed.
 */
export function pdfPagePictures(pdf: PDFDocument): PdfPagePicture[] {
  return pdf.getPages().map((page) => {
    const { width, height } = page.getSize();
    // The page's drawing operators name the pictures it paints (`/Name Do`); jsPDF lists every
    // picture of the file in each page's resources, so the resources alone do not say which.
    const contents = page.node.Contents();
    const streams =
      contents instanceof PDFArray ? contents.asArray().map((ref) => pdf.context.lookup(ref)) : [contents];
    const operators = streams
      .filter((stream): stream is PDFRawStream => stream instanceof PDFRawStream)
      .map((stream) => new TextDecoder().decode(decodePDFRawStream(stream).decode()))
      .join('\n');
    const painted = [...operators.matchAll(/\/([^\s/]+)\s+Do\b/g)].map((match) => match[1] as string);
    const xobjects = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
    const images = painted
      .map((name) => xobjects && pdf.context.lookup(xobjects.get(PDFName.of(name))))
      .filter((obj): obj is PDFRawStream => obj instanceof PDFRawStream)
      .filter((stream) => stream.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
    const image = images[0];
    if (!image)
      return {
        width,
        height,
        pictures: 0,
        pixels: { width: 0, height: 0 },
        rgb: new Uint8Array(),
        colours: 0,
      };
    const number = (key: string) => (image.dict.get(PDFName.of(key)) as PDFNumber).asNumber();
    assert.equal(number('BitsPerComponent'), 8);
    assert.equal(image.dict.get(PDFName.of('ColorSpace')), PDFName.of('DeviceRGB'));
    const inflated = decodePDFRawStream(image).decode();
    const parms = image.dict.lookupMaybe(PDFName.of('DecodeParms'), PDFDict);
    const predictor = (parms?.get(PDFName.of('Predictor')) as PDFNumber | undefined)?.asNumber() ?? 1;
    const rgb = predictor >= 10 ? unfilterPng(inflated, number('Width') * 3, 3) : inflated;
    const colours = new Set<number>();
    for (let p = 0; p + 2 < rgb.length; p += 3)
      colours.add(((rgb[p] ?? 0) << 16) | ((rgb[p + 1] ?? 0) << 8) | (rgb[p + 2] ?? 0));
    return {
      width,
      height,
      pictures: images.length,
      pixels: { width: number('Width'), height: number('Height') },
      rgb,
      colours: colours.size,
    };
  });
}

/** Dispatches a paste carrying one image file, as the browser does for a copied picture. */
export async function pasteImage(page: Page, bytes: Buffer, type = 'image/png') {
  await page.evaluate(
    ({ b64, type }) => {
      const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], 'pasted.png', { type }));
      document.body.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
      );
    },
    { b64: bytes.toString('base64'), type },
  );
}

/**
 * What Chromium's own accessibility tree holds inside the canvas, as "role name" lines, leaving
 * out the nodes it ignores: what a screen reader can reach there.
 */
export async function underCanvas(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  type Node = {
    nodeId: string;
    ignored: boolean;
    childIds?: string[];
    role?: { value: string };
    name?: { value: string };
  };
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: Node[] };
  await cdp.detach();
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const root = nodes.find((n) => n.role?.value === 'application' && n.name?.value === 'Board canvas');
  const out: string[] = [];
  const walk = (n: Node) => {
    for (const id of n.childIds ?? []) {
      const child = byId.get(id);
      if (!child) continue;
      if (!child.ignored) out.push(`${child.role?.value} ${child.name?.value ?? ''}`.trim());
      walk(child);
    }
  };
  if (root) walk(root);
  return out;
}

/** What has focus, as a screen reader names it. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'the page';
    return `${el.getAttribute('role') ?? el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent?.trim()}`;
  });

/** Whether the named shape is drawn wholly inside the board area on screen. */
export async function inView(page: Page, name: string): Promise<boolean> {
  // Not drawn at all (far outside the view) counts as out of view.
  const img = canvas(page).getByRole('img', { name, exact: true });
  if ((await img.count()) === 0) return false;
  const shape = await img.boundingBox({ timeout: 1000 });
  const area = await boardArea(page).boundingBox();
  if (!shape || !area) return false;
  return (
    shape.x >= area.x &&
    shape.y >= area.y &&
    shape.x + shape.width <= area.x + area.width &&
    shape.y + shape.height <= area.y + area.height
  );
}

/**
 * The elements `target` matches that a click at their centre would not reach, each as "its name
 * (under what is on top there)": [] when every one is on screen and painted on top (what
 * document.elementFromPoint answers), not under a side panel, a card or another menu.
 */
export const covered = (target: Locator): Promise<string[]> =>
  target.evaluateAll((els) =>
    els.flatMap((el) => {
      const r = el.getBoundingClientRect();
      const name = el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName;
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight)
        return [`${name} (off screen)`];
      const hit = document.elementFromPoint(x, y);
      if (hit && el.contains(hit)) return [];
      const over = hit?.closest('[aria-label], [class]');
      return [
        `${name} (under ${over?.getAttribute('aria-label') ?? over?.getAttribute('class') ?? 'nothing'})`,
      ];
    }),
  );

/** The app's confirmation dialog (client/src/board/ui/Confirm.tsx), the one open. */
export const confirmDialog = (page: Page) => page.locator('dialog.confirm-dialog[open]');

/**
 * Clicks `button`, answers the confirmation dialog it must open with the action's own button
 * (`answer`, e.g. "Delete board") or, for false, Cancel, and resolves to the dialog's sentence
 * (its description) once it has closed. Fails when no confirmation comes, or when its sentence
 * asks the title's question again instead of only saying what happens.
 */
export async function answerConfirm(page: Page, button: Locator, answer: string | false): Promise<string> {
  await button.click();
  const dialog = confirmDialog(page);
  await dialog.waitFor({ timeout: 15_000 });
  const sentence = await dialog.evaluate(
    (el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '',
  );
  assert.ok(!sentence.includes('?'), `the confirmation's sentence repeats its question: ${sentence}`);
  await dialog.getByRole('button', { name: answer === false ? 'Cancel' : answer, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  return sentence;
}
