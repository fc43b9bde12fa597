// Writes what tests/wasm_embed.rs compares the wasm against, from the native CLI, at test time
// (scripts/wasm_test.sh): for every sample in www/samples/ (a file, or a folder read as one run,
// as the app lists them) and a few runs with options, the CLI's `--json` report or its error;
// the CLI's profile and format names. Nothing here is committed, so it cannot go stale.
//   node scripts/embed_expected.mjs CLI OUT_DIR
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync as write } from 'node:fs';
import { join, resolve } from 'node:path';

const [cli, outArg] = process.argv.slice(2);
if (!cli || !outArg) {
  console.error('usage: node scripts/embed_expected.mjs CLI OUT_DIR');
  process.exit(2);
}
const out = resolve(outArg);
// Unchanged files keep their time, so cargo does not rebuild the tests for nothing.
function writeFileSync(path, text) {
  if (!existsSync(path) || readFileSync(path, 'utf8') !== text) write(path, text);
}
const samples = resolve('www/samples');
mkdirSync(out, { recursive: true });

const skip = (name) => name.startsWith('.') || name === 'index.json' || /\.(md|txt|py)$/i.test(name);
const runs = [];
for (const name of readdirSync(samples).sort()) {
  if (skip(name)) continue;
  const path = join(samples, name);
  if (statSync(path).isDirectory()) {
    const files = readdirSync(path).filter((f) => !skip(f) && statSync(join(path, f)).isFile()).sort();
    if (files.length) runs.push({ name, dir: path, files, options: {} });
  } else {
    runs.push({ name, dir: samples, files: [name], options: {} });
  }
}
// A profile the file does not name, and strict mode, through the API's options.
runs.push({ name: 'choice.jsonl+profile', dir: samples, files: ['choice.jsonl'], options: { profile: 'jevbench-public-231' } });
runs.push({ name: 'binary.jsonl+strict', dir: samples, files: ['binary.jsonl'], options: { strict: true } });
// Probabilities given as logprobs and loglikelihoods (exp in the core), which no sample has: the
// wasm must give the CLI's figures to the bit there too.
runs.push({ name: 'mixed.jsonl', dir: resolve('tests/fixtures/bootstrap'), files: ['mixed.jsonl'], options: {} });
// Clusters: the file's passage_id, and groups, through the API's `cluster` (the CLI's --cluster).
runs.push({ name: 'run-a.jsonl+cluster', dir: resolve('tests/fixtures/clustered'), files: ['run-a.jsonl'], options: { cluster: 'cluster' } });
runs.push({ name: 'choice.jsonl+cluster-group', dir: samples, files: ['choice.jsonl'], options: { cluster: 'group' } });
// A field the user names (here each item's `tier`: three clusters), read as the CLI's --cluster tier.
runs.push({ name: 'jevbench-public-231.jsonl+cluster-tier', dir: samples, files: ['jevbench-public-231.jsonl'], options: { cluster: 'tier' } });

const rust = (s) => JSON.stringify(s);
const cases = [];
for (const [i, run] of runs.entries()) {
  // The widget reads every input it is given as one run.
  const args = ['score', '--json', '--one-run'];
  if (run.options.profile) args.push('--profile', run.options.profile);
  if (run.options.strict) args.push('--strict');
  if (run.options.cluster) args.push('--cluster', run.options.cluster);
  const r = spawnSync(cli, [...args, ...run.files], { cwd: run.dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  const expected = join(out, `case-${i}.json`);
  // The report, or the first line of the CLI's error without its `scorelens: ` prefix.
  const text = r.status === 0 ? r.stdout : r.stderr.replace(/^scorelens: /m, '').split('\n').find((l) => l.trim() && !l.startsWith('warning: ')) ?? '';
  writeFileSync(expected, text);
  const files = run.files.map((f) => `(${rust(f)}, include_bytes!(${rust(join(run.dir, f))}))`).join(', ');
  cases.push(`    Case { name: ${rust(run.name)}, options: ${rust(JSON.stringify(run.options))}, files: &[${files}], ok: ${r.status === 0}, expected: include_str!(${rust(expected)}) },`);
}
writeFileSync(join(out, 'cases.rs'), `// Written by scripts/embed_expected.mjs from ${cli}; do not edit.\n&[\n${cases.join('\n')}\n]\n`);

function names(sub) {
  const r = spawnSync(cli, [sub], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cli} ${sub}: ${r.stderr}`);
  const list = r.stdout.split('\n').filter((l) => l.trim()).map((l) => l.split(/\s+/)[0]);
  return `&[${list.map(rust).join(', ')}]\n`;
}
// Four runs of one benchmark (made here, seeded) ranked by `scorelens leaderboard --json`: what
// the API's `leaderboard` and the widget's `view="leaderboard"` must equal (wasm_embed_leaderboard.rs).
const board = join(out, 'leaderboard');
mkdirSync(board, { recursive: true });
let seed = 11;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const boardFiles = ['a.jsonl', 'b.jsonl', 'c.jsonl', 'd.jsonl'];
boardFiles.forEach((f, r) => {
  const lines = [JSON.stringify({ scorelens: 1, model: `model-${'abcd'[r]}`, benchmark: 'generic' })];
  for (let i = 0; i < 60; i += 1) {
    const p = Math.min(0.97, 0.3 + 0.15 * r + 0.2 * rand());
    const answer = rand() < p ? 'A' : 'B';
    lines.push(JSON.stringify({ id: `q${i}`, group: `g${i % 3}`, options: ['A', 'B', 'C'], gold: 'A', probs: { A: p, B: (1 - p) / 2, C: (1 - p) / 2 }, answer }));
  }
  writeFileSync(join(board, f), `${lines.join('\n')}\n`);
});
const lb = spawnSync(cli, ['leaderboard', '--json', ...boardFiles], { cwd: board, encoding: 'utf8', maxBuffer: 1 << 26 });
if (lb.status !== 0) throw new Error(`scorelens leaderboard: ${lb.stderr}`);
writeFileSync(join(board, 'expected.json'), lb.stdout);
const boardList = boardFiles.map((f) => `(${rust(f)}, include_bytes!(${rust(join(board, f))}))`).join(', ');
writeFileSync(join(out, 'leaderboard.rs'), `// Written by scripts/embed_expected.mjs from ${cli}; do not edit.\n(&[${boardList}], include_str!(${rust(join(board, 'expected.json'))}))\n`);

writeFileSync(join(out, 'profiles.rs'), names('profiles'));
writeFileSync(join(out, 'formats.rs'), names('formats'));
console.log(`embed_expected: ${cases.length} runs, profiles and formats from ${cli} in ${out}`);
