// The leaderboard in the page: 50 runs of 15,000 items (scripts/gen_leaderboard.py, the runs
// `bash scripts/bench.sh leaderboard` ranks natively) picked through the file input of the built
// site in headless Chromium. Records the time from the pick to the last run scored (the ranking
// starts) and to the leaderboard on screen, the peak memory of the page and of its worker, and the
// longest main-thread task; writes target/bench-results/leaderboard-browser.json and the
// leaderboard-browser block of docs/performance.md (not with --no-doc). One run: it takes minutes
// and the machine is shared. Run by `bash scripts/bench.sh leaderboard`.
//
//   node scripts/bench_leaderboard_browser.mjs [--site target/site-bench] [--runs 50] [--items 15000] [--no-doc]
import { chromium } from 'playwright-core';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { serve } from '../tests/e2e/server.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const SITE = resolve(opt('site', join(ROOT, 'target/site-bench')));
const RUNS = Number(opt('runs', '50'));
const ITEMS = Number(opt('items', '15000'));
const DATA = join(ROOT, `target/bench-data/leaderboard-${RUNS}${ITEMS === 15000 ? '' : `-${ITEMS}`}`);
const RESULTS = join(ROOT, 'target/bench-results');
const MB = 1e6;
const log = (m) => console.error(`bench-leaderboard-browser: ${m}`);
const max = (xs) => xs.reduce((a, b) => Math.max(a, b), 0);

/** The byteLength of every WebAssembly.Memory reachable in a target, summed. */
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

async function measure(browser, url, files) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    window.__longtasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  // The worker's target, spoken to through the page's session.
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
  await page.goto(url);
  await page.waitForSelector('[data-testid=drop-zone]');
  const heaps = { page: [], worker: [] };
  let ranking = null;
  let sampling = true;
  const t0 = Date.now();
  const sampler = (async () => {
    while (sampling) {
      try {
        const m = (await cdp.send('Performance.getMetrics')).metrics;
        heaps.page.push(m.find((x) => x.name === 'JSHeapUsedSize').value);
        const said = await page.textContent('[data-testid=leaderboard-status]').catch(() => null);
        if (ranking === null && /ranking/i.test(said ?? '')) ranking = (Date.now() - t0) / 1000;
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
  const pickAt = await page.evaluate(() => performance.now());
  await page.setInputFiles('[data-testid=file-input]', files);
  await page.waitForSelector('[data-testid=leaderboard-table]', { timeout: 60 * 60 * 1000 });
  const board = (Date.now() - t0) / 1000;
  const boardAt = await page.evaluate(() => performance.now());
  sampling = false;
  await sampler;
  const rows = await page.$$eval('[data-testid=leaderboard-table] tbody tr', (trs) => trs.length);
  const longtasks = (await page.evaluate(() => window.__longtasks)).filter(([s, d]) => s + d >= pickAt);
  const result = {
    runs: files.length,
    rows,
    to_ranking_s: ranking,
    to_leaderboard_s: board,
    page_js_heap_peak: max(heaps.page),
    page_wasm: await wasmMemory((m, p) => cdp.send(m, p)),
    worker_js_heap_peak: max(heaps.worker),
    // The worker is busy when the board shows (each run's intervals are drawn, one run after
    // another) and answers a heap walk only when idle: its memory is asked once the page says it
    // is done. Wasm memory only grows, so the last is the peak.
    worker_wasm: worker ? await page.waitForSelector('[data-testid=app][data-status=done]', { timeout: 30 * 60 * 1000 })
      .then(() => wasmMemory((m, p) => toWorker(m, p, 120000))).catch(() => NaN) : NaN,
    longest_task_ms: max(longtasks.map(([, d]) => d)),
    // Each task over 50 ms as [start, duration] in ms from the pick, and when the leaderboard was
    // seen: a long task just before it is the ranked view's, one near the pick the drop's.
    long_tasks_from_pick: longtasks.map(([s, d]) => [Math.round(s - pickAt), Math.round(d)]),
    leaderboard_seen_ms: Math.round(boardAt - pickAt),
    errors,
  };
  await context.close();
  return result;
}

function block(r) {
  const mb = (n) => `${(n / MB).toFixed(0)} MB`;
  const load = (l) => l.map((x) => x.toFixed(1)).join(' / ');
  const name = `${r.runs} runs × ${r.items.toLocaleString('en-US')} items, ${r.mb.toFixed(0)} MB`;
  return [
    '<!-- leaderboard-browser:begin (written by scripts/bench_leaderboard_browser.mjs; edit the script, not this block) -->',
    `Made by scripts/bench_leaderboard_browser.mjs on ${r.when.slice(0, 16).replace('T', ' ')} UTC, site from commit ${r.commit},`,
    `${r.cores} cores, ${r.chromium.replace(/ built on.*/, '')} headless, one run; load average ${load(r.load_start)} at the start and`,
    `${load(r.load_end)} at the end: the machine was shared with other builds, so the times are inflated.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| ${name}: from the pick to every run scored (the ranking starts) | ${r.to_ranking_s === null ? 'not seen' : `${r.to_ranking_s.toFixed(0)} s`} |`,
    `| ${name}: from the pick to the leaderboard on screen (2000 paired resamples, one worker thread) | ${r.to_leaderboard_s.toFixed(0)} s |`,
    `| ${name}: peak memory, page JS heap + page wasm + worker JS heap + worker wasm | ${mb(r.page_js_heap_peak + r.page_wasm + r.worker_js_heap_peak + r.worker_wasm)} (${mb(r.page_js_heap_peak)} + ${mb(r.page_wasm)} + ${mb(r.worker_js_heap_peak)} + ${mb(r.worker_wasm)}) |`,
    `| ${name}: longest main-thread task from the pick to the leaderboard | ${r.longest_task_ms > 0 ? `${r.longest_task_ms.toFixed(0)} ms` : 'none over 50 ms'} |`,
    `| ${name}: rows in the leaderboard; page errors | ${r.rows}; ${r.errors.length ? r.errors.join('; ').slice(0, 200).replace(/\|/g, '/') : 'none'} |`,
    '<!-- leaderboard-browser:end -->',
  ].join('\n');
}

async function main() {
  if (!existsSync(join(SITE, 'index.html'))) throw new Error(`no site in ${SITE}: build it with trunk --dist ${SITE}`);
  if (!existsSync(DATA)) {
    execFileSync('python3', ['scripts/gen_leaderboard.py', '--runs', String(RUNS), '--items', String(ITEMS), '--out', DATA], { cwd: ROOT, stdio: 'inherit' });
  }
  const files = readdirSync(DATA).filter((f) => !f.startsWith('.')).sort().map((f) => join(DATA, f));
  const bytes = files.reduce((s, f) => s + readFileSync(f).length, 0);
  const loadStart = loadavg();
  const server = await serve(SITE);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-default-apps'],
  });
  let m;
  try {
    log(`${files.length} runs of ${ITEMS} items (${(bytes / MB).toFixed(0)} MB) picked in the page`);
    m = await measure(browser, server.url, files);
  } finally {
    await browser.close();
    await server.close();
  }
  const r = {
    ...m,
    items: ITEMS,
    mb: bytes / MB,
    when: new Date().toISOString(),
    cores: cpus().length,
    load_start: loadStart,
    load_end: loadavg(),
    chromium: execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    commit: spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim(),
  };
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'leaderboard-browser.json'), JSON.stringify(r, null, 1) + '\n');
  const text = block(r);
  console.log(text);
  if (args.includes('--no-doc')) return;
  const doc = join(ROOT, 'docs/performance.md');
  const re = /<!-- leaderboard-browser:begin[\s\S]*?<!-- leaderboard-browser:end -->/;
  const now = readFileSync(doc, 'utf8');
  if (!re.test(now)) throw new Error('docs/performance.md has no leaderboard-browser block');
  writeFileSync(doc, now.replace(re, () => text));
  log('wrote the leaderboard-browser block of docs/performance.md');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
