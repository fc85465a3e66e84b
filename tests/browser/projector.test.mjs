// The page as a teacher projects it (1280×720) and as a phone shows it
// (390×844), measured: the tree's pane, its labels (size, inside the
// pane, apart from each other, siblings told apart) on every example of
// the gallery, the page in view without scrolling before a run (program,
// options, Run) and after (tree, program, bug list, Replay), the memory
// table's columns, the code panes' width, parameter values after a
// reload, the help, the favicon, the read-only C source, and on the phone
// the width, the C source above the editor, the paths table and scrolling. Screenshots of each screen go to
// tests/browser/artifacts/ for a person to look at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, pick, screenshots, servedPlayground, setField, clickNode, visit } from './harness.mjs';

const env = servedPlayground();
const PROJECTOR = { width: 1280, height: 720 };
const PHONE = { width: 390, height: 844 };

/// The gallery's examples, by value, in the order of the list.
async function gallery(page) {
  return page.locator('#example option').evaluateAll((options) => options.map((o) => o.value).filter((v) => v));
}

/// Picks example `id` from the gallery, runs it with a click on Run and
/// waits for its end.
async function runExample(page, id) {
  await pick(page, '#example', id);
  await page.waitForSelector('#entry:enabled option', { state: 'attached' });
  await page.click('#run');
  await page.waitForFunction(() => /\((?!running)[^)]*\)$/.test(document.querySelector('.results h2')?.innerText ?? ''), null, { timeout: 60_000 });
}

/// Whether box `a` lies inside box `b` (to the half pixel).
function inside(a, b) {
  return a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
}

/// The tree pane's box and its labels as drawn: box, font size, text,
/// parent (runs in the page).
function treeOnScreen() {
  const svg = document.querySelector('#tree svg');
  const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
  return {
    pane: box(svg),
    labels: [...svg.querySelectorAll('.labels text')].map((t) => ({
      text: t.textContent, parent: t.dataset.parent, size: parseFloat(getComputedStyle(t).fontSize), box: box(t),
    })),
  };
}

function overlap(a, b) {
  return a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
}

test('every example at 1280×720: the tree has the room, its labels are 12 px or more, whole inside the pane, apart, and siblings read apart', { timeout: 600_000 }, async () => {
  const { page, errors } = await visit(env, env.base, { viewport: PROJECTOR });
  const ids = await gallery(page);
  assert.ok(ids.length >= 10, `${ids.length} examples`);
  let labelled = 0;
  let shortened = 0;
  for (const id of ids) {
    await runExample(page, id);
    const { pane, labels } = await page.evaluate(treeOnScreen);
    // The tree's pane: the page's width, and over a third of its height.
    assert.ok(pane.right - pane.left >= 0.9 * PROJECTOR.width, `${id}: the tree is ${pane.right - pane.left} px wide`);
    assert.ok(pane.bottom - pane.top >= 0.35 * PROJECTOR.height, `${id}: the tree is ${pane.bottom - pane.top} px high`);
    assert.ok(pane.bottom <= PROJECTOR.height, `${id}: the tree is cut by the window`);
    for (const [k, label] of labels.entries()) {
      assert.ok(label.size >= 12, `${id}: "${label.text}" is ${label.size} px`);
      assert.ok(inside(label.box, pane), `${id}: "${label.text}" is clipped by its pane`);
      for (const other of labels.slice(k + 1)) {
        assert.ok(!overlap(label.box, other.box), `${id}: "${label.text}" covers "${other.text}"`);
        if (label.parent === other.parent) assert.notEqual(label.text, other.text, `${id}: two siblings read the same`);
      }
    }
    labelled += labels.length;
    shortened += labels.filter((l) => l.text.includes('…')).length;
    if (id === 'parser') await screenshots(page, 'projector-parser');
  }
  // The gallery's trees are labelled, and some labels had to be shortened.
  assert.ok(labelled > 3 * ids.length, `${labelled} labels on ${ids.length} trees`);
  console.log(`${ids.length} examples, ${labelled} labels on screen, ${shortened} of them shortened`);
  assert.deepEqual(errors, []);
});

/// Whether the page itself scrolls neither way (its panes do).
function pageScrolls() {
  const page = document.scrollingElement;
  return page.scrollHeight > window.innerHeight || page.scrollWidth > window.innerWidth;
}

test('at 1280×720 the page does not scroll: before a run the C source, the editor, the options and Run are in view; after a run with bugs the tree, the bug list, its Replay and the replay', async () => {
  const { page, errors } = await visit(env, env.base, { viewport: PROJECTOR });
  const viewport = { left: 0, top: 0, right: PROJECTOR.width, bottom: PROJECTOR.height };
  const box = async (selector) => {
    const b = await page.locator(selector).first().boundingBox();
    return { left: b.x, top: b.y, right: b.x + b.width, bottom: b.y + b.height };
  };
  await pick(page, '#example', 'division');
  await page.waitForSelector('#entry:enabled option', { state: 'attached' });
  for (const selector of ['#c-source', '#source', '#search', '#run']) {
    assert.ok(inside(await box(selector), viewport), `${selector} is in view before a run`);
  }
  assert.equal(await page.evaluate(pageScrolls), false, 'the page scrolls before a run');
  await runExample(page, 'division');
  for (const selector of ['#run', '.results h2', '#tree .tree-bar h2', '#tree svg', '#c-source', '#bugs']) {
    assert.ok(inside(await box(selector), viewport), `${selector} is in view after a run`);
  }
  assert.ok(inside(await box('#bugs .replay'), viewport), 'Replay is in view');
  assert.equal(await page.evaluate(pageScrolls), false, 'the page scrolls after a run');
  await page.locator('#bugs .replay').first().click();
  await page.waitForSelector('#bugs .replay-outcome');
  assert.ok(inside(await box('#bugs .replay-outcome'), viewport), 'the replay outcome is in view');
  await screenshots(page, 'projector-bugs');
  assert.deepEqual(errors, []);
});

test('the memory table: each column wider than its header word, no word broken, at 1280×720 and on a phone', async () => {
  const { page, errors } = await visit(env, env.base, { viewport: PROJECTOR });
  await runExample(page, 'heap-overflow');
  // A leaf's details: click a memory-error leaf where it is drawn.
  await clickNode(page.locator('#tree .node.memory-error').first());
  await page.waitForSelector('#node-details table.objects');
  for (const size of [PROJECTOR, PHONE]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(200);
    const cells = await page.locator('#node-details table.objects').evaluate((table) => {
      /// Lines a cell's text takes, from its text's boxes.
      const lines = (cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      };
      const headers = [...table.querySelectorAll('th')].map((th) => {
        const range = document.createRange();
        range.selectNodeContents(th);
        return { word: th.textContent, width: th.getBoundingClientRect().width, text: range.getBoundingClientRect().width, lines: lines(th) };
      });
      const values = [...table.querySelectorAll('td:not(.location)')].map((td) => ({ value: td.textContent, lines: lines(td) }));
      return { headers, values };
    });
    assert.ok(cells.headers.length >= 5);
    for (const h of cells.headers) {
      assert.ok(h.width > h.text, `${size.width}: the "${h.word}" column (${h.width} px) is not wider than its header (${h.text} px)`);
      assert.equal(h.lines, 1, `${size.width}: "${h.word}" breaks`);
    }
    for (const v of cells.values) assert.equal(v.lines, 1, `${size.width}: "${v.value}" breaks`);
  }
  await page.setViewportSize(PROJECTOR);
  await screenshots(page, 'projector-memory', '#node-details');
  assert.deepEqual(errors, []);
});

test('the code panes are wide enough for every line of the gallery\'s C sources at 1280×720', { timeout: 300_000 }, async () => {
  const { page, errors } = await visit(env, env.base, { viewport: PROJECTOR });
  for (const id of await gallery(page)) {
    await pick(page, '#example', id);
    await page.waitForSelector('#c-source .line');
    // Before a run and with the results, where the C source is a tab.
    const fits = () => page.locator('#c-source').evaluate((pane) => pane.scrollWidth <= pane.clientWidth);
    assert.equal(await fits(), true, `${id}: the C pane scrolls sideways before a run`);
  }
  await runExample(page, 'parser');
  assert.equal(await page.locator('#c-source').evaluate((pane) => pane.scrollWidth <= pane.clientWidth), true, 'the C pane with the results');
  assert.deepEqual(errors, []);
});

test('the C source says it is read-only when typed in, and how to edit', async () => {
  const { page, errors } = await visit(env, env.base, { viewport: PROJECTOR });
  await pick(page, '#example', 'division');
  const source = await page.locator('#c-source').innerText();
  assert.equal(await page.locator('#c-read-only').count(), 0, 'nothing said before');
  await page.click('#c-source');
  await page.keyboard.type('q');
  const told = await page.locator('#c-read-only').innerText();
  assert.match(told, /read-only/);
  assert.match(told, /edit its WAT/);
  assert.match(told, /upload/);
  assert.equal(await page.locator('#c-source').innerText(), source, 'the source is as it was');
  assert.deepEqual(errors, []);
});

test('parameter values typed come back after a reload, for a module typed and for an example', async () => {
  const { page, errors } = await visit(env, env.base, { viewport: PROJECTOR });
  await setField(page, '#arg-0', '-7');
  // Autosave waits for a pause in the changes.
  await page.waitForTimeout(900);
  await page.reload();
  await page.waitForSelector('#entry:enabled option', { state: 'attached' });
  assert.equal(await page.inputValue('#arg-0'), '-7');
  await pick(page, '#example', 'division');
  await setField(page, '#arg-0', '12');
  await setField(page, '#arg-1', '0');
  await page.waitForTimeout(900);
  await page.reload();
  await page.waitForSelector('#entry:enabled option', { state: 'attached' });
  assert.equal(await page.inputValue('#example'), 'division');
  assert.deepEqual([await page.inputValue('#arg-0'), await page.inputValue('#arg-1')], ['12', '0']);
  // And they are the values run.
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  assert.match(await page.locator('.results h2').innerText(), /divide: 1 path \(completed\)/);
  assert.deepEqual(errors, []);
});

test('the help is one click away, lists the keys and the panes, and closes', async () => {
  const { page, errors } = await visit(env, env.base, { viewport: PROJECTOR });
  await page.click('#help-toggle');
  const help = await page.locator('#help').innerText();
  for (const said of ['Ctrl+Enter', 'Escape', 'Execution tree', 'Bugs', 'Paths', 'Step']) assert.ok(help.includes(said), `the help tells ${said}`);
  const box = await page.locator('#help').boundingBox();
  assert.ok(box.y + box.height <= PROJECTOR.height, 'the help is in view');
  await screenshots(page, 'projector-help');
  await page.click('#help-close');
  assert.equal(await page.locator('#help').count(), 0);
  assert.deepEqual(errors, []);
});

test('a page load asks for nothing that is not there (the favicon is the page\'s own)', async () => {
  const context = await env.browser.newContext({ viewport: PROJECTOR });
  const page = await context.newPage();
  const missing = [];
  page.on('response', (r) => { if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`); });
  page.on('requestfailed', (r) => missing.push(`failed ${r.url()}`));
  await page.goto(env.base);
  await page.waitForSelector('#entry:enabled option', { state: 'attached' });
  await page.waitForTimeout(500);
  assert.deepEqual(missing, []);
  const icon = await page.locator('link[rel="icon"]').getAttribute('href');
  assert.match(icon, /favicon\.svg/);
  assert.equal((await page.request.get(new URL(icon, env.base).href)).status(), 200);
});

test('counts read singular for one, and memory errors are red in the paths table like traps', async () => {
  const { page, errors } = await visit(env, env.base, { viewport: PROJECTOR });
  await setField(page, '#arg-0', '5');
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  assert.equal(await page.locator('.results h2').innerText(), 'get_sign: 1 path (completed)');
  assert.match(await page.locator('#tree h2').innerText(), /Execution tree: 1 node$/);
  assert.match(await page.locator('#progress').innerText(), /^1 path, 0 pending states, /);
  await runExample(page, 'heap-overflow');
  await page.click('#tab-paths');
  // The colour the page gives errors, as the browser resolves it.
  const errorColour = await page.evaluate(() => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--error-fg)';
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  });
  const colour = (selector) => page.locator(selector).first().evaluate((td) => getComputedStyle(td).color);
  assert.equal(await colour('#paths tr.status-memory_error td:nth-child(2)'), errorColour);
  assert.notEqual(await colour('#paths tr.status-returned td:nth-child(2)'), errorColour);
  assert.deepEqual(errors, []);
});

test('once a run starts the options fold away, and their button brings them back over the results', async () => {
  const { page, errors } = await visit(env, env.base, { viewport: PROJECTOR });
  assert.equal(await page.locator('#search').isVisible(), true, 'before a run, the options are on screen');
  await runExample(page, 'sign');
  assert.equal(await page.locator('#search').count(), 0, 'folded away');
  await page.click('#options-toggle');
  await pick(page, '#search', 'dfs');
  await page.click('#options-close');
  assert.equal(await page.locator('#search').count(), 0);
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  await page.click('#options-toggle');
  assert.equal(await page.inputValue('#search'), 'dfs', 'the option taken');
  await screenshots(page, 'projector-options');
  assert.deepEqual(errors, []);
});

test('on a phone: nothing is wider than the screen, the C source is above the editor, Run brings the results into view, and the paths table shows its columns whole', async () => {
  const { page, errors } = await visit(env, env.base, { viewport: PHONE });
  const wider = () => page.evaluate(() => document.scrollingElement.scrollWidth > window.innerWidth);
  await pick(page, '#example', 'division');
  assert.equal(await wider(), false, 'wider than the phone before a run');
  const [c, editor] = [await page.locator('#c-source').boundingBox(), await page.locator('#source').boundingBox()];
  assert.ok(c.y + c.height <= editor.y, 'the C source above the editor');
  assert.ok(editor.width > 300 && editor.height > 120, `the editor at ${editor.width}×${editor.height}`);
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  await page.waitForTimeout(300);
  const top = await page.locator('#outputs').evaluate((o) => o.getBoundingClientRect().top);
  assert.ok(top >= -1 && top < PHONE.height / 4, `the results start at ${top} px`);
  assert.equal(await wider(), false, 'wider than the phone after a run');
  await page.click('#tab-paths');
  const cut = await page.locator('#paths').evaluate((table) => [...table.querySelectorAll('th, td')]
    .filter((c) => c.offsetParent !== null && c.scrollWidth > c.clientWidth + 1)
    .map((c) => c.textContent));
  assert.deepEqual(cut, [], 'no column is cut');
  await page.screenshot({ path: join(artifacts, 'phone-paths-390.png') });
  assert.deepEqual(errors, []);
});
