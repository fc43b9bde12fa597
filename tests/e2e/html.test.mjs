// The report to share as one file: the page's "Report HTML" is the CLI's `score --format html`
// byte for byte (with the bootstrap's intervals once the page has them, as the JSON export), and
// "Comparison HTML" is `compare --format html`; the file, opened in Chromium with JavaScript off,
// asks for nothing, shows its headline and diagrams, prints, and every figure it marks equals the
// page's JSON export.
import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, CLI, OUT, pick, SAMPLES, settled, setup, open } from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

const BOOT = ['--bootstrap', '2000', '--seed', '2024'];

/** The CLI run from the files' folder, so that files are named as the browser names them. */
function run(args, files) {
  const r = spawnSync(CLI, [...args, ...files.map((f) => basename(f))], {
    cwd: dirname(files[0]), encoding: 'utf8', maxBuffer: 1 << 28,
  });
  assert.equal(r.status, 0, `scorelens ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: d.suggestedFilename(), text: readFileSync(await d.path()).toString('utf8') };
}

/** Every tag's data-figure and data-value, read from the HTML text. */
function marked(html) {
  const out = [];
  for (const m of html.matchAll(/<[a-z]+\b[^>]*>/g)) {
    const f = /data-figure="([^"]*)"/.exec(m[0]);
    const v = /data-value="([^"]*)"/.exec(m[0]);
    if (f && v) out.push([f[1].replaceAll('&amp;', '&'), v[1]]);
  }
  return out;
}

/** The JSON value at a report path. */
function at(json, path) {
  const g = /^groups\.(.*)\.accuracy$/.exec(path);
  if (g) return json.groups.find((x) => x.name === g[1]).accuracy;
  const rb = /^rewardbench\.(sections|subsets)\.(.*)$/.exec(path);
  if (rb) return json.rewardbench[rb[1]][rb[2]];
  return path.split('.').reduce((v, k) => v?.[k], json);
}

const FILES = ['choice.jsonl', 'binary.jsonl', 'jevbench-public-231.jsonl', 'rewardbench-v2-scores.json'];

test('Report HTML is the CLI\'s --format html, byte for byte, before and after the bootstrap', async () => {
  for (const name of FILES) {
    const file = join(SAMPLES, name);
    const t = await open(env);
    const { page } = t;
    await pick(page, [file]);
    assert.ok(await settled(page), `${name}: a report`);
    await page.waitForSelector('.report [data-testid=intervals-status][data-state=done]', { timeout: 120000 });
    const html = await download(page, '.report [data-export=html]');
    assert.match(html.name, /\.report\.html$/);
    assert.equal(html.text, run(['score', '--format', 'html', ...BOOT], [file]), `${name}: the CLI's --format html --bootstrap 2000 --seed 2024`);
    // Its figures are the JSON export's, the same moment.
    const json = JSON.parse((await download(page, '.report [data-export=json]')).text);
    const pairs = marked(html.text);
    assert.ok(pairs.length >= 5, `${name}: figures marked`);
    for (const [path, v] of pairs) {
      const want = at(json, path);
      assert.ok(want !== undefined, `${name}: ${path} is in the JSON`);
      if (want === null) assert.equal(v, '', `${name}: ${path}`);
      else assert.ok(Object.is(Number(v), want), `${name}: ${path} ${v} vs ${want}`);
    }
    writeFileSync(join(OUT, `export-${name}.html`), html.text);
    await t.done();
  }
});

test('Comparison HTML is the CLI\'s compare --format html, byte for byte', async () => {
  const files = [join(SAMPLES, 'compare/model-a.jsonl'), join(SAMPLES, 'compare/model-b.jsonl')];
  const t = await open(env);
  const { page } = t;
  await pick(page, files);
  await page.waitForSelector('[data-export=comparison-html]', { timeout: 120000 });
  const html = await download(page, '[data-export=comparison-html]');
  assert.equal(html.text, run(['compare', '--format', 'html'], files));
  assert.ok(html.text.includes('href="#comparison"') && html.text.includes('href="#run-2"'), 'links to the comparison and the runs');
  writeFileSync(join(OUT, 'export-comparison.html'), html.text);
  await t.done();
});

test('the HTML export with JavaScript off: no request, the headline and diagrams shown, printable', async () => {
  const name = 'choice.jsonl';
  const path = join(OUT, `offline-${name}.html`);
  writeFileSync(path, run(['score', '--format', 'html'], [join(SAMPLES, name)]));
  const json = JSON.parse(run(['score', '--json'], [join(SAMPLES, name)]));
  const context = await env.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  const url = pathToFileURL(path).href;
  await page.goto(url);
  await page.waitForLoadState('load');
  assert.deepEqual(requests, [url], 'the document alone, nothing else');
  // What a reader sees: the first card is the headline's, written as the JSON's figure.
  const card = page.locator('.card .value').first();
  assert.equal(await card.getAttribute('data-figure'), 'metrics.accuracy');
  assert.equal(await card.textContent(), `${(json.metrics.accuracy * 100).toFixed(1)}%`);
  const bars = await page.locator('svg rect.bar').count();
  assert.equal(bars, json.conditioning.bins.filter((b) => b.count > 0).length + json.mixing.bins.filter((b) => b.count > 0).length, 'both readings drawn');
  const box = await page.locator('figure svg').first().boundingBox();
  assert.ok(box.width > 300, `the diagram has room: ${box.width}`);
  await page.screenshot({ path: join(OUT, 'export-offline.png'), fullPage: true });
  const pdf = await page.pdf({ format: 'A4' });
  assert.ok(pdf.subarray(0, 5).toString() === '%PDF-' && pdf.length > 20000, 'it prints');
  writeFileSync(join(OUT, 'export-offline.pdf'), pdf);
  assert.deepEqual(requests, [url], 'printing asks for nothing either');
  await context.close();
});
