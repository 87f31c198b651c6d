// The toolbar and its keys: the transport (play / pause from the session, step, reset),
// one pacing control (a multiple of real time, or a fixed number of steps per frame:
// never one silently overriding the other), the plot window, the invitation to compare,
// the camera (reset, follow), the exact ghost toggle, and the keyboard shortcuts.
import { compareSuggestion, SPEEDS, STEPS_PER_FRAME, WINDOWS } from '../state/store.js';
import { shortTitle } from '../ui/why.js';
import { presetMatching } from '../sim/preset-data.js';
import { el, setChildren, $ } from '../ui/dom.js';
import { t, onLanguageChange } from '../i18n/index.js';

const pacingValue = (st) => (st.stepsPerFrame > 0 ? `spf${st.stepsPerFrame}` : `x${st.speed}`);

export class Toolbar {
  constructor({ lab, store, view, run, notices, presets = [] }) {
    Object.assign(this, { lab, store, view, run, notices, presets });
    this.session = store.session;
    this.#transport();
    this.#pacing();
    this.#invite();
    this.#camera();
    this.#keys();
    store.subscribe((state) => this.#showDocument(state));
    this.session.subscribe((s, prev) => {
      if (s.playing !== prev.playing) this.#showPlaying(s.playing);
      if (s.built !== prev.built || s.exactShown !== prev.exactShown) this.#showExact(s);
      if (s.built !== prev.built || s.frameShown !== prev.frameShown) this.#showFrame(s);
    });
    onLanguageChange(() => this.#label());
    this.#label();
  }

  /** Everything worded: the menus (refilled), their values, the play button. */
  #label() {
    this.#fillPacing();
    this.#fillWindow();
    this.#showDocument(this.store.get());
    this.#showPlaying(this.session.get().playing);
  }

  #transport() {
    const run = this.run;
    this.playBtn = $('#play');
    this.playBtn.addEventListener('click', () => {
      run.setPlaying(!this.session.get().playing);
      this.notices.status(t(this.session.get().playing ? 'main.playing' : 'main.paused'));
    });
    $('#step').addEventListener('click', () => {
      run.setPlaying(false);
      run.stepNow(1);
    });
    $('#reset').addEventListener('click', () => run.restart());
  }

  #showPlaying(on) {
    const playBtn = this.playBtn;
    playBtn.textContent = t(on ? 'main.pause' : 'main.play');
    playBtn.setAttribute('aria-label', t(on ? 'main.pause.label' : 'main.play.label'));
    playBtn.classList.toggle('playing', on);
    document.body.classList.toggle('is-playing', on);
  }

  #pacing() {
    const store = this.store;
    this.speed = $('#speed');
    this.speed.addEventListener('change', () => {
      const v = this.speed.value;
      store.set(v.startsWith('spf') ? { stepsPerFrame: Number(v.slice(3)) } : { speed: Number(v.slice(1)), stepsPerFrame: 0 });
    });
    this.win = $('#window');
    this.win.addEventListener('change', () => store.set({ window: Number(this.win.value) }));
  }

  #fillPacing() {
    setChildren(
      this.speed,
      el(
        'optgroup',
        { label: t('main.pacing.speed') },
        SPEEDS.map((s) => el('option', { value: `x${s}` }, `${s}×`)),
      ),
      el(
        'optgroup',
        { label: t('main.pacing.spf') },
        STEPS_PER_FRAME.filter((n) => n > 0).map((n) => el('option', { value: `spf${n}` }, t('main.pacing.spfOption', { n }))),
      ),
    );
  }

  #fillWindow() {
    setChildren(
      this.win,
      WINDOWS.map((w) => el('option', { value: String(w) }, w === 0 ? t('main.window.all') : t('main.window.last', { w }))),
    );
  }

  #showDocument(st) {
    this.speed.value = pacingValue(st);
    this.win.value = String(st.window);
  }

  /** The invitation to compare (the C key too: compareSuggested). */
  #invite() {
    $('#invite').addEventListener('click', () => {
      if (this.#compareSuggested()) $('#integrator-b').focus({ preventScroll: true });
    });
  }

  /**
   * B becomes the suggested integrator, and the run plays; when that makes the document a
   * preset, the preset is applied with its set-up (speed, window, plots), so its caption
   * reads true. Returns whether B was set.
   */
  #compareSuggested() {
    const { lab, store, run, notices } = this;
    const id = compareSuggestion(lab, store.get().scenario);
    if (!id) return false;
    const preset = presetMatching(lab, this.presets, { ...store.get(), compare: id });
    if (preset) {
      run.applyPreset(preset);
      return true;
    }
    if (run.setState({ compare: id })) return false;
    notices.status(t('main.invite.status', { title: shortTitle(lab.integrator(id)) }));
    run.setPlaying(true);
    return true;
  }

  /** Reset camera, the exact ghost toggle (kept in the session), follow. */
  #camera() {
    const view = this.view;
    $('#reset-camera').addEventListener('click', () => view.resetCamera());
    this.exactBtn = $('#exact-toggle');
    this.exactBtn.addEventListener('click', () => {
      const on = !this.session.get().exactShown;
      this.session.set({ exactShown: on });
      this.notices.status(t(on ? 'main.exact.shown' : 'main.exact.hidden'));
    });
    this.frameBtn = $('#frame-toggle');
    this.frameBtn.addEventListener('click', () => {
      const on = !this.session.get().frameShown;
      this.session.set({ frameShown: on });
      this.notices.status(t(on ? 'main.frame.rotating' : 'main.frame.inertial'));
    });
    this.followBtn = $('#follow');
    this.followBtn.addEventListener('click', () => {
      const on = this.followBtn.getAttribute('aria-pressed') !== 'true';
      this.followBtn.setAttribute('aria-pressed', String(on));
      view.setFollow(on);
    });
  }

  /** The toggle shows only with a ghost; its choice is kept across runs. */
  #showExact({ built, exactShown }) {
    this.exactBtn.hidden = !built.exact;
    this.exactBtn.setAttribute('aria-pressed', String(exactShown));
    this.view.setExactVisible(exactShown);
  }

  /** The frame toggle shows only with a lesson's rotating frame; its choice is kept across runs. */
  #showFrame({ built, frameShown }) {
    this.frameBtn.hidden = !built.frame;
    this.frameBtn.setAttribute('aria-pressed', String(frameShown));
    this.view.setFrameView(frameShown);
  }

  /** Keyboard shortcuts (not while typing in a field): space, '.', R, C, F. */
  #keys() {
    const { store, run } = this;
    document.addEventListener('keydown', (e) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      const target = e.target;
      const typing =
        target instanceof HTMLElement &&
        (target.closest('input, select, textarea, [contenteditable]') ||
          (target.tagName === 'BUTTON' && (e.key === ' ' || e.key === 'Enter')));
      if (typing) return;
      if (e.key === ' ') {
        e.preventDefault();
        this.playBtn.click();
      } else if (e.key === '.') $('#step').click();
      else if (e.key === 'r' || e.key === 'R') run.restart();
      else if (e.key === 'c' || e.key === 'C') {
        if (store.get().compare) run.setState({ compare: null });
        else this.#compareSuggested();
      } else if (e.key === 'f' || e.key === 'F') this.followBtn.click();
    });
  }
}
