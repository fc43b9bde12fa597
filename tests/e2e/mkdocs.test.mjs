// The widget in a real MkDocs site (docs/embed.md's recipes): MkDocs 1.6 (in .venv, from PyPI;
// scripts/setup.sh installs it) builds a site whose page /guide/results/ (use_directory_urls) loads
// the widget two levels up with a relative path. The site is served at the root and under a
// sub-path (/project/, as a GitHub Pages project site): both draw the diagram and fetch the wasm
// beside the module. A page whose widget folder lacks its wasm says which URL failed, in the
// element and in a `failed` event.
import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { assert, DIST, OUT, ROOT, SAMPLES } from './harness.mjs';
import { serve } from './server.mjs';

const MKDOCS = join(ROOT, '.venv/bin/mkdocs');
const WORK = join(OUT, 'mkdocs');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-default-apps'];

/** Writes the MkDocs project and builds it into WORK/serve/<under>; the folder served. */
function build() {
  rmSync(WORK, { recursive: true, force: true });
  const docs = join(WORK, 'project/docs');
  mkdirSync(join(docs, 'guide'), { recursive: true });
  mkdirSync(join(docs, 'data'), { recursive: true });
  // The widget as a docs site ships it: dist/embed/ copied into the docs, and a copy without its
  // wasm (a host that does not serve .wasm files).
  cpSync(join(DIST, 'embed'), join(docs, 'embed'), { recursive: true });
  cpSync(join(DIST, 'embed'), join(docs, 'embed-nowasm'), { recursive: true });
  rmSync(join(docs, 'embed-nowasm/scorelens_wasm_bg.wasm'));
  cpSync(join(SAMPLES, 'choice.jsonl'), join(docs, 'data/choice.jsonl'));
  writeFileSync(join(WORK, 'project/mkdocs.yml'), [
    'site_name: scorelens widget test',
    'theme:',
    '  name: mkdocs',
    '  highlightjs: false',
    'plugins: []',
    'nav:',
    '  - Home: index.md',
    '  - Results: guide/results.md',
    '  - Broken: guide/broken.md',
    '',
  ].join('\n'));
  writeFileSync(join(docs, 'index.md'), '# Home\n\nSee [the results](guide/results.md).\n');
  // The recipe of docs/embed.md for a page published at /guide/results/: two levels up.
  writeFileSync(join(docs, 'guide/results.md'), `# Results

<script type="module" src="../../embed/scorelens.js"></script>

<div class="scorecard">
<scorelens-report id="card" src="../../data/choice.jsonl" view="reliability">The scorecard did not load: check the path to scorelens.js.</scorelens-report>
</div>
`);
  writeFileSync(join(docs, 'guide/broken.md'), `# Broken

<script>window.failures = []; document.addEventListener('failed', (e) => window.failures.push({ kind: e.detail.kind, url: e.detail.url }), true);</script>
<script type="module" src="../../embed-nowasm/scorelens.js"></script>

<div class="scorecard">
<scorelens-report id="card" src="../../data/choice.jsonl"></scorelens-report>
</div>
`);
  const site = join(WORK, 'serve');
  // The same site twice: at a server's root, and in a folder (a project site's sub-path).
  for (const dir of ['root', 'project']) {
    const r = spawnSync(MKDOCS, ['build', '--strict', '--site-dir', join(site, dir)], { cwd: join(WORK, 'project'), encoding: 'utf8' });
    assert.equal(r.status, 0, `mkdocs build failed: ${r.stderr}`);
  }
  return site;
}

let env;
before(async () => {
  if (!existsSync(MKDOCS)) return;
  const site = build();
  // One server with the site at its root, one that serves the site under /project/.
  const root = await serve(join(site, 'root'));
  const sub = await serve(site);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  env = { root, sub, browser };
});
after(async () => { if (env) { await env.browser.close(); await env.root.close(); await env.sub.close(); } });

/** Opens `path` of the served folder; the widget's state once it settles, and what was fetched. */
async function visit(server, path) {
  const page = await env.browser.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await page.goto(server.url + path);
  await page.waitForSelector('#card:is([data-state=ready], [data-state=error])', { timeout: 60000 });
  return { page, requests, state: await page.getAttribute('#card', 'data-state') };
}

const skip = existsSync(MKDOCS) ? false : 'MkDocs is not in .venv (scripts/setup.sh installs it)';

for (const [where, prefix] of [['at the root', ''], ['under a sub-path', 'project/']]) {
  test(`MkDocs, ${where}: a page below the root draws the widget's diagram`, { skip, timeout: 120000 }, async () => {
    const { page, requests, state } = await visit(prefix ? env.sub : env.root, `${prefix}guide/results/`);
    assert.equal(state, 'ready');
    assert.ok(await page.$('#card >> rect.bar'), 'the diagram is drawn');
    assert.ok(requests.includes(`/${prefix}embed/scorelens_wasm_bg.wasm`), `the wasm beside the module: ${requests.join(', ')}`);
    assert.ok(requests.includes(`/${prefix}data/choice.jsonl`), 'the file beside the page\'s data');
    await page.close();
  });
}

test('MkDocs, under a sub-path: a widget whose wasm is missing says which URL failed', { skip, timeout: 120000 }, async () => {
  const { page, state } = await visit(env.sub, 'project/guide/broken/');
  assert.equal(state, 'error');
  const said = await page.textContent('#card >> [data-testid=widget-broken]');
  const url = `${env.sub.url}project/embed-nowasm/scorelens_wasm_bg.wasm`;
  assert.ok(said.includes(`scorelens could not run: could not load its WebAssembly from ${url}`), said);
  assert.deepEqual(await page.evaluate(() => window.failures), [{ kind: 'load', url }]);
  await page.close();
});
