// The app's behaviour beyond the figures: landing and keyboard, the diagram's switches, export,
// several runs side by side, profile changes, the item explorer, warnings, untrusted text,
// privacy and offline use. Every test fails on a page error, a console error, or a request for
// anything but the site's own files.
import { after, before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, cli, drop, open, OUT, pick, ROOT, samples, SAMPLES, settled, setup, status, value } from './harness.mjs';
import { checkBars, checkShown, same } from './check.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

const CHOICE = join(SAMPLES, 'choice.jsonl');
const BINARY = join(SAMPLES, 'binary.jsonl');
const FIXTURES = join(ROOT, 'tests/e2e/fixtures');

async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: d.suggestedFilename(), bytes: readFileSync(await d.path()) };
}

test('landing: drop zone, privacy line, samples, formats, keyboard', async () => {
  const t = await open(env);
  const { page } = t;
  assert.match(await page.textContent('[data-testid=privacy]'), /never leave your browser/);
  assert.match(await page.textContent('[data-testid=drop-zone]'), /Nothing is uploaded/);
  const listed = await page.$$eval('button.sample', (b) => b.map((x) => x.dataset.sample));
  assert.deepEqual(listed, samples().map((s) => s.name));
  // Keyboard: Tab reaches the file button, and Enter opens the file chooser. (The listener goes
  // first: Playwright intercepts the chooser only once it is set up.)
  const chooser = new Promise((resolve) => page.once('filechooser', resolve));
  await status(page, 'idle');
  let focused = '';
  for (let i = 0; i < 10 && focused !== 'Choose files…'; i++) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => document.activeElement?.textContent?.trim());
  }
  assert.equal(focused, 'Choose files…', 'the file button is reachable with Tab');
  await page.keyboard.press('Enter');
  assert.ok((await chooser).isMultiple(), 'several files at once');
  // The format help lists every format the core reads.
  await page.click('a.help');
  await page.click('#formats summary');
  await page.waitForSelector('[data-testid=format-list] dt');
  const formats = await page.$$eval('[data-testid=format-list] dt', (d) => d.map((x) => x.textContent));
  assert.ok(formats.includes('scorelens') && formats.length >= 5, `formats: ${formats}`);
  await page.screenshot({ path: join(OUT, 'landing.png'), fullPage: true });
  await t.done();
});

test('the scoring worker starts when a file is dragged over the page or the file chooser opens, not before', async () => {
  for (const how of ['drag', 'chooser']) {
    const t = await open(env);
    const { page } = t;
    // The app has mounted and settled (it would have started a worker by then, if at all).
    await status(page, 'idle');
    assert.equal(page.workers().length, 0, 'the page alone starts no worker');
    if (how === 'drag') {
      await page.evaluate(() => {
        const zone = document.querySelector('[data-testid=drop-zone]');
        zone.dispatchEvent(new DragEvent('dragenter', { bubbles: true, cancelable: true, dataTransfer: new DataTransfer() }));
      });
    } else {
      const chooser = new Promise((resolve) => page.once('filechooser', resolve));
      await page.click('[data-testid=drop-zone] button.primary');
      await chooser;
    }
    const worker = page.workers()[0] ?? await page.waitForEvent('worker', { timeout: 10000 });
    assert.match(worker.url(), /worker_loader\.js$/, `${how}: the scoring worker started`);
    await t.done();
  }
});

test('dark mode renders the report', async () => {
  const t = await open(env, { colorScheme: 'dark' });
  await pick(t.page, [CHOICE]);
  assert.ok(await settled(t.page));
  const bg = await t.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(21, 23, 26)', 'dark background');
  await t.page.screenshot({ path: join(OUT, 'report-dark.png'), fullPage: true });
  await t.done();
});

test('reliability diagram: conditioning, mixing, both, equal mass', async () => {
  const ref = cli([CHOICE]).report;
  assert.notEqual(ref.conditioning.ece, ref.mixing.ece, 'the sample has outside mass, so the readings differ');
  const t = await open(env);
  const { page } = t;
  await pick(page, [CHOICE]);
  assert.ok(await settled(page));
  await checkBars(page, ref.conditioning.bins, 'conditioning');
  await page.check('[data-testid=reading-mixing]');
  await checkBars(page, ref.mixing.bins, 'mixing');
  assert.ok(same(await value(page, '.card[data-figure=ece] .card-value'), ref.mixing.ece, 'ece mixing'), 'the ECE card follows the reading');
  await page.check('[data-testid=reading-both]');
  const series = await page.$$eval('[data-testid=reliability] g.series', (gs) => gs.map((g) => ({
    name: g.dataset.series,
    counts: [...g.querySelectorAll('circle.point')].map((c) => Number(c.dataset.count)),
    accuracy: [...g.querySelectorAll('circle.point')].map((c) => Number(c.dataset.accuracy)),
  })));
  assert.deepEqual(series.map((s) => s.name), ['conditioning', 'mixing']);
  for (const [k, mode] of ['conditioning', 'mixing'].entries()) {
    const filled = ref[mode].bins.filter((b) => b.count > 0);
    assert.deepEqual(series[k].counts, filled.map((b) => b.count), `${mode} points`);
    assert.deepEqual(series[k].accuracy, filled.map((b) => b.accuracy), `${mode} accuracy`);
  }
  const cards = await page.$$eval('.card[data-figure=ece] .card-value', (v) => v.map((x) => Number(x.dataset.value)));
  assert.ok(same(cards[0], ref.conditioning.ece, 'both: cond') && same(cards[1], ref.mixing.ece, 'both: mix'), 'both readings on the card');
  await page.screenshot({ path: join(OUT, 'reliability-both.png'), fullPage: true });
  // Both readings in equal-mass bins: each reading's count histogram in a row of its own (their
  // bins do not share edges), every bar as wide as its bin, and each row's counts the report's.
  await page.check('[data-testid=binning-mass]');
  const rows = await page.$$eval('[data-testid=reliability] rect.hist', (rs) => rs.map((r) => ({
    s: r.classList.contains('s1') ? 1 : 0,
    count: Number(r.dataset.count),
    top: Number(r.getAttribute('y')),
    bottom: Number(r.getAttribute('y')) + Number(r.getAttribute('height')),
  })));
  for (const [k, mode] of ['conditioning', 'mixing'].entries()) {
    assert.deepEqual(rows.filter((r) => r.s === k).map((r) => r.count), ref[mode].bins_em.map((b) => b.count), `${mode} equal-mass counts`);
  }
  const lowest0 = Math.max(...rows.filter((r) => r.s === 0).map((r) => r.bottom));
  const highest1 = Math.min(...rows.filter((r) => r.s === 1).map((r) => r.top));
  assert.ok(lowest0 <= highest1, `conditioning's row (to ${lowest0}) is above mixing's (from ${highest1})`);
  await page.check('[data-testid=binning-width]');
  // Equal mass: the bars hold every item, and their gaps give the report's ece_em.
  await page.check('[data-testid=reading-conditioning]');
  await page.check('[data-testid=binning-mass]');
  const bars = await page.$$eval('[data-testid=reliability] rect.bar', (els) => els.map((e) => ({
    n: Number(e.dataset.count), a: Number(e.dataset.accuracy), c: Number(e.dataset.confidence),
  })));
  const n = bars.reduce((s, b) => s + b.n, 0);
  assert.equal(n, ref.conditioning.items);
  assert.ok(bars.length <= 10 && bars.length >= 2);
  const ece = bars.reduce((s, b) => s + (b.n / n) * Math.abs(b.c - b.a), 0);
  assert.ok(Math.abs(ece - ref.conditioning.ece_em) < 1e-12, `equal-mass bars give ece_em: ${ece} vs ${ref.conditioning.ece_em}`);
  await page.screenshot({ path: join(OUT, 'reliability-equal-mass.png') });
  await t.done();
});

test('export: JSON, CSV, Markdown (file and clipboard), SVG, PNG', async () => {
  const ref = cli([CHOICE]);
  const t = await open(env);
  const { page, context } = t;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
  await pick(page, [CHOICE]);
  assert.ok(await settled(page));
  const json = await download(page, '[data-export=json]');
  assert.match(json.name, /\.report\.json$/);
  assert.deepEqual(JSON.parse(json.bytes.toString('utf8')).metrics, ref.report.metrics);
  const csv = (await download(page, '[data-export=csv]')).bytes.toString('utf8');
  assert.match(csv, /^# Headline \([^)\n]+\)\nfigure,value,report path\n/);
  assert.ok(csv.includes(`\naccuracy,${ref.report.metrics.accuracy},`), 'CSV keeps full precision');
  const { conditioning: c, mixing: m } = ref.report;
  assert.ok(csv.includes(`\nitems,${c.items},${m.items},`), 'a count without a point');
  const md = (await download(page, '[data-export=md]')).bytes.toString('utf8');
  assert.match(md, /### Groups\n\n\| group \| items \| accuracy \| normalized \| invalid share \|\n\|---\|---\|---\|---\|---\|\n/);
  assert.ok(md.includes(`| accuracy | ${ref.report.metrics.accuracy.toFixed(4)} |`), 'Markdown keeps four decimals');
  await page.click('[data-export=copy-md]');
  await page.waitForFunction(() => document.querySelector('[data-testid=export] [role=status]').textContent.includes('copied'));
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), md, 'clipboard holds the Markdown');
  const svg = (await download(page, '[data-export=svg]')).bytes.toString('utf8');
  assert.match(svg, /^<\?xml/);
  const filled = ref.report.conditioning.bins.filter((b) => b.count > 0).length;
  assert.equal((svg.match(/class="bar s0"/g) || []).length, filled, 'the SVG has the bars');
  assert.ok(svg.includes('<style>'), 'the SVG carries its own style');
  const png = (await download(page, '[data-export=png]')).bytes;
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  await t.done();
});

test('several files: one run each, side by side, curves overlaid', async () => {
  const refs = [cli([CHOICE]).report, cli([BINARY]).report];
  const t = await open(env);
  const { page } = t;
  await pick(page, [CHOICE, BINARY]);
  // Two files of one model are found to be one run: the user asks for one run per file.
  await page.waitForSelector('[data-testid=grouping]');
  if ((await page.getAttribute('[data-testid=grouping]', 'data-runs')) !== '2') {
    await page.click('[data-testid=grouping] button[data-how=per-file]');
    await page.waitForSelector('[data-testid=grouping][data-how=per-file]');
  }
  await page.waitForSelector('[data-testid=comparison]');
  assert.equal(await page.locator('.tab').count(), 2);
  const col = (fig) => page.$$eval(`[data-testid=comparison] tr[data-figure="${fig}"] td`, (tds) => tds.map((td) => (td.dataset.value === '' ? null : Number(td.dataset.value))));
  const acc = await col('accuracy');
  const ece = await col('ECE conditioning');
  refs.forEach((r, i) => {
    assert.ok(same(acc[i], r.metrics.accuracy, 'cmp acc'), 'accuracy column');
    assert.ok(same(ece[i], r.conditioning.ece, 'cmp ece'), 'ECE column');
  });
  const series = await page.$$eval('[data-testid=comparison] g.series', (g) => g.length);
  assert.equal(series, 2, 'one curve per run');
  // The second tab is the binary file's report.
  await page.locator('.tab-name').nth(1).click();
  await checkShown(page, refs[1]);
  assert.match(await page.textContent('[data-testid=grouping-summary]'), /^2 runs: /, 'the line above the report says how the files were grouped');
  await page.screenshot({ path: join(OUT, 'comparison.png'), fullPage: true });
  // Closing a run removes its column.
  await page.locator('.tab-close').nth(1).click();
  await page.waitForSelector('[data-testid=comparison]', { state: 'detached' });
  await t.done();
});

test('the profile can be changed and the run is scored again', async () => {
  const ref = cli([CHOICE], ['--profile', 'steer']).report;
  const t = await open(env);
  const { page } = t;
  await pick(page, [CHOICE]);
  assert.ok(await settled(page));
  await page.selectOption('[data-testid=profile]', 'steer');
  await page.waitForSelector('[data-testid=report-header][data-profile=steer]');
  await checkShown(page, ref);
  await t.done();
});

test('item explorer: filters, search, group, order, virtual scrolling', async () => {
  const ref = cli([CHOICE]).report;
  const t = await open(env);
  const { page } = t;
  await pick(page, [CHOICE]);
  assert.ok(await settled(page));
  const total = () => value(page, '[data-testid=explorer-total]');
  await page.waitForFunction(() => document.querySelector('[data-testid=explorer-total]').dataset.value !== '0');
  assert.equal(await total(), ref.items);
  const wrong = ref.items - ref.groups.reduce((s, g) => s + g.correct, 0);
  await page.selectOption('[data-testid=explorer-show]', 'wrong');
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=explorer-total]').dataset.value) === n, wrong);
  const marks = await page.$$eval('.viewport .item .mark', (m) => m.map((x) => x.textContent));
  assert.ok(marks.length > 0 && marks.every((m) => m === '✗'), 'only wrong items listed');
  await page.selectOption('[data-testid=explorer-show]', 'confident-wrong');
  await page.waitForFunction(() => document.querySelectorAll('.viewport .item').length >= 0);
  const confident = await page.$$eval('.viewport .item .num[data-value]', (c) => c.map((x) => Number(x.dataset.value)));
  assert.ok(confident.every((c) => c >= 0.8), 'confident-wrong items have confidence >= 0.8');
  await page.selectOption('[data-testid=explorer-show]', 'all');
  // A group from the groups table filters the list.
  const g = ref.groups[1];
  await page.click(`[data-testid=groups] tr[data-group="${g.name}"] button`);
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=explorer-total]').dataset.value) === n, g.items);
  await page.fill('[data-testid=explorer-group]', '');
  await page.fill('[data-testid=explorer-search]', 'c23');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=explorer-total]').dataset.value) === 10);
  await page.fill('[data-testid=explorer-search]', '');
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=explorer-total]').dataset.value) === n, ref.items);
  // Virtual list: only a page of rows exists; scrolling to the end shows the last item.
  const rows = await page.$$eval('.viewport .item', (r) => r.length);
  assert.ok(rows < ref.items, `virtualised: ${rows} rows in the DOM for ${ref.items} items`);
  await page.$eval('.viewport', (v) => { v.scrollTop = v.scrollHeight; });
  const lastId = JSON.parse(readFileSync(CHOICE, 'utf8').trim().split('\n').pop()).id;
  await page.waitForSelector(`.viewport .item[data-id="${lastId}"]`);
  await t.done();
});

test('warnings list each bad line with its reason, as the CLI does', async () => {
  const file = join(FIXTURES, 'bad-lines.jsonl');
  const ref = cli([file]).report;
  const t = await open(env);
  await drop(t.page, [file]);
  assert.ok(await settled(t.page));
  await checkShown(t.page, ref);
  const shown = await t.page.$$eval('[data-testid=warnings] li', (li) => li.map((x) => x.textContent));
  assert.deepEqual(shown, ref.warnings.map((w) => `${w.file}${w.line === null ? '' : `:${w.line}`} ${w.reason}`));
  await t.done();
});

test('untrusted text in a file is shown as text and runs no script', async () => {
  const file = join(FIXTURES, 'xss.jsonl');
  const ref = cli([file]).report;
  const t = await open(env);
  const { page } = t;
  await drop(page, [file]);
  assert.ok(await settled(page));
  await page.waitForSelector('.viewport .item');
  await page.hover('.viewport .item .gold');
  await page.click('#formats summary');
  await page.waitForSelector('[data-testid=format-list] dt');
  await status(page, 'done');
  // No element from the file exists (below), so no handler of one can run later.
  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'no script from the file ran');
  // Nothing from the file became an element: no img, iframe, b or svg[onload] in the report.
  const injected = await page.$$eval('main img, main iframe, main b, main script, main [onerror], main [onload], main [onmouseover]', (e) => e.length);
  assert.equal(injected, 0);
  assert.equal(await page.textContent('[data-testid=model]'), ref.model, 'the model name is shown as text');
  const ids = await page.$$eval('.viewport .item .id', (e) => e.map((x) => x.textContent));
  assert.ok(ids.includes("<script>window.__pwned='id'</script>"));
  const warnings = await page.$$eval('[data-testid=warnings] li', (li) => li.map((x) => x.textContent));
  assert.ok(warnings.some((w) => w.includes('<iframe src="javascript:')), 'warnings quote the text');
  await t.done();
});

test('offline after the first load: the service worker serves the site', async () => {
  const t = await open(env);
  const { page, context } = t;
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  // The worker claims the page, so the cache is complete once it controls it.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('button.sample');
  await page.click('button.sample[data-sample="choice.jsonl"]');
  assert.ok(await settled(page), 'scored offline');
  await checkShown(page, cli([CHOICE]).report);
  await context.setOffline(false);
  await t.done();
});
