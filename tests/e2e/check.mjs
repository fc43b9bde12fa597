// Compares what the page shows with the CLI's JSON report for the same files: the browser's
// wasm against the native binary, figure by figure, exactly (data-value) and as written (text).
import { assert, value } from './harness.mjs';

/**
 * Two figures agree bit for bit. The core takes ln, exp and sin from the `libm` crate on both
 * targets (src/math.rs), so the browser's wasm and the native CLI compute the same bits.
 */
export function same(a, b) {
  return Object.is(a, b) || a === b;
}

/** Deep comparison of two parsed reports with `same` for numbers; returns the first difference. */
export function diffJson(a, b, path = '$') {
  if (typeof a === 'number' && typeof b === 'number') return same(a, b, path) ? null : `${path}: ${a} vs ${b}`;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return a === b ? null : `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join(',') !== kb.join(',')) return `${path}: keys ${ka} vs ${kb}`;
  for (const k of ka) {
    const d = diffJson(a[k], b[k], `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

/** The shown text of a figure agrees with the value at the precision shown. */
function closeText(text, v, label) {
  if (v === null) {
    assert.equal(text.trim(), '–', `${label}: a figure that does not apply shows a dash`);
    return;
  }
  const t = text.trim().replace('\u2212', '-').replace(/\u202f/g, '');
  const percent = t.endsWith('%');
  const shown = Number.parseFloat(t);
  const decimals = (t.replace('%', '').split('.')[1] || '').length;
  const target = percent ? v * 100 : v;
  assert.ok(Math.abs(shown - target) <= 0.5 * 10 ** -decimals + 1e-9, `${label}: shows ${t} for ${v}`);
}

async function figure(page, selector, v, label) {
  const shown = await value(page, selector);
  assert.ok(same(shown, v, label), `${label} (data-value): shows ${shown}, CLI has ${v}`);
  closeText(await page.textContent(selector), v, label);
}

/** Checks header counts, cards, the conditioning/mixing table, groups, bins and I/C. */
export async function checkShown(page, r) {
  assert.equal(await value(page, '[data-figure=items]'), r.items, 'items');
  assert.equal(await value(page, '[data-figure=skipped]'), r.skipped, 'skipped');
  for (const k of ['accuracy', 'normalized', 'invalid_share']) {
    await figure(page, `.card[data-figure=${k}] .card-value`, r.metrics[k], k);
  }
  if (r.conditioning.items > 0) {
    await figure(page, '.card[data-figure=outside_mass] .card-value', r.metrics.outside_mass, 'outside_mass');
  }
  if (r.conditioning.items === 0) {
    // No probabilities: no calibration cards, diagram or table, and a line saying why.
    assert.ok(await page.$('[data-testid=no-probabilities]'), 'says there is no calibration');
    assert.equal(await page.$('[data-testid=reliability]'), null);
    assert.equal(await page.$('.card[data-figure=ece]'), null);
  } else {
    // Calibration cards follow the reading; the default is conditioning.
    for (const k of ['ece', 'brier', 'epa']) {
      await figure(page, `.card[data-figure=${k}] .card-value`, r.conditioning[k], `card ${k}`);
    }
    for (const mode of ['conditioning', 'mixing']) {
      for (const k of ['ece', 'ece_em', 'brier', 'epa', 'nll']) {
        await figure(page, `[data-figure="${mode}.${k}"]`, r[mode][k], `${mode}.${k}`);
      }
      assert.equal(await value(page, `[data-figure="${mode}.items"]`), r[mode].items, `${mode}.items`);
    }
  }
  const groups = await groupRows(page);
  assert.equal(groups.length, r.groups.length, 'group count');
  for (const g of r.groups) {
    const shown = groups.find((x) => x.name === g.name);
    assert.ok(shown, `group ${g.name} shown`);
    const want = [g.items, g.accuracy, g.normalized, g.invalid_share];
    assert.equal(diffJson(shown.values, want, `group ${g.name}`), null);
  }
  if (r.conditioning.items > 0) {
    await checkBars(page, r.conditioning.bins, 'conditioning');
  }
  await checkBenchmarks(page, r);
  if (r.ic) {
    for (const k of ['i', 'i_weighted', 'c']) {
      await figure(page, `[data-testid=ic] [data-figure="ic.${k}"]`, r.ic[k], `ic.${k}`);
    }
    for (const t of ['choice', 'binary', 'rating']) {
      const f = r.ic.types[t];
      if (!f) continue;
      assert.ok(same(await value(page, `[data-figure="ic.${t}.cc"]`), f.cc, `ic.${t}.cc`), `ic.${t}.cc`);
      assert.ok(same(await value(page, `[data-figure="ic.${t}.c"]`), f.c, `ic.${t}.c`), `ic.${t}.c`);
    }
    if (r.ic.pooled_ece !== null) {
      await figure(page, '[data-testid=ic] [data-figure="ic.pooled_ece"]', r.ic.pooled_ece, 'ic.pooled_ece');
    } else {
      assert.equal(await page.$('[data-figure="ic.pooled_ece"]'), null, 'no pooled ECE without one');
    }
  }
  // The frozen-count notice: there exactly when the report has a scope, saying whether it is complete.
  const notice = await page.$('[data-testid=scope]');
  assert.equal(notice !== null, r.scope !== null, 'scope notice shown exactly when the report has a scope');
  if (r.scope) {
    assert.equal(await notice.getAttribute('data-complete'), String(r.scope.complete), 'scope completeness');
    if (!r.scope.complete) assert.match(await notice.textContent(), /This file holds .* these are not the benchmark's/);
  }
}

/** RewardBench overall, sections and subsets; multi-select figures. */
async function checkBenchmarks(page, r) {
  if (r.rewardbench) {
    const rb = r.rewardbench;
    await figure(page, '[data-figure="rewardbench.overall"]', rb.overall, 'rewardbench.overall');
    if (rb.overall_with_prior_sets !== null) {
      await figure(page, '[data-figure="rewardbench.overall_with_prior_sets"]', rb.overall_with_prior_sets, 'rewardbench.overall_with_prior_sets');
    } else {
      assert.equal(await page.$('[data-figure="rewardbench.overall_with_prior_sets"]'), null, 'no prior-sets overall without prior sets');
    }
    for (const [name, v] of Object.entries(rb.sections)) {
      await figure(page, `[data-testid=rewardbench] tr[data-section="${name}"] td[data-figure]`, v, `section ${name}`);
    }
    for (const [name, v] of Object.entries(rb.subsets)) {
      assert.ok(same(await value(page, `tr[data-subset="${name}"] td[data-figure]`), v, `subset ${name}`), `subset ${name}`);
    }
  } else {
    assert.equal(await page.$('[data-testid=rewardbench]'), null, 'no RewardBench panel without RewardBench figures');
  }
  if (r.multi) {
    for (const k of ['exact_set_accuracy', 'f1']) {
      await figure(page, `[data-figure="multi.all.${k}"]`, r.multi[k], `multi.${k}`);
    }
  } else {
    assert.equal(await page.$('[data-testid=multi]'), null);
  }
  if (!r.ic) assert.equal(await page.$('[data-testid=ic]'), null, 'no I/C panel without I/C figures');
}

/** The single-series diagram: one bar per non-empty bin, and the histogram's ten counts. */
export async function checkBars(page, bins, label) {
  const bars = await page.$$eval('[data-testid=reliability] rect.bar', (els) => els.map((e) => ({
    bin: Number(e.dataset.bin),
    count: Number(e.dataset.count),
    accuracy: e.dataset.accuracy === '' ? null : Number(e.dataset.accuracy),
    confidence: e.dataset.confidence === '' ? null : Number(e.dataset.confidence),
    ciLo: e.dataset.ciLo === '' ? null : Number(e.dataset.ciLo),
    ciHi: e.dataset.ciHi === '' ? null : Number(e.dataset.ciHi),
    height: Number(e.getAttribute('height')),
  })));
  const filled = bins.map((b, i) => ({ ...b, i })).filter((b) => b.count > 0);
  assert.equal(bars.length, filled.length, `${label}: one bar per non-empty bin`);
  for (const [k, b] of filled.entries()) {
    const bar = bars[k];
    const d = diffJson(
      [bar.bin, bar.count, bar.accuracy, bar.confidence, bar.ciLo, bar.ciHi],
      [b.i, b.count, b.accuracy, b.confidence, b.ci_lo, b.ci_hi],
      `${label} bin ${b.i}`,
    );
    assert.equal(d, null, `${label}: bin ${b.i}`);
    // Bar height is the accuracy on the 300-pixel plot.
    assert.ok(Math.abs(bar.height - b.accuracy * 300) < 0.02, `${label}: bin ${b.i} height`);
  }
  const hist = await page.$$eval('[data-testid=reliability] rect.hist', (els) => els.map((e) => Number(e.dataset.count)));
  assert.deepEqual(hist, bins.map((b) => b.count), `${label}: histogram counts`);
  const labels = await page.$$eval('[data-testid=reliability] text.count', (els) => els.map((e) => [Number(e.dataset.bin), Number(e.textContent)]));
  assert.deepEqual(labels, bins.map((b, i) => [i, b.count]).filter(([, n]) => n > 0), `${label}: count labels`);
}

/**
 * Every row of the groups table. The table draws only the rows in view (a virtual window), so its
 * box is scrolled from top to bottom, a window at a time, and the rows seen are gathered by name.
 */
export async function groupRows(page) {
  const panel = '[data-testid=groups]';
  const seen = new Map();
  const read = async () => {
    for (const row of await page.$$eval(`${panel} tbody tr[data-group]`, (rows) => rows.map((tr) => ({
      name: tr.dataset.group,
      values: [...tr.querySelectorAll('td[data-value]')].map((td) => (td.dataset.value === '' ? null : Number(td.dataset.value))),
    })))) seen.set(row.name, row);
  };
  await read();
  if (!(await page.$(`${panel} .scroll`))) return [...seen.values()];
  for (let top = 0; ; ) {
    const next = await page.$eval(`${panel} .scroll`, (el, top) => {
      el.scrollTop = top + Math.max(el.clientHeight - 60, 30);
      el.dispatchEvent(new Event('scroll'));
      return el.scrollTop;
    }, top);
    if (next <= top) break;
    top = next;
    // The window redraws on the next frame.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await read();
  }
  await page.$eval(`${panel} .scroll`, (el) => { el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); });
  return [...seen.values()];
}
