// Every screen and theme: at 320, 390 and 1440 px, light and dark, after a drop the first headline
// card starts within the first screen; nothing is wider than the viewport; no table cell cuts its
// text; diagram text is at least 10 px on screen whatever the SVG's width; and in dark mode the
// charts' marks keep 3:1 and their labels 4.5:1 against the panel (from the computed styles).
// With several runs the answer is their summary (each run's headline figures), which comes first.
// A single run (reliability diagram, conditioning versus mixing, the planning table), RewardBench
// (the margins histogram) and a comparison (its diagram and the differences table) are checked.
// Screenshots at 390 and 1440 px go to target/e2e/ for a person to look at. The HTML export (the
// CLI's, which the page saves byte for byte) follows the same rules at 320 and 390 px.
import { after, before, test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, CLI, execFileSync, OUT, pick, SAMPLES, settled, setup, status } from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

const SCREENS = [[320, 640], [390, 844], [1440, 900]];
const CASES = [
  ['choice', ['choice.jsonl']],
  ['rewardbench', ['rewardbench-v1-scores.json']],
  ['comparison', ['compare/model-a.jsonl', 'compare/model-b.jsonl']],
];

/** What the page shows, measured: layout, cut cells, chart text sizes and dark-mode contrasts. */
function measure(page) {
  return page.evaluate(() => {
    const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => {
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    // A colour with alpha, laid over what is behind it.
    const over = (c, bg) => (c.length < 4 ? c.slice(0, 3) : c.slice(0, 3).map((v, i) => v * c[3] + bg[i] * (1 - c[3])));
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const behind = (e) => {
      for (let p = e; p; p = p.parentElement) {
        const c = rgb(getComputedStyle(p).backgroundColor);
        if (c.length >= 3 && (c.length < 4 || c[3] > 0)) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
    const name = (e) => `${e.tagName.toLowerCase()}.${e.className?.baseVal ?? e.className}`;
    // The answer: the first headline card, or with several runs their summary of headline figures.
    const card = document.querySelector('[data-testid=run-summary]:not([hidden]) tbody tr, [data-testid=cards] .card');
    const cut = [...document.querySelectorAll('main td, main th')]
      .filter((c) => shown(c) && c.scrollWidth > c.clientWidth + 1)
      .map((c) => `${name(c)} "${c.textContent.slice(0, 30)}" ${c.scrollWidth} > ${c.clientWidth}`);
    // On a phone the tables marked to stack reflow: none scrolls sideways in its box.
    const sideways = innerWidth > 600 ? [] : [...document.querySelectorAll('table.stack')]
      .filter((t) => shown(t) && t.parentElement.scrollWidth > t.parentElement.clientWidth + 1)
      .map((t) => `${name(t)} ${t.parentElement.scrollWidth} > ${t.parentElement.clientWidth}`);
    const stacked = document.querySelectorAll('table.stack').length;
    const svgs = [...document.querySelectorAll('main svg[viewBox]')].filter(shown);
    const small = [];
    let texts = 0;
    for (const svg of svgs) {
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      for (const t of svg.querySelectorAll('text')) {
        if (!shown(t)) continue;
        texts += 1;
        const px = parseFloat(getComputedStyle(t).fontSize) * scale;
        if (px < 9.95) small.push(`${name(svg)} "${t.textContent}" ${px.toFixed(1)} px`);
      }
    }
    // Marks need 3:1, words 4.5:1, against the panel behind the chart.
    const contrast = [];
    const check = (selector, prop, need) => {
      for (const e of document.querySelectorAll(selector)) {
        if (!shown(e)) continue;
        const bg = behind(e.closest('svg') || e);
        const c = rgb(getComputedStyle(e)[prop]);
        if (c.length < 3) continue;
        const r = ratio(over(c, bg), bg);
        if (r < need) contrast.push(`${selector} ${prop} ${r.toFixed(2)} < ${need}`);
      }
    };
    check('.reliability text', 'fill', 4.5);
    check('.reliability .bar', 'fill', 3);
    check('.reliability .hist', 'fill', 3);
    check('.reliability .mean-conf', 'stroke', 3);
    check('.reliability .ci line', 'stroke', 3);
    check('.reliability .curve', 'stroke', 3);
    check('.reliability .point', 'fill', 3);
    check('.reliability .legend rect', 'fill', 3);
    check('.reliability .diagonal', 'stroke', 3);
    check('.margins text', 'fill', 4.5);
    check('.margins .hist-bar', 'fill', 3);
    check('[data-testid=cond-mix] th, [data-testid=cond-mix] td, [data-testid=cond-mix] p', 'color', 4.5);
    check('.deltas th, .deltas td, .comparison th, .comparison td', 'color', 4.5);
    check('figcaption', 'color', 4.5);
    return {
      width: innerWidth,
      height: innerHeight,
      page: document.scrollingElement.scrollWidth,
      cardTop: card ? card.getBoundingClientRect().top + scrollY : null,
      cut,
      sideways,
      stacked,
      svgs: svgs.length,
      texts,
      small,
      contrast,
      dark: lum(behind(document.querySelector('.panel'))) < 0.05,
    };
  });
}

for (const [width, height] of SCREENS) {
  for (const scheme of ['light', 'dark']) {
    test(`${width} px, ${scheme}: the answer first, nothing cut or past the viewport, chart text readable`, { timeout: 300000 }, async () => {
      const context = await env.browser.newContext({ viewport: { width, height }, colorScheme: scheme });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      for (const [name, files] of CASES) {
        await page.goto(env.server.url);
        await page.waitForSelector('button.sample');
        await pick(page, files.map((f) => join(SAMPLES, f)));
        assert.ok(await settled(page), `${name}: a report`);
        await status(page, 'done', 120000);
        if (files.length > 1) await page.waitForSelector('[data-testid=deltas] .pair', { timeout: 120000 });
        if (name === 'choice') {
          // The planning table: the items' groups as clusters.
          await page.selectOption('[data-testid=cluster]', 'group');
          await page.waitForSelector('[data-testid=planning-sentence]', { timeout: 120000 });
          await status(page, 'done', 120000);
        }
        await page.evaluate(() => window.scrollTo(0, 0));
        const m = await measure(page);
        const at = `${name} at ${width} px, ${scheme}`;
        assert.ok(m.cardTop !== null && m.cardTop < m.height, `${at}: the first card starts at ${m.cardTop}, below the first screen (${m.height})`);
        assert.ok(m.page <= m.width, `${at}: the page is ${m.page} px wide`);
        assert.deepEqual(m.cut, [], `${at}: table cells that cut their text`);
        assert.deepEqual(m.sideways, [], `${at}: stacked tables that still scroll sideways`);
        assert.ok(m.stacked > 0, `${at}: tables that stack on a phone`);
        assert.ok(m.svgs > 0 && m.texts > 0, `${at}: a chart with text`);
        assert.deepEqual(m.small, [], `${at}: chart text under 10 px`);
        if (scheme === 'dark') {
          assert.ok(m.dark, `${at}: dark panels`);
          assert.deepEqual(m.contrast, [], `${at}: marks under 3:1 or words under 4.5:1`);
        }
        if (width !== 320) await page.screenshot({ path: join(OUT, `screen-${name}-${width}-${scheme}.png`), fullPage: true });
      }
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

test('the HTML export at 320 and 390 px: names whole, conditioning versus mixing stacked, chart text readable', async () => {
  // Groups named as the issue saw them break ("subjec t_0").
  const lines = [JSON.stringify({ scorelens: 1, model: 'groups-demo' })];
  for (let i = 0; i < 240; i += 1) {
    const p = ((i * 37) % 100) / 100;
    lines.push(JSON.stringify({ id: `q${i}`, type: 'choice', group: `subject_${i % 12}`, options: ['A', 'B'], gold: 'A', probs: { A: p, B: 1 - p } }));
  }
  const data = join(OUT, 'screens-groups.jsonl');
  writeFileSync(data, `${lines.join('\n')}\n`);
  const html = join(OUT, 'screens-groups.html');
  writeFileSync(html, execFileSync(CLI, ['score', '--format', 'html', data], { maxBuffer: 1 << 26 }));
  for (const width of [320, 390]) {
    const context = await env.browser.newContext({ viewport: { width, height: 800 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`file://${html}`);
    const m = await page.evaluate(() => {
      const names = [...document.querySelectorAll('tbody th')].filter((t) => /^subject_\d+$/.test(t.textContent));
      const lineHeight = (e) => parseFloat(getComputedStyle(e).lineHeight) || parseFloat(getComputedStyle(e).fontSize) * 1.5;
      const small = [];
      for (const svg of document.querySelectorAll('svg[viewBox]')) {
        const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        for (const t of svg.querySelectorAll('text')) {
          const px = parseFloat(getComputedStyle(t).fontSize) * k;
          if (px < 9.95) small.push(`"${t.textContent}" ${px.toFixed(1)} px`);
        }
      }
      const stacked = [...document.querySelectorAll('table.stack')];
      return {
        page: document.scrollingElement.scrollWidth,
        names: names.length,
        broken: names.filter((t) => t.getBoundingClientRect().height > lineHeight(t) * 1.5).map((t) => t.textContent),
        small,
        stacked: stacked.length,
        sideways: stacked.filter((t) => t.parentElement.scrollWidth > t.parentElement.clientWidth + 1).length,
      };
    });
    assert.ok(m.page <= width, `the export is ${m.page} px wide at ${width} px`);
    assert.equal(m.names, 12, 'the groups table lists every group');
    assert.deepEqual(m.broken, [], `group names broken inside at ${width} px`);
    assert.deepEqual(m.small, [], `chart text under 10 px at ${width} px`);
    assert.ok(m.stacked > 0 && m.sideways === 0, `conditioning versus mixing stacks at ${width} px`);
    await context.close();
  }
});
