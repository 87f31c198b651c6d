// What the Explain drawer says a method keeps on the system shown: only the structures
// this run has (sim.describe().structures: the claim kinds its exact flow keeps), each of
// the integrator's claims of those kinds with its formula, the structures it does not
// keep, and its update equations without the constraint terms where there are none.
// Formulas are LaTeX for KaTeX; words come from the registry's claims and the catalogue,
// through the `words` functions the drawer passes (so Node tests run this module as is).

/** The two claim kinds about the energy: one structure of the exact flow, kept exactly or within a band. */
const ENERGY = ['energy', 'energy-bounded'];

const GREEK = { Π: '\\Pi', Γ: '\\Gamma', Ω: '\\Omega', θ: '\\theta', φ: '\\varphi', ω: '\\omega', λ: '\\lambda', μ: '\\mu', ψ: '\\psi' };
const SUBSCRIPT = '₀₁₂₃₄₅₆₇₈₉';

/** A quantity's symbol as the description writes it ('J_z', 'Π₃', '|Π|', 'J_angle') in LaTeX. */
export function texSymbol(symbol) {
  let s = String(symbol ?? '');
  s = s.replace(/[₀-₉]+/g, (d) => `_{${[...d].map((c) => SUBSCRIPT.indexOf(c)).join('')}}`);
  s = s.replace(/[ΠΓΩθφωλμψ]/g, (c) => `${GREEK[c]} `);
  // a long subscript (a symmetry's name) is a word, set upright
  s = s.replace(/_([A-Za-z][\w]+)/, (m, name) => `_{\\mathrm{${name}}}`);
  return s.replace(/ $/, '');
}

/** The momentum maps this run conserves (their symbols), from the description's quantities. */
function conservedMomenta(description) {
  return (description?.quantities ?? []).filter((q) => q.conserved && q.key.startsWith('momentum')).map((q) => texSymbol(q.symbol));
}

/** The formula of a claim kind on this run (null when it has none to show). */
function formulaOf(kind, integ, description) {
  const at = (s, k) => `${s}(q_{${k}},p_{${k}})`;
  switch (kind) {
    case 'symplectic':
      return '\\Phi_h^{*}\\,(\\mathrm{d}q\\wedge\\mathrm{d}p) = \\mathrm{d}q\\wedge\\mathrm{d}p';
    case 'momentum': {
      const maps = conservedMomenta(description);
      return maps.length ? maps.map((J) => `${at(J, 'k+1')} = ${at(J, 'k')}`).join(',\\quad ') : null;
    }
    case 'constraints':
      return description?.constraintWhat === 'rotation' ? 'R_{k+1}^{\\mathsf T}R_{k+1} = I' : 'g(q_{k+1}) = 0';
    case 'energy':
      return 'E(q_{k+1},p_{k+1}) = E(q_k,p_k)';
    case 'energy-bounded':
      return `|E(q_k,p_k) - E_0| \\le C\\,h^{${integ.order}}`;
    case 'casimir':
      return '|\\Pi_{k+1}| = |\\Pi_k|';
    default:
      return null;
  }
}

/**
 * The integrator's claims that apply to this run: [{ kind, words, tex }], in the registry's order.
 * claim(text): a claim's words in the page's language.
 */
export function keptHere(integ, description, claim = (text) => text) {
  const structures = new Set(description?.structures ?? []);
  return (integ?.claims ?? [])
    .filter((c) => structures.has(c.kind))
    .map((c) => ({ kind: c.kind, words: claim(c.text), tex: formulaOf(c.kind, integ, description) }));
}

/**
 * The structures of this run the integrator does not claim: [{ kind, words }] (the energy counted
 * once). lost(kind, { list }): the page's words for a structure not kept.
 */
export function lostHere(integ, description, lost = (kind) => kind) {
  const claimed = new Set((integ?.claims ?? []).map((c) => c.kind));
  const kinds = [...new Set((description?.structures ?? []).map((k) => (ENERGY.includes(k) ? 'energy' : k)))];
  return kinds
    .filter((k) => (k === 'energy' ? !ENERGY.some((e) => claimed.has(e)) : !claimed.has(k)))
    .map((k) => ({
      kind: k,
      words: lost(k, { list: conservedMomentaText(description) }),
    }));
}

const conservedMomentaText = (description) =>
  (description?.quantities ?? [])
    .filter((q) => q.conserved && q.key.startsWith('momentum'))
    .map((q) => q.symbol.replace(/_(\w+)/, '$1'))
    .join(', ');

// A term of a constraint force (+ Dg(q)ᵀλ), and a clause that states a constraint (g(q) = 0, Dg(q)M⁻¹p = 0, g̈ = 0).
const CONSTRAINT_FORCE =
  /\s*[+-]\s*(?:M\^\{-1\})?Dg\((?:[^()]|\([^()]*\))*\)\^\{\\mathsf T\}\\(?:lambda|Lambda|mu|nu)(?:_\{[^{}]*\}|_\w)?/g;
const STATES_CONSTRAINT = /(^|[^\w\\])D?g\(/;
const CLAUSES = /(,\\quad|;\\quad|,\\ )/;

/** An update's LaTeX lines for a run without constraints: the constraint forces and equations left out. */
export function withoutConstraints(lines) {
  return lines
    .map((line) => {
      const parts = line.replace(CONSTRAINT_FORCE, '').split(CLAUSES);
      const kept = [];
      for (let i = 0; i < parts.length; i += 2) {
        if (STATES_CONSTRAINT.test(parts[i])) continue;
        kept.push(kept.length ? `${parts[i - 1]}${parts[i]}` : parts[i].replace(/^\s+/, ''));
      }
      return kept.join('');
    })
    .filter((line) => line.trim() !== '');
}

// Formula fragments in prose: a symbol with a subscript (q_{k+1}, L_d, J_z) or a power (h^4, O(h^{2})).
const INLINE_TEX = /[A-Za-z0-9ΠΓΩθφωλμψ|)](?:_(?:\{[^{}\s]*\}|[A-Za-z0-9]+)|\^(?:\{[^{}\s]*\}|[0-9]+))+/g;

/** Prose split into text and formulas: [{ text } | { tex, source }] (source: the fragment as the prose wrote it). */
export function proseParts(text) {
  const out = [];
  let last = 0;
  for (const m of String(text ?? '').matchAll(INLINE_TEX)) {
    if (m.index > last) out.push({ text: text.slice(last, m.index) });
    out.push({ tex: texSymbol(m[0]).replace(/−/g, '-'), source: m[0] });
    last = m.index + m[0].length;
  }
  if (last < String(text ?? '').length) out.push({ text: text.slice(last) });
  return out;
}
