// Help's "Download for offline use" and "Licences". The site offers vilab.html (the single
// file) when npm run build:site, which puts it beside the page, built it (VITE_OFFLINE_COPY); the
// single file is that copy already, and carries its licences inside (script#licences,
// web/pwa/licences.js), shown in place since it has no file beside it.
import { $ } from '../ui/dom.js';

/** The licences link of the single file: the carried text, opened and closed in Help. */
function showCarriedLicences(link, carried) {
  const pre = $('#licences-text');
  link.setAttribute('aria-controls', 'licences-text');
  link.setAttribute('aria-expanded', 'false');
  link.addEventListener('click', (e) => {
    e.preventDefault();
    if (!pre.textContent) pre.textContent = carried.textContent.trim();
    pre.hidden = !pre.hidden;
    link.setAttribute('aria-expanded', String(!pre.hidden));
    if (!pre.hidden) pre.focus();
  });
}

export function setupOfflineCopy({ single }) {
  const carried = document.getElementById('licences');
  if (carried) showCarriedLicences($('#licences-link'), carried);
  $('#offline-copy').hidden = single || import.meta.env.VITE_OFFLINE_COPY !== '1';
}
