// What the page says when a run stops: a refused step (the API's VilabError fields,
// runner.failureOf: step, code, action, reason, suggestion) or a breakdown found by the per-step
// check (web/sim/breakdown.js: the energy error beyond 100 %, links stretched, numbers overflowing). Plain words, said
// once: the cause, what it means, what to do.
import { t, has, language } from '../i18n/index.js';
import { num, percent as formatPercent, stepTime } from '../sim/format.js';
import { integratorTitle } from './why.js';

/** The time a failure happened at (s), as printed. */
export function failureTime(info, h) {
  if (Number.isFinite(info.t)) return stepTime(info.t, h);
  return info.step != null ? stepTime(info.step * h, h) : '?';
}

/**
 * True when a smaller h is among the remedies (the banner then offers to halve it): the
 * refusal's action (lab.vocabulary.suggestionActions) 'reduce-h', or 'loosen-tolerance',
 * whose other remedy is a smaller h; and every breakdown the plots saw.
 */
export function suggestsSmallerH(info) {
  return info.action === 'reduce-h' || info.action === 'loosen-tolerance' || info.code === 'breakdown';
}

/** The plain cause of a refusal code (a 'failure.code.<code>' text for each of lab.vocabulary.refusalCodes). */
const causeOf = (info) =>
  info.code && has(`failure.code.${info.code}`) ? t(`failure.code.${info.code}`) : info.reason || t('failure.refused');

const percent = (x) => formatPercent(Math.abs(x), 3);

/** What a breakdown means, for a run described by describe(). */
export function breakdownCause(info, description) {
  if (info.kind === 'energy') {
    const grew = info.amount > 0;
    return t(grew ? 'failure.energy.grown' : 'failure.energy.fallen', { pct: percent(info.amount) });
  }
  if (info.kind === 'constraint') {
    const what = description?.constraintWhat;
    if (what === 'links') return t('failure.links', { pct: percent(info.amount) });
    if (what === 'rotation') return t('failure.rotation', { pct: percent(info.amount) });
    return t('failure.surface', { pct: percent(info.amount) });
  }
  return t('failure.code.non-finite');
}

/**
 * What to try, by the refusal's action (lab.vocabulary.suggestionActions) in the page's words;
 * the core's own (English) suggestion only where no action names it and the page speaks English.
 */
function adviceOf(info) {
  if (info.action && has(`words.failure.action.${info.action}`)) return ` ${t(`words.failure.action.${info.action}`)}`;
  if (info.suggestion && language() === 'en') return ` ${t('failure.advice.try', { suggestion: info.suggestion })}`;
  return '';
}

/**
 * The banner for track A (the run pauses) or B (A keeps running): { text, status, halve }.
 * integ: the integrator's registry entry (title); h: the run's step; description: sim.describe().
 */
export function failureMessage(label, info, integ, h, description = null) {
  const time = failureTime(info, h);
  const name = integ ? integratorTitle(integ, description?.structures ?? null) : label;
  const cause = info.code === 'breakdown' ? breakdownCause(info, description) : causeOf(info);
  const halve = suggestsSmallerH(info);
  const advice = halve ? ` ${t('failure.advice.halve', { h: num(h, 6) })}` : adviceOf(info);
  // a breakdown: the run stopped at the last good step's time (a refusal: the step it could not take)
  const when =
    info.step != null && info.code !== 'breakdown'
      ? t('failure.when.step', { step: info.step, t: time })
      : t('failure.when.time', { t: time });
  if (label === 'A') {
    return {
      text: t('failure.A.text', { name, when, cause, advice }),
      status: t('failure.A.status', { t: time, cause }),
      halve,
    };
  }
  return {
    text: t('failure.B.text', { name, when, cause }),
    status: t('failure.B.status', { t: time, cause }),
    halve: false,
  };
}
