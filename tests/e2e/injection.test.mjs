// Script injection: item text carrying `<script>`, `javascript:` URLs, `<img onerror>`,
// SVG payloads (`<svg onload>`, `<svg><script>`), attribute and CDATA break-outs and entities, in
// ids, groups, option labels, prompts, the model name, the benchmark, warnings and the file name,
// is shown as text everywhere: the explorer and its tooltips, the tables, the tabs, the
// comparison diagram's SVG <title>s, and the CSV, Markdown, JSON and SVG exports. No dialog opens
// (the harness fails on one) and no script runs (`window.__pwned` stays unset).
import { after, before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, cli, open, ROOT, settled, setup } from './harness.mjs';

const FIXTURES = join(ROOT, 'tests/e2e/fixtures');
const A = join(FIXTURES, 'injection-a.jsonl');
const B = join(FIXTURES, 'injection-b.jsonl');
/** The name the dropped file carries in the page: a payload too. */
const NAME_A = `<img src=x onerror="window.__pwned='file'">.jsonl`;

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

/** Drops one file under the given name. */
async function dropAs(page, path, name) {
  const b64 = readFileSync(path).toString('base64');
  await page.evaluate(({ b64, name }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name));
    const zone = document.querySelector('[data-testid=drop-zone]');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    }
  }, { b64, name });
}

async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return readFileSync(await d.path()).toString('utf8');
}

/** Nothing from the files became markup, and no script ran. */
async function noMarkup(page, where) {
  const found = await page.evaluate(() => ({
    pwned: window.__pwned,
    elements: document.querySelectorAll('main script, main img, main iframe, main object, main embed, main foreignObject, main a[href^="javascript"]').length,
    handlers: [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith('on')).map((a) => `${e.tagName}[${a.name}]`)),
  }));
  assert.equal(found.pwned, undefined, `${where}: a script from the file ran`);
  assert.equal(found.elements, 0, `${where}: an element from the file`);
  assert.deepEqual(found.handlers, [], `${where}: an inline event handler`);
}

/**
 * Parses an exported SVG as the XML it claims to be: well formed, no script, no handlers. In a
 * blank page of its own: a document parsed in the app's page would fall under its CSP (the
 * export's <style> would be reported).
 */
async function checkSvg(context, svg, label) {
  const blank = await context.newPage();
  const parsed = await blank.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      scripts: doc.getElementsByTagName('script').length + doc.getElementsByTagName('foreignObject').length,
      handlers: [...doc.getElementsByTagName('*')].flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith('on') || /^\s*javascript:/i.test(a.value)).map((a) => a.name)),
      hrefs: [...doc.getElementsByTagName('*')].filter((e) => e.hasAttribute('href') || e.hasAttributeNS('http://www.w3.org/1999/xlink', 'href')).length,
      titles: [...doc.getElementsByTagName('title')].map((t) => t.textContent),
      texts: [...doc.getElementsByTagName('text')].map((t) => t.textContent),
    };
  }, svg);
  await blank.close();
  assert.equal(parsed.error, null, `${label}: the SVG export is well-formed XML`);
  assert.equal(parsed.scripts, 0, `${label}: no script in the SVG export`);
  assert.deepEqual(parsed.handlers, [], `${label}: no handler or javascript: URL in the SVG export`);
  assert.equal(parsed.hrefs, 0, `${label}: no links in the SVG export`);
  return parsed;
}

test('payloads in every field are shown as text, in the page, its SVG titles and every export', { timeout: 120000 }, async () => {
  const refA = cli([A]).report;
  const refB = cli([B]).report;
  const t = await open(env);
  const { page, context } = t;
  await dropAs(page, A, NAME_A);
  assert.ok(await settled(page));
  await page.waitForSelector('.viewport .item');
  await noMarkup(page, 'report');

  // The header, the tab and the warnings.
  assert.equal(await page.textContent('[data-testid=model]'), refA.model);
  assert.equal(await page.textContent('[data-testid=report-header] .file-name'), NAME_A);
  assert.equal(await page.textContent('.tab-name'), refA.model);
  assert.match(await page.textContent('[data-testid=report-header] .counts'), /benchmark <script>window\.__pwned='script'<\/script>/);
  const warnings = await page.$$eval('[data-testid=warnings] li', (li) => li.map((x) => x.textContent));
  assert.deepEqual(warnings, refA.warnings.map((w) => `${NAME_A}${w.line === null ? '' : `:${w.line}`} ${w.reason}`), 'warnings quote the text as text');
  // The groups table.
  const groups = await page.$$eval('[data-testid=groups] tbody tr[data-group]', (rows) => rows.map((tr) => [tr.dataset.group, tr.querySelector('th, td').textContent]));
  assert.deepEqual(groups.map((g) => g[0]).sort(), refA.groups.map((g) => g.name).sort());
  for (const [name, shown] of groups) assert.ok(shown.includes(name), `group ${name} shown as text`);

  // The explorer: ids, groups, gold and answers as text; the id's tooltip names the file and line.
  const lines = readFileSync(A, 'utf8').trim().split('\n');
  const items = lines.slice(1).map((l, i) => { try { return { ...JSON.parse(l), line: i + 2 }; } catch { return null; } })
    .filter((x) => x && Array.isArray(x.options) && x.options.includes(x.gold) && x.probs);
  const rows = await page.$$eval('.viewport .item', (r) => r.map((row) => ({
    id: row.querySelector('.id').textContent,
    title: row.querySelector('.id').getAttribute('title'),
    dataId: row.dataset.id,
    group: row.querySelector('.group').textContent,
    gold: row.querySelector('.gold').textContent,
    answer: row.querySelector('.answer').textContent,
  })));
  assert.equal(rows.length, items.length);
  for (const it of items) {
    const row = rows.find((r) => r.id === String(it.id));
    assert.ok(row, `item ${it.id} listed with its id as text`);
    assert.equal(row.dataId, it.id);
    assert.equal(row.title, `${NAME_A}:${it.line}`, 'tooltip');
    assert.equal(row.group, it.group);
    assert.equal(row.gold, it.gold);
    assert.equal(row.answer, it.answer);
  }
  for (let i = 0; i < rows.length; i++) await page.hover(`.viewport .item:nth-child(${i + 1}) .id`);
  await page.fill('[data-testid=explorer-search]', '<script>');
  // Search matches the text, not markup: every item whose id, group, gold or answer holds the tag.
  const hits = items.filter((it) => [it.id, it.group, it.gold, it.answer].some((x) => String(x).toLowerCase().includes('<script>'))).length;
  assert.ok(hits > 0);
  await page.waitForFunction((n) => document.querySelector('[data-testid=explorer-total]').dataset.value === String(n), hits);
  await page.fill('[data-testid=explorer-search]', '');
  await noMarkup(page, 'explorer');

  // Exports of the run.
  const json = JSON.parse(await download(page, '[data-testid=report] [data-export=json]'));
  assert.equal(json.model, refA.model, 'JSON keeps the text exactly');
  assert.deepEqual(json.groups.map((g) => g.name), refA.groups.map((g) => g.name));
  const csv = await download(page, '[data-testid=report] [data-export=csv]');
  // A cell a spreadsheet would run as a formula opens as text: it starts with a quote mark.
  const guard = (x) => (x.length > 1 && /^[=+\-@\t\r]/.test(x) && Number.isNaN(Number(x)) ? `'${x}` : x);
  assert.ok(refA.groups.some((g) => g.name.startsWith('=')), 'the fixture has a group named as a formula');
  for (const g of refA.groups) {
    const text = guard(g.name);
    const field = /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    assert.ok(csv.includes(`\n${field},`), `CSV has group ${g.name} as a field`);
  }
  assert.ok(!/\n"?=HYPERLINK/.test(csv), 'no cell starts a formula');
  const md = await download(page, '[data-testid=report] [data-export=md]');
  assert.ok(!/<(script|img|svg|iframe)/i.test(md), 'Markdown export: no raw tag a renderer would turn into HTML');
  assert.ok(md.includes('&lt;script&gt;window.__pwned=\'script\'&lt;/script&gt;'), 'Markdown export shows the tag as text (escaped)');
  assert.ok(md.includes('&amp;lt;img src=x'), 'an entity in the text stays text');
  await checkSvg(context, await download(page, '[data-testid=report] [data-export=svg]'), 'run SVG');

  // A second model: the comparison table, the overlaid diagram with one series per model.
  await dropAs(page, B, 'b.jsonl');
  await page.waitForSelector('[data-testid=comparison]');
  await page.waitForSelector('#reliability-comparison g.series');
  await noMarkup(page, 'comparison');
  const heads = await page.$eval('[data-testid=comparison] thead', (h) => [...h.querySelectorAll('th')].map((x) => x.textContent).filter(Boolean));
  assert.deepEqual(heads, [refA.model, refB.model], 'comparison columns named by the models, as text');
  const series = await page.$$eval('#reliability-comparison g.series', (g) => g.map((x) => ({
    name: x.dataset.series,
    titles: [...x.querySelectorAll('title')].map((t) => t.textContent),
  })));
  assert.deepEqual(series.map((s) => s.name), [refA.model, refB.model]);
  for (const s of series) {
    assert.ok(s.titles.length > 0 && s.titles.every((x) => x.startsWith(`${s.name}: `)), `SVG <title>s carry ${s.name} as text`);
  }
  const svg = await download(page, '[data-testid=comparison] [data-export=svg]');
  const parsed = await checkSvg(context, svg, 'comparison SVG');
  assert.ok(parsed.titles.some((x) => x.startsWith(`${refB.model}: `)), 'the exported <title>s carry the model name as text');
  const cmpMd = await download(page, '[data-testid=comparison] [data-export=md]');
  assert.ok(!/<(script|img|svg|iframe)/i.test(cmpMd), 'comparison Markdown: no raw tag');
  const cmpCsv = await download(page, '[data-testid=comparison] [data-export=csv]');
  assert.ok(cmpCsv.includes(`"${refB.model.replace(/"/g, '""')}"`), 'comparison CSV names the model, quoted');
  // The PNG is drawn from the SVG in an <img>: it must load (well-formed) and run nothing.
  const [png] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=comparison] [data-export=png]')]);
  assert.deepEqual([...readFileSync(await png.path()).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'PNG made');
  await page.waitForTimeout(300);
  await noMarkup(page, 'after every export');
  await t.done();
});
