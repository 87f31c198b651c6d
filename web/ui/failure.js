// What the page says when a step is refused, from the fields of the API's VilabError
// (runner.failureOf: step, code, reason, suggestion): the banner text, whether h can
// be halved as the core suggests, and the short status for screen readers.

/** Short words for the refusal codes (outcome.hpp), for the status line. */
const CODE_WORDS = {
  'no-convergence': 'the solver did not converge',
  diverged: 'the solver diverged',
  'singular-matrix': 'the solver met a singular matrix',
  'non-finite': 'the state overflowed',
  'spurious-root': 'the solver found a spurious solution',
};

/** The time of a step, as the banners print it. */
export function failureTime(info, h) {
  return info.step != null ? (info.step * h).toFixed(2) : '?';
}

/** True when the core's suggestion is to reduce h (the banner then offers to halve it). */
export function suggestsSmallerH(info) {
  return /\breduce h\b/i.test(info.suggestion ?? '');
}

/**
 * The banner of a refused step of track A (the run pauses) or B (A keeps running):
 * { text, status, halve }. integ: the integrator's registry entry; h: the run's step.
 */
export function failureMessage(label, info, integ, h) {
  const t = failureTime(info, h);
  const what = CODE_WORDS[info.code] ?? 'the step was refused';
  if (label === 'A') {
    const head = info.step != null ? `${integ.title} refused step ${info.step} (t = ${t} s): ${info.reason}.` : `The simulation stopped: ${info.reason}.`;
    const halve = suggestsSmallerH(info);
    const suggestion = info.suggestion ? ` Suggestion: ${info.suggestion}${halve ? ` (now h = ${h} s)` : ''}.` : '';
    return {
      text: `${head}${suggestion} The simulation is paused at the last good step.`,
      status: `Paused: step ${info.step ?? '?'} refused, ${what}.`,
      halve,
    };
  }
  return {
    text: `B, ${integ.title}, broke down at step ${info.step ?? '?'} (t = ${t} s): ${info.reason}. A keeps running; B's ghost is hidden and its curves stop there.`,
    status: `B stopped at step ${info.step ?? '?'}: ${what}.`,
    halve: false,
  };
}
