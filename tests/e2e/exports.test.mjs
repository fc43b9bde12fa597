// The exports' contents: the diagram's SVG at the diagram's size and the PNG at twice it, a
// status that clears, diagram buttons only where there is a diagram, RewardBench and I/C tables
// in the CSV and Markdown (the CLI's tables, figures with every digit in the CSV), and no empty
// Groups or Items box.
import { after, before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { assert, CLI, cli, execFileSync, open, pick, SAMPLES, settled, setup } from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return readFileSync(await d.path());
}

test('the diagram exports at its size (PNG twice), and the status clears', async () => {
  const t = await open(env);
  const { page, context } = t;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
  await pick(page, [join(SAMPLES, 'choice.jsonl')]);
  assert.ok(await settled(page));
  const [, , w, h] = (await page.getAttribute('.report figure.reliability svg', 'viewBox')).split(' ').map(Number);
  assert.ok(w >= 500 && h >= 400, `viewBox ${w} × ${h}`);
  const svg = (await download(page, '.report [data-export=svg]')).toString('utf8');
  assert.match(svg, new RegExp(`^<\\?xml[^>]*>\\n<svg [^>]*width="${w}" height="${h}">`), 'the SVG has the diagram\'s size');
  const png = await download(page, '.report [data-export=png]');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [2 * w, 2 * h], 'the PNG is twice the diagram');
  await page.click('.report [data-export=copy-csv]');
  const status = '.report [data-testid=export] [role=status]';
  await page.waitForFunction((s) => document.querySelector(s).textContent.includes('copied'), status);
  await page.waitForFunction((s) => document.querySelector(s).textContent === '', status, { timeout: 15000 });
  await t.done();
});

test('RewardBench: no diagram buttons without a diagram; its tables in the CSV and Markdown', async () => {
  const file = join(SAMPLES, 'rewardbench-v1-scores.json');
  const ref = cli([file]).report;
  const t = await open(env);
  const { page } = t;
  await pick(page, [file]);
  assert.ok(await settled(page));
  assert.equal(ref.conditioning.items, 0, 'the sample has no probabilities');
  assert.equal(await page.$('.report [data-export=svg]'), null, 'no SVG button');
  assert.equal(await page.$('.report [data-export=png]'), null, 'no PNG button');
  assert.ok(await page.$('.report [data-export=html]'), 'the HTML report is there');
  const csv = (await download(page, '.report [data-export=csv]')).toString('utf8');
  assert.ok(csv.includes('# RewardBench\nsection,score,x100,items,longer wins,missing subsets\n'), 'the sections in the CSV, as the CLI lays them out');
  assert.ok(csv.includes(`\noverall,${ref.rewardbench.overall},`), 'the overall at full precision');
  // Run beside the file, so that the CLI names it as the page does (by its name alone).
  const cliCsv = execFileSync(CLI, ['score', basename(file), '--format', 'csv'], { cwd: SAMPLES, encoding: 'utf8' });
  assert.equal(csv, cliCsv, 'the CLI\'s CSV, table for table');
  const md = (await download(page, '.report [data-export=md]')).toString('utf8');
  assert.ok(md.includes('### RewardBench'), 'the sections in the Markdown');
  await t.done();
});

test('I and C in the exports', async () => {
  const file = join(SAMPLES, 'jevbench-public-231.jsonl');
  const ref = cli([file]).report;
  const t = await open(env);
  const { page } = t;
  await pick(page, [file]);
  assert.ok(await settled(page));
  const csv = (await download(page, '.report [data-export=csv]')).toString('utf8');
  assert.ok(csv.includes(`# I and C (0-100)\nfigure,all,what it is\nI,${ref.ic.i},`), 'I at full precision');
  assert.ok(csv.includes('# I/C by type\n'), 'each type\'s parts');
  const md = (await download(page, '.report [data-export=md]')).toString('utf8');
  assert.ok(md.includes(`| I | ${ref.ic.i.toFixed(2)} |`), 'I with two decimals in the Markdown');
  await t.done();
});
