// Files as users have them, dropped or chosen in the page: gzip and zstd files and UTF-16 ones
// (what PowerShell's `>` writes), made here from a sample; a HELM run folder, a HELM suite and an
// lm-eval output folder, grouped into runs as the CLI groups them, each run with the CLI's
// figures; regrouping; and a file no reader claims, described once.
import { after, before, test } from 'node:test';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { assert, CLI, cli, drop, open, OUT, ROOT, SAMPLES, settled, setup } from './harness.mjs';
import { checkShown } from './check.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

const SAMPLE = join(SAMPLES, 'choice.jsonl');

/** `SAMPLE` written to OUT as `name` by `write` (its bytes in, the file's bytes out). */
function made(name, write) {
  const path = join(OUT, name);
  writeFileSync(path, write(readFileSync(SAMPLE)));
  return path;
}

/** UTF-16 with a byte-order mark, as PowerShell writes (LE) or big-endian. */
function utf16(bytes, bigEndian) {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(bytes.toString('utf8'), 'utf16le')]);
  if (!bigEndian) return le;
  for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
  return le;
}

/** Drops `path` alone and checks every figure against the CLI's report for the same file. */
async function scoresAsCli(path) {
  const ref = cli([path]);
  assert.equal(ref.status, 0, ref.stderr);
  const plain = cli([SAMPLE]);
  assert.equal(ref.report.items, plain.report.items, 'the CLI reads the file as the sample it holds');
  const t = await open(env);
  await drop(t.page, [path]);
  assert.ok(await settled(t.page), `a report for ${path}, not an error`);
  await checkShown(t.page, ref.report);
  await t.done();
}

test('a .jsonl.gz scores as the CLI scores it', async () => {
  await scoresAsCli(made('choice.jsonl.gz', (b) => gzipSync(b)));
});

test('two gzip members one after the other (cat a.gz b.gz) are one file', async () => {
  const text = readFileSync(SAMPLE, 'utf8').split('\n').filter(Boolean);
  const half = Math.floor(text.length / 2);
  await scoresAsCli(made('halves.jsonl.gz', () => Buffer.concat([
    gzipSync(text.slice(0, half).join('\n') + '\n'),
    gzipSync(text.slice(half).join('\n') + '\n'),
  ])));
});

test('a .zst scores as the CLI scores it', async () => {
  const plain = join(OUT, 'choice-zst.jsonl');
  copyFileSync(SAMPLE, plain);
  rmSync(`${plain}.zst`, { force: true });
  execFileSync('zstd', ['-q', plain, '-o', `${plain}.zst`]);
  await scoresAsCli(`${plain}.zst`);
});

test('UTF-16 files (little- and big-endian, and gzipped) score as the CLI scores them', async () => {
  await scoresAsCli(made('choice-utf16le.jsonl', (b) => utf16(b, false)));
  await scoresAsCli(made('choice-utf16be.jsonl', (b) => utf16(b, true)));
  await scoresAsCli(made('choice-utf16.jsonl.gz', (b) => gzipSync(utf16(b, false))));
});

test('a .gz cut short says which file could not be decoded, and why', async () => {
  const whole = gzipSync(readFileSync(SAMPLE));
  const path = join(OUT, 'cut.jsonl.gz');
  writeFileSync(path, whole.subarray(0, 200));
  const t = await open(env);
  await drop(t.page, [path]);
  await t.page.waitForSelector('[data-testid=not-read][open]');
  assert.equal(await t.page.textContent('[data-testid=not-read] li'),
    'cut.jsonl.gz: a gzip file that could not be decoded (cut short?): incomplete deflate stream');
  await t.done();
});

const HELM_SUITE = join(ROOT, 'tests/fixtures/helm/suite');
const HELM_RUN = join(HELM_SUITE, 'runs/fix/simple_mcqa:model=simple_model1');
const LM_FOLDER = join(ROOT, 'tests/fixtures/lm_eval/output_folder');

/** The CLI on a path (a folder or a file) with `extra` options: its status, JSON and stderr. */
function cliOn(path, extra = []) {
  const r = spawnSync(CLI, ['score', '--json', ...extra, path], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { status: r.status, stderr: r.stderr, report: r.status === 0 ? JSON.parse(r.stdout) : null };
}

/** The grouping line the CLI prints for several runs ("scorelens: 2 runs: …"). */
function cliSummary(path, extra = []) {
  const line = cliOn(path, extra).stderr.split('\n').find((l) => /^scorelens: \d+ runs?: /.test(l));
  return line && line.replace(/^scorelens: /, '');
}

/** Chooses a folder with the folder chooser, as a user would. */
async function chooseFolder(page, dir) {
  await page.setInputFiles('[data-testid=folder-input]', dir);
  await page.waitForSelector('[data-testid=grouping]');
}

/** The tab titles, in order. */
async function tabs(page) {
  return page.$$eval('.tab-name', (b) => b.map((x) => x.textContent));
}

/** Shows the run named `name` and checks its figures against the CLI's on `dir`. */
async function runAsCli(page, name, dir) {
  const ref = cliOn(dir);
  assert.equal(ref.status, 0, ref.stderr);
  // A tab is titled by the run's model once scored; runs of one model add the run's name.
  if ((await tabs(page)).length > 1) await page.locator('.tab-name', { hasText: name }).click();
  assert.ok(await settled(page), `a report for ${name}`);
  await checkShown(page, ref.report);
}

test('a HELM run folder chosen is one run, with the CLI figures for the folder', async () => {
  const t = await open(env);
  await chooseFolder(t.page, HELM_RUN);
  assert.equal(await t.page.getAttribute('[data-testid=grouping]', 'data-runs'), '1');
  assert.equal((await tabs(t.page)).length, 1);
  assert.equal(await t.page.textContent('[data-testid=grouping-summary]'), '1 run: simple_mcqa:model=simple_model1, 8 files');
  await runAsCli(t.page, 'simple_mcqa:model=simple_model1', HELM_RUN);
  await t.done();
});

test('a HELM suite chosen gives its two runs, grouped as the CLI groups them', async () => {
  const t = await open(env);
  await chooseFolder(t.page, HELM_SUITE);
  assert.equal(await t.page.getAttribute('[data-testid=grouping]', 'data-runs'), '2');
  assert.equal(await t.page.textContent('[data-testid=grouping-summary]'), cliSummary(HELM_SUITE));
  const runs = join(HELM_SUITE, 'runs/fix');
  for (const run of ['simple_mcqa:model=simple_model1', 'simple_mcqa_separate:model=simple_model1']) {
    await runAsCli(t.page, run, join(runs, run));
  }
  // The suite's own files describe runs and hold none: listed once, collapsed.
  const notRead = t.page.locator('[data-testid=not-read]');
  assert.equal(await notRead.getAttribute('open'), null, 'collapsed when runs were read');
  assert.match(await notRead.locator('summary').textContent(), /^\d+ files not read$/);
  await t.done();
});

test('an lm-eval output folder of two models gives one run per model; regrouping re-scores', async () => {
  const t = await open(env);
  const { page } = t;
  await chooseFolder(page, LM_FOLDER);
  assert.equal(await page.textContent('[data-testid=grouping-summary]'), cliSummary(LM_FOLDER));
  assert.equal(await page.textContent('[data-testid=grouping-summary]'), '2 runs: model-a, 3 files; model-b, 3 files');
  await runAsCli(page, 'model-a', join(LM_FOLDER, 'model-a'));
  await runAsCli(page, 'model-b', join(LM_FOLDER, 'model-b'));
  await page.click('[data-testid=grouping] button[data-how=per-file]');
  await page.waitForSelector('[data-testid=grouping][data-how=per-file]');
  assert.equal(await page.getAttribute('[data-testid=grouping]', 'data-runs'), '6');
  assert.equal(await page.textContent('[data-testid=grouping-summary]'), cliSummary(LM_FOLDER, ['--runs-per-file']));
  assert.equal((await tabs(page)).length, 6, 'the two runs were replaced by six');
  await page.click('[data-testid=grouping] button[data-how=one]');
  await page.waitForSelector('[data-testid=grouping][data-how=one]');
  assert.equal(await page.getAttribute('[data-testid=grouping]', 'data-runs'), '1');
  assert.equal((await tabs(page)).length, 1);
  const one = cliOn(LM_FOLDER, ['--one-run']);
  assert.equal(one.status, 0, one.stderr);
  assert.ok(await settled(page));
  await checkShown(page, one.report);
  await t.done();
});

test('a file no reader claims, dropped alone, is described once, in the words of the CLI', async () => {
  const path = join(OUT, 'notes.txt');
  writeFileSync(path, 'these are my notes about the run\n');
  const note = spawnSync(CLI, ['score', '--json', path, SAMPLE], { encoding: 'utf8' }).stderr
    .split('\n').find((l) => l.startsWith('note: '));
  const t = await open(env);
  await drop(t.page, [path]);
  await t.page.waitForSelector('[data-testid=not-read][open]');
  const text = await t.page.textContent('[data-testid=not-read] li');
  const why = text.replace(/^notes\.txt: /, '');
  assert.equal(note, `note: ${path}: not read: ${why.split('. scorelens reads')[0]}`, 'the CLI names the same reason');
  assert.equal(await t.page.textContent('[data-testid=not-read] summary'), '1 file not read');
  const body = await t.page.textContent('main');
  assert.equal(body.split(why).length - 1, 1, 'the reason is shown once');
  assert.equal(await t.page.$('.tab-name'), null, 'no run is made of it');
  await t.done();
});

test('a file no reader claims dropped with others never stops them', async () => {
  const path = join(OUT, 'notes.txt');
  writeFileSync(path, 'these are my notes about the run\n');
  const t = await open(env);
  await drop(t.page, [path, SAMPLE]);
  assert.ok(await settled(t.page));
  await checkShown(t.page, cli([SAMPLE]).report);
  assert.equal(await t.page.textContent('[data-testid=not-read] summary'), '1 file not read');
  await t.done();
});

const ZIPS = join(ROOT, 'tests/fixtures/zip');

test('a .zip of an lm-eval output folder dropped is read as the folder: a run per model, the CLI figures', async () => {
  const zip = join(ZIPS, 'lm_eval_output.zip');
  const t = await open(env);
  const { page } = t;
  await drop(page, [zip]);
  await page.waitForSelector('[data-testid=grouping]');
  assert.equal(await page.textContent('[data-testid=grouping-summary]'), cliSummary(zip));
  assert.equal(await page.textContent('[data-testid=grouping-summary]'), '2 runs: model-a, 3 files; model-b, 3 files');
  // Scored in the page from the zip, checked against the CLI on the unzipped folder.
  await runAsCli(page, 'model-a', join(LM_FOLDER, 'model-a'));
  await runAsCli(page, 'model-b', join(LM_FOLDER, 'model-b'));
  assert.equal(await page.$('[data-testid=not-read]'), null, 'every entry was read');
  // Regrouping opens the zip again.
  await page.click('[data-testid=grouping] button[data-how=per-file]');
  await page.waitForSelector('[data-testid=grouping][data-how=per-file]');
  assert.equal(await page.getAttribute('[data-testid=grouping]', 'data-runs'), '6');
  assert.equal(await page.textContent('[data-testid=grouping-summary]'), cliSummary(zip, ['--runs-per-file']));
  await t.done();
});

test('a .zip chosen with gzip and zstd entries inside scores them; what it cannot read is listed quietly', async () => {
  const zip = join(ZIPS, 'mixed.zip');
  const mixed = join(ZIPS, 'mixed');
  const t = await open(env);
  const { page } = t;
  await page.setInputFiles('[data-testid=file-input]', zip);
  await page.waitForSelector('[data-testid=grouping]');
  assert.equal(await page.textContent('[data-testid=grouping-summary]'), cliSummary(zip));
  // model-a from a DEFLATE entry and a gzipped one, model-b from a stored zstd file.
  const a = spawnSync(CLI, ['score', '--json', join(mixed, 'model-a.jsonl'), join(mixed, 'more/model-a-rest.jsonl.gz')],
    { encoding: 'utf8' });
  assert.equal(a.status, 0, a.stderr);
  a.report = JSON.parse(a.stdout);
  await page.locator('.tab-name', { hasText: 'synthetic-model-a' }).click();
  assert.ok(await settled(page));
  await checkShown(page, a.report);
  const b = cli([join(mixed, 'model-b.jsonl.zst')]);
  await page.locator('.tab-name', { hasText: 'synthetic-model-b' }).click();
  assert.ok(await settled(page));
  await checkShown(page, b.report);
  const notRead = page.locator('[data-testid=not-read]');
  assert.equal(await notRead.getAttribute('open'), null, 'collapsed when runs were read');
  assert.equal(await notRead.locator('summary').textContent(), '2 files not read');
  const items = await notRead.locator('li').allTextContents();
  assert.equal(items.length, 2);
  assert.ok(items.includes('mixed.zip/mixed/bzip2.jsonl: compressed with zip method 12, which scorelens does not '
    + 'read: zip the files again with the usual compression (DEFLATE), or unzip them'), items.join('\n'));
  assert.ok(items.some((i) => i.startsWith('mixed.zip/mixed/notes.txt: not a file scorelens reads: text')), items.join('\n'));
  await t.done();
});

test('an Inspect .eval stays one file, and a damaged .zip says why', async () => {
  const cut = join(OUT, 'cut.zip');
  const whole = readFileSync(join(ZIPS, 'helm_suite.zip'));
  writeFileSync(cut, whole.subarray(0, whole.length >> 1));
  const t = await open(env);
  await drop(t.page, [cut, join(ROOT, 'tests/fixtures/inspect/colour_mc.eval')]);
  assert.ok(await settled(t.page));
  await checkShown(t.page, cli([join(ROOT, 'tests/fixtures/inspect/colour_mc.eval')]).report);
  const why = await t.page.textContent('[data-testid=not-read] li');
  assert.match(why, /^cut\.zip: a zip archive whose directory cannot be read \(.*\): it may be cut short or damaged$/);
  await t.done();
});

test('a folder dropped from the desktop: its items are directory entries, read recursively', async () => {
  // Chromium's own drag path: CDP's Input.dispatchDragEvent with the folder's path in
  // `data.files`, as the OS hands a drop over. The page gets a DataTransferItem whose
  // webkitGetAsEntry() is a directory entry, and walks it (src/web/folders.rs); neither the folder
  // chooser nor a File built in the page is involved. The grouping proves the entries were walked:
  // lm-eval's files group by their model folders only when their paths come with them.
  const t = await open(env);
  const { page } = t;
  const cdp = await page.context().newCDPSession(page);
  const box = await page.locator('[data-testid=drop-zone]').boundingBox();
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const data = { items: [], files: [LM_FOLDER], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop']) {
    await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
  }
  await page.waitForSelector('[data-testid=grouping]');
  assert.equal(await page.textContent('[data-testid=grouping-summary]'), cliSummary(LM_FOLDER));
  assert.equal(await page.textContent('[data-testid=grouping-summary]'), '2 runs: model-a, 3 files; model-b, 3 files');
  await runAsCli(page, 'model-a', join(LM_FOLDER, 'model-a'));
  await runAsCli(page, 'model-b', join(LM_FOLDER, 'model-b'));
  await t.done();
});
