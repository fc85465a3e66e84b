// The README's first command, as a newcomer runs it: `bash scripts/run.sh`
// on the checkout, served on a loopback port, opened in Chromium, one
// example run to its result; then the style sheet is edited, and the
// server builds again (at most twice), serves the edit and settles (a build
// that set itself off would never settle); then the server is stopped as Ctrl-C
// stops it, and the edit undone. scripts/test.sh runs this before anything
// else builds the site, so on CI's clean clone it is the fresh-clone case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { launchChromium } from './harness.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
/// The first build compiles the engine to wasm twice (page and worker).
const FIRST_BUILD_MS = 45 * 60_000;
const REBUILD_MS = 15 * 60_000;
/// A build that a build's own output set off would start within this.
const SETTLE_MS = 8_000;
/// The builds one edit may set off (see where it is checked).
const MAX_BUILDS_PER_EDIT = 2;

/// A loopback port nothing listens on now.
async function freePort() {
  const server = createServer();
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  await new Promise((ok) => server.close(ok));
  return port;
}

/// `bash scripts/run.sh` on `port`, in a process group of its own; its
/// output (stdout and stderr) gathers in `out.text`.
function runSh(port) {
  const child = spawn('bash', ['scripts/run.sh', '--port', String(port)], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // NO_COLOR as the convention has it (any value), which Trunk alone
    // would refuse; and no escape codes in the output read here.
    env: { ...process.env, NO_COLOR: '1' },
  });
  const out = { text: '' };
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (d) => { out.text += d; });
  const exited = new Promise((ok) => child.on('exit', (code, signal) => ok({ code, signal })));
  return { child, out, exited };
}

/// How many builds the server has finished.
const builds = (out) => (out.text.match(/success/g) ?? []).length;

/// Waits until `ready()` holds, failing with the server's output if it
/// exits first or `ms` pass.
async function until(what, ready, server, ms) {
  const deadline = Date.now() + ms;
  let ended = null;
  server.exited.then((e) => { ended = e; });
  while (!(await ready())) {
    if (ended) assert.fail(`scripts/run.sh exited (${JSON.stringify(ended)}) before ${what}:\n${server.out.text.slice(-4000)}`);
    if (Date.now() > deadline) assert.fail(`no ${what} within ${ms / 1000} s:\n${server.out.text.slice(-4000)}`);
    await sleep(500);
  }
}

async function pageServed(base) {
  try {
    const response = await fetch(base);
    return response.ok && /Symplay/.test(await response.text());
  } catch {
    return false;
  }
}

test('scripts/run.sh serves the playground, runs an example, rebuilds on a change and stops on Ctrl-C', { timeout: FIRST_BUILD_MS + REBUILD_MS + 120_000 }, async () => {
  if (process.env.CI) {
    // What a fresh clone has: nothing the build makes.
    for (const made of ['dist', 'web/editor/dist/editor.js']) {
      assert.ok(!existsSync(join(root, made)), `${made} exists before scripts/run.sh ran: not a fresh checkout`);
    }
  }
  const style = join(root, 'static', 'style.css');
  const original = readFileSync(style, 'utf8');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/`;
  const server = runSh(port);
  const browser = await launchChromium();
  try {
    await until('the page served', () => pageServed(base), server, FIRST_BUILD_MS);

    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(base);
    await page.waitForSelector('#entry:enabled option', { state: 'attached' });
    await page.click('#run');
    await page.waitForSelector('.results h2:has-text("completed")');
    assert.match(await page.locator('.results h2').innerText(), /get_sign: 3 paths \(completed\)/);

    // An edit is built, served, and serving goes on.
    const before = builds(server.out);
    const edit = `\n/* edited while served, ${Date.now()} */\n`;
    writeFileSync(style, original + edit);
    await until('a build after the edit', async () => builds(server.out) > before, server, REBUILD_MS);
    await until('the edit served', async () => (await (await fetch(`${base}style.css`)).text()).includes(edit.trim()), server, 60_000);
    // One save can reach Trunk as two changes a few microseconds apart, the
    // second during the build the first started, which Trunk answers with one
    // more build; a build set off by its own output would never stop.
    await sleep(SETTLE_MS);
    const settled = builds(server.out);
    await sleep(SETTLE_MS);
    const log = server.out.text.slice(-4000);
    assert.equal(builds(server.out), settled, `the server kept building after one edit:\n${log}`);
    assert.ok(settled - before <= MAX_BUILDS_PER_EDIT, `one edit set off ${settled - before} builds:\n${log}`);
    await page.reload();
    await page.waitForSelector('#entry:enabled option', { state: 'attached' });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    // Ctrl-C in the terminal sends SIGINT to the whole foreground group.
    try { process.kill(-server.child.pid, 'SIGINT'); } catch { /* gone already */ }
    const stopped = await Promise.race([server.exited, sleep(10_000).then(() => null)]);
    if (!stopped) process.kill(-server.child.pid, 'SIGKILL');
    writeFileSync(style, original);
  }
  assert.equal(await pageServed(base), false, 'still served after Ctrl-C');
});
