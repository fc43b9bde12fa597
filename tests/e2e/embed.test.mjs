// The embed example page (www/embed.html, served from dist/ as `make serve` serves it): both
// widgets render the CLI's figures, the host page's loud CSS changes nothing inside them and
// theirs nothing outside, a dropped file is scored in place, attributes take effect, a page of
// three widgets fetches the wasm once, a Parquet table and promptfoo's groups read as the CLI reads
// them, and no request ever leaves the page's origin.
import { after, before, test } from 'node:test';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { assert, checkFigures, cli, drop, figures, open, ROOT, SAMPLES, settled, setup } from './embed_harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const REFERENCE = join(SAMPLES, 'jevbench-public-231.jsonl');

/** Computed styles of the widget's parts: what host CSS would change if it leaked in. */
async function looks(page, selector) {
  return page.$eval(selector, (el) => {
    const root = el.shadowRoot;
    const pick = (q, props) => {
      const e = root.querySelector(q);
      if (!e) return null;
      const cs = getComputedStyle(e);
      return Object.fromEntries(props.map((p) => [p, cs.getPropertyValue(p)]));
    };
    const text = ['font-family', 'font-size', 'font-style', 'color', 'letter-spacing', 'word-spacing', 'text-transform', 'line-height', 'text-align'];
    return {
      root: pick('.sl-root', [...text, 'background-color']),
      card: pick('.card', ['background-color', 'border-top-width', 'border-top-style', 'border-top-left-radius', 'padding-top']),
      value: pick('.card-value', [...text, 'font-weight']),
      heading: pick('h3', ['font-size', 'font-family', 'color', 'text-shadow']),
      bar: pick('rect.bar', ['fill', 'stroke', 'stroke-width']),
      svg: pick('svg', ['transform', 'background-color']),
      button: pick('button', ['background-color', 'border-top-left-radius', 'font-size', 'transform']),
      cell: pick('table.figures td', ['background-color', 'border-top-style', 'font-size', 'font-family']),
    };
  });
}

const plain = (body) => `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="embed/scorelens.js"></script></head><body style="margin:0">${body}</body></html>`;

test('embed.html: both widgets render, with the CLI\'s figures, untouched by the host page\'s CSS', { timeout: 120000 }, async () => {
  const t = await open(env, 'embed.html');
  const { page } = t;
  assert.equal(await settled(page, '#reference'), 'ready');
  await page.waitForSelector('#yours[data-state=empty]');
  assert.ok(await page.$('#yours >> [data-testid=widget-drop]'), 'the second widget is a drop zone');

  // Every figure the first widget shows is the CLI's.
  const report = cli([REFERENCE]);
  const shown = await figures(page, '#reference');
  const n = checkFigures(shown, report, 'reference');
  assert.ok(n >= 20, `${n} figures compared`);
  for (const key of ['i', 'c', 'accuracy', 'ece', 'conditioning.ece_em', 'mixing.nll', 'ic.choice.cc', 'items']) {
    assert.ok(key in shown, `the full view shows ${key}`);
  }
  const accuracy = await page.textContent('#reference >> [data-figure=accuracy] .card-value');
  assert.equal(accuracy.trim(), `${(report.metrics.accuracy * 100).toFixed(1)}%`);
  // The diagram's bars are the report's equal-width bins.
  const bars = await page.$$eval('#reference >> rect.bar', (rs) => rs.map((r) => Number(r.dataset.count)));
  assert.deepEqual(bars, report.conditioning.bins.filter((b) => b.count > 0).map((b) => b.count));

  // The same widget on a page with no style of its own looks exactly the same.
  const host = await looks(page, '#reference');
  const other = await open(env, 'embed-plain.html', {
    pages: { 'embed-plain.html': plain('<scorelens-report id="w" src="samples/jevbench-public-231.jsonl"></scorelens-report>') },
  });
  assert.equal(await settled(other.page, '#w'), 'ready');
  assert.deepEqual(host, await looks(other.page, '#w'), 'host CSS reached into the widget');
  await other.done();
  // …and the host page's rules are really there (so the comparison could fail).
  assert.match(await page.$eval('main > p', (p) => getComputedStyle(p).fontFamily), /Comic/);
  assert.doesNotMatch(host.root['font-family'], /Comic/);
  assert.doesNotMatch(host.value['font-size'], /^50px$/);
  assert.equal(host.root['text-transform'], 'none');
  assert.equal(host.svg.transform, 'none');

  // Nothing of the widget's sheet reaches the host page: its `.visually-hidden` stays readable.
  const probe = await page.$eval('#leak-probe', (p) => ({ width: p.getBoundingClientRect().width, position: getComputedStyle(p).position }));
  assert.equal(probe.position, 'static');
  assert.ok(probe.width > 200, `the probe is ${probe.width}px wide`);
  await t.done();
});

test('the widget is as wide as its container, and lays out for that width', { timeout: 120000 }, async () => {
  const t = await open(env, 'embed.html');
  const { page } = t;
  await settled(page, '#reference');
  const widths = await page.$eval('#reference', (el) => ({
    main: el.parentElement.clientWidth,
    host: el.getBoundingClientRect().width,
    root: el.shadowRoot.querySelector('.sl-root').getBoundingClientRect().width,
  }));
  assert.equal(widths.host, widths.main);
  assert.ok(Math.abs(widths.root - widths.host) < 1, `root ${widths.root} in host ${widths.host}`);
  const columns = () => page.$eval('#reference', (el) => [...el.shadowRoot.querySelector('.columns').children].map((c) => Math.round(c.getBoundingClientRect().left)));
  const wide = await columns();
  assert.notEqual(wide[0], wide[1], 'side by side in a wide container');
  await page.$eval('#reference', (el) => { el.style.width = '460px'; });
  await page.waitForFunction(() => {
    const cols = [...document.querySelector('#reference').shadowRoot.querySelector('.columns').children];
    return cols[0].getBoundingClientRect().left === cols[1].getBoundingClientRect().left;
  });
  const narrow = await page.$eval('#reference', (el) => el.shadowRoot.querySelector('.sl-root').getBoundingClientRect().width);
  assert.ok(narrow <= 460, `${narrow}px in a 460px element`);
  await t.done();
});

test('a file dropped into the second widget is scored under the page\'s profile', { timeout: 120000 }, async () => {
  const t = await open(env, 'embed.html');
  const { page } = t;
  await page.waitForSelector('#yours[data-state=empty]');
  const scored = page.$eval('#yours', (el) => new Promise((ok) => el.addEventListener('scored', (e) => ok(e.detail), { once: true })));
  const file = join(SAMPLES, 'choice.jsonl');
  await drop(page, '#yours', [file]);
  assert.equal(await settled(page, '#yours'), 'ready');
  const report = cli([file], ['--profile', 'jevbench-public-231']);
  const detail = await scored;
  assert.equal(detail.profile, 'jevbench-public-231');
  assert.equal(detail.items, report.items);
  assert.deepEqual(detail.metrics, report.metrics);
  const n = checkFigures(await figures(page, '#yours'), report, 'dropped');
  assert.ok(n >= 8, `${n} figures compared`);
  assert.match(await page.textContent('#yours >> [data-testid=widget-head]'), /choice\.jsonl/);
  // The drop zone stays, slimmer, for the next file; the file picker works the same.
  assert.ok(await page.$('#yours >> [data-testid=widget-drop].compact'));
  const second = join(SAMPLES, 'binary.jsonl');
  await page.setInputFiles('#yours >> [data-testid=widget-file-input]', second);
  await page.waitForFunction(() => document.querySelector('#yours').report?.files?.[0]?.name === 'binary.jsonl');
  await settled(page, '#yours');
  checkFigures(await figures(page, '#yours'), cli([second], ['--profile', 'jevbench-public-231']), 'picked');
  // The first widget is untouched.
  checkFigures(await figures(page, '#reference'), cli([REFERENCE]), 'reference after the drop');
  await t.done();
});

test('attributes change the view, the bins, the theme and the file', { timeout: 120000 }, async () => {
  const t = await open(env, 'embed.html');
  const { page } = t;
  await settled(page, '#reference');
  const report = cli([REFERENCE]);
  await page.$eval('#reference', (el) => el.setAttribute('view', 'reliability'));
  await page.waitForSelector('#reference >> .sl-root[data-view=reliability]');
  assert.equal(await page.$('#reference >> [data-testid=ic]'), null, 'only the diagram');
  await page.$eval('#reference', (el) => el.setAttribute('binning', 'mass'));
  await page.waitForSelector('#reference >> [data-testid=binning-mass]:checked');
  const mass = await page.$$eval('#reference >> rect.bar', (rs) => rs.map((r) => Number(r.dataset.count)));
  assert.equal(mass.reduce((a, b) => a + b, 0), report.conditioning.items, 'equal-mass bins hold every item once');
  assert.notDeepEqual(mass, report.conditioning.bins.filter((b) => b.count > 0).map((b) => b.count));

  const background = () => page.$eval('#reference', (el) => getComputedStyle(el.shadowRoot.querySelector('.sl-root')).backgroundColor);
  const light = await background();
  await page.$eval('#reference', (el) => el.setAttribute('theme', 'dark'));
  await page.waitForSelector('#reference >> .sl-root[data-theme=dark]');
  assert.notEqual(await background(), light, 'the dark palette');

  await page.$eval('#reference', (el) => { el.setAttribute('view', 'ic'); el.setAttribute('src', 'samples/rating.jsonl'); });
  await page.waitForFunction(() => document.querySelector('#reference').report?.files?.[0]?.name === 'rating.jsonl');
  await settled(page, '#reference');
  checkFigures(await figures(page, '#reference'), cli([join(SAMPLES, 'rating.jsonl')]), 'rating.jsonl');
  assert.ok(await page.$('#reference >> [data-testid=ic]'));

  // A view the profile has nothing for says so.
  await page.$eval('#reference', (el) => el.setAttribute('view', 'rewardbench'));
  await page.waitForSelector('#reference >> [data-testid=widget-absent]');
  await t.done();
});

test('a page with three widgets fetches the wasm once', { timeout: 120000 }, async () => {
  const body = ['choice.jsonl', 'binary.jsonl', 'rewardbench-v2-scores.json']
    .map((f, i) => `<scorelens-report id="w${i}" src="samples/${f}" view="${i === 2 ? 'rewardbench' : 'summary'}"></scorelens-report>`)
    .join('\n');
  const t = await open(env, 'embed-three.html', { pages: { 'embed-three.html': plain(body) } });
  const { page } = t;
  for (const [i, f] of ['choice.jsonl', 'binary.jsonl', 'rewardbench-v2-scores.json'].entries()) {
    assert.equal(await settled(page, `#w${i}`), 'ready', f);
    checkFigures(await figures(page, `#w${i}`), cli([join(SAMPLES, f)]), f);
  }
  assert.ok(await page.$('#w2 >> [data-testid=rewardbench]'));
  const count = (suffix) => t.requests.filter((u) => new URL(u).pathname.endsWith(suffix)).length;
  assert.equal(count('.wasm'), 1, 'one wasm download');
  assert.equal(count('/scorelens.js'), 1);
  assert.equal(count('/scorelens_wasm.js'), 1);
  await t.done();
});

test('a missing file or another origin gives an error in place, and no request leaves the origin', { timeout: 120000 }, async () => {
  const body = `<scorelens-report id="missing" src="samples/nope.jsonl"></scorelens-report>
<scorelens-report id="away" src="https://example.com/results.jsonl"></scorelens-report>`;
  const t = await open(env, 'embed-errors.html', { pages: { 'embed-errors.html': plain(body) }, allow: ['404'] });
  const { page } = t;
  assert.equal(await settled(page, '#missing'), 'error');
  assert.match(await page.textContent('#missing >> [data-testid=widget-failed]'), /HTTP 404/);
  assert.equal(await settled(page, '#away'), 'error');
  assert.match(await page.textContent('#away >> [data-testid=widget-failed]'), /not on this page's origin/);
  const detail = await page.$eval('#away', (el) => ({ kind: el.error.kind, problems: el.error.problems }));
  assert.equal(detail.kind, 'read');
  assert.equal(detail.problems[0].file, 'https://example.com/results.jsonl');
  await t.done({ missing: ['/samples/nope.jsonl'] });
});

test('the JavaScript API from a page: score, profiles, formats and a rejected promise', { timeout: 120000 }, async () => {
  const t = await open(env, 'embed-plain.html', { pages: { 'embed-plain.html': plain('') } });
  const { page } = t;
  const got = await page.evaluate(async () => {
    const api = await import('./embed/scorelens.js');
    const text = await (await fetch('samples/choice.jsonl')).text();
    const report = await api.score(new File([text], 'choice.jsonl'), { profile: 'generic' });
    const good = '{"id":"a","options":["A","B"],"gold":"A","answer":"A"}';
    const error = await api.score(`${good}\nnot json\n`, { strict: true }).then(() => null, (e) => ({ name: e.name, kind: e.kind, problems: e.problems }));
    // A gzipped File is decoded as the CLI decodes it; one cut short rejects, naming the file.
    const gz = await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).blob();
    const zipped = await api.score(new File([gz], 'choice.jsonl.gz'), { profile: 'generic' });
    const cut = await api.score(new File([gz.slice(0, gz.size / 2)], 'cut.jsonl.gz'))
      .then(() => null, (e) => ({ kind: e.kind, file: e.problems[0]?.file, message: e.message }));
    return { report, error, zipped, cut, profiles: (await api.profiles()).map((p) => p.name), formats: (await api.formats()).length, version: await api.version() };
  });
  const report = cli([join(SAMPLES, 'choice.jsonl')], ['--profile', 'generic']);
  assert.equal(got.report.items, report.items);
  assert.deepEqual(got.report.metrics, report.metrics);
  assert.equal(got.zipped.items, report.items);
  assert.deepEqual(got.zipped.metrics, report.metrics);
  assert.equal(got.zipped.files[0].name, 'choice.jsonl.gz');
  assert.equal(got.cut.kind, 'read');
  assert.equal(got.cut.file, 'cut.jsonl.gz');
  assert.match(got.cut.message, /^cut\.jsonl\.gz: /);
  assert.equal(got.error.name, 'ScorelensError');
  assert.equal(got.error.kind, 'strict');
  assert.deepEqual([got.error.problems[0].file, got.error.problems[0].line], ['input', 2]);
  assert.ok(got.profiles.includes('rewardbench2') && got.profiles.includes('generic'));
  assert.ok(got.formats >= 10);
  assert.match(got.version, /^\d+\.\d+\.\d+/);
  await t.done();
});

test('a page below the root finds the widget by a relative path; a WebAssembly that fails to load says which URL, in the element and in an event', { timeout: 120000 }, async () => {
  // As a docs site publishes a page at /guide/results/ with the widget two levels up.
  const deep = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="../../embed/scorelens.js"></script></head><body>
<scorelens-report id="deep" src="../../samples/jevbench-public-231.jsonl" view="reliability"></scorelens-report></body></html>`;
  const t = await open(env, 'guide/results/index.html', { pages: { 'guide/results/index.html': deep } });
  assert.equal(await settled(t.page, '#deep'), 'ready');
  assert.ok(await t.page.$('#deep >> rect.bar'), 'the diagram is drawn');
  assert.ok(t.requests.some((u) => new URL(u).pathname === '/embed/scorelens_wasm_bg.wasm'), 'the wasm beside the module');
  await t.done();

  // The same page with the wasm gone (a host that does not serve .wasm files).
  const body = '<scorelens-report id="nowasm" src="samples/choice.jsonl"></scorelens-report>';
  const html = plain(body).replace('<body style="margin:0">', `<body style="margin:0"><script>
    window.failures = [];
    document.addEventListener('failed', (e) => window.failures.push({ kind: e.detail.kind, url: e.detail.url }), true);
  </script>`);
  const b = await open(env, 'nowasm.html', { pages: { 'nowasm.html': html }, allow: ['404', 'scorelens:', 'Failed to load'], block: ['/embed/scorelens_wasm_bg.wasm'] });
  assert.equal(await settled(b.page, '#nowasm'), 'error');
  const said = await b.page.textContent('#nowasm >> [data-testid=widget-broken]');
  const url = `${env.server.url}embed/scorelens_wasm_bg.wasm`;
  assert.ok(said.includes(`scorelens could not run: could not load its WebAssembly from ${url}`), said);
  assert.deepEqual(await b.page.evaluate(() => window.failures), [{ kind: 'load', url }]);
  await b.done({ missing: ['/embed/scorelens_wasm_bg.wasm'] });
});

test('a Parquet table dropped on a widget is read with the CLI\'s figures; its decoder is fetched beside the module, at the drop', { timeout: 120000 }, async () => {
  const dir = join(ROOT, 'tests/fixtures/lighteval/out/details/dummy');
  const [date] = readdirSync(dir);
  const files = readdirSync(join(dir, date)).sort().map((f) => join(dir, date, f));
  assert.equal(files.length, 2);
  const report = cli(files);
  const t = await open(env, 'embed-parquet.html', { pages: { 'embed-parquet.html': plain('<scorelens-report id="drop"></scorelens-report>') } });
  const { page } = t;
  await page.waitForSelector('#drop[data-state=empty]');
  const decoder = () => t.requests.filter((u) => u.includes('scorelens_parquet'));
  assert.deepEqual(decoder(), [], 'no decoder before a table is scored');
  await drop(page, '#drop', files);
  assert.equal(await settled(page, '#drop'), 'ready', await page.textContent('#drop >> [data-testid=widget-failed]').catch(() => ''));
  const shown = await page.$eval('#drop', (el) => ({ items: el.report.items, metrics: el.report.metrics, formats: el.report.files.map((f) => f.format) }));
  assert.equal(shown.items, report.items);
  assert.deepEqual(shown.metrics, report.metrics);
  assert.deepEqual(shown.formats, ['lighteval', 'lighteval']);
  const n = checkFigures(await figures(page, '#drop'), report, 'parquet');
  assert.ok(n >= 8, `${n} figures compared`);
  assert.deepEqual([...new Set(decoder().map((u) => new URL(u).pathname))], ['/embed/scorelens_parquet.wasm']);
  // The API on a table's bytes (a Uint8Array, not a Blob) reads it the same way.
  const one = cli(files.slice(0, 1));
  const api = await page.evaluate(async (b64) => {
    const { score } = await import('./embed/scorelens.js');
    const r = await score(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
    return { items: r.items, metrics: r.metrics };
  }, readFileSync(files[0]).toString('base64'));
  assert.deepEqual(api, { items: one.items, metrics: one.metrics });
  await t.done();

  // A site that left the decoder out: the widget says what failed and where it looked.
  const u = await open(env, 'embed-parquet.html', { pages: { 'embed-parquet.html': plain('<scorelens-report id="drop"></scorelens-report>') }, block: ['/embed/scorelens_parquet.wasm'], allow: ['404'] });
  await u.page.waitForSelector('#drop[data-state=empty]');
  await drop(u.page, '#drop', files.slice(0, 1));
  assert.equal(await settled(u.page, '#drop'), 'error');
  assert.match(await u.page.textContent('#drop >> [data-testid=widget-failed]'), /Parquet reader \(http:[^)]*\/embed\/scorelens_parquet\.wasm\) could not be loaded: HTTP 404/);
  await u.done({ missing: ['/embed/scorelens_parquet.wasm'] });
});

test('promptfoo test vars as groups: the API\'s groupBy and the widget\'s group-by give the CLI\'s --group-by groups', { timeout: 120000 }, async () => {
  const file = join(ROOT, 'tests/fixtures/promptfoo/results.json');
  // The API and the widget score their inputs as one run, as the CLI's --one-run does: here the
  // four providers' and prompts' answers to each test, together.
  const report = cli([file], ['--group-by', 'region', '--one-run']);
  const regions = report.groups.map((g) => g.name);
  assert.ok(regions.length >= 3, JSON.stringify(regions));
  const t = await open(env, 'embed-groups.html', { pages: { 'embed-groups.html': plain('<scorelens-report id="drop" group-by="region"></scorelens-report>') } });
  const { page } = t;
  const got = await page.evaluate(async (text) => {
    const api = await import('./embed/scorelens.js');
    const file = () => new File([text], 'results.json');
    const grouped = await api.score(file(), { groupBy: 'region' });
    const plain = await api.score(file());
    const wrong = await api.score(file(), { groupby: 'region' }).then(() => null, (e) => e.message);
    return { grouped: grouped.groups, plain: plain.groups.length, wrong };
  }, readFileSync(file, 'utf8'));
  assert.deepEqual(got.grouped, report.groups);
  assert.equal(got.plain, 1, 'without groupBy every test is in one group');
  assert.match(got.wrong, /unknown key `groupby`.*groupBy/);
  // The element's attribute, on a dropped file.
  await page.waitForSelector('#drop[data-state=empty]');
  await drop(page, '#drop', [file]);
  assert.equal(await settled(page, '#drop'), 'ready');
  assert.deepEqual(await page.$eval('#drop', (el) => el.report.groups), report.groups);
  await t.done();
});
