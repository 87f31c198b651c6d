// The place of the diagnostics plots (web/plots/plots.js) before their code is in: it is
// fetched after the page's first frame, with the plots' English words (start(), called by
// the frame loop), not in the first load. Until then the calls that set the plots up or feed
// them (configure, the samples, the window, the lesson's view) are kept in order and
// replayed once the plots stand here, so they end as if they had been there from the
// start; a new run's configure drops the samples of the one before (configure starts the
// plots' tables afresh). The calls that only draw wait for the plots' own first drawing,
// and those that read answer as plots without data.
//
// A broken run is stopped by the runner's own check (web/sim/runner.js), which reads every
// sample before the plots get it; the plots' check (onBreakdown) only repeats it.
import { loadLaterWords, onLanguageChange } from '../i18n/index.js';

const FEEDS = new Set(['ingest', 'samplePhase', 'clearData']);

export class PlotsSlot {
  /** host and opts as Plots takes them (web/plots/plots.js). */
  constructor(host, opts = {}) {
    this.host = host;
    this.opts = opts;
    this.plots = null;
    this.calls = []; // [method, args] in order, until the plots are in; null after
    this.pendingRun = null;
    this.loading = null;
    // listened here, where the page makes the plots: their cards are re-worded before a later
    // listener (the frame loop's live summary) reads their titles
    this.offLanguage = onLanguageChange(() => this.plots?.reword());
  }

  /**
   * Fetches the plots' code and words once, replays what they missed, then starts them
   * (uPlot). Words that fail to come do not keep the plots out: a card then shows its key.
   */
  start() {
    this.loading ??= Promise.all([import('./plots.js'), loadLaterWords().catch(() => {})]).then(
      ([{ Plots }]) => {
        const calls = this.calls;
        this.calls = null;
        // in place before the replay: what a replayed call sets off reaches the plots themselves
        this.plots = new Plots(this.host, this.opts);
        for (const [method, args] of calls) this.plots[method](...args);
        return this.plots.start();
      },
      (e) => {
        this.calls = null; // nothing keeps growing for plots that will not come
        throw e;
      },
    );
    return this.loading;
  }

  #keep(method, args) {
    if (this.plots) return this.plots[method](...args);
    if (!this.calls) return undefined;
    if (method === 'configure') {
      this.pendingRun = args[0];
      this.calls = this.calls.filter(([m]) => !FEEDS.has(m));
    }
    this.calls.push([method, args]);
    return undefined;
  }

  // The plots' methods, by what the slot does with a call before they are in: kept and
  // replayed, dropped (drawing), or answered as by plots without data.
  static {
    for (const method of ['configure', ...FEEDS, 'setWindow', 'setView', 'setLesson', 'setProjector', 'enlarge'])
      PlotsSlot.prototype[method] = function (...args) {
        return this.#keep(method, args);
      };
    for (const method of ['tick', 'drawAll', 'retheme', 'resize', 'energyBars'])
      PlotsSlot.prototype[method] = function (...args) {
        this.plots?.[method](...args);
      };
    const empty = { summary: () => '', latestValues: () => ({}), span: () => null, textSize: () => null, yRange: () => null };
    for (const [method, none] of Object.entries(empty))
      PlotsSlot.prototype[method] = function (...args) {
        return this.plots ? this.plots[method](...args) : none();
      };
  }

  /** The run set up last (its labels are re-worded in place on a language change). */
  get run() {
    return this.plots ? this.plots.run : this.pendingRun;
  }
  get description() {
    return this.run?.description;
  }
  get featured() {
    return this.plots?.featured ?? null;
  }
  get hiddenCount() {
    return this.plots?.hiddenCount ?? 0;
  }

  destroy() {
    this.plots?.destroy();
    this.calls = null;
    this.offLanguage?.();
  }
}
