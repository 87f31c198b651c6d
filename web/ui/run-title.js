// An integrator's title on the run shown. A baseline's title names its projection ("Runge–
// Kutta 4 with projection"): every claim it makes is of kind `constraints` (projected or
// normalized after every step, Hairer–Lubich–Wanner §IV.4), so on a run whose system has
// no constraints (sim.describe().structures without `constraints`: a field, the oscillator)
// nothing is projected and the title leaves those words out. Decided from the registry's
// claims and the run's description, never from ids. Pure: the words come in as arguments,
// so Node tests run it (tests/wasm/run-title.test.mjs).

/** Whether the integrator's claims are all projections and the run (its structures; null: unknown) has nothing to project. */
export function projectsNothing(integ, structures) {
  const claims = integ?.claims ?? [];
  return (
    Array.isArray(structures) && !structures.includes('constraints') && claims.length > 0 && claims.every((c) => c.kind === 'constraints')
  );
}

const escaped = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** title without `phrase` (and the comma or space before it); the title as it is when the phrase is not in it. */
export function withoutPhrase(title, phrase) {
  if (!phrase) return title;
  const out = title.replace(new RegExp(`,?\\s*${escaped(phrase)}`), '');
  return out.trim() ? out : title;
}

/** The title shown for integ on a run with these structures: `title` (the registry's, in the page's language), less `projection` where nothing is projected. */
export function titleOnRun(title, integ, structures, projection) {
  return projectsNothing(integ, structures) ? withoutPhrase(title, projection) : title;
}
