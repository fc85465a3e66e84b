// What the browser tests and the browser benchmark share: the built site
// (`dist/`) served on a free loopback port, Debian Chromium started
// headless with the flags this machine needs, and the ways a person gives
// the page its input (typing, pasting, picking, clicking, uploading), and
// the ways a person finds what the page has put behind a tab or a button
// (the panes of results, the program's panes, the options), so that every
// journey uses real input and knows nothing of the layout.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { before, after } from 'node:test';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));
export const dist = join(here, '..', '..', 'dist');
/// Where the browser tests save their screenshots.
export const artifacts = join(here, 'artifacts');
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };

/// Serves `dist/`; resolves to the server and its base address.
export async function serveDist() {
  const server = createServer(async (req, res) => {
    const path = normalize(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
    try {
      const body = await readFile(join(dist, path));
      res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, base: `http://127.0.0.1:${server.address().port}/` };
}

/// Headless Chromium (`CHROMIUM`, or Debian's); playwright-core gives each
/// context a fresh profile.
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/// For a test file: serves `dist/` and starts Chromium before its tests,
/// and stops both after them. The object gets `base` and `browser` then.
export function servedPlayground() {
  const env = {};
  before(async () => {
    await mkdir(artifacts, { recursive: true });
    ({ server: env.server, base: env.base } = await serveDist());
    env.browser = await launchChromium();
  });
  after(async () => {
    await env.browser?.close();
    env.server?.close();
  });
  return env;
}

/// The whole text of the page's code editor, as it holds it (the editor
/// draws only the lines in view).
export function editorText(page) {
  return page.evaluate(() => SymplayEditor.textIn(document.querySelector('#source')));
}

/// Saves what the page shows as a teacher projects it (1280×720) and as a
/// phone shows it (390×844), for a person to look at; with `selector`,
/// scrolled to show that element, as a person would.
export async function screenshots(page, name, selector) {
  const size = page.viewportSize();
  for (const [width, height] of [[1280, 720], [390, 844]]) {
    await page.setViewportSize({ width, height });
    if (selector) await page.locator(selector).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, `${name}-${width}.png`) });
  }
  await page.setViewportSize(size);
}

/// Waits until the run under way has found paths (its progress says so).
export function runningWithPaths(page) {
  return page.waitForFunction(() => /running: [1-9]\d* paths/.test(document.querySelector('#progress')?.innerText ?? ''));
}

/// Opens `url` (the playground if none) in a fresh context, a fresh
/// profile as a new visitor has, with the clipboard allowed (for pastes),
/// and waits for its first module's entries. Collects the page's errors.
export async function visit(env, url = env.base, contextOptions = {}) {
  const context = await env.browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'], ...contextOptions });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector('#entry:enabled option', { state: 'attached' });
  return { page, errors };
}

/// Puts the caret in the code editor with a click, as a person does
/// before typing (once there are results, the editor's tab first).
export async function clickEditor(page) {
  await showCode(page, 'edit');
  await page.click('#source .cm-content', { position: { x: 5, y: 5 } });
}

/// Replaces the editor's text by typing `text` key by key, and checks the
/// editor holds it as typed (it indents new lines: type one line).
export async function typeModule(page, text) {
  await clickEditor(page);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  assert.equal(await editorText(page), text, 'the editor holds the text typed');
}

/// Replaces the editor's text by a paste: the text put on the clipboard
/// (as if copied elsewhere), a click in the editor, Ctrl+A, Ctrl+V.
export async function pasteModule(page, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await clickEditor(page);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
}

/// Leaves the editor as a person does with the keyboard: Tab.
export function leaveEditor(page) {
  return page.keyboard.press('Tab');
}

/// Picks the option of value `value` in the list `selector`: a click opens
/// the list, the arrow keys walk to the option, Enter takes it. Checks the
/// choice took.
export async function pick(page, selector, value) {
  const list = page.locator(selector);
  const [from, to] = await list.evaluate((select, value) =>
    [select.selectedIndex, [...select.options].findIndex((o) => o.value === value)], value);
  assert.ok(to >= 0, `${selector} has no option ${value}`);
  await list.click();
  const key = to > from ? 'ArrowDown' : 'ArrowUp';
  for (let i = 0; i < Math.abs(to - from); i++) await page.keyboard.press(key);
  await page.keyboard.press('Enter');
  assert.equal(await list.inputValue(), value, `${selector}: the option picked`);
}

/// Types `text` into the field `selector` over what it holds: a click,
/// Ctrl+A, then the keys (Delete to empty it). Checks the field took it.
export async function setField(page, selector, text) {
  const field = page.locator(selector);
  await field.click();
  await page.keyboard.press('Control+A');
  if (text === '') {
    await page.keyboard.press('Delete');
  } else {
    await page.keyboard.type(text);
  }
  assert.equal(await field.inputValue(), text, `${selector}: the text typed`);
}

/// Clicks the tree node `node` (a `.node` of a tree) with the mouse in the
/// middle of its circle, where it is drawn, as a person does once they see
/// it: its tree scrolled into view, the node inside the tree's view, not
/// covered by anything that would take the click, and still (a tree that
/// grows moves its nodes until the pointer is over it, so the pointer goes
/// to the node first). Fails if that does not come within 5 s.
export async function clickNode(node) {
  const circle = node.locator('circle').first();
  await circle.locator('xpath=ancestor::*[local-name()="svg"][1]').scrollIntoViewIfNeeded();
  const first = await circle.evaluate(whereToClick);
  await node.page().mouse.move(first.x, first.y);
  let seen = {};
  for (const deadline = Date.now() + 5_000; ;) {
    const now = await circle.evaluate(whereToClick);
    if (!now.onTop && now.x === seen.x && now.y === seen.y) {
      await node.page().mouse.click(now.x, now.y);
      return;
    }
    assert.ok(Date.now() < deadline, now.onTop
      ? `a click on the node at ${now.x.toFixed(0)},${now.y.toFixed(0)} would hit ${now.onTop}`
      : 'the node keeps moving');
    seen = now;
    await node.page().waitForTimeout(50);
  }
}

/// The middle of `circle` on screen, and what a click there would hit if
/// not the circle's node (runs in the page).
function whereToClick(circle) {
  const r = circle.getBoundingClientRect();
  const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
  const svg = circle.ownerSVGElement.getBoundingClientRect();
  if (!(x > svg.left && x < svg.right && y > svg.top && y < svg.bottom)) {
    return { x, y, onTop: `nothing: the node is out of its tree's view (${svg.left.toFixed(0)},${svg.top.toFixed(0)} to ${svg.right.toFixed(0)},${svg.bottom.toFixed(0)})` };
  }
  const top = document.elementFromPoint(x, y);
  if (top && circle.closest('[data-node]').contains(top)) return { x, y, onTop: null };
  return { x, y, onTop: top ? `<${top.tagName.toLowerCase()} class="${top.getAttribute('class') ?? ''}">${top.textContent.slice(0, 40)}` : 'nothing (off the page)' };
}

/// Gives the tree the keyboard as a person does: a click on its background.
export async function focusTree(page) {
  const box = await page.locator('#tree svg').boundingBox();
  await page.mouse.click(box.x + 5, box.y + box.height - 5);
}

/// Uploads a file through the page's file picker: a path, or
/// `{ name, mimeType, buffer }`.
export function uploadFile(page, file) {
  return page.setInputFiles('#upload', file);
}

/// Drops a file named `name` holding `bytes` on the editor, as a real drag
/// from the desktop delivers it: a DataTransfer with the file.
export async function dropFile(page, name, bytes, type) {
  const transfer = await page.evaluateHandle(([bytes, name, type]) => {
    const t = new DataTransfer();
    t.items.add(new File([new Uint8Array(bytes)], name, { type }));
    return t;
  }, [[...bytes], name, type]);
  await page.dispatchEvent('#source', 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent('#source', 'drop', { dataTransfer: transfer });
}

/// Whether the page shows a run's results (else it is set up for one: the
/// program and the options on screen, no tabs).
export async function showsResults(page) {
  return await page.locator('main.page.setup-mode').count() === 0;
}

/// Shows the pane of results `name` below the tree (`node`, `bugs`,
/// `paths`, `step` or `comparison`) with a click on its tab.
export async function showTab(page, name) {
  await page.click(`#tab-${name}`);
  await page.locator(`#pane-${name}`).waitFor();
}

/// Shows the program's pane `name` (`c`, `wat` or `edit`) with a click on
/// its tab. Before a run there are no tabs: the C source and the editor
/// are both on screen (and a binary module's WAT).
export async function showCode(page, name) {
  if (!await showsResults(page)) return;
  await page.click(`#code-${name}`);
  await page.locator(`#code-${name}[aria-selected="true"]`).waitFor();
}

/// Opens the options with their button once there are results (before a
/// run they are on screen).
export async function openOptions(page) {
  const toggle = page.locator('#options-toggle');
  if (await toggle.count() > 0 && await toggle.getAttribute('aria-expanded') !== 'true') await toggle.click();
  await page.locator('#setup #search').waitFor();
}

/// Closes the options opened over the results with their close button
/// (open, they lie over the top bar's buttons); before a run they stay.
export async function closeOptions(page) {
  if (!await showsResults(page)) return;
  await page.click('#options-close');
  await page.locator('#setup.open').waitFor({ state: 'detached' });
}

/// The rows of the table of paths, shown with a click on its tab: each
/// row's cells joined by tabs.
export async function pathRows(page) {
  await showTab(page, 'paths');
  return page.locator('#paths tbody tr:not(.spacer)').allInnerTexts();
}

/// The share link of the page at `base` that carries `json` (the page's
/// state: `docs/share-links.md`).
export function shareLink(base, json) {
  return `${base}#share=${deflateRawSync(Buffer.from(JSON.stringify(json)), { level: 9 }).toString('base64url')}`;
}

/// A module of 1 MB of WAT text whose link is about 10 KiB: many small
/// functions, one exported.
export function megabyteModule() {
  let text = '(module\n  (func (export "f") (param $x i32) (result i32) (i32.add (local.get $x) (i32.const 1)))\n';
  let seed = 1;
  for (let i = 0; text.length < 1_000_000; i++) {
    // Mostly a short cycle of constants, now and then a random one, so
    // that the text compresses about a hundredfold.
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const k = i % 40 === 0 ? seed % 100_000 : i % 13;
    text += `  (func (param $x i32) (result i32) (i32.add (local.get $x) (i32.const ${k})))\n`;
  }
  return `${text})\n`;
}
