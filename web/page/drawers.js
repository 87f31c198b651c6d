// The drawers: Explain (KaTeX docs of the run, the lesson last opened and the studies),
// Studies (lessons and studies in workers) — both fetched when first opened — and Help.
import { LazyDrawer } from '../ui/drawer.js';
import { $ } from '../ui/dom.js';
import { registryText, loadLaterWords } from '../i18n/index.js';

/** Where a track is now, for a study started mid-run. */
const where = (track) => track && { q: track.sim.q, p: track.sim.p, step: track.sim.step, time: track.sim.time };

/** The Explain and Studies drawers (they follow the document) and the Help drawer. */
export function createDrawers({ lab, store, runner, presets, loadPresets = async () => presets, run }) {
  // fetched when first opened (web/ui/explain.js, web/ui/studies.js and the lessons)
  const explain = new LazyDrawer($('#explain'), $('#explain-button'), async (root, button) => {
    const { ExplainDrawer } = await import('../ui/explain.js');
    // what A's run keeps (its description), named by the system it runs
    const describe = () => runner.a && { ...runner.a.sim.describe(), system: runner.a.sim.scenario().system };
    return new ExplainDrawer(root, button, lab, { describe });
  });
  const studies = new LazyDrawer($('#studies'), $('#studies-button'), async (root, button) => {
    // its words, and the presets its lessons start from
    const [{ StudiesDrawer }] = await Promise.all([import('../ui/studies.js'), loadLaterWords(), loadPresets()]);
    return new StudiesDrawer(root, button, {
      lab,
      getState: () => store.get(),
      getRun: () => ({ A: where(runner.a), B: where(runner.b), structures: runner.a?.sim.describe().structures ?? null }),
      presets,
      // a lesson comes as its preset, or as a preset made of its own set-up; fromLesson names
      // the lesson (its activity, web/page/activity.js)
      applyLesson: ({ preset, scenario, compare }, lesson) =>
        run.applyPreset({
          ...(preset ?? { id: lesson.id, title: registryText('lesson', lesson, 'title'), scenario, compare }),
          fromLesson: lesson,
        }),
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

  explain.update(store.get());
  store.session.subscribe((session, prev) => session.built !== prev.built && explain.update(store.get()));
  store.subscribe((state, prev) => {
    explain.update(state);
    if (state.scenario !== prev.scenario || state.compare !== prev.compare) studies.update();
  });
}
