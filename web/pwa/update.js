// The page's side of a redeploy: when a new service worker has installed and waits
// (web/pwa/sw-template.js), offer the reload; only the reader's click switches versions.
// The tab also tells the worker which deploy it runs, so that deploy's cache is kept
// while the tab is open.
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

/** This tab's deploy, named by its entry script (a precached file whose name changes with any file it loads). */
const entryScript = () => document.querySelector('script[type="module"][src]')?.src ?? null;

/**
 * Answers the worker's vilab:which-deploy (on the port it sends) with the address of this
 * tab's entry script, then says that a tab started (a deploy no tab runs may now go).
 */
export function answerDeployQuestions() {
  const container = navigator.serviceWorker;
  container.addEventListener('message', (event) => {
    if (event.data?.type === 'vilab:which-deploy') event.ports[0]?.postMessage({ asset: entryScript() });
  });
  container.startMessages();
  container.ready.then(() => container.controller?.postMessage({ type: 'vilab:tab-started' }));
}
