// The tools' newest files, dropped in the page as a user has them: Inspect logs with a repeated
// entry (the last copy wins), with per-sample folders, and one still being written (only its
// journal), and lm-eval's output when `--output_path` ends in `.json`. Each is read with the CLI's
// figures, or with the CLI's own words where no item can be scored. The fixtures come from the
// real tools (tests/fixtures/inspect/make_derived.py, tests/fixtures/lm_eval/make_newest.sh).
import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { readdirSync } from 'node:fs';
import { assert, CLI, cli, drop, open, ROOT, settled, setup } from './harness.mjs';
import { checkShown } from './check.mjs';

const INSPECT = join(ROOT, 'tests/fixtures/inspect');
const LM_JSON = join(ROOT, 'tests/fixtures/lm_eval/json_output_path');

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

/** Drops `files` as one run and checks every figure against the CLI's report. */
async function scoresAsCli(files) {
  const ref = cli(files);
  assert.equal(ref.status, 0, ref.stderr);
  const t = await open(env);
  await drop(t.page, files, files.length > 1);
  assert.ok(await settled(t.page), `a report for ${files.map((f) => basename(f)).join(', ')}`);
  await checkShown(t.page, ref.report);
  await t.done();
  return ref.report;
}

test('an Inspect .eval whose entries repeat scores the last copy, as the CLI does', async () => {
  const r = await scoresAsCli([join(INSPECT, 'colour_mc_repeated.eval')]);
  const flat = cli([join(INSPECT, 'colour_mc.eval')]).report;
  assert.notEqual(r.metrics.accuracy, flat.metrics.accuracy, 'the repeated entry changes a sample, so the fixture tests something');
});

test('an Inspect .eval with per-sample folders scores as the flat layout does', async () => {
  const r = await scoresAsCli([join(INSPECT, 'colour_mc_sample_dirs.eval')]);
  const flat = cli([join(INSPECT, 'colour_mc.eval')]).report;
  assert.equal(r.items, flat.items);
  assert.equal(r.metrics.accuracy, flat.metrics.accuracy);
});

test('an Inspect log still being written says so, in the words of the CLI', async () => {
  const path = join(INSPECT, 'colour_mc_journal_only.eval');
  const ref = spawnSync(CLI, ['score', basename(path)], { cwd: dirname(path), encoding: 'utf8' });
  assert.equal(ref.status, 1, 'the CLI scores no item');
  const why = ref.stderr.split('\n').find((l) => l.includes('still being written'));
  assert.ok(why, ref.stderr);
  const reason = why.slice(why.indexOf('the log is still being written'));
  const t = await open(env);
  await drop(t.page, [path]);
  assert.equal(await settled(t.page), false, 'no report: no sample has finished');
  const shown = await t.page.textContent('main');
  assert.ok(shown.includes(reason), `the page says: ${reason}`);
  await t.done();
});

test('lm-eval output written with --output_path ending in .json (<stem>_<date>.json) is one run', async () => {
  const files = readdirSync(LM_JSON).map((f) => join(LM_JSON, f)).sort();
  assert.ok(files.some((f) => /run_\d{4}-\d\d-\d\dT.*\.json$/.test(f)), 'the results file has the stem and date name');
  const r = await scoresAsCli(files);
  assert.ok(r.reported.some((x) => x.source === 'lm-eval'), 'the harness figures from the renamed results file are read');
});
