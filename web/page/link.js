// Links: the link the page opens with, a link pasted into the open page (hashchange),
// landing paused on a link's step, the fingerprint check a link asks for (session
// `linkCheck`, shown from `linkVerdict`), the address bar kept up to date with the
// document, "Copy link" (URL, fingerprint and words from one snapshot) and "Open link"
// (any vilab link's #… part, for the single file).
import { needsFull } from '../sim/page-lab.js';
import { fixed, shortHash } from '../sim/format.js';
import { compareScenario, defaultState } from '../state/store.js';
import { decodeState, encodeState, MAX_DEFINITION_BYTES } from '../state/url.js';
import { $ } from '../ui/dom.js';
import { durationText } from '../ui/landing.js';
import { t, onLanguageChange } from '../i18n/index.js';
import { LANDING_BOUND_MS, whenIdle } from './landing.js';
import { landingEstimate } from '../sim/landing-estimate.js';
import { apiError } from '../ui/api-error.js';
import { externalB } from '../sim/external-b.js';

/** decodeState, and B's scenario too: either may need the full build (VilabError code 'full-module'). */
function decodeRunnable(lab, hash) {
  const decoded = decodeState(lab, hash);
  if (decoded.state.compare && !externalB(decoded.state.compare)) compareScenario(lab, decoded.state.scenario, decoded.state.compare);
  return decoded;
}

/** A bad link: its field and problem, in words, and what the page shows instead (the defaults, or the run it kept). */
function reportLink(notices, e, { kept }) {
  const { field, problem } = apiError(e);
  const [withField, without] = kept
    ? ['main.link.invalidField.kept', 'main.link.invalidKept']
    : ['main.link.invalidField.after', 'main.link.invalid'];
  notices.banner(
    'link',
    field ? [t('main.link.invalidField.before'), { code: field }, t(withField, { problem })] : [t(without, { problem })],
  );
}

/**
 * The link the page opens with, { state, camera, fingerprint, at }, the full build loaded
 * first when it needs it; a bad link is reported and removed, and the defaults open.
 */
export async function readStartLink(lab, notices) {
  const start = { state: defaultState(lab), camera: null, fingerprint: null, at: null };
  if (location.hash.length <= 1) return start;
  try {
    // a link's run is not the default one the first part of the lean module holds
    await lab.loadDeferred().catch(() => {}); // else fetched when first needed
    const { state, camera, fingerprint, at } = await lab.withFull(() => decodeRunnable(lab, location.hash));
    return { state, camera, fingerprint, at };
  } catch (e) {
    reportLink(notices, e, { kept: false });
    history.replaceState(null, '', location.pathname + location.search);
    return { ...start, state: defaultState(lab) };
  }
}

/** The address bar follows the document, 150 ms after its last change (replaceState: no hashchange). */
class AddressBar {
  constructor(lab, store) {
    this.lab = lab;
    this.store = store;
    this.timer = 0;
    store.subscribe(() => this.later());
  }

  write() {
    const hash = encodeState(this.lab, this.store.get());
    history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
  }

  later() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.write(), 150);
  }

  cancel() {
    clearTimeout(this.timer);
  }
}

/**
 * The page's links: arrive(link) sets a link's camera and fingerprint check, land(at) opens
 * it paused on its step (or playing), check(step) verifies the fingerprint (the runner's
 * onTarget), shareSnapshot() / shareURL() what "Copy link" gives.
 */
export class Links {
  constructor({ lab, store, runner, view, plots, notices, run, embedKeys, siteURL, reducedMotion }) {
    Object.assign(this, { lab, store, runner, view, plots, notices, run, embedKeys, siteURL, reducedMotion });
    this.session = store.session;
    this.verdictEl = $('#fp-check');
    this.address = new AddressBar(lab, store);
    $('#copy-link').addEventListener('click', () => this.#copyLink());
    $('#open-link').addEventListener('click', () => this.#openLink());
    window.addEventListener('hashchange', (event) => this.#openPasted(event));
    this.session.subscribe((s, prev) => s.linkVerdict !== prev.linkVerdict && this.#showVerdict(s.linkVerdict));
    onLanguageChange(() => this.#showVerdict(this.session.get().linkVerdict));
  }

  /** Verifies A's fingerprint against the link's when A is on the link's step. */
  check(step) {
    const expected = this.session.get().linkCheck;
    if (!expected || expected.step !== step) return;
    const mine = this.runner.a.sim.hash();
    const ok = mine.startsWith(expected.hash) || expected.hash.startsWith(mine);
    this.session.set({ linkCheck: null, linkVerdict: { ok, step, hash: expected.hash } });
    this.notices.status(ok ? t('main.fp.sameStatus', { step }) : t('main.fp.differsStatus', { step }));
  }

  #showVerdict(verdict) {
    const node = this.verdictEl;
    node.hidden = !verdict;
    if (!verdict) return;
    node.className = `check ${verdict.ok ? 'ok' : 'bad'}`;
    node.textContent = t(verdict.ok ? 'main.fp.same' : 'main.fp.differs', { step: String(verdict.step), hash: shortHash(verdict.hash) });
  }

  /** A link's camera, and its fingerprint to verify: now on step 0, else when the runner lands on its step. */
  arrive({ camera, fingerprint }) {
    if (camera) this.view.setCamera(camera);
    this.session.set({ linkCheck: fingerprint ?? null });
    if (!fingerprint) return;
    if (fingerprint.step === 0) this.check(0);
    else this.runner.target = fingerprint.step;
  }

  /**
   * A link with `at` opens paused on that step (landing time-sliced, with Cancel; refused
   * beyond the bound, the run then staying at step 0); any other plays unless motion is
   * reduced or it says paused. Returns the landing's promise (web/page/landing.js), or null.
   * lessonTime: the step is a lesson's jumpTo (s), which a refusal then names.
   */
  land(at, { estimateMs, lessonTime } = {}) {
    if (at) return this.#landOn(at, estimateMs, lessonTime);
    this.run.setPlaying(!this.reducedMotion.matches && !this.embedKeys.paused);
    return null;
  }

  /**
   * The page's start link: as land(at), but a landing starts once `opened` resolves (the page
   * open: its first frame, plots and panels) and the page is idle, so that no slice shares a
   * frame with the opening's own long tasks. Nothing lands if the reader (or a host page)
   * moved the run meanwhile: rebuilt, stepped, playing or landing elsewhere.
   */
  async landOnceOpen(at, opened) {
    if (!at) return this.land(at);
    // measured now, as the link's rule says (an external B catches up after), before the
    // opening's background work (MuJoCo's or the full build's compiling) can skew the rate
    const estimateMs = this.#landingEstimate({ state: this.store.get(), at });
    if (estimateMs > LANDING_BOUND_MS) return this.land(at, { estimateMs }); // refused at once
    this.notices.status(t('main.landing', { step: at }));
    const first = this.runner.a;
    await opened.catch(() => {});
    await whenIdle();
    const untouched = this.runner.a === first && this.runner.step === 0 && !this.session.get().playing && !this.run.landing.active;
    return untouched ? this.land(at, { estimateMs }) : null;
  }

  async #landOn(target, estimateMs, lessonTime) {
    const { runner, run, notices } = this;
    const lesson = lessonTime != null;
    if (!lesson) notices.status(t('main.landing', { step: target })); // a lesson says so itself (layout.jumping)
    const label = lesson
      ? { key: 'landing.lesson', params: { t: lessonTime, step: target } }
      : { key: 'landing.link', params: { step: target } };
    const result = await run.landAt(target, { estimateMs, label });
    if (result.refused) {
      this.#refuseAt(target, result.estimateMs, { kept: false, lessonTime });
      runner.target = null;
      this.session.set({ linkCheck: null });
      this.address.write(); // the address no longer asks for the step
    } else if (result.cancelled) notices.status(t('landing.cancelled', { step: result.step, goal: target }));
    else if (!result.failure && !lesson) notices.status(t('main.landed', { step: runner.step }));
    return result;
  }

  /**
   * A link's `at` refused for the time its landing would take (kept: the run shown stays;
   * else it opens at step 0), or a lesson's jumpTo (lessonTime, s: the run stays paused).
   */
  #refuseAt(step, estimateMs, { kept, lessonTime = null }) {
    const words = { step, estimate: durationText(estimateMs), bound: durationText(LANDING_BOUND_MS) };
    if (lessonTime != null) {
      this.notices.banner('link', [t('landing.tooLong.lesson', { ...words, t: lessonTime })], { data: { field: 'lesson.jumpTo' } });
      return;
    }
    this.notices.banner(
      'link',
      [t('landing.tooLong.before'), { code: 'at' }, t(kept ? 'landing.tooLong.kept' : 'landing.tooLong.start', words)],
      {
        data: { field: 'at' },
      },
    );
  }

  /** The time a link's landing would take at the measured rate (ms; 0 without `at`). */
  #landingEstimate({ state, at }) {
    if (!at) return 0;
    // an external B (MuJoCo) is not part of the link's landing: it loads and catches up after
    const ownB = state.compare && !externalB(state.compare);
    const scenarios = [state.scenario, ...(ownB ? [compareScenario(this.lab, state.scenario, state.compare)] : [])];
    return landingEstimate(this.lab, scenarios, at);
  }

  // A link pasted into the address bar of an open page changes only its # part: open it
  // in place. A bad one is named and the current run kept. (The page's own URL updates
  // use history.replaceState, which fires no hashchange.)
  #openPasted(event) {
    const { lab, notices } = this;
    // the link as pasted (event.newURL): a pending URL update of the old run must not replace it
    this.address.cancel();
    const pasted = new URL(event.newURL).hash;
    let decoded;
    try {
      decoded = decodeRunnable(lab, pasted);
    } catch (e) {
      if (needsFull(e)) {
        // open it once the full build is in (unless another link came meanwhile)
        notices.status(t('main.loadingFull'));
        lab
          .loadFull()
          .then(() => location.hash === pasted && window.dispatchEvent(new HashChangeEvent('hashchange', { newURL: location.href })));
        return;
      }
      reportLink(notices, e, { kept: true });
      this.address.write();
      return;
    }
    // a landing beyond the bound is refused before anything changes: the run shown stays
    const estimateMs = this.#landingEstimate(decoded);
    if (estimateMs > LANDING_BOUND_MS) {
      this.#refuseAt(decoded.at, estimateMs, { kept: true });
      this.address.write();
      return;
    }
    notices.dismiss('link');
    this.store.set(decoded.state, { rebuild: true, cause: 'link' });
    this.arrive(decoded);
    this.land(decoded.at, { estimateMs });
  }

  /** The share link: the URL, its fingerprint and the text all come from one snapshot. */
  shareSnapshot() {
    const a = this.runner.a;
    const step = a ? a.sim.step : 0;
    const hash = a ? a.sim.hash() : null;
    const fingerprint = step > 0 ? { step, hash } : null;
    // the single file's links point at the hosted page when the build names it (VITE_SITE_URL)
    const url = new URL(this.siteURL || location.href);
    url.hash = encodeState(this.lab, this.store.get(), { camera: this.view.getCamera(), fingerprint, at: step });
    if (!this.embedKeys.embed) url.searchParams.delete('embed');
    return { url: url.toString(), step, hash };
  }

  shareURL() {
    return this.shareSnapshot().url;
  }

  async #copyLink() {
    const notices = this.notices;
    const snap = this.shareSnapshot();
    const url = snap.url;
    // a file:// address (the single file built without VITE_SITE_URL) names a file on this computer only
    const local = new URL(url).protocol === 'file:';
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
        ...(local ? [t('words.share.fileOnly')] : []),
      ],
      { kind: local ? 'warn' : 'info', data: { step: String(snap.step), hash: snap.hash ?? '', local: String(local) } },
    );
    notices.status(t(copied ? 'main.share.copiedStatus' : 'main.share.shownStatus'));
    // a definition beyond what links carry: say so now, not when the link is opened
    const st = this.store.get();
    const defBytes = this.lab.system(st.scenario.system)?.dataParams
      ? new TextEncoder().encode(JSON.stringify(st.scenario.params)).length
      : 0;
    if (defBytes > MAX_DEFINITION_BYTES) {
      notices.banner('share-size', [t('main.share.tooLarge', { kb: fixed(defBytes / 1024, 1), max: MAX_DEFINITION_BYTES / 1024 })], {
        kind: 'warn',
      });
    } else notices.dismiss('share-size');
  }

  // the single file opens a link from the hosted page (or from another copy) by its #… part
  #openLink() {
    const text = prompt(t('main.openLink.prompt'));
    if (!text) return;
    const at = text.indexOf('#');
    if (at < 0) {
      this.notices.banner('link', [t('main.openLink.noHash')]);
      return;
    }
    location.hash = text.slice(at);
    location.reload();
  }
}
