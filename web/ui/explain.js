// The Explain drawer: for the selected integrator(s), the discrete Lagrangian and
// update equations (registry field `equations`, LaTeX, rendered by KaTeX, which
// is loaded only when the drawer first opens; without the constraint terms on a run
// that has none), what the method keeps and loses on THIS run (its claims of the kinds
// the run's description lists, each with its formula: ui/explain-structures.js), the
// docs paragraph (folded: it speaks of every system the method applies to) and the citation;
// then the lesson last opened in the Studies drawer and the studies themselves, from
// their registry (web/sim/lessons.js), so the page's words and the code stay together.
// The lean build's registry leaves out docs, equations and citations (core/prose/README.md):
// the drawer reads them from the integrators' English prose files itself, with this chunk.
import { el, setChildren } from './dom.js';
import { badgeList } from './controls.js';
import { loadKatex } from './katex.js';
import { t, registryText, claimText } from '../i18n/index.js';
import { Drawer } from './drawer.js';
import { STUDIES, lessonById } from '../sim/lessons.js';
import { keptHere, lostHere, proseParts, withoutConstraints } from './explain-structures.js';
import { integratorTitle } from './why.js';

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

/** The update's LaTeX for this run: its lines, without constraint terms when the run has no constraints. */
function updateTex(equations, description) {
  const lines = String(equations ?? '').split('\\\\');
  return (description && !description.constrained ? withoutConstraints(lines) : lines).join('\\\\');
}

/** Renders LaTeX into node (display or inline); the source as text only if KaTeX is missing or fails. */
function typeset(katex, node, tex, displayMode) {
  if (katex) {
    try {
      katex.render(displayMode ? `\\begin{gathered}${tex}\\end{gathered}` : tex, node, {
        displayMode,
        throwOnError: false,
        output: 'htmlAndMathml',
      });
      return;
    } catch {
      /* the source below */
    }
  }
  node.textContent = tex;
}

/** A paragraph of prose with its formula fragments (q_{k+1}, J_z, h^4) as inline math: { node, inline }. */
function proseParagraph(text, attrs = {}) {
  const inline = [];
  const parts = proseParts(text).map((p) => {
    if (p.text != null) return p.text;
    // typeset once KaTeX is in (its LaTeX if it cannot load); data-source: the prose's own text
    const node = el('span', { class: 'math-inline', dataset: { source: p.source } });
    inline.push({ node, tex: p.tex });
    return node;
  });
  return { node: el('p', attrs, ...parts), inline };
}

export class ExplainDrawer extends Drawer {
  /** describe(): the description of A's run (sim.describe()), or null before the first build. */
  constructor(root, button, lab, { describe = () => null } = {}) {
    super(root, button);
    this.lab = lab;
    this.describe = describe;
    this.state = null;
    this.lessonId = null;
  }

  /** The lesson shown in the Studies drawer (its docs come first among the studies). */
  setLesson(id) {
    this.lessonId = id;
    if (this.isOpen) this.render();
  }

  /** Call on state changes (and when a run is built); re-renders only while open. */
  update(state) {
    this.state = state;
    if (this.isOpen) this.render();
  }

  async render() {
    const state = this.state;
    if (!state) return;
    const description = this.#description(state);
    const ids = [state.scenario.integrator, state.compare].filter(Boolean);
    const system = this.lab.system(state.scenario.system);
    const sections = ids.map((id, k) => this.#section(this.lab.integrator(id), k === 0 ? 'A' : 'B', description));
    // a system defined by data: its L and constraints, typeset from the core's LaTeX
    const defined = system.definition ? this.#definitionTex(state.scenario.params) : null;
    if (defined) sections.unshift(defined);
    const lesson = lessonById(this.lessonId);
    const studies = [...(lesson ? [this.#study('lesson', lesson, true)] : []), ...STUDIES.map((s) => this.#study('study', s, false))];
    sections.push(...studies);
    // the system: its title and description (its formulas, J_z or L = ½ m v², typeset inline)
    const about = proseParagraph(registryText('system', system, 'description'), { class: 'explain-system' });
    about.node.prepend(el('strong', {}, registryText('system', system, 'title')), ': ');
    setChildren(
      this.body,
      about.node,
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
    for (const s of [about, ...sections]) {
      if (s.tex) typeset(katex, s.math, s.tex, true);
      for (const f of s.inline ?? []) typeset(katex, f.node, f.tex, false);
    }
  }

  /** A's description when A runs this document's system (else null: nothing is said about the run). */
  #description(state) {
    try {
      const d = this.describe();
      return d && d.system === state.scenario.system ? d : null;
    } catch {
      return null;
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
    const math = el('div', { class: 'math', role: 'math', 'aria-label': t('explain.definition.label') });
    const node = el('section', { class: 'explain-definition' }, el('h4', {}, t('explain.definition.title')), math);
    return { node, math, tex };
  }

  /** A study's or a lesson's docs (registry kind 'study' | 'lesson'): open for the current lesson, folded otherwise. */
  #study(kind, entry, open) {
    const title = registryText(kind, entry, 'title');
    const math = el('div', { class: 'math', role: 'math', 'aria-label': t('explain.equationsOf', { title }) });
    const caption = entry.caption ? proseParagraph(registryText(kind, entry, 'caption'), { class: 'summary' }) : null;
    const docs = proseParagraph(registryText(kind, entry, 'docs'));
    const node = el(
      'details',
      { class: `explain-${kind}`, id: `explain-${kind}-${entry.id}`, open },
      el('summary', {}, title),
      caption?.node,
      math,
      docs.node,
      el('p', { class: 'citation' }, t('explain.source'), el('cite', {}, registryText(kind, entry, entry.source ? 'source' : 'citation'))),
    );
    return { node, math, tex: entry.tex, inline: [...(caption?.inline ?? []), ...docs.inline] };
  }

  /** What the method keeps on this run (each claim with its formula) and what it does not: { node, inline }. */
  #structures(integ, role, description) {
    const kept = keptHere(integ, description, claimText);
    const lost = lostHere(integ, description, (kind, vars) => t(`words.explain.lost.${kind}`, vars));
    const inline = [];
    const item = (k) => {
      const math = k.tex ? el('span', { class: 'math-inline' }) : null;
      if (math) inline.push({ node: math, tex: k.tex });
      return el('li', { class: `kept ${k.kind}` }, k.words, math ? ': ' : '', math);
    };
    const node = el(
      'div',
      { class: 'explain-here', id: `explain-here-${role}` },
      el('h4', {}, t('words.explain.keeps')),
      kept.length ? el('ul', {}, kept.map(item)) : el('p', {}, t('words.explain.keepsNothing')),
      lost.length ? el('h4', {}, t('words.explain.loses')) : null,
      lost.length
        ? el(
            'ul',
            {},
            lost.map((k) => el('li', { class: `lost ${k.kind}` }, k.words)),
          )
        : null,
    );
    return { node, inline };
  }

  #section(entry, role, description) {
    if (!entry) return { node: el('p', {}, t('explain.unknown')) };
    const integ = explained(entry);
    const title = integratorTitle(integ, description?.structures ?? null);
    const math = el('div', { class: 'math', role: 'math', 'aria-label': t('explain.equationsOf', { title }) });
    const update =
      { 'energy-momentum': 'explain.update.gradient', variational: 'explain.update.lagrangian' }[integ.family] ?? 'explain.update';
    const here = description ? this.#structures(integ, role, description) : { node: null, inline: [] };
    const docs = proseParagraph(registryText('integrator', integ, 'docs'));
    const node = el(
      'section',
      { class: `explain-integrator role-${role}` },
      el('h3', {}, el('span', { class: `swatch ${role}`, 'aria-hidden': 'true' }), `${role}: ${title}`),
      badgeList(integ, `explain-badges-${role}`, description?.structures ?? null),
      el('h4', {}, t(update)),
      math,
      here.node,
      el(
        'details',
        { class: 'explain-docs' },
        el('summary', {}, t(integ.family === 'baseline' ? 'words.explain.howDrifts' : 'words.explain.howConserves')),
        el('p', { class: 'summary' }, registryText('integrator', integ, 'summary')),
        docs.node,
      ),
      el('p', { class: 'citation' }, t('explain.source'), el('cite', {}, registryText('integrator', integ, 'citation'))),
    );
    return { node, math, tex: updateTex(integ.equations, description), inline: [...here.inline, ...docs.inline] };
  }
}
