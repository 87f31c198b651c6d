// Controls generated from the API's registries (never a hand-kept copy of ids,
// titles, parameters, units or ranges): system, preset, integrators A and B with
// badges, h (log slider), parameters, integrator options and initial data.
//
// Every change goes through actions.setScenario(next) which validates with
// lab.normalize; a problem comes back as the API's 'vilab: <field>: <problem>'
// and is shown next to the field.
import { el, setChildren, uniqueId } from './dom.js';
import { t, registryText, onLanguageChange, claimText, paramText, loadLaterWords } from '../i18n/index.js';
import { integratorTitle } from './why.js';
import { numberField, columnNames, rowNoun } from './fields.js';
import { clone } from '../state/store.js';
import { presetMatching } from '../sim/preset-data.js';
import { apiError } from './api-error.js';
import { num } from '../sim/format.js';
import { externalB, externalBFor } from '../sim/external-b.js';

/**
 * Badges for an integrator, from its registry entry: its claims, only those whose kind
 * the system has (structures: sim.describe().structures; null = all) — no "momentum
 * map" on a system without a symmetry, no "constraints" on the oscillator.
 */
export function badges(integ, structures = null) {
  if (!integ) return [];
  const out = [
    { text: t('controls.badge.order', { n: integ.order }), kind: 'order' },
    { text: t(`controls.family.${integ.family}`), kind: integ.family === 'baseline' ? 'plain' : 'good' },
  ];
  if (!integ.symplectic) out.push({ text: t('controls.badge.notSymplectic'), kind: 'warn' });
  const claims = (integ.claims ?? (integ.conserves ?? []).map((text) => ({ kind: 'other', text }))).filter(
    (c) => !structures || c.kind === 'other' || structures.includes(c.kind),
  );
  for (const c of claims) out.push({ text: claimText(c.text), kind: 'good' });
  if (!claims.length) out.push({ text: t('controls.badge.nothing'), kind: 'warn' });
  return out;
}

export function badgeList(integ, id, structures = null) {
  return el(
    'ul',
    { class: 'badges', id, 'aria-label': t('controls.badges.label', { title: integratorTitle(integ, structures) }) },
    badges(integ, structures).map((b) => el('li', { class: `badge ${b.kind}` }, b.text)),
  );
}

/** Surface gravity (m/s²) of places a class knows. */
const GRAVITY = [
  ['Earth', 9.81],
  ['Moon', 1.62],
  ['Mars', 3.71],
  ['Jupiter', 24.79],
  ['zero gravity', 0],
];

/** Angles and angular rates are shown in degrees (the schema keeps radians). */
const DEGREES = { rad: { unit: '°', factor: 180 / Math.PI }, 'rad/s': { unit: '°/s', factor: 180 / Math.PI } };
const shown = (x, factor) => (factor === 1 ? x : Number((x * factor).toPrecision(10)));

/** Nice h values (1, 1.5, 2, 3, 5, 7 × 10^k) in [lo, hi], and hi itself (the system's h.max). */
export function hLadder(lo, hi) {
  const out = [];
  for (let e = -5; e <= 2; e++) {
    for (const m of [1, 1.5, 2, 3, 5, 7]) {
      const v = Number((m * 10 ** e).toPrecision(3));
      if (v >= lo * (1 - 1e-12) && v <= hi) out.push(v);
    }
  }
  if (!(out.at(-1) >= hi)) out.push(hi);
  return out;
}

export class Controls {
  /**
   * @param lab
   * @param store
   * @param els      { system, preset, integratorA, integratorB, params, initial, options, hRange, hNumber, ... }
   * @param actions  { setScenario(s) → error|null, setCompare(id|null), applyPreset(preset), status(text) }
   * @param presets  [{id, title, explanation, scenario, compare?}]
   */
  constructor(lab, store, els, actions, presets) {
    this.lab = lab;
    this.store = store;
    this.els = els;
    this.actions = actions;
    this.presets = presets;
    this.#buildSystemSelect();
    this.#buildPresetSelect();
    // the definition editor, for systems whose registry entry has `definition`: its own
    // chunk, fetched the first time such a system is shown
    this.editor = null;
    this.editorLoading = null;
    els.integratorA.addEventListener('change', () => this.#setIntegrator(els.integratorA.value));
    els.integratorB.addEventListener('change', () => actions.setCompare(els.integratorB.value || null));
    els.hRange.addEventListener('input', () => {
      const v = this.ladder[Number(els.hRange.value)];
      els.hNumber.value = String(v);
      els.hRange.setAttribute('aria-valuetext', `h = ${num(v, 6)} s`);
    });
    els.hRange.addEventListener('change', () => this.#setH(this.ladder[Number(els.hRange.value)]));
    els.hNumber.addEventListener('change', () => this.#setH(Number(els.hNumber.value)));
    this.lastSystem = null;
    this.lastIntegrator = null;
    this.structures = null; // the run's claim kinds (setStructures)
    // a new language: the selects' texts, then everything render() writes
    onLanguageChange(() => {
      this.#relabelSelects();
      this.lastIntegrator = null;
      this.formKey = null;
      this.render(this.store.get());
    });
    this.render(store.get());
  }

  /** The claim kinds the current run's system has (sim.describe().structures); re-renders the badges. */
  setStructures(structures) {
    this.structures = structures ? structures.slice() : null;
    this.lastIntegrator = null;
    this.render(this.store.get());
  }

  /** The option texts of the system and preset selects, in the current language. */
  #relabelSelects() {
    for (const o of this.els.system.options) o.textContent = registryText('system', this.lab.system(o.value), 'title');
    const s = this.els.preset;
    s.options[0].textContent = t('controls.preset.choose');
    for (const g of s.querySelectorAll('optgroup')) g.label = registryText('system', this.lab.system(g.dataset.system), 'title');
    for (const o of s.querySelectorAll('option[value]:not([value=""])'))
      o.textContent = registryText(
        'preset',
        this.presets.find((p) => p.id === o.value),
        'title',
      );
  }

  #buildSystemSelect() {
    const s = this.els.system;
    setChildren(
      s,
      this.lab.systems.map((sys) => el('option', { value: sys.id }, registryText('system', sys, 'title'))),
    );
    s.addEventListener('change', () => {
      const id = s.value;
      const current = this.store.get();
      const compare = current.compare && this.lab.integrator(current.compare)?.systems.includes(id) ? current.compare : null;
      // setState normalizes (and waits for the full build when the system needs it)
      const err = this.actions.setState({ scenario: { system: id }, compare });
      if (err) this.actions.error(err);
      else this.actions.status(t('controls.status.system', { title: registryText('system', this.lab.system(id), 'title') }));
    });
  }

  #buildPresetSelect() {
    const s = this.els.preset;
    this.#fillPresetSelect();
    s.addEventListener('change', () => {
      const p = this.presets.find((x) => x.id === s.value);
      if (p) this.actions.applyPreset(p);
    });
  }

  /** The presets came in (web/page/presets.js: after the first frame): the menu lists them, the document's selected. */
  presetsChanged() {
    this.#fillPresetSelect();
    const preset = this.presetFor(this.store.get());
    this.els.preset.value = preset ? preset.id : '';
  }

  #fillPresetSelect() {
    const s = this.els.preset;
    const opts = [el('option', { value: '' }, t('controls.preset.choose'))];
    const groups = new Map();
    for (const p of this.presets) {
      const system = this.lab.system(p.scenario.system);
      const key = p.scenario.system;
      if (!groups.has(key))
        groups.set(key, el('optgroup', { label: system ? registryText('system', system, 'title') : key, dataset: { system: key } }));
      groups.get(key).append(el('option', { value: p.id }, registryText('preset', p, 'title')));
    }
    setChildren(s, opts, [...groups.values()]);
  }

  #setIntegrator(id) {
    const st = this.store.get();
    const { options: _o, ...rest } = st.scenario;
    const err = this.actions.setScenario({ ...rest, integrator: id });
    if (err) this.actions.error(err);
  }

  #setH(h) {
    const st = this.store.get();
    const err = this.actions.setScenario({ ...st.scenario, h });
    const { problem } = err ? apiError(err) : { problem: '' };
    this.els.hError.textContent = err ? problem : '';
    if (err) {
      this.els.hNumber.setAttribute('aria-invalid', 'true');
      this.els.hNumber.value = String(st.scenario.h);
    } else this.els.hNumber.removeAttribute('aria-invalid');
  }

  /** The preset the document is (web/sim/preset-data.js), or null. */
  presetFor(state) {
    return presetMatching(this.lab, this.presets, state);
  }

  render(state) {
    const { lab, els } = this;
    const sc = state.scenario;
    const system = lab.system(sc.system);
    els.system.value = sc.system;
    const preset = this.presetFor(state);
    els.preset.value = preset ? preset.id : '';
    // integrators supported by the system, in registry order
    const supported = lab.integrators.filter((i) => i.systems.includes(sc.system));
    setChildren(
      els.integratorA,
      supported.map((i) => el('option', { value: i.id }, integratorTitle(i, this.structures))),
    );
    els.integratorA.value = sc.integrator;
    const external = this.#externalChoices(sc);
    setChildren(
      els.integratorB,
      el('option', { value: '' }, t('controls.compare.off')),
      supported.map((i) => el('option', { value: i.id }, integratorTitle(i, this.structures))),
      external.offered.map((e) => el('option', { value: e.id }, t(e.titleKey))),
    );
    els.integratorB.value = state.compare ?? '';
    els.badgesA.replaceWith((els.badgesA = badgeList(lab.integrator(sc.integrator), 'badges-a', this.structures)));
    const ext = externalB(state.compare);
    const bInteg = state.compare && !ext ? lab.integrator(state.compare) : null;
    els.badgesB.replaceWith((els.badgesB = badgeList(bInteg, 'badges-b', this.structures)));
    els.badgesB.hidden = !bInteg;
    els.summaryA.textContent = registryText('integrator', lab.integrator(sc.integrator), 'summary');
    // an external B's note, or why none is offered (web/sim/external-b.js)
    els.summaryB.textContent = bInteg
      ? registryText('integrator', bInteg, 'summary')
      : ext
        ? t('mechanics.compare.externalNote', { engine: ext.engine })
        : `${t('controls.compare.hint')}${external.refused ? ` ${external.refused}` : ''}`;
    // h
    const hs = system.h;
    const lo = Math.max(hs.min > 0 ? hs.min : 1e-4, 1e-4);
    this.ladder = hLadder(lo, hs.max); // never above the system's largest h
    if (!this.ladder.includes(sc.h)) this.ladder = [...this.ladder, sc.h].sort((a, b) => a - b);
    els.hRange.min = '0';
    els.hRange.max = String(this.ladder.length - 1);
    els.hRange.step = '1';
    els.hRange.value = String(this.ladder.indexOf(sc.h));
    els.hRange.setAttribute('aria-valuetext', `h = ${num(sc.h, 6)} s`);
    els.hNumber.value = String(sc.h);
    els.hNumber.max = String(hs.max);
    els.hUnit.textContent = hs.unit ?? 's';
    els.hError.textContent = '';
    // rebuild the forms when the system or integrator changes, else refresh values
    const key = `${sc.system}|${sc.integrator}|${JSON.stringify(sc.params)}|${JSON.stringify(sc.initial)}|${JSON.stringify(sc.options)}`;
    if (key !== this.formKey) {
      this.formKey = key;
      this.#renderParams(state);
      this.#renderOptions(state);
      this.#renderInitial(state);
    }
    // a system defined by data has no registry parameters: its editor takes their place
    if (els.paramsSection) els.paramsSection.hidden = els.params.childElementCount === 0;
    // …and owns the initial data (a new definition and initial data that fits it apply together)
    if (els.initialSection) els.initialSection.hidden = !!system.definition;
    if (this.editor) this.editor.render(state);
    else if (els.definition) {
      els.definitionSection.hidden = true;
      if (system.definition) this.#loadEditor();
    }
  }

  /**
   * The external Bs (web/sim/external-b.js) offered for this scenario, or, when the
   * mechanism has no MJCF form, none and why ({ offered, refused }). The exporter's check
   * comes with the external B's chunk, fetched the first time such a system is shown (none
   * offered before).
   */
  #externalChoices(sc) {
    const offered = externalBFor(sc.system);
    if (!offered.length) return { offered, refused: null };
    if (!this.mjcf) {
      // offered once the check and its words (the mechanics' later words) are in
      this.mjcfLoading ??= Promise.all([import('../page/external-compare.js'), loadLaterWords()]).then(([m]) => {
        this.mjcf = m;
        this.render(this.store.get());
      });
      return { offered: [], refused: null };
    }
    const why = this.mjcf.mjcfRefusal(sc);
    if (!why) return { offered, refused: null };
    return {
      offered: [],
      refused: t('mechanics.compare.externalRefused', { engine: offered[0].engine, field: why.field, reason: why.reason }),
    };
  }

  #loadEditor() {
    // the panel's code and its English words (left out of the page: i18n loadLaterWords)
    this.editorLoading ??= Promise.all([import('./lagrangian-editor.js'), loadLaterWords()]).then(([{ LagrangianEditor }]) => {
      const { els, actions } = this;
      this.editor = new LagrangianEditor(els.definitionSection, els.definition, this.lab, this.store, {
        setScenario: actions.setScenario,
        status: actions.status,
      });
      this.editor.render(this.store.get());
    });
  }

  // ---- parameters ------------------------------------------------------------

  #commit(mutate, field) {
    const st = this.store.get();
    const next = clone(st.scenario);
    mutate(next);
    const err = this.actions.setScenario(next);
    if (err) {
      field?.setError(apiError(err).problem);
      return false;
    }
    field?.setError('');
    return true;
  }

  #renderParams(state) {
    const sc = state.scenario;
    const system = this.lab.system(sc.system);
    const host = this.els.params;
    setChildren(host);
    const count = this.#countField(sc, system);
    if (count) host.append(count);
    for (const raw of system.params) {
      const spec = { ...raw, title: paramText(sc.system, raw, 'title'), description: paramText(sc.system, raw, 'description') };
      const value = sc.params[spec.name];
      if (Array.isArray(value)) {
        const uniform = value.length > 3 && value.every((x) => x === value[0]);
        host.append(uniform ? this.#uniformField(spec, value) : this.#componentGroup(spec, value));
      } else if (typeof value === 'number') {
        const f = numberField({
          label: spec.title,
          unit: spec.unit,
          value,
          spec,
          description: spec.description,
          onCommit: (v) => this.#commit((next) => (next.params[spec.name] = v), f),
        });
        host.append(f.root);
        if (spec.quantity === 'gravity') host.append(this.#gravityPresets(spec, value));
      } else if (Array.isArray(spec.choices)) host.append(this.#choiceField(spec, value));
    }
  }

  /** A count control when per-body params may change length (the chain), or null. */
  #countField(sc, system) {
    const perBody = system.params.filter((p) => p.kind === 'per-body');
    const variable = perBody.find((p) => p.minCount !== p.maxCount);
    if (!variable) return null;
    const n = sc.params[variable.name].length;
    const f = numberField({
      label: t('controls.bodies'),
      unit: '',
      value: n,
      step: 1,
      spec: { min: variable.minCount, max: variable.maxCount },
      description: t(variable.description.includes('link') ? 'controls.bodies.links' : 'controls.bodies.bodies', {
        min: variable.minCount,
        max: variable.maxCount,
      }),
      onCommit: (v) =>
        this.#commit((next) => {
          const N = Math.round(v);
          if (!Number.isFinite(N)) {
            next.params[variable.name] = 'not a number';
            return;
          }
          for (const p of perBody) {
            const arr = next.params[p.name];
            const last = arr[arr.length - 1];
            next.params[p.name] = Array.from({ length: N }, (_, i) => (i < arr.length ? arr[i] : last));
          }
          delete next.initial; // the defaults resize with N
        }, f),
    });
    return f.root;
  }

  /** One field for a long array of equal values ("… of each"). */
  #uniformField(spec, value) {
    const f = numberField({
      label: t('controls.each', { title: spec.title }),
      unit: spec.unit,
      value: value[0],
      spec,
      description: spec.description,
      onCommit: (v) => this.#commit((next) => (next.params[spec.name] = next.params[spec.name].map(() => v)), f),
    });
    return f.root;
  }

  /** A field per component of an array parameter, in a fieldset. */
  #componentGroup(spec, value) {
    const group = el(
      'fieldset',
      { class: 'field-group' },
      el('legend', {}, spec.title, el('span', { class: 'unit' }, spec.unit ? ` (${spec.unit})` : '')),
    );
    value.forEach((x, i) => {
      // vector3 parameters live in the body frame: components along e₁, e₂, e₃
      const label = spec.kind === 'vector3' ? t('controls.along', { i: '₁₂₃'[i] }) : value.length > 1 ? `${i + 1}` : spec.title;
      // an accessible name that says what the number is: 'mass of bob 2 (kg)'
      const each = /\beach\b/.test(spec.description)
        ? spec.description
            .replace(/\beach\b/, '')
            .replace(/\s+(\w+)\s*$/, ` $1 ${i + 1}`)
            .replace(/\s+/g, ' ')
            .trim()
        : null;
      const f = numberField({
        label,
        fullName: `${spec.kind === 'per-body' && each ? each : `${spec.title} ${label}`}${spec.unit ? ` (${spec.unit})` : ''}`,
        unit: '',
        value: x,
        spec,
        description: i === 0 ? spec.description : '',
        compact: true,
        onCommit: (v) => this.#commit((next) => (next.params[spec.name][i] = v), f),
      });
      group.append(f.root);
    });
    return group;
  }

  /** A select for a parameter with a list of choices. */
  #choiceField(spec, value) {
    const id = uniqueId('f');
    const select = el(
      'select',
      { id },
      spec.choices.map((c) => el('option', { value: String(c) }, String(c))),
    );
    select.value = String(value);
    select.addEventListener('change', () => this.#commit((next) => (next.params[spec.name] = select.value)));
    return el('div', { class: 'field' }, el('label', { for: id }, spec.title), select);
  }

  /** Gravity of familiar places, one choice away (sets the parameter g). */
  #gravityPresets(spec, value) {
    const id = uniqueId('g');
    const places = GRAVITY.filter(([, g]) => g >= spec.min && g <= spec.max);
    const select = el(
      'select',
      { id },
      el('option', { value: '' }, t('controls.gravity.custom')),
      places.map(([name, g]) => el('option', { value: String(g) }, `${t(`controls.gravity.${name}`)} (${num(g, 4)} m/s²)`)),
    );
    select.value = places.some(([, g]) => g === value) ? String(value) : '';
    select.addEventListener('change', () => {
      if (select.value !== '') this.#commit((next) => (next.params[spec.name] = Number(select.value)));
    });
    return el('div', { class: 'field' }, el('label', { for: id }, t('controls.gravity.label')), select);
  }

  #renderOptions(state) {
    const sc = state.scenario;
    const integ = this.lab.integrator(sc.integrator);
    const host = this.els.options;
    setChildren(host);
    host.hidden = !integ?.options?.length;
    for (const raw of integ?.options ?? []) {
      const spec = { ...raw, title: paramText(integ.id, raw, 'title'), description: paramText(integ.id, raw, 'description') };
      const f = numberField({
        label: spec.title,
        unit: spec.unit,
        value: sc.options?.[spec.name] ?? spec.default,
        spec,
        step: spec.integer ? 1 : 'any',
        description: spec.description,
        onCommit: (v) => this.#commit((next) => (next.options = { ...(next.options ?? {}), [spec.name]: v }), f),
      });
      host.append(f.root);
    }
  }

  // ---- initial data ------------------------------------------------------------

  #renderInitial(state) {
    const sc = state.scenario;
    const system = this.lab.system(sc.system);
    const host = this.els.initial;
    setChildren(host);
    const fields = new Map(system.initialFields.map((f) => [f.name, f]));
    for (const [name, value] of Object.entries(sc.initial ?? {})) {
      const field = fields.get(name);
      const raw = field
        ? { ...field, title: paramText(sc.system, field, 'title'), description: paramText(sc.system, field, 'description') }
        : { title: name, unit: '', description: '' };
      const deg = DEGREES[raw.unit];
      const factor = deg ? deg.factor : 1;
      const meta = deg ? { ...raw, unit: deg.unit, description: raw.description.replace(/\brad\b/g, '°') } : raw;
      const toSchema = (v) => (factor === 1 ? v : (v * Math.PI) / 180);
      if (typeof value === 'number') {
        const f = numberField({
          label: meta.title,
          unit: meta.unit,
          value: shown(value, factor),
          description: meta.description,
          step: deg ? 1 : 0.1,
          onCommit: (v) => this.#commit((next) => (next.initial[name] = toSchema(v)), f),
        });
        host.append(f.root);
        continue;
      }
      if (!Array.isArray(value)) continue;
      const twoD = Array.isArray(value[0]);
      const width = twoD ? value[0].length : 1;
      // a 1-D vector whose description names its components ('[w, x, y, z]')
      const named = !twoD && value.length > 1 ? columnNames(meta.description, value.length) : null;
      const cols = twoD ? columnNames(meta.description, width) : [meta.title.replace(/s$/, '')];
      const noun = rowNoun(meta.description);
      const group = el(
        'fieldset',
        { class: 'field-group grid', style: { '--cols': String(named && !/^\d+$/.test(named[0]) ? Math.min(value.length, 4) : width) } },
        el('legend', {}, meta.title, el('span', { class: 'unit' }, meta.unit ? ` (${meta.unit})` : '')),
      );
      if (meta.description) group.append(el('p', { class: 'hint' }, meta.description));
      const rows = twoD ? value : value.map((x) => [x]);
      rows.forEach((row, i) => {
        row.forEach((x, j) => {
          const label =
            named && !/^\d+$/.test(named[0])
              ? named[i]
              : rows.length > 1 || twoD
                ? `${cols[j]} ${noun === '#' ? '' : noun + ' '}${i + 1}`
                : cols[j];
          const f = numberField({
            label,
            fullName: `${meta.title}: ${label}${meta.unit ? ` (${meta.unit})` : ''}`,
            unit: '',
            value: shown(x, factor),
            description: '',
            step: deg ? 1 : 0.1,
            compact: true,
            onCommit: (v) =>
              this.#commit((next) => {
                if (twoD) next.initial[name][i][j] = toSchema(v);
                else next.initial[name][i] = toSchema(v);
              }, f),
          });
          group.append(f.root);
        });
      });
      host.append(group);
    }
    const note = el('p', { class: 'hint' }, t('controls.initial.note'));
    if (fields.has('angles')) host.append(note);
  }
}
