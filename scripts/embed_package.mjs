// Writes the embed package's package.json and README.md (scripts/dist.sh): the version is the
// crate's, the file list is what the folder holds, and the README is www/embed/README.md.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [version, dir] = process.argv.slice(2);
if (!version || !dir) {
  console.error('usage: node scripts/embed_package.mjs VERSION DIR');
  process.exit(2);
}
const files = readdirSync(dir).filter((f) => !f.startsWith('.') && f !== 'package.json').sort();
for (const need of ['scorelens.js', 'scorelens.d.ts', 'scorelens_wasm.js', 'scorelens_wasm.d.ts', 'scorelens_wasm_bg.wasm', 'scorelens_parquet.wasm']) {
  if (!files.includes(need)) {
    console.error(`embed_package: ${need} is missing from ${dir}`);
    process.exit(1);
  }
}
const readme = readFileSync('www/embed/README.md', 'utf8').replaceAll('__VERSION__', version);
writeFileSync(join(dir, 'README.md'), readme);
if (!files.includes('README.md')) files.push('README.md');
const pkg = {
  name: 'scorelens-embed',
  version,
  description: 'Scores LLM evaluation results in the browser: a <scorelens-report> element and a JavaScript API (WebAssembly)',
  license: 'MIT',
  type: 'module',
  main: './scorelens.js',
  module: './scorelens.js',
  types: './scorelens.d.ts',
  exports: {
    '.': { types: './scorelens.d.ts', default: './scorelens.js' },
    './scorelens_wasm_bg.wasm': './scorelens_wasm_bg.wasm',
    './scorelens_parquet.wasm': './scorelens_parquet.wasm',
    './package.json': './package.json',
  },
  files: files.sort(),
  // Importing the entry defines the custom element.
  sideEffects: ['./scorelens.js'],
  keywords: ['llm', 'evaluation', 'calibration', 'reliability-diagram', 'rewardbench', 'webassembly', 'web-component'],
};
writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
