// What the curves of A and B should show, in words, from the integrators' registry
// entries (symplectic, conserves, order): the "Why the curves differ" line and the
// invitation's label. No integrator id is named here. Words: web/i18n/*/explain.js.
import { t, registryText } from '../i18n/index.js';
import { titleOnRun } from './run-title.js';

/**
 * The integrator's title on a run whose system has these structures (sim.describe().structures;
 * null: any run): without the words naming a projection where nothing is projected.
 */
export function integratorTitle(integ, structures = null) {
  if (!integ) return '';
  return titleOnRun(registryText('integrator', integ, 'title'), integ, structures, t('explain.title.projection'));
}

/** A title without its final parenthetical (nested ones included), e.g. 'Runge–Kutta 4 with projection'. */
export function shortTitle(integ, structures = null) {
  const title = String(integratorTitle(integ, structures)).trimEnd();
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
  return parts.join('+');
}

/** One integrator's nature on a system, for the sentence 'A is …'. */
export function natureOf(integ, run = { momenta: true, constraints: true }) {
  const keeps = {
    momenta: 'explain.why.keeps.momenta',
    constraints: 'explain.why.keeps.constraints',
    'momenta+constraints': 'explain.why.keeps.both',
  }[kept(integ, run)];
  const andKeeps = keeps ? t(keeps) : '';
  if (integ.symplectic) {
    return t(integ.symmetric ? 'explain.why.symplecticReversible' : 'explain.why.symplectic', { keeps: andKeeps });
  }
  if (holds(integ, /^energy \(exactly/)) return t('explain.why.energyExact', { keeps: andKeeps });
  const momentaDrift = run.momenta && !holds(integ, /momentum/);
  const projected = run.constraints && holds(integ, /projected|normalized/);
  return t('explain.why.drifts', {
    momenta: momentaDrift ? t('explain.why.momentaDrift') : '',
    projected: projected ? t('explain.why.projected') : '',
  });
}

/** A's and B's orders in words: 'order 2 vs 4', or 'both order 2' when they are the same. */
const ordersOf = (A, B) =>
  A.order === B.order ? t('explain.why.orders.same', { a: A.order }) : t('explain.why.orders.differ', { a: A.order, b: B.order });

/**
 * The line under the view: why A's and B's curves differ, or what to compare A with
 * (suggested). run = { momenta, constraints, structures } of the system (structures: its describe().structures).
 */
export function whyText(A, B, { suggested = null, run } = {}) {
  if (!B) {
    const title = integratorTitle(A, run?.structures ?? null);
    return (
      t('explain.why.single', { title, nature: natureOf(A, run) }) +
      (suggested ? t('explain.why.suggest', { other: shortTitle(suggested, run?.structures ?? null) }) : '')
    );
  }
  if (A.symplectic && B.symplectic) {
    return t('explain.why.bothSymplectic', {
      momenta: run?.momenta === false ? '' : t('explain.why.momentaExact'),
      orders: ordersOf(A, B),
    });
  }
  const drifts = (i) => !i.symplectic && !holds(i, /^energy \(exactly/);
  if (drifts(A) && drifts(B)) return t('explain.why.neither', { orders: ordersOf(A, B) });
  return t('explain.why.differ', { a: natureOf(A, run), b: natureOf(B, run) });
}
