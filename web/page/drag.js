// Dragging a bob of a chain (paused) sets the start: the positions are projected onto the
// links and carried by them (web/scene/drag.js), and the new initial angles applied.
import { BobDrag, chainInitial } from '../scene/drag.js';
import { SCENES } from '../scene/scenes.js';
import { t } from '../i18n/index.js';
import { apiErrorText } from '../ui/api-error.js';

const planar = (scenario) => !Array.isArray(scenario.initial?.angles?.[0]);

/** The drag; screenOf(visual, i) gives a bob's client coordinates (tests). */
export function createBobDrag({ store, runner, view, run, notices }) {
  return new BobDrag(view, {
    enabled: () => !!SCENES[store.session.get().built.view].drag && !!runner.a,
    positions: () => Float64Array.from(runner.a.visual),
    lengths: () => store.get().scenario.params.lengths,
    planar: () => planar(store.get().scenario),
    onGrab: () => run.setPlaying(false),
    onMove: (positions) => {
      view.A.update(positions);
      view.dirty = true;
    },
    onDrop: (positions) => {
      const st = store.get();
      const initial = chainInitial(positions, st.scenario.params.lengths.length, planar(st.scenario));
      const err = run.setScenario({ ...st.scenario, initial });
      if (err) notices.banner('control', [t('main.drag.refused', { message: apiErrorText(err) })]);
      else notices.status(t('main.drag.done'));
    },
  });
}
