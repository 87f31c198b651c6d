// The teacher layer wired to the run: when a preset or a lesson is applied (Run.onPreset),
// its activity (web/sim/activities.js) is asked as a prediction card and the run waits at
// t = 0 for play; the card reveals the answer and prints the one-page activity of the same
// set-up. Off in an embed unless its page asks (predict=1); a new scenario or comparison
// closes the card (its question was about the run it set up). The card's code and its
// English words are fetched when a first activity is asked (the first frame shows none).
// Only presets and lessons have activities, so their registry (web/sim/activities.js)
// comes with the presets (web/page/presets.js: loadActivities).
import { encodeState } from '../state/url.js';
import { deepEqual, clone } from '../state/store.js';
import { shortTitle } from '../ui/why.js';
import { el, setChildren, $ } from '../ui/dom.js';
import { t, language, registryText, onLanguageChange, loadLaterWords } from '../i18n/index.js';

/** A printed link longer than this cannot be typed: the sheet names the menu entry instead. */
const MAX_PRINTED_LINK = 600;

/** The page's address (the hosted one when the build names it) without its run or embedding keys. */
function pageAddress(siteURL) {
  const url = new URL(siteURL || location.href);
  url.hash = '';
  url.search = '';
  return url;
}

let activities = null; // web/sim/activities.js, once fetched
/** Fetches the activities' registry once; resolves when applied presets can ask theirs. */
export const loadActivities = () => import('../sim/activities.js').then((m) => void (activities = m));

/** The activity of an applied preset: its lesson's when the Studies drawer applied it (none before the registry is in). */
function activityOf(p) {
  if (!activities) return null;
  return p.fromLesson ? activities.activityFor('lesson', p.fromLesson.id) : activities.activityFor('preset', p.id);
}

/** The prediction card and the printable sheet; returns { card, context, print } (null when off). */
export function createActivities({ lab, store, run, embedKeys, siteURL }) {
  if (!embedKeys.predict) return null;
  const sheet = el('section', { class: 'activity-sheet', id: 'activity-sheet' });
  document.body.append(sheet);
  let current = null; // { activity, preset, document: the run it set up }

  /** The words of the set-up, read from the preset or lesson and the document it set up. */
  function context() {
    const { preset, document: doc } = current;
    const lesson = preset.fromLesson;
    const sc = doc.scenario;
    const title = lesson ? registryText('lesson', lesson, 'title') : registryText('preset', preset, 'title');
    const url = pageAddress(siteURL);
    if (language() !== 'en') url.searchParams.set('lang', language());
    url.hash = encodeState(lab, doc);
    const link = url.toString();
    const jump = preset.lesson?.jumpTo;
    const structures = store.session.get().built?.structures ?? null;
    return {
      kind: lesson ? 'lesson' : 'preset',
      title,
      system: registryText('system', lab.system(sc.system), 'title'),
      a: shortTitle(lab.integrator(sc.integrator), structures),
      b: doc.compare ? shortTitle(lab.integrator(doc.compare), structures) : null,
      h: `${sc.h} s`,
      speed: `${doc.speed}×${Number.isFinite(jump) ? t('activity.sheet.jump', { t: jump }) : ''}`,
      source: lesson ? registryText('lesson', lesson, 'source') : null,
      link: link.length <= MAX_PRINTED_LINK ? link : null,
      menuHint: t(`activity.sheet.menu.${lesson ? 'lesson' : 'preset'}`, { title, url: pageAddress(siteURL).toString() }),
    };
  }

  let card = null; // the prediction card (ui/activity.js), once its code and words are in
  let ui = null;
  let loading = null;
  const cardReady = () =>
    (loading ??= Promise.all([import('../ui/activity.js'), loadLaterWords()]).then(([module]) => {
      ui = module;
      card = new ui.PredictionCard($('#view-notes'), {
        context,
        play: () => run.setPlaying(true),
        print: () => print(),
        // closing a card that held the run lets it play: the lesson goes on without a prediction
        closed: (wasHeld, release) => {
          if (wasHeld && release) run.setPlaying(true);
        },
      });
    }));
  /** fn(card) now, or in call order once the card is in; nothing before a first card is asked. */
  const withCard = (fn, { load = false } = {}) => {
    if (card) return fn(card);
    if (!loading && !load) return;
    cardReady().then(
      () => fn(card),
      (e) => console.error(e),
    );
  };

  /** Fills the sheet and prints it (the print stylesheet prints only the sheet). */
  function print() {
    if (!current || !ui) return;
    setChildren(sheet, ui.activitySheet(current.activity, context()));
    sheet.lang = language();
    document.documentElement.classList.add('print-activity');
    window.print();
  }
  window.addEventListener('afterprint', () => document.documentElement.classList.remove('print-activity'));

  run.onPreset((preset) => {
    const activity = activityOf(preset);
    if (!activity) return false;
    current = { activity, preset, document: clone(store.get()) };
    withCard((c) => c.show(activity, { held: true }), { load: true });
    return true;
  });
  store.subscribe((state) => {
    if (!current || (deepEqual(state.scenario, current.document.scenario) && state.compare === current.document.compare)) return;
    current = null;
    withCard((c) => c.forget());
  });
  store.session.subscribe((s, prev) => s.playing && !prev.playing && withCard((c) => c.played()));
  onLanguageChange(() => withCard((c) => c.render()));
  return { cardReady, context: () => current && context(), print };
}
