// The amended scoring contract's hand-worked files (tests/ic_scopes.rs writes and checks them):
// Public 231's hard-tier choice ECE, Hard 111, CMDB's pooled ECE, the conditioned binary decision,
// an answer off the arg-max and RewardBench with prior sets. The page must show the CLI's figures,
// and its JSON export must equal the CLI's --json --bootstrap byte for byte.
import { after, before, describe, test } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, cli, open, pick, ROOT, settled, setup } from './harness.mjs';
import { checkShown, diffJson } from './check.mjs';

const DIR = join(ROOT, 'tests/e2e/fixtures/spec-v2');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.jsonl')).sort();

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

describe('SPEC v2 files', () => {
  test('there are six of them', () => assert.equal(FILES.length, 6, FILES.join(', ')));
  for (const name of FILES) {
    test(`${name}: the page shows the CLI's figures and exports its bytes`, async () => {
      const path = join(DIR, name);
      const ref = cli([path]);
      assert.equal(ref.status, 0, ref.stderr);
      const boot = cli([path], ['--bootstrap', '2000', '--seed', '2024']);
      const t = await open(env);
      await pick(t.page, [path]);
      assert.equal(await settled(t.page), true, 'report shown');
      await checkShown(t.page, ref.report);
      if (boot.report.intervals.bootstrap) {
        await t.page.waitForSelector('.report [data-testid=intervals-status][data-state=done]', { timeout: 120000 });
      }
      const [download] = await Promise.all([t.page.waitForEvent('download'), t.page.click('[data-export=json]')]);
      const text = readFileSync(await download.path(), 'utf8');
      assert.equal(diffJson(JSON.parse(text), boot.report, `${name} export`), null);
      assert.equal(text, boot.stdout, 'exported JSON is byte for byte the CLI --json --bootstrap');
      await t.done();
    });
  }
});
