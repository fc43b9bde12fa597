// Phone to wide screen: at 360 and 390 px no element reaches past the viewport (a table marked
// `stack` reflows into one block per row; another wide table scrolls inside its own box, keeping
// its first column in view), on samples of each kind and on a comparison; screenshots at 390 and
// 1440 px for a person to look at (screens.test.mjs checks 320 px and dark mode too).
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { assert, OUT, pick, SAMPLES, settled, setup, status } from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

/** Elements that reach past the viewport outside a box that scrolls or clips them. */
function overflowing(page) {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const clipped = (e) => {
      for (let p = e.parentElement; p; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip') return true;
      }
      return false;
    };
    const out = [];
    for (const e of document.body.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if ((r.right > vw + 0.5 || r.left < -0.5) && !clipped(e)) {
        out.push(`${e.tagName.toLowerCase()}.${e.className?.baseVal ?? e.className} ${Math.round(r.left)}–${Math.round(r.right)}`);
      }
    }
    return { vw, page: document.documentElement.scrollWidth, out: out.slice(0, 10) };
  });
}

const CASES = [
  ['choice', ['choice.jsonl']],
  ['rewardbench', ['rewardbench-v1-scores.json']],
  ['jevbench', ['jevbench-public-231.jsonl']],
  ['comparison', ['compare/model-a.jsonl', 'compare/model-b.jsonl']],
];

test('at 360 and 390 px nothing is wider than the viewport', async () => {
  for (const width of [360, 390]) {
    const context = await env.browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    for (const [name, files] of CASES) {
      await page.goto(env.server.url);
      await page.waitForSelector('button.sample');
      await pick(page, files.map((f) => join(SAMPLES, f)));
      assert.ok(await settled(page), `${name}: a report`);
      await status(page, 'done', 120000);
      if (files.length > 1) await page.waitForSelector('[data-export=comparison-json]', { timeout: 120000 });
      const o = await overflowing(page);
      assert.deepEqual(o.out, [], `${name} at ${width} px: elements past the viewport`);
      assert.ok(o.page <= o.vw, `${name} at ${width} px: the page is ${o.page} px wide`);
      if (name === 'jevbench') {
        // Each I/C part is whole on one line: taller than 1.8 of its font size is a wrap inside it.
        const parts = await page.$$eval('[data-testid=ic] td.parts .part', (ps) => ps.map((p) => [p.textContent, p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).fontSize)]));
        assert.ok(parts.length > 0, 'the I/C table lists its parts');
        const wrapped = parts.filter(([, lines]) => lines > 1.8);
        assert.deepEqual(wrapped, [], `${name} at ${width} px: I/C parts wrapped inside`);
      }
      if (width === 390) await page.screenshot({ path: join(OUT, `narrow-${name}-390.png`), fullPage: true });
    }
    // A wide table keeps its first column in view while it scrolls.
    const sticky = await page.$$eval('.scroll table:not(.stack) tbody th', (ths) => ths.slice(0, 3).map((t) => getComputedStyle(t).position));
    assert.ok(sticky.length > 0 && sticky.every((p) => p === 'sticky'), `first columns stick: ${sticky}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
  const wide = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await wide.newPage();
  await page.goto(env.server.url);
  await page.waitForSelector('button.sample');
  await pick(page, [join(SAMPLES, 'choice.jsonl')]);
  assert.ok(await settled(page));
  await page.screenshot({ path: join(OUT, 'wide-choice-1440.png'), fullPage: true });
  await wide.close();
});
