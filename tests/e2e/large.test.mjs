// Large files: a generated 100 MB canonical file is scored in the browser (the time is printed
// and written to target/e2e/timings.json) with the CLI's figures; a 200 MB run keeps the page
// responsive (no long task on the main thread) and stops on Cancel.
import { after, before, test } from 'node:test';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { assert, clickSample, cli, open, OUT, pick, ROOT, settled, setup } from './harness.mjs';
import { checkShown } from './check.mjs';

const LARGE = join(OUT, 'large-100mb.jsonl');
const MB = 1e6;
let env;

before(async () => {
  if (!existsSync(LARGE) || statSync(LARGE).size < 100 * MB) {
    execFileSync('python3', [join(ROOT, 'scripts/gen_large.py'), '--mb', '100', '--out', LARGE], { stdio: 'inherit' });
  }
  env = await setup();
});
after(async () => { await env.close(); });

/** Starts recording the main thread's long tasks (> 50 ms). */
async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
}

test('a 100 MB file is scored in the browser with the CLI figures', { timeout: 240000 }, async () => {
  const bytes = statSync(LARGE).size;
  const t0 = Date.now();
  const ref = cli([LARGE]);
  const cliSeconds = (Date.now() - t0) / 1000;
  assert.equal(ref.status, 0, ref.stderr);
  const t = await open(env);
  const { page } = t;
  await watchLongTasks(page);
  const start = Date.now();
  await pick(page, [LARGE]);
  assert.ok(await settled(page, 180000));
  const wall = (Date.now() - start) / 1000;
  const worker = Number(await page.getAttribute('[data-testid=report-header]', 'data-millis')) / 1000;
  const longest = await page.evaluate(() => window.__longest);
  await checkShown(page, ref.report);
  await page.screenshot({ path: join(OUT, 'large-100mb.png') });
  const timing = {
    file_mb: bytes / MB,
    items: ref.report.items,
    browser_seconds_wall: wall,
    browser_seconds_worker: worker,
    browser_mb_per_s: bytes / MB / worker,
    cli_seconds_wall: cliSeconds,
    longest_main_thread_task_ms: longest,
  };
  writeFileSync(join(OUT, 'timings.json'), JSON.stringify(timing, null, 2) + '\n');
  console.log(`e2e: scored ${(bytes / MB).toFixed(1)} MB (${ref.report.items} items) in the browser in ${worker.toFixed(2)} s in the worker, ${wall.toFixed(2)} s from drop to report (${(bytes / MB / worker).toFixed(0)} MB/s); longest main-thread task ${longest.toFixed(0)} ms`);
  assert.ok(longest < 250, `the page stays responsive: longest main-thread task ${longest} ms`);
  await t.done();
});

test('200 MB: the page stays responsive and Cancel stops scoring', { timeout: 240000 }, async () => {
  const t = await open(env);
  const { page } = t;
  await watchLongTasks(page);
  await pick(page, [LARGE, LARGE], true);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=progress] progress')?.value) > 0);
  // The main thread answers while the worker reads: a click is handled at once.
  const t0 = Date.now();
  await page.click('[data-testid=cancel]');
  await page.waitForSelector('[data-testid=cancelled]');
  const answered = Date.now() - t0;
  const longest = await page.evaluate(() => window.__longest);
  assert.ok(answered < 1000, `Cancel answered in ${answered} ms`);
  assert.ok(longest < 250, `longest main-thread task ${longest} ms`);
  // The worker is still usable after a cancel.
  await clickSample(page, 'choice.jsonl');
  assert.ok(await settled(page));
  await t.done();
});
