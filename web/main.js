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
import { createLab } from './sim/vilab.js';
import { Runner } from './sim/runner.js';
import { loadPresets } from './sim/presets.js';
import { seconds, shortHash, sci } from './sim/format.js';
import { createStore, defaultState, compareScenario, compareSuggestion, clone, SPEEDS, STEPS_PER_FRAME, WINDOWS, UI_DEFAULTS } from './state/store.js';
import { decodeState, encodeState, splitApiError, MAX_DEFINITION_BYTES } from './state/url.js';
import { View, sceneKind } from './scene/view.js';
import { isDark } from './scene/palette.js';
import { Plots } from './plots/plots.js';
import { Controls } from './ui/controls.js';
import { ExplainDrawer } from './ui/explain.js';
import { Notices } from './ui/banner.js';
import { failureMessage, failureTime } from './ui/failure.js';
import { exactCSV, wholeViewPNG } from './ui/export.js';
import { shortTitle, whyText } from './ui/why.js';
import { el, setChildren, $ } from './ui/dom.js';
import { setupLayout } from './ui/layout.js';

const params = new URLSearchParams(location.search);
// the look-ahead that frames a system defined by data (see lookAhead in main)
const LOOKAHEAD_STEPS = 3000;
const LOOKAHEAD_MS = 25;
const EMBED = params.get('embed') === '1';
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

async function main() {
  const notices = new Notices($('#banners'), $('#status'));
  const layout = setupLayout({ status: (text) => notices.status(text) });
  let lab;
  try {
    lab = await createLab();
  } catch (e) {
    $('#loading').textContent = 'The simulation engine could not be loaded (WebAssembly is required).';
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
      const decoded = decodeState(lab, location.hash);
      initial = decoded.state;
      linkCamera = decoded.camera;
      linkCheck = decoded.fingerprint;
      linkAt = decoded.at;
    } catch (e) {
      const { field, problem } = e.field ? { field: e.field, problem: splitApiError(e.message).problem } : splitApiError(e.message);
      notices.banner('link', field ? ["This link's ", { code: field }, ` is invalid: ${problem}. Showing the default scenario instead.`] : [`This link is invalid: ${problem}. Showing the default scenario instead.`]);
      initial = defaultState(lab);
      history.replaceState(null, '', location.pathname + location.search);
    }
  }
  const store = createStore(initial);

  // ---- view, plots, runner ---------------------------------------------------------------
  const view = new View($('#view'), { reducedMotion: reducedMotionQuery.matches });
  const plots = new Plots($('#plots'), {
    onPhaseChange: () => plots.drawAll(runner.time),
    // a run whose numbers left the physics (energy, constraint, overflow) stops there
    onBreakdown: (label, info) => runner.halt(label, info),
  });
  let playing = false;
  const runner = new Runner(lab, {
    onSamples: (ra, rb) => plots.ingest(ra, rb, runner.a, runner.b),
    onFailure: (track, info) => reportFailure(track, info),
    onTarget: (step) => checkFingerprint(step),
    onVisualProblem: (track, { step }) =>
      notices.banner(
        'visual',
        [`${track.label}: at step ${step} a body's position is not a finite number (check the bodies' expressions); the bodies stay where they were last drawn while the run goes on.`],
        { kind: 'warn' },
      ),
  });

  function reportFailure(track, info) {
    const message = failureMessage(track.label, info, lab.integrator(track.scenario.integrator), track.scenario.h, plots.description);
    const data = info.code ? { code: info.code } : {};
    if (track.label === 'A') {
      setPlaying(false);
      const actions = [{ label: 'Reset', onClick: () => restart() }];
      if (message.halve) actions.unshift({ label: 'Halve h and restart', onClick: () => halveH() });
      notices.banner('failure', [message.text], { kind: 'error', actions, data });
    } else {
      notices.banner('failure-b', [message.text], { kind: 'warn', data });
      renderLegend(store.get(), lastKind, lastExact);
    }
    notices.status(message.status);
  }

  function halveH() {
    const st = store.get();
    const h = Number((st.scenario.h / 2).toPrecision(6));
    const err = setScenario({ ...st.scenario, h });
    if (err) notices.banner('failure', [`Could not halve h: ${err.message}`]);
    else setPlaying(true);
  }

  function checkFingerprint(step) {
    if (!linkCheck || linkCheck.step !== step) return;
    const mine = runner.a.sim.hash();
    const ok = mine.startsWith(linkCheck.hash) || linkCheck.hash.startsWith(mine);
    const node = $('#fp-check');
    node.hidden = false;
    node.className = `check ${ok ? 'ok' : 'bad'}`;
    node.textContent = ok ? `✓ same run as the link (step ${step})` : `✗ differs from the link's ${shortHash(linkCheck.hash)} at step ${step}`;
    notices.status(ok ? `Fingerprint matches the link at step ${step}.` : `Fingerprint differs from the link at step ${step}.`);
    linkCheck = null;
  }

  // ---- (re)building a run ---------------------------------------------------------------
  let lastKind = 'linkage';
  let lastExact = false;
  let exact = null; // the exact free rigid body of the current run (lab.exactRigidBody), or null
  function buildRun(state) {
    const scB = state.compare ? compareScenario(lab, state.scenario, state.compare) : null;
    runner.configure(state.scenario, scB);
    const a = runner.a;
    const kind = sceneKind(lab.system(state.scenario.system));
    exact?.dispose();
    exact = null;
    if (kind === 'rigid' && state.scenario.system === 'rigid-body' && typeof lab.exactRigidBody === 'function') {
      try {
        exact = lab.exactRigidBody(state.scenario);
      } catch {
        exact = null; // the ghost is optional
      }
    }
    const lookahead = kind === 'bodies' ? lookAhead(state.scenario) : [];
    view.build({ kind, scenarioA: state.scenario, scenarioB: scB, exact, Pi0: a.diag.bodyMomentum, visualLength: a.visual.length, visual0: a.visual, lookahead });
    const bounded = (integ) => !!integ && (integ.symplectic || integ.claims.some((c) => c.kind === 'energy' && /exactly/.test(c.text)));
    plots.configure({
      description: a.sim.describe(),
      h: state.scenario.h,
      hasB: !!runner.b,
      stepSizes: a.columns.includes('dt') || !!runner.b?.columns?.includes('dt'),
      labelA: shortTitle(a.integrator),
      labelB: runner.b ? shortTitle(runner.b.integrator) : '',
      energyBoundedA: bounded(a.integrator),
      energyBoundedB: bounded(runner.b?.integrator),
    });
    plots.setWindow(state.window);
    runner.flush();
    view.update(runner.a, runner.b, 0);
    samplePhase();
    plots.drawAll(0);
    notices.dismiss('failure');
    notices.dismiss('failure-b');
    notices.dismiss('visual');
    $('#inset-caption').hidden = !view.inset;
    $('#inset-caption').textContent =
      kind === 'top'
        ? 'Π in the body frame; sphere |Π| = |Π₀| for reference (gravity changes |Π|)'
        : `Π on the sphere |Π| = const and the energy ellipsoid: Π moves on their intersection${exact ? ' (grey: the exact orbit)' : ''}`;
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

  function restart() {
    buildRun(store.get());
    notices.status('Reset to t = 0.');
  }

  function samplePhase() {
    const a = runner.a;
    if (!a) return;
    const b = runner.b && !runner.b.failure ? runner.b : null;
    plots.samplePhase(a.failure ? null : a.sim.variables(), b?.sim.variables(), a.sim.time);
  }

  /** Validates via the API and applies; returns the API's Error or null. */
  function setScenario(next) {
    let scenario;
    try {
      scenario = lab.normalize(next);
    } catch (e) {
      return e;
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
      return e;
    }
  }

  // ---- legend, caption, readout --------------------------------------------------------------
  function renderLegend(state, kind, hasExact) {
    const items = [el('li', {}, el('span', { class: 'swatch A', 'aria-hidden': 'true' }), `A · ${lab.integrator(state.scenario.integrator).title}`)];
    if (state.compare) {
      const fb = runner.b?.failure;
      const tail = fb ? ` · stopped at t = ${failureTime(fb, state.scenario.h)} s` : ' · ghost';
      items.push(el('li', {}, el('span', { class: 'swatch B ghost', 'aria-hidden': 'true' }), `B · ${lab.integrator(state.compare).title}${tail}`));
    }
    if (hasExact) items.push(el('li', {}, el('span', { class: 'swatch exact ghost', 'aria-hidden': 'true' }), 'exact solution (grey)'));
    setChildren($('#legend'), items);
    const suggested = lab.integrator(compareSuggestion(lab, state.scenario));
    const invite = $('#invite');
    invite.hidden = !!state.compare || !suggested;
    if (suggested) invite.textContent = `Compare with ${shortTitle(suggested)}`;
    view.canvas.setAttribute(
      'aria-label',
      `${lab.system(state.scenario.system).title} integrated by ${lab.integrator(state.scenario.integrator).title} (blue)` +
        (state.compare ? ` and ${lab.integrator(state.compare).title} (orange ghost)` : '') +
        '. Drag to orbit, scroll or pinch to zoom.',
    );
  }

  function renderCaption(state) {
    const preset = controls?.presetFor(state);
    $('#caption').textContent = preset ? preset.explanation : lab.system(state.scenario.system).description;
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
    readoutEls.time.textContent = `t = ${seconds(a.sim.time)} s`;
    readoutEls.step.textContent = `step ${a.sim.step}`;
    const hash = a.sim.hash();
    const fp = readoutEls.fp;
    fp.textContent = `⎔ ${shortHash(hash)}`;
    fp.dataset.hash = hash;
    fp.setAttribute('aria-label', `Run fingerprint ${hash} at step ${a.sim.step}`);
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
        else notices.status(id ? `Comparing with ${lab.integrator(id).title}.` : 'Compare off.');
      },
      applyPreset: (p) => {
        // what the lesson needs on screen comes with it: speed, window, the energy view
        const lesson = p.lesson ?? {};
        const speed = SPEEDS.includes(lesson.speed) ? lesson.speed : UI_DEFAULTS.speed;
        const plotWindow = WINDOWS.includes(lesson.window) ? lesson.window : UI_DEFAULTS.window;
        plots.setView({ energy: lesson.energy === 'envelope' ? 'envelope' : 'signed', large: lesson.large ?? null });
        const err = setState({ scenario: p.scenario, compare: p.compare ?? null, speed, stepsPerFrame: 0, window: plotWindow });
        if (err) notices.banner('control', [`Preset ${p.id}: ${err.message}`]);
        else {
          notices.status(`Preset: ${p.title}`);
          setPlaying(true);
        }
      },
      status: (t) => notices.status(t),
      error: (e) => notices.banner('control', [String(e.message ?? e)]),
    },
    presets,
  );

  // transport
  const playBtn = $('#play');
  function setPlaying(on) {
    if (on && runner.a?.failure) on = false;
    playing = on;
    runner.playing = on;
    runner.acc = 0;
    playBtn.textContent = on ? 'Pause' : 'Play';
    playBtn.setAttribute('aria-label', on ? 'Pause the simulation' : 'Play the simulation');
    playBtn.classList.toggle('playing', on);
    document.body.classList.toggle('is-playing', on);
  }
  playBtn.addEventListener('click', () => {
    setPlaying(!playing);
    notices.status(playing ? 'Playing.' : 'Paused.');
  });
  $('#step').addEventListener('click', () => {
    setPlaying(false);
    stepNow(1);
  });
  $('#reset').addEventListener('click', () => restart());
  const speed = $('#speed');
  setChildren(speed, SPEEDS.map((s) => el('option', { value: String(s) }, `${s}×`)));
  speed.addEventListener('change', () => store.set({ speed: Number(speed.value) }));
  const spf = $('#spf');
  setChildren(spf, STEPS_PER_FRAME.map((n) => el('option', { value: String(n) }, n === 0 ? 'real time' : String(n))));
  spf.addEventListener('change', () => store.set({ stepsPerFrame: Number(spf.value) }));
  const win = $('#window');
  setChildren(win, WINDOWS.map((w) => el('option', { value: String(w) }, w === 0 ? 'whole run' : `last ${w} s`)));
  win.addEventListener('change', () => store.set({ window: Number(win.value) }));

  $('#invite').addEventListener('click', () => {
    const id = compareSuggestion(lab, store.get().scenario);
    const err = id ? setState({ compare: id }) : null;
    if (id && !err) {
      notices.status(`Comparing with ${shortTitle(lab.integrator(id))} on the same initial data.`);
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
    notices.status(on ? 'Exact solution shown.' : 'Exact solution hidden.');
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
    const url = new URL(location.href);
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
        copied ? 'Link copied. ' : 'Copy this link: ',
        { code: url },
        snap.step ? ` It opens paused at step ${snap.step}, where its fingerprint is ${shortHash(snap.hash)}.` : ' It reproduces this run from the start.',
      ],
      { kind: 'info', data: { step: String(snap.step), hash: snap.hash ?? '' } },
    );
    notices.status(copied ? 'Link copied to the clipboard.' : 'Link shown below the top bar.');
    // a definition beyond what links carry: say so now, not when the link is opened
    const st = store.get();
    const defBytes = lab.system(st.scenario.system)?.definition ? new TextEncoder().encode(JSON.stringify(st.scenario.params)).length : 0;
    if (defBytes > MAX_DEFINITION_BYTES) {
      notices.banner(
        'share-size',
        [`This definition is ${(defBytes / 1024).toFixed(1)} KB; links carry at most ${MAX_DEFINITION_BYTES / 1024} KB, so this link will be refused when opened. Shorten the expressions (constants help) to share it.`],
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
    notices.status('CSV of the run downloaded: every variable and diagnostic, exact.');
  });
  function pngURL() {
    const a = runner.a;
    const st = store.get();
    const header = `vilab · ${lab.system(st.scenario.system).title} · t = ${seconds(a.sim.time)} s · step ${a.sim.step} · fingerprint ${a.sim.hash()}`;
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
    notices.status('PNG of the whole view downloaded: the bodies, the plots, the time and the fingerprint.');
  });

  // drawers
  const explain = new ExplainDrawer($('#explain'), $('#explain-button'), lab);
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

  // embed
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
      linkCheck = null;
      $('#fp-check').hidden = true;
      try {
        buildRun(state);
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
    speed.value = String(state.speed);
    spf.value = String(state.stepsPerFrame);
    win.value = String(state.window);
    controls.render(state);
    explain.update(state);
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

  // first run
  const st0 = store.get();
  runner.speed = st0.speed;
  runner.stepsPerFrame = st0.stepsPerFrame;
  speed.value = String(st0.speed);
  spf.value = String(st0.stepsPerFrame);
  win.value = String(st0.window);
  explain.update(st0);
  buildRun(st0);
  if (linkCamera) view.setCamera(linkCamera);
  if (linkCheck) {
    if (linkCheck.step === 0) checkFingerprint(0);
    else runner.target = linkCheck.step;
  }
  $('#loading').remove();
  if (linkAt) landAt(linkAt);
  else setPlaying(!reducedMotionQuery.matches);
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
    notices.status(`Going to step ${target} of the link…`);
    const slice = () => {
      if (!runner.a || runner.a.failure || runner.step >= target) {
        view.clearTrails();
        stepNow(0);
        plots.drawAll(runner.time);
        notices.status(`Paused at step ${runner.step}, as the link asks.`);
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
      // the first simulated frame is on screen
      firstFrameAt = performance.now();
      resolveReady();
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
    setState,
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
  });

  // ---- offline: the service worker (production builds only) -----------------------------------
  if (import.meta.env.PROD && 'serviceWorker' in navigator && !params.has('nosw')) {
    const register = () =>
      navigator.serviceWorker.register('./sw.js').catch(() => {
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
