// What the docs-generator tests (mkdocs.test.mjs, sphinx.test.mjs) share: the widget's folder as
// a docs site ships it, plus a copy without its wasm; the built site served twice, at a server's
// root and under /project/ (a project site's sub-path); and the two checks made on each site: a
// page below the root draws the diagram with the wasm fetched beside the module, and a page
// whose widget folder lacks its wasm says which URL failed, in the element and in a `failed` event.
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { assert, DIST, SAMPLES } from './harness.mjs';
import { serve } from './server.mjs';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-default-apps'];

/** A tool of the project's .venv, or a failure that says how to install it. */
export function tool(path, name) {
  assert.ok(existsSync(path), `${name} is not in .venv: scripts/setup.sh installs it`);
  return path;
}

/**
 * Copies into `dir` what a docs site ships beside its pages: `embed/` (dist/embed/),
 * `embed-nowasm/` (the same without its wasm: a host that does not serve .wasm files) and
 * `data/choice.jsonl`, the file the widget scores.
 */
export function shipWidget(dir) {
  mkdirSync(join(dir, 'data'), { recursive: true });
  cpSync(join(DIST, 'embed'), join(dir, 'embed'), { recursive: true });
  cpSync(join(DIST, 'embed'), join(dir, 'embed-nowasm'), { recursive: true });
  rmSync(join(dir, 'embed-nowasm/scorelens_wasm_bg.wasm'));
  cpSync(join(SAMPLES, 'choice.jsonl'), join(dir, 'data/choice.jsonl'));
}

/**
 * Serves a built site: `site` holds it twice, as `root/` (served at a server's root) and as
 * `project/` (served under /project/ by a server of `site`). Also starts Chromium. Returns
 * { root, sub, browser, close }.
 */
export async function serveSite(site) {
  const root = await serve(join(site, 'root'));
  const sub = await serve(site);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  return {
    root,
    sub,
    browser,
    close: async () => { await browser.close(); await root.close(); await sub.close(); },
  };
}

/**
 * Opens `path` on `server`; the page, the paths it fetched, the errors thrown from the widget's
 * files, and the state of the widget `#card` once it settles.
 */
export async function visit(env, server, path) {
  const page = await env.browser.newPage();
  const requests = [];
  const errors = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  // The widget's errors only: a theme's own scripts are not under test (MkDocs' theme throws one
  // from bootstrap when its search plugin is off, as here).
  page.on('pageerror', (e) => { if (/\/embed[^/]*\//.test(e.stack || '')) errors.push(e.stack); });
  await page.goto(server.url + path);
  await page.waitForSelector('#card:is([data-state=ready], [data-state=error])', { timeout: 60000 });
  return { page, requests, errors, state: await page.getAttribute('#card', 'data-state') };
}

/** The page at `path` below `prefix` draws the widget's diagram from files beside the module and the page's data. */
export async function drawsDiagram(env, prefix, path) {
  const { page, requests, errors, state } = await visit(env, prefix ? env.sub : env.root, `${prefix}${path}`);
  assert.equal(state, 'ready', `the widget at /${prefix}${path}`);
  assert.ok(await page.$('#card >> rect.bar'), 'the diagram is drawn');
  assert.ok(requests.includes(`/${prefix}embed/scorelens_wasm_bg.wasm`), `the wasm beside the module: ${requests.join(', ')}`);
  assert.ok(requests.includes(`/${prefix}data/choice.jsonl`), `the file from the site's data: ${requests.join(', ')}`);
  assert.deepEqual(errors, [], 'page errors');
  await page.close();
}

/**
 * The page at `path` under /project/, whose widget loads from embed-nowasm/, shows the message
 * with the wasm's URL and records a `failed` event with it (the page keeps them in
 * `window.failures`).
 */
export async function saysWhichUrlFailed(env, path) {
  const { page, state } = await visit(env, env.sub, `project/${path}`);
  assert.equal(state, 'error');
  const said = await page.textContent('#card >> [data-testid=widget-broken]');
  const url = `${env.sub.url}project/embed-nowasm/scorelens_wasm_bg.wasm`;
  assert.ok(said.includes(`scorelens could not run: could not load its WebAssembly from ${url}`), said);
  assert.deepEqual(await page.evaluate(() => window.failures), [{ kind: 'load', url }]);
  await page.close();
}

/** The inline script a broken page carries: it keeps every `failed` event's kind and URL. */
export const LISTEN = "<script>window.failures = []; document.addEventListener('failed', (e) => window.failures.push({ kind: e.detail.kind, url: e.detail.url }), true);</script>";
