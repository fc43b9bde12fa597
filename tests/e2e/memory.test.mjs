// A run of more items than the browser resamples keeps no per-item sample in the worker:
// the comparison view says why it cannot compare it instead of failing or resampling it.
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { assert, drop, manyItems, open, SAMPLES, setup } from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

test('a run past 200 000 items cannot be compared in the page, and the view says why', async () => {
  const path = manyItems('memory-200k.jsonl', 200001);
  const t = await open(env);
  const { page } = t;
  await drop(page, [join(SAMPLES, 'compare/model-a.jsonl'), path]);
  await page.waitForSelector('[data-testid=compare-failed]', { timeout: 120000 });
  const text = await page.textContent('[data-testid=compare-failed]');
  assert.match(text, /memory-200k\.jsonl has 200001 items: more than the browser compares \(200000\)/);
  assert.match(text, /scorelens compare/);
  await t.done();
});
