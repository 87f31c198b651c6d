// The editor of a system defined by data (its registry entry has `definition`: the
// "lagrangian" system): coordinates, constants (number + slider), L, constraints,
// the initial q and q' (one row per coordinate, kept by name when the coordinates
// change, so that a new definition and initial data that fits it apply together),
// conserved quantities, symmetries and the bodies to draw.
//
// The page never parses an expression: "Apply" (or Ctrl/Cmd+Enter, or releasing a
// constant's slider) builds the params from the fields, and the API validates them
// (lab.normalize through actions.setScenario, as every other control does). A
// VilabError with `field` (params.lagrangian, params.constraints[1], params.bodies[0]
// .position[2] …) and `column` is shown under the input it names, with a caret (^)
// under that column of a monospace copy of the expression; the running simulation is
// left alone. While the user types, lab.inspectLagrangian(params) (the same C++
// parser) gives the LaTeX of L and the constraints for a KaTeX preview (debounced);
// on an error the last good preview stays, dimmed, with the caret message.
// Every message goes in as text (textContent), never as HTML.
import './editor.css'; // its styles (and its Mechanics') come with it
import { el, setChildren, uniqueId } from './dom.js';
import { loadKatex } from './katex.js';
import { clone } from '../state/store.js';
import { num } from '../sim/format.js';
import { t, registryText, language, onLanguageChange } from '../i18n/index.js';
import { isFurniture } from '../scene/furniture.js';
import { apiErrorText } from './api-error.js';
import { MechanicsView } from './mechanics-view.js';

const PREVIEW_DEBOUNCE_MS = 150;
const CARET_WINDOW = 40; // characters of the expression shown around the caret (the panel is ~45 wide)
const WIDE_CARET_WINDOW = 96; // the same in the wide editor

/** Splits at commas outside parentheses ("atan2(y, x), 1" → ["atan2(y, x)", "1"]); no parsing. */
export function splitTopLevel(text) {
  const out = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

/** Non-blank lines with their 1-based line numbers. */
function lines(text) {
  return String(text)
    .split('\n')
    .map((s, i) => ({ text: s.trim(), line: i + 1 }))
    .filter((l) => l.text !== '');
}

/** The column an error points at: error.column, else 'at column N' in its message. */
export function errorColumn(error) {
  if (Number.isInteger(error?.column) && error.column > 0) return error.column;
  const m = String(error?.message ?? '').match(/at column (\d+)/);
  return m ? Number(m[1]) : null;
}

/**
 * A monospace copy of `text` with a caret under `column` (1-based, in characters),
 * windowed around the caret when the text is long: { text, caret } lines.
 */
export function caretLines(text, column, width = CARET_WINDOW) {
  const chars = Array.from(String(text ?? ''));
  let k = Math.max(0, Math.min(column - 1, chars.length)); // a caret just past the end is allowed
  let from = 0;
  let to = chars.length;
  let head = '';
  let tail = '';
  if (chars.length > width) {
    from = Math.max(0, Math.min(k - Math.floor(width / 2), chars.length - width));
    to = Math.min(chars.length, from + width);
    if (from > 0) head = '…';
    if (to < chars.length) tail = '…';
  }
  // tabs would misalign the caret: show them as one space
  const shown = head + chars.slice(from, to).join('').replace(/\t/g, ' ') + tail;
  k = k - from + head.length;
  return { text: shown, caret: `${' '.repeat(k)}^` };
}

/** The error block: the message, and the caret copy when the error has a column. */
export function errorBlock(message, text, column, width = CARET_WINDOW) {
  const out = [el('p', { class: 'expr-message' }, message)];
  if (column && text != null) {
    const c = caretLines(text, column, width);
    out.push(el('pre', { class: 'caret', 'aria-hidden': 'true' }, `${c.text}\n${c.caret}`));
  }
  return out;
}

/** A registry doc phrase as a sentence (capitalized, with a full stop). */
const sentence = (x) => (x ? `${x[0].toUpperCase()}${x.slice(1)}${/[.!?]$/.test(x) ? '' : '.'}` : '');

/** An error's words in the page's language (the API's by code and field: ui/api-error.js; the form's own as written). */
const messageOf = (error) => apiErrorText(error);

/** Renders `tex` with KaTeX into node (its own output only; a failure shows the LaTeX as text). */
function renderTex(katex, node, tex) {
  try {
    katex.render(tex, node, { displayMode: true, throwOnError: false, output: 'htmlAndMathml', trust: false, strict: 'ignore' });
  } catch {
    node.textContent = tex;
  }
}

/**
 * Room for the editor: a wide dialog (full screen on a phone) that the editor's form moves
 * into, where L, its error with the caret and the KaTeX preview sit side by side, and out
 * of again when it closes (the same form: its edits, errors and listeners go with it).
 */
export class EditorRoom {
  constructor(section, host) {
    this.section = section;
    this.host = host;
    this.button = el('button', { type: 'button', class: 'btn small editor-open', id: 'editor-open', onclick: () => this.open() });
    section.insertBefore(this.button, host);
    this.title = el('h2', { id: 'editor-dialog-title', tabindex: '-1' });
    this.closeBtn = el('button', { type: 'button', class: 'btn small', onclick: () => this.close() });
    this.body = el('div', { class: 'editor-dialog-body' });
    this.dialog = el(
      'dialog',
      { class: 'editor-dialog', id: 'editor-dialog', 'aria-labelledby': 'editor-dialog-title' },
      el('div', { class: 'editor-dialog-head' }, this.title, this.closeBtn),
      this.body,
    );
    // Escape, the close button or close(): the form goes back to the panel
    this.dialog.addEventListener('close', () => this.#restore());
    document.body.append(this.dialog);
    this.words();
    onLanguageChange(() => this.words());
  }

  get isOpen() {
    return this.dialog.open;
  }

  words() {
    this.button.textContent = t('editorRoom.open');
    this.button.title = t('editorRoom.open.title');
    this.title.textContent = t('editorRoom.title');
    this.closeBtn.textContent = t('editorRoom.close');
  }

  open() {
    if (this.isOpen) return;
    this.body.append(this.host);
    this.dialog.showModal();
    this.host.querySelector('[data-key="lagrangian"]')?.focus();
  }

  close() {
    if (this.isOpen) this.dialog.close();
  }

  #restore() {
    if (this.host.parentNode === this.section) return;
    this.section.insertBefore(this.host, this.button.nextSibling);
    if (!this.section.hidden) this.button.focus();
  }
}

export class LagrangianEditor {
  /**
   * @param section  the <details> that holds the editor (hidden for systems without a definition)
   * @param host     the element the editor fills
   * @param lab      the lab (registry, inspectLagrangian)
   * @param store    the state store
   * @param actions  { setScenario(next) → Error|null, status(text) }
   */
  constructor(section, host, lab, store, actions) {
    this.section = section;
    this.host = host;
    this.lab = lab;
    this.store = store;
    this.actions = actions;
    this.key = null;
    this.timer = 0;
    this.previewSeq = 0;
    this.lastGood = null; // the last LaTeX the preview rendered
    this.room = new EditorRoom(section, host);
    this.mechanics = new MechanicsView(lab); // p, M, the EL and DEL equations of the typed L
    host.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        e.stopPropagation();
        this.apply();
      }
    });
    host.addEventListener('input', (e) => {
      if (e.target?.type === 'range') return; // a slider's drag only updates its number
      this.#markDirty(true);
      this.#clearErrorFor(e.target);
      this.#schedulePreview();
    });
  }

  /** Called on every store change: shows the editor for a system with a definition, rebuilt when the applied params change. */
  render(state) {
    const sc = state.scenario;
    this.run = { integrator: sc.integrator };
    const system = this.lab.system(sc.system);
    const show = !!system?.definition;
    this.section.hidden = !show;
    if (!show) {
      this.room.close();
      if (this.key !== null) setChildren(this.host);
      this.key = null;
      return;
    }
    // a new language rebuilds the words, unless there are unapplied edits to keep
    const key = `${sc.system}|${JSON.stringify(sc.params)}|${JSON.stringify(sc.initial)}|${language()}`;
    if (key === this.key || (this.dirty && key.slice(0, key.lastIndexOf('|')) === this.key?.slice(0, this.key.lastIndexOf('|')))) return;
    this.key = key;
    this.system = system;
    this.#build(sc.params ?? {}, sc.initial ?? {});
  }

  // ---- building the form -----------------------------------------------------------

  #doc(name) {
    const fields = this.system?.definition?.fields;
    if (!Array.isArray(fields)) return '';
    const f = fields.find((x) => x && (x.name === name || x.field === name || x.field === `params.${name}`));
    const d = f?.description ?? f?.doc ?? f?.docs;
    return typeof d === 'string' ? registryText('definition', { id: name, description: d }, 'description') : '';
  }

  get limits() {
    return this.system?.definition?.limits ?? {};
  }

  #build(params, initial) {
    const focusKey = this.host.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    this.applied = clone(params);
    this.appliedInitial = clone(initial);
    this.dirty = false;
    const p = params;
    const { coordinatesField, initialGroup } = this.#buildCoordinates(p, initial);
    const constantsGroup = this.#buildConstants(p);
    const lField = this.#buildLagrangian(p);
    this.#buildExpressions(p);
    const bodiesGroup = this.#buildBodies(p);
    const actions = this.#buildActions();
    setChildren(
      this.host,
      el('p', { class: 'hint' }, registryText('system', this.system, 'description')),
      coordinatesField,
      constantsGroup,
      lField,
      this.preview,
      this.mechanics.root,
      this.#field(
        t('editor.constraints'),
        t('editor.constraints.unit'),
        this.constraints,
        this.constraintsErr,
        sentence(this.#doc('constraints')),
      ),
      initialGroup,
      this.#field(t('editor.conserved'), t('editor.conserved.unit'), this.conserved, this.conservedErr, sentence(this.#doc('conserved'))),
      this.#field(
        t('editor.symmetries'),
        t('editor.symmetries.unit'),
        this.symmetries,
        this.symmetriesErr,
        sentence(this.#doc('symmetries')),
      ),
      bodiesGroup,
      actions,
      this.dirtyNote,
      this.generalErr,
    );
    this.#updateCounts();
    if (focusKey) this.host.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
    this.#preview();
  }

  /** The coordinates field, and the initial values: one row per coordinate. */
  #buildCoordinates(p, initial) {
    this.coordinates = this.#textInput('coordinates', (p.coordinates ?? []).join(', '), t('editor.coordinates.placeholder'));
    const coordErr = this.#errorHost('coordinates');
    const coordinatesField = this.#field(
      t('editor.coordinates'),
      t('editor.coordinates.unit'),
      this.coordinates,
      coordErr,
      sentence(this.#doc('coordinates')),
    );
    this.initialRows = [];
    this.initialGrid = el('div', { class: 'def-initial-grid' });
    this.initialErr = this.#errorHost('initial');
    this.#syncInitialRows(p.coordinates ?? [], initial);
    this.coordinates.addEventListener('change', () => this.#syncInitialRows(this.#coordinateNames()));
    const initialGroup = el(
      'fieldset',
      { class: 'def-group' },
      el('legend', {}, t('editor.initial')),
      this.#hint(t('editor.initial.hint')),
      this.initialGrid,
      this.initialErr,
    );
    return { coordinatesField, initialGroup };
  }

  /** The constants: a row each (number and slider), and "Add". */
  #buildConstants(p) {
    this.constantRows = [];
    this.constantsList = el('div', { class: 'def-constants' });
    this.constantsErr = this.#errorHost('constants');
    for (const [name, value] of Object.entries(p.constants ?? {})) this.#addConstant(name, value);
    this.addConstantBtn = el(
      'button',
      { type: 'button', class: 'btn small', 'data-key': 'add-constant', onclick: () => this.#addConstant('', 1, true) },
      t('editor.constant.add'),
    );
    return el(
      'fieldset',
      { class: 'def-group' },
      el('legend', {}, t('editor.constants')),
      this.#hint(`${sentence(this.#doc('constants')) || t('editor.constants.doc')}${t('editor.constants.slider')}`),
      this.constantsList,
      this.addConstantBtn,
      this.constantsErr,
    );
  }

  /** L's field, and its preview (this.preview). */
  #buildLagrangian(p) {
    this.lagrangian = this.#textarea('lagrangian', p.lagrangian ?? '', 3, t('editor.lagrangian.placeholder'));
    this.lagrangianErr = this.#errorHost('lagrangian');
    // scrollable (long expressions), so focusable; KaTeX's MathML speaks the formulas
    this.preview = el('div', { class: 'def-preview', tabindex: '0', role: 'region', 'aria-label': t('editor.preview') });
    this.previewMath = el('div', { class: 'def-preview-math' });
    this.previewErr = el('div', { class: 'expr-error', role: 'status' });
    this.staleNote = el('p', { class: 'hint def-stale-note', hidden: true }, t('editor.stale'));
    setChildren(this.preview, this.staleNote, this.previewMath, this.previewErr);
    const field = this.#field(
      t('editor.lagrangian'),
      t('editor.lagrangian.unit'),
      this.lagrangian,
      this.lagrangianErr,
      this.#functionsHint(),
    );
    field.classList.add('def-lagrangian'); // first, beside its preview, in the wide editor
    return field;
  }

  /** The constraints, conserved quantities and symmetries, one per line. */
  #buildExpressions(p) {
    this.constraints = this.#textarea('constraints', (p.constraints ?? []).join('\n'), 2, t('editor.constraints.placeholder'));
    this.constraintsErr = this.#errorHost('constraints');
    this.conserved = this.#textarea(
      'conserved',
      Object.entries(p.conserved ?? {})
        .map(([n, e]) => `${n}: ${e}`)
        .join('\n'),
      2,
      t('editor.conserved.placeholder'),
    );
    this.conservedErr = this.#errorHost('conserved');
    this.symmetries = this.#textarea(
      'symmetries',
      Object.entries(p.symmetries ?? {})
        .map(([n, g]) => `${n}: ${(Array.isArray(g) ? g : [g]).join(', ')}`)
        .join('\n'),
      2,
      t('editor.symmetries.placeholder'),
    );
    this.symmetriesErr = this.#errorHost('symmetries');
  }

  /** The bodies: a row each, and "Add". */
  #buildBodies(p) {
    this.bodyRows = [];
    this.bodiesList = el('div', { class: 'def-bodies' });
    this.bodiesErr = this.#errorHost('bodies');
    (p.bodies ?? []).forEach((b) => this.#addBody(b));
    this.addBodyBtn = el(
      'button',
      { type: 'button', class: 'btn small', 'data-key': 'add-body', onclick: () => this.#addBody({ position: ['0', '0', '0'] }, true) },
      t('editor.body.add'),
    );
    return el(
      'fieldset',
      { class: 'def-group' },
      el('legend', {}, t('editor.bodies')),
      this.#hint(sentence(this.#doc('bodies')) || t('editor.bodies.doc')),
      this.bodiesList,
      this.addBodyBtn,
      this.bodiesErr,
    );
  }

  /** Apply and Revert (the note of unapplied edits and the general error are this.dirtyNote, this.generalErr). */
  #buildActions() {
    this.generalErr = el('div', { class: 'expr-error', role: 'status' });
    this.dirtyNote = el('span', { class: 'hint def-dirty', hidden: true }, t('editor.dirty'));
    const applyBtn = el(
      'button',
      {
        type: 'button',
        class: 'btn def-apply',
        'data-key': 'apply',
        'aria-keyshortcuts': 'Control+Enter Meta+Enter',
        onclick: () => this.apply(),
      },
      t('editor.apply'),
    );
    this.revertBtn = el(
      'button',
      { type: 'button', class: 'btn small', 'data-key': 'revert', disabled: true, onclick: () => this.revert() },
      t('editor.revert'),
    );
    return el('div', { class: 'def-actions' }, applyBtn, this.revertBtn, el('span', { class: 'hint' }, 'Ctrl/⌘ + Enter'));
  }

  #hint(text) {
    return text ? el('p', { class: 'hint' }, text) : null;
  }

  #functionsHint() {
    const fns = this.system?.definition?.functions;
    const names = Array.isArray(fns) ? fns.map((f) => (typeof f === 'string' ? f : f?.name)).filter((x) => typeof x === 'string') : [];
    const notes = this.system?.definition?.notes;
    const base = this.#doc('lagrangian');
    const list = names.length ? t('editor.functions', { list: names.join(', ') }) : '';
    const notesText = typeof notes === 'string' ? registryText('definition', { id: 'notes', text: notes }, 'text') : t('editor.operators');
    return [sentence(base), list, notesText].filter(Boolean).join(' ');
  }

  #textInput(key, value, placeholder) {
    return el('input', {
      type: 'text',
      class: 'mono',
      value,
      placeholder,
      spellcheck: 'false',
      autocomplete: 'off',
      autocapitalize: 'off',
      'data-key': key,
    });
  }

  #textarea(key, value, rows, placeholder) {
    const area = el('textarea', {
      class: 'mono',
      rows: String(Math.max(rows, Math.min(8, value.split('\n').length))),
      placeholder,
      spellcheck: 'false',
      autocomplete: 'off',
      autocapitalize: 'off',
      'data-key': key,
    });
    area.value = value;
    return area;
  }

  #errorHost(key) {
    return el('div', { class: 'expr-error', role: 'status', 'data-for': key });
  }

  #field(label, unit, input, errHost, hint) {
    const id = uniqueId('def');
    input.id = id;
    const hintId = `${id}-hint`;
    const errId = `${id}-err`;
    errHost.id = errId;
    input.setAttribute('aria-describedby', `${hintId} ${errId}`);
    return el(
      'div',
      { class: 'field def-field' },
      el('label', { for: id }, label, unit ? el('span', { class: 'unit' }, ` (${unit})`) : null),
      input,
      el('span', { class: 'hint', id: hintId }, hint ?? ''),
      errHost,
    );
  }

  /** A slider range around a value: (v/20, 2v] for v > 0, symmetric for v < 0, [−1, 1] for 0. */
  static sliderRange(v) {
    if (!Number.isFinite(v) || v === 0) return { min: -1, max: 1 };
    if (v > 0) return { min: v / 20, max: 2 * v };
    return { min: 2 * v, max: -2 * v };
  }

  #addConstant(name, value, focus = false) {
    const i = this.constantRows.length;
    // keys stay unique after removals (focus is restored by key after a rebuild)
    this.constantSeq = this.constantRows.length === 0 ? 0 : this.constantSeq + 1;
    const key = `const-${this.constantSeq}`;
    const nameInput = el('input', {
      type: 'text',
      class: 'mono const-name',
      value: name,
      'aria-label': t('editor.constant.name', { n: i + 1 }),
      spellcheck: 'false',
      autocomplete: 'off',
      'data-key': `${key}-name`,
    });
    const valueInput = el('input', {
      type: 'number',
      step: 'any',
      inputmode: 'decimal',
      value: String(value),
      'aria-label': t('editor.constant.value', { name: name || i + 1 }),
      'data-key': `${key}-value`,
    });
    const { min, max } = LagrangianEditor.sliderRange(Number(value));
    const range = el('input', {
      type: 'range',
      min: String(min),
      max: String(max),
      step: String((max - min) / 200),
      'aria-label': t('editor.constant.slider', { name: name || i + 1, min: num(min, 3), max: num(max, 3) }),
      'data-key': `${key}-range`,
    });
    range.value = String(value);
    const remove = el(
      'button',
      {
        type: 'button',
        class: 'btn tiny ghost',
        'aria-label': t('editor.constant.remove', { name: name || i + 1 }),
        title: t('editor.remove'),
        'data-key': `${key}-remove`,
      },
      '×',
    );
    const err = el('div', { class: 'expr-error', role: 'status' });
    const row = { nameInput, valueInput, range, err, node: null };
    range.addEventListener('input', () => {
      valueInput.value = range.value;
      this.#markDirty(true);
    });
    range.addEventListener('change', () => {
      valueInput.value = range.value;
      this.apply();
    });
    valueInput.addEventListener('change', () => {
      const v = Number(valueInput.value);
      if (Number.isFinite(v)) range.value = String(v);
      this.apply();
    });
    nameInput.addEventListener('input', () => {
      const label = nameInput.value.trim() || String(this.constantRows.indexOf(row) + 1);
      valueInput.setAttribute('aria-label', t('editor.constant.value', { name: label }));
      range.setAttribute('aria-label', t('editor.constant.slider', { name: label, min: num(min, 3), max: num(max, 3) }));
    });
    remove.addEventListener('click', () => {
      row.node.remove();
      this.constantRows.splice(this.constantRows.indexOf(row), 1);
      this.#markDirty(true);
      this.#updateCounts();
      this.#schedulePreview();
      this.addConstantBtn?.focus();
    });
    row.node = el(
      'div',
      { class: 'def-constant' },
      nameInput,
      el('span', { class: 'eq', 'aria-hidden': 'true' }, '='),
      valueInput,
      range,
      remove,
      err,
    );
    this.constantRows.push(row);
    this.constantsList.append(row.node);
    if (focus) {
      this.#markDirty(true);
      this.#updateCounts();
      nameInput.focus();
    }
  }

  /** A furniture entry (a hoop, a wire …): a row naming it, kept as given, that can be removed. */
  #addFurniture(entry) {
    const i = this.bodyRows.length;
    const row = { furniture: clone(entry), err: el('div', { class: 'expr-error', role: 'status' }), node: null };
    const remove = el(
      'button',
      {
        type: 'button',
        class: 'btn tiny ghost',
        'aria-label': t('furniture.remove', { n: i + 1 }),
        title: t('editor.remove'),
        'data-key': `body-${i}-remove`,
      },
      '×',
    );
    remove.addEventListener('click', () => this.#removeBodyRow(row));
    row.node = el(
      'fieldset',
      { class: 'def-body' },
      el('legend', {}, t('furniture.row', { n: i + 1, kind: t(`furniture.kind.${entry.kind}`) })),
      el('div', { class: 'def-anchor' }, el('span', { class: 'hint' }, t('furniture.kept')), remove),
      row.err,
    );
    this.bodyRows.push(row);
    this.bodiesList.append(row.node);
  }

  /** Removes a row; later bodies anchored to it lose the anchor, those anchored further down shift. */
  #removeBodyRow(row) {
    const k = this.bodyRows.indexOf(row);
    const params = this.#bodiesFromRows().filter((_, j) => j !== k);
    for (const b of params) {
      if (Number.isInteger(b.anchor)) {
        if (b.anchor === k) delete b.anchor;
        else if (b.anchor > k) b.anchor -= 1;
      }
    }
    this.bodyRows = [];
    setChildren(this.bodiesList);
    params.forEach((b) => this.#addBody(b));
    this.#markDirty(true);
    this.#updateCounts();
    this.addBodyBtn?.focus();
  }

  #addBody(body, focus = false) {
    if (isFurniture(body)) return this.#addFurniture(body);
    const i = this.bodyRows.length;
    const key = `body-${i}`;
    const pos = Array.isArray(body?.position) ? body.position : ['0', '0', '0'];
    const position = ['x', 'y', 'z'].map((axis, j) =>
      el('input', {
        type: 'text',
        class: 'mono',
        value: String(pos[j] ?? '0'),
        'aria-label': t('editor.body.axis', { n: i + 1, axis }),
        spellcheck: 'false',
        autocomplete: 'off',
        'data-key': `${key}-p${j}`,
      }),
    );
    const anchorKind = el('select', { 'aria-label': t('editor.body.anchor', { n: i + 1 }), 'data-key': `${key}-anchor` });
    anchorKind.append(el('option', { value: 'none' }, t('editor.anchor.none')), el('option', { value: 'point' }, t('editor.anchor.point')));
    for (let j = 0; j < i; j++) anchorKind.append(el('option', { value: String(j) }, t('editor.anchor.body', { n: j + 1 })));
    const a = body?.anchor;
    const point = Array.isArray(a) ? a : [0, 0, 0];
    anchorKind.value = Array.isArray(a) ? 'point' : Number.isInteger(a) && a >= 0 && a < i ? String(a) : 'none';
    const anchorXYZ = ['x', 'y', 'z'].map((axis, j) =>
      el('input', {
        type: 'number',
        step: 'any',
        inputmode: 'decimal',
        value: String(point[j] ?? 0),
        'aria-label': t('editor.body.anchorAxis', { n: i + 1, axis }),
        'data-key': `${key}-a${j}`,
      }),
    );
    const link = el(
      'select',
      { 'aria-label': t('editor.body.link', { n: i + 1 }), 'data-key': `${key}-link` },
      ['rod', 'spring', 'none'].map((v) => el('option', { value: v }, t(`editor.link.${v}`))),
    );
    link.value = ['rod', 'spring', 'none'].includes(body?.link) ? body.link : 'rod';
    const anchorBox = el('span', { class: 'def-anchor-xyz' }, anchorXYZ);
    const sync = () => {
      anchorBox.hidden = anchorKind.value !== 'point';
      link.disabled = anchorKind.value === 'none';
    };
    anchorKind.addEventListener('change', sync);
    sync();
    const remove = el(
      'button',
      {
        type: 'button',
        class: 'btn tiny ghost',
        'aria-label': t('editor.body.remove', { n: i + 1 }),
        title: t('editor.remove'),
        'data-key': `${key}-remove`,
      },
      '×',
    );
    const err = el('div', { class: 'expr-error', role: 'status' });
    const row = { position, anchorKind, anchorXYZ, link, err, radius: body?.radius, node: null };
    remove.addEventListener('click', () => this.#removeBodyRow(row));
    row.node = el(
      'fieldset',
      { class: 'def-body' },
      el('legend', {}, t('editor.body', { n: i + 1 })),
      el(
        'div',
        { class: 'def-xyz' },
        position.map((p, j) => el('label', {}, el('span', { class: 'axis' }, 'xyz'[j]), p)),
      ),
      el('div', { class: 'def-anchor' }, anchorKind, anchorBox, link, remove),
      err,
    );
    this.bodyRows.push(row);
    this.bodiesList.append(row.node);
    if (focus) {
      this.#markDirty(true);
      this.#updateCounts();
      position[0].focus();
    }
  }

  #coordinateNames() {
    return this.coordinates.value
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
  }

  /**
   * One row (name, q, q') per coordinate; values kept by name from the rows shown (or
   * from `initial`, aligned with the applied coordinates); new coordinates start at 0.
   */
  #syncInitialRows(names, initial = null) {
    const known = new Map();
    if (initial) {
      (this.applied?.coordinates ?? []).forEach((c, i) => known.set(c, { q: initial.q?.[i] ?? 0, qdot: initial.qdot?.[i] ?? 0 }));
    } else {
      for (const r of this.initialRows) known.set(r.name, { q: r.q.value, qdot: r.qdot.value });
    }
    if (!initial && names.length === this.initialRows.length && names.every((n, i) => n === this.initialRows[i].name)) return;
    this.initialRows = names.map((name, i) => {
      const v = known.get(name) ?? { q: 0, qdot: 0 };
      const q = el('input', {
        type: 'number',
        step: 'any',
        inputmode: 'decimal',
        value: String(v.q),
        'aria-label': t('editor.initial.q', { name }),
        'data-key': `init-q-${i}`,
      });
      const qdot = el('input', {
        type: 'number',
        step: 'any',
        inputmode: 'decimal',
        value: String(v.qdot),
        'aria-label': t('editor.initial.qdot', { name }),
        'data-key': `init-v-${i}`,
      });
      return { name, q, qdot };
    });
    setChildren(
      this.initialGrid,
      this.initialRows.length
        ? [el('span', { class: 'hint' }, ''), el('span', { class: 'hint' }, 'q'), el('span', { class: 'hint' }, "q'")]
        : null,
      this.initialRows.map((r) => [el('span', { class: 'def-initial-name' }, r.name), r.q, r.qdot]),
    );
  }

  #updateCounts() {
    const L = this.limits;
    if (this.addConstantBtn) this.addConstantBtn.disabled = Number.isInteger(L.maxConstants) && this.constantRows.length >= L.maxConstants;
    if (this.addBodyBtn) this.addBodyBtn.disabled = Number.isInteger(L.maxBodies) && this.bodyRows.length >= L.maxBodies;
  }

  #markDirty(on) {
    this.dirty = on;
    if (this.dirtyNote) this.dirtyNote.hidden = !on;
    if (this.revertBtn) this.revertBtn.disabled = !on;
  }

  // ---- reading the form --------------------------------------------------------------

  #bodiesFromRows() {
    return this.bodyRows.map((row) => {
      if (row.furniture) return clone(row.furniture);
      const b = { position: row.position.map((p) => p.value.trim()) };
      const kind = row.anchorKind.value;
      if (kind === 'point') b.anchor = row.anchorXYZ.map((x) => (x.value.trim() === '' ? NaN : Number(x.value)));
      else if (kind !== 'none') b.anchor = Number(kind);
      if (kind !== 'none') b.link = row.link.value;
      if (Number.isFinite(row.radius) && row.radius > 0) b.radius = row.radius;
      return b;
    });
  }

  /**
   * The params the fields describe, and where each field path points (the input, its
   * error host, the exact expression text sent, a line label): { params, where, error? }.
   * error: a problem in the form's own layout (a line without 'name:'), shaped like the API's.
   * sync: first make the initial-value rows follow the coordinates (when applying).
   */
  readDraft(sync = false) {
    const draft = { params: clone(this.applied ?? {}), where: new Map(), error: null };
    // the first problem found is the draft's error, pointed at its input
    draft.fail = (field, problem, target) => {
      if (!draft.error) {
        draft.error = { field, message: `${field}: ${problem}` };
        draft.where.set(field, target);
      }
    };
    this.#readCoordinates(draft);
    this.#readConstants(draft);
    this.#readEquations(draft);
    this.#readConserved(draft);
    this.#readSymmetries(draft);
    this.#readBodies(draft);
    const initial = this.#readInitial(draft, sync);
    return { params: draft.params, initial, where: draft.where, error: draft.error };
  }

  #readCoordinates({ params, where }) {
    const coordText = this.coordinates.value;
    params.coordinates = coordText
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    params.coordinates.forEach((name, i) =>
      where.set(`params.coordinates[${i}]`, { input: this.coordinates, host: this.#hostOf(this.coordinates), text: name }),
    );
    where.set('params.coordinates', { input: this.coordinates, host: this.#hostOf(this.coordinates), text: coordText });
  }

  #readConstants({ params, where, fail }) {
    params.constants = {};
    this.constantRows.forEach((row, i) => {
      const name = row.nameInput.value.trim();
      const raw = row.valueInput.value.trim();
      const v = raw === '' ? NaN : Number(raw);
      const target = { input: row.valueInput, host: row.err, text: name };
      if (name === '') return fail(`params.constants`, t('editor.error.noName', { n: i + 1 }), { input: row.nameInput, host: row.err });
      if (Object.hasOwn(params.constants, name))
        return fail(`params.constants.${name}`, t('editor.error.twice'), { input: row.nameInput, host: row.err });
      Object.defineProperty(params.constants, name, {
        value: Number.isFinite(v) ? v : raw === '' ? null : raw,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      where.set(`params.constants.${name}`, target);
    });
    where.set('params.constants', { input: null, host: this.constantsErr });
  }

  /** L and the constraints (one per line). */
  #readEquations({ params, where }) {
    params.lagrangian = this.lagrangian.value.trim();
    where.set('params.lagrangian', { input: this.lagrangian, host: this.lagrangianErr, text: params.lagrangian });
    params.constraints = [];
    lines(this.constraints.value).forEach(({ text, line }) => {
      where.set(`params.constraints[${params.constraints.length}]`, { input: this.constraints, host: this.constraintsErr, text, line });
      params.constraints.push(text);
    });
    where.set('params.constraints', { input: this.constraints, host: this.constraintsErr });
  }

  /** Conserved quantities, a line each: name: expression. */
  #readConserved({ params, where, fail }) {
    params.conserved = {};
    for (const { text, line } of lines(this.conserved.value)) {
      const c = text.indexOf(':');
      const name = c > 0 ? text.slice(0, c).trim() : '';
      const expr = c > 0 ? text.slice(c + 1).trim() : '';
      if (!name) {
        fail('params.conserved', t('editor.error.conservedLine', { line, text: text.slice(0, 32) }), {
          input: this.conserved,
          host: this.conservedErr,
        });
        continue;
      }
      if (Object.hasOwn(params.conserved, name)) {
        fail(`params.conserved.${name}`, t('editor.error.lineTwice', { line }), { input: this.conserved, host: this.conservedErr });
        continue;
      }
      Object.defineProperty(params.conserved, name, { value: expr, enumerable: true, writable: true, configurable: true });
      where.set(`params.conserved.${name}`, { input: this.conserved, host: this.conservedErr, text: expr, line });
    }
    where.set('params.conserved', { input: this.conserved, host: this.conservedErr });
  }

  /** Symmetries, a line each: name: component, component, … */
  #readSymmetries({ params, where, fail }) {
    params.symmetries = {};
    for (const { text, line } of lines(this.symmetries.value)) {
      const c = text.indexOf(':');
      const name = c > 0 ? text.slice(0, c).trim() : '';
      const rest = c > 0 ? text.slice(c + 1).trim() : '';
      if (!name) {
        fail('params.symmetries', t('editor.error.symmetryLine', { line, text: text.slice(0, 32) }), {
          input: this.symmetries,
          host: this.symmetriesErr,
        });
        continue;
      }
      if (Object.hasOwn(params.symmetries, name)) {
        fail(`params.symmetries.${name}`, t('editor.error.lineTwice', { line }), { input: this.symmetries, host: this.symmetriesErr });
        continue;
      }
      const comps = rest === '' ? [] : splitTopLevel(rest);
      Object.defineProperty(params.symmetries, name, { value: comps, enumerable: true, writable: true, configurable: true });
      where.set(`params.symmetries.${name}`, { input: this.symmetries, host: this.symmetriesErr, text: rest, line });
      comps.forEach((comp, k) =>
        where.set(`params.symmetries.${name}[${k}]`, { input: this.symmetries, host: this.symmetriesErr, text: comp, line }),
      );
    }
    where.set('params.symmetries', { input: this.symmetries, host: this.symmetriesErr });
  }

  #readBodies({ params, where }) {
    params.bodies = this.#bodiesFromRows();
    this.bodyRows.forEach((row, i) => {
      where.set(`params.bodies[${i}]`, { input: null, host: row.err });
      if (row.furniture) return;
      where.set(`params.bodies[${i}].anchor`, { input: row.anchorKind, host: row.err });
      where.set(`params.bodies[${i}].link`, { input: row.link, host: row.err });
      row.anchorXYZ.forEach((x, j) => where.set(`params.bodies[${i}].anchor[${j}]`, { input: x, host: row.err }));
      row.position.forEach((p, j) => where.set(`params.bodies[${i}].position[${j}]`, { input: p, host: row.err, text: p.value.trim() }));
    });
    where.set('params.bodies', { input: null, host: this.bodiesErr });
  }

  /** Initial values (the rows follow the coordinates when applying, sync; the preview only reads them). */
  #readInitial({ params, where }, sync) {
    if (sync) this.#syncInitialRows(params.coordinates);
    const number = (input) => (input.value.trim() === '' ? NaN : Number(input.value));
    const rowOf = new Map(this.initialRows.map((r) => [r.name, r]));
    const initial = {
      q: params.coordinates.map((c) => (rowOf.has(c) ? number(rowOf.get(c).q) : 0)),
      qdot: params.coordinates.map((c) => (rowOf.has(c) ? number(rowOf.get(c).qdot) : 0)),
    };
    for (const key of ['initial', 'initial.q', 'initial.qdot']) where.set(key, { input: null, host: this.initialErr });
    this.initialRows.forEach((r, i) => {
      where.set(`initial.q[${i}]`, { input: r.q, host: this.initialErr });
      where.set(`initial.qdot[${i}]`, { input: r.qdot, host: this.initialErr });
    });
    return initial;
  }

  #hostOf(input) {
    return input?.closest('.def-field')?.querySelector('.expr-error') ?? this.generalErr;
  }

  /** Where a field path points: itself, else its nearest parent path that the form knows. */
  static locate(where, field) {
    let f = String(field ?? '');
    while (f) {
      if (where.has(f)) return where.get(f);
      const cut = Math.max(f.lastIndexOf('.'), f.lastIndexOf('['));
      if (cut <= 0) break;
      f = f.slice(0, cut);
    }
    return null;
  }

  // ---- errors --------------------------------------------------------------------

  #clearErrors() {
    for (const node of this.host.querySelectorAll('.expr-error')) if (node !== this.previewErr) setChildren(node);
    for (const node of this.host.querySelectorAll('[aria-invalid="true"]')) node.removeAttribute('aria-invalid');
    this.shownError = null;
  }

  #clearErrorFor(input) {
    if (!(input instanceof HTMLElement) || input.getAttribute('aria-invalid') !== 'true') return;
    input.removeAttribute('aria-invalid');
    const host = input.closest('.def-field, .def-constant, .def-body')?.querySelector('.expr-error');
    if (host) setChildren(host);
    this.shownError = null;
  }

  /** Shows an error (the API's VilabError or the form's own) under the input its field names. */
  showError(error, where) {
    const target = LagrangianEditor.locate(where, error.field) ?? { input: null, host: this.generalErr };
    const column = errorColumn(error);
    const message = (target.line ? t('editor.error.linePrefix', { line: target.line }) : '') + messageOf(error);
    setChildren(target.host ?? this.generalErr, errorBlock(message, target.text, column, this.#caretWidth()));
    target.input?.setAttribute('aria-invalid', 'true');
    this.shownError = messageOf(error);
    (target.host ?? this.generalErr).scrollIntoView?.({ block: 'nearest' });
  }

  /** Characters of an expression shown around an error's caret: more in the wide editor. */
  #caretWidth() {
    return this.room.isOpen ? WIDE_CARET_WINDOW : CARET_WINDOW;
  }

  // ---- apply ---------------------------------------------------------------------

  /** Builds the scenario from the fields and applies it through the store; returns true when applied. */
  apply() {
    clearTimeout(this.timer);
    const draft = this.readDraft(true);
    this.#clearErrors();
    if (draft.error) {
      this.showError(draft.error, draft.where);
      this.actions.status(t('editor.notApplied', { message: messageOf(draft.error) }));
      this.#preview();
      return false;
    }
    const st = this.store.get();
    const err = this.actions.setScenario({ ...st.scenario, params: draft.params, initial: draft.initial });
    if (err) {
      this.showError(err, draft.where);
      this.actions.status(t('editor.notApplied', { message: messageOf(err) }));
      this.#preview(); // the preview dims without repeating the message
      return false;
    }
    this.#markDirty(false);
    this.actions.status(t('editor.applied'));
    return true;
  }

  /** Discards the edits: the fields show the applied definition again. */
  revert() {
    this.#build(this.applied ?? {}, this.appliedInitial ?? {});
    this.actions.status(t('editor.discarded'));
  }

  // ---- the KaTeX preview ------------------------------------------------------------

  /** Dims the preview (muted, dashed rule, a note) while it shows the last good rendering. */
  #setStale(on) {
    this.preview.classList.toggle('stale', on);
    this.previewMath.classList.toggle('stale', on);
    this.staleNote.hidden = !on;
  }

  #schedulePreview() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.#preview(), PREVIEW_DEBOUNCE_MS);
  }

  async #preview() {
    if (typeof this.lab.inspectLagrangian !== 'function' || !this.previewMath) {
      if (this.preview) this.preview.hidden = true;
      return;
    }
    const seq = ++this.previewSeq;
    const draft = this.readDraft();
    let info = null;
    let error = draft.error;
    if (!error) {
      try {
        info = this.lab.inspectLagrangian(draft.params);
      } catch (e) {
        error = e;
      }
    }
    if (error) {
      this.#setStale(!!this.lastGood);
      const target = LagrangianEditor.locate(draft.where, error.field);
      const column = errorColumn(error);
      // (the same message already stands under its input after Apply: only dim the preview)
      if (messageOf(error) === this.shownError) setChildren(this.previewErr);
      else
        setChildren(
          this.previewErr,
          errorBlock(
            (target?.line ? t('editor.error.linePrefix', { line: target.line }) : '') + messageOf(error),
            target?.text,
            column,
            this.#caretWidth(),
          ),
        );
      if (!this.lastGood) this.previewMath.textContent = '';
      return;
    }
    setChildren(this.previewErr);
    const latex = info?.latex ?? {};
    const items = [];
    if (typeof latex.lagrangian === 'string') items.push({ tex: `L = ${latex.lagrangian}` });
    (Array.isArray(latex.constraints) ? latex.constraints : []).forEach((g, i) => {
      if (typeof g === 'string') items.push({ tex: `g_{${i + 1}} = ${g} = 0` });
    });
    let katex = null;
    try {
      katex = await loadKatex();
    } catch {
      katex = null;
    }
    if (seq !== this.previewSeq) return; // a newer preview is on its way
    const nodes = items.map((it) => {
      const node = el('div', { class: 'def-tex' });
      if (katex) renderTex(katex, node, it.tex);
      else node.textContent = it.tex;
      return node;
    });
    const notes = [];
    if (info?.velocityQuadratic === false) notes.push(t('editor.notQuadratic'));
    else if (info?.constantMassMatrix === true) notes.push(t('editor.constantMass'));
    setChildren(this.previewMath, nodes, notes.length ? el('p', { class: 'hint' }, notes.join(' ')) : null);
    this.#setStale(false);
    this.lastGood = items;
    this.mechanics.update(draft.params, this.run);
  }
}
