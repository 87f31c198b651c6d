// The words over the view: the legend (A, B with where it stopped, the exact ghost), the
// invitation to compare, the canvas's label, the caption (the preset's lesson or the
// system's description), why the curves differ, and the caption of the momentum-sphere
// inset. They follow the store: a new document, a new run built (session `built`).
import { compareSuggestion } from '../state/store.js';
import { externalB } from '../sim/external-b.js';
import { SCENES } from '../scene/scenes.js';
import { failureTime } from '../ui/failure.js';
import { integratorTitle as titleOn, shortTitle, whyText } from '../ui/why.js';
import { el, setChildren, $ } from '../ui/dom.js';
import { createCaptionClaims } from './caption-claims.js';
import { t, registryText, onLanguageChange } from '../i18n/index.js';

/**
 * The legend and captions; render() redraws the legend (B's failure marks its end there),
 * ingest(readA, readB) takes the samples the runner read (the caption's claims).
 */
export function createLegend({ lab, store, runner, view, controls }) {
  // the titles on the run built (its structures: no projection named where nothing is projected)
  const structures = () => store.session.get().built?.structures ?? null;
  // an external B (MuJoCo) by its words, before and after its engine has loaded
  const external = (id) => externalB(id) && { ...externalB(id), title: t(externalB(id).titleKey) };
  const integratorTitle = (id) => titleOn(lab.integrator(id) ?? external(id), structures());
  const insetCaption = $('#inset-caption');
  const claims = createCaptionClaims({ lab, runner, onChange: () => renderCaption(store.get()) });

  function render() {
    const state = store.get();
    const { built } = store.session.get();
    const items = [
      el('li', {}, el('span', { class: 'swatch A', 'aria-hidden': 'true' }), `A · ${integratorTitle(state.scenario.integrator)}`),
    ];
    if (state.compare) {
      const fb = runner.b?.failure;
      const tail = fb ? t('main.legend.stopped', { t: failureTime(fb, state.scenario.h) }) : t('main.legend.ghost');
      items.push(
        el('li', {}, el('span', { class: 'swatch B ghost', 'aria-hidden': 'true' }), `B · ${integratorTitle(state.compare)}${tail}`),
      );
    }
    if (built.exact) items.push(el('li', {}, el('span', { class: 'swatch exact ghost', 'aria-hidden': 'true' }), t('main.legend.exact')));
    setChildren($('#legend'), items);
    claims.stopped();
    const suggested = lab.integrator(compareSuggestion(lab, state.scenario));
    const invite = $('#invite');
    invite.hidden = !!state.compare || !suggested;
    if (suggested) invite.textContent = t('main.invite', { title: shortTitle(suggested, structures()) });
    view.canvas.setAttribute(
      'aria-label',
      t('main.canvas.label', {
        system: registryText('system', lab.system(state.scenario.system), 'title'),
        a: integratorTitle(state.scenario.integrator),
      }) +
        (state.compare ? t('main.canvas.labelB', { b: integratorTitle(state.compare) }) : '') +
        t('main.canvas.hint'),
    );
  }

  function renderCaption(state) {
    const preset = controls.presetFor(state);
    const { text, note } = preset
      ? claims.fill(registryText('preset', preset, 'explanation'))
      : { text: registryText('system', lab.system(state.scenario.system), 'description'), note: '' };
    setChildren($('#caption'), text, note ? el('span', { class: 'claims-note' }, ` ${note}`) : null);
    const A = lab.integrator(state.scenario.integrator);
    const B = state.compare ? (lab.integrator(state.compare) ?? runner.b?.integrator ?? null) : null;
    // what the run holds, from its description (a definition's constraints, a chain's links, a unit quaternion)
    const description = runner.a?.sim.describe();
    const run = {
      momenta: (runner.a?.J0.length ?? 0) > 0,
      constraints: description?.constrained ?? false,
      structures: description?.structures ?? null,
    };
    $('#why').textContent = whyText(A, B, { suggested: lab.integrator(compareSuggestion(lab, state.scenario)), run });
  }

  const insetWords = ({ view: kind, exact }) =>
    SCENES[kind].heavy ? t('main.inset.top') : t('main.inset.free') + (exact ? t('main.inset.exact') : '');

  /** The inset's caption sits above the inset (its rectangle is measured now). */
  function positionInsetCaption() {
    const r = view.insetRect(true);
    if (!r) return;
    Object.assign(insetCaption.style, { left: `${r.left}px`, top: 'auto', bottom: `${r.size + 16}px`, width: `${r.size}px` });
  }

  store.session.subscribe((s, prev) => {
    if (s.built === prev.built) return;
    insetCaption.hidden = !view.inset;
    insetCaption.textContent = insetWords(s.built);
    positionInsetCaption();
    claims.reset(controls.presetFor(store.get()));
    render();
    renderCaption(store.get());
  });
  store.subscribe((state) => renderCaption(state));
  onLanguageChange(() => {
    insetCaption.textContent = insetWords(store.session.get().built);
    render();
    renderCaption(store.get());
  });
  window.addEventListener('resize', () => positionInsetCaption());
  return { render, ingest: (ra, rb) => claims.ingest(ra, rb) };
}
