// Other tools' files in the browser: what other harnesses write (an Inspect `.eval` archive, lm-eval
// `--log_samples` output with and without its results file) are read by the page's wasm with the
// CLI's figures, and the header says which format it detected and how it mapped it; so are promptfoo's
// outputs (JSON, JSON Lines, CSV), Evals API pages and lighteval's Parquet details.
import { after, before, test } from 'node:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { assert, cli, drop, open, ROOT, settled, setup } from './harness.mjs';
import { checkShown, diffJson } from './check.mjs';

const INSPECT = join(ROOT, 'tests/fixtures/inspect');
const LM = join(ROOT, 'tests/fixtures/lm_eval/v0.4.13');
const LM_OLD = join(ROOT, 'tests/fixtures/lm_eval/v0.4.2');
const STAMP = '2026-11-29T20-46-19.400381';
const samples = (task) => join(LM, `samples_${task}_${STAMP}.jsonl`);
const RESULTS = join(LM, `results_${STAMP}.json`);

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

/** The header's file lines: name, detected format and version, and the mapping lines. */
async function shownFiles(page) {
  return page.$$eval('[data-testid=report-header] ul.files > li', (lis) => lis.map((li) => ({
    name: li.querySelector('.file-name').textContent,
    format: li.querySelector('[data-testid=format]').textContent,
    mapping: [...li.querySelectorAll('ul.mapping li')].map((m) => m.textContent),
  })));
}

/** The rows of "Figures the tool itself reported". */
async function shownReported(page) {
  return page.$$eval('[data-testid=notes] details.reported tbody tr', (rows) => rows.map((tr) => {
    const td = [...tr.querySelectorAll('td')];
    return { source: td[0].textContent, name: td[1].textContent, scope: td[2].textContent, value: Number(td[3].dataset.value) };
  }));
}

/** Drops the files as one run and checks every figure, the format lines and the tool's own figures. */
async function check(files) {
  const ref = cli(files);
  assert.equal(ref.status, 0, ref.stderr);
  const r = ref.report;
  const t = await open(env);
  const { page } = t;
  await drop(page, files, files.length > 1);
  assert.ok(await settled(page), 'a report, not an error');
  await checkShown(page, r);
  const shown = await shownFiles(page);
  assert.deepEqual(shown, r.files.map((f) => ({
    name: f.name,
    format: f.version ? `${f.format} ${f.version}` : f.format,
    mapping: f.mapping,
  })), 'the detected format, its version and the mapping, as the CLI reports them');
  const reported = await shownReported(page);
  assert.equal(diffJson(reported, r.reported.map((x) => ({ source: x.source, name: x.name, scope: x.scope, value: x.value }))), null,
    'the figures the tool reported, as the CLI has them');
  await t.done();
  return { r, shown, reported };
}

test('an Inspect .eval archive (zstd entries) is read with the CLI figures', async () => {
  const { r, shown } = await check([join(INSPECT, 'colour_mc.eval')]);
  assert.equal(r.files[0].format, 'inspect');
  assert.match(shown[0].format, /^inspect log v2 \.eval/);
  assert.ok(r.conditioning.items > 0, 'the archive carries probabilities, so calibration is shown');
  assert.ok(r.reported.some((x) => x.source === 'Inspect' && x.name === 'accuracy'), 'Inspect\'s own accuracy is listed');
});

test('an Inspect .eval with epochs (mean reducer) and a DEFLATE one', async () => {
  const { r } = await check([join(INSPECT, 'mc_epochs.eval')]);
  assert.ok(r.files[0].mapping.some((m) => m.includes('mean over epochs')), 'the reducer is named');
  await check([join(INSPECT, 'colour_mc_deflate.eval')]);
});

test('an lm-eval samples file alone: acc as the headline, acc_norm beside it', async () => {
  const { r, shown } = await check([samples('sci_mc')]);
  assert.equal(r.files[0].format, 'lm-eval');
  assert.match(shown[0].format, /^lm-eval 0\.4\.3\+/);
  assert.ok(shown[0].mapping.some((m) => m.startsWith('probabilities: softmax over option loglikelihoods')));
  assert.ok(r.reported.every((x) => x.source === 'scorelens'), 'without the results file, only our own acc_norm');
});

test('lm-eval samples with their results file: the harness reported figures are shown', async () => {
  const files = [samples('sci_mc'), samples('sci_text'), samples('say_gen'), RESULTS];
  const { r, reported } = await check(files);
  assert.deepEqual(r.files.map((f) => f.format), ['lm-eval', 'lm-eval', 'lm-eval', 'lm-eval-results']);
  assert.ok(reported.filter((x) => x.source === 'lm-eval').length >= 4, 'the harness\'s figures are listed beside ours');
});

test('the old lm-eval layout (0.4.0-0.4.2, one JSON array) with its results', async () => {
  const { r } = await check([join(LM_OLD, '_sci_mc.jsonl'), join(LM_OLD, 'results.json')]);
  assert.match(r.files[0].version, /0\.4\.0/);
});

const PROMPTFOO = join(ROOT, 'tests/fixtures/promptfoo');
const EVALS = join(ROOT, 'tests/fixtures/evals_api');

/**
 * Drops one file that holds several runs and checks each run's tab against the run of that name
 * the CLI finds in it: every figure, the format lines and the tool's own figures.
 */
async function checkRuns(file) {
  const ref = cli([file]);
  assert.equal(ref.status, 0, ref.stderr);
  assert.ok(ref.report.runs.length > 1, 'the file holds several runs');
  const t = await open(env);
  const { page } = t;
  await drop(page, [file]);
  // The grouping line is hidden for a single file, but says how many runs it found.
  await page.waitForSelector('[data-testid=grouping]', { state: 'attached' });
  assert.equal(await page.getAttribute('[data-testid=grouping]', 'data-runs'), String(ref.report.runs.length));
  for (const { name, report: r } of ref.report.runs) {
    await page.locator('.tab-name', { hasText: name }).click();
    assert.ok(await settled(page), `a report for ${name}`);
    await checkShown(page, r);
    const shown = await shownFiles(page);
    assert.deepEqual(shown.map((f) => f.mapping), r.files.map((f) => f.mapping), `${name}: the mapping`);
    const reported = await shownReported(page);
    assert.equal(diffJson(reported, r.reported.map((x) => ({ source: x.source, name: x.name, scope: x.scope, value: x.value }))), null,
      `${name}: the figures promptfoo reported, and ours beside them, as the CLI has them`);
  }
  await t.done();
}

test('a promptfoo results file: one run per provider × prompt, each with the CLI figures', async () => {
  await checkRuns(join(PROMPTFOO, 'results.json'));
  await checkRuns(join(PROMPTFOO, 'results.jsonl'));
  await checkRuns(join(PROMPTFOO, 'results.csv'));
});

test('Evals API pages with their run object are one run, with the CLI figures', async () => {
  const { r } = await check(['output_items_page1.json', 'output_items_page2.json', 'run.json'].map((f) => join(EVALS, 'run_a', f)));
  assert.equal(r.files[0].format, 'evals-api');
  assert.ok(r.reported.some((x) => x.source === 'OpenAI Evals API' && x.name === 'result_counts.passed'), 'the run\'s own counts are listed');
  await check(['output_items.json', 'run.json'].map((f) => join(EVALS, 'run_b', f)));
  await check([join(EVALS, 'jsonl', 'run_b_output_items.jsonl')]);
});

const LIGHTEVAL = join(ROOT, 'tests/fixtures/lighteval');
/** The files directly in the one folder below `dir` (lighteval's `<model>/<date>/`), sorted. */
function under(dir) {
  const walk = (d) => readdirSync(d, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
  return walk(dir).sort();
}

test('lighteval details (Parquet) read with the CLI figures; the decoder is fetched at the drop, not before', async () => {
  const files = under(join(LIGHTEVAL, 'out/details/dummy'));
  assert.equal(files.length, 2);
  const ref = cli(files);
  assert.equal(ref.status, 0, ref.stderr);
  const r = ref.report;
  const t = await open(env);
  const { page } = t;
  const decoder = () => t.requests.filter((u) => u.includes('/parquet/'));
  assert.deepEqual(decoder(), [], 'no Parquet decoder with the page');
  await drop(page, files, true);
  assert.ok(await settled(page), 'a report, not an error');
  await checkShown(page, r);
  const shown = await shownFiles(page);
  assert.deepEqual(shown, r.files.map((f) => ({ name: f.name, format: `${f.format} ${f.version}`, mapping: f.mapping })));
  assert.ok(shown.every((f) => f.format === 'lighteval lighteval details'), JSON.stringify(shown));
  const reported = await shownReported(page);
  assert.equal(diffJson(reported, r.reported.map((x) => ({ source: x.source, name: x.name, scope: x.scope, value: x.value }))), null,
    'lighteval\'s per-task figures and the recomputed acc_norm, as the CLI has them');
  // The worker's fetch, and the service worker's own when it passes the request on.
  assert.deepEqual([...new Set(decoder().map((u) => new URL(u).pathname))], ['/parquet/scorelens_parquet.wasm'],
    `the decoder fetched at the drop: ${decoder()}`);
  await t.done();
});

test('a zstd Parquet table is refused in the page with the CLI\'s reason', async () => {
  const [file] = under(join(LIGHTEVAL, 'zstd'));
  const ref = cli([file]);
  assert.notEqual(ref.status, 0);
  const reason = 'a Parquet table compressed with zstd, which scorelens does not decode';
  assert.ok(ref.stderr.includes(reason), ref.stderr);
  const t = await open(env);
  const { page } = t;
  await drop(page, [file]);
  await page.waitForFunction((why) => document.body.textContent.includes(why), reason, { timeout: 60000 });
  await t.done();
});
