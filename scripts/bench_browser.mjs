// The browser benchmark: the built site in headless Chromium (playwright-core), a
// generated 100 MB and 1 GB canonical file, and the 1 GB one gzipped (`1000gz`: it must score in
// the memory the plain file does), picked through the file input (Chromium reads them from
// disk), and the native CLI (release) on the same files in the same run. Records the time to the
// report, peak memory of the page and of its scoring worker, the longest main-thread task, and the
// page weight; writes target/bench-results/browser.json and the browser block of
// docs/performance.md (with --no-doc, neither: browser-no-doc.json instead). Not part of
// `make test`; run by `make bench` / `make bench-browser`. --help prints the usage below.
//
//   node scripts/bench_browser.mjs [--site target/site-bench] [--bin target/release/scorelens]
//        [--mb 100,1000,1000gz,groups] [--runs 3] [--no-doc] [--commit REV (of the site and CLI; default HEAD)]
//   node scripts/bench_browser.mjs --from target/bench-results/browser.json   # the table again
//
// Memory, as measured (Chromium's DevTools protocol, sampled every 200 ms while a file is read):
// - page JS heap: `Performance.getMetrics` JSHeapUsedSize of the page's target;
// - worker JS heap: `Runtime.getHeapUsage` on the worker's target (attached through
//   `Target.setAutoAttach`), usedSize plus backingStorageSize (the ArrayBuffers, so the file
//   slices the worker holds);
// - wasm memory of page and worker: the byteLength of every `WebAssembly.Memory` in that target
//   (`Runtime.queryObjects`), read when the report is shown: a wasm memory only grows, so that is
//   its peak;
// - the renderer process's resident set (Linux /proc VmRSS, sampled, and VmHWM at the end), which
//   holds page and worker together plus everything else Blink keeps; the figure against the
//   300 MB target is the sum of the four above, the process figure is shown beside it.
// `performance.measureUserAgentSpecificMemory` is not used: it needs a cross-origin-isolated page
// and answers only after a garbage collection, seconds later, so it cannot follow a peak.
import { chromium } from 'playwright-core';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { serve } from '../tests/e2e/server.mjs';
import { diffJson } from '../tests/e2e/check.mjs';
import { groupsFile } from '../tests/e2e/harness.mjs';
import { weigh } from './page_weight.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  // The usage lines of the header comment; without this, --help would run the whole benchmark.
  const head = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
  const usage = head.filter((l) => l.startsWith('//   node ') || l.startsWith('//        ['));
  console.log(usage.map((l) => l.slice(5)).join('\n'));
  process.exit(0);
}
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const SITE = resolve(opt('site', join(ROOT, 'target/site-bench')));
const BIN = resolve(opt('bin', join(ROOT, 'target/release/scorelens')));
// A size in MB, `<size>gz`: that file gzipped (gzip -1), or `groups`: the file of 200,000 groups
// of one item each (a `group` that is an id).
const SIZES = opt('mb', '100,1000,1000gz,groups').split(',').map((s) => (s === 'groups'
  ? { mb: 'groups', gz: false }
  : { mb: parseInt(s, 10), gz: s.endsWith('gz') }));
const GROUPS = 200000;
const RUNS = Number(opt('runs', '3'));
const DATA = join(ROOT, 'target/bench-data');
const RESULTS = join(ROOT, 'target/bench-results');
const MB = 1e6;
const MiB = 1 << 20;
const log = (m) => console.error(`bench-browser: ${m}`);
mkdirSync(DATA, { recursive: true });
mkdirSync(RESULTS, { recursive: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const max = (xs) => xs.reduce((a, b) => Math.max(a, b), 0);

/** The generated file of about `mb` megabytes (gzipped when `gz`), or of 200,000 groups, made once. */
function dataFile(mb, gz = false) {
  if (mb === 'groups') return groupsFile(join(DATA, `groups-${GROUPS}.jsonl`), GROUPS);
  const file = join(DATA, `large-${mb}mb.jsonl`);
  if (!existsSync(file) || statSync(file).size < mb * MB) {
    log(`generating ${file}`);
    execFileSync('python3', [join(ROOT, 'scripts/gen_large.py'), '--mb', String(mb), '--out', file], { stdio: 'inherit' });
  }
  if (!gz) return file;
  const zipped = `${file}.gz`;
  if (!existsSync(zipped) || statSync(zipped).mtimeMs < statSync(file).mtimeMs) {
    log(`gzipping ${file}`);
    execFileSync('sh', ['-c', `gzip -1 -c "${file}" > "${zipped}"`], { stdio: 'inherit' });
  }
  return zipped;
}

/** The CLI on the file as a whole process, run from its folder as the page names it. */
function native(file) {
  const t = process.hrtime.bigint();
  const r = spawnSync(BIN, ['score', '--json', basename(file)], { cwd: dirname(file), encoding: 'utf8', maxBuffer: 1 << 28 });
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  if (r.status !== 0) throw new Error(`${BIN} failed on ${file}: ${r.stderr}`);
  return { seconds, report: JSON.parse(r.stdout), text: r.stdout };
}

/**
 * Memory of a process from /proc, in bytes: its anonymous (private) resident memory now, and the
 * peak of its whole resident set, which also counts Chromium's mapped code and shared memory.
 */
function rss(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] || 0) * 1024;
    return { anon: kb('RssAnon'), peak: kb('VmHWM') };
  } catch {
    return { anon: 0, peak: 0 };
  }
}

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

/** One file through the page: a fresh context, the file picked, memory sampled until the report. */
async function browserRun(browser, url, file, reference) {
  const before = new Set((await (await browser.newBrowserCDPSession()).send('SystemInfo.getProcessInfo'))
    .processInfo.filter((p) => p.type === 'renderer').map((p) => p.id));
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  // Every main-thread task over 50 ms, from the first script on.
  await context.addInitScript(() => {
    window.__longtasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  // The worker's target: attached when the page starts it, spoken to through the page's session.
  let workerSession = null;
  let nextId = 1;
  const pending = new Map();
  cdp.on('Target.attachedToTarget', (e) => {
    if (e.targetInfo.type === 'worker') workerSession = e.sessionId;
  });
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    const m = JSON.parse(e.message);
    const p = pending.get(m.id);
    if (p) {
      pending.delete(m.id);
      if (m.error) p.reject(new Error(m.error.message));
      else p.resolve(m.result);
    }
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  // A worker that stopped answers nothing: give up on a question after 10 s.
  const toWorker = (method, params = {}) => new Promise((res, rej) => {
    const id = nextId++;
    pending.set(id, { resolve: res, reject: rej });
    setTimeout(() => { if (pending.delete(id)) rej(new Error(`${method}: no answer from the worker`)); }, 10000);
    cdp.send('Target.sendMessageToTarget', { sessionId: workerSession, message: JSON.stringify({ id, method, params }) }).catch(rej);
  });
  await page.goto(url);
  await page.waitForSelector('[data-testid=drop-zone]');
  await page.waitForSelector('button.sample');
  const renderers = (await (await browser.newBrowserCDPSession()).send('SystemInfo.getProcessInfo'))
    .processInfo.filter((p) => p.type === 'renderer' && !before.has(p.id)).map((p) => p.id);

  const samples = { pageHeap: [], workerHeap: [], rss: [] };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      try {
        const metrics = (await cdp.send('Performance.getMetrics')).metrics;
        samples.pageHeap.push(metrics.find((m) => m.name === 'JSHeapUsedSize').value);
      } catch { /* the page has crashed: its end is recorded below */ }
      if (workerSession) {
        try {
          const h = await toWorker('Runtime.getHeapUsage');
          samples.workerHeap.push(h.usedSize + (h.backingStorageSize || 0));
          // Its wasm memory is read once, when the report is shown (it only grows): sampling it
          // here (`Runtime.queryObjects` walks the worker's heap while it scores) came just
          // before each of the tab crashes seen in some runs.
        } catch { /* the worker is starting, or has stopped */ }
      }
      samples.rss.push(max(renderers.map((pid) => rss(pid).anon)));
      await new Promise((r) => setTimeout(r, 200));
    }
  })();

  const dropAt = await page.evaluate(() => performance.now());
  const t0 = Date.now();
  await page.setInputFiles('[data-testid=file-input]', [file]);
  const crashed = new Promise((r) => page.once('crash', () => r('crash')));
  const ended = await Promise.race([
    page.waitForSelector('[data-testid=report], [data-testid=failed]', { timeout: 30 * 60 * 1000 }).then(() => 'shown'),
    crashed,
  ]);
  const wall = (Date.now() - t0) / 1000;
  sampling = false;
  await sampler;
  if (ended === 'crash') {
    const peak = max(renderers.map((pid) => rss(pid).peak));
    await context.close().catch(() => {});
    return { failed: 'the tab crashed', errors, wall_s: wall, worker_s: NaN, items: null, figures_diff: 'no report',
      longest_task_ms: 0, long_tasks: 0, page_js_heap_peak: max(samples.pageHeap), page_wasm: 0,
      worker_js_heap_peak: max(samples.workerHeap), worker_wasm: NaN,
      renderer_anon_peak: max(samples.rss), renderer_rss_hwm: peak, samples: samples.pageHeap.length };
  }
  // A run the page could not finish is recorded with what it said and the memory it reached.
  const failed = (await page.$('[data-testid=report]')) ? null
    : (await page.textContent('[data-testid=failed]')).replace(/\s+/g, ' ').trim();
  let workerMillis = NaN;
  let itemsShown = null;
  let figuresDiff = 'no report';
  let exportIdentical = false;
  if (!failed) {
    workerMillis = Number(await page.getAttribute('[data-testid=report-header]', 'data-millis'));
    // The figures the page exports are the CLI's, bit for bit (tests/e2e/check.mjs), and so is the
    // whole export, byte for byte (the CLI names the file as the page does).
    itemsShown = Number(await page.getAttribute('[data-figure=items]', 'data-value'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-export=json]')]);
    const text = readFileSync(await download.path(), 'utf8');
    const exported = JSON.parse(text);
    exportIdentical = text === reference.text;
    if (!exportIdentical) {
      let at = 0;
      while (at < text.length && text[at] === reference.text[at]) at++;
      log(`the export differs from the CLI's --json from character ${at}: page ${JSON.stringify(text.slice(at, at + 80))}, CLI ${JSON.stringify(reference.text.slice(at, at + 80))}`);
    }
    figuresDiff = diffJson(exported.metrics, reference.report.metrics, '$.metrics')
      || (itemsShown === reference.report.items ? null : `items shown ${itemsShown} vs ${reference.report.items}`);
  }
  const longtasks = (await page.evaluate(() => window.__longtasks)).filter(([s, d]) => s + d >= dropAt);
  const pageWasm = await wasmMemory((m, p) => cdp.send(m, p));
  const workerWasm = workerSession ? await wasmMemory(toWorker).catch(() => NaN) : NaN;
  const peakRss = max(renderers.map((pid) => rss(pid).peak));
  await context.close();
  return {
    failed,
    errors,
    wall_s: wall,
    worker_s: workerMillis / 1000,
    items: itemsShown,
    figures_diff: figuresDiff,
    export_identical: exportIdentical,
    longest_task_ms: max(longtasks.map(([, d]) => d)),
    long_tasks: longtasks.length,
    page_js_heap_peak: max(samples.pageHeap),
    page_wasm: pageWasm,
    worker_js_heap_peak: max(samples.workerHeap),
    worker_wasm: workerWasm,
    renderer_anon_peak: max(samples.rss),
    renderer_rss_hwm: peakRss,
    samples: samples.pageHeap.length,
  };
}

async function main() {
  const from = opt('from', null);
  if (from) {
    // Only the table again, from a saved result (no browser run).
    const saved = JSON.parse(readFileSync(from, 'utf8'));
    saved.commit = opt('commit', saved.commit);
    writeDoc(table(saved));
    return;
  }
  if (!existsSync(join(SITE, 'index.html'))) throw new Error(`no site in ${SITE}: build it with trunk --dist ${SITE}`);
  if (!existsSync(BIN)) throw new Error(`no CLI at ${BIN}: cargo build --release`);
  const loadStart = loadavg();
  const weight = weigh(SITE);
  const server = await serve(SITE);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-default-apps'],
  });
  const files = [];
  try {
    for (const { mb, gz } of SIZES) {
      const file = dataFile(mb, gz);
      const bytes = statSync(file).size;
      // A gzipped file's speed counts the bytes it holds (the plain file's).
      const decoded = gz ? statSync(dataFile(mb)).size : bytes;
      // The 1 GB file once: it loads a machine others share; smaller files RUNS times, alternating.
      const runs = mb !== 'groups' && mb >= 500 ? 1 : RUNS;
      const nat = [];
      const web = [];
      let reference = null;
      for (let i = 0; i < runs; i++) {
        const what = `${mb} MB${gz ? ' gzipped' : ''}`;
        log(`${what}, run ${i + 1} of ${runs}: the CLI`);
        const n = native(file);
        nat.push(n.seconds);
        reference = n;
        log(`${what}, run ${i + 1} of ${runs}: the page`);
        const b = await browserRun(browser, server.url, file, reference);
        web.push(b);
        log(`${what}: CLI ${n.seconds.toFixed(2)} s, worker ${b.worker_s.toFixed(2)} s, to the report ${b.wall_s.toFixed(2)} s, `
          + `longest task ${b.longest_task_ms.toFixed(0)} ms, worker wasm ${(b.worker_wasm / MiB).toFixed(0)} MiB, worker heap ${(b.worker_js_heap_peak / MiB).toFixed(0)} MiB, renderer private ${(b.renderer_anon_peak / MiB).toFixed(0)} MiB`);
      }
      // The CLI is cheap beside the page: on the 1 GB file it runs RUNS times (the first before
      // the page, the others after it) and its median counts. One CLI run alone once took twice
      // its usual time, which made the 1 GB ratio look met (aecdabb: 3.98 s against 1.9–2.0 s).
      for (let i = runs; i < RUNS; i++) {
        log(`${mb} MB${gz ? " gzipped" : ""}, the CLI again (${i + 1} of ${RUNS})`);
        nat.push(native(file).seconds);
      }
      files.push({
        mb,
        gz,
        bytes,
        decoded,
        items: reference.report.items,
        groups: reference.report.groups.length,
        runs,
        native_runs: nat.length,
        native_s: median(nat),
        worker_s: median(web.map((b) => b.worker_s)),
        wall_s: median(web.map((b) => b.wall_s)),
        ratio: median(nat) / median(web.map((b) => b.worker_s)),
        ratio_wall: median(nat) / median(web.map((b) => b.wall_s)),
        figures_diff: web.map((b) => b.figures_diff).find((d) => d) || null,
        export_identical: web.every((b) => b.export_identical),
        browser: web,
        native_runs_s: nat,
      });
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const result = {
    when: new Date().toISOString(),
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim(),
    load_start: loadStart,
    load_end: loadavg(),
    chromium: execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    site: SITE,
    commit: opt('commit', null) || spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim(),
    weight,
    files,
  };
  // A --no-doc run (a trial) leaves the results the docs' table was made from alone.
  const saved = args.includes('--no-doc') ? 'browser-no-doc.json' : 'browser.json';
  writeFileSync(join(RESULTS, saved), JSON.stringify(result, null, 1) + '\n');
  writeDoc(table(result));
}

/** Prints the block and, unless --no-doc, puts it in place of the browser block of the docs. */
function writeDoc(block) {
  console.log(block);
  if (args.includes('--no-doc')) return;
  const doc = join(ROOT, 'docs/performance.md');
  const text = readFileSync(doc, 'utf8');
  const re = /<!-- browser:begin[\s\S]*?<!-- browser:end -->/;
  if (!re.test(text)) throw new Error('docs/performance.md has no browser block');
  writeFileSync(doc, text.replace(re, () => block));
  log('wrote the browser block of docs/performance.md');
}

/** The marked block of docs/performance.md: figure | value | target | met. */
function table(r) {
  const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
  const mb = (n) => `${(n / MB).toFixed(0)} MB`;
  const met = (ok) => (ok ? 'met' : 'not met');
  const rows = [];
  const row = (figure, value, target = '', m = '') => rows.push(`| ${figure} | ${value} | ${target} | ${m} |`);
  for (const f of r.files) {
    const decoded = f.decoded ?? f.bytes;
    const groups = f.groups >= 1000 ? `, ${f.groups.toLocaleString('en-US')} groups` : '';
    const name = f.gz
      ? `${(decoded / MB).toFixed(0)} MB gzipped to ${(f.bytes / MB).toFixed(0)} MB (${f.items.toLocaleString('en-US')} items)`
      : `${(f.bytes / MB).toFixed(0)} MB (${f.items.toLocaleString('en-US')} items${groups})`;
    const how = f.runs > 1 ? `median of ${f.runs}` : 'one run';
    const nativeRuns = f.native_runs ?? f.runs;
    const b = f.browser;
    row(`${name}: native CLI, whole process (${nativeRuns > 1 ? `median of ${nativeRuns}` : 'one run'})`, `${f.native_s.toFixed(2)} s · ${(decoded / MB / f.native_s).toFixed(0)} MB/s`);
    const bad = b.find((x) => x.failed || x.errors?.length);
    if (bad) {
      const said = [bad.failed, ...(bad.errors || [])].filter(Boolean).join('; ').slice(0, 300).replace(/\|/g, '/');
      row(`${name}: in the page`, `no report: the page stopped after ${bad.wall_s.toFixed(0)} s saying “${said}”`, 'a report', 'not met');
      row(`${name}: browser ÷ native speed`, 'no report', '≥ 0.5×', 'not met');
    } else {
      row(`${name}: in the page's worker, read + score (${how})`, `${f.worker_s.toFixed(2)} s · ${(decoded / MB / f.worker_s).toFixed(0)} MB/s`);
      row(`${name}: from the pick to the report on screen (${how})`, `${f.wall_s.toFixed(2)} s`);
      row(`${name}: browser ÷ native speed (worker; pick to report)`, `${f.ratio.toFixed(3)}× ; ${f.ratio_wall.toFixed(3)}×`, '≥ 0.5×', met(f.ratio >= 0.5));
    }
    const worst = (k) => max(b.map((x) => x[k]));
    const sum = worst('page_js_heap_peak') + worst('page_wasm') + worst('worker_js_heap_peak') + worst('worker_wasm');
    // The many-groups file is held to the large files' targets: any number of groups must fit
    // the same memory, with no main-thread task over 100 ms.
    const big = f.mb >= 500 || f.groups >= 1000;
    row(`${name}: peak memory, page JS heap + page wasm + worker JS heap (with ArrayBuffers) + worker wasm`,
      `${mb(sum)} (${mb(worst('page_js_heap_peak'))} + ${mb(worst('page_wasm'))} + ${mb(worst('worker_js_heap_peak'))} + ${mb(worst('worker_wasm'))})`,
      big ? '< 300 MB' : '', big ? met(sum < 300 * MB) : '');
    row(`${name}: the page's renderer process (page, worker, Blink): peak private memory (RssAnon, sampled); peak resident set with Chromium's mapped code (VmHWM)`,
      `${mb(worst('renderer_anon_peak'))}; ${mb(worst('renderer_rss_hwm'))}`);
    const longest = worst('longest_task_ms');
    row(`${name}: longest main-thread task from the pick to the report`, longest > 0 ? `${longest.toFixed(0)} ms` : 'none over 50 ms',
      big ? '≤ 100 ms' : '', big ? met(longest <= 100) : '');
    if (!bad) {
      row(`${name}: the page's figures (exported JSON) equal the CLI's, bit for bit`, f.figures_diff === null ? 'yes' : `NO: ${f.figures_diff}`, 'yes', met(f.figures_diff === null));
      // Saved results from before the byte comparison have no export_identical.
      if (f.export_identical !== undefined) row(`${name}: the page's JSON export is the CLI's \`--json\` byte for byte`, f.export_identical ? 'yes' : 'no', 'yes', met(f.export_identical));
    }
  }
  const w = r.weight;
  const parts = (rows) => rows.map((x) => `${x.file.replace(/-[0-9a-f]{16}/, '')} ${kb(x.gzip)}`).join(', ');
  row('page weight before any drop: wasm + JS + CSS, gzip -9', `${kb(w.pageTotal.gzip)} (${parts(w.page)})`, '≤ 300 KB', met(w.pageTotal.gzip <= 300_000));
  row('the same, brotli 11', kb(w.pageTotal.brotli));
  row('scoring worker, loaded at the first drop: wasm + JS, gzip -9 / brotli 11', `${kb(w.workerTotal.gzip)} / ${kb(w.workerTotal.brotli)}`);
  const load = (l) => l.map((x) => x.toFixed(1)).join(' / ');
  return [
    '<!-- browser:begin (written by scripts/bench_browser.mjs; edit the script, not this block) -->',
    `Made by scripts/bench_browser.mjs (\`make bench-browser\`, and the last step of \`make bench\`) on ${r.when.slice(0, 16).replace('T', ' ')} UTC,`,
    `site and CLI built from commit ${r.commit || 'unknown'} (MB = 10^6 bytes),`,
    `${r.cores} cores (${r.cpu}), ${r.chromium.replace(/ built on.*/, '')} headless; load average ${load(r.load_start)} at the start and`,
    `${load(r.load_end)} at the end (1 / 5 / 15 min): other engineers were compiling on the same machine, so absolute times`,
    'are inflated; native and browser runs alternate, so the ratios compare like with like.',
    '',
    '| figure | value | target | met |',
    '|---|---|---|---|',
    ...rows,
    '<!-- browser:end -->',
  ].join('\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
