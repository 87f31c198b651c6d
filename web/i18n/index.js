// The page's words: one catalogue per language, split by area (web/i18n/<lang>/<area>.js,
// each `export default { 'area.key': 'text with {name} slots' }`), merged here.
//
//   t('plots.energy.title')                  the current language's text, else English
//   t('share.copied', { step: 12 })          slots {step} filled in
//   registryText('integrator', info, 'title') a registry string (title, summary, …) in the
//                                            current language; the registry's English else
//   setLanguage('es') / language() / onLanguageChange(fn) / LANGUAGES
//   translateDom(root)                        fills [data-i18n] (text), [data-i18n-label]
//                                            (aria-label), [data-i18n-title] (title)
//
// The registry (C++) speaks English; its translations live in <lang>/registry.js under
// keys `integrator.<id>.<field>`, `system.<id>.<field>`, `param.<system>.<name>.<field>`,
// `preset.<id>.<field>`; an integrator's options go through paramText(integratorId, spec,
// field) (`param.<integrator>.<name>.<field>`), its claims (badges) through claimText(text)
// (`claim.<English text>`). A missing key falls back to English, so a new integrator works
// before it is translated (tests/e2e/i18n.test.mjs lists what is missing).
const modules = import.meta.glob('./*/*.js', { eager: true, import: 'default' });

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
];

const catalogues = {};
for (const [path, table] of Object.entries(modules)) {
  const code = path.split('/')[1];
  catalogues[code] = Object.assign(catalogues[code] ?? {}, table);
}

const STORAGE_KEY = 'vilab.language';
let current = 'en';
const listeners = new Set();

function initialLanguage() {
  const fromUrl = new URLSearchParams(globalThis.location?.search ?? '').get('lang');
  if (fromUrl && catalogues[fromUrl]) return fromUrl;
  try {
    const saved = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (saved && catalogues[saved]) return saved;
  } catch {
    /* storage may be unavailable (privacy mode, file://) */
  }
  const nav = (globalThis.navigator?.language ?? 'en').slice(0, 2);
  return catalogues[nav] ? nav : 'en';
}
current = initialLanguage();
if (globalThis.document) document.documentElement.lang = current;

export const language = () => current;

function fill(text, vars) {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/** The text for key in the current language (English when missing; the key itself as a last resort). */
export function t(key, vars) {
  const text = catalogues[current]?.[key] ?? catalogues.en?.[key];
  if (text == null) return key;
  return fill(text, vars);
}

/** Whether the current language (or English) has this key. */
export const has = (key) => key in (catalogues[current] ?? {}) || key in (catalogues.en ?? {});

/**
 * A registry string in the current language: kind 'integrator' | 'system' | 'preset',
 * info the registry entry (or preset) with an id, field its English field name.
 */
export function registryText(kind, info, field) {
  if (!info) return '';
  const english = info[field] ?? '';
  if (current === 'en') return english;
  return catalogues[current]?.[`${kind}.${info.id}.${field}`] ?? english;
}

/** A parameter's (or initial field's) text: param.<system>.<name>.<field>, then param.*.<name>.<field>. */
export function paramText(systemId, spec, field) {
  const english = spec?.[field] ?? '';
  if (current === 'en' || !spec) return english;
  const table = catalogues[current] ?? {};
  return table[`param.${systemId}.${spec.name}.${field}`] ?? table[`param.*.${spec.name}.${field}`] ?? english;
}

/** An integrator's claim as the registry words it ('symplectic form', …): claim.<text>. */
export function claimText(text) {
  if (current === 'en' || text == null) return text ?? '';
  return catalogues[current]?.[`claim.${text}`] ?? text;
}

export function setLanguage(code) {
  if (!catalogues[code] || code === current) return;
  current = code;
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, code);
  } catch {
    /* not persisted */
  }
  if (globalThis.document) {
    document.documentElement.lang = code;
    translateDom(document);
  }
  for (const fn of listeners) fn(code);
}

/** fn(code) after every language change; returns an unsubscribe function. */
export function onLanguageChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Fills the static markup: [data-i18n] text, [data-i18n-label] aria-label, [data-i18n-title] title. */
export function translateDom(root = document) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-label]')) node.setAttribute('aria-label', t(node.dataset.i18nLabel));
  for (const node of root.querySelectorAll('[data-i18n-title]')) node.setAttribute('title', t(node.dataset.i18nTitle));
}

/** Every key of a language (tests: coverage). */
export const keys = (code) => Object.keys(catalogues[code] ?? {});

/** A copy of a language's whole catalogue (tests: no English left on screen). */
export const catalogue = (code) => ({ ...(catalogues[code] ?? {}) });
