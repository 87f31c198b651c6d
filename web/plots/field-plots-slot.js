// The place of the field plots (web/plots/field-plots.js: a field run's space–time image,
// kinks and law card) before their code is in. A field runs on the full build only (the
// lean one refuses it), so their code comes with the full build (web/sim/page-lab.js
// withFullBuild), not in the page's first load; until then every run is one without them.
export class FieldPlotsSlot {
  constructor(host) {
    this.host = host;
    this.plots = null;
    this.projector = null;
    this.loading = null;
  }

  /** Fetches the field plots' code once; resolves when they stand in this slot. */
  load() {
    this.loading ??= import('./field-plots.js').then(({ FieldPlots }) => {
      this.plots = new FieldPlots(this.host);
      if (this.projector) this.plots.useProjector(this.projector);
    });
    return this.loading;
  }

  useProjector(projector) {
    this.projector = projector;
    this.plots?.useProjector(projector);
  }

  /** FieldPlots.configure; before the code is in, a run without the image (rows { every: 0 }). */
  configure(run) {
    if (this.plots) return this.plots.configure(run);
    if (run?.u0?.length) console.warn('field plots: a field run before the full build'); // not reached: fields need the full build
    this.host.hidden = true;
    return { every: 0, keep: 0 };
  }

  sample(runner) {
    this.plots?.sample(runner);
  }

  tick(now) {
    this.plots?.tick(now);
  }

  state() {
    return this.plots?.state() ?? null;
  }
}
