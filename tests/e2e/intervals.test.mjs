// Intervals in the app: the worker's bootstrap after the report is shown, the cards'
// 95% intervals against the CLI's `--json --bootstrap 2000 --seed 2024`, the export with them (the
// wasm's intervals are the native binary's, same seed, bit for bit), the reliability whiskers (Wilson or Clopper-Pearson), the "computing" state, a rescore
// and a close mid-bootstrap, and the limit above which the browser does not resample.
import { after, before, test } from 'node:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, cli, drop, manyItems, open, OUT, pick, SAMPLES, settled, setup, status } from './harness.mjs';
import { same } from './check.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => {
  await env.close();
});


const BOOT = ['--bootstrap', '2000', '--seed', '2024'];
const CHOICE = join(SAMPLES, 'choice.jsonl');
const JEV = join(SAMPLES, 'jevbench-public-231.jsonl');
const RB = join(SAMPLES, 'rewardbench-v1-outputs.jsonl');

/** Every number of `a` that is not bit for bit the one of `b` ({path, a, b}), and any other difference. */
function bitDiffs(a, b, path = '$', out = []) {
  if (typeof a === 'number' && typeof b === 'number') {
    if (!Object.is(a, b)) out.push({ path, a, b });
  } else if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    if (a !== b) out.push({ path, a: JSON.stringify(a), b: JSON.stringify(b) });
  } else {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.join('\u0000') !== kb.join('\u0000')) out.push(`${path}: keys ${ka} vs ${kb}`);
    for (const k of ka) if (k in b) bitDiffs(a[k], b[k], `${path}.${k}`, out);
  }
  return out;
}

async function intervalsDone(page) {
  await page.waitForSelector('.report [data-testid=intervals-status][data-state=done]', { timeout: 120000 });
}

async function exportJson(page) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('[data-export=json]')]);
  return readFileSync(await d.path(), 'utf8');
}

/**
 * The export is the CLI's `--json --bootstrap 2000 --seed 2024`: every number bit for bit (the NLL
 * and the Clopper-Pearson bounds included: the core's ln and exp are the same on both targets,
 * src/math.rs), and the text byte for byte.
 */
function sameAsCli(text, ref, label) {
  const diffs = bitDiffs(JSON.parse(text), ref.report, label);
  assert.deepEqual(diffs.map((d) => `${d.path}: wasm ${d.a} vs native ${d.b}`), [], `${label}: the export is the native CLI's, bit for bit`);
  assert.equal(text, ref.stdout, `${label}: byte for byte the CLI's --json --bootstrap`);
  const figures = Object.keys(ref.report.intervals.bootstrap.figures);
  assert.ok(figures.length >= 1, `${label}: figures compared`);
}

/** How the page writes a figure of the card `key` (see src/web/fmt.rs). */
function kindOf(key) {
  if (key === 'accuracy' || key === 'invalid_share' || key.startsWith('rb-')) return 'share';
  if (key === 'i' || key === 'c') return 'points';
  return 'score';
}

/** `text` writes `v` as the page would: its precision, rounded (ties to even are within 0.5 too). */
function closeTo(text, v, kind, label) {
  const decimals = kind === 'score' ? 3 : 1;
  const target = kind === 'share' ? v * 100 : v;
  const shown = Number.parseFloat(text.replace('\u2212', '-'));
  assert.equal((text.replace('%', '').split('.')[1] || '').length, decimals, `${label}: ${decimals} decimals in ${text}`);
  assert.ok(Math.abs(shown - target) <= 0.5 * 10 ** -decimals + 1e-9, `${label}: shows ${text} for ${v}`);
}

/** Every interval on the cards: [card key, path, method, lo, hi, text, title]. */
function shownIntervals(page) {
  return page.$$eval('.report .card .card-ci', (els) => els.map((e) => [
    e.closest('.card').dataset.figure, e.dataset.path, e.dataset.method,
    e.dataset.lo, e.dataset.hi, e.textContent, e.getAttribute('title'),
  ]));
}

/** The cards' intervals are the CLI's bootstrap figures, exactly, and written as the page writes them. */
async function checkCards(page, boot, label) {
  const shown = await shownIntervals(page);
  assert.ok(shown.length > 0, `${label}: intervals on the cards`);
  for (const [key, path, method, lo, hi, text, title] of shown) {
    const f = boot.figures[path];
    assert.ok(f, `${label}: ${key} (${path}) has a bootstrap interval in the CLI's report`);
    assert.equal(method, 'bootstrap', `${label}: ${key} shows the bootstrap's interval`);
    assert.ok(Object.is(Number(lo), f.lo) && Object.is(Number(hi), f.hi), `${label}: ${path} ${lo}–${hi}, CLI ${f.lo}–${f.hi}`);
    const m = /95%: (\S+) to (\S+)$/.exec(text.trim());
    assert.ok(m, `${label}: ${key} writes "95%: lo to hi": ${text}`);
    closeTo(m[1], f.lo, kindOf(key), `${label} ${path} lo`);
    closeTo(m[2], f.hi, kindOf(key), `${label} ${path} hi`);
    assert.match(title, /percentile bootstrap: 2000 resamples, seed 2024/, `${label}: ${key} names the method`);
  }
  return shown;
}

/** Every card whose figure the CLI bootstrapped shows an interval. */
async function checkCovered(page, boot, label) {
  const cards = await page.$$eval('.report .card[data-path]', (els) => els
    .filter((e) => e.dataset.path !== '')
    .map((e) => [e.dataset.path, e.querySelector('.card-ci') !== null]));
  for (const [path, has] of cards) {
    if (boot.figures[path]) assert.ok(has, `${label}: the ${path} card shows its interval`);
  }
}

test('choice: the cards show the CLI\'s bootstrap intervals; the export is --json --bootstrap 2000 --seed 2024', async () => {
  const t = await open(env);
  const { page } = t;
  await drop(page, [CHOICE]);
  assert.ok(await settled(page));
  await intervalsDone(page);
  const ref = cli([CHOICE], BOOT);
  const boot = ref.report.intervals.bootstrap;
  assert.equal(boot.resamples, 2000);
  assert.equal(boot.seed, 2024);
  sameAsCli(await exportJson(page), ref, 'choice');
  const note = await page.textContent('.report [data-testid=intervals-status]');
  assert.match(note, /2000 resamples, seed 2024/);
  // Conditioning (the default), mixing, and both side by side.
  const cond = await checkCards(page, boot, 'choice conditioning');
  await checkCovered(page, boot, 'choice');
  for (const p of ['metrics.accuracy', 'metrics.normalized', 'conditioning.ece', 'conditioning.brier', 'conditioning.epa', 'ic.i', 'ic.c']) {
    assert.ok(cond.some((s) => s[1] === p), `choice: a card shows ${p}`);
  }
  await page.click('[data-testid=reading-mixing]');
  const mix = await checkCards(page, boot, 'choice mixing');
  assert.ok(mix.some((s) => s[1] === 'mixing.ece') && !mix.some((s) => s[1].startsWith('conditioning.')));
  await page.click('[data-testid=reading-both]');
  const both = await checkCards(page, boot, 'choice both');
  assert.equal(both.filter((s) => s[0] === 'ece').length, 2, 'both readings: two ECE intervals');
  await t.done();
});

test('JevBench: I and C with their stratified intervals, equal to the CLI\'s', async () => {
  const t = await open(env);
  const { page } = t;
  await drop(page, [JEV]);
  assert.ok(await settled(page));
  await intervalsDone(page);
  const ref = cli([JEV], BOOT);
  const boot = ref.report.intervals.bootstrap;
  assert.equal(boot.strata, 'split × type × tier');
  sameAsCli(await exportJson(page), ref, 'jevbench');
  const shown = await checkCards(page, boot, 'jevbench');
  for (const key of ['i', 'c']) assert.ok(shown.some((s) => s[0] === key), `the ${key} card shows an interval`);
  await t.done();
});

test('RewardBench: overall and section cards with their intervals', async () => {
  const t = await open(env);
  const { page } = t;
  await drop(page, [RB]);
  assert.ok(await settled(page));
  await intervalsDone(page);
  const ref = cli([RB], BOOT);
  const boot = ref.report.intervals.bootstrap;
  sameAsCli(await exportJson(page), ref, 'rewardbench');
  const shown = await checkCards(page, boot, 'rewardbench');
  const paths = shown.map((s) => s[1]);
  assert.ok(paths.includes('rewardbench.overall'));
  for (const name of ref.report.rewardbench.sections ? Object.keys(ref.report.rewardbench.sections) : []) {
    if (boot.figures[`rewardbench.sections.${name}`]) assert.ok(paths.includes(`rewardbench.sections.${name}`), `section ${name}`);
  }
  await t.done();
});

test('reliability whiskers: Wilson by default, Clopper-Pearson on the switch', async () => {
  const t = await open(env);
  const { page } = t;
  await drop(page, [CHOICE]);
  assert.ok(await settled(page));
  const bins = cli([CHOICE]).report.conditioning.bins.filter((b) => b.count > 0);
  const whiskers = () => page.$$eval('[data-testid=reliability] g.ci', (els) => els.map((e) => [Number(e.dataset.lo), Number(e.dataset.hi)]));
  const check = async (lo, hi, name) => {
    const w = await whiskers();
    assert.equal(w.length, bins.length, `${name}: one whisker per non-empty bin`);
    bins.forEach((b, k) => {
      assert.ok(same(w[k][0], b[lo], `${name} bin ${k} lo`) && same(w[k][1], b[hi], `${name} bin ${k} hi`), `${name} bin ${k}: ${w[k]} vs ${b[lo]}–${b[hi]}`);
    });
    assert.match(await page.textContent('[data-testid=reliability] figcaption'), new RegExp(`Whiskers: 95% ${name} intervals`));
  };
  await check('ci_lo', 'ci_hi', 'Wilson');
  await page.click('[data-testid=whiskers-cp]');
  await check('cp_lo', 'cp_hi', 'Clopper–Pearson');
  // An all-correct bin: Clopper-Pearson's upper end is 1 and its lower end (α/2)^(1/n).
  const full = bins.findIndex((b) => b.accuracy === 1);
  if (full >= 0) assert.equal((await whiskers())[full][1], 1);
  await page.click('[data-testid=whiskers-wilson]');
  await check('ci_lo', 'ci_hi', 'Wilson');
  await t.done();
});

/** A synthetic choice file with probabilities, `n` items in 8 groups, made reproducibly. */
function synthetic(n, name, model = 'synthetic') {
  let x = 12345;
  const rand = () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648; };
  const lines = [JSON.stringify({ scorelens: 1, model, benchmark: 'generic' })];
  for (let i = 0; i < n; i++) {
    const p = 0.25 + 0.7 * rand();
    const rest = (1 - p) / 3;
    const gold = 'ABCD'[Math.floor(rand() * 4)];
    const top = rand() < p ? gold : 'ABCD'[Math.floor(rand() * 4)];
    const probs = {};
    for (const o of 'ABCD') probs[o] = Number((o === top ? p : rest).toFixed(4));
    lines.push(JSON.stringify({ id: `s${i}`, type: 'choice', group: `g${i % 8}`, options: ['A', 'B', 'C', 'D'], gold, probs }));
  }
  const path = join(OUT, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

test('a longer bootstrap: "computing" while it runs, and a rescore mid-way gives the new profile\'s intervals', async () => {
  const file = synthetic(20000, 'intervals-20k.jsonl');
  const t = await open(env);
  const { page } = t;
  await drop(page, [file]);
  assert.ok(await settled(page));
  // While it runs: the note counts, figures without a Wilson interval say so, accuracy keeps Wilson's.
  await page.waitForSelector('.report [data-testid=intervals-status][data-state=computing]', { timeout: 30000 });
  assert.match(await page.textContent('.report [data-testid=intervals-status]'), /computing intervals… \d+% of 2000/);
  assert.ok(await page.$('.report .card[data-figure=ece] .card-ci[data-method=pending]'), 'ECE: computing');
  assert.ok(await page.$('.report .card[data-figure=accuracy] .card-ci[data-method=wilson]'), 'accuracy: Wilson meanwhile');
  // Scored again under another profile: the first bootstrap stops, the new one is the new profile's.
  assert.equal(await page.getAttribute('.report [data-testid=intervals-status]', 'data-state'), 'computing', 'still computing');
  await page.selectOption('[data-testid=profile]', 'steer');
  assert.ok(await settled(page));
  await intervalsDone(page);
  const ref = cli([file], [...BOOT, '--profile', 'steer']);
  sameAsCli(await exportJson(page), ref, 'rescored');
  await checkCards(page, ref.report.intervals.bootstrap, 'rescored');
  await t.done();
});

test('closing a run mid-bootstrap stops it: the worker posts no more progress for it', async () => {
  const file = synthetic(60000, 'intervals-60k.jsonl');
  const t = await open(env);
  const { page } = t;
  await drop(page, [file]);
  assert.ok(await settled(page));
  await page.waitForSelector('.report [data-testid=intervals-status][data-state=computing]', { timeout: 30000 });
  // Record the worker's messages in order (the wasm posts through `self.postMessage`).
  const [worker] = page.workers();
  await worker.evaluate(() => {
    self.posted = [];
    const post = self.postMessage.bind(self);
    self.postMessage = (m, ...rest) => {
      if (m && typeof m === 'object') self.posted.push(m);
      return post(m, ...rest);
    };
  });
  const posted = () => worker.evaluate(() => self.posted.map((m) => Object.keys(m)[0] + ':' + (Object.values(m)[0].run ?? '')));
  // A worker has no waitForFunction: ask it until it has posted progress twice.
  for (const end = Date.now() + 30000; await worker.evaluate(() => self.posted.filter((m) => m.IntervalsProgress).length < 2);) {
    assert.ok(Date.now() < end, 'the bootstrap posts progress');
  }
  const [closed] = (await posted()).filter((m) => m.startsWith('IntervalsProgress:')).map((m) => m.split(':')[1]);
  assert.equal(await page.getAttribute('.report [data-testid=intervals-status]', 'data-state'), 'computing', 'still computing when closed');
  await page.click('.tab-close');
  // The worker says when the closed run's bootstrap has ended; the page is idle after that.
  await status(page, 'idle');
  // The worker goes on: the next run gets its intervals, the CLI's.
  await drop(page, [CHOICE]);
  assert.ok(await settled(page));
  await intervalsDone(page);
  sameAsCli(await exportJson(page), cli([CHOICE], BOOT), 'after a close');
  // Of the closed run, nothing after `Stopped`: the next run's intervals came later, so anything
  // the closed run still posted would be recorded by now.
  const after = (await posted()).filter((m) => m.endsWith(`:${closed}`));
  assert.equal(after.at(-1), `Stopped:${closed}`, `the closed run's last message is Stopped: ${after.join(', ')}`);
  assert.ok(after.filter((m) => m.startsWith('IntervalsProgress')).length >= 2, 'progress while the bootstrap ran');
  await t.done();
});

test('several runs: the shown run\'s intervals are drawn first, then the others in the order they were scored', async () => {
  // The third is the largest, read last: only its being shown can put its intervals first.
  const files = [['a', 15000], ['b', 15000], ['c', 40000]].map(([k, n]) => synthetic(n, `intervals-turn-${k}.jsonl`, `turn-${k}`));
  const t = await open(env);
  const { page } = t;
  // The worker starts when the formats list opens; record what it is told and what it posts.
  const started = page.waitForEvent('worker');
  await page.click('#formats summary');
  const worker = page.workers()[0] ?? await started;
  await worker.evaluate(() => {
    self.seen = [];
    self.addEventListener('message', (e) => { if (e.data?.Showing) self.seen.push(`Showing:${e.data.Showing.run}`); });
    const post = self.postMessage.bind(self);
    self.postMessage = (m, ...rest) => {
      if (m?.Intervals) self.seen.push(`Intervals:${m.Intervals.run}`);
      if (m?.Scored) self.seen.push(`Scored:${m.Scored.run}`);
      return post(m, ...rest);
    };
  });
  await pick(page, files);
  // The third run is opened as soon as its tab is there, before the first run's turn is over.
  await page.waitForSelector('.tab:nth-child(3) .tab-name');
  assert.equal(await page.textContent('.tab:nth-child(3) .tab-name'), 'turn-c', 'the third tab is the third file\'s run');
  await page.click('.tab:nth-child(3) .tab-name');
  assert.ok(await settled(page));
  await intervalsDone(page);
  await status(page, 'done', 120000);
  const seen = await worker.evaluate(() => self.seen);
  const shown = seen.filter((m) => m.startsWith('Showing:')).at(-1)?.split(':')[1];
  const order = seen.filter((m) => m.startsWith('Intervals:')).map((m) => m.split(':')[1]);
  assert.equal(order.length, 3, `every run's intervals were posted once: ${seen.join(', ')}`);
  assert.equal(order[0], shown, `the shown run's intervals came first: ${seen.join(', ')}`);
  const scored = seen.filter((m) => m.startsWith('Scored:')).map((m) => m.split(':')[1]);
  // Its intervals first must be the page's doing: another run was scored before it (the worker
  // reads the runs side by side, so which of the others ends last varies with the machine).
  assert.notEqual(scored[0], shown, `another run was scored before the shown one: ${seen.join(', ')}`);
  assert.deepEqual(order.slice(1), scored.filter((r) => r !== shown), `then the others in the order they were scored: ${seen.join(', ')}`);
  await t.done();
});

test('more items than the browser resamples: says so, and the export has no bootstrap', async () => {
  const path = manyItems('intervals-200k.jsonl', 200001);
  const t = await open(env);
  const { page } = t;
  await drop(page, [path]);
  assert.ok(await settled(page, 120000));
  await page.waitForSelector('.report [data-testid=intervals-status][data-state=skipped]', { timeout: 60000 });
  assert.match(await page.textContent('.report [data-testid=intervals-status]'), /200001 items: more than the browser resamples \(200000\)/);
  const exported = JSON.parse(await exportJson(page));
  assert.equal(exported.intervals.bootstrap, null);
  assert.equal((await shownIntervals(page)).map((s) => s[2]).join(), 'wilson', 'only the accuracy\'s Wilson interval');
  await t.done();
});
