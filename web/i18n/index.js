// The page's words: one catalogue per language, split by area (web/i18n/<lang>/<area>.js,
// each `export default { 'area.key': 'text with {name} slots' }`), merged here.
//
//   t('plots.energy.title')                  the current language's text, else English
//   t('share.copied', { step: 12 })          slots {step} filled in
//   registryText('integrator', info, 'title') a registry string (title, summary, …) in the
//                                            current language; the registry's English else
//   setLanguage('es') / language() / onLanguageChange(fn) / LANGUAGES
//   ready                                     resolves once the page's first language is in
//
// English is part of the page (but for the words of the teacher layer's card, the
// Definition panel, the Studies drawer and the plots, fetched after the first frame or with
// their code: loadLaterWords); every other language is a chunk of its own, fetched when it is first
// chosen (or is the reader's language at load), so a first visit carries one catalogue,
// not all of them.
//   translateDom(root)                        fills [data-i18n] (text), [data-i18n-label]
//                                            (aria-label), [data-i18n-title] (title)
//
// The registry (C++) speaks English. Each entry's words in every language live beside
// each other in core/prose/<integrators|systems>/<id>.<lang>.json (core/prose/README.md);
// a language's <lang>/registry.js flattens its files into this catalogue (web/i18n/prose.js):
// `integrator.<id>.<field>`, `system.<id>.<field>`, `param.<system|integrator>.<name>.<field>`
// (a system's params and initial fields, an integrator's options: paramText(entryId, spec,
// field)), `claim.<English words>` (the badges: claimText(text)) and `definition.<…>`;
// the presets' words are in <lang>/presets.js (`preset.<id>.<field>`). A missing key falls
// back to English, so a new entry works before it is translated (tests/wasm/prose.test.mjs
// and tests/e2e/i18n.test.mjs list what is missing).
import { setNumberLocale } from '../sim/format.js';

// English is in the page, but for the areas its first frame never shows (the teacher
// layer's card, the Definition panel and its Mechanics, the Open model dialog, the Studies
// drawer with its lessons and dispersion, the plots): those arrive right after the first frame or with
// the code that shows them, whichever comes first (loadLaterWords). import.meta.glob takes
// literal lists only, so the two lists below name the same files.
const english = import.meta.glob(
  [
    './en/*.js',
    '!./en/activities.js',
    '!./en/dispersion.js',
    '!./en/editor.js',
    '!./en/editor-room.js',
    '!./en/furniture.js',
    '!./en/lessons.js',
    '!./en/linearize.js',
    '!./en/mechanics.js',
    '!./en/model.js',
    '!./en/plots.js',
    '!./en/studies.js',
  ],
  {
    eager: true,
    import: 'default',
  },
);
const laterEnglish = import.meta.glob(
  [
    './en/activities.js',
    './en/dispersion.js',
    './en/editor.js',
    './en/editor-room.js',
    './en/furniture.js',
    './en/lessons.js',
    './en/linearize.js',
    './en/mechanics.js',
    './en/model.js',
    './en/plots.js',
    './en/studies.js',
  ],
  { import: 'default' },
);
const others = import.meta.glob(['./*/*.js', '!./en/*.js'], { import: 'default' });

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
];
const known = (code) => LANGUAGES.some((l) => l.code === code);

const catalogues = { en: Object.assign({}, ...Object.values(english)) };
const loading = {};

/** Fetches a language's catalogue once (English is always there). */
export function loadLanguage(code) {
  if (catalogues[code]) return Promise.resolve(catalogues[code]);
  if (!known(code)) return Promise.reject(new Error(`unknown language ${code}`));
  loading[code] ??= Promise.all(
    Object.entries(others)
      .filter(([path]) => path.split('/')[1] === code)
      .map(([, load]) => load()),
  ).then(
    (tables) => (catalogues[code] = Object.assign({}, ...tables)),
    (e) => {
      delete loading[code];
      throw e;
    },
  );
  return loading[code];
}

let laterWords = null;
/** Fetches the English of the areas left out of the page (once); resolves when t() has them. */
export function loadLaterWords() {
  laterWords ??= Promise.all(Object.values(laterEnglish).map((load) => load())).then(
    (tables) => void Object.assign(catalogues.en, ...tables),
    (e) => {
      laterWords = null; // a later call tries again
      throw e;
    },
  );
  return laterWords;
}

const STORAGE_KEY = 'vilab.language';
let current = 'en';
const listeners = new Set();

function initialLanguage() {
  const fromUrl = new URLSearchParams(globalThis.location?.search ?? '').get('lang');
  if (fromUrl && known(fromUrl)) return fromUrl;
  try {
    const saved = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (saved && known(saved)) return saved;
  } catch {
    /* storage may be unavailable (privacy mode, file://) */
  }
  const nav = (globalThis.navigator?.language ?? 'en').slice(0, 2);
  return known(nav) ? nav : 'en';
}
const first = initialLanguage();
if (globalThis.document) document.documentElement.lang = first;
/** The first language's catalogue is in (English if it could not be fetched). */
export const ready = loadLanguage(first).then(
  () => {
    current = first;
    setNumberLocale(first);
  },
  () => {
    if (globalThis.document) document.documentElement.lang = 'en';
  },
);

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

/** A parameter's, initial field's or option's text: param.<system or integrator>.<name>.<field>. */
export function paramText(entryId, spec, field) {
  const english = spec?.[field] ?? '';
  if (current === 'en' || !spec) return english;
  return catalogues[current]?.[`param.${entryId}.${spec.name}.${field}`] ?? english;
}

/** An integrator's claim as the registry words it ('symplectic form', …): claim.<text>. */
export function claimText(text) {
  if (current === 'en' || text == null) return text ?? '';
  return catalogues[current]?.[`claim.${text}`] ?? text;
}

/** Switches (fetching the catalogue first if needed); resolves once the page speaks it. */
export async function setLanguage(code) {
  if (!known(code) || code === current) return;
  await loadLanguage(code);
  current = code;
  setNumberLocale(code);
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

/** Every key of a language, once loaded (tests: coverage). */
export const keys = (code) => Object.keys(catalogues[code] ?? {});

/** A copy of a language's whole catalogue (tests: no English left on screen). */
export const catalogue = (code) => ({ ...(catalogues[code] ?? {}) });
