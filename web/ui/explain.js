// The Explain drawer: for the selected integrator(s), the discrete Lagrangian and
// update equations (registry field `equations`, LaTeX, rendered by KaTeX, which
// is loaded only when the drawer first opens), the docs paragraph and the citation;
// then the lesson last opened in the Studies drawer and the studies themselves, from
// their registry (web/sim/lessons.js), so the page's words and the code stay together.
// The lean build's registry leaves out docs, equations and citations (core/prose/README.md):
// the drawer reads them from the integrators' English prose files itself, with this chunk.
import { el, setChildren } from './dom.js';
import { badgeList } from './controls.js';
import { loadKatex } from './katex.js';
import { t, registryText } from '../i18n/index.js';
import { Drawer } from './drawer.js';
import { STUDIES, lessonById } from '../sim/lessons.js';

// Each integrator's English prose, as text: its own copy, not shared with the Spanish chunk
// (which reads the same files' claims).
const ENGLISH = import.meta.glob('../../core/prose/integrators/*.en.json', { eager: true, query: '?raw', import: 'default' });

/** The integrator's entry with the words its build's registry may lack (docs, equations, citation). */
function explained(integ) {
  const text = ENGLISH[`../../core/prose/integrators/${integ.id}.en.json`];
  if (!text || (integ.docs && integ.equations && integ.citation)) return integ;
  const prose = JSON.parse(text);
  // the equations are kept as the lines of the display; the registry joins them with LaTeX's \\
  return { docs: prose.docs, equations: prose.equations?.join('\\\\'), citation: prose.citation, ...integ };
}

export class ExplainDrawer extends Drawer {
  constructor(root, button, lab) {
    super(root, button);
    this.lab = lab;
    this.state = null;
    this.lessonId = null;
  }

  /** The lesson shown in the Studies drawer (its docs come first among the studies). */
  setLesson(id) {
    this.lessonId = id;
    if (this.isOpen) this.render();
  }

  /** Call on state changes; re-renders only while open. */
  update(state) {
    this.state = state;
    if (this.isOpen) this.render();
  }

  async render() {
    const state = this.state;
    if (!state) return;
    const ids = [state.scenario.integrator, state.compare].filter(Boolean);
    const system = this.lab.system(state.scenario.system);
    const sections = ids.map((id, k) => this.#section(this.lab.integrator(id), k === 0 ? 'A' : 'B'));
    // a system defined by data: its L and constraints, typeset from the core's LaTeX
    const defined = system.definition ? this.#definitionTex(state.scenario.params) : null;
    if (defined) sections.unshift(defined);
    const lesson = lessonById(this.lessonId);
    const studies = [...(lesson ? [this.#study('lesson', lesson, true)] : []), ...STUDIES.map((s) => this.#study('study', s, false))];
    sections.push(...studies);
    setChildren(
      this.body,
      el(
        'p',
        { class: 'explain-system' },
        el('strong', {}, registryText('system', system, 'title')),
        ': ',
        registryText('system', system, 'description'),
      ),
      sections.filter((s) => !studies.includes(s)).map((s) => s.node),
      el('h3', { class: 'explain-studies' }, t('explain.studies')),
      studies.map((s) => s.node),
    );
    let katex = null;
    try {
      katex = await loadKatex();
    } catch {
      katex = null;
    }
    for (const s of sections) {
      if (!s.tex) continue;
      if (katex) {
        try {
          katex.render(`\\begin{gathered}${s.tex}\\end{gathered}`, s.math, {
            displayMode: true,
            throwOnError: false,
            output: 'htmlAndMathml',
          });
        } catch {
          s.math.textContent = s.tex;
        }
      } else s.math.textContent = s.tex;
    }
  }

  /** { node, math, tex } of the definition's L and constraints (lab.inspectLagrangian), or null. */
  #definitionTex(params) {
    if (typeof this.lab.inspectLagrangian !== 'function') return null;
    let latex;
    try {
      latex = this.lab.inspectLagrangian(params)?.latex;
    } catch {
      return null;
    }
    if (typeof latex?.lagrangian !== 'string') return null;
    const lines = [`L = ${latex.lagrangian}`];
    (Array.isArray(latex.constraints) ? latex.constraints : []).forEach(
      (g, i) => typeof g === 'string' && lines.push(`g_{${i + 1}} = ${g} = 0`),
    );
    const tex = lines.join(' \\\\ ');
    const math = el('div', { class: 'math', role: 'math', 'aria-label': t('explain.definition.label') }, tex);
    const node = el('section', { class: 'explain-definition' }, el('h4', {}, t('explain.definition.title')), math);
    return { node, math, tex };
  }

  /** A study's or a lesson's docs (registry kind 'study' | 'lesson'): open for the current lesson, folded otherwise. */
  #study(kind, entry, open) {
    const title = registryText(kind, entry, 'title');
    const math = el('div', { class: 'math', role: 'math', 'aria-label': t('explain.equationsOf', { title }) }, entry.tex);
    const node = el(
      'details',
      { class: `explain-${kind}`, id: `explain-${kind}-${entry.id}`, open },
      el('summary', {}, title),
      entry.caption ? el('p', { class: 'summary' }, registryText(kind, entry, 'caption')) : null,
      math,
      el('p', {}, registryText(kind, entry, 'docs')),
      el('p', { class: 'citation' }, t('explain.source'), el('cite', {}, registryText(kind, entry, entry.source ? 'source' : 'citation'))),
    );
    return { node, math, tex: entry.tex };
  }

  #section(entry, role) {
    if (!entry) return { node: el('p', {}, t('explain.unknown')) };
    const integ = explained(entry);
    const title = registryText('integrator', integ, 'title');
    const math = el('div', { class: 'math', role: 'math', 'aria-label': t('explain.equationsOf', { title }) }, integ.equations);
    const update =
      { 'energy-momentum': 'explain.update.gradient', variational: 'explain.update.lagrangian' }[integ.family] ?? 'explain.update';
    const node = el(
      'section',
      { class: `explain-integrator role-${role}` },
      el('h3', {}, el('span', { class: `swatch ${role}`, 'aria-hidden': 'true' }), `${role}: ${title}`),
      badgeList(integ, `explain-badges-${role}`),
      el('p', { class: 'summary' }, registryText('integrator', integ, 'summary')),
      el('h4', {}, t(update)),
      math,
      el('h4', {}, t(integ.family === 'baseline' ? 'explain.whyDrifts' : 'explain.whyConserves')),
      el('p', {}, registryText('integrator', integ, 'docs')),
      el('p', { class: 'citation' }, t('explain.source'), el('cite', {}, registryText('integrator', integ, 'citation'))),
    );
    return { node, math, tex: integ.equations };
  }
}
