// The run and its rebuilds: A and B built from the store's document (runner, view,
// plots), the changes the controls make (setScenario, setState, presets: validated by
// the API, waiting for the full build when the lean one leaves them out), restart,
// halve h, stepping now, and the transport (play / pause, kept in the session).
import { needsFull } from '../sim/page-lab.js';
import { describeForLesson, presetMatching } from '../sim/preset-data.js';
import { compareScenario, deepEqual } from '../state/store.js';
import { readLessonView, jumpStep } from '../sim/lesson-view.js';
import { viewOf } from '../scene/view.js';
import { SCENES } from '../scene/scenes.js';
import { shortTitle } from '../ui/why.js';
import { t, registryText, onLanguageChange } from '../i18n/index.js';
import { Landing } from './landing.js';
import { landingEstimate } from '../sim/landing-estimate.js';
import { apiErrorText } from '../ui/api-error.js';
import { stiffnessAlong } from '../sim/stiffness.js';
import { externalB } from '../sim/external-b.js';

// the look-ahead that frames a system defined by data (lookAhead below)
const LOOKAHEAD_STEPS = 3000;
const LOOKAHEAD_MS = 25;
// stepNow's steps taken at once; more go on in slices between frames (web/page/landing.js)
const STEP_NOW_MS = 25;

/**
 * The exact solution drawn as a ghost beside A, or null: the registry says which systems
 * have one and when (`exact`); outside those conditions the API refuses and there is no
 * ghost (the ghost is optional).
 */
export function exactOf(lab, scenario) {
  if (!lab.system(scenario.system)?.exact) return null;
  try {
    return lab.exact(scenario);
  } catch {
    return null;
  }
}

/**
 * What a system defined by data will draw over its first seconds, for the camera's
 * frame (its bodies may go anywhere, an orbit far from where it starts): a separate
 * simulation of the same scenario, stepped for at most LOOKAHEAD_MS of wall-clock
 * time and LOOKAHEAD_STEPS steps (a refused step ends it early), then freed.
 */
function lookAhead(lab, scenario) {
  const out = [];
  let sim = null;
  try {
    sim = lab.simulate(scenario, { historyStride: 1000, historyCapacity: 1 });
    const t0 = performance.now();
    const chunk = Math.max(1, Math.round(LOOKAHEAD_STEPS / 100));
    while (sim.step < LOOKAHEAD_STEPS && performance.now() - t0 < LOOKAHEAD_MS) {
      // bounded by the time left: a system whose steps are slow never holds the frame
      const budgetMs = Math.max(0.1, LOOKAHEAD_MS - (performance.now() - t0));
      sim.advanceFor({ maxSteps: Math.min(chunk, LOOKAHEAD_STEPS - sim.step), budgetMs });
      out.push(sim.visualState());
    }
  } catch {
    /* a refused step: frame what came before it */
  } finally {
    sim?.dispose();
  }
  return out;
}

/** The phase portrait's point of A (and of B while it runs) now. */
export function samplePhase(runner, plots) {
  const a = runner.a;
  if (!a) return;
  const b = runner.b && !runner.b.failure ? runner.b : null;
  plots.samplePhase(a.failure ? null : a.sim.variables(), b?.sim.variables(), a.sim.time);
}

/** u and p at t = 0: A's own when it has not moved, else a fresh run's (A kept while only B changed). */
function startOf(lab, scenario, a) {
  if (a.sim.step === 0) return { u: a.visual, p: a.sim.p };
  const sim = lab.simulate(scenario, { historyCapacity: 2 });
  try {
    return { u: sim.visualState(), p: sim.p };
  } finally {
    sim.dispose();
  }
}

/** An integrator whose energy error stays in a band (the energy plot's scale). */
/** A's and B's titles for the plots, on a run with these structures (sim.describe().structures). */
const labels = (runner, structures) => ({
  labelA: runner.a ? shortTitle(runner.a.integrator, structures) : '',
  labelB: runner.b ? shortTitle(runner.b.integrator, structures) : '',
});
const energyBounded = (integ) => !!integ && (integ.symplectic || integ.claims.some((c) => c.kind === 'energy' && /exactly/.test(c.text)));

// A scenario that normalizes may still not start (a body of a system defined by data that
// cannot be drawn at the initial state): tried before the document takes it, so the
// error names its field and the last good run and link are kept.
function startable(lab, scenario) {
  lab.simulate(scenario, { historyCapacity: 2 }).dispose();
}

/**
 * The run: build(state, { keepA }), restart(), halveH(), setScenario(next), setState(patch),
 * applyPreset(preset), stepNow(n), landAt(target, options), setPlaying(on). It rebuilds on every change of the
 * document's scenario or comparison, and records what it built in the session (`built`,
 * `exact`).
 */
export class Run {
  constructor({ lab, store, runner, view, plots, fieldPlots = null, readout, notices, presets = [] }) {
    Object.assign(this, { lab, store, runner, view, plots, fieldPlots, readout, notices, presets });
    this.land = null; // (step, { lessonTime }) => promise: the landing of a link's at= (page/link.js), set once links exist
    this.session = store.session;
    this.landing = new Landing({ lab, runner, show: () => this.#show({ jump: true, plots: true }) });
    this.external = null; // B from outside the registry (MuJoCo): web/page/external-compare.js, on demand
    this.externalLoading = null;
    this.presetHooks = [];
    this.restartHooks = []; // onRestart
    store.subscribe((state, prev, meta) => this.#follow(state, prev, meta));
    runner.speed = store.get().speed;
    runner.stepsPerFrame = store.get().stepsPerFrame;
    // a new language re-words the plots' labels; the run itself (step, fingerprint) is untouched
    onLanguageChange(() => {
      if (plots.run && runner.a) Object.assign(plots.run, labels(runner, this.session.get().built?.structures ?? null));
    });
  }

  /** A new document: rebuilt when its scenario or comparison changed (or when asked: meta.rebuild), paced, windowed. */
  #follow(state, prev, meta) {
    const runner = this.runner;
    if (meta.rebuild || state.scenario !== prev.scenario || state.compare !== prev.compare) {
      this.heldLesson = null; // another run: a held lesson's jump is not its
      // a new comparison keeps A's run: only B is rebuilt (and brought to A's step)
      const keepA = !!runner.a && !runner.a.failure && state.compare !== prev.compare && deepEqual(state.scenario, prev.scenario);
      if (!keepA) this.session.set({ linkCheck: null, linkVerdict: null });
      try {
        this.#buildKeeping(state, keepA);
      } catch (e) {
        this.notices.banner('control', [apiErrorText(e)]);
      }
    }
    runner.speed = state.speed;
    runner.stepsPerFrame = state.stepsPerFrame;
    if (state.window !== prev.window) {
      this.plots.setWindow(state.window);
      this.#refillWindow();
    }
  }

  /**
   * A's step when bringing a new B there would take longer than STEP_NOW_MS at the measured
   * rate (an external B: at its engine's cost per step, once the engine is in), else null.
   */
  #catchUpLater(state) {
    const step = this.runner.step;
    if (!state.compare || step === 0) return null;
    const ext = externalB(state.compare);
    if (ext) return this.external?.ready && step * ext.msPerStep > STEP_NOW_MS ? step : null;
    try {
      const scB = compareScenario(this.lab, state.scenario, state.compare);
      return landingEstimate(this.lab, [scB], step) > STEP_NOW_MS ? step : null;
    } catch {
      return null; // build reports it
    }
  }

  /**
   * B built beside A's run (an external B whose engine just came in): brought to A's step at
   * once when that is quick, else both start again and land there between frames.
   */
  buildBesideA(state) {
    this.#buildKeeping(state, !!this.runner.a && !this.runner.a.failure);
  }

  /** Built keeping A's run when asked: B brought to A's step at once only when quick; else both start again and land there. */
  #buildKeeping(state, keepA) {
    const landOn = keepA ? this.#catchUpLater(state) : null;
    this.build(state, { keepA: keepA && landOn == null });
    if (landOn != null) this.#landAgain(landOn, state);
  }

  /**
   * The run rebuilt from t = 0 lands on `step` (time-sliced, the same bits: a Reset or another
   * run cancels it), and plays on if it was playing. The progress line names an external engine.
   */
  #landAgain(step, state) {
    const wasPlaying = this.session.get().playing;
    const ext = externalB(state.compare);
    const label = ext ? { key: 'landing.external', params: { engine: ext.engine, step } } : { key: 'landing.compare', params: { step } };
    this.landAt(step, { boundMs: Infinity, label }).then((r) => {
      if (r.reached && wasPlaying) this.setPlaying(true);
    });
  }

  build(state, { keepA = false } = {}) {
    const { lab, runner, view, plots, session } = this;
    const scB = this.#scenarioB(state);
    if (keepA) runner.configureB(scB);
    else runner.configure(state.scenario, scB);
    const a = runner.a;
    const system = lab.system(state.scenario.system);
    const kind = viewOf(system);
    const scene = SCENES[kind];
    session.get().exact?.dispose();
    const exact = scene.exactGhost ? exactOf(lab, state.scenario) : null;
    session.set({ exact });
    const lookahead = scene.lookAhead ? lookAhead(lab, state.scenario) : [];
    // a string's c² cell by cell, from the core: the view marks its stiff cells
    const stiffness = scene.spaceTime ? stiffnessAlong(a.sim) : null;
    const lesson = presetMatching(lab, this.presets, state)?.lesson;
    const frame = readLessonView(lesson).view.frame; // a lesson's rotating frame (drawn, and its Jacobi integral)
    view.build({
      kind,
      system,
      scenarioA: state.scenario,
      scenarioB: runner.b?.scenario ?? null,
      exact,
      Pi0: a.diag.bodyMomentum,
      visualLength: a.visual.length,
      visual0: a.visual,
      lookahead,
      stiffness,
      frame,
    });
    const structures = a.sim.describe().structures; // badges only where they apply
    plots.configure({
      // a preset's lesson may show declared quantities its motion does not conserve as values
      description: describeForLesson(a.sim.describe(), lesson),
      firstA: a.first,
      firstB: runner.b?.first,
      h: state.scenario.h,
      hasB: !!runner.b,
      stepSizes: a.columns.includes('dt') || !!runner.b?.columns?.includes('dt'),
      ...labels(runner, structures),
      energyBoundedA: energyBounded(a.integrator),
      energyBoundedB: energyBounded(runner.b?.integrator),
    });
    plots.setWindow(state.window);
    // a field run's space–time image and kinks start afresh here (from A's step now), a row
    // every rows.every steps (the runner calls onRow there)
    if (this.fieldPlots) {
      const start = scene.spaceTime ? startOf(lab, state.scenario, a) : { u: null, p: null };
      runner.rows = this.fieldPlots.configure({
        scenarioA: a.sim.scenario(),
        hasB: !!runner.b,
        ...labels(runner, structures),
        u0: start.u,
        p0: start.p,
        stiffness,
      });
      this.fieldPlots.sample(runner);
    }
    if (keepA) runner.rewindReads(); // the plots start afresh from the oldest samples kept
    runner.flush();
    view.update(runner.a, runner.b, runner.time);
    samplePhase(runner, plots);
    plots.drawAll(runner.time);
    for (const key of ['failure', 'failure-b', 'visual']) this.notices.dismiss(key);
    // the legend, captions, readout, exact toggle and badges follow (they subscribe to `built`)
    session.set({ built: { view: kind, exact: !!exact, frame: !!frame, structures } });
  }

  /** B's scenario, or an external B's source (null while its code and engine load), or null. */
  #scenarioB(state) {
    if (!state.compare) return null;
    if (!externalB(state.compare)) return compareScenario(this.lab, state.scenario, state.compare);
    if (this.external) return this.external.source(state);
    this.externalLoading ??= import('./external-compare.js').then(
      (m) => {
        this.external = new m.ExternalCompare(this);
        this.external.rebuild();
      },
      (e) => {
        this.externalLoading = null; // a later choice tries again; A runs on
        this.notices.banner('control', [apiErrorText(e)]);
        this.store.set({ compare: null });
      },
    );
    return null;
  }

  restart() {
    this.build(this.store.get());
    this.notices.status(t('main.resetDone'));
    for (const fn of this.restartHooks) fn();
  }

  halveH() {
    const st = this.store.get();
    const h = Number((st.scenario.h / 2).toPrecision(6));
    const err = this.setScenario({ ...st.scenario, h });
    if (err) this.notices.banner('failure', [t('main.halveFailed', { message: apiErrorText(err) })]);
    else this.setPlaying(true);
  }

  // A change the lean build leaves out (a Lagrangian given as data, Lobatto, …) waits for
  // the full build and is then applied, or its error shown; session.deferred is that promise.
  #deferUntilFull(retry) {
    const notices = this.notices;
    notices.status(t('main.loadingFull'));
    const deferred = this.lab.loadFull().then(
      () => {
        const err = retry();
        if (err) notices.banner('control', [apiErrorText(err)]);
        return err;
      },
      (e) => {
        notices.banner('control', [t('main.fullFailed', { message: apiErrorText(e) })]);
        return e;
      },
    );
    this.session.set({ deferred });
    return null;
  }

  /**
   * Validates via the API and applies; returns the API's Error or null (null too when it waits
   * for the full build). meta travels with the store's change (who made it: { source, cause }).
   */
  setScenario(next, meta = {}) {
    const lab = this.lab;
    let scenario;
    try {
      scenario = lab.normalize(next);
      startable(lab, scenario);
    } catch (e) {
      return needsFull(e) ? this.#deferUntilFull(() => this.setScenario(next, meta)) : e;
    }
    let compare = this.store.get().compare;
    if (compare && !(lab.integrator(compare) ?? externalB(compare))?.systems.includes(scenario.system)) compare = null;
    this.store.set({ scenario, compare }, { ...meta, rebuild: true });
    return null;
  }

  /** A patch of the document, validated like setScenario. */
  setState(patch, meta = {}) {
    try {
      const next = { ...this.store.get(), ...patch };
      next.scenario = this.lab.normalize(next.scenario);
      startable(this.lab, next.scenario);
      if (next.compare && !externalB(next.compare)) compareScenario(this.lab, next.scenario, next.compare);
      this.store.set(next, { ...meta, rebuild: true });
      return null;
    } catch (e) {
      return needsFull(e) ? this.#deferUntilFull(() => this.setState(patch, meta)) : e;
    }
  }

  /**
   * A preset (or a lesson's set-up) with what its lesson needs on screen (web/sim/lesson-view.js):
   * speed, window, the energy view, the plot shown large and the cards shown (session
   * `lesson`, page/lesson-layout.js), the camera; then it plays, or first lands on its
   * `jumpTo` by stepping (the landing of a link's at=). Returns a promise when it waits.
   */
  applyPreset(p) {
    const { view: lv, problems } = readLessonView(p.lesson);
    this.#reportLesson(p, problems);
    this.plots.setView({ energy: lv.energy });
    const previous = this.session.get().lesson;
    this.session.set({ deferred: null, lesson: { system: p.scenario?.system ?? null, plot: lv.plot, cards: lv.cards } });
    const patch = { scenario: p.scenario, compare: p.compare ?? null, speed: lv.speed, stepsPerFrame: 0, window: lv.window };
    const err = this.setState(patch, { cause: 'preset', preset: p.id ?? null });
    const applied = () => {
      this.notices.status(t('main.preset.status', { title: registryText('preset', p, 'title') }));
      if (lv.camera) this.view.setCamera([...lv.camera.position, ...lv.camera.target]);
      // every hook hears of it; any of them may hold the run at its start (a prediction first)
      const hold = this.presetHooks.map((fn) => fn(p)).includes(true);
      // held, it waits at t = 0 (a preset that only changes B kept A's run going)
      if (hold && this.runner.step > 0) this.build(this.store.get());
      if (hold) {
        this.setPlaying(false);
        this.heldLesson = lv.jumpTo ? { p, lv } : null;
        return;
      }
      return this.#startLesson(p, lv);
    };
    // waiting for the full build: applied once it is in (its failure is shown by then)
    const { deferred } = this.session.get();
    if (deferred) return deferred.then((e) => (e ? this.session.set({ lesson: previous }) : applied()));
    if (err) {
      this.session.set({ lesson: previous });
      this.notices.banner('control', [t('main.preset.failed', { id: p.id, message: apiErrorText(err) })]);
    } else return applied();
  }

  /** Plays, or lands on the lesson's jumpTo first (stepping: the same bits as watching) and then plays. */
  #startLesson(p, lv) {
    const h = this.store.get().scenario.h;
    if (!lv.jumpTo || !this.land) return this.setPlaying(true);
    if (this.lab.integrator(this.store.get().scenario.integrator)?.variableStep) {
      this.#reportLesson(p, [{ field: 'lesson.jumpTo', code: 'variableStep', args: {} }]);
      return this.setPlaying(true);
    }
    this.notices.status(t('layout.jumping', { t: lv.jumpTo }));
    // a landing cancelled or refused stays where it stopped (paused); else the lesson plays from there
    const landing = this.land(jumpStep(lv.jumpTo, h), { lessonTime: lv.jumpTo });
    return Promise.resolve(landing).then((r) => !r?.cancelled && !r?.refused && this.setPlaying(true));
  }

  /** A lesson block's wrong fields, each named (the rest of the lesson applies). */
  #reportLesson(p, problems) {
    if (!problems.length) return this.notices.dismiss('lesson');
    const text = problems.map(({ field, code, args }) =>
      t('layout.lesson.problem', { id: p.id, field, problem: t(`layout.problem.${code}`, args) }),
    );
    this.notices.banner('lesson', [text.join(' ')], { kind: 'warn' });
  }

  /** fn(preset) once a preset (or a lesson's set-up) is applied; returning true holds the run at t = 0. */
  onPreset(fn) {
    this.presetHooks.push(fn);
  }

  /** fn() after the run starts again from t = 0 (Reset). */
  onRestart(fn) {
    this.restartHooks.push(fn);
  }

  /** Play or pause (a run whose A failed stays paused). */
  setPlaying(on) {
    const runner = this.runner;
    // a lesson held at t = 0 (its prediction first) jumps when it is played
    const held = this.heldLesson;
    this.heldLesson = null;
    if (on && held && runner.step === 0) return this.#startLesson(held.p, held.lv);
    if (on && runner.a?.failure) on = false;
    runner.playing = on;
    runner.acc = 0;
    this.session.set({ playing: on });
  }

  /**
   * Advances A and B by exactly n steps (unless the run stops): what fits STEP_NOW_MS now,
   * returning A's step; the rest in slices between frames with a progress line and Cancel
   * (landAt), returning a promise of A's step.
   */
  stepNow(n) {
    const runner = this.runner;
    if (!runner.a) return 0;
    const goal = runner.step + n;
    runner.advance(n, { budgeted: true, budgetMs: STEP_NOW_MS * (runner.b ? 2 : 1) });
    if ((runner.step >= goal || runner.a.failure) && runner.settled) {
      this.#show({ jump: n > 50 });
      return runner.step;
    }
    return this.landAt(goal, { boundMs: Infinity, label: { key: 'landing.steps', params: { n } } }).then((r) => r.step);
  }

  /**
   * Takes the run, paused, to a step or a time by stepping (the same bits as watching):
   * target a step (number or { step }) or { time } (s); options { signal, onProgress,
   * boundMs, label } and the result as web/page/landing.js's Landing.landAt says. Time-sliced
   * (no frame waits on it), with a progress line and Cancel when it is long; refused,
   * nothing stepped, when its estimate exceeds boundMs (60 s of CPU unless given).
   */
  landAt(target, options) {
    this.setPlaying(false);
    return this.landing.landAt(target, options);
  }

  /** Draws the run where it is: bodies, phase point, readout (jump: no trail across it; plots: redrawn now). */
  #show({ jump = false, plots = false } = {}) {
    const { runner, view } = this;
    if (!runner.a) return;
    if (jump) view.clearTrails(); // a jump: no straight chord across it
    view.update(runner.a, runner.b, runner.time);
    samplePhase(runner, this.plots);
    this.readout.update(true);
    if (plots) this.plots.drawAll(runner.time);
  }

  /** The plots' window, refilled from the samples A's and B's histories still hold. */
  #refillWindow() {
    const { runner, plots } = this;
    if (!runner.a || !(this.store.get().window > 0)) return;
    const W = this.store.get().window;
    const total = runner.a.sim.history.total;
    const from = Math.max(0, total - Math.ceil(W / runner.h) - 1);
    const { ra, rb } = runner.rereadFrom(from);
    if (ra) plots.ingest(ra, rb, runner.a, runner.b, { only: 'window' });
    plots.drawAll(runner.time);
  }
}
