// Files as users have them, dropped in the page: gzip and zstd files and UTF-16 ones (what
// PowerShell's `>` writes), made here from a sample, score with the CLI's figures for the same
// file; a file no reader claims is described once.
import { after, before, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { assert, cli, drop, open, OUT, SAMPLES, settled, setup } from './harness.mjs';
import { checkShown } from './check.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

const SAMPLE = join(SAMPLES, 'choice.jsonl');

/** `SAMPLE` written to OUT as `name` by `write` (its bytes in, the file's bytes out). */
function made(name, write) {
  const path = join(OUT, name);
  writeFileSync(path, write(readFileSync(SAMPLE)));
  return path;
}

/** UTF-16 with a byte-order mark, as PowerShell writes (LE) or big-endian. */
function utf16(bytes, bigEndian) {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(bytes.toString('utf8'), 'utf16le')]);
  if (!bigEndian) return le;
  for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
  return le;
}

/** Drops `path` alone and checks every figure against the CLI's report for the same file. */
async function scoresAsCli(path) {
  const ref = cli([path]);
  assert.equal(ref.status, 0, ref.stderr);
  const plain = cli([SAMPLE]);
  assert.equal(ref.report.items, plain.report.items, 'the CLI reads the file as the sample it holds');
  const t = await open(env);
  await drop(t.page, [path]);
  assert.ok(await settled(t.page), `a report for ${path}, not an error`);
  await checkShown(t.page, ref.report);
  await t.done();
}

test('a .jsonl.gz scores as the CLI scores it', async () => {
  await scoresAsCli(made('choice.jsonl.gz', (b) => gzipSync(b)));
});

test('two gzip members one after the other (cat a.gz b.gz) are one file', async () => {
  const text = readFileSync(SAMPLE, 'utf8').split('\n').filter(Boolean);
  const half = Math.floor(text.length / 2);
  await scoresAsCli(made('halves.jsonl.gz', () => Buffer.concat([
    gzipSync(text.slice(0, half).join('\n') + '\n'),
    gzipSync(text.slice(half).join('\n') + '\n'),
  ])));
});

test('a .zst scores as the CLI scores it', async () => {
  const plain = join(OUT, 'choice-zst.jsonl');
  copyFileSync(SAMPLE, plain);
  rmSync(`${plain}.zst`, { force: true });
  execFileSync('zstd', ['-q', plain, '-o', `${plain}.zst`]);
  await scoresAsCli(`${plain}.zst`);
});

test('UTF-16 files (little- and big-endian, and gzipped) score as the CLI scores them', async () => {
  await scoresAsCli(made('choice-utf16le.jsonl', (b) => utf16(b, false)));
  await scoresAsCli(made('choice-utf16be.jsonl', (b) => utf16(b, true)));
  await scoresAsCli(made('choice-utf16.jsonl.gz', (b) => gzipSync(utf16(b, false))));
});

test('a truncated .gz says which file could not be read, and why', async () => {
  const whole = gzipSync(readFileSync(SAMPLE));
  const path = join(OUT, 'cut.jsonl.gz');
  writeFileSync(path, whole.subarray(0, Math.floor(whole.length / 2)));
  const t = await open(env);
  await drop(t.page, [path]);
  assert.equal(await settled(t.page), false, 'no report from half a file');
  const text = await t.page.textContent('[data-testid=failed]');
  assert.match(text, /cut\.jsonl\.gz/);
  await t.done();
});
