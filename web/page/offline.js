// Offline: the service worker of the production site (not the single file, not with
// ?nosw=1), and the "Reload" banner when a new deploy is waiting (web/pwa/update.js).
import { watchForUpdates, answerDeployQuestions } from '../pwa/update.js';
import { t } from '../i18n/index.js';

export function registerServiceWorker(notices) {
  const wanted = import.meta.env.PROD && import.meta.env.MODE !== 'single';
  if (!wanted || !('serviceWorker' in navigator)) return;
  // even with ?nosw=1: a worker may take this tab over, and must keep its files
  answerDeployQuestions();
  if (new URLSearchParams(location.search).has('nosw')) return;
  const register = () =>
    navigator.serviceWorker
      .register('./sw.js')
      .then((registration) => {
        const updates = watchForUpdates(registration, () =>
          notices.banner('update', [t('embed.update')], {
            kind: 'info',
            actions: [{ label: t('embed.update.reload'), onClick: () => updates.apply() }],
          }),
        );
      })
      .catch(() => {
        /* offline support is optional */
      });
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
