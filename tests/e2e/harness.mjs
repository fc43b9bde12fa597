// Shared pieces of the browser tests: the static server, Chromium, a page that fails the test on
// any page error or console error, a record of every request, and the native CLI for reference.
import { chromium } from 'playwright-core';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { serve } from './server.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// The built site: dist/ as `make serve` builds it, or SCORELENS_SITE (`make test` builds its own copy
// in target/site, so that a build elsewhere in the tree cannot swap files under a running test).
export const DIST = process.env.SCORELENS_SITE || join(ROOT, 'dist');
export const SAMPLES = join(ROOT, 'www/samples');
export const OUT = join(ROOT, 'target/e2e');
export const CLI = process.env.SCORELENS_BIN || join(ROOT, 'target/release/scorelens');
mkdirSync(OUT, { recursive: true });

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-default-apps'];

/** Every file under dist/, as the paths the page may ask for. */
export function distFiles() {
  const walk = (d) => readdirSync(d, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
  return new Set(walk(DIST).map((f) => '/' + relative(DIST, f).split('\\').join('/')));
}

/** The samples the site lists (dist/samples/index.json). */
export function samples() {
  return JSON.parse(readFileSync(join(DIST, 'samples/index.json'), 'utf8'));
}

/** Starts the server and the browser once per test file. */
export async function setup() {
  const server = await serve(DIST);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  return { server, browser, close: async () => { await browser.close(); await server.close(); } };
}

/**
 * A fresh context and page on the app. `errors` collects page errors and console errors, and
 * `requests` every URL the context asks for (page, workers, service worker).
 */
export async function open(env, { colorScheme = 'light', acceptDownloads = true } = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme, acceptDownloads });
  const errors = [];
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); d.dismiss(); });
  await page.goto(env.server.url);
  await page.waitForSelector('[data-testid=drop-zone]');
  await page.waitForSelector('button.sample');
  return {
    page,
    context,
    errors,
    requests,
    /** Fails on errors, and on any request beyond the site's own files. */
    async done() {
      await page.waitForTimeout(50);
      assert.deepEqual(errors, [], 'page errors or console errors');
      const own = distFiles();
      const origin = new URL(env.server.url).origin;
      for (const url of requests) {
        if (url.startsWith('blob:') || url.startsWith('data:')) continue;
        const u = new URL(url);
        assert.equal(u.origin, origin, `request to another origin: ${url}`);
        const path = u.pathname === '/' ? '/index.html' : u.pathname;
        assert.ok(own.has(path), `request for something that is not a static asset of the site: ${url}`);
      }
      await context.close();
    },
  };
}

/** The CLI's JSON report for files (all in one folder), run from that folder as the browser names them. */
export function cli(files, extra = []) {
  const dir = dirname(files[0]);
  const r = spawnSync(CLI, ['score', '--json', ...extra, ...files.map((f) => basename(f))], {
    cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, report: r.status === 0 ? JSON.parse(r.stdout) : null };
}

/**
 * Waits until the page says it is `want` (`data-status` on <main>): `idle` (no runs), `reading`
 * (the worker has work under way for the page, including ending what was closed or stopped),
 * `done` or `error` (the run shown failed). Tests wait for this, never for a fixed time, before
 * checking that nothing more happened.
 */
export async function status(page, want, timeout = 60000) {
  await page.waitForSelector(`main[data-testid=app][data-status=${want}]`, { timeout });
}

/** Waits until the selected run shows a report or says why it has none. */
export async function settled(page, timeout = 60000) {
  await page.waitForSelector('[data-testid=report], [data-testid=failed]', { timeout });
  return (await page.$('[data-testid=report]')) !== null;
}

/**
 * Makes the files just dropped or picked one run, as a user would with the "One run" button
 * above the report (the page groups files into runs by what they say, src/web/grouping.rs).
 */
async function oneRun(page) {
  await page.waitForSelector('[data-testid=grouping]');
  if ((await page.getAttribute('[data-testid=grouping]', 'data-runs')) !== '1') {
    await page.click('[data-testid=grouping] button[data-how=one]');
    await page.waitForSelector('[data-testid=grouping][data-how=one]');
  }
}

/** Picks files through the file input; `together` reads them as one run. */
export async function pick(page, paths, together = false) {
  await page.setInputFiles('[data-testid=file-input]', paths);
  if (together) await oneRun(page);
}

/** Drops files with a synthetic DataTransfer, as a drag from the desktop would. */
export async function drop(page, paths, together = false) {
  const files = paths.map((p) => ({ name: basename(p), b64: readFileSync(p).toString('base64') }));
  await page.evaluate((files) => {
    const dt = new DataTransfer();
    for (const f of files) {
      const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name));
    }
    const zone = document.querySelector('[data-testid=drop-zone]');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    }
  }, files);
  if (together) await oneRun(page);
}

/**
 * Clicks a sample's button. Once runs are shown the drop zone folds and its samples sit behind a
 * closed disclosure, as a user finds them: it is opened first.
 */
export async function clickSample(page, name) {
  // The page may redraw the zone (closed again) between the opening and the click, as when a
  // failed run's message arrives: open it again and retry, as a user would.
  for (let tries = 1; ; tries += 1) {
    await page.evaluate(() => { const d = document.querySelector('details.samples'); if (d) d.open = true; });
    try {
      await page.click(`button.sample[data-sample="${name}"]`, { timeout: tries < 4 ? 5000 : 30000 });
      return;
    } catch (e) {
      if (tries >= 4) throw e;
    }
  }
}

/** `data-value` of the element matching `selector` as a number (NaN when absent or empty). */
export async function value(page, selector) {
  const v = await page.getAttribute(selector, 'data-value');
  return v === null || v === '' ? null : Number(v);
}

export function sizeOf(path) {
  return statSync(path).size;
}

/** A canonical file of `n` two-option items (one in three answered wrong) in OUT; its path. */
export function manyItems(name, n) {
  const path = join(OUT, name);
  const lines = [];
  for (let i = 0; i < n; i++) lines.push(`{"id":"${i}","options":["A","B"],"gold":"A","answer":"${i % 3 ? 'A' : 'B'}"}`);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/**
 * A canonical file whose `group` is an id: `n` four-option items, item i in group `task_i`, wrong
 * when i is a multiple of 4 (so accuracy is exactly 0.75). Written once at `path`; its path.
 */
export function groupsFile(path, n) {
  if (existsSync(path) && statSync(path).size > n * 100) return path;
  const lines = ['{"scorelens":1,"model":"ids-as-groups"}'];
  for (let i = 0; i < n; i++) {
    const probs = i % 4 === 0 ? '{"A":0.2,"B":0.6,"C":0.1,"D":0.1}' : '{"A":0.7,"B":0.1,"C":0.1,"D":0.1}';
    lines.push(`{"id":"question-${String(i).padStart(7, '0')}","type":"choice","group":"task_${i}","options":["A","B","C","D"],"gold":"A","probs":${probs}}`);
  }
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

export { assert, execFileSync };
