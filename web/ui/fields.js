// Form fields generated from registry entries (params, integrator options,
// initial data). Every input has a visible label with its unit; descriptions
// and range hints are tied in with aria-describedby; problems reported by the
// API appear next to the field (aria-invalid + text).
import { el, uniqueId } from './dom.js';
import { listSeparator, num } from '../sim/format.js';

export function rangeText(spec) {
  if (spec.min == null && spec.max == null) return '';
  const lo = spec.min == null ? '−∞' : num(spec.min, 6);
  const hi = spec.max == null ? '∞' : num(spec.max, 6);
  const open = spec.minExclusive ? '(' : '[';
  return `${open}${lo}${listSeparator()}${hi}]`;
}

const unitText = (u) => (u ? ` (${u})` : '');

/** A number input. onCommit(value) on change; returns { root, input, setError }. */
export function numberField({ label, unit, value, spec = {}, description, onCommit, step = 'any', compact = false, fullName = null }) {
  const id = uniqueId('f');
  const hintId = `${id}-hint`;
  const errId = `${id}-err`;
  const input = el('input', {
    id,
    type: 'number',
    inputmode: 'decimal',
    step,
    value: String(value),
    'aria-describedby': `${hintId} ${errId}`,
    'aria-label': fullName ?? null,
  });
  if (spec.min != null && !spec.minExclusive) input.min = String(spec.min);
  if (spec.max != null) input.max = String(spec.max);
  const hint = el('span', { class: 'hint', id: hintId }, [description, rangeText(spec)].filter(Boolean).join(' · '));
  const err = el('span', { class: 'field-error', id: errId, role: 'status' });
  input.addEventListener('change', () => {
    const raw = input.value.trim();
    const v = raw === '' ? NaN : Number(raw);
    onCommit(v, input);
  });
  const root = el(
    'div',
    { class: `field${compact ? ' compact' : ''}` },
    el('label', { for: id }, label, el('span', { class: 'unit' }, unitText(unit))),
    input,
    compact ? null : hint,
    err,
  );
  if (compact) (hint.hidden = true), root.append(hint);
  return {
    root,
    input,
    setError(text) {
      err.textContent = text ?? '';
      if (text) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    },
  };
}

/** Column names from a description like '[θ, φ] per link …'. */
export function columnNames(description, width) {
  const m = String(description ?? '').match(/\[([^\]]+)\]/);
  const names = m ? m[1].split(',').map((s) => s.trim()) : [];
  return names.length === width ? names : Array.from({ length: width }, (_, i) => `${i + 1}`);
}

/** Per-row label: 'link 1', 'bob 2' … from the description. */
export function rowNoun(description) {
  const d = String(description ?? '');
  if (/per link/.test(d)) return 'link';
  if (/per bob/.test(d)) return 'bob';
  return '#';
}
