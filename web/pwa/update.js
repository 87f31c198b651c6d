// The page's side of a redeploy: when a new service worker has installed and waits
// (web/pwa/sw-template.js), offer the reload; only the reader's click switches versions.
const CHECK_EVERY_MS = 60 * 60 * 1000;

/** Calls offer() once a new version waits; offer's action should call the returned apply(). */
export function watchForUpdates(registration, offer) {
  let offered = false;
  let accepted = false;
  const check = () => {
    // a waiting worker while this tab is controlled: a newer deploy than this tab's
    if (!offered && registration.waiting && navigator.serviceWorker.controller) {
      offered = true;
      offer();
    }
  };
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    worker?.addEventListener('statechange', () => worker.state === 'installed' && check());
  });
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (accepted) location.reload();
  });
  check();
  setInterval(() => registration.update().catch(() => {}), CHECK_EVERY_MS);
  return {
    apply() {
      if (!registration.waiting) return;
      accepted = true;
      registration.waiting.postMessage({ type: 'vilab:skip-waiting' });
    },
  };
}
