// The embed package as npm would publish it (dist/embed/, written by Trunk's build hook with
// scripts/dist.sh): package.json names files that exist, `npm pack` takes exactly them, the entry
// imports nothing from outside the folder, and the types the entry re-exports exist in the
// generated .d.ts.
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, ROOT, SITE } from './embed_harness.mjs';

const PKG = join(SITE, 'embed');
const read = (f) => readFileSync(join(PKG, f), 'utf8');

test('package.json describes the folder, and npm pack takes every file it names', () => {
  const pkg = JSON.parse(read('package.json'));
  const version = /^version = "([^"]+)"/m.exec(readFileSync(join(ROOT, 'Cargo.toml'), 'utf8'))[1];
  assert.equal(pkg.name, 'scorelens-embed');
  assert.equal(pkg.version, version, 'the crate\'s version');
  assert.equal(pkg.type, 'module');
  assert.equal(pkg.exports['.'].default, './scorelens.js');
  assert.equal(pkg.exports['.'].types, './scorelens.d.ts');
  for (const f of pkg.files) assert.ok(existsSync(join(PKG, f)), `${f} is in the folder`);
  for (const f of ['scorelens.js', 'scorelens.d.ts', 'scorelens_wasm.js', 'scorelens_wasm.d.ts', 'scorelens_wasm_bg.wasm', 'README.md']) {
    assert.ok(pkg.files.includes(f), `package.json lists ${f}`);
  }
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--offline'], { cwd: PKG, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const packed = JSON.parse(r.stdout)[0].files.map((f) => f.path).sort();
  assert.deepEqual(packed, [...pkg.files, 'package.json'].sort());
});

test('the modules import only each other, and the entry\'s types exist', () => {
  for (const f of ['scorelens.js', 'scorelens_wasm.js']) {
    const code = read(f).split('\n').filter((l) => !l.trim().startsWith('//')).join('\n');
    for (const m of code.matchAll(/(?:import|export)[^'"]*from\s*['"]([^'"]+)['"]/g)) {
      assert.match(m[1], /^\.\/scorelens_wasm\.js$/, `${f} imports ${m[1]}`);
    }
  }
  const entry = read('scorelens.d.ts');
  const generated = read('scorelens_wasm.d.ts');
  const reexported = /export type \{([^}]+)\} from '\.\/scorelens_wasm\.js'/.exec(entry)[1].split(',').map((s) => s.trim()).filter(Boolean);
  assert.ok(reexported.length >= 15);
  for (const name of reexported) {
    assert.match(generated, new RegExp(`export (interface|type) ${name}\\b`), `scorelens_wasm.d.ts has ${name}`);
  }
  // The generated functions carry the types, not `any`.
  assert.match(generated, /export function score\(input: Input, options: ScoreOptions \| undefined\): Promise<Report>;/);
  assert.match(generated, /export function profiles\(\): Named\[\];/);
  // The README's snippets name the files that are there.
  const readme = read('README.md');
  assert.match(readme, /<scorelens-report src=/);
  assert.match(readme, /scorelens\.js/);
  assert.doesNotMatch(readme, /__VERSION__/);
});
