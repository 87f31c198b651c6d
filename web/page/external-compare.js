// B from outside vilab's registry (web/sim/external-b.js) for the run (web/page/run.js),
// imported by it the first time one is chosen (and by the controls, for the exporter's
// check): the mechanics' words and MuJoCo's engine (its loader imported by
// web/sim/mujoco-compare.js, its wasm ≈ 10 MB: never in the first load) load when B is
// chosen, a status says so, and B
// is built beside A's run once they are in (brought to A's step). A failed load is
// reported and turns compare off; A's run goes on meanwhile.
import { externalB } from '../sim/external-b.js';
import { t, loadLaterWords } from '../i18n/index.js';
import { apiErrorText } from '../ui/api-error.js';
import { loadMujoco, MUJOCO_MEGABYTES, mujocoSource } from '../sim/mujoco-compare.js';

// the controls' check of what is offered (web/ui/controls.js), in this same chunk
export { mjcfRefusal } from '../sim/mjcf-export.js';

export class ExternalCompare {
  /** @param run the page's Run (lab, store, runner, notices, build) */
  constructor(run) {
    this.run = run;
    this.ready = null; // { mj: MuJoCo's module } once loaded
    this.loading = null;
  }

  /** B built now, when an external B is still the choice (A's run kept unless it stopped; B catches up between frames). */
  rebuild() {
    const { store } = this.run;
    if (externalB(store.get().compare)) this.run.buildBesideA(store.get());
  }

  /**
   * B's source (web/sim/runner.js) for the document, or null: while the engine loads (the
   * load is started, B follows) or when it cannot run this scenario (said in a banner).
   */
  source(state) {
    const ext = externalB(state.compare);
    if (!this.ready) {
      this.#load(ext);
      return null;
    }
    try {
      return mujocoSource(this.ready.mj, this.run.lab, state.scenario, ext, t(ext.titleKey));
    } catch (e) {
      this.run.notices.banner('control', [apiErrorText(e)]);
      return null;
    }
  }

  #load(ext) {
    if (this.loading) return;
    const { notices, store } = this.run;
    this.loading = loadLaterWords()
      .then(() => {
        notices.status(t('mechanics.externalLoading', { engine: ext.engine, mb: MUJOCO_MEGABYTES }));
        return loadMujoco();
      })
      .then(
        (mj) => {
          this.ready = { mj };
          this.loading = null;
          notices.status(t('mechanics.externalLoaded', { engine: ext.engine }));
          this.rebuild();
        },
        (e) => {
          this.loading = null;
          notices.banner('control', [t('mechanics.externalFailed', { engine: ext.engine, message: String(e?.message ?? e) })]);
          store.set({ compare: null });
        },
      );
  }
}
