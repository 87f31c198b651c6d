// The readout under the view: simulated time, step, A's fingerprint, and "behind" when
// the frame budget dropped lag; at most every 100 ms unless forced.
import { seconds, shortHash } from '../sim/format.js';
import { t, onLanguageChange } from '../i18n/index.js';
import { $ } from '../ui/dom.js';

export class Readout {
  constructor({ store, runner }) {
    this.runner = runner;
    this.last = 0; // performance.now() of the last update
    this.els = { time: $('#readout-time'), step: $('#readout-step'), fp: $('#fingerprint'), behind: $('#behind') };
    store.session.subscribe((s, prev) => s.built !== prev.built && this.update(true));
    onLanguageChange(() => this.update(true));
  }

  update(force = false) {
    const now = performance.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    const a = this.runner.a;
    if (!a) return;
    const { time, step, fp, behind } = this.els;
    time.textContent = t('main.readout.time', { t: seconds(a.sim.time) });
    step.textContent = t('main.readout.step', { step: a.sim.step });
    const hash = a.sim.hash();
    fp.textContent = `⎔ ${shortHash(hash)}`;
    fp.dataset.hash = hash;
    fp.setAttribute('aria-label', t('main.readout.fpLabel', { hash, step: a.sim.step }));
    behind.hidden = !this.runner.behind;
  }
}
