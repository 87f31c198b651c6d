// vilab page: wires the JS API (web/sim/vilab.js) to the three.js view, the
// uPlot diagnostics, the generated controls and the URL-backed state store.
//
// Test hook (for e2e tests and the curious), window.vilabPage:
//   ready          Promise resolved after the first simulated frame is drawn
//   state()        a copy of the store's state { scenario, compare, speed, stepsPerFrame, window }
//   sim() / simB() the live Simulation objects of A and B (null when absent)
//   step(n)        advances A (and B) by n steps now, updates view and plots; returns A's step
//   runTo(k)       advances to step k exactly (no-op if already past); returns A's step
//   fingerprint()  A's sim.hash() at the current step (16 hex)
//   play() / pause() / playing()
//   shareURL()     the URL that 'Copy link' produces
//   setState(patch) applies a state patch as the controls would; returns an Error or null
//   drawPlots()    redraws every plot now; plotSeries() the latest plotted values by name
//   frames()       animation frames rendered so far; failure() A's/B's failure info
//   firstFrameAt() ms from navigation start to the first simulated frame
//   frameStats()   main-thread ms per animation frame { n, mean, median, p95, max, phases } (last 600;
//                  phases: sim, view, render, plots, other; { reset: true } starts a new window)
//   camera()       [px, py, pz, tx, ty, tz]; presets() preset ids; csv() the CSV text
//   exactGhost()   { orientation: [w, x, y, z], time, orbitPoints } of the drawn exact ghost (free rigid body), or null
//   lab            the lab (registries)
import { createPageLab, needsFull } from './sim/page-lab.js';
import { Runner } from './sim/runner.js';
import { loadPresets } from './sim/presets.js';
import { seconds, shortHash, sci } from './sim/format.js';
import { createStore, defaultState, compareScenario, compareSuggestion, clone, deepEqual, SPEEDS, STEPS_PER_FRAME, WINDOWS, UI_DEFAULTS } from './state/store.js';
import { decodeState, encodeState, splitApiError, MAX_DEFINITION_BYTES } from './state/url.js';
import { View, viewOf } from './scene/view.js';
import { SCENES } from './scene/scenes.js';
import { BobDrag, chainInitial } from './scene/drag.js';
import { isDark } from './scene/palette.js';
import { Plots } from './plots/plots.js';
import { Controls } from './ui/controls.js';
import { LazyDrawer } from './ui/drawer.js';
import { Notices } from './ui/banner.js';
import { failureMessage, failureTime } from './ui/failure.js';
import { exactCSV, wholeViewPNG } from './ui/export.js';
import { shortTitle, whyText } from './ui/why.js';
import { el, setChildren, $ } from './ui/dom.js';
import { setupLayout } from './ui/layout.js';
import { EmbedBridge, EmbedDialog, readEmbedKeys } from './ui/embed.js';
import { watchForUpdates } from './pwa/update.js';
import inlinedWasm from 'virtual:vilab-wasm';
import { t, registryText, onLanguageChange, ready as languageReady } from './i18n/index.js';

const params = new URLSearchParams(location.search);
const SINGLE_FILE = import.meta.env.MODE === 'single';
const SITE_URL = SINGLE_FILE ? (import.meta.env.VITE_SITE_URL ?? '') : '';
if (SINGLE_FILE) document.documentElement.classList.add('single-file');
// the look-ahead that frames a system defined by data (see lookAhead in main)
const LOOKAHEAD_STEPS = 3000;
const LOOKAHEAD_MS = 25;
// embed=1, paused=1, chrome=0, origin=… (state/messages.js); a bad key is reported once the page is up
const embedProblems = [];
const embedKeys = readEmbedKeys(location.search, (field, problem) => embedProblems.push({ field, problem }));
const EMBED = embedKeys.embed;
const reducedMotionQuery = matchMedia('(prefers-reduced-motion: reduce)');
const darkQuery = matchMedia('(prefers-color-scheme: dark)');

let resolveReady;
let rejectReady;
const ready = new Promise((res, rej) => {
  resolveReady = res;
  rejectReady = rej;
});
window.vilabPage = { ready };

if (EMBED) document.documentElement.classList.add('embed');
if (!embedKeys.chrome) document.documentElement.classList.add('bare');

async function main() {
  // the lean build first, the full one when a scenario needs it (web/sim/page-lab.js); the
  // single-file build carries the full wasm in the page (web/pwa/inline-wasm-plugin.js)
  const labLoaded = createPageLab(inlinedWasm ? { wasmBinary: inlinedWasm } : {});
  labLoaded.catch(() => {}); // reported below
  await languageReady; // the reader's language, fetched alongside the engine
  const notices = new Notices($('#banners'), $('#status'));
  for (const { field, problem } of embedProblems) notices.banner(`embed-key-${field}`, [t('embed.keyInvalid', { field, problem })], { kind: 'warn' });
  const layout = setupLayout({ status: (text) => notices.status(text) });
  // the WebGL context is made while the engine loads
  const view = new View($('#view'), { reducedMotion: reducedMotionQuery.matches });
  let lab;
  try {
    lab = await labLoaded;
  } catch (e) {
    $('#loading').textContent = t('main.engineFailed');
    throw e;
  }
  const presets = loadPresets(lab);

  // ---- state from the link ---------------------------------------------------------
  let initial = defaultState(lab);
  let linkCamera = null;
  let linkCheck = null;
  let linkAt = null;
  if (location.hash.length > 1) {
    try {
      const decoded = await decodeLink(location.hash);
      initial = decoded.state;
      linkCamera = decoded.camera;
      linkCheck = decoded.fingerprint;
      linkAt = decoded.at;
    } catch (e) {
      reportLink(e, { kept: false });
      initial = defaultState(lab);
      history.replaceState(null, '', location.pathname + location.search);
    }
  }
  /** decodeState, with the full build loaded first when the link needs it. */
  function decodeLink(hash) {
    return lab.withFull(() => decodeRunnable(hash));
  }
  /** decodeState, and B's scenario too: either may need the full build (VilabError code 'full-module'). */
  function decodeRunnable(hash) {
    const decoded = decodeState(lab, hash);
    if (decoded.state.compare) compareScenario(lab, decoded.state.scenario, decoded.state.compare);
    return decoded;
  }
  /** A bad link: its field and problem, in words, and what the page shows instead (the defaults, or the run it kept). */
  function reportLink(e, { kept }) {
    const { field, problem } = e.field ? { field: e.field, problem: splitApiError(e.message).problem } : splitApiError(e.message);
    const [withField, without] = kept ? ['main.link.invalidField.kept', 'main.link.invalidKept'] : ['main.link.invalidField.after', 'main.link.invalid'];
    notices.banner('link', field ? [t('main.link.invalidField.before'), { code: field }, t(withField, { problem })] : [t(without, { problem })]);
  }
  const store = createStore(initial);

  // ---- view, plots, runner ---------------------------------------------------------------
  const plots = new Plots($('#plots'), {
    onPhaseChange: () => plots.drawAll(runner.time),
    // a run whose numbers left the physics (energy, constraint, overflow) stops there
    onBreakdown: (label, info) => runner.halt(label, info),
  });
  let playing = false;
  let bridge = null;
  const runner = new Runner(lab, {
    onSamples: (ra, rb) => plots.ingest(ra, rb, runner.a, runner.b),
    onFailure: (track, info) => reportFailure(track, info),
    onTarget: (step) => checkFingerprint(step),
    onVisualProblem: (track, { step }) =>
      notices.banner(
        'visual',
        [t('main.visualProblem', { track: track.label, step })],
        { kind: 'warn' },
      ),
  });

  function reportFailure(track, info) {
    const message = failureMessage(track.label, info, lab.integrator(track.scenario.integrator), track.scenario.h, plots.description);
    const data = info.code ? { code: info.code } : {};
    if (track.label === 'A') {
      setPlaying(false);
      const actions = [{ label: t('main.action.reset'), onClick: () => restart() }];
      if (message.halve) actions.unshift({ label: t('main.action.halve'), onClick: () => halveH() });
      notices.banner('failure', [message.text], { kind: 'error', actions, data });
    } else {
      notices.banner('failure-b', [message.text], { kind: 'warn', data });
      renderLegend(store.get(), lastKind, lastExact);
    }
    notices.status(message.status);
    bridge?.refusal({ track: track.label, step: info.step ?? null, code: info.code, message: message.text });
  }

  function halveH() {
    const st = store.get();
    const h = Number((st.scenario.h / 2).toPrecision(6));
    const err = setScenario({ ...st.scenario, h });
    if (err) notices.banner('failure', [t('main.halveFailed', { message: err.message })]);
    else setPlaying(true);
  }

  function checkFingerprint(step) {
    if (!linkCheck || linkCheck.step !== step) return;
    const mine = runner.a.sim.hash();
    const ok = mine.startsWith(linkCheck.hash) || linkCheck.hash.startsWith(mine);
    const node = $('#fp-check');
    node.hidden = false;
    node.className = `check ${ok ? 'ok' : 'bad'}`;
    // kept on the node so a language change can say it again
    Object.assign(node.dataset, { words: ok ? 'main.fp.same' : 'main.fp.differs', step: String(step), hash: shortHash(linkCheck.hash) });
    node.textContent = t(node.dataset.words, node.dataset);
    notices.status(ok ? t('main.fp.sameStatus', { step }) : t('main.fp.differsStatus', { step }));
    linkCheck = null;
  }

  // ---- (re)building a run ---------------------------------------------------------------
  let lastKind = 'linkage';
  let lastExact = false;
  let exact = null; // the exact free rigid body of the current run (lab.exactRigidBody), or null
  function buildRun(state, { keepA = false } = {}) {
    const scB = state.compare ? compareScenario(lab, state.scenario, state.compare) : null;
    if (keepA) runner.configureB(scB);
    else runner.configure(state.scenario, scB);
    const a = runner.a;
    const kind = viewOf(lab.system(state.scenario.system));
    exact?.dispose();
    exact = null;
    if (SCENES[kind].exactGhost && state.scenario.system === 'rigid-body' && typeof lab.exactRigidBody === 'function') {
      try {
        exact = lab.exactRigidBody(state.scenario);
      } catch {
        exact = null; // the ghost is optional
      }
    }
    const lookahead = SCENES[kind].lookAhead ? lookAhead(state.scenario) : [];
    view.build({ kind, scenarioA: state.scenario, scenarioB: scB, exact, Pi0: a.diag.bodyMomentum, visualLength: a.visual.length, visual0: a.visual, lookahead });
    if (controls) controls.structures = a.sim.describe().structures; // badges only where they apply
    const bounded = (integ) => !!integ && (integ.symplectic || integ.claims.some((c) => c.kind === 'energy' && /exactly/.test(c.text)));
    plots.configure({
      description: a.sim.describe(),
      firstA: a.first,
      firstB: runner.b?.first,
      h: state.scenario.h,
      hasB: !!runner.b,
      stepSizes: a.columns.includes('dt') || !!runner.b?.columns?.includes('dt'),
      labelA: shortTitle(a.integrator),
      labelB: runner.b ? shortTitle(runner.b.integrator) : '',
      energyBoundedA: bounded(a.integrator),
      energyBoundedB: bounded(runner.b?.integrator),
    });
    plots.setWindow(state.window);
    if (keepA) runner.rewindReads(); // the plots start afresh from the oldest samples kept
    runner.flush();
    view.update(runner.a, runner.b, runner.time);
    samplePhase();
    plots.drawAll(runner.time);
    notices.dismiss('failure');
    notices.dismiss('failure-b');
    notices.dismiss('visual');
    $('#inset-caption').hidden = !view.inset;
    $('#inset-caption').textContent = insetCaption(kind, !!exact);
    positionInsetCaption();
    $('#exact-toggle').hidden = !exact;
    view.setExactVisible($('#exact-toggle').getAttribute('aria-pressed') === 'true');
    lastKind = kind;
    lastExact = !!exact;
    renderLegend(state, kind, !!exact);
    renderCaption(state);
    updateReadout(true);
  }

  /**
   * What a system defined by data will draw over its first seconds, for the camera's
   * frame (its bodies may go anywhere, an orbit far from where it starts): a separate
   * simulation of the same scenario, stepped for at most LOOKAHEAD_MS of wall-clock
   * time and LOOKAHEAD_STEPS steps (a refused step ends it early), then freed.
   */
  function lookAhead(scenario) {
    const out = [];
    let sim = null;
    try {
      sim = lab.simulate(scenario, { historyStride: 1000, historyCapacity: 1 });
      const t0 = performance.now();
      const chunk = Math.max(1, Math.round(LOOKAHEAD_STEPS / 100));
      for (let k = 0; k < LOOKAHEAD_STEPS && performance.now() - t0 < LOOKAHEAD_MS; k += chunk) {
        sim.advance(chunk);
        out.push(sim.visualState());
      }
    } catch {
      /* a refused step: frame what came before it */
    } finally {
      sim?.dispose();
    }
    return out;
  }

  // dragging a bob (paused) sets the start: projected onto the links, carried by links
  const drag = new BobDrag(view, {
    enabled: () => !!SCENES[lastKind].drag && !!runner.a,
    positions: () => Float64Array.from(runner.a.visual),
    lengths: () => store.get().scenario.params.lengths,
    planar: () => !Array.isArray(store.get().scenario.initial?.angles?.[0]),
    onGrab: () => setPlaying(false),
    onMove: (positions) => {
      view.A.update(positions);
      view.dirty = true;
    },
    onDrop: (positions) => {
      const st = store.get();
      const planar = !Array.isArray(st.scenario.initial?.angles?.[0]);
      const initial = chainInitial(positions, st.scenario.params.lengths.length, planar);
      const err = setScenario({ ...st.scenario, initial });
      if (err) notices.banner('control', [t('main.drag.refused', { message: err.message })]);
      else notices.status(t('main.drag.done'));
    },
  });

  function restart() {
    buildRun(store.get());
    notices.status(t('main.resetDone'));
  }

  function samplePhase() {
    const a = runner.a;
    if (!a) return;
    const b = runner.b && !runner.b.failure ? runner.b : null;
    plots.samplePhase(a.failure ? null : a.sim.variables(), b?.sim.variables(), a.sim.time);
  }

  // A change the lean build leaves out (a Lagrangian given as data, Lobatto, …) waits for
  // the full build and is then applied, or its error shown; `deferred` is that promise.
  let deferred = null;
  function deferUntilFull(retry) {
    notices.status(t('main.loadingFull'));
    deferred = lab.loadFull().then(
      () => {
        const err = retry();
        if (err) notices.banner('control', [err.message]);
        return err;
      },
      (e) => {
        notices.banner('control', [t('main.fullFailed', { message: e.message })]);
        return e;
      },
    );
    return null;
  }

  /** Validates via the API and applies; returns the API's Error or null (null too when it waits for the full build). */
  function setScenario(next) {
    let scenario;
    try {
      scenario = lab.normalize(next);
    } catch (e) {
      return needsFull(e) ? deferUntilFull(() => setScenario(next)) : e;
    }
    const st = store.get();
    let compare = st.compare;
    if (compare && !lab.integrator(compare)?.systems.includes(scenario.system)) compare = null;
    store.set({ scenario, compare }, { rebuild: true });
    return null;
  }

  function setState(patch) {
    try {
      const next = { ...store.get(), ...patch };
      next.scenario = lab.normalize(next.scenario);
      if (next.compare) compareScenario(lab, next.scenario, next.compare);
      store.set(next, { rebuild: true });
      return null;
    } catch (e) {
      return needsFull(e) ? deferUntilFull(() => setState(patch)) : e;
    }
  }

  // ---- legend, caption, readout --------------------------------------------------------------
  const insetCaption = (kind, hasExact) => (SCENES[kind].heavy ? t('main.inset.top') : t('main.inset.free') + (hasExact ? t('main.inset.exact') : ''));
  const integratorTitle = (id) => registryText('integrator', lab.integrator(id), 'title');

  function renderLegend(state, kind, hasExact) {
    const items = [el('li', {}, el('span', { class: 'swatch A', 'aria-hidden': 'true' }), `A · ${integratorTitle(state.scenario.integrator)}`)];
    if (state.compare) {
      const fb = runner.b?.failure;
      const tail = fb ? t('main.legend.stopped', { t: failureTime(fb, state.scenario.h) }) : t('main.legend.ghost');
      items.push(el('li', {}, el('span', { class: 'swatch B ghost', 'aria-hidden': 'true' }), `B · ${integratorTitle(state.compare)}${tail}`));
    }
    if (hasExact) items.push(el('li', {}, el('span', { class: 'swatch exact ghost', 'aria-hidden': 'true' }), t('main.legend.exact')));
    setChildren($('#legend'), items);
    const suggested = lab.integrator(compareSuggestion(lab, state.scenario));
    const invite = $('#invite');
    invite.hidden = !!state.compare || !suggested;
    if (suggested) invite.textContent = t('main.invite', { title: shortTitle(suggested) });
    view.canvas.setAttribute(
      'aria-label',
      t('main.canvas.label', { system: registryText('system', lab.system(state.scenario.system), 'title'), a: integratorTitle(state.scenario.integrator) }) +
        (state.compare ? t('main.canvas.labelB', { b: integratorTitle(state.compare) }) : '') +
        t('main.canvas.hint'),
    );
  }

  function renderCaption(state) {
    const preset = controls?.presetFor(state);
    $('#caption').textContent = preset ? registryText('preset', preset, 'explanation') : registryText('system', lab.system(state.scenario.system), 'description');
    const A = lab.integrator(state.scenario.integrator);
    const B = state.compare ? lab.integrator(state.compare) : null;
    const constraints = Array.isArray(state.scenario.params?.constraints) ? state.scenario.params.constraints.length > 0 : lab.system(state.scenario.system).model !== 'oscillator';
    const run = { momenta: (runner.a?.J0.length ?? 0) > 0, constraints };
    $('#why').textContent = whyText(A, B, { suggested: lab.integrator(compareSuggestion(lab, state.scenario)), run });
  }

  let lastReadout = 0;
  const readoutEls = { time: $('#readout-time'), step: $('#readout-step'), fp: $('#fingerprint'), behind: $('#behind') };
  function updateReadout(force = false) {
    const now = performance.now();
    if (!force && now - lastReadout < 100) return;
    lastReadout = now;
    const a = runner.a;
    if (!a) return;
    readoutEls.time.textContent = t('main.readout.time', { t: seconds(a.sim.time) });
    readoutEls.step.textContent = t('main.readout.step', { step: a.sim.step });
    const hash = a.sim.hash();
    const fp = readoutEls.fp;
    fp.textContent = `⎔ ${shortHash(hash)}`;
    fp.dataset.hash = hash;
    fp.setAttribute('aria-label', t('main.readout.fpLabel', { hash, step: a.sim.step }));
    readoutEls.behind.hidden = !runner.behind;
  }

  function positionInsetCaption() {
    const r = view.insetRect(true);
    const cap = $('#inset-caption');
    if (!r) return;
    cap.style.left = `${r.left}px`;
    cap.style.top = 'auto';
    cap.style.bottom = `${r.size + 16}px`;
    cap.style.width = `${r.size}px`;
  }

  function applyPreset(p) {
    // what the lesson needs on screen comes with it: speed, window, the energy view
    const lesson = p.lesson ?? {};
    const speed = SPEEDS.includes(lesson.speed) ? lesson.speed : UI_DEFAULTS.speed;
    const plotWindow = WINDOWS.includes(lesson.window) ? lesson.window : UI_DEFAULTS.window;
    plots.setView({ energy: lesson.energy === 'envelope' ? 'envelope' : 'signed', large: lesson.large ?? null });
    deferred = null;
    const err = setState({ scenario: p.scenario, compare: p.compare ?? null, speed, stepsPerFrame: 0, window: plotWindow });
    const applied = () => {
      notices.status(t('main.preset.status', { title: registryText('preset', p, 'title') }));
      setPlaying(true);
    };
    // waiting for the full build: applied once it is in (its failure is shown by then)
    if (deferred) return deferred.then((e) => e || applied());
    if (err) notices.banner('control', [t('main.preset.failed', { id: p.id, message: err.message })]);
    else applied();
  }

  // ---- controls -------------------------------------------------------------------
  let controls = null;
  const els = {
    system: $('#system'),
    preset: $('#preset'),
    integratorA: $('#integrator-a'),
    integratorB: $('#integrator-b'),
    badgesA: $('#badges-a'),
    badgesB: $('#badges-b'),
    summaryA: $('#summary-a'),
    summaryB: $('#summary-b'),
    params: $('#params'),
    paramsSection: $('#params-section'),
    definition: $('#definition'),
    definitionSection: $('#definition-section'),
    options: $('#options'),
    initial: $('#initial'),
    initialSection: $('#initial-section'),
    hRange: $('#h-range'),
    hNumber: $('#h-number'),
    hUnit: $('#h-unit'),
    hError: $('#h-error'),
  };
  controls = new Controls(
    lab,
    store,
    els,
    {
      setScenario,
      setState: (patch) => {
        const err = setState(patch);
        if (err) notices.banner('control', [err.message]);
      },
      setCompare: (id) => {
        const err = setState({ compare: id });
        if (err) notices.banner('control', [err.message]);
        else notices.status(id ? t('main.comparing', { title: integratorTitle(id) }) : t('main.compareOff'));
      },
      applyPreset: (p) => applyPreset(p),
      status: (t) => notices.status(t),
      error: (e) => notices.banner('control', [String(e.message ?? e)]),
    },
    presets,
  );

  // transport
  const playBtn = $('#play');
  function setPlaying(on) {
    if (on && runner.a?.failure) on = false;
    // on pause, the summary says where things stand
    if (!on && playing) requestAnimationFrame(() => ($('#diag-summary').textContent = plots.summary()));
    playing = on;
    runner.playing = on;
    runner.acc = 0;
    playBtn.textContent = t(on ? 'main.pause' : 'main.play');
    playBtn.setAttribute('aria-label', t(on ? 'main.pause.label' : 'main.play.label'));
    playBtn.classList.toggle('playing', on);
    document.body.classList.toggle('is-playing', on);
  }
  playBtn.addEventListener('click', () => {
    setPlaying(!playing);
    notices.status(t(playing ? 'main.playing' : 'main.paused'));
  });
  $('#step').addEventListener('click', () => {
    setPlaying(false);
    stepNow(1);
  });
  $('#reset').addEventListener('click', () => restart());
  // One pacing control: a multiple of real time, or a fixed number of steps per frame
  // (never one silently overriding the other).
  const speed = $('#speed');
  const fillPacing = () =>
    setChildren(
      speed,
      el('optgroup', { label: t('main.pacing.speed') }, SPEEDS.map((s) => el('option', { value: `x${s}` }, `${s}×`))),
      el('optgroup', { label: t('main.pacing.spf') }, STEPS_PER_FRAME.filter((n) => n > 0).map((n) => el('option', { value: `spf${n}` }, t('main.pacing.spfOption', { n })))),
    );
  fillPacing();
  const pacingValue = (st) => (st.stepsPerFrame > 0 ? `spf${st.stepsPerFrame}` : `x${st.speed}`);
  speed.addEventListener('change', () => {
    const v = speed.value;
    store.set(v.startsWith('spf') ? { stepsPerFrame: Number(v.slice(3)) } : { speed: Number(v.slice(1)), stepsPerFrame: 0 });
  });
  const win = $('#window');
  const fillWindow = () => setChildren(win, WINDOWS.map((w) => el('option', { value: String(w) }, w === 0 ? t('main.window.all') : t('main.window.last', { w }))));
  fillWindow();
  win.addEventListener('change', () => store.set({ window: Number(win.value) }));

  $('#invite').addEventListener('click', () => {
    const id = compareSuggestion(lab, store.get().scenario);
    const err = id ? setState({ compare: id }) : null;
    if (id && !err) {
      notices.status(t('main.invite.status', { title: shortTitle(lab.integrator(id)) }));
      setPlaying(true);
      $('#integrator-b').focus({ preventScroll: true });
    }
  });
  $('#reset-camera').addEventListener('click', () => view.resetCamera());
  const exactBtn = $('#exact-toggle');
  exactBtn.addEventListener('click', () => {
    const on = exactBtn.getAttribute('aria-pressed') !== 'true';
    exactBtn.setAttribute('aria-pressed', String(on));
    view.setExactVisible(on);
    notices.status(t(on ? 'main.exact.shown' : 'main.exact.hidden'));
  });
  const followBtn = $('#follow');
  followBtn.addEventListener('click', () => {
    const on = followBtn.getAttribute('aria-pressed') !== 'true';
    followBtn.setAttribute('aria-pressed', String(on));
    view.setFollow(on);
  });

  function stepNow(n) {
    if (!runner.a) return 0;
    runner.advance(n); // exactly n steps, unless one is refused
    if (n > 50) view.clearTrails(); // a jump: no straight chord across it
    view.update(runner.a, runner.b, runner.time);
    samplePhase();
    updateReadout(true);
    return runner.step;
  }

  // share link: the URL, its fingerprint and the text all come from one snapshot
  function shareSnapshot() {
    const st = store.get();
    const a = runner.a;
    const step = a ? a.sim.step : 0;
    const hash = a ? a.sim.hash() : null;
    const fingerprint = step > 0 ? { step, hash } : null;
    // the single file's links point at the hosted page when the build names it (VITE_SITE_URL)
    const url = new URL(SITE_URL || location.href);
    url.hash = encodeState(lab, st, { camera: view.getCamera(), fingerprint, at: step });
    if (!EMBED) url.searchParams.delete('embed');
    return { url: url.toString(), step, hash };
  }
  const shareURL = () => shareSnapshot().url;
  $('#copy-link').addEventListener('click', async () => {
    const snap = shareSnapshot();
    const url = snap.url;
    history.replaceState(null, '', url);
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      copied = false;
    }
    notices.banner(
      'share',
      [
        t(copied ? 'main.share.copied' : 'main.share.copyThis'),
        { code: url },
        snap.step ? t('main.share.at', { step: snap.step, hash: shortHash(snap.hash) }) : t('main.share.start'),
      ],
      { kind: 'info', data: { step: String(snap.step), hash: snap.hash ?? '' } },
    );
    notices.status(t(copied ? 'main.share.copiedStatus' : 'main.share.shownStatus'));
    // a definition beyond what links carry: say so now, not when the link is opened
    const st = store.get();
    const defBytes = lab.system(st.scenario.system)?.definition ? new TextEncoder().encode(JSON.stringify(st.scenario.params)).length : 0;
    if (defBytes > MAX_DEFINITION_BYTES) {
      notices.banner(
        'share-size',
        [t('main.share.tooLarge', { kb: (defBytes / 1024).toFixed(1), max: MAX_DEFINITION_BYTES / 1024 })],
        { kind: 'warn' },
      );
    } else notices.dismiss('share-size');
  });

  // CSV and PNG
  function download(name, href) {
    const a = el('a', { href, download: name, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
  }
  const fileStem = () => {
    const st = store.get();
    return `vilab-${st.scenario.system}-${st.scenario.integrator}${st.compare ? '-vs-' + st.compare : ''}`;
  };
  /** The exact CSV of the run so far (simulated again from t = 0; see web/ui/export.js). */
  function csvText() {
    const a = runner.a;
    if (!a) return '';
    const tracks = [{ label: 'A', scenario: a.scenario, step: a.sim.step }];
    if (runner.b) tracks.push({ label: 'B', scenario: runner.b.scenario, step: runner.b.sim.step });
    return exactCSV(lab, tracks, { hash: a.sim.hash() });
  }
  $('#csv').addEventListener('click', () => {
    const blob = new Blob([csvText()], { type: 'text/csv' });
    const url = URL.createObjectURL(blob);
    download(`${fileStem()}.csv`, url);
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    notices.status(t('main.csv.done'));
  });
  function pngURL() {
    const a = runner.a;
    const st = store.get();
    const header = t('main.png.header', { system: registryText('system', lab.system(st.scenario.system), 'title'), t: seconds(a.sim.time), step: a.sim.step, hash: a.sim.hash() });
    const legend = [...document.querySelectorAll('#legend li')].map((li) => li.textContent);
    const plotCards = [...document.querySelectorAll('#plots .plot-card')].map((fig) => ({
      title: fig.querySelector('.plot-title')?.textContent ?? '',
      values: fig.querySelector('.plot-values')?.textContent ?? '',
      canvas: fig.querySelector('.plot-host canvas'),
    }));
    plots.drawAll(runner.time);
    return wholeViewPNG({ view, legend, header, plotCards });
  }
  $('#png').addEventListener('click', () => {
    download(`${fileStem()}.png`, pngURL());
    notices.status(t('main.png.done'));
  });

  // drawers
  // fetched when first opened (web/ui/explain.js, web/ui/studies.js and the lessons)
  const explain = new LazyDrawer($('#explain'), $('#explain-button'), async (root, button) => {
    const { ExplainDrawer } = await import('./ui/explain.js');
    return new ExplainDrawer(root, button, lab);
  });
  const where = (track) => track && { q: track.sim.q, p: track.sim.p, step: track.sim.step, time: track.sim.time };
  const studies = new LazyDrawer($('#studies'), $('#studies-button'), async (root, button) => {
    const { StudiesDrawer } = await import('./ui/studies.js');
    return new StudiesDrawer(root, button, {
      lab,
      getState: () => store.get(),
      getRun: () => ({ A: where(runner.a), B: where(runner.b) }),
      presets,
      // a lesson comes as its preset, or as a preset made of its own set-up
      applyLesson: ({ preset, scenario, compare }, lesson) => applyPreset(preset ?? { id: lesson.id, title: registryText('lesson', lesson, 'title'), scenario, compare }),
      onLesson: (id) => explain.setLesson(id),
      onExplain: () => {
        studies.close();
        explain.open();
      },
      onOpen: () => explain.isOpen && explain.close(),
    });
  });
  const help = $('#help');
  const helpBtn = $('#help-button');
  const toggleHelp = (open) => {
    help.hidden = !open;
    helpBtn.setAttribute('aria-expanded', String(open));
    if (open) help.querySelector('h2').focus();
    else helpBtn.focus();
  };
  helpBtn.addEventListener('click', () => toggleHelp(help.hidden));
  help.querySelector('.drawer-close').addEventListener('click', () => toggleHelp(false));
  help.addEventListener('keydown', (e) => e.key === 'Escape' && toggleHelp(false));

  // projector mode reaches the plots (the phone sheet is wired in setupLayout)
  layout.usePlots(plots);

  // the single file opens a link from the hosted page (or from another copy) by its #… part
  $('#open-link').addEventListener('click', () => {
    const text = prompt(t('main.openLink.prompt'));
    if (!text) return;
    const at = text.indexOf('#');
    if (at < 0) {
      notices.banner('link', [t('main.openLink.noHash')]);
      return;
    }
    location.hash = text.slice(at);
    location.reload();
  });

  // embedding: the code for a course page, and commands from the host page
  new EmbedDialog($('#embed-code'), {
    shareURL: () => shareSnapshot().url,
    title: () => `vilab: ${registryText('system', lab.system(store.get().scenario.system), 'title')}`,
    status: (text) => notices.status(text),
  });
  const position = () => {
    const sim = runner.a?.sim;
    return sim ? { step: sim.step, time: sim.time, fingerprint: sim.hash() } : { step: 0, time: 0, fingerprint: null };
  };
  bridge = new EmbedBridge({
    origins: embedKeys.origins,
    version: lab.version,
    report: (field, message) => notices.banner('embed-command', [t('embed.commandInvalid', { field, problem: splitApiError(message).problem })], { kind: 'warn' }),
    controller: {
      load: (scenario) => setScenario(scenario),
      play: () => setPlaying(true),
      pause: () => setPlaying(false),
      step: (n) => {
        setPlaying(false);
        stepNow(n);
      },
      position,
      snapshot: () => {
        const sim = runner.a?.sim;
        return { ...position(), playing, scenario: sim ? sim.scenario() : store.get().scenario, diagnostics: sim ? sim.diagnostics() : null };
      },
    },
  });
  if (EMBED) {
    const full = $('#open-full');
    full.hidden = false;
    const update = () => {
      const u = new URL(location.href);
      u.searchParams.delete('embed');
      full.href = u.toString();
    };
    update();
    store.subscribe(update);
  }

  // keyboard shortcuts (not while typing in a field)
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    const typing = t instanceof HTMLElement && (t.closest('input, select, textarea, [contenteditable]') || (t.tagName === 'BUTTON' && (e.key === ' ' || e.key === 'Enter')));
    if (typing) return;
    if (e.key === ' ') {
      e.preventDefault();
      playBtn.click();
    } else if (e.key === '.') $('#step').click();
    else if (e.key === 'r' || e.key === 'R') restart();
    else if (e.key === 'c' || e.key === 'C') {
      const st = store.get();
      setState({ compare: st.compare ? null : compareSuggestion(lab, st.scenario) });
    } else if (e.key === 'f' || e.key === 'F') followBtn.click();
  });

  // ---- store → everything -------------------------------------------------------------------
  let urlTimer = 0;
  store.subscribe((state, prev, meta) => {
    if (meta.rebuild || state.scenario !== prev.scenario || state.compare !== prev.compare) {
      // a new comparison keeps A's run: only B is rebuilt (and brought to A's step)
      const keepA = !!runner.a && !runner.a.failure && state.compare !== prev.compare && deepEqual(state.scenario, prev.scenario);
      if (!keepA) {
        linkCheck = null;
        $('#fp-check').hidden = true;
      }
      try {
        buildRun(state, { keepA });
      } catch (e) {
        notices.banner('control', [e.message]);
      }
    }
    runner.speed = state.speed;
    runner.stepsPerFrame = state.stepsPerFrame;
    if (state.window !== prev.window) {
      plots.setWindow(state.window);
      refillWindow();
    }
    speed.value = pacingValue(state);
    win.value = String(state.window);
    controls.render(state);
    explain.update(state);
    if (state.scenario !== prev.scenario || state.compare !== prev.compare) studies.update();
    renderCaption(state);
    clearTimeout(urlTimer);
    urlTimer = setTimeout(() => {
      const hash = encodeState(lab, store.get());
      history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
    }, 150);
  });

  function refillWindow() {
    if (!runner.a || !(store.get().window > 0)) return;
    const W = store.get().window;
    const total = runner.a.sim.history.total;
    const from = Math.max(0, total - Math.ceil(W / runner.h) - 1);
    const { ra, rb } = runner.rereadFrom(from);
    if (ra) plots.ingest(ra, rb, runner.a, runner.b, { only: 'window' });
    plots.drawAll(runner.time);
  }

  // A link pasted into the address bar of an open page changes only its # part: open it
  // in place. A bad one is named and the current run kept. (The page's own URL updates
  // use history.replaceState, which fires no hashchange.)
  window.addEventListener('hashchange', (event) => {
    // the link as pasted (event.newURL): a pending URL update of the old run must not replace it
    clearTimeout(urlTimer);
    const pasted = new URL(event.newURL).hash;
    let decoded;
    try {
      decoded = decodeRunnable(pasted);
    } catch (e) {
      if (needsFull(e)) {
        // open it once the full build is in (unless another link came meanwhile)
        notices.status(t('main.loadingFull'));
        lab.loadFull().then(() => location.hash === pasted && window.dispatchEvent(new HashChangeEvent('hashchange', { newURL: location.href })));
        return;
      }
      reportLink(e, { kept: true });
      const hash = encodeState(lab, store.get());
      history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
      return;
    }
    notices.dismiss('link');
    store.set(decoded.state, { rebuild: true });
    if (decoded.camera) view.setCamera(decoded.camera);
    linkCheck = decoded.fingerprint;
    if (linkCheck) {
      if (linkCheck.step === 0) checkFingerprint(0);
      else runner.target = linkCheck.step;
    }
    if (decoded.at) landAt(decoded.at);
    else setPlaying(!reducedMotionQuery.matches && !embedKeys.paused);
  });

  // first run
  const st0 = store.get();
  runner.speed = st0.speed;
  runner.stepsPerFrame = st0.stepsPerFrame;
  speed.value = pacingValue(st0);
  win.value = String(st0.window);
  explain.update(st0);
  buildRun(st0);
  if (linkCamera) view.setCamera(linkCamera);
  if (linkCheck) {
    if (linkCheck.step === 0) checkFingerprint(0);
    else runner.target = linkCheck.step;
  }
  $('#loading').remove();
  bridge.announce();
  if (linkAt) landAt(linkAt);
  else setPlaying(!reducedMotionQuery.matches && !embedKeys.paused);
  reducedMotionQuery.addEventListener?.('change', (e) => {
    view.reducedMotion = e.matches;
    if (e.matches) setPlaying(false);
  });
  darkQuery.addEventListener?.('change', () => {
    // restyle without restarting the run
    view.setTheme(isDark());
    view.update(runner.a, runner.b, runner.time);
    plots.retheme(runner.time);
  });
  // a new language re-words what main.js wrote; the run itself (step, fingerprint) is untouched
  onLanguageChange(() => {
    const st = store.get();
    fillPacing();
    speed.value = pacingValue(st);
    fillWindow();
    win.value = String(st.window);
    playBtn.textContent = t(playing ? 'main.pause' : 'main.play');
    playBtn.setAttribute('aria-label', t(playing ? 'main.pause.label' : 'main.play.label'));
    $('#inset-caption').textContent = insetCaption(lastKind, lastExact);
    const check = $('#fp-check');
    if (check.dataset.words) check.textContent = t(check.dataset.words, check.dataset);
    if ($('#diag-summary').textContent) $('#diag-summary').textContent = plots.summary();
    if (plots.run && runner.a) Object.assign(plots.run, { labelA: shortTitle(runner.a.integrator), labelB: runner.b ? shortTitle(runner.b.integrator) : '' });
    controls.render(st);
    renderLegend(st, lastKind, lastExact);
    renderCaption(st);
    updateReadout(true);
  });
  window.addEventListener('resize', () => {
    plots.resize();
    positionInsetCaption();
  });
  new ResizeObserver(() => plots.resize()).observe($('#plots'));

  /**
   * Opens a link paused on its step: steps there in slices (no animation, the page
   * stays responsive), then draws once; the fingerprint check runs on arrival.
   */
  function landAt(target) {
    setPlaying(false);
    notices.status(t('main.landing', { step: target }));
    const slice = () => {
      if (!runner.a || runner.a.failure || runner.step >= target) {
        view.clearTrails();
        stepNow(0);
        plots.drawAll(runner.time);
        notices.status(t('main.landed', { step: runner.step }));
        return;
      }
      const t0 = performance.now();
      while (runner.step < target && !runner.a.failure && performance.now() - t0 < 30) runner.advance(Math.min(2000, target - runner.step));
      setTimeout(slice, 0);
    };
    slice();
  }

  // ---- the frame loop -------------------------------------------------------------------------
  let last = performance.now();
  let frames = 0;
  let firstFrame = true;
  // main-thread ms per frame (ring of 600), split into phases: sim (steps, history
  // reads, plot ingest), view (three.js object updates), render (renderer.render: the
  // three.js JS and the WebGL calls), plots (uPlot redraws), other (readout)
  const RING = 600;
  const frameMs = new Float64Array(RING);
  const phaseMs = { sim: new Float64Array(RING), view: new Float64Array(RING), render: new Float64Array(RING), plots: new Float64Array(RING), other: new Float64Array(RING) };
  let firstFrameAt = null;
  let lastBars = 0;
  let lastSummary = performance.now();
  let statsFrom = 0; // frameStats({ reset: true }) counts frames from here
  function frame(now) {
    const t0 = performance.now();
    const dt = (now - last) / 1000;
    last = now;
    const taken = runner.frame(dt);
    const t1 = performance.now();
    if (taken > 0) {
      // trails only while they can be drawn smoothly (≤ 0.1 s of motion per frame)
      view.setTrailsVisible(taken * runner.h <= 0.1);
      view.update(runner.a, runner.b, runner.time);
      samplePhase();
    }
    const t2 = performance.now();
    view.render();
    const t3 = performance.now();
    plots.tick(now, runner.time);
    if (now - lastBars > 100 && runner.a) {
      lastBars = now;
      plots.energyBars($('#energy-bars'), runner.a.diag, runner.b && !runner.b.failure ? runner.b.diag : null);
    }
    // a live text summary of the diagnostics, at most every 5 s while playing
    if (playing && now - lastSummary > 5000) {
      lastSummary = now;
      $('#diag-summary').textContent = plots.summary();
    }
    const t4 = performance.now();
    updateReadout();
    const t5 = performance.now();
    const k = frames % RING;
    frameMs[k] = t5 - t0;
    phaseMs.sim[k] = t1 - t0;
    phaseMs.view[k] = t2 - t1;
    phaseMs.render[k] = t3 - t2;
    phaseMs.plots[k] = t4 - t3;
    phaseMs.other[k] = t5 - t4;
    frames++;
    if (firstFrame) {
      firstFrame = false;
      // the first simulated frame is on screen: now the plots (uPlot is fetched here)
      firstFrameAt = performance.now();
      plots.start().then(resolveReady, (e) => {
        notices.banner('plots', [t('main.plotsFailed', { message: e?.message ?? String(e) })], { kind: 'warn' });
        resolveReady();
      });
    }
    requestAnimationFrame(frame);
  }
  view.render(true);
  requestAnimationFrame(frame);

  // ---- test hook --------------------------------------------------------------------------------
  Object.assign(window.vilabPage, {
    lab,
    state: () => clone(store.get()),
    sim: () => runner.a?.sim ?? null,
    simB: () => runner.b?.sim ?? null,
    step: (n = 1) => stepNow(n),
    runTo: (k) => {
      const cur = runner.step;
      return k > cur ? stepNow(k - cur) : cur;
    },
    fingerprint: () => runner.a?.sim.hash() ?? null,
    play: () => setPlaying(true),
    pause: () => setPlaying(false),
    playing: () => playing,
    shareURL,
    /** as the controls apply a patch: Error or null, or a promise of it when the change waits for the full build */
    setState: (patch) => {
      deferred = null;
      return setState(patch) ?? deferred;
    },
    /** the promise of the full build (loads it if not yet) */
    loadFull: () => lab.loadFull().then(() => lab.build),
    drawPlots: () => plots.drawAll(runner.time),
    plotSeries: () => plots.latestValues(),
    frames: () => frames,
    failure: () => ({ A: runner.a?.failure ?? null, B: runner.b?.failure ?? null }),
    presets: () => presets.map((p) => p.id),
    camera: () => view.getCamera(),
    /** ms since navigation start when the first simulated frame was drawn */
    firstFrameAt: () => firstFrameAt,
    /**
     * main-thread ms per frame over the last ≤ 600 frames: { n, mean, median, p95, max,
     * phases: { sim|view|render|plots|other: { mean, median, p95, max } } }; reset() starts afresh
     */
    frameStats: ({ reset = false } = {}) => {
      const n = Math.min(frames - statsFrom, RING);
      const stats = (ring) => {
        const a = Array.from({ length: n }, (_, i) => ring[(frames - 1 - i) % RING]).sort((x, y) => x - y);
        return { mean: a.reduce((x, y) => x + y, 0) / Math.max(n, 1), median: a[Math.floor(n / 2)] ?? 0, p95: a[Math.floor(n * 0.95)] ?? 0, max: a[n - 1] ?? 0 };
      };
      const out = { n, ...stats(frameMs), phases: Object.fromEntries(Object.entries(phaseMs).map(([k, r]) => [k, stats(r)])) };
      if (reset) statsFrom = frames;
      return out;
    },
    csv: () => csvText(),
    png: () => pngURL(),
    plotRange: (id) => plots.yRange(id),
    setPlotView: (v) => plots.setView(v),
    summary: () => plots.summary(),
    /** the exact ghost's drawn orientation [w, x, y, z] and the time it shows, or null */
    exactGhost: () => view.exactGhost(),
    /** client coordinates of A's bob i (drag tests) */
    bobScreen: (i) => drag.screenOf(runner.a.visual, i),
  });

  // ---- offline: the service worker (production builds only) -----------------------------------
  if (import.meta.env.PROD && import.meta.env.MODE !== 'single' && 'serviceWorker' in navigator && !params.has('nosw')) {
    const register = () =>
      navigator.serviceWorker
        .register('./sw.js')
        .then((registration) => {
          const updates = watchForUpdates(registration, () =>
            notices.banner('update', [t('embed.update')], { kind: 'info', actions: [{ label: t('embed.update.reload'), onClick: () => updates.apply() }] }),
          );
        })
        .catch(() => {
          /* offline support is optional */
        });
    if (document.readyState === 'complete') register();
    else window.addEventListener('load', register, { once: true });
  }
}

main().catch((e) => {
  console.error(e);
  rejectReady(e);
});

export { sci };
