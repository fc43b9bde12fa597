// The keyboard: the first Tab reaches a skip link that lands past the header, the drop zone and
// the samples; the runs' tabs are a WAI-ARIA tab list (one tab in the Tab order, the arrow keys,
// Home and End move the selection and the focus, the panel names its tab), and Delete closes one;
// the folded drop zone's "Start over" closes them all.
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { assert, open, pick, SAMPLES, settled, setup, status } from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

const tabs = (page) => page.$$eval('[role=tablist] [role=tab]', (ts) => ts.map((t) => ({
  id: t.id, selected: t.getAttribute('aria-selected'), tabindex: t.getAttribute('tabindex'), name: t.textContent,
})));
const focused = (page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.className || '');

test('a skip link to the report, and the run tabs as a tab list with arrow keys', async () => {
  const t = await open(env);
  const { page } = t;
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to the report');
  assert.ok(await page.evaluate(() => document.activeElement.getBoundingClientRect().top >= 0), 'the link shows when focused');

  await pick(page, ['model-a.jsonl', 'model-b.jsonl', 'model-a.jsonl'].map((f, i) => join(SAMPLES, 'compare', i === 2 ? '../choice.jsonl' : f)));
  assert.ok(await settled(page));
  await status(page, 'done', 120000);
  const before = await tabs(page);
  assert.equal(before.length, 3);
  assert.deepEqual(before.map((x) => x.selected), ['true', 'false', 'false']);
  assert.deepEqual(before.map((x) => x.tabindex), ['0', '-1', '-1'], 'one tab in the Tab order');
  assert.equal(await page.getAttribute('[role=tabpanel]', 'aria-labelledby'), before[0].id);

  // From the skip link, a few Tab presses reach the selected tab (the samples are folded away).
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.focus('a.skip');
  await page.keyboard.press('Enter');
  let presses = 0;
  while ((await focused(page)) !== before[0].id && presses < 40) {
    await page.keyboard.press('Tab');
    presses += 1;
  }
  assert.equal(await focused(page), before[0].id, 'the selected tab is reached');
  assert.ok(presses <= 12, `${presses} Tab presses from the skip link to the run tabs`);

  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((id) => document.activeElement?.id === id && document.getElementById(id).getAttribute('aria-selected') === 'true', before[1].id);
  await page.waitForFunction((id) => document.querySelector('[role=tabpanel]').getAttribute('aria-labelledby') === id, before[1].id);
  await page.keyboard.press('End');
  await page.waitForFunction((id) => document.activeElement?.id === id, before[2].id);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((id) => document.activeElement?.id === id, before[0].id);
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((id) => document.activeElement?.id === id, before[2].id);
  await page.keyboard.press('Home');
  await page.waitForFunction((id) => document.activeElement?.id === id, before[0].id);
  assert.deepEqual((await tabs(page)).map((x) => x.tabindex), ['0', '-1', '-1'], 'the Tab stop moved with the selection');

  // Delete closes the focused tab; the next one is selected and focused.
  await page.keyboard.press('Delete');
  await page.waitForFunction((id) => document.activeElement?.id === id, before[1].id);
  assert.deepEqual((await tabs(page)).map((x) => x.name), [before[1].name, before[2].name]);
  await status(page, 'done', 120000);

  // "Start over" in the folded drop zone closes every run: the landing again, samples shown.
  assert.equal(await page.$eval('details.samples', (d) => d.open), false, 'the samples are folded while runs are shown');
  await page.click('[data-testid=drop-zone] button.start-over');
  await status(page, 'idle', 60000);
  assert.equal(await page.$('.tab'), null, 'no run left');
  assert.equal(await page.$eval('[data-testid=drop-zone]', (z) => z.classList.contains('compact')), false);
  assert.equal(await page.$eval('details.samples', (d) => d.open), true, 'the samples are shown again');
  await t.done();
});
