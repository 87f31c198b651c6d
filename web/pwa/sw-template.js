// vilab service worker (generated at build time from web/pwa/sw-template.js by
// web/pwa/precache-plugin.js). Precaches the whole build so the page works
// offline after the first visit; never talks to a third party.
//
// After a redeploy the new worker installs beside the old one and waits: open tabs
// keep the version they started with (their lazy chunks stay in the old cache) and
// show "a new version is available"; the tab that accepts sends vilab:skip-waiting
// and reloads. Caches are named by install time and content version; the newest old
// cache survives one more deploy so a tab still on it never meets a missing chunk.
const VERSION = '__VERSION__';
const PRECACHE = __PRECACHE__;
const PREFIX = 'vilab-';
const CACHE_KEPT = 2; // the current cache and the one before it

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.keys().then((keys) => {
      const mine = keys.find((k) => k.startsWith(PREFIX) && k.endsWith(`-${VERSION}`));
      const name = mine ?? `${PREFIX}${String(Date.now()).padStart(15, '0')}-${VERSION}`;
      return caches.open(name).then((cache) => cache.addAll(PRECACHE));
    }),
  );
});

self.addEventListener('message', (event) => {
  if (event.data?.type === 'vilab:skip-waiting') self.skipWaiting();
});

// this version's cache name, looked up once per worker (not on every request)
let current = null;
const currentCache = () =>
  (current ??= caches.keys().then((keys) =>
    keys
      .filter((k) => k.startsWith(PREFIX) && k.endsWith(`-${VERSION}`))
      .sort()
      .pop(),
  ));

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => {
        const ours = keys.filter((k) => k.startsWith(PREFIX)).sort();
        const current = ours.filter((k) => k.endsWith(`-${VERSION}`));
        const older = ours.filter((k) => !current.includes(k));
        const drop = older.slice(0, Math.max(0, older.length - (CACHE_KEPT - 1)));
        return Promise.all(drop.map((k) => caches.delete(k)));
      })
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    // network first (fresh after a deploy), this version's page when offline
    event.respondWith(
      fetch(request).catch(() =>
        currentCache()
          .then((name) => caches.open(name))
          .then((cache) => cache.match('./index.html', { ignoreVary: true }).then((hit) => hit || cache.match('./', { ignoreVary: true }))),
      ),
    );
    return;
  }
  // cache first: this version's cache, then a kept older one (a tab still on the old
  // version asks for names this deploy no longer has), then the network
  const options = { ignoreSearch: true, ignoreVary: true };
  event.respondWith(
    currentCache()
      .then((name) => (name ? caches.open(name).then((cache) => cache.match(request, options)) : undefined))
      .then((hit) => hit || caches.match(request, options))
      .then((hit) => hit || fetch(request)),
  );
});
