// The language select in the top bar: filled from the catalogues' LANGUAGES, switches
// with setLanguage (which re-translates the static markup and tells every listener).
import { LANGUAGES, language, setLanguage, onLanguageChange, keys, catalogue, loadLanguage } from '../i18n/index.js';
import { el, setChildren } from './dom.js';

export function setupLanguageSelect(select) {
  if (!select.options.length) {
    // each name in its own language, marked so a screen reader pronounces it right
    setChildren(
      select,
      LANGUAGES.map(({ code, name }) => el('option', { value: code, lang: code }, name)),
    );
  }
  select.value = language();
  if (select.dataset.wired) return;
  select.dataset.wired = '1';
  select.addEventListener('change', () => setLanguage(select.value).catch(() => (select.value = language())));
  onLanguageChange((code) => (select.value = code));
  // test hook: the catalogues, for the e2e check that no English is left on screen
  if (window.vilabPage)
    Object.assign(window.vilabPage, { i18n: { language, setLanguage, keys, catalogue, load: loadLanguage, languages: LANGUAGES } });
}
