// The leaderboard view against the native CLI: a folder of 12 runs of one benchmark is dropped,
// the worker ranks them (one paired bootstrap, 2000 resamples, seed 2024), and the page's
// exports must be `scorelens leaderboard DIR` byte for byte: the CSV and Markdown tables and the
// JSON. A click on a run in the table opens its report.
import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, CLI, drop, open, OUT, setup, status } from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

const DIR = join(OUT, 'leaderboard-12');

/** Twelve runs of 80 choice items in four groups; run r is right more often as r grows. */
function writeRuns() {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  let seed = 7;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  for (let r = 1; r <= 12; r += 1) {
    const lines = [JSON.stringify({ scorelens: 1, model: `model-${String(r).padStart(2, '0')}`, benchmark: 'generic' })];
    for (let i = 0; i < 80; i += 1) {
      const right = rand() < 0.35 + 0.04 * r;
      lines.push(JSON.stringify({ id: `q${i}`, type: 'choice', group: `g${i % 4}`, options: ['A', 'B', 'C', 'D'], gold: 'A', answer: right ? 'A' : 'B' }));
    }
    writeFileSync(join(DIR, `run-${String(r).padStart(2, '0')}.jsonl`), `${lines.join('\n')}\n`);
  }
  return readdirSync(DIR).sort().map((f) => join(DIR, f));
}

function cli(extra) {
  const r = spawnSync(CLI, ['leaderboard', DIR, ...extra], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, `scorelens leaderboard failed: ${r.stderr}`);
  return r.stdout;
}

async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return readFileSync(await d.path(), 'utf8');
}

test('twelve runs: the leaderboard opens first and its exports equal the CLI byte for byte', async () => {
  const files = writeRuns();
  const { page, errors } = await open(env);
  await drop(page, files);
  await page.waitForSelector('[data-testid=leaderboard-table]', { timeout: 180000 });
  await status(page, 'done', 300000);
  // The leaderboard comes before the runs' tabs.
  const order = await page.$$eval('main > *', (els) => els.map((e) => e.dataset.testid || e.className));
  assert.ok(order.indexOf('leaderboard') >= 0 && order.indexOf('leaderboard') < order.findIndex((x) => String(x).includes('tabs')), order.join(', '));
  const section = '[data-testid=leaderboard]';
  assert.equal(await download(page, `${section} [data-export=leaderboard-json]`), cli(['--json']), 'the JSON');
  assert.equal(await download(page, `${section} [data-export=csv]`), cli(['--format', 'csv']), 'the CSV tables');
  assert.equal(await download(page, `${section} [data-export=md]`), cli(['--format', 'markdown']), 'the Markdown tables');
  // One plot row per run, every run's name written.
  const rows = await page.$$eval('#leaderboard-plot .rank-row', (gs) => gs.map((g) => g.querySelector('.run-name').textContent));
  assert.equal(rows.length, 12);
  // Another figure: the table follows it, and the CSV is the CLI's with --by.
  await page.selectOption('[data-testid=leaderboard-by]', 'subsets.g1.accuracy');
  await page.waitForFunction(() => document.querySelector('[data-testid=leaderboard-table] caption').textContent.startsWith('subsets.g1.accuracy'));
  assert.equal(await download(page, `${section} [data-export=csv]`), cli(['--format', 'csv', '--by', 'subsets.g1.accuracy']), 'the CSV by subset');
  // A click on a run opens its report (the tab is titled by the file's model name).
  const last = rows[rows.length - 1];
  const model = last.replace('run-', 'model-').replace('.jsonl', '');
  await page.click(`[data-testid=leaderboard-table] tr[data-run="${last}"] button`);
  await page.waitForFunction((name) => document.querySelector('.tab.selected .tab-name')?.textContent.trim() === name, model);
  assert.deepEqual(errors, []);
});
