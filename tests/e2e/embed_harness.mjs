// Shared pieces of the embed browser tests: the site (dist/, as `make serve` serves it), Chromium,
// pages that fail on any page or console error and record every request, the widgets' shadow
// roots, and the native CLI for the reference figures.
import { chromium } from 'playwright-core';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { serve } from './server.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SITE = process.env.SCORELENS_SITE || join(ROOT, 'dist');
export const SAMPLES = join(ROOT, 'www/samples');
const CLI = process.env.SCORELENS_BIN || join(ROOT, 'target/debug/scorelens');

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-default-apps'];

/** The server and the browser, once per test file. */
export async function setup() {
  assert.ok(existsSync(join(SITE, 'embed.html')), `${SITE}/embed.html is missing: build the site (trunk build)`);
  assert.ok(existsSync(join(SITE, 'embed/scorelens_wasm_bg.wasm')), `${SITE}/embed/ is missing: Trunk's build hook runs scripts/dist.sh --stage`);
  const server = await serve(SITE);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  return { server, browser, close: async () => { await browser.close(); await server.close(); } };
}

function files(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

/**
 * A fresh page at `path`. `pages` maps extra paths to HTML the test serves itself (through the
 * page's own origin). `allow` lists console errors the test expects (a 404 it asked for);
 * `block` lists paths answered with a 404.
 */
export async function open(env, path, { pages = {}, allow = [], width = 1200, block = [] } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height: 900 } });
  const errors = [];
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  // `block`: paths the server answers 404 for, as a host that does not serve them would.
  for (const p of block) {
    await context.route(env.server.url + p.replace(/^\//, ''), (route) => route.fulfill({ status: 404, body: 'not found' }));
  }
  for (const [p, html] of Object.entries(pages)) {
    await context.route(env.server.url + p, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  }
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !allow.some((a) => m.text().includes(a))) errors.push(`console: ${m.text()}`);
  });
  await page.goto(env.server.url + path);
  const origin = new URL(env.server.url).origin;
  const own = new Set(files(SITE).map((f) => '/' + relative(SITE, f).split('\\').join('/')));
  return {
    page,
    requests,
    /** Fails on errors, and on any request that is not one of the site's own files. */
    async done({ missing = [] } = {}) {
      await page.waitForTimeout(50);
      assert.deepEqual(errors, [], 'page errors or console errors');
      for (const url of requests) {
        if (url.startsWith('blob:') || url.startsWith('data:')) continue;
        const u = new URL(url);
        assert.equal(u.origin, origin, `a request left the page's origin: ${url}`);
        const known = own.has(u.pathname) || u.pathname.slice(1) in pages || missing.includes(u.pathname);
        assert.ok(known, `a request for something the site does not serve: ${url}`);
      }
      await context.close();
    },
  };
}

/** Waits until the widget `selector` has settled (`data-state` ready or error); returns the state. */
export async function settled(page, selector, timeout = 60000) {
  await page.waitForSelector(`${selector}:is([data-state=ready], [data-state=error])`, { timeout });
  return page.getAttribute(selector, 'data-state');
}

/** The CLI's JSON report for files in one folder, run there so the names match the browser's. */
export function cli(paths, extra = []) {
  const r = spawnSync(CLI, ['score', '--json', ...extra, ...paths.map((p) => basename(p))], {
    cwd: dirname(paths[0]), encoding: 'utf8', maxBuffer: 1 << 28,
  });
  assert.equal(r.status, 0, `${CLI} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Every `[data-figure]` with a `data-value` (its own or a card's number) inside the widget's shadow root, as { figure: value }. */
export async function figures(page, selector) {
  return page.$eval(selector, (el) => {
    const out = {};
    for (const f of el.shadowRoot.querySelectorAll('[data-figure]')) {
      // A card carries its figure's name, and its value on the number inside.
      const holder = f.hasAttribute('data-value') ? f : f.querySelector('[data-value]');
      if (!holder) continue;
      const v = holder.getAttribute('data-value');
      out[f.getAttribute('data-figure')] = v === '' ? null : Number(v);
    }
    return out;
  });
}

/** Where a widget's `data-figure` is in the report (cards show conditioning figures by default). */
export function lookup(report, figure) {
  const cards = {
    i: 'ic.i', c: 'ic.c', accuracy: 'metrics.accuracy', normalized: 'metrics.normalized',
    ece: 'conditioning.ece', brier: 'conditioning.brier', epa: 'conditioning.epa',
    invalid_share: 'metrics.invalid_share', outside_mass: 'metrics.outside_mass',
  };
  let path = cards[figure] ?? figure;
  const ic = /^ic\.(choice|binary|rating)\.(cc|c)$/.exec(path);
  if (ic) path = `ic.types.${ic[1]}.${ic[2]}`;
  const sections = /^rewardbench\.(sections|subsets)\.(.+)$/.exec(path);
  if (sections) return report.rewardbench?.[sections[1]]?.[sections[2]];
  return path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), report);
}

/**
 * Checks every figure the widget shows against the CLI's report: bit for bit, or within 1e-12
 * relative (libm differs between glibc and wasm in the last bits). Returns how many were checked.
 */
export function checkFigures(shown, report, label) {
  let n = 0;
  for (const [figure, value] of Object.entries(shown)) {
    const want = lookup(report, figure);
    assert.notEqual(want, undefined, `${label}: ${figure} is not in the CLI's report`);
    if (value === null || want === null) {
      assert.equal(value, want, `${label}: ${figure}`);
    } else {
      const close = value === want || Math.abs(value - want) <= 1e-12 * Math.max(Math.abs(value), Math.abs(want));
      assert.ok(close, `${label}: ${figure} shows ${value}, the CLI says ${want}`);
    }
    n += 1;
  }
  return n;
}

/** Drops files on the widget's drop zone with a DataTransfer, as a drag from the desktop would. */
export async function drop(page, selector, paths) {
  const list = paths.map((p) => ({ name: basename(p), b64: readFileSync(p).toString('base64') }));
  await page.$eval(selector, (el, list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name));
    const zone = el.shadowRoot.querySelector('[data-testid=widget-drop]');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    }
  }, list);
}

export { assert };
