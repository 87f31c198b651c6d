// Projector mode: larger type and thicker lines for a room. A class on <html> (the CSS
// does the rest) and plots.setProjector(on); remembered on this device, never in links.
import { t } from '../i18n/index.js';

const STORAGE_KEY = 'vilab.projector';

function saved() {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) === '1';
  } catch {
    return false; // storage may be unavailable (privacy mode)
  }
}

export function setupProjector(button, { status } = {}) {
  let plots = null;
  let on = false;
  const listeners = new Set();
  function apply(next, { announce = false } = {}) {
    on = next;
    document.documentElement.classList.toggle('projector', on);
    button.setAttribute('aria-pressed', String(on));
    plots?.setProjector?.(on);
    for (const fn of listeners) fn(on);
    if (announce) status?.(t(on ? 'page.projector.on' : 'page.projector.off'));
  }
  button.addEventListener('click', () => {
    apply(!on, { announce: true });
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, on ? '1' : '0');
    } catch {
      /* not remembered */
    }
  });
  apply(saved());
  return {
    /** The plots, once they exist: told the current mode now and on every change. */
    usePlots(p) {
      plots = p;
      plots?.setProjector?.(on);
    },
    isOn: () => on,
    /** fn(on) after every change (the lesson layout is projector mode's default) */
    onChange: (fn) => listeners.add(fn),
  };
}
