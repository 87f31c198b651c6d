// A study worker: its own wasm instance, one task at a time (web/sim/study-pool.js
// sends them). Messages in: { id, task, args, wasmBinary? }; out: { id, progress } while
// it works, then { id, result } or { id, error: { message, field } }.
import { createLab } from './vilab.js';
import { loopStudy, loopShape, convergenceReference, convergenceError, poincareSection, seedOnEnergy } from './studies.js';
import { LESSON_TASKS } from './lessons.js';
import { dispersionOf, followedRelation, notModal, refusedStep, stabilityLimit, waveSetup } from './dispersion.js';

let labPromise = null;

const tasks = {
  /**
   * A loop carried for `steps` steps: ∮p·dq's relative change sampled `samples` times,
   * and the loop's shape (its points' natural variables) at `shapes` + 1 evenly spaced times.
   */
  async loop(lab, { scenario, points, steps, samples = 100, shapes = 8, around }, progress) {
    const loop = loopStudy(lab, scenario, { points, around });
    try {
      const series = { t: [0], change: [0] };
      const snapshots = [{ t: 0, vars: loopShape(loop), action: loop.initialAction }];
      const every = Math.max(1, Math.round(steps / samples));
      const shapeEvery = steps / shapes;
      while (loop.step < steps) {
        loop.advance(Math.min(every, steps - loop.step));
        series.t.push(loop.time);
        // an exact zero has no place on a log axis: the smallest double instead; once the
        // loop has outgrown its points, no number (its quadrature measures the sampling)
        series.change.push(loop.unresolvedAt === null ? Math.max(loop.relativeChange(), Number.MIN_VALUE) : null);
        if (loop.step >= snapshots.length * shapeEvery - 1e-9 || loop.step === steps)
          snapshots.push({ t: loop.time, vars: loopShape(loop), action: loop.action() });
        progress(loop.step / steps);
      }
      return {
        series,
        snapshots,
        points: loop.points,
        centre: loop.centre,
        initialAction: loop.initialAction,
        action: loop.action(),
        unresolvedAt: loop.unresolvedAt,
      };
    } finally {
      loop.dispose();
    }
  },
  reference: (lab, { scenario, hs, T }) => convergenceReference(lab, scenario, hs, T),
  error: (lab, { scenario, h, T, reference }) => convergenceError(lab, scenario, h, T, reference),
  seed: (lab, { scenario, E, at }) => seedOnEnergy(lab, scenario, E, at),
  async section(lab, { scenario, crossings }, progress) {
    return poincareSection(lab, scenario, { crossings, onCrossing: (n) => progress(n / crossings) });
  },
  /** One integrator's measured ω(k) and growth, and (where it is one map per mode) its largest stable Δt. */
  dispersion(lab, { scenario, integrator, options, modes }, progress) {
    const setup = waveSetup(lab, scenario);
    let measured;
    try {
      measured = dispersionOf(lab, scenario, { integrator, options, modes, onProgress: (f) => progress(0.5 * f) });
    } catch (e) {
      // its own stability check refuses this run's Δt on the study's grid: the row says so
      if (refusedStep(e)) return { integrator, left: { reason: 'refused', message: String(e.message).replace(/^vilab: /, '') }, setup };
      throw e;
    }
    const left = notModal(measured);
    const limit = left ? null : stabilityLimit(lab, scenario, { integrator, options });
    const follows = left ? null : followedRelation(measured, setup, lab.normalize(scenario).h);
    return { ...measured, left, limit, follows, setup };
  },
  // the lessons' measurements (web/sim/lessons.js)
  ...LESSON_TASKS,
};

self.onmessage = async ({ data }) => {
  const { id, task, args, wasmBinary } = data;
  try {
    labPromise ??= createLab(wasmBinary ? { wasmBinary } : {});
    const lab = await labPromise;
    if (!Object.hasOwn(tasks, task)) throw new Error(`vilab: task: unknown "${String(task).slice(0, 32)}"`);
    let last = 0;
    const progress = (fraction) => {
      const now = performance.now();
      if (now - last > 100) {
        last = now;
        self.postMessage({ id, progress: fraction });
      }
    };
    const result = await tasks[task](lab, args, progress);
    self.postMessage({ id, result });
  } catch (e) {
    self.postMessage({ id, error: { message: String(e?.message ?? e), field: e?.field ?? null } });
  }
};
