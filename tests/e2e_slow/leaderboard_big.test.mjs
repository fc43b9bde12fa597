// The leaderboard on four big runs: four files of 200,000 groups of one item each (made here,
// about 30 MB each; the same ids in every run, different answers, a different model in each
// header, so the page makes four runs of one benchmark) are picked at once. The page ranks them
// (2000 paired resamples of 4 runs × 200,000 items on the one worker thread) without a crash:
// no page error, a table of 4 runs, the note that only the 50 largest of the 200,000 subsets are
// ranked (in the view and in the exported JSON, which holds at most 50 subset boards), and the
// peak memory, page JS heap + page wasm + worker JS heap + worker wasm (measured as
// scripts/bench_leaderboard_browser.mjs does), under 500 MB. The times and the memory are printed
// and written to target/e2e/leaderboard_big.json.
import { after, before, test } from 'node:test';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, open, OUT, pick, setup, status } from '../e2e/harness.mjs';

const N = 200000;
const RUNS = 4;
const CAP = 50;
const DIR = join(OUT, 'leaderboard-big');
const MODELS = Array.from({ length: RUNS }, (_, r) => `big-model-${r + 1}`);
const MB = 1e6;
const BUDGET = 500 * MB;
let env;

/**
 * Run r: 200,000 four-option items with probabilities, item i in group `task_i`, wrong when
 * (7i + 13r) is a multiple of 4 + r (accuracy about 3/4, 4/5, 5/6, 6/7), so the runs differ.
 */
function writeRuns() {
  mkdirSync(DIR, { recursive: true });
  return MODELS.map((model, r) => {
    const lines = [JSON.stringify({ scorelens: 1, model, benchmark: 'generic' })];
    for (let i = 0; i < N; i++) {
      const wrong = (7 * i + 13 * r) % (4 + r) === 0;
      const probs = wrong ? '{"A":0.2,"B":0.6,"C":0.1,"D":0.1}' : `{"A":0.${7 + (r % 2)},"B":0.1,"C":0.1,"D":0.${r % 2 ? 0 : 1}}`;
      lines.push(`{"id":"question-${String(i).padStart(7, '0')}","type":"choice","group":"task_${i}","options":["A","B","C","D"],"gold":"A","probs":${probs}}`);
    }
    const path = join(DIR, `${model}.jsonl`);
    writeFileSync(path, lines.join('\n') + '\n');
    return path;
  });
}

/** The byteLength of every WebAssembly.Memory reachable in a target, summed (it only grows). */
async function wasmMemory(send) {
  const proto = await send('Runtime.evaluate', { expression: 'WebAssembly.Memory.prototype' });
  const found = await send('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId });
  const r = await send('Runtime.callFunctionOn', {
    objectId: found.objects.objectId,
    functionDeclaration: 'function () { return this.reduce((s, m) => s + m.buffer.byteLength, 0); }',
    returnByValue: true,
  });
  return r.result.value;
}

const max = (xs) => xs.reduce((a, b) => Math.max(a, b), 0);

before(async () => { env = await setup(); });
after(async () => { await env.close(); });

test('four runs of 200,000 groups: a leaderboard, no crash, 50 subsets ranked and noted, under 500 MB', { timeout: 45 * 60 * 1000 }, async () => {
  const files = writeRuns();
  const t = await open(env);
  const { page } = t;
  const cdp = await t.context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push(Math.round(e.duration));
    }).observe({ type: 'longtask', buffered: false });
  });

  // The worker's target, spoken to through the page's session (as the bench script does).
  let worker = null;
  let nextId = 1;
  const pending = new Map();
  cdp.on('Target.attachedToTarget', (e) => { if (e.targetInfo.type === 'worker') worker = e.sessionId; });
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    const m = JSON.parse(e.message);
    const p = pending.get(m.id);
    if (p) {
      pending.delete(m.id);
      if (m.error) p.reject(new Error(m.error.message)); else p.resolve(m.result);
    }
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  const toWorker = (method, params = {}, waitMs = 10000) => new Promise((res, rej) => {
    const id = nextId++;
    pending.set(id, { resolve: res, reject: rej });
    setTimeout(() => { if (pending.delete(id)) rej(new Error(`${method}: no answer from the worker`)); }, waitMs);
    cdp.send('Target.sendMessageToTarget', { sessionId: worker, message: JSON.stringify({ id, method, params }) }).catch(rej);
  });

  // Heaps sampled every 500 ms from the pick until the page is done.
  const heaps = { page: [], worker: [] };
  let ranking = null;
  let sampling = true;
  const start = Date.now();
  const sampler = (async () => {
    while (sampling) {
      try {
        const m = (await cdp.send('Performance.getMetrics')).metrics;
        heaps.page.push(m.find((x) => x.name === 'JSHeapUsedSize').value);
        const said = await page.textContent('[data-testid=leaderboard-status]', { timeout: 100 }).catch(() => null);
        if (ranking === null && /ranking/i.test(said ?? '')) ranking = (Date.now() - start) / 1000;
      } catch { /* between two renders */ }
      if (worker) {
        try {
          const h = await toWorker('Runtime.getHeapUsage');
          heaps.worker.push(h.usedSize + (h.backingStorageSize || 0));
        } catch { /* busy past the timeout: the next sample */ }
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  })();

  let board;
  let done;
  let workerWasm;
  try {
    await pick(page, files);
    await page.waitForSelector('[data-testid=grouping]', { timeout: 120000 });
    assert.equal(await page.getAttribute('[data-testid=grouping]', 'data-runs'), String(RUNS), 'four runs, one per file');
    // The table, or the reason there is none (the ranking failed, a run failed, the page crashed).
    const outcome = await page.waitForFunction(() => {
      if (document.querySelector('[data-testid=leaderboard-table]')) return 'table';
      if (document.querySelector('[data-testid=failed]')) return `a run failed: ${document.querySelector('[data-testid=failed]').textContent}`;
      const said = document.querySelector('[data-testid=leaderboard-status]')?.textContent ?? '';
      if (said && !/ranking/i.test(said)) return `the leaderboard says: ${said}`;
      return false;
    }, null, { timeout: 40 * 60 * 1000, polling: 1000 }).then((h) => h.jsonValue());
    board = (Date.now() - start) / 1000;
    assert.equal(outcome, 'table', 'the leaderboard table');
    // The worker then draws each run's intervals; its wasm is asked once it is idle.
    await status(page, 'done', 40 * 60 * 1000);
    done = (Date.now() - start) / 1000;
  } finally {
    sampling = false;
    await sampler;
  }
  assert.ok(worker, 'the worker was attached to');
  workerWasm = await wasmMemory((m, p) => toWorker(m, p, 120000));
  const workerHeapNow = await toWorker('Runtime.getHeapUsage');
  heaps.worker.push(workerHeapNow.usedSize + (workerHeapNow.backingStorageSize || 0));
  const pageMetrics = (await cdp.send('Performance.getMetrics')).metrics;
  heaps.page.push(pageMetrics.find((x) => x.name === 'JSHeapUsedSize').value);
  const pageWasm = await wasmMemory((m, p) => cdp.send(m, p));

  // Four runs in the table, every model named once.
  const rows = await page.$$eval('[data-testid=leaderboard-table] tr[data-run]', (trs) => trs.map((tr) => tr.dataset.run));
  assert.equal(rows.length, RUNS, `rows ${rows.join(', ')}`);
  assert.deepEqual([...rows].sort(), [...MODELS].sort());

  // The view notes that only the largest subsets are ranked.
  const notes = await page.$$eval('[data-testid=leaderboard] .note', (ps) => ps.map((p) => p.textContent.trim()));
  const capped = new RegExp(`^${CAP} of ${N} subsets are ranked, the largest`);
  assert.ok(notes.some((n) => capped.test(n)), `notes in the view: ${JSON.stringify(notes)}`);

  // The exported JSON: four runs on every item, at most 50 subset boards, the same note.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=leaderboard] [data-export=json]')]);
  const lb = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.equal(lb.runs.length, RUNS);
  assert.equal(lb.common, N);
  assert.equal(lb.bootstrap.resamples, 2000);
  assert.ok(lb.subsets.length > 0 && lb.subsets.length <= CAP, `${lb.subsets.length} subset boards`);
  assert.ok(lb.notes.some((n) => capped.test(n)), `notes in the JSON: ${JSON.stringify(lb.notes)}`);
  const accuracy = lb.figures.find((b) => b.figure === 'metrics.accuracy');
  assert.ok(accuracy, `figures ${lb.figures.map((b) => b.figure).join(', ')}`);
  assert.equal(accuracy.standings.length, RUNS);

  const peak = {
    page_js_heap_peak: max(heaps.page),
    page_wasm: pageWasm,
    worker_js_heap_peak: max(heaps.worker),
    worker_wasm: workerWasm,
  };
  const total = peak.page_js_heap_peak + peak.page_wasm + peak.worker_js_heap_peak + peak.worker_wasm;
  const longTasks = await page.evaluate(() => window.__long);
  const timing = {
    runs: RUNS,
    items_per_run: N,
    groups_per_run: N,
    files_mb: files.reduce((s, f) => s + statSync(f).size, 0) / MB,
    resamples: lb.bootstrap.resamples,
    seconds_pick_to_ranking: ranking,
    seconds_pick_to_leaderboard: board,
    seconds_pick_to_done: done,
    page_js_heap_peak_mb: peak.page_js_heap_peak / MB,
    page_wasm_mb: peak.page_wasm / MB,
    worker_js_heap_peak_mb: peak.worker_js_heap_peak / MB,
    worker_wasm_mb: peak.worker_wasm / MB,
    peak_total_mb: total / MB,
    heap_samples: { page: heaps.page.length, worker: heaps.worker.length },
    longest_task_ms: max(longTasks),
    long_tasks_ms: longTasks,
    subset_boards: lb.subsets.length,
    notes: lb.notes,
  };
  writeFileSync(join(OUT, 'leaderboard_big.json'), JSON.stringify(timing, null, 2) + '\n');
  const mb = (n) => `${(n / MB).toFixed(0)} MB`;
  console.log(`e2e: leaderboard of ${RUNS} runs × ${N.toLocaleString('en-US')} groups (${timing.files_mb.toFixed(0)} MB): ranking from ${ranking === null ? '(not seen)' : `${ranking.toFixed(0)} s`}, leaderboard in ${board.toFixed(0)} s, done in ${done.toFixed(0)} s; peak memory ${mb(total)} (page JS heap ${mb(peak.page_js_heap_peak)} + page wasm ${mb(peak.page_wasm)} + worker JS heap ${mb(peak.worker_js_heap_peak)} + worker wasm ${mb(peak.worker_wasm)}); longest main-thread task ${timing.longest_task_ms} ms`);
  assert.ok(heaps.worker.length > 0, 'the worker heap was sampled');
  assert.ok(total < BUDGET, `peak memory ${mb(total)} over ${mb(BUDGET)}`);
  await t.done();
});
