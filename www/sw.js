// scorelens offline cache: after the first visit the page and its samples load without a network.
// scripts/postbuild.mjs fills in the version and the list of files at build time. This worker
// only ever fetches the site's own files; it never sees a dropped file (those are read in the page).
const VERSION = '__VERSION__';
const ASSETS = [/*ASSETS*/];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(VERSION).then((c) => c.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  if (req.mode === 'navigate') {
    // The page itself: fresh when online, the cached copy when not.
    event.respondWith(
      fetch(req)
        .then((res) => {
          const copy = res.clone();
          caches.open(VERSION).then((c) => c.put(req, copy));
          return res;
        })
        .catch(() => caches.match(req).then((hit) => hit || caches.match('./'))),
    );
    return;
  }
  // Hashed assets and samples: the cache first. What is fetched on demand (the Parquet decoder,
  // at the first Parquet file) is kept once fetched, so it works offline after that.
  event.respondWith(caches.match(req).then((hit) => hit || fetch(req).then((res) => {
    if (res.ok && new URL(req.url).pathname.endsWith('/scorelens_parquet.wasm')) {
      const copy = res.clone();
      caches.open(VERSION).then((c) => c.put(req, copy));
    }
    return res;
  })));
});
