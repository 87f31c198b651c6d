// The progress line of a landing (web/page/landing.js): where it is going, how far it is,
// about how long is left at the rate measured so far, and Cancel. It floats over the stage
// (under the top bar on phones), is announced politely, and is removed when the landing ends.
import { el, $ } from './dom.js';
import { t, language } from '../i18n/index.js';

/** A duration in words: "12 s", "3 min", "58 h" (rounded up; at least 1 s). */
export function durationText(ms) {
  if (!Number.isFinite(ms)) return t('landing.duration.unknown');
  const s = Math.max(1, Math.ceil(ms / 1000));
  const count = (n) => new Intl.NumberFormat(language()).format(n);
  if (s < 120) return t('landing.duration.s', { n: count(s) });
  if (s < 7200) return t('landing.duration.min', { n: count(Math.round(s / 60)) });
  return t('landing.duration.h', { n: count(Math.round(s / 3600)) });
}

/** Where a landing goes, in words: a step or a time. */
export function goalText(goal) {
  const fmt = new Intl.NumberFormat(language(), { maximumFractionDigits: 3 });
  return goal.time != null ? t('landing.goal.time', { t: fmt.format(goal.time) }) : t('landing.goal.step', { step: fmt.format(goal.step) });
}

export class LandingProgress {
  constructor(host = $('.stage')) {
    this.host = host;
    this.node = null;
  }

  /** Shows (or updates) the line: { step, goal, fraction, leftMs, label: { key, params }?, onCancel }. */
  show({ step, goal, fraction, leftMs, label, onCancel }) {
    if (!this.node) this.#build();
    this.onCancel = onCancel;
    const pct = new Intl.NumberFormat(language(), { style: 'percent', maximumFractionDigits: 0 }).format(
      Math.min(1, Math.max(0, fraction)),
    );
    const head = label ? t(label.key, label.params) : t('landing.going', { goal: goalText(goal) });
    this.text.textContent = t('landing.progress', {
      head,
      step: new Intl.NumberFormat(language()).format(step),
      pct,
      left: durationText(leftMs),
    });
    this.bar.value = Math.min(1, Math.max(0, fraction));
    this.node.dataset.step = String(step);
  }

  #build() {
    this.text = el('p', { class: 'banner-text' });
    this.bar = el('progress', { class: 'landing-bar', max: 1, value: 0, 'aria-label': t('landing.barLabel') });
    const cancel = el(
      'button',
      { type: 'button', class: 'btn small', id: 'landing-cancel', onclick: () => this.onCancel?.() },
      t('landing.cancel'),
    );
    this.node = el(
      'div',
      { class: 'banner landing', role: 'status', id: 'landing', dataset: { key: 'landing' } },
      this.text,
      this.bar,
      el('div', { class: 'banner-actions' }, cancel),
    );
    this.host?.append(this.node);
  }

  hide() {
    this.node?.remove();
    this.node = null;
  }
}
