// The teacher layer on screen: the prediction card shown when a preset or lesson is chosen
// (the question, its choices, play, reveal, print) and the printable one-page activity
// (set-up, prediction, what to measure, answer), both from the activity registry
// (web/sim/activities.js) and the set-up the preset or lesson applied. The card waits
// for play; the sheet is printed by the browser with the print stylesheet (styles.css,
// `html.print-activity`: only the sheet is printed).
import './activity.css'; // its styles come with it
import { choiceKey } from '../sim/activities.js';
import { el, setChildren } from './dom.js';
import { t } from '../i18n/index.js';

/** The words of one choice: A and B are named by the integrators the run set up. */
export function choiceText(activity, choice, ctx) {
  return t(choiceKey(activity.kind, activity.id, choice), { a: ctx.a, b: ctx.b ?? '' });
}

const words = (activity, field) => t(`activity.${activity.kind}.${activity.id}.${field}`);

/**
 * The prediction card. actions: { context() → the words of the set-up ({ a, b, … }, read
 * when drawn, so a new language re-words them), play(), print(), closed(wasHeld, release) }.
 */
export class PredictionCard {
  constructor(host, actions) {
    this.actions = actions;
    this.activity = null;
    this.node = el('section', { class: 'predict', id: 'predict', hidden: true, 'aria-labelledby': 'predict-title', tabindex: '-1' });
    this.node.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      this.close();
    });
    // a closed card comes back from here while its preset is on screen (its choice and reveal kept)
    this.reopenBtn = el('button', { type: 'button', class: 'btn small predict-reopen', hidden: true, onclick: () => this.reopen() });
    host.append(this.node, this.reopenBtn);
  }

  get isOpen() {
    return !this.node.hidden;
  }

  /** Shows a new activity: nothing chosen, the answer hidden; held: the run waits for play. */
  show(activity, { held }) {
    Object.assign(this, { activity, held, chosen: null, revealed: false });
    this.node.dataset.activity = `${activity.kind}:${activity.id}`;
    this.node.hidden = false;
    this.reopenBtn.hidden = true;
    this.render();
  }

  /** The run started playing (from the card or the transport). */
  played() {
    if (!this.held) return;
    this.held = false;
    if (this.isOpen) this.render();
  }

  /** Hides the card; release: the reader closed it (a run it held may play, and it can come back). */
  close(release = true) {
    if (!this.isOpen) return;
    this.node.hidden = true;
    this.reopenBtn.hidden = !release;
    this.reopenBtn.textContent = t('activity.reopen');
    const wasHeld = this.held;
    this.held = false;
    this.actions.closed(wasHeld, release);
  }

  /** The run is no longer the one the activity set up: the card and its way back go. */
  forget() {
    this.close(false);
    this.reopenBtn.hidden = true;
    this.activity = null;
  }

  reopen() {
    this.reopenBtn.hidden = true;
    this.node.hidden = false;
    this.render();
    this.node.focus({ preventScroll: true });
  }

  choose(choice) {
    this.chosen = choice;
    this.render();
  }

  reveal() {
    this.revealed = true;
    this.render();
    this.node.querySelector('.predict-answer')?.focus({ preventScroll: true });
  }

  /** (Re)draws the card in the current language, keeping the choice and the reveal. */
  render() {
    this.reopenBtn.textContent = t('activity.reopen');
    const a = this.activity;
    if (!a || !this.isOpen) return;
    const ctx = this.actions.context();
    const choiceButtons = a.choices.map((c) =>
      el(
        'button',
        {
          type: 'button',
          class: `btn small predict-choice${this.revealed && c === a.answer ? ' correct' : ''}`,
          'aria-pressed': String(this.chosen === c),
          'data-choice': c,
          onclick: () => this.choose(c),
        },
        choiceText(a, c, ctx),
      ),
    );
    setChildren(
      this.node,
      el(
        'div',
        { class: 'predict-head' },
        el('h2', { id: 'predict-title' }, t('activity.title')),
        el(
          'button',
          { type: 'button', class: 'btn tiny ghost predict-close', 'aria-label': t('activity.close'), onclick: () => this.close() },
          '×',
        ),
      ),
      el('p', { class: 'predict-question' }, words(a, 'question')),
      el('div', { class: 'predict-choices', role: 'group', 'aria-label': t('activity.choices') }, choiceButtons),
      this.held ? el('p', { class: 'hint predict-held' }, t('activity.held')) : null,
      this.#actions(),
      this.revealed ? this.#answer(ctx) : null,
    );
  }

  #actions() {
    return el(
      'div',
      { class: 'predict-actions' },
      this.held
        ? el('button', { type: 'button', class: 'btn primary predict-play', onclick: () => this.actions.play() }, t('activity.play'))
        : null,
      this.revealed
        ? null
        : el('button', { type: 'button', class: 'btn predict-reveal', onclick: () => this.reveal() }, t('activity.reveal')),
      el(
        'button',
        { type: 'button', class: 'btn predict-print', title: t('activity.print.title'), onclick: () => this.actions.print() },
        t('activity.print'),
      ),
    );
  }

  #answer(ctx) {
    const { activity: a, chosen } = this;
    const verdict = chosen == null ? t('activity.none') : chosen === a.answer ? t('activity.right') : t('activity.wrong');
    return el(
      'div',
      { class: 'predict-answer', role: 'status', tabindex: '-1' },
      el(
        'p',
        { class: 'predict-verdict' },
        chosen == null ? '' : `${t('activity.chosen', { choice: choiceText(a, chosen, ctx) })} `,
        verdict,
      ),
      el('p', { class: 'predict-correct' }, t('activity.answerIs', { choice: choiceText(a, a.answer, ctx) })),
      el('p', { class: 'predict-why' }, words(a, 'answer')),
    );
  }
}

/**
 * The printable activity's content. ctx: { kind, title, system, a, b, h, speed, jump,
 * source, link, menuHint }: every value read from the preset or lesson and the run it set up.
 */
export function activitySheet(activity, ctx) {
  const row = (label, value) =>
    value == null || value === '' ? null : el('tr', {}, el('th', { scope: 'row' }, label), el('td', {}, value));
  return [
    el(
      'header',
      { class: 'sheet-head' },
      el('p', { class: 'sheet-kind' }, t(`activity.sheet.kind.${activity.kind}`)),
      el('h1', {}, ctx.title),
    ),
    el('p', { class: 'sheet-name' }, t('activity.sheet.name')),
    el(
      'section',
      { class: 'sheet-setup', 'data-part': 'setup' },
      el('h2', {}, t('activity.sheet.setup')),
      el(
        'table',
        {},
        el(
          'tbody',
          {},
          row(t('activity.sheet.system'), ctx.system),
          row(t('activity.sheet.a'), ctx.a),
          row(t('activity.sheet.b'), ctx.b ?? t('activity.sheet.noB')),
          row(t('activity.sheet.h'), ctx.h),
          row(t('activity.sheet.speed'), ctx.speed),
          row(t('activity.sheet.source'), ctx.source),
        ),
      ),
      el('p', { class: 'sheet-link-label' }, ctx.link ? t('activity.sheet.link') : ctx.menuHint),
      ctx.link ? el('p', { class: 'sheet-link' }, ctx.link) : null,
      ctx.link ? el('p', { class: 'sheet-menu' }, ctx.menuHint) : null,
    ),
    el(
      'section',
      { class: 'sheet-predict', 'data-part': 'predict' },
      el('h2', {}, t('activity.sheet.predict')),
      el('p', { class: 'sheet-question' }, words(activity, 'question')),
      el('p', { class: 'hint' }, t('activity.sheet.tick')),
      el(
        'ul',
        { class: 'sheet-choices' },
        activity.choices.map((c) =>
          el('li', {}, el('span', { class: 'box', 'aria-hidden': 'true' }, '☐'), ' ', choiceText(activity, c, ctx)),
        ),
      ),
      el('p', { class: 'sheet-line' }, t('activity.sheet.why')),
    ),
    el(
      'section',
      { class: 'sheet-measure', 'data-part': 'measure' },
      el('h2', {}, t('activity.sheet.measure')),
      el('p', {}, words(activity, 'measure')),
      el('p', { class: 'sheet-line' }, t('activity.sheet.record')),
      el('p', { class: 'sheet-line' }, '______________________________________________________________________'),
    ),
    el(
      'section',
      { class: 'sheet-answer', 'data-part': 'answer' },
      el('h2', {}, t('activity.sheet.answer')),
      el('p', { class: 'sheet-correct' }, t('activity.answerIs', { choice: choiceText(activity, activity.answer, ctx) })),
      el('p', {}, words(activity, 'answer')),
    ),
    el('footer', { class: 'sheet-foot' }, t('activity.sheet.footer')),
  ];
}
