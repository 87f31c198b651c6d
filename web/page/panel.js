// The settings panel (web/ui/controls.js: system, preset, integrators and badges, the h
// ladder, parameters, options, initial data, the definition editor) wired to the run.
import { Controls } from '../ui/controls.js';
import { $ } from '../ui/dom.js';
import { t, onLanguageChange } from '../i18n/index.js';
import { apiErrorText } from '../ui/api-error.js';
import { integratorTitle } from '../ui/why.js';
import { externalB } from '../sim/external-b.js';

const ELEMENTS = {
  system: '#system',
  preset: '#preset',
  integratorA: '#integrator-a',
  integratorB: '#integrator-b',
  badgesA: '#badges-a',
  badgesB: '#badges-b',
  summaryA: '#summary-a',
  summaryB: '#summary-b',
  params: '#params',
  paramsSection: '#params-section',
  definition: '#definition',
  definitionSection: '#definition-section',
  options: '#options',
  initial: '#initial',
  initialSection: '#initial-section',
  hRange: '#h-range',
  hNumber: '#h-number',
  hUnit: '#h-unit',
  hError: '#h-error',
};

/**
 * The panel's Controls; they render every document and take the badges of each run built.
 * onPresets(fn): fn runs when the presets come in (web/page/presets.js, after the first frame).
 */
export function createPanel({ lab, store, run, notices, presets, onPresets = () => {} }) {
  const els = Object.fromEntries(Object.entries(ELEMENTS).map(([key, selector]) => [key, $(selector)]));
  const report = (err) => {
    if (err) notices.banner('control', [apiErrorText(err)]);
  };
  const controls = new Controls(
    lab,
    store,
    els,
    {
      setScenario: (next) => run.setScenario(next),
      setState: (patch) => report(run.setState(patch)), // reported here: the panel hears nothing back
      setCompare: (id) => {
        const err = run.setState({ compare: id });
        if (err) report(err);
        else
          notices.status(
            id
              ? t('main.comparing', {
                  title: externalB(id)
                    ? t(externalB(id).titleKey)
                    : integratorTitle(lab.integrator(id), store.session.get().built?.structures ?? null),
                })
              : t('main.compareOff'),
          );
      },
      applyPreset: (p) => run.applyPreset(p),
      status: (text) => notices.status(text),
      error: (e) => notices.banner('control', [apiErrorText(e)]),
    },
    presets,
  );
  store.subscribe((state) => controls.render(state));
  // badges only where they apply: the claim kinds of the run's system
  // the run's structures word the badges and the titles (no projection named where nothing is projected)
  store.session.subscribe((s, prev) => {
    if (s.built === prev.built) return;
    if (String(s.built.structures) === String(controls.structures)) return;
    controls.setStructures(s.built.structures);
  });
  onLanguageChange(() => controls.render(store.get()));
  // the menu lists them; a document that is one now is rebuilt with its lesson (caption, plots)
  onPresets(() => {
    controls.presetsChanged();
    if (controls.presetFor(store.get())) run.build(store.get());
  });
  return controls;
}
