// Resource limits and faults in the worker, on the shipped build. Large files
// are made in the page as a File of many references to one 1 MiB Blob, so a file of gigabytes
// costs the test a megabyte. A format read whole (CSV, a JSON array) over the page's cap gets a
// clear message; a line over 64 MiB is skipped with a warning, as natively; JSON Lines of any size are read and Cancel stops
// them; a second drop during a score replaces it with nothing arriving later; a panic in the
// worker (its documented debug hook) fails the run under way, and the page goes on with a new
// worker, malformed messages included.
import { after, before, test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { assert, clickSample, cli, drop, open, OUT, SAMPLES, settled, setup, status } from './harness.mjs';
import { checkShown } from './check.mjs';

const CHOICE = join(SAMPLES, 'choice.jsonl');
const BINARY = join(SAMPLES, 'binary.jsonl');
const MiB = 1024 * 1024;

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

/** Drops a File of `head` then `count` copies of a 1 MiB block of `line`s (with `sep` after each). */
async function dropSparse(page, { name, head, line, count, tail = '' }) {
  return page.evaluate(({ name, head, line, count, tail, MiB }) => {
    const block = new Blob([line.repeat(Math.floor(MiB / line.length))]);
    const parts = [head];
    for (let i = 0; i < count; i++) parts.push(block);
    parts.push(tail);
    const file = new File(parts, name);
    const dt = new DataTransfer();
    dt.items.add(file);
    const zone = document.querySelector('[data-testid=drop-zone]');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    }
    return file.size;
  }, { name, head, line, count, tail, MiB });
}

const ITEM = '{"id": "x", "options": ["A", "B"], "gold": "A", "probs": {"A": 0.6, "B": 0.4}}\n';

/** Drops a 6 GB JSON Lines file and waits until the worker is reading it. */
async function dropHuge(page, name = 'huge.jsonl') {
  const size = await dropSparse(page, { name, head: '', line: ITEM, count: 6000 });
  assert.ok(size > 6e9, `a ${size} byte file`);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=progress] progress')?.value) > 0);
  return size;
}

const tabs = (page) => page.$$eval('.tab-name', (t) => t.map((x) => x.textContent));

test('a file read whole over the cap gets a clear message, not a crash', async () => {
  const t = await open(env);
  const { page } = t;
  // CSV is read whole: a 600 MiB table is refused before it is read, with the reason and the way out.
  const csvSize = await dropSparse(page, { name: 'big.csv', head: 'id,gold,p_A,p_B\n', line: 'q,A,0.6,0.4\n', count: 600 });
  assert.ok(await settled(page) === false, 'no report');
  const message = await page.textContent('[data-testid=failed]');
  assert.match(message, new RegExp(`big\\.csv is ${(csvSize / 1e9).toFixed(1)} GB: a csv file is read whole, and the page reads at most 512 MB`));
  assert.match(message, /JSON Lines files have no limit/);
  assert.match(message, /scorelens score big\.csv/);
  // So is one JSON array of items (the canonical format's other layout).
  await dropSparse(page, { name: 'big.json', head: '[', line: ITEM.replace('\n', ',\n'), count: 600, tail: ITEM + ']' });
  await page.waitForFunction(() => document.querySelector('[data-testid=failed]')?.textContent.includes('big.json is'));
  assert.match(await page.textContent('[data-testid=failed]'), /a scorelens file is read whole/);
  // The page goes on: a sample scores.
  await clickSample(page, 'choice.jsonl');
  // The refused file's panel may still be shown for a moment: wait for the sample's report itself.
  await page.waitForSelector('[data-testid=report]', { timeout: 60000 });
  assert.ok(await settled(page));
  await checkShown(page, cli([CHOICE]).report);
  await t.done();
});

test('a line over 64 MiB is skipped with a warning that names its line, and the next is scored', async () => {
  const t = await open(env);
  const { page } = t;
  // Two items, then a line of 70 MiB with no newline until its end, then one more item.
  const two = ITEM + ITEM.replace('"x"', '"y"');
  await dropSparse(page, { name: 'long.jsonl', head: two, line: 'a'.repeat(1024), count: 70, tail: '\n' + ITEM.replace('"x"', '"z"') });
  assert.ok(await settled(page, 120000), 'a report');
  const warnings = await page.$$eval('[data-testid=warnings] li', (li) => li.map((x) => x.textContent));
  assert.deepEqual(warnings, ['long.jsonl:3 line 3 is longer than 64 MiB; skipped (scorelens reads lines of up to that length, natively and in the page, and holds no more; split the record, or shorten its longest field)']);
  await page.waitForFunction(() => document.querySelector('[data-testid=explorer-total]')?.dataset.value === '3');
  await t.done();
});

test('JSON Lines have no size cap: a 6 GB file is read past the 512 MB whole-file cap, then Cancel stops it', async () => {
  const t = await open(env);
  const { page } = t;
  await dropHuge(page);
  assert.match(await page.textContent('[data-testid=progress] p'), /Scoring huge\.jsonl: .* of 6\.\d GB/);
  // Read on beyond what a whole-file format may weigh: the streamed reader has no such cap. (The
  // rest, 5.4 GB more of the same line, is not read: it would take a minute and add nothing.)
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=progress] progress')?.value) > 600e6, null, { timeout: 120000 });
  assert.equal(await page.$('[data-testid=failed]'), null, 'not refused');
  await page.click('[data-testid=cancel]');
  await page.waitForSelector('[data-testid=cancelled]');
  await t.done();
});

test('a second drop during a score closes the first run: one tab with the CLI figures, and nothing of the first run after the worker ends it', async () => {
  const ref = cli([CHOICE]).report;
  const t = await open(env);
  const { page } = t;
  await dropHuge(page);
  assert.deepEqual(await tabs(page), ['huge.jsonl']);
  await drop(page, [CHOICE]);
  assert.ok(await settled(page));
  assert.deepEqual(await tabs(page), [ref.model ?? 'choice.jsonl'], 'the first run is gone: only the second is shown');
  await checkShown(page, ref);
  // Nothing of the first run comes back later: once the worker says its reading of the closed run
  // has ended (the page is `done`, not `reading`), no message about it can follow. No tab, no
  // progress, the same report.
  await status(page, 'done');
  assert.deepEqual(await tabs(page), [ref.model ?? 'choice.jsonl']);
  assert.equal(await page.$('[data-testid=progress]'), null);
  await checkShown(page, ref);
  await t.done();
});

test('a panic in the worker fails the run under way; the page goes on with a new worker', async () => {
  const refChoice = cli([CHOICE]).report;
  const refBinary = cli([BINARY]).report;
  const t = await open(env);
  const { page, context } = t;
  // Keep a handle on the page's workers, to post to them as the page does.
  await context.addInitScript(() => {
    window.__workers = [];
    const W = window.Worker;
    window.Worker = class extends W {
      constructor(...args) { super(...args); window.__workers.push(this); }
    };
  });
  await page.reload();
  await page.waitForSelector('button.sample');
  // A first run is scored; the second is being read when the worker panics.
  await drop(page, [CHOICE]);
  assert.ok(await settled(page));
  await dropHuge(page);
  assert.equal(await page.evaluate(() => window.__workers.length), 1);
  await page.evaluate(() => window.__workers[0].postMessage('scorelens:debug-panic'));
  await page.waitForSelector('[data-testid=failed]');
  assert.match(await page.textContent('[data-testid=failed]'), /The scorer stopped while reading this \([\s\S]*debug hook[\s\S]*\)\. It was restarted/);
  // A new worker took over and read the scored run again: its report and its item list work.
  await page.waitForFunction(() => window.__workers.length === 2);
  await page.locator('.tab-name').first().click();
  await page.waitForFunction((n) => document.querySelector('[data-testid=explorer-total]')?.dataset.value === String(n), refChoice.items);
  await checkShown(page, refChoice);
  // Malformed messages are logged by the worker, not fatal.
  await page.evaluate(() => {
    const w = window.__workers[1];
    for (const m of [42, 'nonsense', { Score: { run: 'x' } }, { Items: { run: 1, seq: 1, filter: 5, offset: -1, limit: 'all' } }, { Nope: {} }]) w.postMessage(m);
  });
  // The next drop is scored normally by the new worker.
  await drop(page, [BINARY]);
  await page.waitForFunction(() => document.querySelectorAll('.tab-name').length === 3);
  assert.ok(await settled(page));
  await checkShown(page, refBinary);
  assert.equal(await page.evaluate(() => window.__workers.length), 2, 'no further restart');
  // The other way a worker dies: an exception that escapes it (an out-of-memory abort may not get
  // to post Panicked) reaches the page as the Worker's error event; same outcome.
  await dropHuge(page, 'huge-2.jsonl');
  await page.evaluate(() => window.__workers[1].dispatchEvent(new ErrorEvent('error', { message: 'RuntimeError: unreachable', cancelable: true })));
  await page.waitForSelector('[data-testid=failed]');
  assert.match(await page.textContent('[data-testid=failed]'), /The scorer stopped while reading this \(RuntimeError: unreachable\)/);
  await page.waitForFunction(() => window.__workers.length === 3);
  await clickSample(page, 'choice.jsonl');
  await page.waitForFunction(() => document.querySelectorAll('.tab-name').length === 5);
  assert.ok(await settled(page));
  await checkShown(page, refChoice);
  // The errors this test provokes, each as often as it provokes it; any other fails the test.
  const provoked = [
    // The debug hook's panic, logged by the worker's panic hook.
    [/^console: scorelens worker: panicked at [\s\S]*debug hook: scorelens:debug-panic$/, 1],
    // The page's log of the two worker deaths: the panic, and the error event the test fired.
    [/^console: scorelens: the scoring worker stopped: panicked at [\s\S]*debug hook: scorelens:debug-panic$/, 1],
    [/^console: scorelens: the scoring worker stopped: RuntimeError: unreachable$/, 1],
    // The five malformed messages, each logged by the worker as unreadable.
    [/^console: scorelens worker: unreadable message: /, 5],
  ];
  const counts = provoked.map(([re]) => t.errors.filter((e) => re.test(e)).length);
  assert.deepEqual(counts, provoked.map(([, n]) => n), `the provoked errors, each as often as provoked: ${t.errors.join('\n')}`);
  const other = t.errors.filter((e) => !provoked.some(([re]) => re.test(e)));
  t.errors.length = 0;
  t.errors.push(...other);
  await t.done();
});

test('a gzipped file read whole is held to the cap by the bytes it decodes to', async () => {
  // One JSON array of items, 600 MiB once decoded, in a file of about 2 MB: gzip members one
  // after the other are one stream, so one compressed MiB of items is repeated.
  const block = gzipSync(ITEM.replace('\n', ',\n').repeat(Math.floor(MiB / ITEM.length)));
  const parts = [gzipSync('['), ...Array(600).fill(block), gzipSync(ITEM + ']')];
  const path = join(OUT, 'big.json.gz');
  writeFileSync(path, Buffer.concat(parts));
  const t = await open(env);
  const { page } = t;
  await drop(page, [path]);
  assert.ok(await settled(page, 120000) === false, 'no report');
  const message = await page.textContent('[data-testid=failed]');
  assert.ok(message.includes('big.json.gz holds more than 512 MB once decompressed: a scorelens file is read whole, '
    + 'and the page reads at most 512 MB of such a file (a browser tab cannot hold more). JSON Lines files have no '
    + 'limit. The command line reads any size: scorelens score big.json.gz'), message);
  await t.done();
});
