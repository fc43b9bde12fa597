// Each profile's headline comes first on the page (the core's `profiles::headline`, the rule the
// CLI's headline table and the HTML report follow too): steer leads with macro normalized,
// RewardBench with its overall and sections, the I/C benchmarks with I and C, generic with
// accuracy. The first card shows the CLI's figure, and its tooltip says how it is made from the
// file's own counts.
import { after, before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, cli, open, pick, SAMPLES, settled, setup } from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

/** The JSON value at a report path. */
function at(json, path) {
  const rb = /^rewardbench\.(sections|subsets)\.(.*)$/.exec(path);
  if (rb) return json.rewardbench[rb[1]][rb[2]];
  return path.split('.').reduce((v, k) => v?.[k], json);
}

const CASES = [
  // file, the first cards' keys, words the first card's tooltip holds
  ['choice.jsonl', ['accuracy', 'ece', 'i', 'c'], /^Exact match: 203 right of 240 items = 84\.6%\.$/],
  ['binary.jsonl', ['accuracy', 'ece', 'i', 'c'], /right of/],
  ['consistency.jsonl', ['macro_normalized', 'accuracy'], /^The mean over \d+ groups of normalized accuracy/],
  ['jevbench-public-231.jsonl', ['i', 'c'], /^I = the mean of each item type's chance-corrected competence/],
  ['jevbench-hard-111.jsonl', ['i', 'c'], /choice [−\d.]+ = /],
  ['cmdb-1500.jsonl', ['i', 'c'], /binary [−\d.]+ = 2 × \([\d.]+% decided right − 50%\)/],
  ['decision-bench.jsonl', ['i', 'c'], /choice [−\d.]+ = 100 × \([\d.]+% right − [\d.]+% chance\)/],
  ['rewardbench-v1-scores.json', ['rb-overall', 'rb-section-0', 'rb-section-1', 'rb-section-2', 'rb-section-3'], /^The mean of the four sections: \(Chat [\d.]+% \+ Chat Hard/],
  ['rewardbench-v2-scores.json', ['rb-overall'], /^The mean of the six subsets/],
];

test('each profile\'s first card is its headline, with the CLI\'s figure and how it is made', async () => {
  const t = await open(env);
  const { page } = t;
  for (const [name, keys, tip] of CASES) {
    const file = join(SAMPLES, name);
    const ref = cli([file]).report;
    await page.goto(env.server.url);
    await page.waitForSelector('button.sample');
    await pick(page, [file]);
    assert.ok(await settled(page), `${name}: a report`);
    const cards = await page.$$eval('.report .card', (els) => els.map((e) => ({
      key: e.dataset.figure,
      path: e.dataset.path,
      value: e.querySelector('.card-value')?.dataset.value,
      tip: e.querySelector('.tip')?.textContent,
    })));
    assert.deepEqual(cards.slice(0, keys.length).map((c) => c.key), keys, `${name}: the first cards`);
    const first = cards[0];
    const want = at(ref, first.path);
    assert.ok(Object.is(Number(first.value), want), `${name}: ${first.path} ${first.value} vs ${want}`);
    assert.match(first.tip, tip, `${name}: the tooltip`);
    // Every card says how it is made; none repeats another.
    assert.ok(cards.every((c) => c.tip && c.tip.length > 20), `${name}: every card has a tooltip`);
    assert.equal(new Set(cards.map((c) => c.key)).size, cards.length, `${name}: no card twice`);
  }
  await t.done();
});

test('each sample button says what the sample is', async () => {
  const t = await open(env);
  const { page } = t;
  const about = JSON.parse(readFileSync(join(SAMPLES, 'about.json'), 'utf8'));
  const buttons = await page.$$eval('button.sample', (bs) => bs.map((b) => ({
    key: b.dataset.sample,
    about: b.querySelector('.sample-about')?.textContent,
    file: b.querySelector('.sample-file')?.textContent,
    title: b.title,
  })));
  assert.ok(buttons.length >= 10);
  for (const b of buttons) {
    assert.equal(b.about, about[b.key], `${b.key}: its description`);
    assert.ok(b.about.length > 5 && b.file === b.key, `${b.key}: says what it is, then its file`);
    assert.ok(b.title.startsWith(`${b.about}: `), `${b.key}: the title too`);
  }
  await t.done();
});
