// Clusters in the app: the planning panel offers the file's own cluster field (and groups), a
// choice scores the run again with the CLI's `--cluster`, the export is then the CLI's
// `score --json --cluster cluster --bootstrap 2000 --seed 2024` byte for byte, and the panel
// says in words what the clustered standard errors mean, with the CLI's numbers on its rows.
import { after, before, test } from 'node:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { assert, cli, drop, open, OUT, settled, setup } from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => {
  await env.close();
});

const RUN = resolve('tests/fixtures/clustered/run-a.jsonl');
const BOOT = ['--bootstrap', '2000', '--seed', '2024'];

async function intervalsDone(page) {
  await page.waitForSelector('.report [data-testid=intervals-status][data-state=done]', { timeout: 120000 });
}

async function exportJson(page) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('[data-export=json]')]);
  return readFileSync(await d.path(), 'utf8');
}

test('the planning panel: the file\'s cluster field chosen, the export is the CLI\'s --cluster, the words say what it means', async () => {
  const t = await open(env);
  const { page } = t;
  await drop(page, [RUN]);
  assert.ok(await settled(page));
  await intervalsDone(page);
  // As the file says: the bootstrap already draws its passages, as the CLI's does.
  assert.equal(await exportJson(page), cli([RUN], BOOT).stdout, 'default: the CLI\'s --bootstrap export');
  await page.waitForSelector('[data-testid=planning-hint]');
  const offered = await page.$$eval('[data-testid=cluster] option', (os) => os.map((o) => o.value));
  assert.deepEqual(offered, ['', 'cluster', 'none'], 'the file\'s field is offered (it has no groups)');

  await page.selectOption('[data-testid=cluster]', 'cluster');
  await page.waitForSelector('[data-testid=planning-sentence]', { timeout: 120000 });
  assert.ok(await settled(page));
  await intervalsDone(page);
  const ref = cli([RUN], ['--cluster', 'cluster', ...BOOT]);
  assert.equal(ref.status, 0);
  assert.equal(await exportJson(page), ref.stdout, 'the export is the CLI\'s --cluster cluster --bootstrap 2000 --seed 2024');
  const c = ref.report.intervals.clustered;
  const rows = await page.$$eval('table.planning tbody tr', (rs) => rs.map((r) => [r.dataset.figure, r.dataset.se, r.dataset.mde]));
  assert.deepEqual(rows.map((r) => r[0]), Object.keys(c.figures), 'a row per clustered figure, in the CLI\'s order');
  for (const [figure, se, mde] of rows) {
    assert.ok(Object.is(Number(se), c.figures[figure].se), `${figure}: se ${se} is the CLI's ${c.figures[figure].se}`);
    assert.ok(Object.is(Number(mde), c.figures[figure].mde), `${figure}: mde is the CLI's`);
  }
  const words = await page.textContent('[data-testid=planning-sentence]');
  assert.match(words, /With these 240 items in 60 independent units \(by the file's cluster field\), metrics\.accuracy is 63\.[78]% ± 7\.6 points at 95%/);
  assert.match(words, /under 10\.8 points from a fixed target is not reliably detectable \(80% power\)/);
  assert.match(words, /count as 155 independent ones \(design effect 1\.55\)/);
  assert.match(words, /960 items would halve the interval/);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.locator('[data-testid=planning]').screenshot({ path: join(OUT, `planning-${width}.png`) });
    const wide = await page.$eval('[data-testid=planning]', (e) => e.scrollWidth <= e.closest('main, body').clientWidth + 1);
    assert.ok(wide, `${width} px: the panel fits the viewport`);
  }

  // Every item on its own: the plain standard errors, design effect 1, no sentence about it.
  await page.selectOption('[data-testid=cluster]', 'none');
  await page.waitForFunction(() => /60 independent/.test(document.querySelector('[data-testid=planning-sentence]')?.textContent ?? '') === false
    && /240 independent units/.test(document.querySelector('[data-testid=planning-sentence]')?.textContent ?? ''), null, { timeout: 120000 });
  const flat = await page.textContent('[data-testid=planning-sentence]');
  assert.doesNotMatch(flat, /design effect/);
  assert.ok(await settled(page));
  await t.done();
});

test('a field the user types: the run is clustered by it, the export is the CLI\'s --cluster FIELD', async () => {
  // The reference run with each passage under metadata.passage, a key no default reads.
  const lines = readFileSync(RUN, 'utf8').split('\n').filter((l) => l.trim()).map((l) => {
    const o = JSON.parse(l);
    if (o.passage_id !== undefined) { o.metadata = { passage: o.passage_id }; delete o.passage_id; }
    return JSON.stringify(o);
  });
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, 'metadata-passage.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  const t = await open(env);
  const { page } = t;
  await drop(page, [file]);
  assert.ok(await settled(page));
  await intervalsDone(page);
  const offered = await page.$$eval('[data-testid=cluster] option', (os) => os.map((o) => o.value));
  assert.deepEqual(offered, ['', 'none'], 'no field of its own, no groups: the box is the way');
  await page.fill('[data-testid=cluster-field]', 'metadata.passage');
  await page.press('[data-testid=cluster-field]', 'Enter');
  await page.waitForFunction(() => /60 independent units \(by the field metadata\.passage\)/.test(document.querySelector('[data-testid=planning-sentence]')?.textContent ?? ''), null, { timeout: 120000 });
  assert.ok(await settled(page));
  await intervalsDone(page);
  const ref = cli([file], ['--cluster', 'metadata.passage', ...BOOT]);
  assert.equal(ref.status, 0);
  assert.equal(ref.report.intervals.clustered.clusters, 60);
  assert.equal(await exportJson(page), ref.stdout, 'the export is the CLI\'s --cluster metadata.passage');
  assert.equal(await page.inputValue('[data-testid=cluster-field]'), 'metadata.passage');
  assert.equal(await page.$eval('[data-testid=cluster]', (s) => s.value), 'metadata.passage', 'the menu shows the typed field chosen');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.locator('[data-testid=planning]').screenshot({ path: join(OUT, `planning-field-${width}.png`) });
    const wide = await page.$eval('[data-testid=planning]', (e) => e.scrollWidth <= e.closest('main, body').clientWidth + 1);
    assert.ok(wide, `${width} px: the panel with its field box fits the viewport`);
  }
  await t.done();
});
