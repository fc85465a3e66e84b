// End-to-end tests of the built playground (`dist/`, from `trunk build`) in
// headless Debian Chromium. Run by scripts/test.sh; screenshots of the main
// screens go to tests/browser/artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  artifacts, clickNode, closeOptions, editorText, focusTree, leaveEditor, openOptions, pasteModule, pathRows, pick,
  runningWithPaths, screenshots, servedPlayground, setField, showCode, showTab, typeModule, uploadFile, visit,
} from './harness.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

/// Counts up to a symbolic bound: a new path every iteration, never done.
/// One line, short enough to type.
const ENDLESS = '(module (func (export "f") (param i32) (local i32) (loop (br_if 0 (i32.ne (local.get 0) (local.tee 1 (i32.add (local.get 1) (i32.const 1))))))))';

/// One independent branch per bit of the argument: 2^12 paths.
const BITS = `(module (func (export "bits") (param i32) (result i32) (local i32)
  ${Array.from({ length: 12 }, (_, k) =>
    `(if (i32.and (local.get 0) (i32.const ${1 << k})) (then (local.set 1 (i32.add (local.get 1) (i32.const 1)))))`).join('\n  ')}
  (local.get 1)))`;

/// A loop over a symbolic n of at most 300 that writes a byte per
/// iteration: 301 states wait at its exit to merge, and validation asks
/// the solver a query per state, each a step of the merge.
const WRITES = `(module (memory 1)
  (func (export "f") (param $n i32) (result i32) (local $i i32)
    (if (i32.gt_u (local.get $n) (i32.const 300)) (then (return (i32.const 0))))
    (block $exit
      (loop $loop
        (br_if $exit (i32.ge_u (local.get $i) (local.get $n)))
        (i32.store8 (i32.add (i32.const 1024) (local.get $i)) (local.get $i))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $loop)))
    (i32.load8_u (i32.const 1030))))`;

/// One solver query of minutes.
const FACTOR = await readFile(join(here, '..', 'data', 'factor.wat'), 'utf8');

/// A float parameter, fixed to zero: a branch on it has one side.
const FLOAT_PARAMETER = await readFile(join(here, '..', 'data', 'wat', 'float_parameter.wat'), 'utf8');

/// One solver query whose circuit has tens of millions of gates.
const POLYNOMIAL = await readFile(join(here, '..', 'data', 'limits', 'polynomial.wat'), 'utf8');

const env = servedPlayground();

/// The page as a new visitor opens it.
function open() {
  return openAt(env.base);
}

/// An endless module run breadth first with a click on Run, once it has
/// found paths.
async function runEndless(page) {
  await load(page, ENDLESS, 'f');
  await pick(page, '#search', 'bfs');
  await page.click('#run');
  await runningWithPaths(page);
}

/// Pastes `source` into the editor and waits for its entry `entry`.
async function load(page, source, entry) {
  await pasteModule(page, source);
  await page.waitForSelector(`#entry option[value="${entry}"]`, { state: 'attached' });
}

test('get_sign has three paths, each input with its sign', async () => {
  const { page, errors } = await open();
  assert.match(await page.locator('#entry').innerText(), /get_sign \(i32\) -> i32/);
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  const rows = await pathRows(page);
  assert.equal(rows.length, 3);
  const signs = rows.map((row) => {
    const [, outcome, input] = row.split('\t');
    const ret = Number(/returned \[(-?\d+)\]/.exec(outcome)[1]);
    const arg = Number(/^x = (-?\d+)$/.exec(input)[1]);
    assert.equal(ret, Math.sign(arg), row);
    return ret;
  });
  assert.deepEqual(signs.sort(), [-1, 0, 1]);
  assert.match(await page.locator('.results h2').innerText(), /3 paths \(completed\)/);
  await page.screenshot({ path: join(artifacts, 'get-sign.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

test('garbage gets a readable error', async () => {
  const { page, errors } = await open();
  await typeModule(page, 'this is not a module');
  await leaveEditor(page);
  const error = await page.locator('#error').innerText();
  assert.match(error, /invalid WAT/);
  await page.screenshot({ path: join(artifacts, 'error.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

test('Stop ends a long exploration with its paths, and the page answers', async () => {
  const { page, errors } = await open();
  await runEndless(page);
  assert.match(await page.locator('#progress').innerText(),
    /running: \d+ paths, \d+ pending states, [1-9]\d* solver queries, \d+ instructions, \d+\.\d s/);
  assert.equal(await page.isEnabled('#stop'), true);
  await page.click('#stop');
  await page.waitForSelector('.results h2:has-text("cancelled")');
  const heading = await page.locator('.results h2').innerText();
  const [, paths] = /(\d+) paths \(cancelled\)/.exec(heading);
  assert.ok(Number(paths) > 0, heading);
  assert.equal(await page.isEnabled('#run'), true);
  await page.screenshot({ path: join(artifacts, 'stopped.png') });
  // The same worker takes the next run.
  await openOptions(page);
  await pick(page, '#search', 'dfs');
  await setField(page, '#max-paths', '4');
  await closeOptions(page);
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("path limit")');
  assert.equal((await pathRows(page)).length, 4);
  assert.deepEqual(errors, []);
});

test('Ctrl+Enter runs what is in the editor, Escape stops', async () => {
  const { page, errors } = await open();
  await typeModule(page, ENDLESS);
  // Right after typing, before the page takes the text: the shortcut reads
  // the editor as it is.
  await page.keyboard.press('Control+Enter');
  await runningWithPaths(page);
  await page.keyboard.press('Escape');
  await page.waitForSelector('.results h2:has-text("cancelled")');
  assert.equal(await page.isEnabled('#run'), true);
  assert.deepEqual(errors, []);
});

test('Escape stops a run started with the mouse, whatever has the focus', async () => {
  const { page, errors } = await open();
  // A click on Run leaves the focus on a button that is then disabled.
  await runEndless(page);
  await page.keyboard.press('Escape');
  await page.waitForSelector('.results h2:has-text("cancelled")');
  assert.equal(await page.isEnabled('#run'), true);
  await screenshots(page, 'escape-after-click');
  assert.deepEqual(errors, []);
});

test('a path limit counts pending states: breadth first over an endless loop ends with its paths', async () => {
  const { page, errors } = await open();
  await load(page, ENDLESS, 'f');
  await pick(page, '#search', 'bfs');
  await setField(page, '#max-paths', '5');
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("path limit")', { timeout: 20_000 });
  assert.equal(await page.locator('.results h2').innerText(), 'f: 5 paths (path limit)');
  assert.equal((await pathRows(page)).length, 5);
  assert.match(await page.locator('.results').innerText(), /the path limit \(5\) left \d+ sides of forks unexplored/);
  assert.deepEqual(errors, []);
});

test('Stop inside a long solver query restarts the engine, and the next run works', async () => {
  const { page, errors } = await open();
  await load(page, FACTOR, 'factor');
  await page.click('#run');
  await page.waitForFunction(() => /running:/.test(document.querySelector('#progress')?.innerText ?? ''));
  // The page tells a worker silent in one long step from a stuck page.
  assert.match(await page.locator('#busy').innerText({ timeout: 10_000 }),
    /no word from the engine for \d+ s: it is inside one long step/);
  const stopped = Date.now();
  await page.click('#stop');
  const error = await page.locator('#error:has-text("restarted")').innerText({ timeout: 15_000 });
  // Stop takes effect within about a second, even inside one query.
  const took = Date.now() - stopped;
  assert.ok(took < 1_800, `restarted ${took} ms after Stop`);
  assert.match(error, /did not stop within 1 s .* so it was restarted; it had shown no results yet/);
  assert.equal(await page.isEnabled('#run'), true);
  assert.equal(await page.isEnabled('#stop'), false);
  await page.screenshot({ path: join(artifacts, 'stop-restarted.png') });
  // The new engine takes the next run.
  await pick(page, '#example', 'sign');
  await page.waitForSelector('#entry option[value="get_sign"]', { state: 'attached' });
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("3 paths (completed)")');
  assert.deepEqual(errors, []);
});

test('Stop in the middle of a long merge ends the run at once with what it found: the worker answers between the merge\'s steps', async () => {
  const { page, errors } = await open();
  await load(page, WRITES, 'f');
  await openOptions(page);
  await pick(page, '#merge', 'cfg');
  await page.click('#validate-merge');
  await closeOptions(page);
  await page.click('#run');
  // The progress line says while states merge.
  await page.waitForFunction(() => /running: .*, 30[12] pending states \(301 merging\)/
    .test(document.querySelector('#progress')?.innerText ?? ''), null, { timeout: 60_000 });
  await page.screenshot({ path: join(artifacts, 'merging.png') });
  const stopped = Date.now();
  await page.click('#stop');
  await page.waitForSelector('.results h2:has-text("(cancelled)")', { timeout: 10_000 });
  const took = Date.now() - stopped;
  // Answered by the engine itself, not by a restart of a silent one.
  assert.ok(took < 1_800, `stopped ${took} ms after Stop`);
  assert.equal(await page.locator('#error').count(), 0);
  // The states that were merging are left pending, unmerged.
  const progress = await page.locator('#progress').innerText();
  assert.match(progress, /^[01] paths?, 30[12] pending states, /);
  assert.doesNotMatch(progress, /merging/);
  assert.equal(await page.locator('#tree .node.merged-away').count(), 0);
  assert.equal(await page.isEnabled('#run'), true);
  await page.screenshot({ path: join(artifacts, 'merge-stopped.png') });
  assert.deepEqual(errors, []);
});

test('the time limit holds inside a long solver query', async () => {
  const { page, errors } = await open();
  await load(page, FACTOR, 'factor');
  assert.equal(await page.inputValue('#max-time'), '60', 'a new page runs for 60 s at most');
  await setField(page, '#max-time', '1');
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("0 paths (time limit)")', { timeout: 30_000 });
  // The cut-off state is still to explore: one open node, not a dropped one.
  assert.equal(await page.locator('#tree .node.open').count(), 1);
  assert.equal(await page.locator('#tree .node.dropped').count(), 0);
  assert.match(await page.locator('#progress').innerText(), /^0 paths, 1 pending state, /);
  assert.deepEqual(errors, []);
});

test('the memory limit holds inside bit-blasting, on the heap the worker really uses', async () => {
  const { page, errors } = await open();
  // One query whose circuit would take gigabytes.
  await load(page, POLYNOMIAL, 'poly');
  await setField(page, '#max-memory', '256');
  const started = Date.now();
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("(memory limit)")', { timeout: 30_000 });
  const took = Date.now() - started;
  assert.equal(await page.locator('.results h2').innerText(), 'poly: 0 paths (memory limit)');
  assert.match(await page.locator('#progress').innerText(), /^0 paths, 1 pending state, /);
  // The engine in the page answers the next run.
  await openOptions(page);
  await setField(page, '#max-memory', '');
  await closeOptions(page);
  await load(page, ENDLESS, 'f');
  await setField(page, '#max-paths', '3');
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("f: 3 paths (path limit)")');
  console.log(`memory limit reached in the page after ${took} ms`);
  assert.deepEqual(errors, []);
});

test('a run that made a value concrete says that not every path was explored', async () => {
  const { page, errors } = await open();
  await load(page, FLOAT_PARAMETER, 'half');
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("(completed)")');
  assert.equal(await page.locator('.results h2').innerText(), 'half: 1 path (completed)');
  assert.match(await page.locator('#concretised').innerText(),
    /^not every path was explored: values were made concrete \(the float parameter arg0 at half\+0x[0-9a-f]+, on 1 path\)$/);
  // Its field says so before the run too.
  assert.equal(await page.getAttribute('#arg-0', 'placeholder'), '0: floats are not symbolic');
  assert.equal(await page.isDisabled('#arg-0'), true);
  await page.screenshot({ path: join(artifacts, 'concretised.png'), fullPage: true });
  // A run that concretised nothing says nothing of it.
  await load(page, ENDLESS, 'f');
  await setField(page, '#max-paths', '2');
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("f: 2 paths (path limit)")');
  assert.equal(await page.locator('#concretised').count(), 0);
  assert.deepEqual(errors, []);
});

test('the tree grows while the exploration runs, and Stop keeps it', async () => {
  const { page, errors } = await open();
  await load(page, ENDLESS, 'f');
  await pick(page, '#search', 'bfs');
  await page.click('#run');
  const live = () => page.evaluate(() => document.querySelectorAll('#tree .node').length);
  await page.waitForSelector('#tree h2:has-text("so far")');
  const first = await live();
  assert.ok(first > 0);
  assert.match(await page.locator('.results h2').innerText(), /\d+ paths \(running\)/);
  // The view is the same component all along: a selected node stays selected.
  await clickNode(page.locator('#tree .node').first());
  assert.match(await page.locator('#node-details h3').innerText(), /^node 0 /);
  await page.waitForFunction((n) => document.querySelectorAll('#tree .node').length > n, first);
  assert.match(await page.locator('#node-details h3').innerText(), /^node 0 /);
  await page.screenshot({ path: join(artifacts, 'tree-growing.png') });
  await page.click('#stop');
  await page.waitForSelector('.results h2:has-text("cancelled")');
  assert.ok(await live() > first);
  assert.doesNotMatch(await page.locator('#tree h2').innerText(), /so far/);
  assert.deepEqual(errors, []);
});

test('the examples gallery shows C beside WAT, and a path marks its WAT line', async () => {
  const { page, errors } = await open();
  const options = await page.locator('#example option').count();
  assert.ok(options >= 9, `${options} options`);
  await pick(page, '#example', 'password');
  await page.waitForSelector('#entry option[value="check_password"]', { state: 'attached' });
  assert.match(await page.locator('#c-source').innerText(), /s3cr3t!/);
  assert.match(await editorText(page), /\(export "check_password"/);
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  await showTab(page, 'paths');
  const bug = page.locator('#paths tbody tr', { hasText: 'assertion failed' });
  assert.equal(await bug.count(), 1);
  // The password as a string: "s3cr3t!" and its NUL.
  assert.match(await bug.innerText(), /guess = "s3cr3t!\\0"/);
  // The bug list names the same input.
  await showTab(page, 'bugs');
  assert.match(await page.locator('#bugs .bug').innerText(), /assertion failed .* with guess = "s3cr3t!\\0"/);
  assert.match(await page.locator('.bugs h3').innerText(), /^1 bug$/);
  await showTab(page, 'paths');
  await bug.click();
  await showCode(page, 'wat');
  const marked = await page.locator('#wat .line.marked').innerText();
  assert.match(marked, /call/);
  await page.screenshot({ path: join(artifacts, 'gallery.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

/// Clicks, with the mouse, a leaf drawn inside the tree's viewport.
async function clickVisibleLeaf(page) {
  await page.locator('#tree svg').scrollIntoViewIfNeeded();
  const leaves = page.locator('#tree .node.leaf');
  const inView = await leaves.evaluateAll((nodes) => {
    const box = document.querySelector('#tree svg').getBoundingClientRect();
    return nodes.findIndex((node) => {
      const r = node.querySelector('circle').getBoundingClientRect();
      const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
      return r.width >= 2 && x > box.left + 5 && x < box.right - 5 && y > box.top + 5 && y < box.bottom - 5;
    });
  });
  assert.ok(inView >= 0, 'no leaf in view');
  await clickNode(leaves.nth(inView));
}

/// The inputs of the table of paths, shown with a click on its tab.
async function tableInputs(page) {
  await showTab(page, 'paths');
  return new Set(await page.locator('#paths tbody td.input').allInnerTexts());
}

test('the tree of get_sign: three leaves, details on click, collapse', async () => {
  const { page, errors } = await open();
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  assert.equal(await page.locator('#tree .node.leaf').count(), 3);
  assert.equal(await page.locator('#tree .node.inner-node').count(), 2);
  assert.equal((await pathRows(page)).length, 3);
  await clickVisibleLeaf(page);
  const input = await page.locator('#node-details .input').innerText();
  assert.ok((await tableInputs(page)).has(input), input);
  await showTab(page, 'node');
  const arg = Number(/^x = (-?\d+)$/.exec(input)[1]);
  const outcome = await page.locator('#node-details .outcome').innerText();
  assert.equal(Number(/returned \[(-?\d+)\]/.exec(outcome)[1]), Math.sign(arg));
  // The exact SMT-LIB forms, one click away.
  assert.equal(await page.locator('#node-details .smt').isVisible(), false);
  await page.click('#branch-smt summary');
  await page.click('#path-smt summary');
  assert.match(await page.locator('#node-details .smt').innerText(), /\bx\b/);
  // The path condition both ways: readable, and as an SMT-LIB2 script.
  assert.match(await page.locator('#node-details .path-condition').innerText(),
    /^\(set-logic QF_ABV\)\n\(declare-fun x \(\) \(_ BitVec 32\)\)\n\(assert .*\)\n[^]*\(check-sat\)\n?$/);
  const readableLeaf = await page.locator('#node-details .path-condition-readable').innerText();
  assert.match(readableLeaf, /\bx\b/);
  assert.doesNotMatch(readableLeaf, /#x|bvs/);
  await page.screenshot({ path: join(artifacts, 'tree.png'), fullPage: true });
  // The second branch: one condition from the root, declared as below it.
  await clickNode(page.locator('#tree .node.inner-node').nth(1));
  assert.match(await page.locator('#node-details .path-condition-readable').innerText(), /^0 != x$|^x != 0$/);
  assert.match(await page.locator('#node-details .path-condition').innerText(),
    /\(declare-fun x \(\) \(_ BitVec 32\)\)\n\(assert \(not \(= #x00000000 x\)\)\)\n\(check-sat\)/);
  // The root's details, then its subtree collapsed into a count.
  await clickNode(page.locator('#tree .node.inner-node').first());
  assert.equal(await page.locator('#node-details .path-condition-readable').innerText(), 'true');
  assert.match(await page.locator('#node-details .location').innerText(), /get_sign\+0x[0-9a-f]+/);
  await page.click('#toggle-subtree');
  assert.equal(await page.locator('#tree .node.leaf').count(), 0);
  assert.equal(await page.locator('#tree .node .count').textContent(), '+4');
  await page.click('#toggle-subtree');
  assert.equal(await page.locator('#tree .node.leaf').count(), 3);
  // Wheel zooms, the fit button fits again.
  const before = await page.locator('#tree svg > g[transform]').getAttribute('transform');
  const box = await page.locator('#tree svg').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, 300);
  assert.notEqual(await page.locator('#tree svg > g[transform]').getAttribute('transform'), before);
  await page.click('#tree-fit');
  assert.equal(await page.locator('#tree svg > g[transform]').getAttribute('transform'), before);
  // Buttons and keys: zoom in and out about the middle, pan (Shift and
  // the arrows), fit again.
  const view = async () => (await page.locator('#tree svg > g[transform]').getAttribute('transform'))
    .match(/-?\d[\d.]*(?:e[+-]?\d+)?/g).map(Number);
  const [x0, y0, s0] = await view();
  await page.click('#tree-zoom-in');
  assert.ok(Math.abs((await view())[2] - s0 * 1.25) < 1e-9);
  await focusTree(page);
  await page.keyboard.press('-');
  assert.ok(Math.abs((await view())[2] - s0) < 1e-9);
  const [x1, y1] = await view();
  await page.keyboard.press('Shift+ArrowLeft');
  await page.keyboard.press('Shift+ArrowUp');
  const [x2, y2] = await view();
  assert.ok(Math.abs(x2 - x1 - 40) < 1e-9 && Math.abs(y2 - y1 - 40) < 1e-9, `${x1},${y1} -> ${x2},${y2}`);
  await page.keyboard.press('0');
  assert.deepEqual(await view(), [x0, y0, s0]);
  assert.deepEqual(errors, []);
});

test('the tree by keyboard: arrows move the selection along the branches, Enter collapses, Escape lets go; the path from the root is drawn', async () => {
  const { page, errors } = await open();
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  // A click on the tree's background gives it the keyboard.
  await focusTree(page);
  assert.equal(await page.evaluate(() => document.activeElement === document.querySelector('#tree svg')), true);
  const details = () => page.locator('#node-details h3').innerText();
  const trailPoints = async () => ((await page.locator('#tree .selected-trail').getAttribute('d')).match(/[ML]/g) ?? []).length;
  await page.keyboard.press('ArrowDown');
  assert.equal(await details(), 'node 0 (branch)');
  assert.equal(await trailPoints(), 1);
  // Down to the first child, across to its sibling, down to a leaf: its
  // row is selected in the table, its WAT line marked.
  await page.keyboard.press('ArrowDown');
  const first = await details();
  await page.keyboard.press('ArrowRight');
  const second = await details();
  assert.notEqual(first, second);
  assert.equal(await trailPoints(), 2);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await details(), first);
  await page.keyboard.press('ArrowRight');
  // In get_sign the inner child is one of the two; go down where there is more.
  if (/returned/.test(second)) {
    await page.keyboard.press('ArrowLeft');
  }
  await page.keyboard.press('ArrowDown');
  assert.match(await details(), /^node \d+ \(returned\)$/);
  assert.equal(await trailPoints(), 3);
  const input = await page.locator('#node-details .input').innerText();
  await screenshots(page, 'tree-keyboard', '#tree');
  await showTab(page, 'paths');
  assert.equal(await page.locator('#paths tr.selected td.input').innerText(), input);
  await showCode(page, 'wat');
  assert.equal(await page.locator('#wat .line.marked').count(), 1);
  // The keyboard back to the tree: a click on the leaf selected, which
  // keeps it selected and shows its details again.
  const ring = page.locator('#tree .selected-ring');
  const [cx, cy] = [await ring.getAttribute('cx'), await ring.getAttribute('cy')];
  await clickNode(page.locator('#tree .node').filter({ has: page.locator(`circle[cx="${cx}"][cy="${cy}"]`) }));
  assert.match(await details(), /^node \d+ \(returned\)$/);
  assert.equal(await page.locator('#node-details .input').innerText(), input);
  // Up to the root; Enter collapses its subtree into a count, Enter again
  // brings it back.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.equal(await details(), 'node 0 (branch)');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#tree .node .count').textContent(), '+4');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#tree .node.leaf').count(), 3);
  // Escape lets go of the selection.
  await page.keyboard.press('Escape');
  assert.match(await page.locator('#node-details').innerText(), /^Click a node/);
  assert.equal(await page.locator('#tree .selected-trail').count(), 0);
  assert.deepEqual(errors, []);
});

test('a tree of 5,000 nodes draws, zooms, pans and answers clicks', async () => {
  const { page, errors } = await open();
  // Twelve independent bits: 4,096 paths, a tree of 8,191 nodes.
  await load(page, BITS, 'bits');
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")', { timeout: 120_000 });
  const started = Date.now();
  await page.waitForSelector('#tree svg .node');
  const nodes = await page.locator('#tree .node').count();
  const drawn = Date.now() - started;
  assert.ok(nodes >= 5000, `${nodes} nodes`);
  assert.equal(await page.locator('#tree .node.leaf').count(), 4096);
  // Too many to label legibly: tooltips only.
  assert.equal(await page.locator('#tree .labels .label').count(), 0);
  assert.equal(await page.locator('#tree .node title').count(), nodes);
  // The table draws the rows in view; the last come with the End key,
  // once a click in the table (on its header) has given it the keyboard.
  await showTab(page, 'paths');
  const drawnRows = () => page.locator('#paths tbody tr:not(.spacer)').count();
  assert.ok(await drawnRows() < 200, `${await drawnRows()} rows drawn`);
  await page.click('#paths thead th >> nth=1');
  await page.keyboard.press('End');
  await page.waitForFunction(() => [...document.querySelectorAll('#paths tbody tr:not(.spacer)')].at(-1)?.cells[0].innerText === '4095',
    null, { timeout: 5_000 });
  assert.ok(await drawnRows() < 200, `${await drawnRows()} rows drawn`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollHeight < 4000), 'a page as long as its table');
  await page.locator('#tree svg').scrollIntoViewIfNeeded();
  const t0 = Date.now();
  // Zoom in on a leaf in view (the point under the mouse stays), then pan.
  const leaf = await page.evaluate(() => {
    const svg = document.querySelector('#tree svg').getBoundingClientRect();
    for (const c of document.querySelectorAll('#tree .node.leaf circle')) {
      const r = c.getBoundingClientRect();
      const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
      if (x > svg.left + 80 && x < svg.right - 80 && y > svg.top && y < svg.bottom) return { x, y };
    }
    return null;
  });
  assert.ok(leaf, 'no leaf in view after fitting');
  await page.mouse.move(leaf.x, leaf.y);
  for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -100);
  await page.mouse.down();
  await page.mouse.move(leaf.x + 60, leaf.y - 30, { steps: 10 });
  await page.mouse.up();
  await page.evaluate(() => new Promise(requestAnimationFrame));
  const moved = Date.now() - t0;
  const t1 = Date.now();
  await clickVisibleLeaf(page);
  const input = await page.locator('#node-details .input').innerText();
  const clicked = Date.now() - t1;
  assert.match(await page.locator('#node-details .outcome').innerText(), /returned/);
  // The clicked leaf's row is selected in the table, scrolled into view.
  await showTab(page, 'paths');
  assert.equal(await page.locator('#paths tr.selected td.input').innerText(), input);
  console.log(`${nodes} nodes: drawn in ${drawn} ms after the report, 10 zooms and a drag in ${moved} ms, click to details ${clicked} ms`);
  await page.screenshot({ path: join(artifacts, 'tree-large.png'), fullPage: false });
  // Fit keeps the labels legible: the deep subtrees become counted stubs,
  // and every node is drawn or counted.
  await page.click('#tree-fit');
  const drawnNodes = await page.locator('#tree .node').count();
  assert.ok(drawnNodes <= 300, `${drawnNodes} nodes drawn after fit`);
  assert.ok(await page.locator('#tree .labels .label').count() > 0, 'labels drawn');
  const counts = await page.locator('#tree .node .count').allTextContents();
  assert.ok(counts.length > 0);
  const hidden = counts.reduce((sum, c) => sum + Number(c.slice(1)), 0);
  assert.equal(drawnNodes + hidden, nodes);
  assert.match(await page.locator('#tree-cut').innerText(), new RegExp(`^${counts.length} deep subtrees collapsed to fit`));
  const scale = Number(/scale\(([\d.]+)\)/.exec(await page.locator('#tree svg > g[transform]').getAttribute('transform'))[1]);
  assert.ok(scale >= 0.8, `scale ${scale}`);
  await screenshots(page, 'tree-fit-legible', '#tree');
  await page.click('#tree-expand-all');
  assert.equal(await page.locator('#tree .node').count(), nodes);
  assert.equal(await page.locator('#tree-cut').count(), 0);
  assert.deepEqual(errors, []);
});

const examples = join(here, '..', '..', 'static', 'examples', 'c');

/// Opens `url` as a new visitor does.
function openAt(url) {
  return visit(env, url);
}

/// The test table once the run has ended (a running one shows its paths so far).
async function rows(page) {
  await page.waitForFunction(() => /\((?!running)[^)]*\)$/.test(document.querySelector('.results h2')?.innerText ?? ''));
  return pathRows(page);
}

/// The tree as drawn: each node's classes and place, in order.
async function treeShape(page) {
  await page.waitForSelector('#tree svg .node');
  return page.locator('#tree .node').evaluateAll((nodes) => nodes.map((g) => {
    const c = g.querySelector('circle');
    return `${g.getAttribute('class')} @ ${c.getAttribute('cx')},${c.getAttribute('cy')}`;
  }));
}

test('get_sign from the gallery: 3 leaves, 3 tests, a leaf\'s input and WAT line, a share link to the same tree', async () => {
  const { page, errors } = await open();
  await pick(page, '#example', 'sign');
  await page.waitForFunction(() => /\(export "get_sign"/.test(SymplayEditor.textIn(document.querySelector('#source')) ?? ''));
  assert.match(await page.locator('#c-source').innerText(), /int get_sign\(int x\)/);
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  const shape = await treeShape(page);
  assert.equal(await page.locator('#tree .node.leaf').count(), 3);
  assert.equal((await pathRows(page)).length, 3);
  await clickVisibleLeaf(page);
  const input = await page.locator('#node-details .input').innerText();
  assert.match(input, /^x = -?\d+$/);
  assert.ok((await tableInputs(page)).has(input), input);
  await showTab(page, 'node');
  // The leaf's location is the marked WAT line, scrolled into the pane.
  const where = await page.locator('#node-details .location').innerText();
  const offset = parseInt(/get_sign\+0x([0-9a-f]+)/.exec(where)[1], 16);
  await showCode(page, 'wat');
  const marked = page.locator('#wat .line.marked');
  assert.equal(await marked.count(), 1);
  const markedAt = parseInt(await marked.locator('.offset').innerText(), 16);
  assert.ok(markedAt <= offset && offset - markedAt < 16, `${where}: line at ${markedAt}`);
  const instruction = await page.locator('#node-details .instruction').innerText();
  assert.equal((await marked.innerText()).replace(/^\s*0x[0-9a-f]+\s*/, '').trim(), instruction);
  const [line, pane] = [await marked.boundingBox(), await page.locator('#wat').boundingBox()];
  assert.ok(line.y >= pane.y && line.y + line.height <= pane.y + pane.height, 'marked line out of view');
  // And its C line, from the module's line tables: every path returns at
  // the closing brace; the root forks at the first `if`.
  assert.match(where, /\(get_sign\.c:9\)$/);
  await showCode(page, 'c');
  assert.match(await page.locator('#c-source .line.marked').innerText(), /^\s*9\s*}$/);
  await clickNode(page.locator('#tree .node.inner-node').first());
  assert.match(await page.locator('#c-source .line.marked').innerText(), /^\s*3\s*if \(x == 0\)$/);
  await page.screenshot({ path: join(artifacts, 'gallery-get-sign.png'), fullPage: true });
  // Share, and the link in a fresh page: the same tree and the same tests.
  const tests = await rows(page);
  await page.click('#share');
  const link = await page.locator('#share-link a').getAttribute('href');
  const opened = await openAt(link);
  await opened.page.waitForSelector('.results h2:has-text("completed")');
  assert.deepEqual(await treeShape(opened.page), shape);
  assert.deepEqual(await rows(opened.page), tests);
  // The example comes back as chosen from the gallery, C source and lines.
  assert.equal(await opened.page.inputValue('#example'), 'sign');
  await showCode(opened.page, 'c');
  assert.match(await opened.page.locator('#c-source').innerText(), /int get_sign\(int x\)/);
  assert.ok(tests.every((row) => /\(get_sign\.c:9\)/.test(row)), tests.join('\n'));
  await opened.page.screenshot({ path: join(artifacts, 'gallery-get-sign-shared.png'), fullPage: true });
  // A change after Share drops the link: it no longer describes the page.
  await openOptions(page);
  await setField(page, '#max-paths', '2');
  await page.waitForSelector('#share-link', { state: 'detached' });
  assert.equal(new URL(page.url()).hash, '');
  assert.deepEqual([...errors, ...opened.errors], []);
});

test('a share link opens the same state and the same paths', async () => {
  const { page, errors } = await open();
  await pick(page, '#search', 'random-path');
  await setField(page, '#seed', '7');
  await setField(page, '#max-time', '30');
  await page.click('#run');
  const before = await rows(page);
  assert.equal(before.length, 3);
  await page.click('#share');
  const link = await page.locator('#share-link a').getAttribute('href');
  assert.match(link, /#share=[A-Za-z0-9_-]+$/);
  assert.equal(page.url(), link);
  const opened = await openAt(link);
  assert.deepEqual(await rows(opened.page), before);
  await openOptions(opened.page);
  assert.equal(await opened.page.inputValue('#search'), 'random-path');
  assert.equal(await opened.page.inputValue('#seed'), '7');
  assert.equal(await opened.page.inputValue('#max-time'), '30');
  await opened.page.screenshot({ path: join(artifacts, 'shared.png'), fullPage: true });
  // A link pasted in the address bar of the open page is opened too.
  await page.goto(`${env.base}#share=AAAAAAAA`);
  await page.waitForSelector('#share-error');
  await page.goto(link);
  await page.waitForSelector('#share-error', { state: 'detached' });
  assert.deepEqual(await rows(page), before);
  assert.deepEqual([...errors, ...opened.errors], []);
});

test('damaged and over-cap links get a message and the page still runs', async () => {
  const cases = [
    ['#share=not*base64', /damaged: it holds `\*` at character 4 after `#share=`, which no link made by Share holds/, 'link-corrupt.png'],
    ['#share=AAAAAAAA', /damaged: its data ends or changes where it should not \(was it cut short or changed when copied\?\)/, 'link-deflate.png'],
    [`#share=${'A'.repeat(600 * 1024)}`, /too long: \d+ KiB, over the cap of 512 KiB/, 'link-too-long.png'],
  ];
  for (const [fragment, message, shot] of cases) {
    const { page, errors } = await openAt(env.base + fragment);
    assert.match(await page.locator('#share-error').innerText(), message);
    await page.screenshot({ path: join(artifacts, shot) });
    await page.click('#run');
    assert.equal((await rows(page)).length, 3);
    assert.deepEqual(errors, []);
  }
});

test('an uploaded .wasm runs, and pasted base64 is read as a module', async () => {
  const { page, errors } = await open();
  await load(page, ENDLESS, 'f');
  await uploadFile(page, join(examples, 'get_sign.wasm'));
  await page.waitForSelector('#entry option[value="get_sign"]', { state: 'attached' });
  assert.match(await page.locator('#binary-note').innerText(), /binary module, 675 bytes/);
  await page.click('#run');
  assert.equal((await rows(page)).length, 3);
  await page.screenshot({ path: join(artifacts, 'uploaded.png'), fullPage: true });
  // Back to the editor, then the same module pasted as base64.
  await showCode(page, 'edit');
  await page.click('#edit-text');
  const b64 = (await readFile(join(examples, 'divide.wasm'))).toString('base64');
  await load(page, b64, 'divide');
  assert.match(await page.locator('#binary-note').innerText(), /binary module, 693 bytes/);
  assert.deepEqual(errors, []);
});

test('a parameter given a value stays concrete, in the run and in its share link', async () => {
  const { page, errors } = await open();
  await uploadFile(page, join(examples, 'divide.wasm'));
  await page.waitForSelector('#entry option[value="divide"]', { state: 'attached' });
  await pick(page, '#entry', 'divide');
  assert.equal(await page.getAttribute('#arg-0', 'placeholder'), 'symbolic');
  // Each i32 parameter is a value (empty: symbolic) or a buffer.
  // Labelled with the C parameters' names (`int divide(int a, int b)`).
  assert.match(await page.locator('.args').innerText(), /^a \(i32\)\s+value\s+buffer of symbolic length ≤\s+b \(i32\)/);
  await setField(page, '#arg-1', 'ten');
  await page.click('#run');
  assert.match(await page.locator('#error').innerText(), /^b must be a whole number \(or empty for a symbolic input\), not `ten`/);
  await setField(page, '#arg-1', '');
  await setField(page, '#arg-0', '10');
  await page.click('#run');
  const tests = await rows(page);
  // No overflow without a symbolic dividend: a quotient and a division by zero.
  assert.equal(tests.length, 2);
  assert.ok(tests.every((row) => /\ta = 10, b = -?\d+/.test(row)), tests.join('\n'));
  assert.ok(tests.some((row) => /div_by_zero/.test(row)));
  await page.click('#share');
  const opened = await openAt(await page.locator('#share-link a').getAttribute('href'));
  assert.deepEqual(await rows(opened.page), tests);
  assert.equal(await opened.page.inputValue('#arg-0'), '10');
  assert.equal(await opened.page.inputValue('#arg-1'), '');
  // Another entry starts with every parameter symbolic.
  await pick(page, '#entry', 'remainder_of');
  assert.equal(await page.inputValue('#arg-0'), '');
  await page.screenshot({ path: join(artifacts, 'concrete-args.png'), fullPage: true });
  assert.deepEqual([...errors, ...opened.errors], []);
});

test('the same bug on a thousand paths is one line; hundreds of bugs list the first 200 and count the rest', async () => {
  const { page, errors } = await open();
  // Ten independent bits, then a trap: 1,024 paths, all at one trap.
  const traps = `(module (func (export "traps") (param i32) (local i32)
    ${Array.from({ length: 10 }, (_, k) =>
      `(if (i32.and (local.get 0) (i32.const ${1 << k})) (then (local.set 1 (i32.add (local.get 1) (i32.const 1)))))`).join('\n    ')}
    (unreachable)))`;
  await load(page, traps, 'traps');
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")', { timeout: 60_000 });
  assert.equal(await page.locator('.bugs h3').innerText(), '1 bug');
  assert.match(await page.locator('#bugs .bug').innerText(), /^trapped \(unreachable\) at traps\+0x[0-9a-f]+, on 1024 paths; the shortest input, path \d+: arg0 = /);
  // A br_table to 210 blocks, each ending in its own trap: 210 bugs.
  const sites = 210;
  let body = `(br_table ${Array.from({ length: sites }, (_, k) => k).join(' ')} (local.get 0))`;
  for (let k = 0; k < sites; k++) {
    body = `(block ${body}) (unreachable)`;
  }
  await load(page, `(module (func (export "sites") (param i32) ${body}))`, 'sites');
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")', { timeout: 60_000 });
  assert.equal(await page.locator('.bugs h3').innerText(), '210 bugs');
  assert.equal(await page.locator('#bugs .bug').count(), 200);
  assert.match(await page.locator('.bugs .more').innerText(), /and 10 more bugs: see the table of paths or the JSON report/);
  assert.deepEqual(errors, []);
});

test('a bug replays with its outcome and trace; the report downloads as JSON', async () => {
  const { page, errors } = await open();
  await uploadFile(page, join(examples, 'divide.wasm'));
  await page.waitForSelector('#entry option[value="divide"]', { state: 'attached' });
  await pick(page, '#entry', 'divide');
  await page.click('#run');
  const paths = await rows(page);
  await showTab(page, 'bugs');
  const bug = page.locator('.bug', { hasText: 'div_by_zero' });
  assert.match(await bug.innerText(), /trapped \(div_by_zero\)/);
  await bug.locator('button.replay').click();
  const outcome = await bug.locator('.replay-outcome').innerText();
  assert.match(outcome, /replayed: trapped \(div_by_zero\)/);
  // divide has no branch or call: its trace says so.
  assert.match(await bug.locator('.trace').innerText(), /no calls or branches/);
  await page.screenshot({ path: join(artifacts, 'replayed.png'), fullPage: true });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  assert.equal(download.suggestedFilename(), 'symplay-report.json');
  const report = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.equal(report.entry, 'divide');
  assert.equal(report.paths.length, paths.length);
  assert.ok(report.paths.some((p) => p.trap === 'div_by_zero'));
  assert.deepEqual(errors, []);
});

/// Every leaf's readable path condition, each leaf clicked with the mouse
/// where the tree's first view draws it (the whole tree: the fit button
/// fits it legibly, which may collapse its deepest subtrees).
async function leafConditions(page) {
  const conditions = [];
  const leaves = page.locator('#tree .node.leaf');
  for (let i = 0; i < await leaves.count(); i++) {
    await clickNode(leaves.nth(i));
    conditions.push(await page.locator('#node-details .path-condition-readable').innerText());
  }
  return conditions.sort();
}

test('conditions read as the C program means them: x < 0, not a flag\'s bits; characters; buffer bytes', async () => {
  const { page, errors } = await open();
  // get_sign compiled by clang: `if (x < 0)` is a 0/1 flag's low bit compared with 0.
  await pick(page, '#example', 'sign');
  await page.waitForSelector('#entry:enabled option[value="get_sign"]', { state: 'attached' });
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  assert.deepEqual(await leafConditions(page), ['x != 0 && x < 0', 'x != 0 && x >= 0', 'x == 0']);
  // Each node is labelled with the branch that leads to it; a pointer on
  // a leaf is told its path's end and input.
  assert.deepEqual((await page.locator('#tree .labels .label').allTextContents()).sort(),
    ['x != 0', 'x < 0', 'x == 0', 'x >= 0']);
  const tips = await page.locator('#tree .node.leaf title').allTextContents();
  assert.equal(tips.length, 3);
  for (const tip of tips) assert.match(tip, /^branch: x .+\npath \d: returned \[-?\d\] with x = -?\d+$/);
  await screenshots(page, 'readable-sign');
  // The password: each byte of the guess compared with a character.
  await pick(page, '#example', 'password');
  await page.waitForSelector('#entry:enabled option[value="check_password"]', { state: 'attached' });
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  const password = await leafConditions(page);
  assert.ok(password.includes("guess[0] == 's' && guess[1] == '3' && guess[2] == 'c' && guess[3] == 'r' && guess[4] == '3' && guess[5] == 't' && guess[6] == '!' && guess[7] == '\\0'"), password.join('\n'));
  // The parser: its digits read through memory, by their place in the input.
  await pick(page, '#example', 'parser');
  await page.waitForSelector('#entry:enabled option[value="parse_int"]', { state: 'attached' });
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  const parser = (await leafConditions(page)).join('\n');
  assert.match(parser, /text\[text\[0\] == '-' \? 1 : 0\] != '\\0'/);
  for (const unreadable of [/\[0:0\]/, /<s|>=s/, /const\(0\)/, /:=/, /#x/]) {
    assert.doesNotMatch(parser, unreadable);
  }
  await page.screenshot({ path: join(artifacts, 'readable-parser-1280.png') });
  assert.deepEqual(errors, []);
});
