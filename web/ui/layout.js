// The page frame: static text in the current language, the language select, projector
// mode, the phone settings sheet and the landscape caption toggle. main.js calls
// setupLayout() first, then layout.usePlots(plots) once the plots exist.
import { translateDom } from '../i18n/index.js';
import { setupLanguageSelect } from './language.js';
import { setupProjector } from './projector.js';
import { setupSheet } from './sheet.js';
import { $ } from './dom.js';

export function setupLayout({ status } = {}) {
  translateDom(document);
  setupLanguageSelect($('#language'));
  const projector = setupProjector($('#projector'), { status });
  const sheet = setupSheet({
    toggle: $('#sheet-toggle'),
    panel: $('#panel'),
    topbar: $('#topbar'),
    transport: $('#transport'),
    tools: $('#sheet-tools'),
  });
  // on a short landscape screen the caption folds away behind "What to watch"
  const notes = $('#view-notes');
  const captionToggle = $('#caption-toggle');
  captionToggle.addEventListener('click', () => {
    const open = captionToggle.getAttribute('aria-expanded') !== 'true';
    captionToggle.setAttribute('aria-expanded', String(open));
    notes.classList.toggle('caption-open', open);
  });
  if (window.vilabPage) {
    Object.assign(window.vilabPage, {
      /** layout state for tests: projector on, settings sheet open */
      layout: () => ({ projector: projector.isOn(), sheetOpen: sheet.isOpen() }),
    });
  }
  return { usePlots: (plots) => projector.usePlots(plots), sheet, projector };
}
