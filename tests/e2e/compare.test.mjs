// The comparison view's differences against the native CLI: two sample files of one benchmark
// (395 items each, 390 shared) are dropped, the worker compares them, and every delta, interval,
// "differs" mark, McNemar p and "only in one file" list the page shows must equal
// `scorelens compare --json` on the same files, as numbers (data-value) and as written (text, with
// the page's formatting written again here). The exported comparison JSON must be the CLI's;
// so with three runs (three pairs, and the items no other run has); other settings and Stop
// work, and payload ids and model names stay text.
import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { assert, cli, CLI, drop, open, OUT, ROOT, SAMPLES, setup, status } from './harness.mjs';
import { diffJson, same } from './check.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

const A = join(SAMPLES, 'compare/model-a.jsonl');
const FIXTURES = join(ROOT, 'tests/e2e/fixtures');
const B = join(SAMPLES, 'compare/model-b.jsonl');

/** `scorelens compare --json` run from the files' folder, so runs are named as the browser names them. */
function compareCli(files, extra = []) {
  const r = spawnSync(CLI, ['compare', '--json', ...extra, ...files.map((f) => basename(f))], {
    cwd: dirname(files[0]), encoding: 'utf8', maxBuffer: 1 << 26,
  });
  assert.equal(r.status, 0, `scorelens compare failed: ${r.stderr}`);
  return { text: r.stdout, json: JSON.parse(r.stdout) };
}

// The page's formatting (src/web/deltas.rs, src/web/fmt.rs), written again.
const MINUS = '\u2212';
function kindOf(path) {
  if (['metrics.accuracy', 'metrics.macro_accuracy', 'metrics.invalid_share'].includes(path) || path.startsWith('rewardbench.')) return 'share';
  if (path.startsWith('ic.')) return 'points';
  return 'score';
}
const decimals = { share: 1, score: 3, points: 1 };
const scale = (x, kind) => (kind === 'share' ? x * 100 : x);
function plain(x, kind) {
  return kind === 'share' ? `${(x * 100).toFixed(1)}%` : x.toFixed(decimals[kind]);
}
function signed(x, kind) {
  const v = scale(x, kind);
  const s = Math.abs(v).toFixed(decimals[kind]);
  if (/^[0.]*$/.test(s)) return s;
  return v < 0 ? `${MINUS}${s}` : `+${s}`;
}
const unit = (kind) => (kind === 'share' ? ' pp' : '');
const pText = (p) => (p === null ? '–' : p < 0.0001 ? '< 0.0001' : p.toFixed(4));
const count = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
function onlyText(o, who) {
  if (o.count === 0) return `No item is only in ${who}.`;
  const more = o.ids.length < o.count ? ', …' : '';
  return `${count(o.count)} ${o.count === 1 ? 'item is' : 'items are'} only in ${who}: ${o.ids.join(', ')}${more}`;
}

async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: d.suggestedFilename(), bytes: readFileSync(await d.path()) };
}

/** Waits for a finished comparison with these settings. */
async function compared(page, resamples, seed) {
  await page.waitForFunction(
    ([r, s]) => {
      const el = document.querySelector('[data-testid=compare-settings]');
      return el && el.textContent.includes(`${r} resamples, seed ${s},`) && document.querySelector('[data-testid=deltas] .pair');
    },
    [resamples, seed],
    { timeout: 120000 },
  );
}

/**
 * Everything the page shows of pair `k` (runs `i` and `j`, in the CLI's order of pairs: 0-1,
 * 0-2, ..., 1-2, ...), checked against the CLI's comparison.
 */
async function checkPair(page, ref, k = 0, i = 0, j = 1) {
  const p = ref.pairs[k];
  const all = ref.runs.map((r) => r.model ?? r.name);
  const names = [all[i], all[j]];
  const pair = `[data-testid=deltas] .pair[data-pair="${k}"]`;
  assert.equal((await page.textContent(`${pair} h3`)).trim(), `${names[0]} ${MINUS} ${names[1]}`);
  const rows = await page.$$eval(`${pair} tbody tr`, (trs) => trs.map((tr) => {
    const td = tr.querySelectorAll('td');
    const interval = tr.querySelector('td.interval');
    return {
      figure: tr.dataset.figure,
      distinguishable: tr.dataset.distinguishable,
      marked: tr.classList.contains('distinguishable'),
      a: td[0].dataset.value, aText: td[0].textContent.trim(),
      b: td[1].dataset.value, bText: td[1].textContent.trim(),
      delta: td[2].dataset.value, deltaText: td[2].textContent.trim(),
      lo: interval.dataset.lo, hi: interval.dataset.hi, intervalText: interval.textContent.trim(),
      mark: td[4].textContent.trim(),
    };
  }));
  assert.deepEqual(rows.map((r) => r.figure), p.figures.map((f) => f.figure), 'every figure of the pair, in order');
  let marked = 0;
  const figures = p.figures;
  for (const f of figures) {
    const r = rows[figures.indexOf(f)];
    const kind = kindOf(f.figure);
    for (const k of ['a', 'b', 'delta', 'lo', 'hi']) {
      assert.ok(same(Number(r[k]), f[k]), `${f.figure} ${k}: page ${r[k]}, CLI ${f[k]}`);
    }
    assert.equal(r.aText, plain(f.a, kind), `${f.figure} A as written`);
    assert.equal(r.bText, plain(f.b, kind), `${f.figure} B as written`);
    assert.equal(r.deltaText, `${signed(f.delta, kind)}${unit(kind)}`, `${f.figure} delta as written`);
    assert.equal(r.intervalText, `${signed(f.lo, kind)} to ${signed(f.hi, kind)}${unit(kind)}`, `${f.figure} interval as written`);
    assert.equal(r.distinguishable, String(f.distinguishable), `${f.figure} distinguishable`);
    assert.equal(r.marked, f.distinguishable, `${f.figure} row marked`);
    assert.equal(r.mark, f.distinguishable ? '≠ 0' : '', `${f.figure} mark`);
    if (f.distinguishable) marked += 1;
  }
  // McNemar: the exact p and its text, and the discordant counts.
  const m = p.mcnemar;
  const mc = `${pair} [data-testid=mcnemar]`;
  const pShown = await page.getAttribute(mc, 'data-value');
  if (m.p_value === null) assert.equal(pShown, '', 'no McNemar p without shared binary items');
  else assert.ok(same(Number(pShown), m.p_value), 'McNemar p (data-value)');
  const mcText = (await page.textContent(mc)).replace(/\s+/g, ' ');
  assert.ok(mcText.includes(`p = ${pText(m.p_value)} (${m.only_a} right only for A, ${m.only_b} right only for B, ${m.both_right} both right, ${m.both_wrong} both wrong`), mcText);
  // Items in one file only: count, ids and the run they belong to.
  const only = await page.$$eval(`${pair} .only-in`, (ps) => ps.map((x) => ({ run: x.dataset.run, count: Number(x.dataset.count), text: x.textContent.trim() })));
  assert.deepEqual(only, [
    { run: p.only_a.run, count: p.only_a.count, text: onlyText(p.only_a, names[0]) },
    { run: p.only_b.run, count: p.only_b.count, text: onlyText(p.only_b, names[1]) },
  ]);
  return { marked };
}

test('two sample files: deltas, intervals, marks, McNemar and only-in lists equal the CLI, and the export is its JSON', async () => {
  const ref = compareCli([A, B]);
  // The sample files are what the docs say: 390 shared, 5 in each file only, B better by 0.09
  // accuracy beyond noise, McNemar p about 0.0002.
  const acc = ref.json.pairs[0].figures.find((f) => f.figure === 'metrics.accuracy');
  assert.equal(ref.json.pairs[0].common, 390);
  assert.ok(acc.distinguishable && Math.abs(acc.delta + 0.09) < 0.005, 'B is better by about 0.09');
  assert.equal(pText(ref.json.pairs[0].mcnemar.p_value), '0.0002');

  const t = await open(env);
  const { page } = t;
  await drop(page, [A, B]);
  await compared(page, 2000, 2024);
  const { marked } = await checkPair(page, ref.json);
  assert.ok(marked > 0 && marked < ref.json.pairs[0].figures.length, 'some figures differ, some do not');
  assert.equal(
    (await page.textContent('[data-testid=compare-settings]')).replace(/\s+/g, ' ').trim(),
    'Paired percentile bootstrap, 2000 resamples, seed 2024, 95% intervals. ≠ 0 marks a difference whose interval excludes 0 (not adjusted for the number of figures).',
  );
  // The export is `scorelens compare --json`, byte for byte (the core's maths give the same bits
  // in wasm and natively, see check.mjs).
  const json = await download(page, '[data-export=comparison-json]');
  assert.equal(json.name, 'comparison.json');
  const text = json.bytes.toString('utf8');
  assert.equal(diffJson(JSON.parse(text), ref.json), null, 'exported comparison equals the CLI');
  assert.equal(text, ref.text, 'exported comparison is the CLI output byte for byte');
  await page.locator('[data-testid=deltas]').screenshot({ path: join(OUT, 'compare-deltas.png') });

  // Pairs CSV carries each pair's differences and McNemar's counts, every digit; Pairs Markdown four decimals.
  const csv = (await download(page, '[data-export=comparison-csv]')).bytes.toString('utf8');
  const p = ref.json.pairs[0];
  assert.ok(csv.includes(`# ${p.a} (A) vs ${p.b} (B): ${p.common} common items`), csv);
  const accRow = csv.split('\n').find((l) => l.startsWith('metrics.accuracy,'));
  assert.ok(accRow, csv);
  const cells = accRow.split(',');
  assert.deepEqual(cells.slice(1, 6).map(Number), [acc.a, acc.b, acc.delta, acc.lo, acc.hi]);
  assert.equal(cells[8], acc.distinguishable ? 'yes' : 'no');
  const m = p.mcnemar;
  assert.ok(csv.includes(`${m.both_right},${m.only_a},${m.only_b},${m.both_wrong},${m.not_binary},`), csv);
  const md = (await download(page, '[data-export=comparison-md]')).bytes.toString('utf8');
  assert.ok(md.includes(`| metrics.accuracy | ${acc.a.toFixed(4)} | ${acc.b.toFixed(4)} |`), md);

  // A summary of the runs at the top: each run's headline, a link to its report and one to the
  // comparison.
  const summary = await page.$$eval('[data-testid=run-summary] tbody tr', (trs) => trs.map((tr) => ({
    run: tr.dataset.run,
    accuracy: Number(tr.querySelector('td[data-headline="metrics.accuracy"]')?.dataset.value),
  })));
  const want = [A, B].map((f) => cli([f]).report.metrics.accuracy);
  assert.deepEqual(summary.map((s) => s.accuracy), want);
  const top = await page.$eval('[data-testid=run-summary]', (e) => e.getBoundingClientRect().top + window.scrollY);
  const below = await page.$eval('[data-testid=comparison]', (e) => e.getBoundingClientRect().top + window.scrollY);
  assert.ok(top < below, 'the summary is above the comparison');
  await page.click('[data-testid=to-comparison]');
  await page.waitForFunction(() => Math.abs(document.querySelector('[data-testid=comparison]').getBoundingClientRect().top) < 5);
  await page.click(`[data-testid=run-summary] tbody tr[data-run="${summary[1].run}"] a`);
  await page.waitForFunction((id) => document.querySelector('[data-testid=report]')?.dataset.run === id, summary[1].run);
  await t.done();
});

/** A third model's file in OUT, beside copies of A and B: B with its first 7 items left out, the
 * probabilities of every fifth item turned around (a different answer, mostly), and 3 items of
 * its own; its model is named in its header. */
function third() {
  const [head, ...items] = readFileSync(B, 'utf8').trim().split('\n');
  const lines = [JSON.stringify({ ...JSON.parse(head), model: 'synthetic-model-c (not a real model)' })];
  items.slice(7).forEach((line, n) => {
    const item = JSON.parse(line);
    if (n % 5 === 0 && item.probs) {
      const keys = Object.keys(item.probs);
      const values = keys.map((key) => item.probs[key]).reverse();
      item.probs = Object.fromEntries(keys.map((key, m) => [key, values[m]]));
    }
    lines.push(JSON.stringify(item));
  });
  for (let n = 1; n <= 3; n++) {
    lines.push(JSON.stringify({ id: `c-only-${n}`, type: 'choice', options: ['A', 'B'], gold: 'A', probs: { A: 0.7, B: 0.3 } }));
  }
  const paths = [join(OUT, 'compare-3-a.jsonl'), join(OUT, 'compare-3-b.jsonl'), join(OUT, 'compare-3-c.jsonl')];
  writeFileSync(paths[0], readFileSync(A));
  writeFileSync(paths[1], readFileSync(B));
  writeFileSync(paths[2], lines.join('\n') + '\n');
  return paths;
}

test('three runs: every pair and the items no other run has equal the CLI, and the export is its JSON', async () => {
  const files = third();
  const ref = compareCli(files);
  assert.equal(ref.json.runs.length, 3);
  assert.equal(ref.json.pairs.length, 3, 'pairs a-b, a-c, b-c');
  assert.ok(ref.json.only_in[2].ids.includes('c-only-1'), 'the third file has items of its own');
  const t = await open(env);
  const { page } = t;
  await drop(page, files);
  await compared(page, 2000, 2024);
  let k = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = i + 1; j < 3; j++) {
      await checkPair(page, ref.json, k, i, j);
      k += 1;
    }
  }
  assert.equal(await page.locator('[data-testid=deltas] .pair').count(), 3);
  // With three runs, the items that no other run has, run by run, above the pairs.
  const names = ref.json.runs.map((r) => r.model ?? r.name);
  const alone = await page.$$eval('[data-testid=deltas] .only-in', (ps) => ps
    .filter((x) => !x.closest('.pair'))
    .map((x) => ({ run: x.dataset.run, count: Number(x.dataset.count), text: x.textContent.trim() })));
  assert.deepEqual(alone, ref.json.only_in.map((o, n) => ({ run: o.run, count: o.count, text: onlyText(o, names[n]) })));
  const json = await download(page, '[data-export=comparison-json]');
  assert.equal(json.bytes.toString('utf8'), ref.text, 'exported comparison is the CLI output byte for byte');
  await t.done();
});

test('resamples and seed can be changed, a long comparison can be stopped', async () => {
  const t = await open(env);
  const { page } = t;
  await drop(page, [A, B]);
  await compared(page, 2000, 2024);
  // A comparison too long to finish at once: progress shows, Stop stops it, and nothing arrives later.
  await page.fill('[data-testid=compare-resamples]', '100000');
  await page.dispatchEvent('[data-testid=compare-resamples]', 'change');
  await page.waitForSelector('[data-testid=compare-progress]');
  await page.click('[data-testid=compare-progress] button');
  await page.waitForSelector('[data-testid=compare-stopped]');
  // The worker says when the stopped comparison has ended (the page leaves `reading`); nothing of
  // it can follow, and the view still says stopped.
  await status(page, 'done');
  assert.ok(await page.$('[data-testid=compare-stopped]'), 'a stopped comparison stays stopped');
  // Other settings: the page equals the CLI's `--bootstrap 300 --seed 7`.
  await page.fill('[data-testid=compare-resamples]', '300');
  await page.dispatchEvent('[data-testid=compare-resamples]', 'change');
  await page.fill('[data-testid=compare-seed]', '7');
  await page.dispatchEvent('[data-testid=compare-seed]', 'change');
  await compared(page, 300, 7);
  await checkPair(page, compareCli([A, B], ['--bootstrap', '300', '--seed', '7']).json);
  // Closing a run ends the comparison view.
  await page.locator('.tab-close').nth(1).click();
  await page.waitForSelector('[data-testid=deltas]', { state: 'detached' });
  await t.done();
});

test('text from the files (model names, ids) is shown as text in the differences, never as markup', async () => {
  // The injection fixtures share no item: every id is in one file only, and the ids and model
  // names are HTML, SVG and javascript: payloads.
  const files = [join(FIXTURES, 'injection-a.jsonl'), join(FIXTURES, 'injection-b.jsonl')];
  const ref = compareCli(files);
  assert.ok(ref.json.only_in[0].ids.some((id) => id.includes('<script>')), 'the fixture has payload ids');
  const t = await open(env);
  const { page } = t;
  await drop(page, files);
  await compared(page, 2000, 2024);
  await checkPair(page, ref.json);
  const found = await page.evaluate(() => ({
    pwned: window.__pwned,
    elements: document.querySelectorAll('[data-testid=deltas] :is(script, img, svg, iframe, a)').length,
  }));
  assert.deepEqual(found, { pwned: undefined, elements: 0 });
  await t.done();
});
