// vilab service worker (generated at build time from web/pwa/sw-template.js by
// web/pwa/precache-plugin.js). Precaches the whole build so the page works
// offline after the first visit; never talks to a third party.
//
// After a redeploy the new worker installs beside the old one and waits: open tabs
// keep the version they started with (their lazy chunks stay in the old cache) and
// show "a new version is available"; the tab that accepts sends vilab:skip-waiting
// and reloads. Caches are named by install time and content version. An install that
// fails deletes the cache it made; an older deploy's cache is deleted only once no
// open tab runs that deploy: each tab answers with the address of one of its own files
// (web/pwa/update.js), and while a tab does not answer no older cache is deleted.
const VERSION = '__VERSION__';
const PRECACHE = __PRECACHE__;
const PREFIX = 'vilab-';
const ANSWER_MS = 2000; // how long a tab may take to say which deploy it runs

const ours = () => caches.keys().then((keys) => keys.filter((k) => k.startsWith(PREFIX)).sort());
const isMine = (name) => name.endsWith(`-${VERSION}`);

self.addEventListener('install', (event) => {
  // a cache of its own, even for a version seen before (its name orders the deploys);
  // an install that fails (a file missing from the server) deletes it
  const name = `${PREFIX}${String(Date.now()).padStart(15, '0')}-${VERSION}`;
  event.waitUntil(
    caches
      .open(name)
      .then((cache) => cache.addAll(PRECACHE))
      .catch((e) => caches.delete(name).then(() => Promise.reject(e))),
  );
});

// this version's cache name, looked up once per worker (not on every request)
let current = null;
const currentCache = () => (current ??= ours().then((keys) => keys.filter(isMine).pop()));

// The address of a file of the deploy an open tab runs, or null when it does not answer.
function askDeploy(client) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), ANSWER_MS);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(typeof event.data?.asset === 'string' ? event.data.asset : null);
    };
    client.postMessage({ type: 'vilab:which-deploy' }, [channel.port2]);
  });
}

// Deletes the caches older than this worker's (by install time) that no open tab uses.
// Newer ones belong to a worker that installs or waits and are left to it.
async function dropUnusedOlder() {
  const mine = await currentCache();
  const older = mine ? (await ours()).filter((k) => k < mine) : [];
  if (older.length === 0) return;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const tabs = windows.filter((client) => client.url.startsWith(self.registration.scope)); // this site's tabs only
  const assets = await Promise.all(tabs.map(askDeploy));
  if (assets.includes(null)) return; // a tab that cannot say may be on any of them
  const options = { ignoreSearch: true, ignoreVary: true };
  for (const name of older) {
    const cache = await caches.open(name);
    const hits = await Promise.all(assets.map((asset) => cache.match(asset, options)));
    if (!hits.some(Boolean)) await caches.delete(name);
  }
}

self.addEventListener('message', (event) => {
  if (event.data?.type === 'vilab:skip-waiting') self.skipWaiting();
  // a tab started: a deploy no tab runs any more may now go
  if (event.data?.type === 'vilab:tab-started') event.waitUntil(dropUnusedOlder());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(dropUnusedOlder().then(() => self.clients.claim()));
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
