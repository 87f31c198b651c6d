// The editor's mechanics: for the typed L, the momenta p = ∂L/∂q̇, the mass matrix, the
// Euler–Lagrange equations and the discrete Euler–Lagrange equations of a chosen rule,
// from lab.equations() (the core's derivative graph, simplified), typeset with KaTeX and
// copyable as LaTeX. The rule starts as the run's integrator when it is one of the rules
// the core can show, else the first.
import { el, setChildren, uniqueId } from './dom.js';
import { loadKatex } from './katex.js';
import { t } from '../i18n/index.js';
import { apiErrorText } from './api-error.js';

function renderTex(katex, tex) {
  const node = el('div', { class: 'def-tex' });
  if (!katex) {
    node.textContent = tex;
    return node;
  }
  katex.render(tex, node, { displayMode: true, throwOnError: false, output: 'htmlAndMathml', trust: false, strict: 'ignore' });
  return node;
}

export class MechanicsView {
  /** @param lab the lab (equations, withFull on the page's lab) */
  constructor(lab) {
    this.lab = lab;
    this.seq = 0;
    this.latex = '';
    this.chosen = null; // the user's rule, once chosen
    const ruleId = uniqueId('mech-rule');
    const alphaId = uniqueId('mech-alpha');
    this.rule = el('select', { id: ruleId, class: 'mech-rule' });
    this.alpha = el('input', { id: alphaId, type: 'number', min: '0', max: '1', step: '0.05', value: '0.5', class: 'mech-alpha' });
    this.alphaRow = el('label', { for: alphaId, class: 'field-row', hidden: true }, t('mechanics.alpha'), ' ', this.alpha);
    this.copyBtn = el('button', { type: 'button', class: 'btn small mech-copy' }, t('mechanics.copy'));
    this.status = el('span', { class: 'hint mech-status', role: 'status' });
    // scrollable (long discrete equations), so focusable; KaTeX's MathML speaks them
    this.body = el('div', { class: 'mech-math', tabindex: '0', role: 'region', 'aria-label': t('mechanics.title') });
    this.error = el('div', { class: 'expr-error', role: 'status' });
    this.root = el(
      'details',
      // closed until asked for: a long definition's equations cost a KaTeX pass on the
      // main thread, which a run landing on its link should not wait for
      { class: 'mechanics' },
      el('summary', {}, t('mechanics.title')),
      el('p', { class: 'hint' }, t('mechanics.intro')),
      el('div', { class: 'mech-controls' }, el('label', { for: ruleId }, t('mechanics.rule'), ' ', this.rule), this.alphaRow),
      this.body,
      this.error,
      el('div', { class: 'mech-actions' }, this.copyBtn, ' ', this.status),
    );
    this.rule.addEventListener('change', () => {
      this.chosen = this.rule.value;
      this.#refresh();
    });
    this.alpha.addEventListener('input', () => this.#refresh());
    this.copyBtn.addEventListener('click', () => this.#copy());
    this.root.addEventListener('toggle', () => {
      if (this.root.open && this.stale) this.#refresh();
    });
  }

  /** Shows the equations of `params` (a definition that inspectLagrangian accepted); run: { integrator, alpha }. */
  update(params, run = {}) {
    this.params = params;
    this.run = run;
    this.stale = true;
    if (this.root.open) this.#refresh();
  }

  async #copy() {
    if (!this.latex) return;
    let copied = false;
    try {
      await navigator.clipboard.writeText(this.latex);
      copied = true;
    } catch {
      copied = false;
    }
    this.status.textContent = t(copied ? 'mechanics.copied' : 'mechanics.copyFailed');
  }

  #options(rules) {
    if (this.rule.options.length === rules.length) return;
    setChildren(
      this.rule,
      rules.map((r) => el('option', { value: r }, t(`mechanics.rule.${r}`))),
    );
  }

  #request(rules) {
    const wanted = this.chosen ?? this.run?.integrator;
    const rule = rules.includes(wanted) ? wanted : rules[0];
    const alpha = Number(this.alpha.value);
    return { rule, alpha: Number.isFinite(alpha) && alpha >= 0 && alpha <= 1 ? alpha : 0.5 };
  }

  // On the page's lab, the lean build refuses (full-module) and withFull retries on the full one.
  async #compute() {
    const run = () => {
      const rules = this.lab.equationRules ?? [];
      return rules.length ? this.lab.equations(this.params, this.#request(rules)) : this.lab.equations(this.params);
    };
    return typeof this.lab.withFull === 'function' ? this.lab.withFull(run) : run();
  }

  async #refresh() {
    const seq = ++this.seq;
    this.stale = false;
    if (!this.params) return;
    let eq;
    try {
      eq = await this.#compute();
    } catch (e) {
      if (seq !== this.seq) return;
      this.error.textContent = apiErrorText(e);
      return;
    }
    let katex = null;
    try {
      katex = await loadKatex();
    } catch {
      katex = null;
    }
    if (seq !== this.seq) return;
    this.#options(eq.rules);
    this.rule.value = eq.rule;
    this.alphaRow.hidden = eq.alpha === null;
    this.error.textContent = '';
    // "copied" stays while the equations are those copied (a refresh with the same ones)
    if (eq.latex !== this.latex) this.status.textContent = '';
    this.latex = eq.latex;
    this.#show(katex, eq);
  }

  #show(katex, eq) {
    const block = (title, texts) => [el('p', { class: 'mech-heading' }, title), ...texts.map((x) => renderTex(katex, x))];
    const notes = eq.symbolicConstants ? [] : [el('p', { class: 'hint' }, t('mechanics.numericConstants'))];
    setChildren(
      this.body,
      ...block(
        t('mechanics.momenta'),
        eq.momenta.map((e) => e.latex),
      ),
      ...block(t('mechanics.mass'), [eq.massLatex]),
      ...block(
        t('mechanics.eulerLagrange'),
        eq.eulerLagrange.map((e) => e.latex),
      ),
      ...block(
        t(`mechanics.discrete.${eq.rule}`, { alpha: eq.alpha }),
        eq.discrete.map((e) => e.latex),
      ),
      ...notes,
    );
    this.body.dataset.latex = eq.latex;
  }
}
