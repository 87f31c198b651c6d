// The lesson layout: when a preset or lesson is chosen (session `lesson`), and by default
// in projector mode, the plot its caption names is shown large beside the 3D view with
// the caption above it, and the settings are tucked behind one button (the transport's
// Settings). A teacher can pin another card as the large one (session `pinnedPlot`, kept
// across presets in this tab) or leave the layout with its toggle. On small screens the
// named card leads the row of cards instead; embeds keep their compact layout.
import { $ } from '../ui/dom.js';
import { t } from '../i18n/index.js';

// where the view and a large plot fit side by side (the phone layouts of styles.css below)
const WIDE = '(min-width: 700px) and (min-height: 521px), (min-width: 700px) and (orientation: portrait)';

/** The lesson layout over the plots; returns { isOn, setOn, pin, arranged, state }. */
export function createLessonLayout({ store, plots, layout, notices }) {
  const root = document.documentElement;
  const session = store.session;
  const els = {
    host: $('#pane-plot'),
    slot: $('#pane-caption'),
    caption: $('#caption'),
    toggle: $('#lesson-toggle'),
    all: $('#cards-all'),
  };
  const wide = matchMedia(WIDE);
  // where the caption lives outside the lesson layout (what comes after it, a prediction card, stays after it)
  const captionHome = document.createComment('caption');
  els.caption.before(captionHome);
  const compact = root.classList.contains('embed') || root.classList.contains('bare');
  let choice = null; // the reader's toggle (true / false), or null: follow the presets and projector mode
  let showAll = false; // "All plots": the cards a lesson leaves out, shown anyway
  let wasOn = false;

  const isOn = () => !compact && (choice ?? (!!session.get().lesson || layout.projector.isOn()));

  function apply() {
    const on = isOn();
    const placed = on && wide.matches;
    root.classList.toggle('lesson-layout', on);
    els.toggle.setAttribute('aria-pressed', String(on));
    // the caption sits with the plot it names; the settings are tucked away when the layout opens
    if (placed) els.slot.append(els.caption);
    else captionHome.after(els.caption);
    if (on && !wasOn && wide.matches) layout.sheet.setOpen(false);
    wasOn = on;
    const { lesson, pinnedPlot } = session.get();
    plots.setLesson({
      on,
      plot: lesson?.plot ?? null,
      cards: showAll ? null : (lesson?.cards ?? null),
      pin: pinnedPlot,
      host: placed ? els.host : null,
    });
    requestAnimationFrame(() => plots.resize());
  }

  els.toggle.addEventListener('click', () => {
    choice = !isOn();
    apply();
    notices.status(t(choice ? 'layout.on' : 'layout.off'));
  });
  els.all.addEventListener('click', () => {
    showAll = true;
    apply();
  });
  session.subscribe((s, prev) => {
    if (s.lesson !== prev.lesson) {
      showAll = false;
      if (s.lesson) choice = null; // a preset chosen: its lesson is shown, whatever the toggle said before
      apply();
    } else if (s.pinnedPlot !== prev.pinnedPlot) apply();
  });
  // another system: the lesson's plot and cards no longer apply (the layout stays)
  store.subscribe((state) => {
    const lesson = session.get().lesson;
    if (lesson && lesson.system !== state.scenario.system)
      session.set({ lesson: { ...lesson, system: state.scenario.system, plot: null, cards: null } });
  });
  layout.projector.onChange(() => apply());
  wide.addEventListener?.('change', () => apply());
  new ResizeObserver(() => plots.resize()).observe(els.host);
  apply();

  return {
    isOn,
    /** The pin of a card (null: none); pinning turns the layout on. */
    pin(id) {
      if (id && !isOn()) choice = true;
      session.set({ pinnedPlot: id });
      const title = id ? document.querySelector(`#plot-${id}-title`)?.textContent : '';
      notices.status(id ? t('layout.pin.on', { title }) : t('layout.pin.off'));
    },
    /** The plots were arranged: "All plots (n hidden)" when a lesson leaves some out. */
    arranged({ hidden }) {
      els.all.hidden = hidden === 0;
      els.all.textContent = t('layout.cards.all', { n: hidden });
      els.all.title = t('layout.cards.all.title');
    },
    /** For tests: { on, featured, pinned, plot, hidden }. */
    state: () => ({
      on: isOn(),
      featured: plots.featured,
      pinned: session.get().pinnedPlot,
      plot: session.get().lesson?.plot ?? null,
      hidden: plots.hiddenCount ?? 0,
    }),
  };
}
