// Page weight: gzip (level 9) and brotli (quality 11) sizes of the wasm, JS and CSS the built page
// loads, read from dist/index.html, and of the scoring worker it starts at the first drop. Prints
// both and exits non-zero when the page's gzip size exceeds the budget (KB of 1000 bytes).
//   node scripts/page_weight.mjs [dist] [--budget-kb 300]
// scripts/bench_browser.mjs imports `weigh` for the table in docs/performance.md.
import { readFileSync, existsSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;
const brotli = (bytes) => brotliCompressSync(bytes, {
  params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
}).length;
const local = (u) => u.replace(/^\.\//, '').replace(/^\//, '');

/**
 * What the page fetches before any file is dropped (its stylesheet, script and wasm links) and what
 * the worker loads, each file with its raw, gzip and brotli size, and the totals.
 */
export function weigh(dist) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const page = new Set();
  for (const m of html.matchAll(/<link\b[^>]*>/g)) {
    const tag = m[0];
    const href = /href="?([^"\s>]+)/.exec(tag)?.[1];
    if (!href || href.startsWith('data:')) continue;
    if (/rel="?(stylesheet|modulepreload|preload)/.test(tag) && /\.(css|js|wasm)$/.test(href)) page.add(local(href));
  }
  for (const m of html.matchAll(/(?:import[^'"]*|from\s*)['"]([^'"]+\.js)['"]/g)) page.add(local(m[1]));
  for (const m of html.matchAll(/module_or_path:\s*['"]([^'"]+\.wasm)['"]/g)) page.add(local(m[1]));
  const worker = ['worker_loader.js', 'worker.js', 'worker_bg.wasm'].filter((f) => existsSync(join(dist, f)));
  const measure = (files) => files.map((file) => {
    const bytes = readFileSync(join(dist, file));
    return { file, raw: bytes.length, gzip: gzip(bytes), brotli: brotli(bytes) };
  });
  const total = (rows) => ({
    raw: rows.reduce((s, r) => s + r.raw, 0),
    gzip: rows.reduce((s, r) => s + r.gzip, 0),
    brotli: rows.reduce((s, r) => s + r.brotli, 0),
  });
  const pageRows = measure([...page].sort());
  const workerRows = measure(worker);
  const htmlBytes = Buffer.from(html);
  return {
    page: pageRows,
    pageTotal: total(pageRows),
    worker: workerRows,
    workerTotal: total(workerRows),
    html: { raw: htmlBytes.length, gzip: gzip(htmlBytes), brotli: brotli(htmlBytes) },
    hasWasm: pageRows.some((r) => r.file.endsWith('.wasm')),
  };
}

const kb = (n) => (n / 1000).toFixed(1);

function main() {
  const args = process.argv.slice(2);
  const dist = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--budget-kb') || 'dist';
  const budgetAt = args.indexOf('--budget-kb');
  const budget = (budgetAt >= 0 ? Number(args[budgetAt + 1]) : 300) * 1000;
  const w = weigh(dist);
  const show = (label, rows, t) => {
    for (const r of rows) {
      console.log(`  ${r.file.padEnd(40)} ${kb(r.gzip).padStart(8)} KB ${kb(r.brotli).padStart(8)} KB`);
    }
    console.log(`  ${label.padEnd(40)} ${kb(t.gzip).padStart(8)} KB ${kb(t.brotli).padStart(8)} KB`);
  };
  console.log(`${'page weight:'.padEnd(43)}${'gzip -9'.padStart(8)}    ${'brotli 11'.padStart(8)}`);
  console.log(' the page (loaded before any file is dropped):');
  show('page: wasm + JS + CSS', w.page, w.pageTotal);
  console.log(`  (index.html itself ${kb(w.html.gzip)} KB gzip, ${kb(w.html.brotli)} KB brotli)`);
  console.log(' the scoring worker (loaded at the first drop):');
  show('worker: wasm + JS', w.worker, w.workerTotal);
  console.log(`  page + worker ${kb(w.pageTotal.gzip + w.workerTotal.gzip)} KB gzip, ${kb(w.pageTotal.brotli + w.workerTotal.brotli)} KB brotli`);
  if (!w.hasWasm) {
    console.error('page weight: found no wasm in index.html; is dist/ built?');
    process.exit(1);
  }
  if (w.pageTotal.gzip > budget) {
    console.error(`page weight: ${kb(w.pageTotal.gzip)} KB gzip is over the ${budget / 1000} KB budget`);
    process.exit(1);
  }
  console.log(`page weight: ${kb(w.pageTotal.gzip)} KB gzip, within the ${budget / 1000} KB budget`);
}

if (resolve(process.argv[1] || '') === fileURLToPath(import.meta.url)) main();
