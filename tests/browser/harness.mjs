// What the browser tests and the browser benchmark share: the built site
// (`dist/`) served on a free loopback port, and Debian Chromium started
// headless with the flags this machine needs.
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { before, after } from 'node:test';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
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
