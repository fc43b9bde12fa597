// The page's main thread on a busy machine: two node processes spinning (one a core on a machine
// of two), the built site in headless Chromium, and the small drops a reader makes every day: a
// 3,000-item file (scripts/gen_large.py), a HELM run folder and an lm-eval output folder (the
// test fixtures). Records every main-thread task over 50 ms from the drop until the page is done
// (a PerformanceObserver on `longtask`, installed before the page's first script), and writes
// target/bench-results/busy.json and the busy block of docs/performance.md (with --no-doc,
// neither). With --profile, one more drop of each under Chromium's tracing, and where the time
// of its longest main-thread task went (script, style, layout, paint…). Not part of `make test`; run by
// `bash scripts/bench.sh busy`. The spinning children are killed at the end, whatever happens.
//
//   node scripts/bench_busy.mjs [--site target/site] [--runs 3] [--profile] [--no-doc]
import { chromium } from 'playwright-core';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { serve } from '../tests/e2e/server.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const SITE = resolve(opt('site', join(ROOT, 'target/site')));
const RUNS = Number(opt('runs', '3'));
const RESULTS = join(ROOT, 'target/bench-results');
const log = (m) => console.error(`bench-busy: ${m}`);

/** The drops: a name, the input to set (a file or a folder's path) and which input takes it. */
function drops() {
  const items = join(ROOT, 'target/bench-data/items-3000.jsonl');
  if (!existsSync(items)) {
    mkdirSync(dirname(items), { recursive: true });
    execFileSync('python3', [join(ROOT, 'scripts/gen_large.py'), '--items', '3000', '--out', items]);
  }
  return [
    { name: '3,000 items (scripts/gen_large.py, 20 groups, probabilities)', path: items, input: 'file-input' },
    { name: 'a HELM run folder (tests/fixtures/helm/joint)', path: join(ROOT, 'tests/fixtures/helm/joint'), input: 'folder-input' },
    { name: 'an lm-eval output folder, two runs (tests/fixtures/lm_eval/output_folder)', path: join(ROOT, 'tests/fixtures/lm_eval/output_folder'), input: 'folder-input' },
  ];
}

/**
 * The longest task on the page's main thread in a Chromium trace, and where its time went: the
 * self time of the events inside it (script, style, layout, paint, garbage collection…) by name,
 * with the function's name for a script's entry where the trace has one.
 */
function longestTask(events) {
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const on = (t) => events.filter((e) => e.pid === t.pid && e.tid === t.tid && e.ph === 'X' && typeof e.dur === 'number');
  // The page's main thread: the renderer's that ran the most script.
  const thread = mains.map((t) => ({ t, xs: on(t) }))
    .sort((a, b) => b.xs.filter((e) => e.name === 'FunctionCall').length - a.xs.filter((e) => e.name === 'FunctionCall').length)[0];
  if (!thread) return null;
  const tasks = thread.xs.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  const task = tasks.sort((a, b) => b.dur - a.dur)[0];
  if (!task) return null;
  const inside = thread.xs.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // Self time: each event's duration less its direct children's, found with a stack.
  const self = new Map();
  const stack = [];
  const label = (e) => {
    const f = e.args?.data?.functionName || e.args?.data?.url?.split('/').pop();
    return f ? `${e.name} (${f})` : e.name;
  };
  const close = (e) => self.set(label(e.ev), (self.get(label(e.ev)) || 0) + e.self);
  let children = task.dur;
  for (const ev of inside) {
    while (stack.length && stack.at(-1).end <= ev.ts) close(stack.pop());
    if (stack.length) stack.at(-1).self -= ev.dur;
    else children -= ev.dur;
    stack.push({ ev, end: ev.ts + ev.dur, self: ev.dur });
  }
  while (stack.length) close(stack.pop());
  self.set('(in the task, in no traced event)', children);
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([n, us]) => [n, Math.round(us / 100) / 10]);
  return { task_ms: Math.round(task.dur / 100) / 10, top };
}

/** One drop on a fresh page: the long tasks after it, and the profile's hottest stretch if asked. */
async function once(browser, url, drop, trace) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    window.__longtasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longtasks.push([e.startTime, e.duration]); })
      .observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector('button.sample');
  await page.waitForTimeout(500);
  if (trace) {
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink', 'toplevel'] });
  }
  const at = await page.evaluate(() => performance.now());
  await page.setInputFiles(`[data-testid=${drop.input}]`, drop.path);
  await page.waitForSelector('[data-testid=report], [data-testid=failed]', { timeout: 300000 });
  await page.waitForSelector('main[data-testid=app][data-status=done]', { timeout: 300000 });
  // What the page draws once done (the cards' intervals) lands in the next tasks.
  await page.waitForTimeout(1000);
  let hot = null;
  if (trace) {
    const text = (await browser.stopTracing()).toString();
    // Kept for Chromium's performance panel (Load profile…) or a closer look.
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, `busy-trace-${drop.input}-${drop.path.split('/').pop()}.json`), text);
    hot = longestTask(JSON.parse(text).traceEvents);
  }
  const failed = (await page.$('[data-testid=report]')) ? null : await page.textContent('[data-testid=failed]');
  const tasks = (await page.evaluate(() => window.__longtasks)).filter(([s, d]) => s + d >= at).map(([, d]) => d);
  await context.close();
  return { tasks, errors, failed, hot };
}

async function main() {
  if (!existsSync(join(SITE, 'index.html'))) throw new Error(`no site in ${SITE}: build it with trunk --dist ${SITE}`);
  const server = await serve(SITE);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-default-apps'],
  });
  // The load: two processes that spin until killed, on any way out of this one.
  const spinners = [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  const stop = () => { for (const s of spinners) if (s.exitCode === null) s.kill('SIGKILL'); };
  process.on('exit', stop);
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { stop(); process.exit(130); });
  const loadStart = loadavg();
  const rows = [];
  try {
    await new Promise((r) => setTimeout(r, 2000));
    for (const drop of drops()) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const r = await once(browser, server.url, drop, false);
        if (r.failed || r.errors.length) throw new Error(`${drop.name}: ${r.failed || r.errors.join('; ')}`);
        runs.push(r.tasks);
        log(`${drop.name}, run ${i + 1}: tasks over 50 ms ${r.tasks.map((d) => d.toFixed(0)).join(', ') || 'none'}`);
      }
      const hot = args.includes('--profile') ? (await once(browser, server.url, drop, true)).hot : null;
      if (hot) log(`${drop.name}, traced: longest task ${hot.task_ms} ms: ${hot.top.map(([n, ms]) => `${n} ${ms} ms`).join('; ')}`);
      const all = runs.flat();
      rows.push({ name: drop.name, runs: RUNS, longest_ms: Math.max(0, ...all), over_100: all.filter((d) => d > 100).length, over_50: all.length, tasks: runs, hot });
    }
  } finally {
    stop();
    await browser.close();
    await server.close();
  }
  const result = {
    when: new Date().toISOString(),
    cores: cpus().length,
    load_start: loadStart,
    load_end: loadavg(),
    chromium: execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    commit: spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim(),
    rows,
  };
  mkdirSync(RESULTS, { recursive: true });
  const block = table(result);
  console.log(block);
  if (args.includes('--no-doc')) return;
  writeFileSync(join(RESULTS, 'busy.json'), JSON.stringify(result, null, 1) + '\n');
  const doc = join(ROOT, 'docs/performance.md');
  const text = readFileSync(doc, 'utf8');
  const re = /<!-- busy:begin[\s\S]*?<!-- busy:end -->/;
  if (!re.test(text)) throw new Error('docs/performance.md has no busy block');
  writeFileSync(doc, text.replace(re, () => block));
  log('wrote the busy block of docs/performance.md');
}

/** The marked block of docs/performance.md: drop | longest task | tasks over 100 ms | over 50 ms. */
function table(r) {
  const load = (l) => l.map((x) => x.toFixed(1)).join(' / ');
  return [
    '<!-- busy:begin (written by scripts/bench_busy.mjs; edit the script, not this block) -->',
    `Made by scripts/bench_busy.mjs (\`bash scripts/bench.sh busy\`) on ${r.when.slice(0, 16).replace('T', ' ')} UTC, site of commit ${r.commit},`,
    `${r.cores} cores with two busy processes spinning, ${r.chromium.replace(/ built on.*/, '')} headless; load average`,
    `${load(r.load_start)} at the start and ${load(r.load_end)} at the end (1 / 5 / 15 min). ${r.rows[0]?.runs} drops of each on a fresh page;`,
    'the tasks counted end after the drop and before the page is done and has drawn what follows (1 s after).',
    '',
    '| drop | longest main-thread task | tasks over 100 ms | tasks over 50 ms | target |',
    '|---|---|---|---|---|',
    ...r.rows.map((x) => `| ${x.name} | ${x.longest_ms > 0 ? `${x.longest_ms.toFixed(0)} ms` : 'none over 50 ms'} | ${x.over_100} | ${x.over_50} | ${x.longest_ms <= 100 ? 'met' : 'not met'} (≤ 100 ms) |`),
    '<!-- busy:end -->',
  ].join('\n');
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
