// The leaderboard view against the native CLI: twelve runs of one benchmark (made here) are
// dropped, the worker ranks them (one paired bootstrap, 2000 resamples, seed 2024), and the page's
// exports must be `scorelens leaderboard DIR` byte for byte: the JSON, and the CSV, Markdown and
// HTML on the default figure and on another one picked in the menu. A click on a run opens its
// report, a click on the mark between two runs opens their comparison; at 390 px nothing in the
// view reaches past the viewport; no request leaves the site (`done`). On a phone (320 and 390
// px, light and dark) the table stacks and the rank plot scrolls in its box with the run names
// pinned beside it.
import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, CLI, drop, open, OUT, setup, status } from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

const DIR = join(OUT, 'leaderboard-12');

/** Twelve runs of 80 choice items in four groups; run r is right more often as r grows. */
function writeRuns() {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  let seed = 7;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  for (let r = 1; r <= 12; r += 1) {
    const n = String(r).padStart(2, '0');
    const lines = [JSON.stringify({ scorelens: 1, model: `model-${n}`, benchmark: 'generic' })];
    for (let i = 0; i < 80; i += 1) {
      const right = rand() < 0.35 + 0.04 * r;
      lines.push(JSON.stringify({ id: `q${i}`, type: 'choice', group: `g${i % 4}`, options: ['A', 'B', 'C', 'D'], gold: 'A', answer: right ? 'A' : 'B' }));
    }
    writeFileSync(join(DIR, `run-${n}.jsonl`), `${lines.join('\n')}\n`);
  }
  return readdirSync(DIR).sort().map((f) => join(DIR, f));
}

function cli(extra) {
  const r = spawnSync(CLI, ['leaderboard', DIR, ...extra], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, `scorelens leaderboard failed: ${r.stderr}`);
  return r.stdout;
}

async function download(page, kind) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=leaderboard] [data-export=${kind}]`)]);
  return readFileSync(await d.path(), 'utf8');
}

/** Elements of the leaderboard that reach past the viewport outside a box that scrolls them. */
function overflowing(page) {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const scrolled = (e) => {
      for (let p = e.parentElement; p; p = p.parentElement) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(p).overflowX)) return true;
      }
      return false;
    };
    const out = [];
    for (const e of document.querySelectorAll('[data-testid=leaderboard], [data-testid=leaderboard] *')) {
      const r = e.getBoundingClientRect();
      if (r.width > 0 && (r.right > vw + 0.5 || r.left < -0.5) && !scrolled(e)) {
        out.push(`${e.tagName.toLowerCase()}.${e.className?.baseVal ?? e.className} ${Math.round(r.left)}–${Math.round(r.right)}`);
      }
    }
    return { vw, page: document.documentElement.scrollWidth, out: out.slice(0, 10) };
  });
}

test('twelve runs: the leaderboard opens first, exports equal the CLI byte for byte, clicks open a report and a comparison', { timeout: 600000 }, async () => {
  const files = writeRuns();
  const t = await open(env);
  const { page } = t;
  await drop(page, files);
  await page.waitForSelector('[data-testid=leaderboard-table]', { timeout: 300000 });
  await status(page, 'done', 300000);
  // The leaderboard comes before the runs' tabs, and with twelve runs no all-pairs comparison runs.
  const order = await page.$$eval('main > *', (els) => els.map((e) => e.dataset.testid || e.className));
  const at = order.indexOf('leaderboard');
  assert.ok(at >= 0 && at < order.findIndex((x) => String(x).includes('tabs')), order.join(', '));
  assert.equal(await page.$('[data-testid=comparison]'), null, 'no comparison until two runs are picked');

  assert.equal(await download(page, 'json'), cli(['--json']), 'the JSON');
  assert.equal(await download(page, 'csv'), cli(['--format', 'csv']), 'the CSV tables');
  assert.equal(await download(page, 'md'), cli(['--format', 'markdown']), 'the Markdown tables');
  assert.equal(await download(page, 'html'), cli(['--format', 'html']), 'the HTML');

  // One plot row per run, in the table's order, every name written; a mark wherever the table
  // says two neighbours do not differ.
  const rows = await page.$$eval('[data-testid=leaderboard-table] tbody tr', (trs) => trs.map((tr) => tr.dataset.run));
  const plotted = await page.$$eval('#leaderboard-plot .rank-row', (gs) => gs.map((g) => g.dataset.run));
  assert.equal(rows.length, 12);
  assert.deepEqual(plotted, rows);
  const same = await page.$$eval('[data-testid=leaderboard-table] td.same', (tds) => tds.length);
  const marks = await page.$$eval('#leaderboard-plot .between.same', (gs) => gs.length);
  assert.ok(same > 0, 'some neighbours do not differ');
  assert.equal(marks, same);

  // Another figure: the table follows it, and the exports are the CLI's with --by (and --all:
  // the page has ranked every figure, where --by alone ranks only what that one needs).
  await page.selectOption('[data-testid=leaderboard-by]', 'subsets.g1.accuracy');
  await page.waitForSelector('[data-testid=leaderboard-table][data-figure="subsets.g1.accuracy"]');
  const by = ['--by', 'subsets.g1.accuracy', '--all'];
  assert.equal(await download(page, 'csv'), cli(['--format', 'csv', ...by]), 'the CSV by subset');
  assert.equal(await download(page, 'html'), cli(['--format', 'html', ...by]), 'the HTML by subset');

  // A click on a run opens its report (its tab is titled by the file's model).
  const last = (await page.$$eval('[data-testid=leaderboard-table] tbody tr', (trs) => trs.map((tr) => tr.dataset.run))).at(-1);
  await page.click(`[data-testid=leaderboard-table] tr[data-run="${last}"] button[data-open]`);
  await page.waitForFunction((name) => document.querySelector('.tab.selected .tab-name')?.textContent.trim() === name, last);

  // A click on the mark between the first two runs opens their comparison, of those two only.
  const [first, second] = await page.$$eval('[data-testid=leaderboard-table] tbody tr', (trs) => trs.slice(0, 2).map((tr) => tr.dataset.run));
  await page.click('[data-testid=leaderboard-table] tbody tr:first-child button[data-a]');
  await page.waitForSelector('[data-testid=comparison]');
  await page.waitForSelector('[data-testid=deltas] .pair', { timeout: 120000 });
  const columns = await page.$$eval('[data-testid=comparison] thead th', (ths) => ths.slice(1).map((th) => th.textContent.trim()));
  assert.deepEqual(columns, [first, second]);
  assert.equal(await page.$$eval('[data-testid=deltas] .pair', (ps) => ps.length), 1, 'one pair');
  // The same from the plot: the space between its third and fourth rows.
  const [third, fourth] = await page.$$eval('#leaderboard-plot .rank-row', (gs) => gs.slice(2, 4).map((g) => g.dataset.run));
  await page.dispatchEvent('#leaderboard-plot g.between[data-a] >> nth=2', 'click');
  await page.waitForFunction(([a, b]) => {
    const th = [...document.querySelectorAll('[data-testid=comparison] thead th')].slice(1).map((x) => x.textContent.trim());
    return th.length === 2 && th[0] === a && th[1] === b;
  }, [third, fourth]);
  await status(page, 'done', 120000);

  // At 390 px nothing in the view reaches past the viewport.
  await page.setViewportSize({ width: 390, height: 800 });
  const o = await overflowing(page);
  assert.deepEqual(o.out, [], 'leaderboard elements past the viewport at 390 px');
  assert.ok(o.page <= o.vw, `the page is ${o.page} px wide at 390 px`);
  await page.locator('[data-testid=leaderboard]').screenshot({ path: join(OUT, 'leaderboard-390.png') });
  await t.done();
});

test('dark mode: the rank plot\'s names, ticks, marks and medians keep WCAG AA contrast', { timeout: 600000 }, async () => {
  const files = writeRuns().slice(0, 6);
  const t = await open(env, { colorScheme: 'dark' });
  const { page } = t;
  await drop(page, files);
  await page.waitForSelector('#leaderboard-plot .rank-row', { timeout: 300000 });
  await status(page, 'done', 300000);
  const found = await page.evaluate(() => {
    const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => {
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const behind = (e) => {
      for (let p = e; p; p = p.parentElement) {
        const c = rgb(getComputedStyle(p).backgroundColor);
        if (c.length >= 3 && (c.length < 4 || c[3] > 0)) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const out = [];
    const check = (selector, prop, need) => {
      const els = [...document.querySelectorAll(selector)];
      for (const e of els) {
        const r = ratio(rgb(getComputedStyle(e)[prop]).slice(0, 3), behind(e.closest('svg') || e));
        out.push({ selector, need, ratio: Math.round(r * 100) / 100 });
      }
      return els.length;
    };
    const counts = {
      names: check('.rank-names .run-name', 'color', 4.5),
      ticks: check('#leaderboard-plot text.tick', 'fill', 4.5),
      same: check('#leaderboard-plot .between.same text', 'fill', 4.5),
      medians: check('#leaderboard-plot .rank-median', 'fill', 3),
      bars: check('#leaderboard-plot .rank-bar', 'stroke', 3),
    };
    const dark = lum(behind(document.querySelector('#leaderboard-plot'))) < 0.05;
    return { out, counts, dark };
  });
  assert.ok(found.dark, 'the plot sits on a dark background');
  for (const [what, n] of Object.entries(found.counts)) assert.ok(n > 0 || what === 'same', `${what}: none found`);
  const weak = found.out.filter((x) => x.ratio < x.need);
  assert.deepEqual(weak, [], 'marks and labels under WCAG AA in dark mode');
  await page.locator('[data-testid=leaderboard]').screenshot({ path: join(OUT, 'leaderboard-dark-1440.png') });
  await t.done();
});

/**
 * The leaderboard on a phone, measured after the plot's box is scrolled to its right end: what is
 * wider than the viewport or reaches past it outside the plot's declared scroller (or a clipped
 * box, such as the stacked table's hidden header); whether the table's box scrolls sideways; per
 * row, whether name, value and rank are inside the viewport and the name whole; and per plot
 * row, whether its name is inside the viewport and the scroller, on top (not under the plot), at
 * the height of its median dot, large enough and, in dark mode, with AA contrast.
 */
function phone(page, root = '[data-testid=leaderboard]') {
  return page.evaluate((root) => {
    const vw = document.documentElement.clientWidth;
    const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => {
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const behind = (e) => {
      for (let p = e; p; p = p.parentElement) {
        const c = rgb(getComputedStyle(p).backgroundColor);
        if (c.length >= 3 && (c.length < 4 || c[3] > 0)) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const name = (e) => `${e.tagName.toLowerCase()}.${e.className?.baseVal ?? e.className}`;
    const within = (r, left, right) => r.width > 0 && r.left >= left - 0.5 && r.right <= right + 0.5;
    const scroller = document.querySelector(`${root} [data-testid=rank-scroll]`);
    scroller.scrollIntoView({ block: 'center' });
    scroller.scrollLeft = scroller.scrollWidth;
    const clipped = (e) => {
      for (let p = e.parentElement; p && p !== scroller; p = p.parentElement) {
        if (['hidden', 'clip'].includes(getComputedStyle(p).overflowX)) return true;
      }
      return false;
    };
    const past = [];
    for (const e of document.querySelectorAll(`${root}, ${root} *`)) {
      if (scroller.contains(e) && e !== scroller) continue;
      const r = e.getBoundingClientRect();
      if (r.width > 0 && !within(r, 0, vw) && !clipped(e)) past.push(`${name(e)} ${Math.round(r.left)}–${Math.round(r.right)}`);
    }
    const table = document.querySelector('[data-testid=leaderboard-table]');
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) => {
      const th = tr.querySelector('th');
      const value = tr.querySelector('td[data-value]');
      const rank = tr.querySelector('td');
      return {
        run: tr.dataset.run,
        seen: [th, value, rank].every((c) => within(c.getBoundingClientRect(), 0, vw)),
        whole: th.scrollWidth <= th.clientWidth + 1,
      };
    });
    const box = scroller.getBoundingClientRect();
    const dots = [...document.querySelectorAll('#leaderboard-plot .rank-row')].map((g) => {
      const r = g.querySelector('.rank-median').getBoundingClientRect();
      return { run: g.dataset.run, y: r.top + r.height / 2 };
    });
    const names = [...scroller.querySelectorAll('.rank-names .run-name')].map((e, i) => {
      const r = e.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + Math.min(r.width, 20) / 2, r.top + r.height / 2);
      const s = getComputedStyle(e);
      return {
        run: e.dataset.run,
        seen: within(r, Math.max(0, box.left), Math.min(vw, box.right)) && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5,
        onTop: top === e || e.contains(top),
        level: Math.abs(r.top + r.height / 2 - dots[i].y) <= 2,
        px: parseFloat(s.fontSize),
        contrast: ratio(rgb(s.color).slice(0, 3), behind(e)),
      };
    });
    const ticks = [...document.querySelectorAll('#leaderboard-plot text.tick')];
    const lastTick = ticks.at(-1).getBoundingClientRect();
    return {
      vw,
      page: document.documentElement.scrollWidth,
      past: past.slice(0, 10),
      declared: getComputedStyle(scroller).overflowX,
      scrolled: scroller.scrollLeft,
      tableSideways: table.parentElement.scrollWidth - table.parentElement.clientWidth,
      rows,
      names,
      dots: dots.map((d) => d.run),
      lastTick: { text: ticks.at(-1).textContent, seen: within(lastTick, Math.max(0, box.left), Math.min(vw, box.right)) },
    };
  }, root);
}

/** The checks of a phone's view on `m` (from `phone`), at `at`. */
function phoneChecks(m, at, dark) {
  assert.ok(m.page <= m.vw, `${at}: the page is ${m.page} px wide`);
  assert.deepEqual(m.past, [], `${at}: elements past the viewport outside the plot's scroller`);
  assert.equal(m.tableSideways, 0, `${at}: the table scrolls sideways`);
  assert.equal(m.rows.length, 12);
  assert.deepEqual(m.rows.filter((r) => !r.seen || !r.whole), [], `${at}: rows whose name, value or rank is out of view, or whose name is cut`);
  // The plot is wider than a phone: it scrolls in its own box, declared so.
  assert.equal(m.declared, 'auto', `${at}: the plot's box scrolls`);
  assert.ok(m.scrolled > 0, `${at}: the plot's box did not scroll (${m.scrolled})`);
  assert.ok(m.lastTick.seen && m.lastTick.text === '12', `${at}: the last rank's label is in view at the right end`);
  assert.deepEqual(m.names.map((n) => n.run), m.dots, `${at}: one name per plot row, in its order`);
  const bad = m.names.filter((n) => !n.seen || !n.onTop || !n.level || n.px < 10 || (dark && n.contrast < 4.5));
  assert.deepEqual(bad, [], `${at}: names out of view, under the plot, off their row, under 10 px or under 4.5:1`);
}

test('on a phone, light and dark: the table stacked and whole, the rank plot scrolled to its end with every run name in view', { timeout: 600000 }, async () => {
  const files = writeRuns();
  const t = await open(env);
  const { page } = t;
  await drop(page, files);
  await page.waitForSelector('[data-testid=leaderboard-table]', { timeout: 300000 });
  await status(page, 'done', 300000);
  for (const width of [320, 390]) {
    for (const scheme of ['light', 'dark']) {
      const at = `${width} px, ${scheme}`;
      await page.setViewportSize({ width, height: 800 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      phoneChecks(await phone(page), at, scheme === 'dark');
      await page.locator('[data-testid=leaderboard]').screenshot({ path: join(OUT, `leaderboard-${width}-${scheme}.png`) });
    }
  }
  await t.done();
});

test('the leaderboard\'s HTML export on a phone: the table stacked and whole, the plot scrolled with its names pinned', async () => {
  writeRuns();
  const html = join(OUT, 'leaderboard-12.html');
  writeFileSync(html, cli(['--format', 'html']));
  for (const width of [320, 390]) {
    const context = await env.browser.newContext({ viewport: { width, height: 800 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`file://${html}`);
    phoneChecks(await phone(page, '.leaderboard-view'), `the export at ${width} px`, false);
    await context.close();
  }
});
