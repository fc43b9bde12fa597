// A run of more items than the browser resamples keeps no per-item sample in the worker (issue 9):
// the comparison view says why it cannot compare it instead of failing or resampling it.
import { after, before, test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, drop, open, OUT, SAMPLES, setup } from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

test('a run past 200 000 items cannot be compared in the page, and the view says why', async () => {
  const path = join(OUT, 'memory-200k.jsonl');
  const lines = [];
  for (let i = 0; i < 200001; i++) lines.push(`{"id":"${i}","options":["A","B"],"gold":"A","answer":"${i % 3 ? 'A' : 'B'}"}`);
  writeFileSync(path, lines.join('\n') + '\n');
  const t = await open(env);
  const { page } = t;
  await drop(page, [join(SAMPLES, 'compare/model-a.jsonl'), path]);
  await page.waitForSelector('[data-testid=compare-failed]', { timeout: 120000 });
  const text = await page.textContent('[data-testid=compare-failed]');
  assert.match(text, /memory-200k\.jsonl has 200001 items: more than the browser compares \(200000\)/);
  assert.match(text, /scorelens compare/);
  await t.done();
});
