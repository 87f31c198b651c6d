// What a landing will cost before it starts (web/page/landing.js refuses one beyond its
// bound; a link's `at`, a preset's jump, stepNow): the scenarios' rates measured in
// scratch simulations for PROBE_MS in all.

const PROBE_MS = 30; // the rate measured before a landing (A and B together)

/**
 * The estimated ms to take `steps` steps of the scenarios (A and B together), from their
 * rates measured in scratch simulations (recording every step, as the page's runs do), each
 * stepped for its share of PROBE_MS. A simulation's first step is timed apart and counted
 * once: it pays what a run pays once (on a freshly loaded page, 1–30 ms for the FPUT
 * chain's 16 coordinates, whose later steps take 0.01–0.03 ms), and taken as the rate of
 * every step it refused a landing of 12,000 steps that takes 2 s. A run refused within its
 * measurement stops there: it costs what it took. now: the clock (ms; a test's own).
 */
export function landingEstimate(lab, scenarios, steps, now = () => performance.now()) {
  if (!(steps > 0)) return 0;
  let ms = 0;
  const budgetMs = PROBE_MS / Math.max(1, scenarios.length);
  for (const scenario of scenarios) {
    let sim;
    try {
      sim = lab.simulate(scenario, { historyStride: 1, historyCapacity: 1024 });
    } catch {
      continue; // nothing to measure: the run's own build reports the error
    }
    let t0 = now();
    let taken = 0;
    let refused = false;
    try {
      sim.advance(1);
      ms += now() - t0;
      t0 = now();
      if (steps > 1) taken = sim.advanceFor({ maxSteps: Math.min(steps - 1, 1e6), budgetMs }).steps;
    } catch (e) {
      taken = e.stepsTaken ?? 0;
      refused = true;
    } finally {
      sim.dispose();
    }
    const elapsed = now() - t0;
    ms += refused ? elapsed : ((steps - 1) * elapsed) / Math.max(1, taken);
  }
  return ms;
}
