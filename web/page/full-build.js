// What the full build's runs need besides its module: the field plots (a field run's
// space–time image, kinks and law card) and the scenes of systems defined by data,
// mechanisms and fields. Those systems
// run on the full build only, so their code is fetched with it (web/sim/page-lab.js
// withFullBuild), not in the page's first load.
import { FieldPlotsSlot } from '../plots/field-plots-slot.js';
import { loadFullBuildScenes } from '../scene/scenes.js';
import { $ } from '../ui/dom.js';

/** { fieldPlots: the slot the page draws field plots in, withFullBuild: () => Promise of their code and the scenes' }. */
export function fullBuildParts() {
  const fieldPlots = new FieldPlotsSlot($('#field-plots'));
  return { fieldPlots, withFullBuild: () => Promise.all([fieldPlots.load(), loadFullBuildScenes()]) };
}
