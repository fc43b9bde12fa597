// Page weight: gzip sizes (level 9) of the wasm, JS and CSS the built page loads, read from
// dist/index.html, and of the scoring worker it starts at the first drop. Prints both and exits
// non-zero when the page exceeds the budget (400 KB gzip, issue 5).
//   node scripts/page_weight.mjs [dist] [--budget-kb 400]
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const args = process.argv.slice(2);
const dist = args.find((a) => !a.startsWith('--')) || 'dist';
const budgetAt = args.indexOf('--budget-kb');
const budget = (budgetAt >= 0 ? Number(args[budgetAt + 1]) : 400) * 1000;

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const local = (u) => u.replace(/^\.\//, '').replace(/^\//, '');

// What the page fetches before any file is dropped: its stylesheet, script and wasm links.
const page = new Set();
for (const m of html.matchAll(/<link\b[^>]*>/g)) {
  const tag = m[0];
  const href = /href="?([^"\s>]+)/.exec(tag)?.[1];
  if (!href || href.startsWith('data:')) continue;
  if (/rel="?(stylesheet|modulepreload|preload)/.test(tag) && /\.(css|js|wasm)$/.test(href)) page.add(local(href));
}
for (const m of html.matchAll(/(?:import[^'"]*|from\s*)['"]([^'"]+\.js)['"]/g)) page.add(local(m[1]));
for (const m of html.matchAll(/module_or_path:\s*['"]([^'"]+\.wasm)['"]/g)) page.add(local(m[1]));
const inline = gzipSync(Buffer.from(html), { level: 9 }).length;

const worker = ['worker_loader.js', 'worker.js', 'worker_bg.wasm'].filter((f) => existsSync(join(dist, f)));
const rows = (files) => files.map((f) => [f, gz(f)]);
const show = (label, list) => {
  let total = 0;
  for (const [f, n] of list) {
    console.log(`  ${f.padEnd(40)} ${(n / 1000).toFixed(1).padStart(8)} KB`);
    total += n;
  }
  console.log(`  ${label.padEnd(40)} ${(total / 1000).toFixed(1).padStart(8)} KB gzip`);
  return total;
};
console.log('page weight (gzip -9):');
console.log(' the page (loaded before any file is dropped):');
const pageTotal = show('page: wasm + JS + CSS', rows([...page].sort()));
console.log(`  (index.html itself ${(inline / 1000).toFixed(1)} KB)`);
console.log(' the scoring worker (loaded at the first drop):');
const workerTotal = show('worker: wasm + JS', rows(worker));
console.log(`  page + worker ${((pageTotal + workerTotal) / 1000).toFixed(1)} KB gzip`);
if (![...page].some((f) => f.endsWith('.wasm'))) {
  console.error('page weight: found no wasm in index.html; is dist/ built?');
  process.exit(1);
}
if (pageTotal > budget) {
  console.error(`page weight: ${(pageTotal / 1000).toFixed(1)} KB is over the ${budget / 1000} KB budget`);
  process.exit(1);
}
console.log(`page weight: ${(pageTotal / 1000).toFixed(1)} KB, within the ${budget / 1000} KB budget`);
