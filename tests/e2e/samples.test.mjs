// Each sample the site lists, picked with the file input and dropped with a DataTransfer: the
// page must show exactly the CLI's figures, and its JSON export must equal the CLI's --json (with
// the bootstrap intervals the worker adds after the report: `--bootstrap 2000 --seed 2024`).
// A folder of files of different models gives one run each and the side-by-side table.
import { after, before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, cli, drop, open, OUT, pick, samples, SAMPLES, settled, setup, value } from './harness.mjs';
import { checkShown, diffJson, same } from './check.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

/** Shows run `i` (its tab) and checks it against the CLI's report `ref`; `boot` is the CLI's report
 * with bootstrap intervals, which the export must equal (null: no export). */
async function checkRun(page, i, count, ref, boot, label) {
  if (count > 1) await page.locator('.tab-name').nth(i).click();
  const ok = await settled(page);
  if (ref.status !== 0) {
    assert.equal(ok, false, 'the CLI made no report, so the page must not either');
    const shown = await page.textContent('[data-testid=failed]');
    const why = ref.stderr.replace(/^scorelens: /, '').split('\n')[0].trim();
    assert.ok(shown.includes(why), `failure says why (${why}): ${shown}`);
    return;
  }
  assert.equal(ok, true, 'report shown');
  await checkShown(page, ref.report);
  if (!boot) return;
  // The worker bootstraps after the report is on screen; the export carries the intervals then.
  if (boot.report.intervals.bootstrap) {
    await page.waitForSelector('.report [data-testid=intervals-status][data-state=done]', { timeout: 120000 });
  }
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-export=json]')]);
  const text = readFileSync(await download.path(), 'utf8');
  assert.equal(diffJson(JSON.parse(text), boot.report, `${label} export`), null, 'exported JSON equals the CLI --json --bootstrap');
  assert.equal(text, boot.stdout, 'exported JSON is byte for byte the CLI --json --bootstrap');
}

async function checkComparison(page, refs) {
  await page.waitForSelector('[data-testid=comparison]');
  const cols = await page.$$eval('[data-testid=comparison] thead th', (ths) => ths.length - 1);
  assert.equal(cols, refs.length, 'one column per run');
  const acc = await page.$$eval('[data-testid=comparison] tr[data-figure=accuracy] td', (tds) => tds.map((td) => Number(td.dataset.value)));
  refs.forEach((ref, i) => assert.ok(same(acc[i], ref.report.metrics.accuracy, `comparison accuracy ${i}`)));
}

for (const sample of samples()) {
  const paths = sample.files.map((f) => join(SAMPLES, f));
  const runs = sample.together ? [paths] : paths.map((p) => [p]);
  describe(`sample ${sample.name}`, () => {
    const refs = runs.map((files) => cli(files));

    test('picked with the file input: figures and JSON export equal the CLI', async () => {
      const t = await open(env);
      await pick(t.page, paths, sample.together && paths.length > 1);
      for (const [i, ref] of refs.entries()) {
        const boot = ref.status === 0 ? cli(runs[i], ['--bootstrap', '2000', '--seed', '2024']) : null;
        await checkRun(t.page, i, refs.length, ref, boot, sample.name);
      }
      if (refs.length > 1 && refs.every((r) => r.status === 0)) await checkComparison(t.page, refs);
      await t.page.screenshot({ path: join(OUT, `sample-${sample.name}.png`), fullPage: true });
      await t.done();
    });

    test('dropped with a DataTransfer: figures equal the CLI', async () => {
      const t = await open(env);
      await drop(t.page, paths, sample.together && paths.length > 1);
      for (const [i, ref] of refs.entries()) await checkRun(t.page, i, refs.length, ref, null, sample.name);
      await t.done();
    });

    test('its "try a sample" button scores the same', async () => {
      const t = await open(env);
      await t.page.click(`button.sample[data-sample="${sample.name}"]`);
      for (const [i, ref] of refs.entries()) await checkRun(t.page, i, refs.length, ref, null, sample.name);
      await t.done();
    });
  });
}
