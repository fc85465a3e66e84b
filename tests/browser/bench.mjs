// Benchmark: the engine in the browser (the worker's wasm, built for size,
// exploring in 50 ms steps) against the native `symplay explore` (release
// build) on the same modules and options, measured in the same run. Prints
// per workload the median exploration time (the report's
// `stats.timing.total_ms`) natively, in a fresh page (cold: the worker's
// wasm compiles as it first runs) and in the same page again (warm), and
// the ratio warm / native; both must find the same paths. Then the page's
// own cost of a big share link: the main thread's time from opening a
// link of 10 KiB that carries 1 MB of WAT text to the run's results,
// against the same for a link of a one-line module. The goal: the big
// link costs the page at most 6x the small one (2 to 3.5x when written,
// on a busy machine). A missed goal or check fails the bench (exit code 1).
//
//   trunk build --offline && cargo build --release -p symplay-cli
//   node tests/browser/bench.mjs
//
// SYMPLAY_BENCH_RUNS sets the runs (default 5); SYMPLAY_BENCH_SHORT=1 is
// the short form CI runs (two C examples, 3 runs); the native CLI is
// `$CARGO_TARGET_DIR/release/symplay` (default `target/`);
// SYMPLAY_BENCH_UNREACHABLE=1 sets the goal out of reach, to see it fail.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, megabyteModule, serveDist, shareLink } from './harness.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const symplay = join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'release', 'symplay');
const examples = join(root, 'static', 'examples', 'c');

/// `name` is 1 (true) or unset (false); anything else stops the bench.
function flag(name) {
  const value = process.env[name];
  if (value !== undefined && value !== '1') {
    console.error(`${name}=${value}: only ${name}=1 is understood`);
    process.exit(1);
  }
  return value === '1';
}
const short = flag('SYMPLAY_BENCH_SHORT');
const unreachable = flag('SYMPLAY_BENCH_UNREACHABLE');
const runs = Number(process.env.SYMPLAY_BENCH_RUNS ?? (short ? 3 : 5));
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`SYMPLAY_BENCH_RUNS=${process.env.SYMPLAY_BENCH_RUNS} is not a positive number`);
  process.exit(1);
}
/// Goal: the big link's main-thread time within this factor of the small one's.
const LINK_GOAL_RATIO = 6;

/// One independent branch per bit of the argument: 2^12 paths.
const BITS = `(module (func (export "bits") (param i32) (result i32) (local i32)
  ${Array.from({ length: 12 }, (_, k) =>
    `(if (i32.and (local.get 0) (i32.const ${1 << k})) (then (local.set 1 (i32.add (local.get 1) (i32.const 1)))))`).join('\n  ')}
  (local.get 1)))`;

const scratch = await mkdtemp(join(tmpdir(), 'symplay-bench-'));
const bitsFile = join(scratch, 'bits.wat');
await writeFile(bitsFile, BITS);
const workloads = [
  { name: 'bits: 4,096 paths', file: bitsFile, entry: 'bits' },
  { name: 'check_packet: checksum', file: join(examples, 'checksum.wasm'), entry: 'check_packet' },
  { name: 'check_password', file: join(examples, 'password.wasm'), entry: 'check_password' },
  { name: 'string_length', file: join(examples, 'string_scan.wasm'), entry: 'string_length' },
  { name: 'parse_int', file: join(examples, 'parse_int.wasm'), entry: 'parse_int' },
].slice(short ? 2 : 0, short ? 4 : undefined);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/// The native run: the report's total time and path count.
async function native(w) {
  const out = join(scratch, 'report.json');
  // --exit-zero: a workload with a bug (13) is still a run that succeeded.
  execFileSync(symplay, ['explore', w.file, '--entry', w.entry, '--exit-zero', '--json', out], { stdio: 'ignore' });
  const report = JSON.parse(await readFile(out, 'utf8'));
  return { ms: report.stats.timing.total_ms, paths: report.paths.length };
}

/// Runs the page's loaded module once more: its total time and paths.
async function pageRun(page) {
  await page.click('#run');
  await page.waitForSelector('.results h2:has-text("completed")', { timeout: 300_000 });
  // The run's figures are under the table of paths, in its tab.
  await page.click('#tab-paths');
  const stats = await page.locator('#pane-paths .stats').innerText();
  // The heading counts every path; the table draws only the first 2,000.
  const heading = await page.locator('.results h2').innerText();
  const paths = Number(/: (\d+) paths? \(/.exec(heading)?.[1]);
  const ms = Number(/total ([\d.]+) ms/.exec(stats)?.[1]);
  if (!Number.isFinite(ms)) throw new Error(`no total time in "${stats}"`);
  // The next run's results must not be mistaken for these.
  await page.evaluate(() => document.querySelector('.results')?.remove());
  return { ms, paths };
}

/// The same run in a fresh page (cold), then again in that page (warm).
async function browserRuns(browser, base, w) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(base);
  await page.waitForSelector('#entry:enabled option', { state: 'attached' });
  await page.setInputFiles('#upload', w.file);
  await page.waitForSelector(`#entry option[value="${w.entry}"]`, { state: 'attached' });
  await page.selectOption('#entry', w.entry);
  const cold = await pageRun(page);
  const warm = await pageRun(page);
  await page.context().close();
  return { cold, warm };
}


/// The share link of a module of `wat` text at the page `base`.
function linkOf(base, wat) {
  const json = { version: 1, wat, entry: 'f', options: { search: 'dfs', seed: 0 } };
  return shareLink(base, json);
}

/// The page's main-thread time (every task of it; the engine works in
/// another thread) from opening `link` in a fresh page to the run's results.
async function mainThreadMs(browser, link) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const devtools = await context.newCDPSession(page);
  await devtools.send('Performance.enable');
  await page.goto(link);
  await page.waitForSelector('.results h2:has-text("completed")', { timeout: 60_000 });
  const heading = await page.locator('.results h2').innerText();
  if (heading !== 'f: 1 path (completed)') throw new Error(`the link's run: "${heading}"`);
  const { metrics } = await devtools.send('Performance.getMetrics');
  await context.close();
  return metrics.find((m) => m.name === 'TaskDuration').value * 1000;
}

/// Prints a goal with its measure; whether it is met.
function goal(what, measured, atMost, unit) {
  const met = !unreachable && measured <= atMost;
  const reach = unreachable ? ' (set out of reach by SYMPLAY_BENCH_UNREACHABLE=1)' : '';
  console.log(`goal: ${what}, at most ${atMost}${unit}${reach}: ${measured.toFixed(2)}${unit}, ${met ? 'met' : 'NOT met'}`);
  return met;
}

const { server, base } = await serveDist();
const browser = await launchChromium();
try {
  console.log(`median of ${runs} runs each; time is the report's total_ms`);
  const columns = ['paths', 'native ms', 'cold ms', 'warm ms', 'warm/native'];
  console.log('workload'.padEnd(24), ...columns.map((c) => c.padStart(12)));
  const ratios = [];
  for (const w of workloads) {
    const n = [], cold = [], warm = [];
    let paths;
    for (let i = 0; i < runs; i++) {
      const nr = await native(w);
      const br = await browserRuns(browser, base, w);
      for (const r of [br.cold, br.warm]) {
        if (r.paths !== nr.paths) throw new Error(`${w.name}: ${nr.paths} paths natively, ${r.paths} in the browser`);
      }
      paths = nr.paths;
      n.push(nr.ms);
      cold.push(br.cold.ms);
      warm.push(br.warm.ms);
    }
    const ratio = median(warm) / median(n);
    ratios.push(ratio);
    const cells = [String(paths), ...[n, cold, warm].map((xs) => median(xs).toFixed(1)), `${ratio.toFixed(2)}x`];
    console.log(w.name.padEnd(24), ...cells.map((c) => c.padStart(12)));
  }
  const geomean = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
  console.log(`geometric mean warm/native: ${geomean.toFixed(2)}x`);

  const big = linkOf(base, megabyteModule());
  const small = linkOf(base, '(module (func (export "f") (param $x i32) (result i32) (i32.add (local.get $x) (i32.const 1))))');
  const bigMs = [], smallMs = [];
  for (let i = 0; i < runs; i++) {
    smallMs.push(await mainThreadMs(browser, small));
    bigMs.push(await mainThreadMs(browser, big));
  }
  const linkRatio = median(bigMs) / median(smallMs);
  console.log(`share links, main-thread time to the run's results: ${((big.length - base.length) / 1024).toFixed(1)} KiB link of 1 MB of text ${median(bigMs).toFixed(0)} ms, one-line module ${median(smallMs).toFixed(0)} ms: ${linkRatio.toFixed(2)}x`);
  if (!goal('main-thread time of the big link / the small one', linkRatio, LINK_GOAL_RATIO, 'x')) {
    console.error('benchmark failed: a goal or a check was not met (see above)');
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  server.close();
  await rm(scratch, { recursive: true, force: true });
}
