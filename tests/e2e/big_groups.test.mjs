// A file whose `group` is an id: 200,000 groups of one item each (made here, about 29 MB). The
// page reports it with no main-thread task over 100 ms, draws only the group rows in view, holds
// the 1,000 largest groups and says so, notices that the groups look like ids, filters the items
// by any group (held or not), and its JSON export keeps every group. The time, the longest task
// and the page's memory are printed and written to target/e2e/big_groups.json.
import { after, before, test } from 'node:test';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, groupsFile, open, OUT, pick, settled, setup } from './harness.mjs';

const N = 200000;
const FILE = join(OUT, 'big-groups-200k.jsonl');
const MB = 1e6;
let env;

before(async () => {
  groupsFile(FILE, N);
  env = await setup();
});
after(async () => { await env.close(); });

/** Sums the byteLength of every WebAssembly.Memory in the page (a wasm memory only grows). */
async function wasmBytes(cdp) {
  const proto = await cdp.send('Runtime.evaluate', { expression: 'WebAssembly.Memory.prototype' });
  const found = await cdp.send('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId });
  const r = await cdp.send('Runtime.callFunctionOn', {
    objectId: found.objects.objectId,
    functionDeclaration: 'function () { return this.reduce((s, m) => s + m.buffer.byteLength, 0); }',
    returnByValue: true,
  });
  return r.result.value;
}

const rows = (page) => page.$$eval('[data-testid=groups] tbody tr[data-group]', (trs) => trs.map((tr) => tr.dataset.group));
const total = (page) => page.$eval('[data-testid=explorer-total]', (e) => Number(e.dataset.value));

test('200,000 groups: a report, no freeze, the longest main-thread task and memory measured', { timeout: 600000 }, async () => {
  const t = await open(env);
  const { page } = t;
  const cdp = await t.context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.evaluate(() => {
    window.__longest = 0;
    window.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.__longest = Math.max(window.__longest, e.duration);
        window.__long.push(Math.round(e.duration));
      }
    }).observe({ type: 'longtask', buffered: false });
  });
  const start = Date.now();
  await pick(page, [FILE]);
  assert.ok(await settled(page, 480000), 'a report');
  const wall = (Date.now() - start) / 1000;
  const toReport = await page.evaluate(() => window.__longest);

  // What the page holds and says.
  const panel = '[data-testid=groups]';
  assert.equal(await page.getAttribute(panel, 'data-total'), String(N));
  assert.equal(await page.getAttribute(panel, 'data-held'), '1000');
  assert.match(await page.textContent('[data-testid=groups-held]'), /The 1.000 largest of 200.000 groups/);
  assert.match(await page.textContent('[data-testid=groups-ids]'), /200.000 groups for 200.000 items/);
  // Only the rows in view (and a margin) are drawn, in natural order of name: all groups hold
  // one item, so the largest are the first 1,000 names, task_0 … task_999.
  let shown = await rows(page);
  assert.ok(shown.length > 10 && shown.length <= 80, `${shown.length} group rows drawn`);
  assert.deepEqual(shown.slice(0, 12), ['task_0', 'task_1', 'task_2', 'task_3', 'task_4', 'task_5', 'task_6', 'task_7', 'task_8', 'task_9', 'task_10', 'task_11']);
  const elements = await page.evaluate(() => document.querySelectorAll('*').length);
  assert.ok(elements < 5000, `${elements} elements in the page`);
  // Rows are exactly as high as the window assumes, so the scroll position names the rows.
  const heights = await page.$$eval(`${panel} tbody tr[data-group]`, (trs) => trs.map((tr) => tr.getBoundingClientRect().height));
  assert.ok(heights.every((h) => Math.abs(h - 30) < 0.01), `row heights ${[...new Set(heights)]}`);

  // Scrolled to the bottom, the last rows are drawn and in view.
  await page.$eval(`${panel} .scroll`, (el) => { el.scrollTop = el.scrollHeight; el.dispatchEvent(new Event('scroll')); });
  await page.waitForSelector(`${panel} tr[data-group="task_999"]`);
  shown = await rows(page);
  assert.ok(shown.length <= 80, `${shown.length} rows drawn at the bottom`);
  const inView = await page.$eval(`${panel} .scroll`, (box) => {
    const b = box.getBoundingClientRect();
    const r = box.querySelector('tr[data-group="task_999"]').getBoundingClientRect();
    return r.top >= b.top && r.bottom <= b.bottom + 1;
  });
  assert.ok(inView, 'the last group is in view at the bottom');
  // Sorting (by name, descending) happens at once over the held groups.
  await page.$eval(`${panel} .scroll`, (el) => { el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); });
  await page.click(`${panel} button[data-sort=group]`);
  await page.waitForFunction(() => document.querySelector('[data-testid=groups] tbody tr[data-group]')?.dataset.group === 'task_999');
  // The Group box suggests at most 30 held groups, those holding what is typed: a list of all
  // 1,000 cost the page 1,000 elements before anyone typed.
  const suggested = () => page.$$eval('[data-testid=explorer] datalist option', (o) => o.map((x) => x.value));
  assert.equal((await suggested()).length, 30);
  await page.fill('[data-testid=explorer-group]', 'TASK_99');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=explorer] datalist option').length === 11);
  assert.deepEqual(await suggested(), ['task_99', ...Array.from({ length: 10 }, (_, i) => `task_99${i}`)]);
  // The Group filter takes any group, held or not; the worker filters the items.
  await page.fill('[data-testid=explorer-group]', 'task_123456');
  await page.press('[data-testid=explorer-group]', 'Enter');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=explorer-total]').dataset.value) === 1);
  await page.waitForSelector('.viewport .item[data-id="question-0123456"]');
  await page.fill('[data-testid=explorer-group]', '');
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=explorer-total]').dataset.value) === n, N);
  assert.equal(await total(page), N);
  const longest = await page.evaluate(() => window.__longest);

  // Memory, once the report is shown: the page's JS heap and its wasm memory.
  const metrics = (await cdp.send('Performance.getMetrics')).metrics;
  const heap = metrics.find((m) => m.name === 'JSHeapUsedSize').value;
  const wasm = await wasmBytes(cdp);

  // The JSON export has every group, and the figures the file was made with.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-export=json]')]);
  const report = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.equal(report.groups.length, N);
  assert.equal(report.items, N);
  assert.equal(report.metrics.accuracy, 0.75);
  assert.equal(report.metrics.macro_accuracy, 0.75);
  const g = report.groups.find((x) => x.name === 'task_8');
  assert.deepEqual([g.items, g.accuracy], [1, 0]);
  const withExport = await page.evaluate(() => window.__longest);
  const longTasks = await page.evaluate(() => window.__long);

  const timing = {
    file_mb: statSync(FILE).size / MB,
    groups: N,
    seconds_drop_to_report: wall,
    seconds_worker: Number(await page.getAttribute('[data-testid=report-header]', 'data-millis')) / 1000,
    longest_task_ms_to_report: toReport,
    longest_task_ms_with_scroll_sort_filter: longest,
    longest_task_ms_with_export: withExport,
    long_tasks_ms: longTasks,
    page_js_heap_mb: heap / MB,
    page_wasm_mb: wasm / MB,
    elements,
  };
  writeFileSync(join(OUT, 'big_groups.json'), JSON.stringify(timing, null, 2) + '\n');
  console.log(`e2e: 200,000 groups: report in ${wall.toFixed(1)} s (worker ${timing.seconds_worker.toFixed(1)} s); longest main-thread task ${toReport.toFixed(0)} ms to the report, ${longest.toFixed(0)} ms with scroll/sort/filter, ${withExport.toFixed(0)} ms with the export; page JS heap ${(heap / MB).toFixed(1)} MB, page wasm ${(wasm / MB).toFixed(1)} MB, ${elements} elements`);
  // No main-thread task over 100 ms, from the pick through scrolling, sorting, filtering and the
  // export (the page once froze for about 105 s on this file, and 5 s with 20,000 groups).
  assert.ok(withExport <= 100, `longest main-thread task ${withExport} ms (${longTasks.join(', ')})`);
  await t.done();
});
