// The widget in a real Sphinx site (docs/embed.md's Sphinx recipe): Sphinx 9 (in .venv, from PyPI;
// scripts/setup.sh installs it) builds, with warnings as errors, a site whose page
// guide/results.html (the html builder) holds the widget in a `.. raw:: html` block and loads it one
// level up with a relative path; `html_extra_path` copies the widget's folder and the data to the
// site's root. Served at a server's root and under /project/ (a project site's sub-path), the page
// draws the diagram with the wasm fetched beside the module; a page whose widget folder lacks its
// wasm says which URL failed, in the element and in a `failed` event (docs_site.mjs's checks,
// shared with the MkDocs test).
import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, OUT, ROOT } from './harness.mjs';
import { drawsDiagram, LISTEN, saysWhichUrlFailed, serveSite, shipWidget, tool } from './docs_site.mjs';

const WORK = join(OUT, 'sphinx');

/** An HTML fragment as the body of a `.. raw:: html` directive (indented three spaces). */
const raw = (html) => `.. raw:: html\n\n${html.split('\n').map((l) => (l ? `   ${l}` : '')).join('\n')}\n`;

/** Writes the Sphinx project and builds it twice into WORK/serve/{root,project}; that folder. */
function build() {
  const sphinx = tool(join(ROOT, '.venv/bin/sphinx-build'), 'Sphinx');
  rmSync(WORK, { recursive: true, force: true });
  const src = join(WORK, 'project/source');
  mkdirSync(join(src, 'guide'), { recursive: true });
  // Sphinx copies the folders of html_extra_path to the site's root as they are.
  shipWidget(join(src, '_extra'));
  writeFileSync(join(src, 'conf.py'), [
    "project = 'scorelens widget test'",
    'extensions = []',
    "html_theme = 'alabaster'",
    "html_extra_path = ['_extra']",
    "exclude_patterns = ['_extra']",
    '',
  ].join('\n'));
  writeFileSync(join(src, 'index.rst'), `Home
====

See :doc:\`guide/results\`.

.. toctree::

   guide/results
   guide/broken
`);
  // The recipe of docs/embed.md for a page published at /guide/results.html: one level up.
  writeFileSync(join(src, 'guide/results.rst'), `Results
=======

${raw(`<script type="module" src="../embed/scorelens.js"></script>
<scorelens-report id="card" src="../data/choice.jsonl" view="reliability">The scorecard did not load: check the path to scorelens.js.</scorelens-report>`)}`);
  writeFileSync(join(src, 'guide/broken.rst'), `Broken
======

${raw(`${LISTEN}
<script type="module" src="../embed-nowasm/scorelens.js"></script>
<scorelens-report id="card" src="../data/choice.jsonl"></scorelens-report>`)}`);
  const site = join(WORK, 'serve');
  for (const dir of ['root', 'project']) {
    const r = spawnSync(sphinx, ['-W', '-q', '-b', 'html', src, join(site, dir)], { encoding: 'utf8' });
    assert.equal(r.status, 0, `sphinx-build failed: ${r.stderr}`);
  }
  return site;
}

let env;
before(async () => { env = await serveSite(build()); });
after(async () => { if (env) await env.close(); });

for (const [where, prefix] of [['at the root', ''], ['under a sub-path', 'project/']]) {
  test(`Sphinx, ${where}: a page below the root draws the widget's diagram`, { timeout: 120000 }, async () => {
    await drawsDiagram(env, prefix, 'guide/results.html');
  });
}

test('Sphinx, under a sub-path: a widget whose wasm is missing says which URL failed', { timeout: 120000 }, async () => {
  await saysWhichUrlFailed(env, 'guide/broken.html');
});
