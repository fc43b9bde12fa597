// The widget in a real MkDocs site (docs/embed.md's recipes): MkDocs 1.6 (in .venv, from PyPI;
// scripts/setup.sh installs it) builds a site whose page /guide/results/ (use_directory_urls) loads
// the widget two levels up with a relative path. The site is served at the root and under a
// sub-path (/project/, as a GitHub Pages project site): both draw the diagram and fetch the wasm
// beside the module. A page whose widget folder lacks its wasm says which URL failed, in the
// element and in a `failed` event. The serving and the checks are docs_site.mjs's, which the
// Sphinx test shares.
import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, OUT, ROOT } from './harness.mjs';
import { drawsDiagram, LISTEN, saysWhichUrlFailed, serveSite, shipWidget, tool } from './docs_site.mjs';

const WORK = join(OUT, 'mkdocs');

/** Writes the MkDocs project and builds it twice into WORK/serve/{root,project}; that folder. */
function build() {
  const mkdocs = tool(join(ROOT, '.venv/bin/mkdocs'), 'MkDocs');
  rmSync(WORK, { recursive: true, force: true });
  const docs = join(WORK, 'project/docs');
  mkdirSync(join(docs, 'guide'), { recursive: true });
  // MkDocs copies any file that is not Markdown as it is: the widget's folder goes in the docs.
  shipWidget(docs);
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

${LISTEN}
<script type="module" src="../../embed-nowasm/scorelens.js"></script>

<div class="scorecard">
<scorelens-report id="card" src="../../data/choice.jsonl"></scorelens-report>
</div>
`);
  const site = join(WORK, 'serve');
  // The same site twice: at a server's root, and in a folder (a project site's sub-path).
  for (const dir of ['root', 'project']) {
    const r = spawnSync(mkdocs, ['build', '--strict', '--site-dir', join(site, dir)], { cwd: join(WORK, 'project'), encoding: 'utf8' });
    assert.equal(r.status, 0, `mkdocs build failed: ${r.stderr}`);
  }
  return site;
}

let env;
before(async () => { env = await serveSite(build()); });
after(async () => { if (env) await env.close(); });

for (const [where, prefix] of [['at the root', ''], ['under a sub-path', 'project/']]) {
  test(`MkDocs, ${where}: a page below the root draws the widget's diagram`, { timeout: 120000 }, async () => {
    await drawsDiagram(env, prefix, 'guide/results/');
  });
}

test('MkDocs, under a sub-path: a widget whose wasm is missing says which URL failed', { timeout: 120000 }, async () => {
  await saysWhichUrlFailed(env, 'guide/broken/');
});
