// Trunk post-build hook (Trunk.toml): finishes dist/ in the staging directory.
// 1. Adds the SHA-256 of each inline script (Trunk's start-up module) to the page's CSP, so the
//    policy allows exactly that script and nothing else inline.
// 2. Writes samples/index.json, the list the "try a sample" buttons show: each file directly in
//    samples/ is a sample, each folder is one sample. A folder's files are read as one run,
//    unless each is a canonical file whose header names a different model: then they are models
//    to compare, one run each (`together: false`). Each says what it is (`about`, from
//    samples/about.json; a sample without a line there fails the build).
// 3. Writes the offline cache list and a version into sw.js.
// First it minifies wasm-bindgen's JS glue with terser (Trunk's own minifier fails on its
// `export default`): 9.1 -> 6.9 KB gzip for the page (docs/performance.md, page weight).
import { minify } from 'terser';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const stage = process.env.TRUNK_STAGING_DIR;
if (!stage) {
  console.error('postbuild: TRUNK_STAGING_DIR is not set (run through trunk build)');
  process.exit(1);
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? walk(p) : [p];
  });
}

// 0. The JS glue of the page and the worker, minified (ES modules; sw.js is left as written).
// Trunk wrote a subresource-integrity hash of each file into index.html: each is replaced by
// the minified file's, or the browser would refuse to run it.
const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
const integrity = new Map();
for (const name of readdirSync(stage)) {
  if (!name.endsWith('.js') || name === 'sw.js') continue;
  const path = join(stage, name);
  const text = readFileSync(path, 'utf8');
  const out = await minify(text, { module: true, compress: true, mangle: true });
  if (typeof out.code !== 'string') {
    console.error(`postbuild: terser gave no output for ${name}`);
    process.exit(1);
  }
  writeFileSync(path, out.code);
  integrity.set(sri(Buffer.from(text, 'utf8')), sri(Buffer.from(out.code, 'utf8')));
}

// 1. CSP hashes.
const indexPath = join(stage, 'index.html');
let html = readFileSync(indexPath, 'utf8');
for (const [before, after] of integrity) html = html.split(before).join(after);
const hashes = [];
for (const m of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
  hashes.push(`'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
}
// Minified HTML may reorder attributes and drop quotes: find the CSP meta tag, then its content.
let found = false;
html = html.replace(/<meta\b[^>]*>/g, (tag) => {
  if (!/http-equiv="?Content-Security-Policy/i.test(tag)) return tag;
  found = true;
  return tag.replace(/content="([^"]*)"/, (_, policy) => {
    const rules = policy.split(';').map((r) => r.trim()).filter(Boolean).map((r) =>
      r.startsWith('script-src ') ? [...new Set([...r.split(/\s+/), ...hashes])].join(' ') : r);
    return `content="${rules.join('; ')}"`;
  });
});
if (!found) {
  console.error('postbuild: index.html has no CSP meta');
  process.exit(1);
}
writeFileSync(indexPath, html);

// 2. Samples manifest.
function headerModel(file) {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0];
  try {
    const h = JSON.parse(first);
    return h && typeof h === 'object' && 'scorelens' in h && typeof h.model === 'string' ? h.model : null;
  } catch {
    return null;
  }
}
function separateModels(files) {
  if (files.length < 2) return false;
  const models = files.map(headerModel);
  return models.every((m) => m !== null) && new Set(models).size === models.length;
}

const samplesDir = join(stage, 'samples');
const samples = [];
if (existsSync(samplesDir)) {
  const skip = (name) => name.startsWith('.') || ['index.json', 'about.json'].includes(name) || /\.(md|txt|py)$/i.test(name);
  const aboutPath = join(samplesDir, 'about.json');
  const about = existsSync(aboutPath) ? JSON.parse(readFileSync(aboutPath, 'utf8')) : {};
  for (const e of readdirSync(samplesDir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (skip(e.name)) continue;
    const p = join(samplesDir, e.name);
    const files = e.isDirectory()
      ? walk(p).filter((f) => !skip(relative(p, f))).sort()
      : [p];
    if (files.length === 0) continue;
    if (typeof about[e.name] !== 'string') {
      console.error(`postbuild: samples/about.json says nothing about the sample ${e.name}`);
      process.exit(1);
    }
    samples.push({
      name: e.name,
      about: about[e.name],
      files: files.map((f) => relative(samplesDir, f).split('\\').join('/')),
      bytes: files.reduce((n, f) => n + statSync(f).size, 0),
      together: !separateModels(files),
    });
  }
  writeFileSync(join(samplesDir, 'index.json'), JSON.stringify(samples, null, 1) + '\n');
}

// 3. Offline cache list.
const swPath = join(stage, 'sw.js');
if (existsSync(swPath)) {
  const assets = walk(stage)
    .map((f) => relative(stage, f).split('\\').join('/'))
    // The Parquet decoder (the worker's in parquet/, the widget's in embed/) is fetched when a
    // Parquet file is dropped, not with the page: the service worker keeps it once fetched (sw.js).
    .filter((f) => f !== 'sw.js' && !f.endsWith('scorelens_parquet.wasm'))
    .sort();
  const version = createHash('sha256');
  for (const a of assets) version.update(a).update(readFileSync(join(stage, a)));
  const sw = readFileSync(swPath, 'utf8')
    .replace('__VERSION__', `scorelens-${version.digest('hex').slice(0, 16)}`)
    .replace('[/*ASSETS*/]', JSON.stringify(['./', ...assets]));
  writeFileSync(swPath, sw);
}
console.log(`postbuild: ${hashes.length} inline script hash(es) in the CSP, ${samples.length} samples listed`);
