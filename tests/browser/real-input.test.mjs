// The journeys give the page real input, as a person does: keys, pastes,
// clicks that hit-test. This fails if a journey, or the harness they share,
// sets by script what a person types, picks or clicks. Files are the one
// exception: the harness's upload and drop hand the page a file as the
// system's file picker or a drag from the desktop does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

/// What scripts a person's input, and what a person does instead.
const SCRIPTED = [
  [/\.fill\(/, 'types the value in (setField, typeModule, pasteModule)'],
  [/selectOption/, 'picks the option with the keyboard (pick)'],
  [/dispatchEvent/, 'clicks where the element is drawn (clickNode, locator.click)'],
  [/\.blur\(/, 'leaves with Tab or a click elsewhere (leaveEditor)'],
  [/\.focus\(/, 'gives the focus with a click (focusTree)'],
  [/location\.hash\s*=/, 'opens the link with page.goto'],
  [/\.(value|checked|selectedIndex)\s*=[^=]/, 'changes the field with keys or clicks'],
];

/// The harness's file drop: a DataTransfer of a file, as the desktop gives it.
const FILE_DROP = /dispatchEvent\('#source', '(dragover|drop)', \{ dataTransfer: transfer \}\)/;

test('no journey sets by script what a person types, picks or clicks', async () => {
  const files = (await readdir(here)).filter((f) => f.endsWith('.test.mjs') || f === 'harness.mjs');
  assert.ok(files.filter((f) => f !== basename(fileURLToPath(import.meta.url))).length >= 3, files.join(', '));
  const found = [];
  for (const file of files) {
    if (file === basename(fileURLToPath(import.meta.url))) continue;
    const lines = (await readFile(join(here, file), 'utf8')).split('\n');
    lines.forEach((line, i) => {
      if (file === 'harness.mjs' && FILE_DROP.test(line)) return;
      for (const [pattern, instead] of SCRIPTED) {
        if (pattern.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}\n  a person ${instead}`);
      }
    });
  }
  assert.deepEqual(found, []);
});
