// Journeys through the page, one per way a module comes in (typed, pasted
// with Ctrl+V as WAT, base64 or hex, uploaded as .wasm, .wat or base64
// text, dropped, chosen from the gallery, "Edit text instead", an edited
// example, a share link), and changes of module during and after a run.
// Each checks the entry shown, the entry run, the path count of that
// module, and that nothing of the module before stays on screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import {
  artifacts, clickEditor, clickNode, closeOptions, dropFile, editorText, leaveEditor, megabyteModule, openOptions,
  pasteModule, pathRows, pick, runningWithPaths, screenshots, servedPlayground, setField, shareLink, showCode,
  showsResults, showTab, typeModule, uploadFile, visit,
} from './harness.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const examples = join(here, '..', '..', 'static', 'examples', 'c');
const data = join(here, '..', 'data');

/// Two paths: x > 10 and not.
const PASTED = `(module
  (func (export "pasted_fn") (param $x i32) (result i32)
    (if (result i32) (i32.gt_s (local.get $x) (i32.const 10))
      (then (i32.const 1))
      (else (i32.const 0)))))`;

/// Two paths, short enough to type.
const TYPED = '(module (func (export "typed_fn") (param i32) (result i32) (if (result i32) (local.get 0) (then (i32.const 1)) (else (i32.const 2)))))';

/// Counts up to a symbolic bound: a new path every iteration, never done.
const ENDLESS = `(module (func (export "endless") (param i32) (local i32)
  (loop (br_if 0 (i32.ne (local.get 0) (local.tee 1 (i32.add (local.get 1) (i32.const 1))))))))`;

const env = servedPlayground();

/// A fresh visitor's page, once its first module is listed.
function openAt(url = env.base) {
  return visit(env, url);
}

/// Fails if `selector` is on screen, with what it says.
async function absent(page, selector, why = `${selector} on screen`) {
  const found = page.locator(selector);
  if (await found.count() > 0) {
    assert.fail(`${why}: ${await found.first().innerText()}`);
  }
}

/// The Bugs tab, shown, says the run found none.
async function noBugs(page, why) {
  await showTab(page, 'bugs');
  await absent(page, '#bugs', why);
  assert.match(await page.locator('#no-bugs').innerText(), /^No bug on the \d+ paths? found\.$/);
}

/// Nothing of a run is on screen: no tree, no pane of results (table,
/// bugs), no progress or error.
async function noResults(page) {
  for (const stale of ['#trees', '#tree', '#lower', '#paths', '#bugs', '#progress', '#error', '#drops']) {
    await absent(page, stale, `${stale} still on screen`);
  }
}

/// The entry shown once the module is listed.
async function shownEntry(page, entry) {
  await page.waitForFunction((e) => {
    const select = document.querySelector('#entry');
    return select && !select.disabled && select.value === e;
  }, entry, { timeout: 15_000 }).catch(() => {});
  assert.equal(await page.inputValue('#entry'), entry, 'the entry shown');
  // The program on screen is this module: its disassembly where the page
  // shows one (after a run, in the WAT tab; before, a binary module's),
  // else the text in the editor.
  await showCode(page, 'wat');
  if (await showsResults(page) || await page.locator('#binary-note').count() > 0) {
    await page.waitForSelector(`#wat .line:has-text('(export "${entry}"')`, { timeout: 5_000 });
  } else {
    await page.waitForFunction((e) => (SymplayEditor.textIn(document.querySelector('#source')) ?? '').includes(`(export "${e}"`),
      entry, { timeout: 5_000 });
  }
}

/// `n` paths, as the page counts them.
function paths(n) {
  return `${n} ${n === 1 ? 'path' : 'paths'}`;
}

/// Clicks Run and waits for the run to end: its heading names the entry
/// run and the paths found.
async function run(page, { entry, paths: count, reason = 'completed' }) {
  await page.click('#run');
  const heading = page.locator('.results h2');
  await page.waitForFunction(() => /\((?!running)[^)]*\)$/.test(document.querySelector('.results h2')?.innerText ?? '')
    || document.querySelector('#error'), null, { timeout: 30_000 });
  await absent(page, '#error', 'error instead of results');
  assert.equal(await heading.innerText(), `${entry}: ${paths(count)} (${reason})`);
  assert.equal((await pathRows(page)).length, count);
  assert.equal(await page.inputValue('#entry'), entry, 'the entry shown after the run');
}

test('typed: the module typed is the module run, with its function', async () => {
  const { page, errors } = await openAt();
  await typeModule(page, TYPED);
  // Run at once, as a person does; the page reads the editor first.
  await run(page, { entry: 'typed_fn', paths: 2 });
  await shownEntry(page, 'typed_fn');
  assert.deepEqual(errors, []);
});

test('pasted WAT: Run right after Ctrl+V explores the pasted function', async () => {
  const { page, errors } = await openAt();
  await pasteModule(page, PASTED);
  await run(page, { entry: 'pasted_fn', paths: 2 });
  assert.match(await page.locator('#entry').innerText(), /^pasted_fn \(i32\) -> i32$/);
  await page.screenshot({ path: join(artifacts, 'pasted-wat.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

test('pasted base64 of a clang module: its function, not __wasm_call_ctors', async () => {
  const { page, errors } = await openAt();
  const b64 = (await readFile(join(data, 'clamp.wasm'))).toString('base64');
  await pasteModule(page, b64);
  await shownEntry(page, 'clamp');
  assert.match(await page.locator('#binary-note').innerText(), /binary module, 516 bytes/);
  // Both functions are listed; the program's is chosen.
  assert.deepEqual(await page.locator('#entry option').allInnerTexts(),
    ['__wasm_call_ctors ()', 'clamp (i32, i32, i32) -> i32']);
  await run(page, { entry: 'clamp', paths: 3 });
  assert.deepEqual(errors, []);
});

test('pasted hex: read as the module it spells', async () => {
  const { page, errors } = await openAt();
  const hex = (await readFile(join(examples, 'divide.wasm'))).toString('hex').replace(/(.{64})/g, '$1\n');
  await pasteModule(page, hex);
  await shownEntry(page, 'divide');
  await run(page, { entry: 'divide', paths: 3 });
  assert.deepEqual(errors, []);
});

test('pasted base64 cut short: the page says the module is cut short, not that it is bad WAT', async () => {
  const { page, errors } = await openAt();
  const base64 = (await readFile(join(examples, 'divide.wasm'))).toString('base64');
  // A copy that missed its end, cut after a character whose byte is not
  // whole (a length of 4k + 1), as a selection may be.
  await pasteModule(page, base64.slice(0, Math.floor(base64.length / 8) * 4 + 1));
  const error = page.locator('#error');
  await error.waitFor();
  assert.match(await error.innerText(), /^pasted module: the module is cut short: its \d+ bytes end in the middle of a section \(copied or downloaded only in part\?\)/);
  assert.doesNotMatch(await error.innerText(), /WAT/);
  assert.equal(await page.isDisabled('#run'), true);
  assert.deepEqual(errors, []);
});

test('uploaded .wasm, .wat and base64 .txt files: each the module that runs', async () => {
  const { page, errors } = await openAt();
  await uploadFile(page, join(data, 'clamp.wasm'));
  await shownEntry(page, 'clamp');
  await run(page, { entry: 'clamp', paths: 3 });
  await uploadFile(page, { name: 'mine.wat', mimeType: 'text/plain', buffer: Buffer.from(PASTED) });
  await shownEntry(page, 'pasted_fn');
  await noResults(page);
  assert.equal(await editorText(page), PASTED);
  await run(page, { entry: 'pasted_fn', paths: 2 });
  const b64 = (await readFile(join(examples, 'password.wasm'))).toString('base64');
  await uploadFile(page, { name: 'password.txt', mimeType: 'text/plain', buffer: Buffer.from(b64) });
  await shownEntry(page, 'check_password');
  await noResults(page);
  assert.match(await page.locator('#binary-note').innerText(), /password\.txt/);
  await run(page, { entry: 'check_password', paths: 9 });
  assert.deepEqual(errors, []);
});

test('an uploaded .c file is told to be compiled, and leaves nothing to run', async () => {
  const { page, errors } = await openAt();
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  await uploadFile(page, join(examples, 'divide.c'));
  const error = page.locator('#error');
  await error.waitFor();
  assert.match(await error.innerText(), /^divide\.c: this is C source, not a WebAssembly module: compile it to \.wasm first/);
  assert.equal(await page.locator('#entry option').count(), 0);
  assert.equal(await page.isDisabled('#entry'), true);
  assert.equal(await page.isDisabled('#run'), true);
  for (const stale of ['#tree', '#paths', '#progress']) {
    assert.equal(await page.locator(stale).count(), 0, stale);
  }
  await page.screenshot({ path: join(artifacts, 'uploaded-c.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

test('dropped: a .wasm dropped on the editor is the module that runs', async () => {
  const { page, errors } = await openAt();
  await dropFile(page, 'heap.wasm', await readFile(join(examples, 'heap.wasm')), 'application/wasm');
  // wasi-libc's reactor exports _initialize first: a runtime helper.
  await shownEntry(page, 'copy_record');
  assert.match(await page.locator('#binary-note').innerText(), /^binary module, \d+ bytes \(heap\.wasm\)/);
  assert.match(await page.locator('#entry').innerText(), /_initialize \(\)\s+copy_record \(\) -> i32/);
  await run(page, { entry: 'copy_record', paths: 9 });
  assert.deepEqual(errors, []);
});

test('gallery: the chosen example, its entry and its C', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'checksum');
  await shownEntry(page, 'check_packet');
  assert.match(await page.locator('#c-source').innerText(), /0xcafe1234/);
  await run(page, { entry: 'check_packet', paths: 3 });
  assert.deepEqual(errors, []);
});

test('"Edit text instead" shows the uploaded module as text and keeps its entry', async () => {
  const { page, errors } = await openAt();
  await uploadFile(page, join(examples, 'password.wasm'));
  await shownEntry(page, 'check_password');
  await page.click('#edit-text');
  await page.waitForFunction(() => /\(export "check_password"/.test(SymplayEditor.textIn(document.querySelector('#source')) ?? ''));
  assert.equal(await page.inputValue('#entry'), 'check_password');
  await run(page, { entry: 'check_password', paths: 9 });
  // The binary still runs until the text is edited: its C lines are known.
  assert.match((await page.locator('#paths tbody tr').allInnerTexts()).join('\n'), /\(password\.c:\d+\)/);
  assert.deepEqual(errors, []);
});

test('an edited example runs as edited, with its entry', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'sign');
  await page.waitForFunction(() => /\(export "get_sign"/.test(SymplayEditor.textIn(document.querySelector('#source')) ?? ''));
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  await clickEditor(page);
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n;; edited\n');
  // The edit makes a new module: the old results go.
  await page.waitForSelector('#tree', { state: 'detached', timeout: 5_000 });
  await noResults(page);
  await run(page, { entry: 'get_sign', paths: 3 });
  // Assembled from text, its code unchanged, the module keeps its C lines.
  assert.match((await page.locator('#paths tbody tr').allInnerTexts()).join('\n'), /\(get_sign\.c:\d+\)/);
  await absent(page, '#lines-gone');
  assert.deepEqual(errors, []);
});

test('an edited example keeps the C lines of the functions not edited, and names the one edited', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'dangling-pointer');
  await page.waitForFunction(() => /\(func \$spell /.test(SymplayEditor.textIn(document.querySelector('#source')) ?? ''));
  await shownEntry(page, 'first_letter');
  const before = await editorText(page);
  // The helper spell's 'a' (i32.const 97), found with the editor's search,
  // becomes 'b': one function edited by typing.
  await clickEditor(page);
  await page.keyboard.press('Control+F');
  await page.keyboard.type('i32.const 97');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('8');
  const after = await editorText(page);
  assert.equal(after, before.replace('i32.const 97', 'i32.const 98'));
  assert.ok(before.indexOf('i32.const 97') > before.indexOf('(func $spell '), 'the constant is in spell');
  const gone = page.locator('#lines-gone');
  await gone.waitFor({ timeout: 15_000 });
  assert.equal(await gone.innerText(), 'C lines are gone for spell (its code was edited); the other functions keep theirs');
  await run(page, { entry: 'first_letter', paths: 2 });
  // The paths end in first_letter, not edited: on its C lines.
  const rows = await page.locator('#paths tbody tr').allInnerTexts();
  assert.ok(rows.every((r) => /first_letter\+0x[0-9a-f]+ \(dangling_pointer\.c:\d+\)/.test(r)), rows.join('\n'));
  // A row clicked: its C line is marked.
  const row = page.locator('#paths tbody tr:not(.spacer)').first();
  const line = /dangling_pointer\.c:(\d+)/.exec(await row.innerText())[1];
  await row.click();
  assert.match(await page.locator('#c-source .line.marked').innerText(), new RegExp(`^\\s*${line}\\s`));
  // The root, clicked: it forks at the `if` of first_letter.
  await clickNode(page.locator('#tree .node.inner-node').first());
  assert.match(await page.locator('#node-details .location').innerText(), /\(dangling_pointer\.c:24\)$/);
  assert.match(await page.locator('#c-source .line.marked').innerText(), /^\s*24\s*if \(code < 0\)$/);
  assert.match(await gone.innerText(), /spell/);
  await screenshots(page, 'edited-example-lines');
  assert.deepEqual(errors, []);
});

test('a share link opens its module with its entry and runs it', async () => {
  const { page, errors } = await openAt();
  await pasteModule(page, PASTED);
  await run(page, { entry: 'pasted_fn', paths: 2 });
  await page.click('#share');
  const link = await page.locator('#share-link a').getAttribute('href');
  const opened = await openAt(link);
  await opened.page.waitForSelector('.results h2:has-text("completed")');
  assert.equal(await opened.page.locator('.results h2').innerText(), 'pasted_fn: 2 paths (completed)');
  assert.equal(await opened.page.inputValue('#entry'), 'pasted_fn');
  assert.equal(await editorText(opened.page), PASTED);
  assert.deepEqual([...errors, ...opened.errors], []);
});

test('a module changed while a run goes on stops the run and clears it', async () => {
  const { page, errors } = await openAt();
  await pasteModule(page, ENDLESS);
  await shownEntry(page, 'endless');
  await pick(page, '#search', 'bfs');
  await page.click('#run');
  await runningWithPaths(page);
  // Another example, mid-run.
  await pick(page, '#example', 'sign');
  await shownEntry(page, 'get_sign');
  await noResults(page);
  assert.equal(await page.isEnabled('#run'), true);
  assert.equal(await page.isEnabled('#stop'), false);
  // Nothing of the old run comes back later.
  await page.waitForTimeout(1_000);
  await noResults(page);
  await run(page, { entry: 'get_sign', paths: 3 });
  // An upload mid-run, likewise.
  await pasteModule(page, ENDLESS);
  await shownEntry(page, 'endless');
  await page.click('#run');
  await runningWithPaths(page);
  await uploadFile(page, join(examples, 'divide.wasm'));
  await shownEntry(page, 'divide');
  await noResults(page);
  await page.waitForTimeout(1_000);
  await noResults(page);
  await run(page, { entry: 'divide', paths: 3 });
  await showTab(page, 'bugs');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  const report = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.equal(report.entry, 'divide');
  assert.equal(report.paths.length, 3);
  assert.deepEqual(errors, []);
});

test('switching examples after a run clears the run', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'sign');
  await shownEntry(page, 'get_sign');
  await run(page, { entry: 'get_sign', paths: 3 });
  await pick(page, '#example', 'division');
  await shownEntry(page, 'divide');
  await noResults(page);
  assert.match(await page.locator('#c-source').innerText(), /int divide\(int a, int b\)/);
  await run(page, { entry: 'divide', paths: 3 });
  assert.deepEqual(errors, []);
});

test('a validation error after a run clears the run and leaves nothing to run', async () => {
  const { page, errors } = await openAt();
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  await pasteModule(page, '(module (func (export "f") (result i32) (i64.const 1)))');
  const error = page.locator('#error');
  await error.waitFor();
  assert.match(await error.innerText(), /^invalid module: type mismatch/);
  for (const stale of ['#tree', '#paths', '#progress', '#bugs']) {
    assert.equal(await page.locator(stale).count(), 0, stale);
  }
  assert.equal(await page.locator('#entry option').count(), 0);
  assert.equal(await page.isDisabled('#run'), true);
  await page.screenshot({ path: join(artifacts, 'validation-error.png'), fullPage: true });
  // Mended, it runs.
  await pasteModule(page, PASTED);
  await shownEntry(page, 'pasted_fn');
  await run(page, { entry: 'pasted_fn', paths: 2 });
  assert.deepEqual(errors, []);
});

test('a module with no function to explore says so', async () => {
  const { page, errors } = await openAt();
  await pasteModule(page, '(module (memory (export "memory") 1))');
  const error = page.locator('#error');
  await error.waitFor();
  assert.equal(await error.innerText(),
    'the module exports no function to explore (it exports memory `memory`)');
  assert.equal(await page.isDisabled('#run'), true);
  // Only helpers: listed, none chosen, Run waits for a choice.
  await pasteModule(page, '(module (func (export "__wasm_call_ctors")) (func (export "_initialize")))');
  await page.waitForSelector('#entry option[value="_initialize"]', { state: 'attached' });
  assert.equal(await page.locator('#error').count(), 0);
  assert.match(await page.locator('#notice').innerText(),
    /^the module exports only runtime helpers \(__wasm_call_ctors, _initialize\), no function of the program: choose one to explore it$/);
  assert.equal(await page.isDisabled('#run'), true);
  await pick(page, '#entry', '_initialize');
  await noResults(page);
  await run(page, { entry: '_initialize', paths: 1 });
  assert.deepEqual(errors, []);
});

/// LEB128 of an unsigned integer.
function leb(n) {
  const out = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

/// A module whose one function `big(i32) -> i32` has two paths, with a
/// data segment of `size` bytes: a large module made by hand.
function largeModule(size) {
  const section = (id, bytes) => Buffer.from([id, ...leb(bytes.length), ...bytes]);
  const name = (text) => [text.length, ...Buffer.from(text)];
  // local.get 0, if (result i32) i32.const 1 else i32.const 0 end, end
  const body = [0x00, 0x20, 0x00, 0x04, 0x7f, 0x41, 0x01, 0x05, 0x41, 0x00, 0x0b, 0x0b];
  const pages = Math.ceil(size / 65536);
  const segment = Buffer.alloc(size, 0x5a);
  const dataHead = [0x01, 0x00, 0x41, 0x00, 0x0b, ...leb(size)];
  return Buffer.concat([
    Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]),
    section(1, [0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f]),
    section(3, [0x01, 0x00]),
    section(5, [0x01, 0x00, ...leb(pages)]),
    section(7, [0x02, ...name('memory'), 0x02, 0x00, ...name('big'), 0x00, 0x00]),
    section(10, [0x01, body.length, ...body]),
    Buffer.from([11, ...leb(dataHead.length + size), ...dataHead]),
    segment,
  ]);
}

test('a large upload shows that it is loading, then runs', async () => {
  const { page, errors } = await openAt();
  const big = largeModule(20_000_000);
  // (Handing 20 MB to the page takes the test harness seconds of its own.)
  await uploadFile(page, { name: 'big.wasm', mimeType: 'application/wasm', buffer: big });
  // At once: the old module's entry is gone, and the page says it loads.
  await page.waitForSelector('#loading');
  const started = Date.now();
  assert.match(await page.locator('#loading').innerText(), /^loading big\.wasm \(20\.0 MB\)/);
  assert.equal(await page.isDisabled('#entry'), true);
  assert.doesNotMatch(await page.locator('#entry').innerText(), /get_sign/);
  await page.screenshot({ path: join(artifacts, 'large-upload.png') });
  await shownEntry(page, 'big');
  const loaded = Date.now() - started;
  await run(page, { entry: 'big', paths: 2 });
  console.log(`a ${(big.length / 1e6).toFixed(1)} MB module: listed ${loaded} ms after the page began to load it, explored in ${Date.now() - started - loaded} ms more`);
  assert.deepEqual(errors, []);
});

test('a value that breaks the assumption: the page says every path was dropped, and where', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'loop');
  await shownEntry(page, 'sum_to');
  await setField(page, '#arg-0', '-3');
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("(completed)")');
  assert.equal(await page.locator('.results h2').innerText(), 'sum_to: 0 paths (completed)');
  assert.match(await page.locator('#drops').innerText(),
    /^no path is left: every path was dropped \(1 path: 1 by the assumption at sum_to\+0x[0-9a-f]+ \(sum_to\.c:6\)\)$/);
  await page.screenshot({ path: join(artifacts, 'assumption-drops-all.png'), fullPage: true });
  // With the bound symbolic, the paths found and the one dropped.
  await setField(page, '#arg-0', '');
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("sum_to: 9 paths (completed)")');
  assert.match(await page.locator('#drops').innerText(), /^1 path dropped: 1 by the assumption at sum_to\+0x/);
  assert.deepEqual(errors, []);
});

test('a dangling pointer: the use after return names the buffer, its function and where it returned', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'dangling-pointer');
  await shownEntry(page, 'first_letter');
  await run(page, { entry: 'first_letter', paths: 2 });
  await showTab(page, 'bugs');
  const bugs = page.locator('#bugs .bug');
  assert.equal(await bugs.count(), 1);
  assert.match(await bugs.first().innerText(),
    /use_after_return \(read of 1 byte at offset 0 of the local word of 4 bytes in pick_word's frame, declared at dangling_pointer\.c:17, gone since pick_word returned at pick_word\+0x[0-9a-f]+ \(dangling_pointer\.c:20\)\) at first_letter\+0x[0-9a-f]+ \(dangling_pointer\.c:26\)/);
  // The variable is the error's object: its row names where it comes from
  // and that its frame is gone, and its bytes are drawn with the read.
  assert.match(await bugs.first().locator('table.objects tr.failing').innerText(),
    /#0 local word\s+0x[0-9a-f]+\s+4\s+4\s+returned at pick_word\+0x[0-9a-f]+ \(dangling_pointer\.c:20\)\s+in pick_word, declared at dangling_pointer\.c:17/);
  const bar = bugs.first().locator('.object-bar');
  assert.equal(await bar.locator('.cell.hit.byte').count(), 1, 'the read lands on the first byte');
  await page.screenshot({ path: join(artifacts, 'use-after-return.png'), fullPage: true });
  await bugs.first().locator('button.replay').click();
  await page.waitForSelector('#bugs .replay-outcome');
  assert.match(await page.locator('#bugs .replay-outcome').first().innerText(), /^replayed: use_after_return \(read of 1 byte at offset 0 of the local word/);
  assert.deepEqual(errors, []);
});

test('a heap overflow: the bug, its block drawn with the write on it, the memory of a clicked leaf', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'heap-overflow');
  await shownEntry(page, 'copy_name');
  await run(page, { entry: 'copy_name', paths: 9 });
  // The five overflowing paths write past the block at one place: one bug.
  await showTab(page, 'bugs');
  const bugs = page.locator('#bugs .bug');
  assert.equal(await bugs.count(), 1);
  assert.equal(await bugs.first().getAttribute('data-paths'), '5');
  assert.match(await bugs.first().innerText(), /, on 5 paths; the shortest input, path \d+: /);
  assert.match(await bugs.first().innerText(),
    /heap_overflow \(write of 1 byte at offset \d of the heap block of \d bytes? allocated at copy_name\+0x[0-9a-f]+ \(heap_overflow\.c:14\)\) at copy_name\+0x[0-9a-f]+ \(heap_overflow\.c:22\)/);
  // The block is drawn, its bytes (of a symbolic size: its capacity is
  // reserved) and the write past them.
  const bar = bugs.first().locator('.object-bar');
  assert.equal(await bar.locator('.cell.hit').count(), 1);
  assert.equal(await bar.locator('.cell.hit.byte').count(), 0, 'the write lands past the block\'s bytes');
  assert.ok(await bar.locator('.cell.spare').count() > 0, 'the spare capacity is drawn');
  assert.match(await bar.locator('figcaption').innerText(), /^heap_overflow: write of 1 byte at offset \d of #0 heap block \(a cell is 2 bytes\)$/);
  assert.match(await bugs.first().locator('table.objects tr.failing').innerText(), /#0 heap block\s+0x[0-9a-f]+/);
  await page.screenshot({ path: join(artifacts, 'heap-overflow.png'), fullPage: true });
  // The replay reproduces the error with the same model.
  await bugs.first().locator('button.replay').click();
  await page.waitForSelector('#bugs .replay-outcome');
  assert.match(await page.locator('#bugs .replay-outcome').first().innerText(), /^replayed: heap_overflow \(write of 1 byte/);
  // A clicked leaf that returned shows its block, freed.
  await clickNode(page.locator('#tree .node.returned').first());
  assert.match(await page.locator('#node-details .memory').innerText(), /#0 heap block.*freed at copy_name/s);
  // A branch below the allocation shows the block as it was when the
  // branch forked: made, and live then.
  await clickNode(page.locator('#tree .node.inner-node').last());
  assert.match(await page.locator('#node-details h3').innerText(), /\(branch\)/);
  assert.match(await page.locator('#node-details').innerText(), /memory when it forked/);
  assert.match(await page.locator('#node-details .memory tbody').innerText(),
    /^#0 heap block\s+0x[0-9a-f]+\s+.*\(symbolic\)\s+\d+\s+live\s+copy_name\+0x/);
  assert.deepEqual(errors, []);
});

test('symbolic bases: the heap overflow is found alike, its block named by its base symbol at a hidden address in the arena, and the choice travels in the share link', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'heap-overflow');
  await shownEntry(page, 'copy_name');
  await run(page, { entry: 'copy_name', paths: 9 });
  await showTab(page, 'bugs');
  const bug = page.locator('#bugs .bug').first();
  const row = () => bug.locator('table.objects tr.failing').innerText();
  const error = (text) => text.match(/heap_overflow \(write of 1 byte at offset \d of the heap block of \d bytes? allocated at copy_name\+0x[0-9a-f]+ \(heap_overflow\.c:14\)\) at copy_name\+0x[0-9a-f]+ \(heap_overflow\.c:22\)/)?.[0];
  const concrete = error(await bug.innerText());
  assert.ok(concrete);
  const address = (await row()).match(/#0 heap block\s+(0x[0-9a-f]+)/)?.[1];
  assert.ok(address && !address.startsWith('0x4'), await row());
  await openOptions(page);
  assert.equal(await page.inputValue('#bases'), 'concrete');
  await pick(page, '#bases', 'symbolic');
  await closeOptions(page);
  await run(page, { entry: 'copy_name', paths: 9 });
  await showTab(page, 'bugs');
  assert.equal(await page.locator('#bugs .bug').count(), 1);
  assert.equal(error(await bug.innerText()), concrete);
  // Hidden addresses lie in the engine's arena, from 0x40000000.
  assert.match(await row(), /^#0 heap block\s+&obj0 = 0x400000[0-9a-f]{2}\s/);
  await page.screenshot({ path: join(artifacts, 'symbolic-bases.png'), fullPage: true });
  await page.click('#share');
  const link = await page.locator('#share-link a').getAttribute('href');
  const { page: opened, errors: openErrors } = await openAt(link);
  await opened.waitForSelector('.results h2:has-text("copy_name: 9 paths (completed)")', { timeout: 30_000 });
  await openOptions(opened);
  assert.equal(await opened.inputValue('#bases'), 'symbolic');
  assert.deepEqual(openErrors, []);
  assert.deepEqual(errors, []);
});

test('segments: the blocks a pointer may point into become one, the write forks no more, the overflow is still found, and the choice and its contexts travel in the share link', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'pointer-array');
  await shownEntry(page, 'store');
  // A fork per block: a path for each block the write fits in.
  await run(page, { entry: 'store', paths: 6 });
  await showTab(page, 'bugs');
  const bug = page.locator('#bugs .bug').first();
  const place = (text) => text.match(/heap_overflow \(write of 1 byte at offset \d of the heap block of \d bytes allocated at store\+0x[0-9a-f]+ \(pointer_array\.c:12\)\) at store\+0x[0-9a-f]+ \(pointer_array\.c:21\)/)?.[0];
  assert.ok(place(await bug.innerText()), await bug.innerText());
  await openOptions(page);
  assert.equal(await page.inputValue('#resolve'), 'fork');
  await pick(page, '#resolve', 'segment');
  // Segments move blocks: their pointers are symbolic, and the choice of
  // pointers is no longer the person's to make.
  assert.equal(await page.inputValue('#bases'), 'symbolic');
  assert.ok(await page.locator('#bases').isDisabled());
  assert.equal(await page.inputValue('#segment-cap'), '2048');
  // Allocation contexts of 4 callers by default; off asks every block.
  assert.equal(await page.inputValue('#segment-context'), '4');
  await setField(page, '#segment-context', 'off');
  await closeOptions(page);
  // The write fits in any block on one path; the overflow is one more.
  await run(page, { entry: 'store', paths: 3 });
  await showTab(page, 'bugs');
  assert.equal(await page.locator('#bugs .bug').count(), 1);
  assert.ok(place(await bug.innerText()), await bug.innerText());
  const rows = bug.locator('table.objects tbody tr');
  assert.equal(await rows.count(), 4);
  for (let i = 0; i < 4; i++) {
    assert.match(await rows.nth(i).innerText(),
      new RegExp(`^#${i} heap block\\s+&obj${i} = 0x[0-9a-f]+\\s.*live, in segment 0\\s`));
  }
  assert.match(await bug.locator('p.segment').innerText(),
    /^segment 0: blocks #0, #1, #2 and #3 moved next to each other at 0x[0-9a-f]+, 532 bytes, made at store\+0x[0-9a-f]+ \(pointer_array\.c:21\)$/);
  await page.screenshot({ path: join(artifacts, 'segments.png'), fullPage: true });
  await showTab(page, 'paths');
  assert.match(await page.locator('#pane-paths .arrays').innerText(), /; 1 segment of blocks, 532 B at most$/);
  await page.click('#share');
  const link = await page.locator('#share-link a').getAttribute('href');
  const { page: opened, errors: openErrors } = await openAt(link);
  await opened.waitForSelector('.results h2:has-text("store: 3 paths (completed)")', { timeout: 30_000 });
  await openOptions(opened);
  assert.equal(await opened.inputValue('#resolve'), 'segment');
  assert.equal(await opened.inputValue('#segment-context'), 'off');
  assert.deepEqual(openErrors, []);
  assert.deepEqual(errors, []);
});

test('hash tables from a share link under segments: a leaf\'s memory shows the segment and its members, and compare runs fork against segment', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'hash-tables');
  await shownEntry(page, 'find_key');
  await openOptions(page);
  await pick(page, '#resolve', 'segment');
  await closeOptions(page);
  await run(page, { entry: 'find_key', paths: 3 });
  await page.click('#share');
  const link = await page.locator('#share-link a').getAttribute('href');
  // The link opens the example with segments on, and runs it.
  const { page: opened, errors: openErrors } = await openAt(link);
  await opened.waitForSelector('.results h2:has-text("find_key: 3 paths (completed)")', { timeout: 30_000 });
  await clickNode(opened.locator('#tree .node.returned').first());
  const memory = opened.locator('#node-details .memory');
  assert.match(await memory.locator('p.segment').innerText(),
    /^segment 0: blocks #1, #2, #3, #4 and #5 moved next to each other at 0x[0-9a-f]+, 676 bytes, made at find_key\+0x[0-9a-f]+ \(hash_tables\.c:\d+\)$/);
  // The first table's five nodes are its members; no other block is.
  const rows = memory.locator('tbody tr');
  assert.equal(await rows.count(), 18);
  for (let i = 0; i < 18; i++) {
    const member = i >= 1 && i <= 5;
    const row = await rows.nth(i).innerText();
    assert.match(row, new RegExp(`^#${i} heap block\\s+&obj${i} = 0x[0-9a-f]+\\s`), row);
    assert.equal(/in segment 0/.test(row), member, row);
  }
  await opened.screenshot({ path: join(artifacts, 'hash-tables-segment.png'), fullPage: true });
  // Compare: B is offered as A resolving by fork, and both run.
  await opened.click('#compare');
  await opened.waitForSelector('#comparison-verdict', { timeout: 30_000 });
  assert.match(await opened.locator('#side-a > h2').innerText(), /^A: .*symbolic bases, segments of at most 2048 B/);
  assert.match(await opened.locator('#side-b > h2').innerText(), /^B: .*symbolic bases$|^B: .*symbolic bases,/);
  assert.doesNotMatch(await opened.locator('#side-b > h2').innerText(), /segments/);
  const figure = async (name) => (await opened.locator(`#comparison-figures tr:has(td:text-is("${name}"))`).innerText()).split('\t');
  assert.deepEqual((await figure('paths')).slice(1, 3), ['3', '11']);
  assert.deepEqual((await figure('segments')).slice(1, 3), ['1', '0']);
  assert.deepEqual((await figure('largest segment (bytes)')).slice(1, 3), ['676', '0']);
  assert.deepEqual((await figure('distinct bugs')).slice(1, 3), ['0', '0']);
  assert.match(await opened.locator('#comparison-verdict').innerText(), /^Neither run found a bug\./);
  assert.equal(await opened.locator('#b-tree .node.returned').count(), 11);
  await opened.setViewportSize({ width: 1280, height: 720 });
  await opened.screenshot({ path: join(artifacts, 'compare-segment-fork.png'), fullPage: true });
  assert.deepEqual(openErrors, []);
  assert.deepEqual(errors, []);
});

test('address-aware cache: chosen in the options, it makes pointers symbolic, finds the same paths, its layer stands in front of SAT in the table of solver layers, and the choice travels in the share link', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'hash-tables');
  await shownEntry(page, 'find_key');
  await run(page, { entry: 'find_key', paths: 11 });
  await showTab(page, 'paths');
  const layers = page.locator('#pane-paths details.solver-layers');
  // Without the cache, the chain's layers only.
  await layers.locator('summary').click();
  const firstLayer = () => layers.locator('tbody tr').first().locator('td').first().innerText();
  assert.equal(await firstLayer(), 'simplification');
  assert.equal(await layers.locator('p.aa-cache').count(), 0);
  await openOptions(page);
  assert.equal(await page.inputValue('#aa-cache'), 'off');
  await pick(page, '#aa-cache', 'check');
  // It keys on pointers over base symbols: the choice of pointers is no
  // longer the person's to make.
  assert.equal(await page.inputValue('#bases'), 'symbolic');
  assert.ok(await page.locator('#bases').isDisabled());
  await closeOptions(page);
  await run(page, { entry: 'find_key', paths: 11 });
  await showTab(page, 'paths');
  if (!(await layers.getAttribute('open') !== null)) {
    await layers.locator('summary').click();
  }
  const rows = layers.locator('tbody tr');
  const count = await rows.count();
  const cells = (await rows.nth(count - 2).innerText()).split('\t');
  assert.equal(cells[0], 'address-aware cache');
  assert.equal((await rows.nth(count - 1).innerText()).split('\t')[0], 'SAT');
  // The branches of the lookup the exact caches left to SAT reached it;
  // the paths allocated alike, so those caches answer what it could.
  assert.ok(Number(cells[1]) > 0, cells.join(' '));
  assert.match(await layers.locator('p.aa-cache').innerText(),
    /^address-aware cache: \d+ answers? held \([0-9.]+ (B|KiB)\); \d+ quer(y|ies) trusted with a model only \(the guard\), 0 left to the solver for a block of symbolic size$/);
  await page.screenshot({ path: join(artifacts, 'aa-cache.png'), fullPage: true });
  await page.click('#share');
  const link = await page.locator('#share-link a').getAttribute('href');
  const { page: opened, errors: openErrors } = await openAt(link);
  await opened.waitForSelector('.results h2:has-text("find_key: 11 paths (completed)")', { timeout: 30_000 });
  await openOptions(opened);
  assert.equal(await opened.inputValue('#aa-cache'), 'check');
  assert.equal(await opened.inputValue('#bases'), 'symbolic');
  assert.deepEqual(openErrors, []);
  assert.deepEqual(errors, []);
});

test('memory per state: the statistics and a node\'s details tell what its state held of its own, and the tree colours by it', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'heap-overflow');
  await shownEntry(page, 'copy_name');
  await run(page, { entry: 'copy_name', paths: 9 });
  const size = '[0-9.]+ (B|KiB|MiB)';
  assert.match(await page.locator('p.state-memory').innerText(),
    new RegExp(`^memory per state: ${size} on average, ${size} at most \\(what states share not counted\\)$`));
  await clickNode(page.locator('#tree .node.returned').first());
  assert.match(await page.locator('#node-details .state-bytes').innerText(), new RegExp(`^${size} of its own when it ended$`));
  await clickNode(page.locator('#tree .node.inner-node').last());
  assert.match(await page.locator('#node-details .state-bytes').innerText(), new RegExp(`^${size} of its own when it forked$`));
  // Coloured by memory: shades from the least bytes to the most, the
  // outcome colours gone, a legend of where each shade starts.
  const colour = page.locator('#tree-colour');
  assert.equal(await colour.innerText(), 'colour by memory');
  await colour.click();
  assert.equal(await colour.innerText(), 'colour by outcome');
  assert.equal(await page.locator('#tree .node.returned').count(), 0);
  assert.ok(await page.locator('#tree .node.shade-0').count() > 0, 'the least bytes');
  assert.ok(await page.locator('#tree .node.shade-4').count() > 0, 'the most bytes');
  const legend = page.locator('#memory-legend li');
  assert.equal(await legend.count(), 5);
  assert.match(await legend.first().innerText(), new RegExp(`^${size}\\+$`));
  await page.screenshot({ path: join(artifacts, 'tree-by-memory.png'), fullPage: true });
  await colour.click();
  assert.ok(await page.locator('#tree .node.returned').count() > 0, 'back to outcomes');
  assert.deepEqual(errors, []);
});

test('size modes: a read past a buffer of one length only is missed by base and found by fork-lazy', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'length-read');
  await shownEntry(page, 'first_header');
  await pick(page, '#size-mode', 'base');
  await run(page, { entry: 'first_header', paths: 13 });
  await noBugs(page, 'a bug with the size pinned to the capacity');
  await openOptions(page);
  await pick(page, '#size-mode', 'fork-lazy');
  await closeOptions(page);
  await run(page, { entry: 'first_header', paths: 15 });
  await showTab(page, 'bugs');
  assert.match(await page.locator('#bugs .bug').first().innerText(),
    /buffer_overflow \(read of 1 byte at offset 1 of the input buffer headers of 1 byte/);
  assert.match(await page.locator('#bugs .bug').first().innerText(), /headers = \[0\]|headers = "\\0"|headers = 00/);
  await page.screenshot({ path: join(artifacts, 'length-read-fork-lazy.png'), fullPage: true });
  // The heap options travel in the share link.
  await page.click('#share');
  const link = await page.locator('#share-link a').getAttribute('href');
  const { page: opened, errors: openErrors } = await openAt(link);
  await opened.waitForSelector('.results h2:has-text("first_header: 15 paths (completed)")', { timeout: 30_000 });
  await openOptions(opened);
  assert.equal(await opened.inputValue('#size-mode'), 'fork-lazy');
  assert.deepEqual(openErrors, []);
  assert.deepEqual(errors, []);
});

test('contents: arrays of all of memory find what per-object arrays find, and the choice travels in the share link', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'length-read');
  await shownEntry(page, 'first_header');
  await run(page, { entry: 'first_header', paths: 15 });
  await showTab(page, 'bugs');
  const perObject = await page.locator('#bugs .bug').first().innerText();
  await openOptions(page);
  assert.equal(await page.inputValue('#contents'), 'per-object');
  await pick(page, '#contents', 'whole');
  await closeOptions(page);
  await run(page, { entry: 'first_header', paths: 15 });
  await showTab(page, 'bugs');
  const whole = await page.locator('#bugs .bug').first().innerText();
  const kind = (text) => text.match(/[a-z_]+ \(read of 1 byte at offset 1 of the input buffer headers/)?.[0];
  assert.ok(kind(perObject), perObject);
  assert.equal(kind(whole), kind(perObject));
  await page.screenshot({ path: join(artifacts, 'contents-whole.png'), fullPage: true });
  await page.click('#share');
  const link = await page.locator('#share-link a').getAttribute('href');
  const { page: opened, errors: openErrors } = await openAt(link);
  await opened.waitForSelector('.results h2:has-text("first_header: 15 paths (completed)")', { timeout: 30_000 });
  await openOptions(opened);
  assert.equal(await opened.inputValue('#contents'), 'whole');
  assert.deepEqual(openErrors, []);
  assert.deepEqual(errors, []);
});

test('split: small pieces find the table overflow as whole objects do, the statistics say what was split, and the choice travels in the share link', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'table');
  await shownEntry(page, 'lookup');
  await run(page, { entry: 'lookup', paths: 10 });
  await showTab(page, 'bugs');
  const overflow = page.locator('#bugs .bug', { hasText: 'global_overflow' }).first();
  const whole = await overflow.innerText();
  await showTab(page, 'paths');
  assert.match(await page.locator('#pane-paths .arrays').innerText(), /^arrays: [0-9.]+ KiB at most in one symbolic access$/);
  await openOptions(page);
  assert.equal(await page.locator('#split-threshold').count(), 0, 'the sizes show once split is on');
  await page.click('#split');
  await setField(page, '#split-threshold', '16');
  await setField(page, '#split-piece', '8');
  await page.screenshot({ path: join(artifacts, 'split-options.png') });
  await closeOptions(page);
  await run(page, { entry: 'lookup', paths: 10 });
  await showTab(page, 'bugs');
  const split = await overflow.innerText();
  const kind = (text) => text.match(/global_overflow \(read of 4 bytes at offset \d+ of the global squares of 32 bytes/)?.[0];
  assert.ok(kind(whole), whole);
  assert.equal(kind(split), kind(whole));
  await showTab(page, 'paths');
  assert.equal(await page.locator('#pane-paths .arrays').innerText(),
    'arrays: 11 B at most in one symbolic access; 1 access split into pieces');
  await page.screenshot({ path: join(artifacts, 'split-table.png'), fullPage: true });
  await page.click('#share');
  const link = await page.locator('#share-link a').getAttribute('href');
  const { page: opened, errors: openErrors } = await openAt(link);
  await opened.waitForSelector('.results h2:has-text("lookup: 10 paths (completed)")', { timeout: 30_000 });
  await openOptions(opened);
  assert.equal(await opened.isChecked('#split'), true);
  assert.equal(await opened.inputValue('#split-threshold'), '16');
  assert.equal(await opened.inputValue('#split-piece'), '8');
  assert.deepEqual(openErrors, []);
  assert.deepEqual(errors, []);
});

test('compare mode: one click runs base against fork-lazy, two trees, the bug only B found, its replay, a share link', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'length-read');
  await shownEntry(page, 'first_header');
  await pick(page, '#size-mode', 'base');
  await page.click('#compare');
  // B is offered as A with the other size mode; both run, one after the other.
  await page.waitForSelector('#comparison-verdict', { timeout: 30_000 });
  await openOptions(page);
  assert.equal(await page.inputValue('#b-size-mode'), 'fork-lazy');
  assert.equal(await page.inputValue('#size-mode'), 'base');
  await closeOptions(page);
  assert.match(await page.locator('#progress').innerText(), /^A: 13 paths, 0 pending states/);
  assert.match(await page.locator('#progress-b').innerText(), /^B: 15 paths, 0 pending states/);
  assert.match(await page.locator('#comparison-verdict').innerText(),
    /^B found a bug A missed: buffer_overflow at first_header\+0x[0-9a-f]+ \(length_read\.c:\d+\)\.$/);
  const figure = async (name) => (await page.locator(`#comparison-figures tr:has(td:text-is("${name}"))`).innerText()).split('\t');
  assert.deepEqual((await figure('paths')).slice(1, 4), ['13', '15', '1.15']);
  assert.deepEqual((await figure('memory errors')).slice(1, 3), ['0', '1']);
  assert.equal(await page.locator('#comparison-figures tr.differs:has(td:text-is("paths"))').count(), 1);
  const only = page.locator('#comparison-endings tr.bug.differs');
  assert.equal(await only.count(), 1);
  assert.match(await only.innerText(), /buffer_overflow at .* only B\t0\t1/);
  // Two trees side by side, each with its own controls.
  assert.match(await page.locator('#side-a > h2').innerText(), /^A: .*size mode base/);
  assert.match(await page.locator('#side-b > h2').innerText(), /^B: .*size mode fork-lazy/);
  assert.equal(await page.locator('#tree .node').count() > 0, true);
  assert.equal(await page.locator('#b-tree .node.memory-error').count(), 1);
  assert.equal(await page.locator('#tree .node.memory-error').count(), 0);
  await clickNode(page.locator('#b-tree .node.memory-error'));
  assert.match(await page.locator('#b-node-details .outcome').innerText(), /^memory: buffer_overflow/);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.screenshot({ path: join(artifacts, 'compare-base-fork-lazy.png'), fullPage: true });
  // A's paths are listed until B's are asked for; B's bug replays under B's model.
  await noBugs(page, "A's list has no bug");
  await page.click('#details-b');
  assert.equal((await pathRows(page)).length, 15);
  await showTab(page, 'bugs');
  await page.locator('#bugs .bug button.replay').click();
  await page.waitForSelector('#bugs .replay-outcome');
  assert.match(await page.locator('#bugs .replay-outcome').innerText(), /^replayed: buffer_overflow/);
  // The link carries both configurations and reopens the comparison.
  await page.click('#share');
  const link = await page.locator('#share-link a').getAttribute('href');
  const { page: opened, errors: openErrors } = await openAt(link);
  await opened.waitForSelector('#comparison-verdict', { timeout: 30_000 });
  await openOptions(opened);
  assert.equal(await opened.inputValue('#size-mode'), 'base');
  assert.equal(await opened.inputValue('#b-size-mode'), 'fork-lazy');
  assert.match(await opened.locator('#comparison-verdict').innerText(), /^B found a bug A missed/);
  // A change to B's form is B's alone; Run runs both again.
  await pick(opened, '#b-size-mode', 'base');
  await closeOptions(opened);
  await opened.click('#run');
  await opened.waitForSelector('#comparison-verdict:has-text("Neither run found a bug.")', { timeout: 30_000 });
  // Single run: one form and one tree again.
  await opened.click('#close-compare');
  await openOptions(opened);
  await absent(opened, '#config-b', 'B\'s form after Single run');
  await absent(opened, '#b-tree', 'B\'s tree after Single run');
  assert.equal(await opened.locator('#tree').count(), 1);
  assert.deepEqual(openErrors, []);
  assert.deepEqual(errors, []);
});

test('a buffer parameter: s points to a buffer of symbolic length at most 8, n is its length; the bug for length 1 replays and travels in a link', async () => {
  const { page, errors } = await openAt();
  const header = await readFile(join(data, 'heap', 'params', 'header.wat'), 'utf8');
  await pasteModule(page, header);
  await shownEntry(page, 'header');
  await pick(page, '#arg-kind-0', 'buffer');
  assert.equal(await page.inputValue('#arg-0'), '16', 'a buffer starts with a capacity');
  await setField(page, '#arg-0', '8');
  await pick(page, '#arg-kind-1', 'length:0');
  assert.equal(await page.locator('#arg-1').isDisabled(), true, 'a length takes no value');
  assert.equal(await page.getAttribute('#arg-1', 'placeholder'), 's\'s length');
  await run(page, { entry: 'header', paths: 4 });
  await showTab(page, 'bugs');
  const bug = page.locator('#bugs .bug');
  assert.equal(await bug.count(), 1);
  assert.match(await bug.innerText(),
    /buffer_overflow \(read of 1 byte at offset 1 of the input buffer s_buf of 1 byte.*\).*n = 1, s_buf = /s);
  await page.screenshot({ path: join(artifacts, 'buffer-parameter.png'), fullPage: true });
  await bug.locator('button.replay').click();
  await page.waitForSelector('#bugs .replay-outcome');
  assert.match(await page.locator('#bugs .replay-outcome').innerText(), /^replayed: buffer_overflow/);
  // Size mode base pins the length to 8: no bug.
  await openOptions(page);
  await pick(page, '#size-mode', 'base');
  await closeOptions(page);
  await run(page, { entry: 'header', paths: 2 });
  await noBugs(page, 'a bug with the length pinned to 8');
  // A bad capacity is named.
  await setField(page, '#arg-0', '0');
  await page.click('#run');
  await page.waitForSelector('#error');
  assert.match(await page.locator('#error').innerText(), /the capacity of s's buffer must be 1 to/);
  // The link carries the parameters' kinds.
  await setField(page, '#arg-0', '8');
  await openOptions(page);
  await pick(page, '#size-mode', 'fork-lazy');
  await closeOptions(page);
  await page.click('#share');
  const link = await page.locator('#share-link a').getAttribute('href');
  const { page: opened, errors: openErrors } = await openAt(link);
  await opened.waitForSelector('.results h2:has-text("header: 4 paths (completed)")', { timeout: 30_000 });
  assert.equal(await opened.inputValue('#arg-kind-0'), 'buffer');
  assert.equal(await opened.inputValue('#arg-0'), '8');
  assert.equal(await opened.inputValue('#arg-kind-1'), 'length:0');
  await showTab(opened, 'bugs');
  assert.equal(await opened.locator('#bugs .bug').count(), 1);
  assert.deepEqual(openErrors, []);
  assert.deepEqual(errors, []);
});

test('parameter names: get_sign reads x, not arg0, in its field, its error, the tree, the table and the details; a WAT $name too', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'sign');
  await shownEntry(page, 'get_sign');
  // `int get_sign(int x)`, built with -g: the field is labelled as the C says.
  assert.match(await page.locator('.args label').innerText(), /^x \(i32\)/);
  await setField(page, '#arg-0', 'ten');
  await page.click('#run');
  assert.match(await page.locator('#error').innerText(), /^x must be a whole number \(or empty for a symbolic input\), not `ten`/);
  await setField(page, '#arg-0', '');
  await run(page, { entry: 'get_sign', paths: 3 });
  assert.deepEqual((await page.locator('#tree .labels .label').allTextContents()).sort(),
    ['x != 0', 'x < 0', 'x == 0', 'x >= 0']);
  const inputs = await page.locator('#paths tbody td.input').allInnerTexts();
  assert.equal(inputs.length, 3);
  for (const input of inputs) assert.match(input, /^x = -?\d+$/);
  // A row selects its leaf, whose details read the name too.
  await page.locator('#paths tbody tr').first().click();
  await showTab(page, 'node');
  const details = page.locator('#node-details');
  assert.match(await details.locator('.input').innerText(), /^x = -?\d+$/);
  assert.match(await details.locator('.path-condition-readable').innerText(), /^x [!=]= 0/);
  assert.doesNotMatch(await details.innerText(), /arg0/);
  await screenshots(page, 'parameter-names');
  // WAT: a `$name` names its parameter; an unnamed one is `arg1`.
  await pasteModule(page, `(module (func (export "below") (param $count i32) (param i32) (result i32)
  (i32.lt_s (local.get $count) (local.get 1))))`);
  await shownEntry(page, 'below');
  assert.match(await page.locator('.args').innerText(), /^count \(i32\)\s+value\s+buffer of symbolic length ≤\s+arg1 \(i32\)/);
  // A comparison's result, 0 or 1: a path each.
  await run(page, { entry: 'below', paths: 2 });
  for (const input of await page.locator('#paths tbody td.input').allInnerTexts()) {
    assert.match(input, /^count = -?\d+, arg1 = -?\d+$/);
  }
  assert.deepEqual(errors, []);
});

test('every outcome: a select forks, a few-valued result splits into its values, and the options turn both off', async () => {
  const { page, errors } = await openAt();
  // clamp3 as clang -O1 writes it: two selects and no branch.
  await pasteModule(page, `(module (func (export "clamp3") (param $x i32) (result i32)
  (select (i32.const -1)
    (select (i32.const 1) (i32.const 0) (i32.gt_s (local.get $x) (i32.const 100)))
    (i32.lt_s (local.get $x) (i32.const 0)))))`);
  await run(page, { entry: 'clamp3', paths: 3 });
  assert.equal(await page.locator('.outcome-rules').innerText(),
    'Outcomes: a symbolic select forks; a symbolic result of at most 16 values splits into them.');
  const returned = async () => (await page.locator('#paths tbody tr').allInnerTexts())
    .map((row) => /returned \[(-?\d+)\]/.exec(row)?.[1]).sort();
  await showTab(page, 'paths');
  assert.deepEqual(await returned(), ['-1', '0', '1']);
  // The root forked at a select, which its details and its children's tips say.
  await clickNode(page.locator('#tree .node.inner-node').first());
  await showTab(page, 'node');
  assert.match(await page.locator('#node-details').innerText(), /forks at a select/);
  assert.match(await page.locator('#tree .node').nth(1).locator('title').textContent(), /^select: /);
  // Selects as ite values: one path returns a term of three values, which
  // splits at the return, each child labelled with its value.
  await openOptions(page);
  await page.click('#fork-selects');
  await closeOptions(page);
  await run(page, { entry: 'clamp3', paths: 3 });
  assert.match(await page.locator('.outcome-rules').innerText(), /a symbolic select is one ite value/);
  await screenshots(page, 'result-split');
  const tips = await page.locator('#tree .node.leaf title').allTextContents();
  assert.deepEqual(tips.map((t) => /^result: .+\npath \d+: returned \[(-?\d+)\]/.exec(t)?.[1]).sort(),
    ['-1', '0', '1'], tips.join('\n'));
  // The labels that have room say the values (the middle child's has none).
  const labels = await page.locator('#tree .labels .label').allTextContents();
  assert.ok(labels.length >= 2, labels.join(', '));
  for (const label of labels) assert.match(label, /^returns -?\d$/);
  // And with no split either, the outcomes hide in one path's term.
  await openOptions(page);
  await setField(page, '#result-values', '0');
  await closeOptions(page);
  await run(page, { entry: 'clamp3', paths: 1 });
  assert.match(await page.locator('.outcome-rules').innerText(), /a symbolic result stays a term/);
  await openOptions(page);
  await setField(page, '#result-values', '2000');
  await closeOptions(page);
  await page.click('#run');
  assert.match(await page.locator('#error').innerText(), /result values must be a whole number from 0 to 1024, not `2000`/);
  await screenshots(page, 'outcome-rules');
  assert.deepEqual(errors, []);
});

test('conditions read as the source means them: a range check and its complement, a buffer\'s bytes under every size mode', async () => {
  const { page, errors } = await openAt();
  // valid_port as clang -O1 writes `port >= 1 && port <= 65535`.
  await pasteModule(page, `(module (func (export "valid_port") (param $port i32) (result i32)
  (i32.lt_u (i32.add (local.get $port) (i32.const -1)) (i32.const 65535))))`);
  await run(page, { entry: 'valid_port', paths: 2 });
  const conditions = async () => {
    const found = [];
    await showTab(page, 'paths');
    const rows = await pathRows(page);
    for (let i = 0; i < rows.length; i++) {
      await showTab(page, 'paths');
      await page.locator('#paths tbody tr:not(.spacer)').nth(i).click();
      await showTab(page, 'node');
      found.push(await page.locator('#node-details .path-condition-readable').innerText());
    }
    return found;
  };
  assert.deepEqual((await conditions()).sort(), ['(port < 1 || port > 65535)', '1 <= port <= 65535']);
  // The header of length_read: its byte 1 reads as headers[1] whatever the
  // size mode, never as the memory at its address.
  await pick(page, '#example', 'length-read');
  await shownEntry(page, 'first_header');
  for (const mode of ['fork-lazy', 'base']) {
    await openOptions(page);
    await pick(page, '#size-mode', mode);
    await closeOptions(page);
    await page.click('#run');
    await page.waitForSelector('.results h2:has-text("completed")');
    const read = await conditions();
    assert.ok(read.some((c) => c.includes('headers[1]')), `${mode}: ${read.join('\n')}`);
    for (const c of read) assert.doesNotMatch(c, /mem\[/, mode);
  }
  await screenshots(page, 'conditions-as-source', '#node-details');
  assert.deepEqual(errors, []);
});

test('engine limits as options: an unknown import ends its path or gives fresh inputs, the call depth is a field, sizes past the capacity a checkbox', async () => {
  const { page, errors } = await openAt();
  await pasteModule(page, `(module
  (import "env" "sensor" (func $sensor (result i32)))
  (func $down (param $n i32) (result i32)
    (if (result i32) (i32.eqz (local.get $n))
      (then (i32.const 0))
      (else (call $down (i32.sub (local.get $n) (i32.const 1))))))
  (func (export "probe") (param $x i32) (result i32)
    (if (i32.gt_s (local.get $x) (i32.const 10)) (then (return (call $sensor))))
    (call $down (i32.const 20))))`);
  await run(page, { entry: 'probe', paths: 2, reason: 'import not provided' });
  await showTab(page, 'paths');
  assert.match((await page.locator('#paths tbody').innerText()), /import not provided: env\.sensor \(\) -> i32\tx = \d+/);
  // Fresh inputs for the import: both paths return.
  await openOptions(page);
  assert.equal(await page.inputValue('#max-call-depth'), '1024');
  await page.click('#havoc-imports');
  await closeOptions(page);
  await run(page, { entry: 'probe', paths: 2 });
  // A call depth of 5: the recursion 20 deep ends at the engine's limit.
  await openOptions(page);
  await setField(page, '#max-call-depth', '5');
  await page.click('#past-capacity');
  assert.equal(await page.locator('#past-capacity').isChecked(), false);
  await closeOptions(page);
  await run(page, { entry: 'probe', paths: 2, reason: 'call-depth limit' });
  await showTab(page, 'paths');
  assert.match((await page.locator('#paths tbody').innerText()), /call-depth limit/);
  // Past its bound, the field is refused by name.
  await openOptions(page);
  await setField(page, '#max-call-depth', '100001');
  await closeOptions(page);
  await page.click('#run');
  assert.match(await page.locator('#error').innerText(), /max call depth must be at most 100000 frames/);
  await screenshots(page, 'engine-limit-options');
  assert.deepEqual(errors, []);
});

test('a program that is its start function (as Owi\'s tests are written) is explored from it', async () => {
  const { page, errors } = await openAt();
  await pasteModule(page, await readFile(join(data, 'peers', 'owi_trap.wat'), 'utf8'));
  await page.waitForFunction(() => document.querySelector('#entry')?.value === '(start)');
  assert.match(await page.locator('#entry').innerText(), /^\(start\) \(\)$/);
  await run(page, { entry: '(start)', paths: 3 });
  await showTab(page, 'paths');
  const rows = await page.locator('#paths tbody').innerText();
  assert.match(rows, /exited with code 7/);
  assert.match(rows, /trap: unreachable\tsymbol = \d+/);
  assert.deepEqual(errors, []);
});

test('bugs are grouped with their count and shortest input; a leaf shows its stdout and its warnings', async () => {
  const { page, errors } = await openAt();
  // Two bugs, each on the 4 paths of two branches before them.
  await pasteModule(page, `(module (func (export "grouped") (param $x i32) (param $y i32) (result i32)
  (if (i32.and (local.get $y) (i32.const 1)) (then nop))
  (if (i32.and (local.get $y) (i32.const 2)) (then nop))
  (if (i32.gt_u (local.get $x) (i32.const 100)) (then unreachable))
  (i32.div_u (i32.const 10) (local.get $x))))`);
  await run(page, { entry: 'grouped', paths: 12 });
  await showTab(page, 'bugs');
  const bugs = page.locator('#bugs .bug');
  assert.equal(await bugs.count(), 2);
  assert.equal(await page.locator('.bugs h3').innerText(), '2 bugs');
  for (const text of await bugs.allInnerTexts()) {
    assert.match(text, /^trapped \((unreachable|div_by_zero)\) at grouped\+0x[0-9a-f]+, on 4 paths; the shortest input, path \d+: x = -?\d+, y = -?\d+/);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.screenshot({ path: join(artifacts, 'bugs-grouped-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(artifacts, 'bugs-grouped-390.png') });
  await page.setViewportSize({ width: 1280, height: 720 });

  // printf through WASI: each returned leaf shows what its path printed.
  await pick(page, '#example', 'printf');
  await shownEntry(page, 'classify');
  // Formatting the number forks once per digit count: 8 paths print it.
  await run(page, { entry: 'classify', paths: 9 });
  const printed = [];
  for (const leaf of await page.locator('#tree .node.returned').all()) {
    await clickNode(leaf);
    const input = await page.locator('#node-details dd.input').innerText();
    const stdout = await page.locator('#node-details pre.stdout').innerText();
    const x = Number(/^x = (-?\d+)$/.exec(input)[1]);
    assert.equal(stdout.trim(), x > 100 ? `big ${x}` : 'small', input);
    printed.push(stdout.trim());
  }
  assert.equal(printed.length, 9);
  assert.equal(printed.filter((p) => p === 'small').length, 1);
  await screenshots(page, 'stdout-per-path', '#node-details');

  // A float made concrete: its path says so in the table and in its leaf.
  await pasteModule(page, `(module (func (export "trunc") (param f32) (result i32)
  (i32.trunc_sat_f32_s (local.get 0))))`);
  await run(page, { entry: 'trunc', paths: 1 });
  const mark = page.locator('#paths tbody tr .note-mark');
  assert.equal(await mark.count(), 1);
  assert.match(await mark.getAttribute('title'), /concretised the float parameter arg0 to 0/);
  await clickNode(page.locator('#tree .node.returned').first());
  assert.match(await page.locator('#node-details .note').innerText(), /concretised the float parameter arg0 to 0: floats are not symbolic/);
  assert.deepEqual(errors, []);
});

test('an imported global is named as the module loads, before Run; an unprovided function ends only the paths that call it', async () => {
  const { page, errors } = await openAt();
  await pasteModule(page, `(module (import "env" "limit" (global i32))
  (func (export "f") (param i32) (result i32) (global.get 0)))`);
  // Leaving the editor loads the module; nothing is run.
  await leaveEditor(page);
  const error = page.locator('#error');
  await error.waitFor({ timeout: 10_000 });
  assert.match(await error.innerText(), /this module cannot be explored: unsupported import env\.limit/);
  // Run is off, and says why.
  assert.equal(await page.locator('#run').isDisabled(), true);
  assert.match(await page.locator('#run').getAttribute('title'), /cannot be explored: unsupported import env\.limit/);
  await absent(page, '#paths', 'a run that nobody started');
  await screenshots(page, 'import-at-load');
  await pasteModule(page, `(module (import "env" "beep" (func (param i32)))
  (func (export "beeps") (param i32) (result i32)
    (if (i32.gt_s (local.get 0) (i32.const 5)) (then (call 0 (local.get 0))))
    (i32.const 0)))`);
  await run(page, { entry: 'beeps', paths: 2, reason: 'import not provided' });
  assert.match(await page.locator('#paths tbody').innerText(), /import not provided: env\.beep \(i32\)/);
  // The statistics' ways of answering add up to the queries.
  const stats = await page.locator('p.stats').innerText();
  const [, total, parts] = stats.match(/(\d+) quer(?:y|ies): ([^(]*) \(/);
  const sum = parts.split(', ').reduce((n, part) => n + Number(part.split(' ')[0]), 0);
  assert.equal(sum, Number(total), stats);
  await screenshots(page, 'import-not-provided');
  assert.deepEqual(errors, []);
});

test('a link with nonsense option values says which, and runs nothing', async () => {
  const link = (options) => {
    const json = JSON.stringify({
      version: 1,
      wat: '(module (func (export "f") (param i32) (result i32) (local.get 0)))',
      entry: 'f',
      options: { search: 'dfs', seed: 0, ...options },
    });
    return `${env.base}#share=${deflateRawSync(Buffer.from(json)).toString('base64url')}`;
  };
  // A path limit of 0: named, and no run starts.
  let { page, errors } = await openAt(link({ max_paths: 0 }));
  const error = page.locator('#error');
  await error.waitFor({ timeout: 10_000 });
  assert.match(await error.innerText(), /max paths must be a positive whole number, not `0`/);
  await absent(page, '#paths', 'a run from a link with a path limit of 0');
  await screenshots(page, 'link-max-paths-0', '#error');
  assert.deepEqual(errors, []);
  // A searcher that does not exist: named, with the ones there are.
  ({ page, errors } = await openAt(link({ search: 'sideways' })));
  await page.locator('#error').waitFor({ timeout: 10_000 });
  assert.match(await page.locator('#error').innerText(), /unknown searcher `sideways` \(random-path\+coverage-new, dfs, bfs, random-path, coverage-new\)/);
  await absent(page, '#paths', 'a run from a link with an unknown searcher');
  assert.deepEqual(errors, []);
});


function linkTo(json) {
  return shareLink(env.base, json);
}

test('a link of 10 KiB carrying 1 MB of text opens with the text whole, and runs; the panes draw only what is in view', async () => {
  const text = megabyteModule();
  const link = linkTo({ version: 1, wat: text, entry: 'f', options: { search: 'dfs', seed: 0 } });
  const linkKiB = (link.length - env.base.length) / 1024;
  assert.ok(linkKiB > 8 && linkKiB < 12, `the link is ${linkKiB.toFixed(1)} KiB`);
  const { page, errors } = await openAt(link);
  await page.waitForSelector('.results h2:has-text("completed")', { timeout: 60_000 });
  assert.equal(await page.locator('.results h2').innerText(), 'f: 1 path (completed)');
  // The whole text, to its last character, and the entry it names.
  assert.equal(await editorText(page), text);
  assert.equal(await page.inputValue('#entry'), 'f');
  // The editor, like the WAT pane, draws the lines in view, not 20,000.
  await showCode(page, 'edit');
  const editorLines = await page.locator('#source .cm-line').count();
  assert.ok(editorLines > 0 && editorLines < 200, `${editorLines} lines drawn in the editor`);
  // The WAT pane draws the lines in view, not 60,000 of them.
  await showCode(page, 'wat');
  const watLines = await page.locator('#wat .line').count();
  assert.ok(watLines > 0 && watLines < 200, `${watLines} lines drawn in the WAT pane`);
  // The last lines are drawn once the pane is scrolled there by keys.
  await page.click('#wat');
  await page.keyboard.press('End');
  await page.waitForFunction(() => {
    const pane = document.querySelector('#wat');
    return pane.scrollTop > 0 && pane.scrollTop + pane.clientHeight >= pane.scrollHeight - 1;
  }, null, { timeout: 5_000 });
  // The module's closing parenthesis, its last line, is drawn; its first is not.
  const drawn = await page.locator('#wat .line').evaluateAll((lines) => lines.map((l) => l.lastChild.textContent));
  assert.equal(drawn.at(-1), ')');
  await absent(page, '#wat .line:has-text("(module")', 'the first line, out of view');
  assert.ok(await page.locator('#wat .line').count() < 200);
  await screenshots(page, 'link-megabyte');
  assert.deepEqual(errors, []);
});

test('a decompression bomb in a link is refused with a message; the page stays usable', async () => {
  // 40 MB of spaces as the WAT text: a link of a few dozen KiB.
  const bomb = `${env.base}#share=${deflateRawSync(Buffer.concat([
    Buffer.from('{"version":1,"entry":"f","options":{"search":"dfs","seed":0},"wat":"'),
    Buffer.alloc(40_000_000, ' '),
    Buffer.from('"}'),
  ]), { level: 9 }).toString('base64url')}`;
  assert.ok(bomb.length < 100 * 1024, `${bomb.length}`);
  const { page, errors } = await openAt(bomb);
  const message = page.locator('#share-error');
  await message.waitFor({ timeout: 10_000 });
  assert.match(await message.innerText(), /the share link is refused: it expands to more than 16 MiB \(from \d+ KiB\)/);
  // The first module is there, and runs.
  await run(page, { entry: 'get_sign', paths: 3 });
  await screenshots(page, 'link-bomb');
  assert.deepEqual(errors, []);
});

test('Share copies the link and says so; the clipboard holds it', async () => {
  const { page, errors } = await openAt();
  await page.click('#share');
  const notice = page.locator('#copy-notice');
  await notice.waitFor();
  assert.equal(await notice.innerText(), '✓ copied to the clipboard');
  const link = await page.locator('#share-link a').getAttribute('href');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
  await screenshots(page, 'share-copied');
  // A change drops the link and its notice.
  await pick(page, '#example', 'checksum');
  await page.waitForSelector('#copy-notice', { state: 'detached' });
  assert.deepEqual(errors, []);
});

/// Waits until the page has saved its work (it saves once changes pause).
async function savedWork(page, check) {
  await page.waitForFunction((source) => {
    const saved = JSON.parse(localStorage.getItem('symplay.work') ?? 'null');
    return saved && new Function('saved', `return ${source}`)(saved);
  }, check.toString().replace(/^\(?saved\)?\s*=>\s*/, ''), { timeout: 5_000 });
}

test('the editor autosaves: typed work and options come back after a reload, without a run', async () => {
  const { page, errors } = await openAt();
  await pasteModule(page, PASTED);
  await shownEntry(page, 'pasted_fn');
  await page.click('#seed');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('7');
  // Typing that has not paused is saved too.
  await clickEditor(page);
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' ;; more');
  await savedWork(page, (saved) => saved.wat.endsWith(' ;; more') && saved.options.seed === 7);
  await page.reload();
  await page.waitForSelector('#entry:enabled option', { state: 'attached' });
  await shownEntry(page, 'pasted_fn');
  assert.equal(await editorText(page), `${PASTED} ;; more`);
  assert.equal(await page.inputValue('#seed'), '7');
  await absent(page, '#paths', 'a run nobody started');
  await screenshots(page, 'autosaved');
  assert.deepEqual(errors, []);
});

test('opening a share link adds a history entry: Back brings the work before it, Forward the link', async () => {
  const { page, errors } = await openAt();
  await pasteModule(page, PASTED);
  await shownEntry(page, 'pasted_fn');
  await savedWork(page, (saved) => saved.wat.includes('pasted_fn'));
  // A link pasted in the address bar of this page.
  const link = linkTo({ version: 1, wat: TYPED, entry: 'typed_fn', options: { search: 'dfs', seed: 0 } });
  await page.goto(link);
  await page.waitForSelector('.results h2:has-text("typed_fn: 2 paths (completed)")');
  assert.equal(await editorText(page), TYPED);
  await page.goBack();
  await shownEntry(page, 'pasted_fn');
  assert.equal(await editorText(page), PASTED);
  assert.equal(new URL(page.url()).hash, '');
  await noResults(page);
  await screenshots(page, 'history-back');
  await page.goForward();
  await page.waitForSelector('.results h2:has-text("typed_fn: 2 paths (completed)")');
  assert.equal(await editorText(page), TYPED);
  // The link was not saved over the work: opening it changed nothing of it.
  await savedWork(page, (saved) => saved.wat.includes('pasted_fn'));
  assert.deepEqual(errors, []);
});

test('an edit of an opened link starts a history entry of its own: Back returns to the link', async () => {
  const link = linkTo({ version: 1, wat: TYPED, entry: 'typed_fn', options: { search: 'dfs', seed: 0 } });
  const { page, errors } = await openAt(link);
  await page.waitForSelector('.results h2:has-text("typed_fn: 2 paths (completed)")');
  await pasteModule(page, PASTED);
  await shownEntry(page, 'pasted_fn');
  assert.equal(new URL(page.url()).hash, '', 'the address no longer claims the link');
  await page.goBack();
  assert.equal(page.url(), link);
  await page.waitForSelector('.results h2:has-text("typed_fn: 2 paths (completed)")');
  assert.equal(await editorText(page), TYPED);
  await page.goForward();
  await shownEntry(page, 'pasted_fn');
  assert.equal(await editorText(page), PASTED);
  assert.deepEqual(errors, []);
});

test('a link that names an example but carries another module opens as that module, not under the example\'s name', async () => {
  const link = linkTo({ version: 1, example: 'sign', wat: PASTED, entry: 'get_sign', options: { search: 'dfs', seed: 0 } });
  const { page, errors } = await openAt(link);
  await page.waitForSelector('.results h2:has-text("pasted_fn: 2 paths (completed)")');
  assert.equal(await page.inputValue('#example'), '', 'the gallery shows no example');
  await absent(page, '#c-source', 'the example\'s C source over another module');
  assert.equal(await editorText(page), PASTED);
  await screenshots(page, 'link-example-mismatch');
  assert.deepEqual(errors, []);
});

test('the gallery is a course: numbered from a first branch to heap bugs, each example saying what it teaches', async () => {
  const { page, errors } = await openAt();
  const titles = (await page.locator('#example option').allInnerTexts()).slice(1);
  assert.ok(titles.length >= 15, titles.join(' | '));
  titles.forEach((t, i) => assert.match(t, new RegExp(`^${i + 1}\\. \\S`)));
  assert.equal(titles[0], '1. A first branch');
  const position = (title) => titles.findIndex((t) => t.endsWith(title));
  assert.ok(position('Division by zero') < position('A heap overflow'));
  assert.ok(position('A heap overflow') < position('A buffer of symbolic length'));
  await pick(page, '#example', 'sign');
  await shownEntry(page, 'get_sign');
  const lesson = await page.locator('#lesson').innerText();
  assert.match(lesson, /^Each if on the symbolic x .+\. Three paths come out, .+\.$/);
  await screenshots(page, 'gallery-lesson');
  await pick(page, '#example', 'heap-overflow');
  await shownEntry(page, 'copy_name');
  assert.match(await page.locator('#lesson').innerText(), /malloc'd block/);
  // A module of one's own has no lesson.
  await pasteModule(page, PASTED);
  await shownEntry(page, 'pasted_fn');
  await absent(page, '#lesson', 'an example\'s lesson over another module');
  assert.deepEqual(errors, []);
});

test('a dark theme follows the system setting: page, panes and editor', async () => {
  const { page, errors } = await visit(env, env.base, { colorScheme: 'dark' });
  await pick(page, '#example', 'sign');
  await shownEntry(page, 'get_sign');
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  // Light text on a dark ground, wherever one reads.
  const brightness = (color) => {
    const [r, g, b] = color.match(/\d+/g).map(Number);
    return (r * 299 + g * 587 + b * 114) / 1000;
  };
  const shown = { '#source .cm-editor': 'edit', '#wat': 'wat', '#c-source': 'c' };
  for (const selector of ['body', '#source .cm-editor', '#wat', '#c-source', '#node-details']) {
    if (shown[selector]) await showCode(page, shown[selector]);
    if (selector === '#node-details') await showTab(page, 'node');
    const [fg, bg] = await page.locator(selector).first().evaluate((e) => {
      const style = getComputedStyle(e);
      let ground = e;
      while (ground && getComputedStyle(ground).backgroundColor === 'rgba(0, 0, 0, 0)') ground = ground.parentElement;
      return [style.color, getComputedStyle(ground ?? document.body).backgroundColor];
    });
    assert.ok(brightness(bg) < 80 && brightness(fg) > 150, `${selector}: ${fg} on ${bg}`);
  }
  await screenshots(page, 'dark');
  assert.deepEqual(errors, []);
});

test('a row selects its leaf in the tree and a leaf its row, both ways', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'heap-overflow');
  await shownEntry(page, 'copy_name');
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")');
  // A row: its path's leaf is selected, its details shown (the click
  // brings the Node tab), and the row marked selected in the table.
  await showTab(page, 'paths');
  const row = page.locator('#paths tbody tr:not(.spacer)').nth(3);
  const input = await row.locator('td.input').innerText();
  await row.click();
  await page.locator('#tree .selected-ring').waitFor();
  assert.equal(await page.locator('#node-details .input').innerText(), input);
  await screenshots(page, 'row-to-node');
  await showTab(page, 'paths');
  assert.equal(await row.getAttribute('aria-selected'), 'true');
  assert.equal(await row.locator('td.input').innerText(), input);
  // A leaf: its details shown, and its row selected.
  const leaves = page.locator('#tree .node.leaf');
  for (let i = 0; i < await leaves.count(); i++) {
    await clickNode(leaves.nth(i));
    const shown = await page.locator('#node-details .input').innerText();
    await showTab(page, 'paths');
    assert.equal(await page.locator('#paths tr.selected td.input').innerText(), shown);
  }
  // An inner node selects no row.
  await clickNode(page.locator('#tree .node.inner-node').first());
  await showTab(page, 'paths');
  assert.equal(await page.locator('#paths tr.selected').count(), 0);
  assert.deepEqual(errors, []);
});

/// The step shown, and the newest taken when going back (else null).
async function stepShown(page) {
  const [, n, of] = /^step (\d+)(?: of (\d+), going back)?$/.exec(await page.locator('#step-count').innerText());
  return [Number(n), of === undefined ? null : Number(of)];
}

/// Waits for step `n` to be shown.
function stepIs(page, n) {
  return page.waitForFunction((n) => new RegExp(`^step ${n}\\b`).test(document.querySelector('#step-count')?.innerText ?? ''), n);
}

test('step mode: one branch or one instruction at a time, the state at each step, back and forward, then the rest at once', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'heap-overflow');
  await shownEntry(page, 'copy_name');
  await page.click('#step-start');
  await stepIs(page, 0);
  assert.match(await page.locator('#step-event').innerText(), /^copy_name is about to run/);
  assert.match(await page.locator('#progress').innerText(), /^step mode: 0 paths/);
  assert.match(await page.locator('#step-path-condition').innerText(), /true \(no branch taken yet\)/);
  assert.match(await page.locator('#step-next').innerText(), /^next: .+ at copy_name\+0x[0-9a-f]+ \(heap_overflow\.c:\d+\) — node #0, depth 0, no other state waits$/);
  // Nothing runs meanwhile: no run, no paths, no word of a silent engine.
  await page.waitForTimeout(2_000);
  await absent(page, '#busy');
  assert.equal((await pathRows(page)).length, 0);
  await showTab(page, 'step');
  // The next branch: the state forked past malloc; the one shown is on
  // one side, under its condition, with the block made.
  await page.click('#step-branch');
  await stepIs(page, 1);
  assert.match(await page.locator('#step-event').innerText(), /^node #0 forked at copy_name\+0x[0-9a-f]+ \(heap_overflow\.c:18\) into #1 and #2 \(\d+ instructions\)/);
  const next = await page.locator('#step-next').innerText();
  assert.match(next, /node #[12], depth 1, 1 other state waits$/);
  // The assumption, the block's size within its capacity, the branch.
  const conditions = await page.locator('#step-path-condition li').allInnerTexts();
  assert.equal(conditions.length, 3, conditions.join('; '));
  assert.equal(conditions[0], 'record[0] <u 5');
  assert.match(await page.locator('#step-memory').innerText(), /#0 heap block\s+0x[0-9a-f]+\s+zext24\(record\[0\]\) \(symbolic\)\s+100\s+live\s+copy_name\+0x[0-9a-f]+ \(heap_overflow\.c:14\)/);
  // The running frame's locals and its operand stack.
  const frame = page.locator('#step-frames .frame.running');
  assert.match(await frame.locator('h3').innerText(), /^copy_name \(running\)$/);
  assert.ok(await frame.locator('table.locals tbody tr').count() > 0);
  assert.match(await frame.locator('.operands').innerText(), /^operand stack: /);
  // The C line of the state is marked beside, and its node in the tree.
  const line = Number(/heap_overflow\.c:(\d+)\)/.exec(next)[1]);
  const source = (await readFile(join(examples, 'heap_overflow.c'), 'utf8')).split('\n');
  assert.ok((await page.locator('#c-source .line.marked').innerText()).includes(source[line - 1].trim()),
    `line ${line} marked`);
  const [, node] = /node #(\d+)/.exec(next);
  assert.equal(await page.locator('#tree-current').count(), 1);
  assert.match(await page.locator('#tree h2').innerText(), /Execution tree: 3 nodes so far/);
  // The arrows, with the pane focused: one branch more, then one instruction.
  await page.click('#step-event');
  await page.keyboard.press('ArrowRight');
  await stepIs(page, 2);
  await page.keyboard.press('Shift+ArrowRight');
  await stepIs(page, 3);
  assert.match(await page.locator('#step-event').innerText(), /\(1 instruction\)$/);
  // Back: step 1 again, its tree as it was; forward through the steps
  // taken, then new ones.
  await page.click('#step-back');
  await page.click('#step-back');
  await stepIs(page, 1);
  assert.deepEqual(await stepShown(page), [1, 3]);
  assert.match(await page.locator('#tree h2').innerText(), /: 3 nodes so far/);
  assert.match(await page.locator('#step-next').innerText(), new RegExp(`node #${node}, depth 1`));
  await page.keyboard.press('ArrowLeft');
  await stepIs(page, 0);
  for (const n of [1, 2, 3, 4]) {
    await page.click('#step-branch');
    await stepIs(page, n);
  }
  assert.deepEqual(await stepShown(page), [4, null]);
  await screenshots(page, 'step-mode', '#step');
  // Escape in the tree lets go of a selected node; the run goes on.
  await clickNode(page.locator('#tree .node.inner-node').first());
  assert.match(await page.locator('#node-details h3').innerText(), /^node 0/);
  await page.keyboard.press('Escape');
  assert.match(await page.locator('#node-details').innerText(), /^Click a node/);
  assert.match(await page.locator('#progress').innerText(), /^step mode: /);
  await showTab(page, 'step');
  assert.equal(await page.locator('#step-branch').isDisabled(), false);
  // The rest at once: the run ends with all its paths, the steps stay.
  await page.click('#step-resume');
  await page.waitForSelector('.results h2:has-text("completed")');
  assert.equal((await pathRows(page)).length, 9);
  await showTab(page, 'step');
  assert.equal(await page.locator('#step-branch').isDisabled(), true);
  assert.equal(await page.locator('#step-over').innerText(), 'Step mode was left: the run went on to its end (completed).');
  // The tree shows the whole run: no state of a step is marked in it.
  assert.equal(await page.locator('#tree-current').count(), 0);
  await page.click('#step-back');
  await stepIs(page, 3);
  assert.deepEqual(errors, []);
});

test('step mode: a step tells every fork and every path it made, the traps that end at their fork too', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'division');
  await shownEntry(page, 'divide');
  await page.click('#step-start');
  await stepIs(page, 0);
  await page.click('#step-branch');
  await stepIs(page, 1);
  // One step: the division by zero forks and traps, the other side forks
  // at INT_MIN / -1 and traps too; the tree has two forks and two leaves.
  assert.match(await page.locator('#step-event').innerText(), /^node #0 forked at divide\+0x[0-9a-f]+ \(divide\.c:2\) into #1 and #2 \(\d+ instructions\)/);
  const then = await page.locator('#step-then li').allInnerTexts();
  assert.equal(then.length, 3, then.join('\n'));
  assert.match(then[0], /^then path 0 ended at #1: trapped \(div_by_zero\) at divide\+0x[0-9a-f]+ \(divide\.c:2\)$/);
  assert.match(then[1], /^then node #2 forked at divide\+0x[0-9a-f]+ \(divide\.c:2\) into #3 and #4$/);
  assert.match(then[2], /^then path 1 ended at #3: trapped \(int_overflow\) at divide/);
  assert.match(await page.locator('#tree h2').innerText(), /Execution tree: 5 nodes so far/);
  await screenshots(page, 'step-mode-traps', '#step');
  await page.click('#step-branch');
  await stepIs(page, 2);
  assert.match(await page.locator('#step-event').innerText(), /^path 2 ended at #4: returned \[-?\d+\] \(1 instruction\)/);
  assert.equal(await page.locator('#step-then').count(), 0);
  assert.equal(await page.locator('#step-over').innerText(), 'The run is over: every path was explored.');
  assert.deepEqual(errors, []);
});

test('step mode: Escape ends a run waiting for its next step, with what it found', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'sign');
  await shownEntry(page, 'get_sign');
  await page.click('#step-start');
  await stepIs(page, 0);
  await page.click('#step-branch');
  await stepIs(page, 1);
  await page.click('#step-branch');
  await stepIs(page, 2);
  await page.keyboard.press('Escape');
  await page.waitForSelector('.results h2:has-text("cancelled")');
  assert.equal(await page.locator('#stop').isDisabled(), true);
  assert.equal(await page.locator('#step-branch').isDisabled(), true);
  assert.match(await page.locator('#step-over').innerText(), /^The run was stopped \(cancelled\)\. 3 states were not explored\.$/);
  // Back through its steps, then Step starts a new run in step mode.
  await page.click('#step-back');
  await stepIs(page, 1);
  await page.click('#step-start');
  await page.waitForFunction(() => document.querySelector('#step-count')?.innerText === 'step 0');
  assert.deepEqual(errors, []);
});

test('a rustc cdylib: uploaded, explored, its index out of bounds reported as Rust\'s panic with its message and place', async () => {
  const { page, errors } = await openAt();
  await uploadFile(page, join(data, 'rust', 'pick.wasm'));
  await shownEntry(page, 'pick');
  await run(page, { entry: 'pick', paths: 6 });
  await showTab(page, 'bugs');
  const bugs = page.locator('#bugs .bug');
  assert.equal(await bugs.count(), 1);
  assert.equal(await bugs.first().getAttribute('data-paths'), '3');
  assert.match(await bugs.first().innerText(),
    /panicked 'index out of bounds: the len is 4 but the index is -?\d+' at src\/lib\.rs:17:12/);
  assert.equal(await page.locator('#tree .node.panicked').count(), 3);
  assert.equal(await page.locator('#tree .node.returned').count(), 3);
  // A panicked leaf tells its message and the input that reaches it.
  await clickNode(page.locator('#tree .node.panicked').first());
  assert.match(await page.locator('#node-details .outcome').innerText(),
    /^panicked: 'index out of bounds: the len is 4 but the index is -?\d+' at src\/lib\.rs:17:12/);
  await showTab(page, 'bugs');
  await screenshots(page, 'rust-panic', '#bugs');
  assert.deepEqual(errors, []);
});

test('memspn from a share link under SMOpt: the merged-formula view shows the merged condition beside the disjunction with their sizes, and a click leads back to a leaf it came from', async () => {
  const { page, errors } = await openAt();
  await pick(page, '#example', 'memspn');
  await shownEntry(page, 'blank_run');
  // The gallery entry chooses the mode that shows its point.
  await openOptions(page);
  assert.equal(await page.inputValue('#merge'), 'smopt');
  assert.equal(await page.inputValue('#size-mode'), 'fork-lazy');
  await page.click('#validate-merge');
  assert.ok(await page.locator('#validate-merge').isChecked());
  await closeOptions(page);
  await run(page, { entry: 'blank_run', paths: 17 });
  await page.click('#share');
  const link = await page.locator('#share-link a').getAttribute('href');
  // The link opens the example merging as it did, and runs it.
  const { page: opened, errors: openErrors } = await openAt(link);
  await opened.setViewportSize({ width: 1280, height: 720 });
  await opened.waitForSelector('.results h2:has-text("blank_run: 17 paths (completed)")', { timeout: 30_000 });
  // A leaf whose state merged away says where it went.
  await clickNode(opened.locator('#tree .node.merged-away').first());
  const into = opened.locator('#merged-into');
  assert.match(await into.innerText(), /^Its state waited at the loop's exit and merged into node \d+\.$/);
  const leaf = await opened.locator('#node-details h3').innerText();
  await into.locator('button').click();
  const merge = opened.locator('#merge');
  await merge.waitFor();
  assert.match(await merge.locator('.merge-what').innerText(),
    /^\d+ states merged here, at an exit of the loop at blank_run\+0x[0-9a-f]+( \(memspn\.c:\d+\))? \(SMOpt: /);
  // Both formulas, the merged one over the forks, the other as the states had it.
  const merged = await merge.locator('code.merged-condition').innerText();
  const disjunction = await merge.locator('code.disjunction').innerText();
  assert.match(merged, /line\.len/);
  assert.match(disjunction, /line\.len/);
  assert.notEqual(merged, disjunction);
  // Their sizes, row by row: SMOpt's DAG and CNF are the smaller.
  const size = async (name) => (await merge.locator(`tr.size:has(td:text-is("${name}"))`).innerText()).split('\t').slice(1).map(Number);
  const [nodes, disjunctionNodes] = await size('DAG nodes');
  assert.ok(nodes > 0 && nodes < disjunctionNodes, `${nodes} against ${disjunctionNodes}`);
  const [clauses, disjunctionClauses] = await size('CNF clauses');
  assert.ok(clauses > 0 && clauses < disjunctionClauses, `${clauses} against ${disjunctionClauses}`);
  for (const name of ['or', 'ite', 'CNF variables']) {
    assert.equal((await size(name)).filter(Number.isInteger).length, 2, name);
  }
  assert.match(await merge.locator('.merge-values').innerText(), /^\d+ values? differed .*: \d+ DAG nodes with \d+ ites? in all\.$/);
  // The regular patterns of the states' words: each partition as
  // prefix (unit)^k suffix with its states' k, and each letter's condition.
  const patterns = merge.locator('.merge-patterns');
  const summary = await patterns.locator('.patterns-summary').innerText();
  const [, words, letters, count] = summary.match(/^Each state's word is a letter per branch it took in the loop, .*: (\d+) words over (\d+) letters, in (\d+) partitions?\.$/) ?? [];
  assert.ok(count !== undefined, summary);
  assert.ok(Number(words) > 1 && Number(letters) > 1, summary);
  const partitions = await patterns.locator('li.partition').allInnerTexts();
  assert.equal(partitions.length, Number(count));
  for (const partition of partitions) {
    assert.match(partition, /^([A-Z]+ )?\([A-Z]+\)\^k( [A-Z]+)?: \d+ states, k = \d+/);
  }
  assert.equal(await patterns.locator('table.letters tr').count(), Number(letters));
  // Each partition's formula pattern, or why it has none: the first has
  // one, its iterations reading line[x] = ' ' with their constants fitted.
  const withPattern = patterns.locator('li.partition:has(table.synthesis)');
  const withNone = patterns.locator('li.partition:has(p.fallback)');
  assert.equal(await withPattern.count() + await withNone.count(), Number(count));
  const synthesis = patterns.locator('li.partition').first().locator('table.synthesis');
  // Its rows: φ1, φ2(x), φ3(x), then the fits and the values.
  const repeated = await synthesis.locator('tr').nth(1).innerText();
  const [, x] = repeated.match(/^φ2\((k!\d+)\)\t/) ?? [];
  assert.ok(x !== undefined, repeated);
  assert.ok(repeated.includes(`line[${x}] == ' '`), repeated);
  const fits = await synthesis.locator('tr.fit').allInnerTexts();
  assert.ok(fits.some((f) => f === `φ2's constants\t2, 3, 4, 5, 6, 7 (32 bits) at ${x} = 1, 2, 3, 4, 5, 6: ${x} + 1`), fits.join(' | '));
  await patterns.scrollIntoViewIfNeeded();
  await opened.screenshot({ path: join(artifacts, 'merge-patterns-1280.png') });
  assert.match(await merge.locator('.merge-validated').innerText(), /^The solver proved this merge right/);
  await merge.locator('table.merge-formulas').scrollIntoViewIfNeeded();
  await opened.screenshot({ path: join(artifacts, 'merged-formula-1280.png'), fullPage: true });
  // The loop is a click away in the code panes.
  await merge.locator('button.loop-link').click();
  await showCode(opened, 'wat');
  // The loop's header: its first instruction, just past its `loop` (and
  // the blocks it opens first).
  const header = opened.locator('#wat .line.marked');
  assert.match(await header.innerText(), /^0x0*d4\s/);
  const opening = await header.locator('xpath=preceding-sibling::div[position() <= 3]').allInnerTexts();
  assert.ok(opening.some((line) => /\sloop\b/.test(line)), opening.join(' | '));
  // Each leaf it came from is a click away: the one first clicked among them.
  const from = merge.locator('.merged-from button');
  assert.ok(await from.count() > 1);
  const leafButton = from.filter({ hasText: new RegExp(`^${leaf.match(/^node (\d+)/)[0]}$`) });
  assert.equal(await leafButton.count(), 1, leaf);
  await leafButton.click();
  assert.equal(await opened.locator('#node-details h3').innerText(), leaf);
  await opened.locator('#merged-into').waitFor();
  // A phone's width: the view stays readable.
  await into.locator('button').click();
  await merge.waitFor();
  await opened.setViewportSize({ width: 390, height: 844 });
  await merge.scrollIntoViewIfNeeded();
  await opened.screenshot({ path: join(artifacts, 'merged-formula-390.png'), fullPage: true });
  await openOptions(opened);
  assert.equal(await opened.inputValue('#merge'), 'smopt');
  assert.ok(await opened.locator('#validate-merge').isChecked());
  assert.deepEqual(openErrors, []);
  assert.deepEqual(errors, []);
});

/// Runs memspn of `tests/data/heap/size/{name}.wat` under PAT (fork-lazy,
/// merges validated) to its `paths` paths, and opens its share link at
/// 1280x720: the first page's errors, the opened page and its errors.
async function sharedUnderPat(name, paths) {
  const { page, errors } = await openAt();
  const wat = await readFile(join(data, 'heap', 'size', `${name}.wat`), 'utf8');
  await pasteModule(page, wat);
  await openOptions(page);
  await pick(page, '#size-mode', 'fork-lazy');
  await pick(page, '#merge', 'pat');
  await page.click('#validate-merge');
  await closeOptions(page);
  await run(page, { entry: 'memspn', paths });
  await page.click('#share');
  const link = await page.locator('#share-link a').getAttribute('href');
  const { page: opened, errors: openErrors } = await openAt(link);
  await opened.setViewportSize({ width: 1280, height: 720 });
  await opened.waitForSelector(`.results h2:has-text("memspn: ${paths} paths (completed)")`, { timeout: 30_000 });
  return { errors, opened, openErrors };
}

test('memspn "ab" from a share link under PAT: the two ways to each next iteration merge incrementally at the loop head, and the exit states fall into the partitions of memspn "a"', async () => {
  // quantified_merging.md §5 and T9: over "ab" an iteration comes back
  // to the loop head with count + 1 two ways (s[c] = 'a', or s[c] != 'a'
  // then s[c] = 'b'); they merge there into one state under the
  // disjunction, and the exit's states form two regular partitions, each
  // merged over its own k.
  const { errors, opened, openErrors } = await sharedUnderPat('memspn_ab', 6);
  // By letter, a merged edge is one letter: the disjunction's shape.
  await opened.click('#tree-letters');
  const legend = await opened.locator('#letter-legend li').allInnerTexts();
  assert.ok(legend.some((l) => l.includes("s[_] == _ || s[_] != _ && s[_] == _")), legend.join(' | '));
  await screenshots(opened, 'pat-memspn-ab-letters', '#tree');
  await opened.click('#tree-letters');
  const incremental = new Set();
  const overK = new Map();
  let duplicated = 0;
  const leaves = opened.locator('#tree .node.merged-away');
  const count = await leaves.count();
  for (let i = 0; i < count; i += 1) {
    await clickNode(leaves.nth(i));
    const text = await opened.locator("#merged-into").innerText();
    const into = text.match(/node (\d+)\.$/)[1];
    if (incremental.has(into) || overK.has(into)) continue;
    await opened.locator('#merged-into button').click();
    const merge = opened.locator('#merge');
    await merge.waitFor();
    const what = await merge.locator('.merge-what').innerText();
    const condition = await merge.locator('code.merged-condition').innerText();
    const size = async (name) => (await merge.locator(`tr.size:has(td:text-is("${name}"))`).innerText()).split('\t').slice(1).map(Number);
    if (text.includes('incrementally')) {
      // Two states below the fork where their ways parted, under the
      // disjunction of the two ways.
      assert.match(what, /^2 states merged here incrementally, at memspn\+0x[0-9a-f]+ in the loop at memspn\+0x[0-9a-f]+, below node \d+ where their ways parted/);
      assert.match(condition, /^\(s\[(\d)\] == 'a' \|\| s\[\1\] != 'a' && s\[\1\] == 'b'\)$/);
      assert.deepEqual(await size('or'), [1, 1]);
      assert.match(await merge.locator('.merge-validated').innerText(), /^Right as made/);
      assert.equal(await merge.locator('.merged-from button.node-link').count(), 2);
      if (incremental.size === 0) await screenshots(opened, 'pat-memspn-ab-incremental', '#merge');
      incremental.add(into);
      continue;
    }
    assert.match(what, /^\d states merged here, at an exit of the loop at memspn\+0x[0-9a-f]+ \(PAT: /);
    if (!what.includes('one regular pattern')) continue;
    // Over its k: an iteration's disjunction once, under the forall,
    // where the states' own disjunction says it at each iteration.
    const [, k] = condition.match(/(k!\d+) <=u 2/) ?? [];
    assert.ok(k !== undefined, condition);
    assert.ok(condition.includes(`∀i ∈ [1, ${k}]: ((s[i - 1] == 'a' || s[i - 1] != 'a' && s[i - 1] == 'b')`), condition);
    const [ors, disjunctionOrs] = await size('or');
    assert.ok(ors < disjunctionOrs, `${ors} against ${disjunctionOrs}`);
    const partition = merge.locator('li.partition');
    assert.equal(await partition.count(), 1);
    assert.match(await partition.locator('.chips').innerText(), /^[A-Z]+ \([A-Z]+\)\^k [A-Z]+$/);
    const members = (await partition.innerText()).match(/: (\d) states, k = (\d) to 2/);
    assert.ok(members, await partition.innerText());
    assert.equal(await merge.locator('table.k-leaves tbody tr').count(), Number(members[1]));
    const repeated = await partition.locator('table.synthesis tr').nth(1).innerText();
    assert.ok(repeated.startsWith(`φ2(${k})\t`) && repeated.includes(`s[${k} - 1] == 'a'`), repeated);
    assert.match(await merge.locator('.merge-validated').innerText(), /^The solver proved this merge right/);
    // The models' array cells, each marked by where its value came from.
    const cells = merge.locator('table.quantified-queries .cell');
    assert.ok(await cells.count() >= 1);
    duplicated += await merge.locator('table.quantified-queries .cell.duplicated').count();
    assert.match(await merge.locator('.cell-legend').innerText(), /^An array's cells: the solver's, copied from the first instance's cell \(duplicate\)/);
    overK.set(into, members[2]);
    await screenshots(opened, `pat-memspn-ab-${overK.size}`, '#merge .over-k');
  }
  assert.ok(incremental.size >= 3, `${incremental.size} incremental merges`);
  // The two partitions of T3: k from 0 (count = k + 1) and from 1.
  assert.deepEqual([...overK.values()].sort(), ['0', '1']);
  // A query over k was answered by duplication, its copied cell marked.
  assert.ok(duplicated >= 1, `${duplicated} duplicated cells`);
  assert.deepEqual(openErrors, []);
  assert.deepEqual(errors, []);
});

test('memspn "a" from a share link under PAT: each regular partition merges over its own k, a forall in its condition, and the view shows the partition, the states by k and the quantified queries', async () => {
  // quantified_merging.md §2.2 and T5, T6: memspn with chars "a" over a
  // buffer of symbolic size at most 3; its states fall into two regular
  // partitions, each merged into one state over a new k.
  const { errors, opened, openErrors } = await sharedUnderPat('memspn_a', 7);
  // The tree by letter: each branch of a merged state's word in its
  // letter's colour, a legend of their shapes, each merged leaf labelled
  // by its word.
  await opened.click('#tree-letters');
  const legend = await opened.locator('#letter-legend li').allInnerTexts();
  assert.ok(legend.includes('s[_] == _') && legend.includes('s[_] != _'), legend.join(' | '));
  assert.ok(await opened.locator('#tree g.node[class*="letter-"]').count() >= 6);
  const labels = await opened.locator('#tree text.label').allTextContents();
  assert.ok(labels.filter((l) => /^[A-Z]{3,}$/.test(l)).length >= 3, labels.join(' | '));
  await screenshots(opened, 'pat-memspn-a-letters', '#tree');
  await opened.click('#tree-letters');
  assert.equal(await opened.locator('#letter-legend').count(), 0);
  // The two merged nodes, each reached from a leaf it came from.
  const merged = new Map();
  const leaves = opened.locator('#tree .node.merged-away');
  assert.equal(await leaves.count(), 6);
  for (let i = 0; i < 6 && merged.size < 2; i += 1) {
    await clickNode(leaves.nth(i));
    const into = (await opened.locator('#merged-into').innerText()).match(/node (\d+)\.$/)[1];
    if (merged.has(into)) continue;
    await opened.locator('#merged-into button').click();
    const merge = opened.locator('#merge');
    await merge.waitFor();
    assert.match(await merge.locator('.merge-what').innerText(), /^3 states merged here, at an exit of the loop at memspn\+0x[0-9a-f]+ \(PAT: .*The states' branches follow one regular pattern/);
    // The quantified condition beside the disjunction, and their sizes:
    // no disjunction in the merged one, two in the states'.
    const condition = await merge.locator('code.merged-condition').innerText();
    const [, k] = condition.match(/(k!\d+) <=u 2/) ?? [];
    assert.ok(k !== undefined, condition);
    assert.ok(condition.includes(`∀i ∈ [1, ${k}]: (s[i - 1] == 'a'`), condition);
    assert.match(await merge.locator('code.disjunction').innerText(), / \|\| /);
    const size = async (name) => (await merge.locator(`tr.size:has(td:text-is("${name}"))`).innerText()).split('\t').slice(1);
    assert.deepEqual(await size('or'), ['0', '2']);
    assert.equal((await size('DAG nodes')).filter((n) => Number(n) > 0).length, 2);
    // The one partition, as chips: prefix, (unit)^k, suffix.
    const partition = merge.locator('li.partition');
    assert.equal(await partition.count(), 1);
    assert.match(await partition.locator('.chips').innerText(), /^[A-Z]+ \([A-Z]+\)\^k [A-Z]+$/);
    const unit = (await partition.locator('.chip.unit .letter').allInnerTexts()).length;
    assert.equal(unit, 3);
    assert.match(await partition.innerText(), /: 3 states, k = 0 to 2/);
    // Its synthesis: φ2 reads s[k - 1] = 'a', a fit of its constants.
    const repeated = await partition.locator('table.synthesis tr').nth(1).innerText();
    assert.ok(repeated.startsWith(`φ2(${k})\t`) && repeated.includes(`s[${k} - 1] == 'a'`), repeated);
    assert.ok((await partition.locator('tr.fit').allInnerTexts()).some((f) => f.endsWith(`: ${k} - 1`)));
    // The states by k: each k's leaf and word, the unit's repetitions
    // shaded, k of them.
    const rows = merge.locator('table.k-leaves tbody tr');
    assert.equal(await rows.count(), 3);
    for (let j = 0; j < 3; j += 1) {
      const row = rows.nth(j);
      assert.equal(await row.locator('td').first().innerText(), String(j));
      assert.match(await row.locator('button.node-link').innerText(), /^node \d+$/);
      assert.equal(await row.locator('.letter.repetition-0, .letter.repetition-1').count(), 3 * j);
    }
    // Each letter's shape, its constants as _.
    const shapes = await merge.locator('table.letters code.shape').allInnerTexts();
    assert.ok(shapes.includes('s[_] == _'), shapes.join(' | '));
    // The queries over k: the merged path's model, and validation's.
    const queries = merge.locator('table.quantified-queries tbody tr');
    assert.ok(await queries.count() >= 1);
    const answered = await queries.allInnerTexts();
    assert.ok(answered.some((q) => /^sat\t(strip|duplicate|repair|fallback)\t\d+\.\d ms\t/.test(q) && q.includes(`${k} = `)), answered.join(' | '));
    assert.match(await merge.locator('.merge-validated').innerText(), /^The solver proved this merge right/);
    merged.set(into, k);
    await screenshots(opened, `pat-memspn-a-${merged.size}`, '#merge .over-k');
  }
  assert.equal(merged.size, 2);
  assert.notEqual(...merged.values());
  await openOptions(opened);
  assert.equal(await opened.inputValue('#merge'), 'pat');
  assert.deepEqual(openErrors, []);
  assert.deepEqual(errors, []);
});

test('step mode under PAT: the merges at a loop\'s exit come a step each, the next one named before it is made', async () => {
  // memspn over "a": the exit's states fall into two regular partitions
  // (quantified_merging.md T3). The step of the last state to leave the
  // loop makes the first merge and names the second as what comes next;
  // the next step makes it and runs nothing.
  const { page, errors } = await openAt();
  const wat = await readFile(join(data, 'heap', 'size', 'memspn_a.wat'), 'utf8');
  await pasteModule(page, wat);
  await shownEntry(page, 'memspn');
  await openOptions(page);
  await pick(page, '#size-mode', 'fork-lazy');
  await pick(page, '#merge', 'pat');
  await closeOptions(page);
  await page.click('#step-start');
  await stepIs(page, 0);
  await page.click('#step-event');
  let n = 0;
  while (!/^next: the merge of/.test(await page.locator('#step-next').innerText())) {
    assert.ok(n < 40, 'no merge came next within 40 steps');
    await page.keyboard.press('ArrowRight');
    n += 1;
    await stepIs(page, n);
  }
  assert.match(await page.locator('#step-then').innerText(), /^then the states of #\d+(, #\d+)* and #\d+ merged into #\d+$/m);
  const next = await page.locator('#step-next').innerText();
  assert.match(next, /^next: the merge of the states of #\d+(, #\d+)+ at the exit of the loop at memspn\+0x[0-9a-f]+, then 1 more state at the loop's exit$/);
  const named = next.split(' at the exit')[0].match(/#\d+/g);
  // No state is shown: the merge comes before any state runs. The tree
  // marks the leaves that merge next.
  assert.equal(await page.locator('#step-frames').count(), 0);
  assert.equal(await page.locator('#tree-current').count(), 0);
  assert.equal(await page.locator('#tree .merging-next').count(), named.length);
  await screenshots(page, 'step-pat-next-merge-tree', '#tree');
  await screenshots(page, 'step-pat-next-merge', '#step');
  await page.keyboard.press('ArrowRight');
  await stepIs(page, n + 1);
  const made = await page.locator('#step-event').innerText();
  assert.match(made, /^the states of #\d+(, #\d+)* and #\d+ merged into #\d+$/);
  assert.deepEqual(made.split(' merged into')[0].match(/#\d+/g), named);
  assert.equal(await page.locator('#step-then').count(), 0);
  // A state runs next again.
  assert.match(await page.locator('#step-next').innerText(), /— node #\d+, depth \d+, /);
  assert.equal(await page.locator('#tree .merging-next').count(), 0);
  assert.equal(await page.locator('#tree-current').count(), 1);
  assert.deepEqual(errors, []);
});
