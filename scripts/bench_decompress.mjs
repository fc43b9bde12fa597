// Which gzip decoder the scoring worker should use: the browser's DecompressionStream('gzip') or
// the Rust one it carries (flate2 over miniz_oxide, in wasm). Headless Chromium, the built site,
// a generated canonical file of about 100 MB, plain and gzipped (gzip -6), in one run:
// - flate2, as the worker uses it: the worker's own time (the report's data-millis) to score the
//   .gz, less its time to score the plain file; what is left is what decoding adds (and reading
//   by FileReaderSync pieces instead of the byte stream). Median of 3 each, alternating.
// - DecompressionStream, in a dedicated worker as the scoring one is: the file's stream piped
//   through it and every decoded byte counted, nothing else. Median of 3.
// zstd has no contest: this Chromium's DecompressionStream does not take 'zstd' (printed below).
// Not part of `make test`. Prints the figures as Markdown rows for docs/performance.md.
//
//   node scripts/bench_decompress.mjs [--site target/site] [--mb 100] [--runs 3]
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../tests/e2e/server.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const SITE = resolve(opt('site', join(ROOT, 'target/site')));
const MBS = Number(opt('mb', '100'));
const RUNS = Number(opt('runs', '3'));
const DATA = join(ROOT, 'target/bench-data');
const MB = 1e6;
const log = (m) => console.error(`bench-decompress: ${m}`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The plain file (scripts/gen_large.py) and its gzip -6, made once. */
function files() {
  mkdirSync(DATA, { recursive: true });
  const plain = join(DATA, `large-${MBS}mb.jsonl`);
  if (!existsSync(plain) || statSync(plain).size < MBS * MB) {
    log(`generating ${plain}`);
    execFileSync('python3', [join(ROOT, 'scripts/gen_large.py'), '--mb', String(MBS), '--out', plain], { stdio: 'inherit' });
  }
  const gz = join(DATA, `large-${MBS}mb.jsonl.6.gz`);
  if (!existsSync(gz) || statSync(gz).mtimeMs < statSync(plain).mtimeMs) {
    log(`gzipping ${plain}`);
    execFileSync('sh', ['-c', `gzip -6 -c "${plain}" > "${gz}"`]);
  }
  return { plain, gz };
}

/** The scoring worker's own time on `file`, picked in a fresh page, in seconds. */
async function workerSeconds(browser, url, file) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('[data-testid=drop-zone]');
  await page.setInputFiles('[data-testid=file-input]', [file]);
  await page.waitForSelector('[data-testid=report]', { timeout: 10 * 60 * 1000 });
  const millis = Number(await page.getAttribute('[data-testid=report-header]', 'data-millis'));
  await context.close();
  return millis / 1000;
}

/** DecompressionStream('gzip') on `file` in a dedicated worker: decoded bytes and seconds. */
async function streamSeconds(browser, url, file) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // A page of the same server without the site's CSP, which allows no worker made from a blob.
  await page.goto(new URL('samples/about.json', url).href);
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-file';
    document.body.append(input);
  });
  await page.setInputFiles('#bench-file', [file]);
  const r = await page.evaluate(() => new Promise((done, fail) => {
    const code = `onmessage = async ({ data: file }) => {
      const t = performance.now();
      const reader = file.stream().pipeThrough(new DecompressionStream('gzip')).getReader();
      let n = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        n += value.byteLength;
      }
      postMessage({ n, ms: performance.now() - t });
    };`;
    const w = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
    w.onmessage = (e) => done(e.data);
    w.onerror = (e) => fail(new Error(e.message));
    w.postMessage(document.getElementById('bench-file').files[0]);
  }));
  await context.close();
  return { bytes: r.n, seconds: r.ms / 1000 };
}

async function main() {
  const { plain, gz } = files();
  const decoded = statSync(plain).size;
  const server = await serve(SITE);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const formats = await (await browser.newPage()).evaluate(() => ['gzip', 'zstd'].map((f) => {
    try { new DecompressionStream(f); return [f, true]; } catch { return [f, false]; }
  }));
  const tPlain = [];
  const tGz = [];
  const ds = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      tPlain.push(await workerSeconds(browser, server.url, plain));
      tGz.push(await workerSeconds(browser, server.url, gz));
      const s = await streamSeconds(browser, server.url, gz);
      if (s.bytes !== decoded) throw new Error(`DecompressionStream gave ${s.bytes} bytes, not ${decoded}`);
      ds.push(s.seconds);
      log(`run ${i + 1}: worker plain ${tPlain[i].toFixed(2)} s, worker .gz ${tGz[i].toFixed(2)} s, DecompressionStream alone ${ds[i].toFixed(2)} s`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const added = median(tGz) - median(tPlain);
  const mbs = (s) => `${(decoded / MB / s).toFixed(0)} MB/s`;
  const version = execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).trim().replace(/ built on.*/, '');
  console.log([
    `${version}; ${(decoded / MB).toFixed(0)} MB decoded, gzip -6 to ${(statSync(gz).size / MB).toFixed(0)} MB; median of ${RUNS}; DecompressionStream formats: ${formats.map(([f, ok]) => `${f} ${ok ? 'yes' : 'no'}`).join(', ')}`,
    '',
    '| gzip decoder in the worker | time | decoded MB/s |',
    '|---|---|---|',
    `| worker, plain file: read + score | ${median(tPlain).toFixed(2)} s | |`,
    `| worker, .gz: read + flate2 + score | ${median(tGz).toFixed(2)} s | |`,
    `| flate2 (wasm), what decoding adds | ${added.toFixed(2)} s | ${mbs(added)} |`,
    `| DecompressionStream('gzip'), decoding alone | ${median(ds).toFixed(2)} s | ${mbs(median(ds))} |`,
  ].join('\n'));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
