// The worker's guess that a run is too large to resample: a JSON Lines file whose first
// lines promise more than twice the 200,000 items the browser resamples keeps no bootstrap sample
// while it is read. When the guess is wrong (here: a head of blank lines, then few items), the
// worker reads the file a second time for the sample, and the intervals are still the CLI's
// `--json --bootstrap 2000 --seed 2024`, byte for byte; when it is right, the run says it has too
// many items, as a run that passed the cap does. The worker's `Blob.stream()` calls are counted
// to tell one read from two.
import { after, before, test } from 'node:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, cli, drop, open, OUT, SAMPLES, settled, setup } from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => {
  await env.close();
});

const BOOT = ['--bootstrap', '2000', '--seed', '2024'];
const CHOICE = join(SAMPLES, 'choice.jsonl');

/** The first line, then 70,000 blank lines (the whole 64 KiB head: about one byte a line), then the rest. */
function blankHead(lines) {
  const [first, ...rest] = lines;
  return [first, '\n'.repeat(70000), ...rest].join('\n') + '\n';
}

/** `n` choice items with probabilities in 8 groups, reproducibly. */
function choiceItems(n) {
  let x = 777;
  const rand = () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648; };
  const lines = [];
  for (let i = 0; i < n; i++) {
    const p = 0.25 + 0.7 * rand();
    const gold = 'ABCD'[Math.floor(rand() * 4)];
    const top = rand() < p ? gold : 'ABCD'[Math.floor(rand() * 4)];
    const probs = {};
    for (const o of 'ABCD') probs[o] = Number((o === top ? p : (1 - p) / 3).toFixed(4));
    lines.push(JSON.stringify({ id: `r${i}`, type: 'choice', group: `g${i % 8}`, options: ['A', 'B', 'C', 'D'], gold, probs }));
  }
  return lines;
}

function write(name, text) {
  const path = join(OUT, name);
  writeFileSync(path, text);
  return path;
}

async function exportJson(page) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('[data-export=json]')]);
  return readFileSync(await d.path(), 'utf8');
}

/** Opens the app with its worker started (a sample scored) and its `Blob.stream()` calls counted. */
async function counted() {
  const t = await open(env);
  await drop(t.page, [CHOICE]);
  assert.ok(await settled(t.page));
  const [worker] = t.page.workers();
  assert.ok(worker, 'the scoring worker runs');
  await worker.evaluate(() => {
    self.streams = 0;
    const stream = Blob.prototype.stream;
    Blob.prototype.stream = function () {
      self.streams += 1;
      return stream.call(this);
    };
  });
  return { ...t, reads: () => worker.evaluate(() => self.streams) };
}

async function scored(page, path) {
  // A drop becomes runs only once the worker has grouped its files: wait for the new run's tab,
  // so that the run before it (still on screen meanwhile) is not taken for this one.
  const tabs = await page.$$eval('.tab', (e) => e.length);
  await drop(page, [path]);
  await page.waitForFunction((n) => document.querySelectorAll('.tab').length > n, tabs, { timeout: 120000 });
  const ok = await settled(page, 120000);
  assert.ok(ok, ok ? '' : await page.textContent('[data-testid=failed]'));
}

test('a wrong guess: the file is read again for its sample, and the intervals are the CLI\'s', async () => {
  const t = await counted();
  // The same items without the blank head: one read, as always.
  const plain = write('reread-plain.jsonl', choiceItems(4000).join('\n') + '\n');
  await scored(t.page, plain);
  await t.page.waitForSelector('.report [data-testid=intervals-status][data-state=done]', { timeout: 120000 });
  assert.equal(await t.reads(), 1, 'a file that promises few items is read once');
  // 4000 items, but the head promises some 600,000 lines: no sample while reading, then a second read.
  const path = write('reread-blank-head.jsonl', blankHead(choiceItems(4000)));
  await scored(t.page, path);
  await t.page.waitForSelector('.report [data-testid=intervals-status][data-state=done]', { timeout: 120000 });
  assert.equal(await t.reads(), 3, 'the blank-headed file was read twice');
  const ref = cli([path], BOOT);
  assert.equal(ref.status, 0, ref.stderr);
  assert.ok(Object.keys(ref.report.intervals.bootstrap.figures).length > 10, 'figures to compare');
  assert.equal(await exportJson(t.page), ref.stdout, 'the export is the CLI\'s --json --bootstrap, byte for byte');
  await t.done();
});

test('a right guess: read once, no sample, "more than the browser resamples"', async () => {
  const t = await counted();
  const lines = [];
  for (let i = 0; i < 200001; i++) lines.push(`{"id":"${i}","options":["A","B"],"gold":"A","answer":"${i % 3 ? 'A' : 'B'}"}`);
  const path = write('reread-200k-blank-head.jsonl', blankHead(lines));
  await scored(t.page, path);
  await t.page.waitForSelector('.report [data-testid=intervals-status][data-state=skipped]', { timeout: 60000 });
  assert.match(await t.page.textContent('.report [data-testid=intervals-status]'), /200001 items: more than the browser resamples \(200000\)/);
  assert.equal(await t.reads(), 1, 'read once');
  const ref = cli([path]);
  assert.equal(ref.status, 0, ref.stderr);
  assert.equal(await exportJson(t.page), ref.stdout, 'the export is the CLI\'s --json, byte for byte');
  await t.done();
});
