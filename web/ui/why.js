// What the curves of A and B should show, in words, from the integrators' registry
// entries (symplectic, conserves, order): the "Why the curves differ" line and the
// invitation's label. No integrator id is named here.

/** A title without its final parenthetical (nested ones included), e.g. 'Runge–Kutta 4 with projection'. */
export function shortTitle(integ) {
  const title = String(integ?.title ?? '').trimEnd();
  if (!title.endsWith(')')) return title;
  let depth = 0;
  for (let i = title.length - 1; i >= 0; i--) {
    if (title[i] === ')') depth++;
    else if (title[i] === '(' && --depth === 0) return title.slice(0, i).trimEnd() || title;
  }
  return title;
}

const holds = (integ, re) => (integ.conserves ?? []).some((c) => re.test(c));

/**
 * What an integrator keeps, as the registry's `conserves` says it, of what the system
 * has: run = { momenta, constraints } (does it have conserved momenta, constraints).
 */
function kept(integ, run) {
  const parts = [];
  if (run.momenta && holds(integ, /momentum/)) parts.push('momenta');
  if (run.constraints && holds(integ, /^(constraints|unit quaternion|orthonormality)/)) parts.push('constraints');
  return parts;
}

/** One integrator's nature on a system, for the sentence 'A is …'. */
export function natureOf(integ, run = { momenta: true, constraints: true }) {
  const keeps = kept(integ, run);
  const andKeeps = keeps.length ? `, and its ${keeps.join(' and ')} hold to round-off` : '';
  if (integ.symplectic) {
    return `symplectic${integ.symmetric ? ' and time-reversible' : ''}: its energy error oscillates but stays bounded, with no drift${andKeeps}`;
  }
  if (holds(integ, /^energy \(exactly/)) {
    return `not symplectic, but it conserves the energy exactly (to round-off)${andKeeps}`;
  }
  const momentaDrift = run.momenta && !holds(integ, /momentum/);
  const projected = run.constraints && holds(integ, /projected|normalized/);
  return `not symplectic: its energy error drifts${momentaDrift ? ', and so do its momenta' : ''}` +
    (projected ? '; its constraints hold only because it projects onto them after every step' : '');
}

/**
 * The line under the view: why A's and B's curves differ, or what to compare A with
 * (suggested). run = { momenta, constraints } of the system.
 */
export function whyText(A, B, { suggested = null, run } = {}) {
  if (!B) {
    return `${A.title} is ${natureOf(A, run)}.` + (suggested ? ` Compare it with ${shortTitle(suggested)} to see the difference.` : '');
  }
  if (A.symplectic && B.symplectic) {
    return `Both are symplectic: both energy errors stay bounded${run?.momenta === false ? '' : ' and momenta are exact'}. They differ in accuracy (order ${A.order} vs ${B.order}); in a chaotic system the trajectories then part even though both are structure-preserving.`;
  }
  const drifts = (i) => !i.symplectic && !holds(i, /^energy \(exactly/);
  if (drifts(A) && drifts(B)) {
    return `Neither method is symplectic: both energy errors drift, at rates set by their orders (${A.order} vs ${B.order}).`;
  }
  return `Why the curves differ: A (blue) is ${natureOf(A, run)}. B (orange) is ${natureOf(B, run)}.`;
}
