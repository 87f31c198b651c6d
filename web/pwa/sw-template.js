// vilab service worker (generated at build time from web/pwa/sw-template.js by
// web/pwa/precache-plugin.js). Precaches the whole build so the page works
// offline after the first visit; never talks to a third party.
const VERSION = '__VERSION__';
const PRECACHE = __PRECACHE__;
const CACHE = `vilab-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('vilab-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    // network first (fresh after a deploy), the precached page when offline
    event.respondWith(
      fetch(request).catch(() =>
        caches.open(CACHE).then((cache) => cache.match('./index.html', { ignoreVary: true }).then((hit) => hit || cache.match('./', { ignoreVary: true }))),
      ),
    );
    return;
  }
  // hashed assets: cache first
  event.respondWith(
    caches.open(CACHE).then((cache) =>
      cache.match(request, { ignoreSearch: true, ignoreVary: true }).then((hit) => hit || fetch(request)),
    ),
  );
});
