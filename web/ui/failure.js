// What the page says when a run stops: a refused step (the API's VilabError fields,
// runner.failureOf: step, code, reason, suggestion) or a breakdown the plots saw (the
// energy error beyond 100 %, links stretched, numbers overflowing). Plain words, said
// once: the cause, what it means, what to do.

/** Plain causes of the refusal codes (outcome.hpp). */
const CAUSES = {
  'no-convergence': 'the equation this method solves at every step has no solution it can find at this step size',
  diverged: 'the equation this method solves at every step ran away from its solution',
  'singular-matrix': 'the equation this method solves at every step became degenerate',
  'non-finite': 'its numbers overflowed',
  'spurious-root': 'the only solution of its step equation is a jump, not the motion',
};

/** The time a failure happened at (s), as printed. */
export function failureTime(info, h) {
  if (Number.isFinite(info.t)) return info.t.toFixed(2);
  return info.step != null ? (info.step * h).toFixed(2) : '?';
}

/** True when the core's suggestion is to reduce h (the banner then offers to halve it). */
export function suggestsSmallerH(info) {
  return /\breduce h\b/i.test(info.suggestion ?? '') || info.code === 'breakdown';
}

const percent = (x) => `${Math.round(Math.abs(x) * 100)} %`;

/** What a breakdown means, for a run described by describe(). */
export function breakdownCause(info, description) {
  if (info.kind === 'energy') {
    const grew = info.amount > 0;
    return `its energy has ${grew ? 'grown' : 'fallen'} by ${percent(info.amount)}: it has left the motion it was started on`;
  }
  if (info.kind === 'constraint') {
    const what = description?.constraintWhat;
    if (what === 'links') return `its links have stretched by ${percent(info.amount)}; it can no longer hold the constraint`;
    if (what === 'rotation') return `its orientation is no longer a rotation (off by ${percent(info.amount)})`;
    return `it has left the constraint surface (residual ${percent(info.amount)} of the scale)`;
  }
  return 'its numbers overflowed';
}

/**
 * The banner for track A (the run pauses) or B (A keeps running): { text, status, halve }.
 * integ: the integrator's registry entry (title); h: the run's step; description: sim.describe().
 */
export function failureMessage(label, info, integ, h, description = null) {
  const t = failureTime(info, h);
  const name = integ?.title ?? label;
  const cause = info.code === 'breakdown' ? breakdownCause(info, description) : CAUSES[info.code] ?? info.reason ?? 'the step was refused';
  const halve = suggestsSmallerH(info);
  const advice = halve ? ` A smaller step h (now ${h} s) usually helps.` : info.suggestion ? ` Try: ${info.suggestion}.` : '';
  const when = info.step != null ? `could not take step ${info.step} (t = ${t} s)` : `stopped at t = ${t} s`;
  if (label === 'A') {
    return {
      text: `${name} ${when}: ${cause}.${advice} The run is paused at the last good step.`,
      status: `Paused at t = ${t} s: ${cause}.`,
      halve,
    };
  }
  return {
    text: `B, ${name}, ${when}: ${cause}. A keeps running; B's curves end at the marked point.`,
    status: `B stopped at t = ${t} s: ${cause}.`,
    halve: false,
  };
}
